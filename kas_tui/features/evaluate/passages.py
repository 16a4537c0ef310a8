"""A document's body cut into passages: the unit an answer is looked for in.

The navigator asks whether one passage of a document it read holds the question's
words (not the whole body, which holds most common words somewhere): :func:`answers`
is that test; the question drafter asks whether another document answers a drafted
question as well as its own.
"""

from __future__ import annotations

import re

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError

_HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


#: Share of the question's content words a passage must hold to answer it...
ANSWER_SHARE = 0.8
#: ... or it may miss this many of them (a short question: two of three words do).
MAY_MISS = 1


def answers(found: int, asked: int, share: float = ANSWER_SHARE) -> bool:
    """Whether a passage holding ``found`` of the question's ``asked`` content words
    answers it: ``share`` of them at least, or all but :data:`MAY_MISS` of them (and
    more than half)."""
    if asked <= 0 or found <= 0:
        return False
    return found >= share * asked or (asked - found <= MAY_MISS and found * 2 > asked)


def passages(text: str, *, context: bool = True) -> list[str]:
    """A document cut into sections: each heading with what follows it up to the next
    heading (the text before the first heading is a section of its own; headings
    inside fenced code do not cut). Each section is read in its document's context:
    it starts with the frontmatter's title and description, as a reader who opened the
    document has them in mind (``context=False``: the sections alone)."""
    start = fm.body_start(text)
    body = text[start:]
    prefix = _context(text) if start and context else ""
    found: list[list[str]] = [[]]
    fence = ""
    for line in body.splitlines():
        mark = _FENCE.match(line)
        if mark:
            fence = "" if fence and mark.group(1) == fence else (fence or mark.group(1))
        elif not fence and _HEADING.match(line) and any(s.strip() for s in found[-1]):
            found.append([])
        found[-1].append(line)
    sections = ["\n".join(lines) for lines in found if any(s.strip() for s in lines)]
    return [f"{prefix}\n\n{section}" if prefix else section for section in sections] or [prefix]


def _context(text: str) -> str:
    """The frontmatter's title and description ('' when it does not parse)."""
    try:
        parsed = fm.parse(text)
    except FormatError:
        return ""
    if parsed is None or not isinstance(parsed.data, dict):
        return ""
    parts = [parsed.data.get("title"), parsed.data.get("description")]
    return "\n".join(p for p in parts if isinstance(p, str) and p.strip())
