"""What bookdown (R Markdown books) writes beyond Markdown, read as the book shows it: a
part's heading (``# (PART) Basics {-}``) opens a part of the book, no section of a page;
a cross-reference ``\\@ref(zeta)`` shows its target (here its name's words) and an index
entry ``\\index{term}`` nothing."""

from __future__ import annotations

import re

#: bookdown's part headings, ``(PART) Basics``, ``(APPENDIX) Appendix``.
_PART = re.compile(r"\s*\((PART|APPENDIX)\*?\)\s+(.*?)\s*(?:\{[^}]*\})?\s*$")
#: bookdown's cross-reference ``\@ref(fig:cars)`` and LaTeX's index entry ``\index{term}``.
_REF = re.compile(r"\\@ref\(([^()\s]+)\)")
_INDEX = re.compile(r"\\index\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}")


def is_part_heading(raw: str) -> bool:
    """Whether a heading's text opens a bookdown part (``(PART) Basics``)."""
    return _PART.match(raw) is not None


def part_title(raw: str) -> str | None:
    """The name of the part a heading's text opens (``(PART) Basics {-}``: "Basics";
    ``(APPENDIX) {-}`` alone: "Appendix"), ``None`` for any other heading."""
    found = _PART.match(raw)
    if found is None:
        return None
    return found.group(2) or found.group(1).capitalize()


def without_bookdown_marks(text: str) -> str:
    """``text`` with ``\\@ref(id)`` as the id's words and ``\\index{...}`` left out."""
    text = _REF.sub(lambda m: m.group(1).split(":")[-1].replace("-", " "), text)
    return _INDEX.sub("", text)
