"""How wide the main screen's side panes are, decided by the terminal's width.

Beside the frontmatter and the body, the main screen shows the navigation tree, and on
request the files view (``f``) and the outline (``o``, inside the body pane, left of the
page). The page must stay readable: the body keeps :data:`BODY_LEAST` columns, the
outline's beside them. When the panes asked for do not fit at their least widths, the one
opened longest ago gives way (the tree first, as it is there from the start): at 80
columns the outline or the files view takes the tree's place, as frogmouth's sidebar
does; at 120 the tree narrows and stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Columns of the body pane below which a page is no longer readable: 34 characters of
#: text a line once its frame, padding and scrollbar are taken (the body's width at 80
#: columns beside the tree, which nothing opened makes narrower).
BODY_LEAST = 44
#: Columns of the body pane that are not the page's text: frame, padding, scrollbar.
BODY_FRAME = 10
#: Columns of the outline, beside the page inside the body pane (body_pane.py's CSS).
OUTLINE = 32
#: The side panes' least widths: a tree's titles need 30 columns, a file name 24.
LEAST = {"tree": 30, "files": 24}
#: Their share of the terminal's width: one alone, or the tree and the files view together.
SHARES = {("tree",): (0.45,), ("files",): (0.45,), ("tree", "files"): (0.34, 0.26)}
#: The panes one opens: the tree (always, but it gives way), the files view, the outline.
PANES = ("tree", "files", "outline")


@dataclass(frozen=True)
class PaneWidths:
    """Columns of the tree and the files view (0: not shown), whether the outline is
    shown, and the columns left for the frontmatter and body panes."""

    tree: int
    files: int
    outline: bool
    detail: int

    @property
    def text(self) -> int:
        """Columns of the page's text: the body pane's, less its frame, its padding and
        the outline beside it."""
        return self.detail - BODY_FRAME - (OUTLINE if self.outline else 0)


def pane_widths(width: int, opened: Sequence[str]) -> PaneWidths:
    """The panes' widths at ``width`` columns. ``opened``: the panes wanted (of
    :data:`PANES`), the one opened longest ago first; it gives way first when they do not
    all fit beside a readable body; the last opened is always shown."""
    shown = [pane for pane in opened if pane in PANES]

    def room_needed() -> int:
        sides = sum(LEAST[pane] for pane in shown if pane in LEAST)
        return sides + BODY_LEAST + (OUTLINE if "outline" in shown else 0)

    while len(shown) > 1 and room_needed() > width:
        shown.pop(0)
    sides = [pane for pane in ("tree", "files") if pane in shown]
    sizes = [
        max(LEAST[pane], round(share * width))
        for pane, share in zip(sides, SHARES.get(tuple(sides), ()), strict=True)
    ]
    detail_least = BODY_LEAST + (OUTLINE if "outline" in shown else 0)
    over = sum(sizes) + detail_least - width
    while over > 0:  # narrow the widest side pane above its least, a column at a time
        spare = [
            (size - LEAST[pane], i) for i, (pane, size) in enumerate(zip(sides, sizes, strict=True))
        ]
        most, i = max(spare, default=(0, -1))
        if most <= 0:
            break
        sizes[i] -= 1
        over -= 1
    widths = dict(zip(sides, sizes, strict=True))
    return PaneWidths(
        tree=widths.get("tree", 0),
        files=widths.get("files", 0),
        outline="outline" in shown,
        detail=max(0, width - sum(sizes)),
    )
