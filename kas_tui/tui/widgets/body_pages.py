"""Long pages shown a piece at a time: where the body pane may cut a Markdown text.

Textual's ``Markdown`` mounts several widgets for every block and every list item: a
bundle of 250 entries takes seconds to mount and lay out, and every key waits behind it.
The body pane therefore mounts a long page in *pieces* of a few dozen blocks, the first at
once and the others as the reader scrolls towards them. This module decides where the
pieces start: only between top-level blocks or between the items of a top-level list, so
no code fence, table or nested list is ever cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt

#: A page of at most this many blocks (a top-level list item counts as one) is mounted
#: whole: every document of the demo, a SKILL.md, a bundle within the index budget.
WHOLE = 80
#: Blocks in the first piece of a longer page: more than a screenful at 160×48 (the pane
#: mounts more while the screen is not full).
FIRST_PIECE = 24
#: Blocks in each later piece.
LATER_PIECE = 24


@dataclass(frozen=True)
class Piece:
    """``text`` starts at line ``first_line`` (0-based) of the whole page."""

    first_line: int
    text: str


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("gfm-like")  # what Textual's Markdown widget parses with


def _unit_starts(text: str) -> tuple[list[int], dict]:
    """The first line of every top-level block and top-level list item, in order."""
    env: dict = {}
    tokens = _parser().parse(text, env)
    starts: list[int] = []
    in_list = False
    for token in tokens:
        if token.map is None:
            continue
        if token.level == 0 and token.nesting >= 0:
            starts.append(token.map[0])
            in_list = token.type in ("bullet_list_open", "ordered_list_open")
        elif in_list and token.level == 1 and token.type == "list_item_open":
            starts.append(token.map[0])
    return sorted(set(starts)), env


def _definitions(env: dict) -> str:
    """The reference definitions of the whole page, for every piece to resolve ``[x][y]``."""
    lines = []
    for label, ref in env.get("references", {}).items():
        title = ref.get("title") or ""
        quoted = ' "' + title.replace('"', '\\"') + '"' if title else ""
        lines.append(f"[{label}]: <{ref.get('href', '')}>{quoted}\n")
    return "\n" + "".join(lines) if lines else ""


def pieces(
    text: str, first: int = FIRST_PIECE, later: int = LATER_PIECE, whole: int = WHOLE
) -> list[Piece]:
    """``text`` cut into pieces of ``first``, then ``later``, blocks each.

    A text of at most ``whole`` blocks stays whole. The pieces joined give the
    text back, except that each piece after the first repeats the page's reference
    definitions (they render as nothing).
    """
    starts, env = _unit_starts(text)
    if len(starts) <= max(whole, first):
        return [Piece(0, text)]
    lines = text.splitlines(keepends=True)
    cuts = [0]
    at = first
    while at < len(starts):
        cuts.append(starts[at])
        at += later
    definitions = _definitions(env)
    out = []
    for n, start in enumerate(cuts):
        end = cuts[n + 1] if n + 1 < len(cuts) else len(lines)
        body = "".join(lines[start:end])
        out.append(Piece(start, body if n == 0 else body + definitions))
    return out
