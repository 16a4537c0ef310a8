"""The scan of the usual body, made of ATX headings and paragraphs only: split into
blocks with a few searches, no block rules."""

from __future__ import annotations

import re

from markdown_it.common.utils import MD_TRIM_CHARS as _TRIM  # what markdown-it's mdTrim strips
from markdown_it.common.utils import unescapeAll

from kas_tui.core.okf.link_parser import Link
from kas_tui.core.okf.scan.common import (
    _ATX_RE,
    BodyScan,
    Destination,
    _normalize_link,
)
from kas_tui.core.okf.scan.inline import (
    _SIMPLE_LINK_RE,
    _Inline,
    _inline_destinations,
)

#: A line start that makes a body more than headings and paragraphs: a block quote,
#: list or thematic break, fence, HTML block, setext underline, or indented code.
_NOT_FLAT_RE = re.compile(r"\n(?:[ ]{0,3}[>*+\-0-9`~<=_]|[ ]{4})")


_NOT_FLAT_FIRST_RE = re.compile(r"[ ]{0,3}[>*+\-0-9`~<=_]|[ ]{4}")


def _scan_flat(
    src: str, first_line: int, spans: list[Destination] | None = None
) -> BodyScan | None:
    """The scan of a body made of ATX headings and paragraphs only, else ``None``.

    Without tabs, without ``]:`` (so no reference or footnote definition, whose label
    must end with it on one line) and without a line starting (after at most three
    spaces) with a character of _NOT_FLAT_RE or with four spaces, every rule but
    ``heading`` and ``paragraph`` fails at every line, and only a heading interrupts a
    paragraph: blocks are runs of non-blank lines split at headings.

    With ``spans``, the destinations of inline links and images go there instead
    (footnotes aside: CommonMark's reading).
    """
    if "\t" in src or "]:" in src:
        return None
    if _NOT_FLAT_FIRST_RE.match(src) is not None or _NOT_FLAT_RE.search(src) is not None:
        return None
    links: list[Link] = []
    footnotes: set[str] = set()
    headings: list[tuple[int, str, int]] = []
    fn = "[^" in src and spans is None
    lines = src.split("\n")
    start = -1  # first line of the open paragraph
    for i, text in enumerate(lines):
        rest = text.lstrip(" ")
        if rest and rest[0] == "#":
            m = _ATX_RE.match(rest)
            if m is not None:
                if start >= 0:
                    _flat_inline(
                        "\n".join(lines[start:i]), first_line + start, fn, links, footnotes, spans
                    )
                    start = -1
                text = rest[m.end() :].rstrip(" ")
                cut = text.rstrip("#")
                if cut and cut[-1] == " ":
                    text = cut
                content = text.strip(_TRIM)
                headings.append((m.end(), content, first_line + i))
                _flat_inline(content, first_line + i, fn, links, footnotes, spans)
                continue
        if not rest:
            if start >= 0:
                _flat_inline(
                    "\n".join(lines[start:i]), first_line + start, fn, links, footnotes, spans
                )
                start = -1
        elif start < 0:
            start = i
    if start >= 0:
        _flat_inline("\n".join(lines[start:]), first_line + start, fn, links, footnotes, spans)
    return BodyScan(tuple(links), frozenset(footnotes), frozenset(), tuple(headings))


def _flat_inline(
    content: str,
    line: int,
    fn: bool,
    links: list[Link],
    footnotes: set[str],
    spans: list[Destination] | None,
) -> None:
    if spans is not None:
        if "](" in content:
            _inline_destinations(content.strip(_TRIM), line, {}, spans)
    elif "<" in content or ("[" in content and ("](" in content or (fn and "[^" in content))):
        src = content.strip(_TRIM)
        if not _simple_links(src, line, fn, links):
            _Inline(src, {}, fn, (), ()).scan(line, links, footnotes)


def _simple_links(src: str, line: int, fn: bool, links: list[Link]) -> bool:
    """Add the links of ``src`` when every one is a plain ``[text](destination)`` and
    nothing else can start an inline token (no escape, code span, image, autolink or
    HTML, no footnote reference): what :meth:`_Inline.scan` finds then, without its
    machinery. ``False`` (nothing added) for any other paragraph."""
    if "<" in src or "\\" in src or "`" in src or "!" in src or (fn and "[^" in src):
        return False
    found = []
    pos = 0
    find = src.find
    match = _SIMPLE_LINK_RE.match
    while (start := find("[", pos)) >= 0:
        simple = match(src, start)
        if simple is None:
            return False
        found.append((start, simple))
        pos = simple.end()
    count = src.count
    last = 0
    for start, simple in found:
        line += count("\n", last, start)
        last = start
        text, dest = simple.groups()
        links.append(Link(_normalize_link(unescapeAll(dest) if "&" in dest else dest), text, line))
    return True
