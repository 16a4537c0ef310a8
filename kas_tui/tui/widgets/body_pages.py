"""Long pages shown a piece at a time: where the body pane may cut a Markdown text.

Textual's ``Markdown`` mounts several widgets for every block and every list item: a
bundle of 250 entries takes seconds to mount and lay out, and every key waits behind it.
The body pane therefore mounts a long page in *pieces* of a few dozen blocks, the first at
once and the others as the reader scrolls towards them. This module decides where the
pieces start: only between top-level blocks or between the items of a top-level list, so
no code fence, table or nested list is ever cut; and inside a very long paragraph, between
two words (Textual lays a paragraph out whole, about 2 ms a KB: a page of one long
paragraph would hold every key for as long).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache, lru_cache

from markdown_it import MarkdownIt

#: A page of at most this many blocks (a top-level list item counts as one) is mounted
#: whole: every document of the demo, a SKILL.md, a bundle within the index budget.
WHOLE = 80
#: Blocks in the first piece of a longer page: more than a screenful at 160×48 (the pane
#: mounts more while the screen is not full).
FIRST_PIECE = 24
#: Blocks in each later piece.
LATER_PIECE = 24
#: Characters of a top-level paragraph mounted as one widget at most (about 40 ms to lay
#: out); a longer one is mounted in parts of about this size, each drawn as a paragraph.
PART_CHARS = 8 * 1024


@dataclass(frozen=True)
class Piece:
    """``text`` starts at line ``first_line`` (0-based) of the whole page."""

    first_line: int
    text: str


@cache
def _parser() -> MarkdownIt:
    # what Textual's Markdown widget parses with; blocks only (where a piece may start
    # does not depend on inline markup, and inline parsing is most of the time)
    return MarkdownIt("gfm-like").disable(["inline", "text_join"], ignoreInvalid=True)


#: What a one-line list item holds.
_ONE_LINE_ITEM = frozenset({"paragraph_open", "paragraph_close", "inline"})


def _unit_starts(
    text: str,
) -> tuple[list[int], dict, list[tuple[int, int]], list[tuple[int, int]]]:
    """The first line of every top-level block and top-level list item, in order; the
    ``[start, end)`` lines of every tight top-level bullet list whose items are one
    line each (see :func:`compact_lists`); and those of every top-level paragraph."""
    env: dict = {}
    tokens = _parser().parse(text, env)
    starts: list[int] = []
    flat: list[tuple[int, int]] = []
    paragraphs: list[tuple[int, int]] = []
    in_list = False
    one_line = True
    list_at: tuple[int, int] | None = None
    item_at = -1
    for token in tokens:
        if token.type == "bullet_list_close" and token.level == 0:
            if one_line and list_at is not None:
                flat.append(list_at)
            in_list = False
        if token.map is None:
            continue
        if token.level == 0 and token.nesting >= 0:
            starts.append(token.map[0])
            if token.type == "paragraph_open":
                paragraphs.append((token.map[0], token.map[1]))
            in_list = token.type in ("bullet_list_open", "ordered_list_open")
            list_at = tuple(token.map) if token.type == "bullet_list_open" else None
            one_line = True
            item_at = -1
        elif in_list and token.level == 1 and token.type == "list_item_open":
            starts.append(token.map[0])
            # tight: each item on the line after the last (a loose list keeps its look)
            one_line = one_line and (item_at < 0 or token.map[0] == item_at + 1)
            item_at = token.map[0]
        elif in_list and token.level == 2 and token.type == "paragraph_open":
            # one paragraph of one line, on the marker's line (the item's map may
            # take in a blank line after it)
            one_line = one_line and token.map == [item_at, item_at + 1]
        elif in_list and token.level >= 2 and token.type not in _ONE_LINE_ITEM:
            one_line = False  # a nested list, a code block, a quote inside an item
    return sorted(set(starts)), env, flat, paragraphs


#: A tight bullet list of at least this many one-line items (a bundle's index) is drawn
#: as one block: Textual mounts four widgets for every list item, a quarter of a second
#: for a screenful of entries, where one paragraph of lines is one widget.
COMPACT_LIST = 12

#: How such a list's lines start when drawn as one block (a no-break space: kept as written).
BULLET = "•\u00a0"

_MARKER = re.compile(r"[ ]{0,3}[*+-][ \t]+")


def compact_lists(
    lines: list[str], flat: list[tuple[int, int]], least: int = COMPACT_LIST
) -> list[str]:
    """``lines`` with each list of ``flat`` holding at least ``least`` items rewritten,
    line for line, as one paragraph: a bullet instead of the marker, a hard break at the
    end of every line but the last. Line numbers do not move, so a finding's line and a
    source range still point into it."""
    out = list(lines)
    for start, end in flat:
        items = [n for n in range(start, end) if _MARKER.match(out[n])]
        if len(items) < least:
            continue
        for n in items:
            text = out[n].rstrip("\r\n")
            ending = out[n][len(text) :]
            text = BULLET + text[_MARKER.match(text).end() :].rstrip()
            out[n] = text + ("  " if n != items[-1] else "") + (ending or "\n")
    return out


def _definitions(env: dict) -> str:
    """The reference definitions of the whole page, for every piece to resolve ``[x][y]``."""
    lines = []
    for label, ref in env.get("references", {}).items():
        title = ref.get("title") or ""
        quoted = ' "' + title.replace('"', '\\"') + '"' if title else ""
        lines.append(f"[{label}]: <{ref.get('href', '')}>{quoted}\n")
    return "\n" + "".join(lines) if lines else ""


@lru_cache(maxsize=16)  # going back to a page shown a moment ago parses nothing
def pieces(
    text: str,
    first: int = FIRST_PIECE,
    later: int = LATER_PIECE,
    whole: int = WHOLE,
    compact: int = COMPACT_LIST,
    part: int = PART_CHARS,
) -> list[Piece]:
    """``text`` cut into pieces of ``first``, then ``later``, blocks each.

    A text of at most ``whole`` blocks stays whole, unless it holds a paragraph of more
    than ``part`` characters: that one is cut into parts between words (:func:`_parts`).
    The pieces joined give the text back, except that each piece after the first repeats
    the page's reference definitions (they render as nothing), and that long one-line
    bullet lists are drawn compact (:func:`compact_lists`; ``compact=0``: never).
    """
    starts, env, flat, paragraphs = _unit_starts(text)
    lines = text.splitlines(keepends=True)
    if flat and compact:
        lines = compact_lists(lines, flat, compact)
    offsets = [0]  # where each line starts in the text
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    joined = "".join(lines)
    parts = [
        cut
        for start, end in paragraphs
        if offsets[end] - offsets[start] > part
        for cut in _parts(joined, offsets[start], offsets[end], part)
    ]
    if len(starts) <= max(whole, first) and not parts:
        return [Piece(0, joined)]
    cuts = {0, *parts}
    at = first
    while at < len(starts):
        cuts.add(offsets[starts[at]])
        at += later
    ordered = sorted(cuts)
    definitions = _definitions(env)
    out = []
    for n, start in enumerate(ordered):
        end = ordered[n + 1] if n + 1 < len(ordered) else len(joined)
        body = joined[start:end]
        line = bisect_right(offsets, start) - 1
        out.append(Piece(line, body if n == 0 else body + definitions))
    return out


def _parts(text: str, start: int, end: int, size: int) -> list[int]:
    """Where to cut the paragraph ``text[start:end]`` into parts of at most about
    ``size`` characters: after a line break or a space and before a letter (so a part
    never starts as a list item, a heading or code), or anywhere in a word longer than
    half a part. Links or emphasis across a cut are drawn as plain text."""
    cuts = []
    at = start
    while end - at > size:
        limit = at + size
        cut = limit
        for n in range(limit, at + size // 2, -1):
            if text[n - 1] in " \n" and text[n].isalpha():
                cut = n
                break
        cuts.append(cut)
        at = cut
    return cuts
