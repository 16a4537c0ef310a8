"""A fast scan of a Markdown body: links, footnotes and headings, as markdown-it finds them.

``kas-tui check`` needs every document's links and footnote references; running
markdown-it over 10,000 bodies costs seconds. :func:`scan_body` gives the same answer
about ten times faster (see ``benchmarks/check_scan_corpus.py``):

* the **reference path** (:func:`scan_body_reference`) runs markdown-it itself: the
  ``commonmark`` parser of :func:`kas_tui.okf.links.extract_links` for links and
  headings, and the same parser with the ``mdit_py_plugins`` footnote plugin for
  footnotes. It is the definition of the right answer.
* the **fast path** (:func:`scan_body_fast`) has two lanes. A body made only of ATX
  headings and paragraphs (checked with a few C-level searches) is split into blocks
  directly. Any other body goes through a port of markdown-it's block rules that keeps
  no tokens (``_Blocks``, rule by rule, quirks included, with shortcuts for the common
  shapes of paragraphs, list items and fences). Either way, only paragraphs and
  headings that can hold a link or a footnote are scanned inline, by a port of the
  inline rules that decide where links are (``_Inline``: code spans, escapes, entities,
  autolinks, raw HTML, link labels, destinations, titles, emphasis in link text).

The fast path gives up (returns ``None``) whenever it cannot promise markdown-it's
answer: nesting deep enough to hit markdown-it's limits, or footnote definitions and
references placed where the footnote plugin would split the text differently from
plain CommonMark (a definition inside a list or a block quote, interrupting a
paragraph, followed by indented text, or with a block as its text; a footnote inside
a link's text; a label with a backtick, ``<`` or backslash). :func:`scan_body` then
runs the reference path, so it is always exact.

The port follows markdown-it-py 4.3 and imports some of its internals, so
``pyproject.toml`` pins the versions the differential tests pass on (``tests/test_scan.py``:
hand-written cases, a Markdown grammar, the 652 CommonMark spec examples in seven
contexts, the demo package); 3.0 and 4.0 to 4.2 fail them.

Footnotes follow the footnote plugin with ``always_match_refs``: every ``[^label]`` the
plugin reads as a reference counts, defined or not (OKF footnotes name ``sources`` ids
in the frontmatter, not definitions in the body).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import accumulate
from operator import add, sub
from typing import NamedTuple

from markdown_it import MarkdownIt
from markdown_it.common.entities import entities as _ENTITIES
from markdown_it.common.html_re import HTML_TAG_RE
from markdown_it.common.utils import MD_TRIM_CHARS as _TRIM  # what markdown-it's mdTrim strips
from markdown_it.common.utils import (
    fromCodePoint,
    isMdAsciiPunct,
    isPunctChar,
    isValidEntityCode,
    isWhiteSpace,
    normalizeReference,
    unescapeAll,
)
from markdown_it.helpers import parseLinkDestination, parseLinkTitle
from markdown_it.rules_block.html_block import HTML_SEQUENCES
from markdown_it.rules_inline.autolink import AUTOLINK_RE, EMAIL_RE
from markdown_it.rules_inline.entity import DIGITAL_RE, NAMED_RE
from markdown_it.rules_inline.escape import _ESCAPED

from .link_parser import Link, _parser, links_in_tokens

__all__ = [
    "BodyScan",
    "Destination",
    "scan_body",
    "scan_body_fast",
    "scan_body_reference",
    "scan_destinations",
]


@dataclass(frozen=True)
class BodyScan:
    """What a Markdown body links to, cites and is titled.

    ``links``: inline links, images, autolinks and resolved reference links, in the order
    and form :func:`kas_tui.okf.links.extract_links` gives them. ``footnotes``: labels of
    footnote references ``[^id]`` used outside code. ``footnote_definitions``: labels
    defined by ``[^id]: text``. ``headings``: ``(level, text, line)`` of ATX and setext
    headings; ``text`` is the heading's Markdown source, trimmed (as markdown-it's inline
    token holds it).
    """

    links: tuple[Link, ...] = ()
    footnotes: frozenset[str] = frozenset()
    footnote_definitions: frozenset[str] = frozenset()
    headings: tuple[tuple[int, str, int], ...] = ()


def scan_body(body: str, *, first_line: int = 1) -> BodyScan:
    """Scan ``body`` (the text after the frontmatter, which starts on ``first_line``)."""
    try:
        found = scan_body_fast(body, first_line=first_line)
    except Exception:  # pragma: no cover - a bug in the fast path must not stop a check
        found = None
    return found if found is not None else scan_body_reference(body, first_line=first_line)


# --------------------------------------------------------------------------------------
# Reference path: markdown-it tokens.


@lru_cache(maxsize=1)
def _footnote_parser() -> MarkdownIt:
    from mdit_py_plugins.footnote import footnote_plugin

    md = MarkdownIt("commonmark")
    md.validateLink = lambda url: True  # as in links._parser: keep every link
    md.use(footnote_plugin, inline=False, move_to_end=False, always_match_refs=True)
    return md


def scan_body_reference(body: str, *, first_line: int = 1) -> BodyScan:
    """The scan computed from markdown-it's tokens (slow, the definition of right)."""
    links: list[Link] = []
    headings: list[tuple[int, str, int]] = []
    tokens = _parser().parse(body)
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[i + 1]
            line = first_line + (inline.map[0] if inline.map else 0)
            headings.append((int(token.tag[1:]), inline.content, line))
    links.extend(links_in_tokens(tokens, first_line=first_line))
    refs: set[str] = set()
    defs: set[str] = set()
    if "[^" in body:
        stack = list(_footnote_parser().parse(body))
        while stack:
            token = stack.pop()
            if token.type == "footnote_ref":
                refs.add(token.meta["label"])
            elif token.type == "footnote_reference_open":
                defs.add(token.meta["label"])
            if token.children:
                stack.extend(token.children)
    return BodyScan(tuple(links), frozenset(refs), frozenset(defs), tuple(headings))


# --------------------------------------------------------------------------------------
# Fast path.


class _Fallback(Exception):
    """The fast path cannot promise markdown-it's answer for this body."""


_NEWLINES_RE = re.compile(r"\r\n?|\n")
_MAX_BLOCK_LEVEL = 14  # markdown-it stops parsing at 20; stay well below
_MAX_INLINE_DEPTH = 12  # nested skipToken calls (markdown-it's inline maxNesting is 20)

#: Characters that end markdown-it's ``text`` rule (ParserInline's default terminators).
_TERMINATORS = frozenset("\n!#$%&*+-:<=>@[\\]^_`{}~")
_TERMINATOR_RE = re.compile("[" + re.escape("".join(sorted(_TERMINATORS))) + "]")
#: Outside link labels only these characters start a token that matters.
_ACTIVE_RE = re.compile(r"[\\`\[!<]")
#: A label whose first ``]`` comes before any of these ends at that ``]``.
_LABEL_END_RE = re.compile(r"[\]\\`<\[]")
_ESCAPABLE = frozenset(_ESCAPED)
#: The footnote plugin's ``[^label]:`` definition and ``[^label]`` reference.
_FN_DEF_RE = re.compile(r"\[\^([^ \]]+)\]:")
_FN_REF_RE = re.compile(r"\[\^([^ \n\]]+)\]")
#: Label characters that could start a token running past the closing ``]``.
_FN_UNSAFE = re.compile(r"[`<\\\[]")
#: markdown-it's ``hr`` rule: three or more of one marker, with spaces and tabs between.
_HR_RE = re.compile(r"([*\-_])[ \t]*(?:\1[ \t]*){2,}$")
#: ``skipBulletListMarker`` / ``skipOrderedListMarker``: group 1 a bullet, 2-3 a number.
_MARKER_RE = re.compile(r"([*+-])(?=[ \t]|$)|([0-9]{1,9})([.)])(?=[ \t]|$)")
#: The start of a line at column 0 after a blank line: no block before it but a fence
#: or an HTML block can go on there (and both need a character _boring_until looks for).
_RESET_RE = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)*(?=[^ \t\n])")
#: A setext underline (after the first line of a stretch), maybe inside block quotes.
_UNDERLINE_RE = re.compile(r"\n[ \t>]*(?:=+|-+)[ \t]*(?:\n|\Z)")
#: First characters of the top-level blocks worth skipping when they hold nothing.
_CONTAINERS = frozenset("-*+>0123456789")
_SPACES_RE = re.compile(" *")
#: First characters that may make a line more than a paragraph continuation.
_LINE_MARKS = frozenset("`~>*-_+0123456789<#=")
#: The label of a reference definition ends at the first "]" unless one of these comes first.
_REF_LABEL_RE = re.compile(r"[\[\]\n\\]")
#: An ATX heading's opening sequence.
_ATX_RE = re.compile(r"#{1,6}(?=[ \t]|$)")


@cache
def _closing_fence_re(marker: str, length: int) -> re.Pattern[str]:
    """A closing fence line at the top level (indent up to 3 spaces, no tabs)."""
    return re.compile(r"\n[ ]{0,3}" + re.escape(marker) + f"{{{length},}}" + r"[ \t]*(?=\n|$)")


#: First characters of a line where a block rule other than paragraph may match.
_STARTS = frozenset("`~>*-_+0123456789[<#")
_LIST_MARKER_RE = re.compile(r"[ \t]*(?:[*+-]|[0-9]{1,9}[.)])(?:[ \t]|$)")


_DEST_PLAIN_RE = re.compile(r"[^ \x00-\x1f\x7f()\\]+")
_DEST_ANGLE_RE = re.compile(r"<([^\n<>\\]*)>")


def _destination(src: str, pos: int, pmax: int) -> tuple[bool, str, int]:
    """markdown-it's ``parseLinkDestination``, with regex shortcuts for the usual forms."""
    if src.startswith("<", pos):
        m = _DEST_ANGLE_RE.match(src, pos, pmax)
    else:
        m = _DEST_PLAIN_RE.match(src, pos, pmax)
        if m is not None:
            end = m.end()
            if end < pmax and src[end] in "(\\":
                m = None  # balanced parentheses or escapes: the full parser
    if m is None:
        res = parseLinkDestination(src, pos, pmax)
        return res.ok, res.str, res.pos
    raw = m.group(m.lastindex or 0)
    return True, unescapeAll(raw) if "&" in raw else raw, m.end()


#: URLs that markdown-it's ``normalizeLink`` returns unchanged: a relative reference
#: without ``:`` (no scheme to parse) or an ``http(s)`` URL with a plain host, made of
#: characters ``mdurl.encode`` keeps and well-formed percent escapes.
_URL_CHAR = r"(?:[A-Za-z0-9;/?:@&=+$,\-_.!~*'()#]|%[0-9A-Fa-f]{2})"
_URL_AS_IS_RE = re.compile(
    r"(?!//)(?:[A-Za-z0-9;/?@&=+$,\-_.!~*'()#]|%[0-9A-Fa-f]{2})*"
    r"|https?://([A-Za-z0-9+_\-]{1,63}(?:\.[A-Za-z0-9+_\-]{1,63})*)(?::[0-9]+)?"
    r"(?:[/?#]" + _URL_CHAR + "*)?"
)


def _normalize_link(url: str) -> str:
    """``MarkdownIt.normalizeLink`` (percent-encoding, punycode), skipping it when it is a no-op."""
    m = _URL_AS_IS_RE.fullmatch(url)
    if m is not None and (m.group(1) is None or len(m.group(1)) <= 255):
        return url
    return _normalize_link_slow(url)


@lru_cache(maxsize=4096)
def _normalize_link_slow(url: str) -> str:
    return _parser().normalizeLink(url)


@lru_cache(maxsize=4096)
def _normalize_link_text(url: str) -> str:
    return _parser().normalizeLinkText(url)


@lru_cache(maxsize=8192)
def _normalize_label(label: str) -> str:
    return normalizeReference(label)


def _normalized(body: str) -> str:
    """``body`` as markdown-it reads it: line breaks made ``\\n``, NUL made U+FFFD."""
    if "\r" in body:
        body = _NEWLINES_RE.sub("\n", body)
    if "\0" in body:
        body = body.replace("\0", "\ufffd")
    return body


def scan_body_fast(body: str, *, first_line: int = 1) -> BodyScan | None:
    """The scan without markdown-it, or ``None`` when the body needs the reference path."""
    src = _normalized(body)
    if not src:
        return BodyScan()
    try:
        flat = _scan_flat(src, first_line)
        if flat is not None:
            return flat
        blocks = _Blocks(src, "[^" in src)
        blocks.tokenize(0, blocks.lineMax)
        return blocks.finish(first_line)
    except _Fallback:
        return None
    except RecursionError:  # pragma: no cover - absurd nesting
        return None


class Destination(NamedTuple):
    """A link destination as markdown-it reads it, and where it is written.

    For an inline link or image, ``content`` is the text of the paragraph or heading
    holding it, as markdown-it's inline token holds it, starting on 0-based line ``row``
    of the body; ``content[start:end]`` is the destination as written. For a reference
    definition ``content`` is ``None``, ``row`` the destination's line and ``start:end``
    its place in the body (line breaks made ``\\n``). ``target`` is the destination as
    markdown-it reads it (unescaped and normalized).
    """

    content: str | None
    row: int
    start: int
    end: int
    target: str


def scan_destinations(body: str) -> list[Destination] | None:
    """Every inline link's, image's and (first) reference definition's destination
    markdown-it (``commonmark``, no footnote plugin) reads in ``body``, found without
    markdown-it; ``None`` when the scanner steps aside (absurd nesting)."""
    src = _normalized(body)
    found: list[Destination] = []
    if not src:
        return found
    try:
        if _scan_flat(src, 0, found) is None:
            blocks = _Blocks(src, False)
            blocks.spans = found
            blocks.tokenize(0, blocks.lineMax)
            blocks.finish(0)
    except (_Fallback, RecursionError):
        return None
    return found


#: A line start that makes a body more than headings and paragraphs: a block quote,
#: list or thematic break, fence, HTML block, setext underline, or indented code.
_NOT_FLAT_RE = re.compile(r"\n(?:[ ]{0,3}[>*+\-0-9`~<=_]|[ ]{4})")
_NOT_FLAT_FIRST_RE = re.compile(r"[ ]{0,3}[>*+\-0-9`~<=_]|[ ]{4}")


def _plain_paragraph_at(src: str, pos: int, eol: int) -> bool:
    """Whether a block starting at ``pos`` (a list item's text, or the text after
    ``[^label]:``, which the footnote plugin parses as blocks) is surely a paragraph.

    ``False`` when the text is empty or indented, or when any rule before ``paragraph``
    could match it: a fence, block quote, thematic break, list, footnote or reference
    definition, HTML block or ATX heading.
    """
    start = pos
    while pos < eol and src[pos] == " ":
        pos += 1
    if pos >= eol or pos - start > 3:
        return False
    ch = src[pos]
    if ch in "\t>":
        return False
    if ch in "`~":
        return not src.startswith(ch * 3, pos)
    if ch in "*-_" and _HR_RE.match(src, pos, eol):
        return False
    if ch in "*-+0123456789" and _MARKER_RE.match(src, pos, eol):
        return False
    if ch == "[":
        end = _REF_LABEL_RE.search(src, pos + 1, eol)
        if end is None or src[end.start()] in "\n\\":
            return False  # the label may go on: assume a definition
        # "]:" ends a reference definition's label; "[" or "](" make it a paragraph
        return not (src[end.start()] == "]" and src.startswith(":", end.start() + 1))
    if ch == "<":
        text = src[pos:eol]
        return not any(seq[0].search(text) for seq in HTML_SEQUENCES)
    if ch == "#":
        return _ATX_RE.match(src, pos, eol) is None
    return True


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
        _Inline(content.strip(_TRIM), {}, fn, (), ()).scan(line, links, footnotes)


def _inline_destinations(
    content: str, row: int, refs: dict[str, _Ref], spans: list[Destination]
) -> None:
    """Add the destinations of the inline links and images of ``content`` to ``spans``."""
    inline = _Inline(content, refs, False, (), ())
    inline.spans = found = []
    inline.scan(row, [], set())
    spans.extend(Destination(content, row, start, end, target) for start, end, target in found)


class _Ref:
    __slots__ = ("href", "footnote_like")

    def __init__(self, href: str, footnote_like: bool) -> None:
        self.href = href
        self.footnote_like = footnote_like


class _Blocks:
    """markdown-it's block parser (commonmark rules), emitting inline blocks, not tokens.

    The rule methods follow ``markdown_it/rules_block/*.py`` line for line, including
    their quirks; ``_FN`` checks make sure the footnote plugin would see the same blocks.
    With ``spans`` (a list), :meth:`finish` puts link destinations there, not links.
    """

    spans: list[Destination] | None = None

    def __init__(self, src: str, fn: bool) -> None:
        self.src = src
        self.fn = fn
        length = len(src)
        lines = src.split("\n")
        if not lines[-1]:
            lines.pop()  # the text ended with "\n": no extra line
        lens = list(map(len, lines))
        tails = [len(text.lstrip(" \t")) for text in lines]
        if tails and not tails[-1] and src[-1] != "\n":
            lines.pop()  # a final blank line without "\n" gets no marker
            lens.pop()
            tails.pop()
        tShift = list(map(sub, lens, tails))
        bMarks = list(accumulate(map((1).__add__, lens), initial=0))
        eMarks = list(map(add, bMarks, lens))
        if "\t" in src:
            sCount = []
            for text, indent in zip(lines, tShift, strict=True):
                offset = indent
                if indent and "\t" in text[:indent]:
                    offset = 0
                    for ch in text[:indent]:
                        offset += 4 - offset % 4 if ch == "\t" else 1
                sCount.append(offset)
            self.tabs = True
        else:
            sCount = tShift.copy()
            self.tabs = False
        self.lineMax = len(lens)
        bMarks[-1] = length  # the fake last line
        eMarks.append(length)
        tShift.append(0)
        sCount.append(0)
        self.bMarks = bMarks
        self.eMarks = eMarks
        self.tShift = tShift
        self.sCount = sCount
        self.bsCount = [0] * len(bMarks)
        self.blkIndent = 0
        self.line = 0
        self.listIndent = -1
        self.level = 0
        self.depth = 0  # open containers (block quotes, list items)
        self.quotes = 0  # open block quotes (they move bMarks)
        # (content, line, heading level or 0, footnote definition prefixes, boundaries)
        self.inlines: list[tuple[str, int, int, tuple[int, ...], tuple[int, ...]]] = []
        self.refs: dict[str, _Ref] = {}
        self.fdefs: set[str] = set()

    # -- helpers ------------------------------------------------------------------------

    def isEmpty(self, line: int) -> bool:
        return self.bMarks[line] + self.tShift[line] >= self.eMarks[line]

    def skipSpaces(self, pos: int) -> int:
        src = self.src
        n = len(src)
        while pos < n and src[pos] in " \t":
            pos += 1
        return pos

    def skipChars(self, pos: int, ch: str) -> int:
        src = self.src
        n = len(src)
        while pos < n and src[pos] == ch:
            pos += 1
        return pos

    def getLines(self, begin: int, end: int, indent: int, keepLastLF: bool) -> str:
        if begin >= end:
            return ""
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        if indent == 0 and not self.quotes:  # lines are contiguous in src
            last = eMarks[end - 1] + 1 if keepLastLF else eMarks[end - 1]
            return src[bMarks[begin] : last]
        tShift = self.tShift
        if not self.tabs:  # skip min(indent, tShift) characters (spaces or markers)
            parts = []
            for line in range(begin, end):
                t = tShift[line]
                b = bMarks[line] + (indent if indent < t else t)
                last = eMarks[line] + 1 if line + 1 < end or keepLastLF else eMarks[line]
                parts.append(src[b:last])
            return "".join(parts)
        bsCount = self.bsCount
        parts = []
        for line in range(begin, end):
            lineIndent = 0
            lineStart = first = bMarks[line]
            last = eMarks[line] + 1 if line + 1 < end or keepLastLF else eMarks[line]
            while first < last and lineIndent < indent:
                ch = src[first]
                if ch == " ":
                    lineIndent += 1
                elif ch == "\t":
                    lineIndent += 4 - (lineIndent + bsCount[line]) % 4
                elif first - lineStart < tShift[line]:
                    lineIndent += 1
                else:
                    break
                first += 1
            if lineIndent > indent:
                parts.append(" " * (lineIndent - indent) + src[first:last])
            else:
                parts.append(src[first:last])
        return "".join(parts)

    def _is_fn_def(self, line: int) -> re.Match[str] | None:
        pos = self.bMarks[line] + self.tShift[line]
        return _FN_DEF_RE.match(self.src, pos, self.eMarks[line])

    # -- the block tokenizer ------------------------------------------------------------

    def tokenize(self, startLine: int, endLine: int) -> None:
        if self.level >= _MAX_BLOCK_LEVEL:
            raise _Fallback
        line = startLine
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        # The rules called below restore these before they return.
        lineMax = self.lineMax
        blkIndent = self.blkIndent
        top = not self.depth
        fn = self.fn
        while line < endLine:
            while line < lineMax and bMarks[line] + tShift[line] >= eMarks[line]:
                line += 1
            self.line = line
            if line >= endLine or sCount[line] < blkIndent:
                break
            first = bMarks[line] + tShift[line]
            ch = src[first]
            if top and ch in _CONTAINERS:
                boring = self._boring_until(line)
                if boring:
                    line = boring
                    continue
            if sCount[line] - blkIndent >= 4:
                self._code(line, endLine)
            elif ch in _STARTS:
                if ch != "#" or not self._heading(line, False):
                    self._block(line, endLine)
            else:  # only the paragraph rule can start here
                nxt = line + 1
                if (
                    nxt < endLine
                    and bMarks[nxt] + tShift[nxt] >= eMarks[nxt]
                    and not (fn and src.find("[^", first, eMarks[line]) >= 0)
                ):
                    # One line then a blank line: what _paragraph would do, in short.
                    last = eMarks[line]
                    if src.find("[", first, last) >= 0 or src.find("<", first, last) >= 0:
                        content = self.getLines(line, nxt, blkIndent, False).strip(_TRIM)
                        self.inlines.append((content, line, 0, (), ()))
                    line = nxt + 1
                    self.line = line
                    continue
                self._paragraph(line, endLine)
            line = self.line
            if line < endLine and bMarks[line] + tShift[line] >= eMarks[line]:
                line += 1
                self.line = line

    def _boring_until(self, line: int) -> int:
        """The next column-0 line after a blank line, if nothing before it can matter.

        Called where the top-level tokenizer starts a block (a list, a block quote...) at
        ``line``. Without ``[``, ``<`` (links, HTML, footnotes, definitions), ``#`` or a
        setext underline (headings), a backtick or ``~`` (fences, which may run on), every
        block from ``line`` to that reset line ends before it and yields nothing; a list
        may go on there, but with the same items as a new list. Returns 0 otherwise.
        """
        src = self.src
        begin = self.bMarks[line]
        m = _RESET_RE.search(src, begin)
        end = m.end() if m is not None else len(src)
        find = src.find
        if (
            find("[", begin, end) >= 0
            or find("<", begin, end) >= 0
            or find("#", begin, end) >= 0
            or find("`", begin, end) >= 0
            or find("~", begin, end) >= 0
            or _UNDERLINE_RE.search(src, begin, end) is not None
        ):
            return 0
        return bisect_left(self.bMarks, end) if m is not None else self.lineMax

    def _block(self, line: int, endLine: int) -> None:
        if self.sCount[line] - self.blkIndent >= 4:
            self._code(line, endLine)
            return
        ch = self.src[self.bMarks[line] + self.tShift[line]]
        if ch in "`~":
            if self._fence(line, endLine, False):
                return
        elif ch == ">":
            self._blockquote(line, endLine)
            return
        if ch in "*-_" and self._hr(line, False):
            return
        if (ch in "*-+" or "0" <= ch <= "9") and self._list(line, endLine, False, ""):
            return
        if ch == "[":
            if self.fn and self._is_fn_def(line) and (self.depth or self.blkIndent):
                raise _Fallback  # a footnote definition inside a container
            if self._reference(line):
                return
        elif ch == "<":
            if self._html_block(line, endLine, False):
                return
        elif ch == "#" and self._heading(line, False):
            return
        self._paragraph(line, endLine)

    def _terminates(self, line: int, endLine: int, parent: str) -> bool:
        """Whether a terminator rule of ``parent`` (paragraph, reference, ...) matches."""
        if self.sCount[line] - self.blkIndent >= 4:
            return False
        pos = self.bMarks[line] + self.tShift[line]
        maximum = self.eMarks[line]
        if pos >= maximum:
            return False
        ch = self.src[pos]
        if ch in "`~":
            return self._fence(line, endLine, True)
        if ch == ">":
            return True
        if ch in "*-_" and _HR_RE.match(self.src, pos, maximum):
            return True
        if parent == "list":
            return False
        if ch in "*-+0123456789":
            return self._list(line, endLine, True, parent)
        if ch == "<":
            return self._html_block(line, endLine, True)
        if ch == "#":
            return self._heading(line, True)
        return False

    # -- rules --------------------------------------------------------------------------

    def _code(self, startLine: int, endLine: int) -> None:
        last = nextLine = startLine + 1
        sCount = self.sCount
        while nextLine < endLine:
            if self.isEmpty(nextLine):
                nextLine += 1
                continue
            if sCount[nextLine] - self.blkIndent >= 4:
                nextLine += 1
                last = nextLine
                continue
            break
        self.line = last

    def _fence(self, startLine: int, endLine: int, silent: bool) -> bool:
        src = self.src
        pos = self.bMarks[startLine] + self.tShift[startLine]
        maximum = self.eMarks[startLine]
        if pos + 3 > maximum:
            return False
        marker = src[pos]
        if marker not in "~`":
            return False
        mem = pos
        pos = self.skipChars(pos, marker)
        length = pos - mem
        if length < 3:
            return False
        if marker == "`" and "`" in src[pos:maximum]:
            return False
        if silent:
            return True
        nextLine = startLine
        haveEndMarker = False
        n = len(src)
        if not self.blkIndent and not self.quotes and not self.tabs:
            # The closing fence, found by a search rather than line by line.
            close = _closing_fence_re(marker, length).search(src, self.eMarks[startLine])
            end = bisect_left(self.bMarks, close.start() + 1) if close else self.lineMax
            if end >= endLine:
                self.line = endLine
                return True
            self.line = end + 1
            return True
        while True:
            nextLine += 1
            if nextLine >= endLine:
                break
            pos = mem = self.bMarks[nextLine] + self.tShift[nextLine]
            maximum = self.eMarks[nextLine]
            if pos < maximum and self.sCount[nextLine] < self.blkIndent:
                break
            if pos >= n:
                break
            if src[pos] != marker:
                continue
            if self.sCount[nextLine] - self.blkIndent >= 4:
                continue
            pos = self.skipChars(pos, marker)
            if pos - mem < length:
                continue
            pos = self.skipSpaces(pos)
            if pos < maximum:
                continue
            haveEndMarker = True
            break
        self.line = nextLine + (1 if haveEndMarker else 0)
        return True

    def _quote_line(self, line: int, pos: int, olds: tuple[list, list, list, list]) -> bool:
        """Strip a ``>`` marker and its spacing from ``line`` (``pos`` is just past the ``>``).

        Saves the line's old marks in ``olds`` (bMarks, bsCount, sCount, tShift) and says
        whether the rest of the line is empty. markdown-it's blockquote rule does this
        for the first line and for each continued line alike.
        """
        src, bMarks, bsCount, sCount, tShift = (
            self.src,
            self.bMarks,
            self.bsCount,
            self.sCount,
            self.tShift,
        )
        maximum = self.eMarks[line]
        initial = offset = sCount[line] + 1
        second = src[pos] if pos < len(src) else ""
        adjustTab = False
        if second == " ":
            pos += 1
            initial += 1
            offset += 1
            spaceAfterMarker = True
        elif second == "\t":
            spaceAfterMarker = True
            if (bsCount[line] + offset) % 4 == 3:
                pos += 1
                initial += 1
                offset += 1
            else:
                adjustTab = True
        else:
            spaceAfterMarker = False
        olds[0].append(bMarks[line])
        bMarks[line] = pos
        while pos < maximum:
            ch = src[pos]
            if ch == " ":
                offset += 1
            elif ch == "\t":
                offset += 4 - (offset + bsCount[line] + (1 if adjustTab else 0)) % 4
            else:
                break
            pos += 1
        olds[1].append(bsCount[line])
        bsCount[line] = sCount[line] + 1 + (1 if spaceAfterMarker else 0)
        olds[2].append(sCount[line])
        sCount[line] = offset - initial
        olds[3].append(tShift[line])
        tShift[line] = pos - bMarks[line]
        return pos >= maximum

    def _blockquote(self, startLine: int, endLine: int) -> None:
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        bsCount = self.bsCount
        oldLineMax = self.lineMax
        oldBMarks: list[int] = []
        oldBSCount: list[int] = []
        oldSCount: list[int] = []
        oldTShift: list[int] = []
        olds = (oldBMarks, oldBSCount, oldSCount, oldTShift)
        pos = bMarks[startLine] + tShift[startLine] + 1  # past ">"
        lastLineEmpty = self._quote_line(startLine, pos, olds)

        nextLine = startLine + 1
        while nextLine < endLine:
            isOutdented = sCount[nextLine] < self.blkIndent
            pos = bMarks[nextLine] + tShift[nextLine]
            maximum = eMarks[nextLine]
            if pos >= maximum:
                break
            evaluatesTrue = src[pos] == ">" and not isOutdented
            pos += 1
            if evaluatesTrue:
                lastLineEmpty = self._quote_line(nextLine, pos, olds)
                nextLine += 1
                continue
            if lastLineEmpty:
                break
            if self._terminates(nextLine, endLine, "blockquote"):
                self.lineMax = nextLine
                if self.blkIndent != 0:
                    oldBMarks.append(bMarks[nextLine])
                    oldBSCount.append(bsCount[nextLine])
                    oldTShift.append(tShift[nextLine])
                    oldSCount.append(sCount[nextLine])
                    sCount[nextLine] -= self.blkIndent
                break
            oldBMarks.append(bMarks[nextLine])
            oldBSCount.append(bsCount[nextLine])
            oldTShift.append(tShift[nextLine])
            oldSCount.append(sCount[nextLine])
            sCount[nextLine] = -1  # lazy continuation
            nextLine += 1

        oldIndent = self.blkIndent
        self.blkIndent = 0
        self.level += 1
        self.depth += 1
        self.quotes += 1
        self.tokenize(startLine, nextLine)
        self.quotes -= 1
        self.depth -= 1
        self.level -= 1
        self.lineMax = oldLineMax
        for i, item in enumerate(oldTShift):
            bMarks[i + startLine] = oldBMarks[i]
            tShift[i + startLine] = item
            sCount[i + startLine] = oldSCount[i]
            bsCount[i + startLine] = oldBSCount[i]
        self.blkIndent = oldIndent

    def _hr(self, startLine: int, silent: bool) -> bool:
        pos = self.bMarks[startLine] + self.tShift[startLine]
        if not _HR_RE.match(self.src, pos, self.eMarks[startLine]):
            return False
        if not silent:
            self.line = startLine + 1
        return True

    def _list(self, startLine: int, endLine: int, silent: bool, parent: str) -> bool:
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        bsCount = self.bsCount
        if (
            self.listIndent >= 0
            and sCount[startLine] - self.listIndent >= 4
            and sCount[startLine] < self.blkIndent
        ):
            return False
        marker = _MARKER_RE.match(src, bMarks[startLine] + tShift[startLine], eMarks[startLine])
        if marker is None:
            return False
        posAfterMarker = marker.end()
        isOrdered = marker.group(1) is None
        if silent and parent == "paragraph" and sCount[startLine] >= self.blkIndent:
            # a list interrupting a paragraph starts with 1 and is not empty
            if isOrdered and int(marker.group(2)) != 1:
                return False
            if self.skipSpaces(posAfterMarker) >= eMarks[startLine]:
                return False
        if silent:
            return True

        markerChar = src[posAfterMarker - 1]
        nextLine = startLine
        self.level += 1
        while nextLine < endLine:
            pos = posAfterMarker
            maximum = eMarks[nextLine]
            initial = offset = (
                sCount[nextLine] + posAfterMarker - (bMarks[startLine] + tShift[startLine])
            )
            if self.tabs:
                while pos < maximum:
                    ch = src[pos]
                    if ch == "\t":
                        offset += 4 - (offset + bsCount[nextLine]) % 4
                    elif ch == " ":
                        offset += 1
                    else:
                        break
                    pos += 1
            else:
                pos = _SPACES_RE.match(src, pos, maximum).end()
                offset += pos - posAfterMarker
            contentStart = pos
            indentAfterMarker = 1 if contentStart >= maximum else offset - initial
            if indentAfterMarker > 4:
                indentAfterMarker = 1
            indent = initial + indentAfterMarker

            end = -1
            if (
                contentStart < maximum
                and offset - initial <= 4
                and not self.tabs
                and self.level + 1 < _MAX_BLOCK_LEVEL
                and _plain_paragraph_at(src, contentStart, maximum)
            ):
                end = self._paragraph_item(startLine, contentStart, indent, endLine)
            if end >= 0:  # the item was one paragraph: done
                self.line = end
            else:
                oldTShift = tShift[startLine]
                oldSCount = sCount[startLine]
                oldListIndent = self.listIndent
                self.listIndent = self.blkIndent
                self.blkIndent = indent
                tShift[startLine] = contentStart - bMarks[startLine]
                sCount[startLine] = offset
                self.level += 1
                self.depth += 1
                if contentStart >= maximum and self.isEmpty(startLine + 1):
                    self.line = min(self.line + 2, endLine)
                else:
                    self.tokenize(startLine, endLine)
                self.depth -= 1
                self.level -= 1
                self.blkIndent = self.listIndent
                self.listIndent = oldListIndent
                tShift[startLine] = oldTShift
                sCount[startLine] = oldSCount

            nextLine = startLine = self.line
            if nextLine >= endLine:
                break
            if sCount[nextLine] < self.blkIndent:
                break
            if sCount[startLine] - self.blkIndent >= 4:
                break
            pos = bMarks[nextLine] + tShift[nextLine]
            maximum = eMarks[nextLine]
            if pos >= maximum:
                break
            ch = src[pos]
            if ch in "`~>*-_" and self._terminates(nextLine, endLine, "list"):
                break
            marker = _MARKER_RE.match(src, pos, maximum)
            if marker is None or (marker.group(1) is None) != isOrdered:
                break
            posAfterMarker = marker.end()
            if markerChar != src[posAfterMarker - 1]:
                break
        self.level -= 1
        self.line = nextLine
        return True

    def _paragraph_item(self, startLine: int, contentStart: int, indent: int, endLine: int) -> int:
        """Where a list item made of one paragraph ends (its inline block recorded), or -1.

        The item's text starts at ``contentStart`` with a paragraph (the caller checked
        that no other rule matches there); its content indent is ``indent`` and the
        list's is ``self.blkIndent``. This replays tokenize -> paragraph -> terminators
        for the usual shapes: plain lines continue the paragraph, and it ends either at
        a sibling item (which also ends the item) or at a blank line followed by an
        outdented line. Anything else (an underline, another block in the item, ...) is
        left to the literal port: -1.
        """
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        outer = self.blkIndent  # the list's indent: listIndent inside the item
        line = startLine + 1
        while True:
            if line >= endLine:
                return -1  # the paragraph rule would go on up to lineMax
            pos = bMarks[line] + tShift[line]
            maximum = eMarks[line]
            if pos >= maximum:
                break  # a blank line ends the paragraph
            sc = sCount[line]
            if sc < 0 or sc - indent > 3 or src[pos] not in _LINE_MARKS:
                line += 1  # a lazy or plain line continues it
                continue
            if sc < indent and sc - outer < 4 and _MARKER_RE.match(src, pos, maximum):
                # a sibling item: a terminator, then an outdented line ends the item
                return self._item_paragraph(startLine, contentStart, line, indent, line)
            return -1
        end = line
        line += 1
        if line < endLine:
            lineMax = self.lineMax
            while line < lineMax and bMarks[line] + tShift[line] >= eMarks[line]:
                line += 1
            if line < endLine and sCount[line] >= indent:
                return -1  # the item goes on
        return self._item_paragraph(startLine, contentStart, end, indent, line)

    def _item_paragraph(
        self, startLine: int, contentStart: int, end: int, indent: int, itemEnd: int
    ) -> int:
        """Record the paragraph ``startLine:end`` of a list item; return ``itemEnd``.

        -1 when it may hold a footnote definition (the literal port checks those).
        """
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        last = eMarks[end - 1]
        if self.fn and src.find("[^", contentStart, last) >= 0:
            return -1
        if src.find("[", contentStart, last) >= 0 or src.find("<", contentStart, last) >= 0:
            # getLines(startLine, end, indent) with the item's first line starting at
            # contentStart; no tabs, so min(indent, tShift) characters are indentation.
            tShift = self.tShift
            parts = [src[contentStart : eMarks[startLine]]]
            for line in range(startLine + 1, end):
                t = tShift[line]
                parts.append(src[bMarks[line] + (indent if indent < t else t) : eMarks[line]])
            content = "\n".join(parts)
            self.inlines.append((content.strip(_TRIM), startLine, 0, (), ()))
        return itemEnd

    def _getNextLine(self, nextLine: int) -> str | None:
        if nextLine >= self.lineMax or self.isEmpty(nextLine):
            return None
        if self.fn and self._is_fn_def(nextLine):
            raise _Fallback  # the footnote plugin would end the definition here
        isContinuation = self.sCount[nextLine] - self.blkIndent >= 4 or self.sCount[nextLine] < 0
        if not isContinuation and self._terminates(nextLine, self.lineMax, "reference"):
            return None
        pos = self.bMarks[nextLine] + self.tShift[nextLine]
        return self.src[pos : self.eMarks[nextLine] + 1]

    def _reference(self, startLine: int) -> bool:
        src = self.src
        pos = self.bMarks[startLine] + self.tShift[startLine]
        maximum = self.eMarks[startLine]
        nextLine = startLine + 1
        string = src[pos : maximum + 1]
        maximum = len(string)
        labelEnd = -1
        pos = 1
        m = _REF_LABEL_RE.search(string, 1)
        if m is not None:
            if string[m.start()] == "[":
                return False
            if string[m.start()] == "]":
                pos = maximum  # skip the loop below: it would stop at this "]"
                labelEnd = m.start()
            else:
                pos = m.start()  # a line break or an escape: the full loop from there
        while pos < maximum:
            ch = string[pos]
            if ch == "[":
                return False
            if ch == "]":
                labelEnd = pos
                break
            if ch == "\n":
                lineContent = self._getNextLine(nextLine)
                if lineContent is not None:
                    string += lineContent
                    maximum = len(string)
                    nextLine += 1
            elif ch == "\\":
                pos += 1
                if pos < maximum and string[pos] == "\n":
                    lineContent = self._getNextLine(nextLine)
                    if lineContent is not None:
                        string += lineContent
                        maximum = len(string)
                        nextLine += 1
            pos += 1
        if labelEnd < 0 or labelEnd + 1 >= len(string) or string[labelEnd + 1] != ":":
            return False
        pos = labelEnd + 2
        while pos < maximum:
            ch = string[pos]
            if ch == "\n":
                lineContent = self._getNextLine(nextLine)
                if lineContent is not None:
                    string += lineContent
                    maximum = len(string)
                    nextLine += 1
            elif ch not in " \t":
                break
            pos += 1
        destStartPos = pos
        ok, dest, pos = _destination(string, pos, maximum)
        if not ok:
            return False
        href = _normalize_link(dest)
        destEndPos = pos
        destEndLineNo = nextLine
        start = pos
        while pos < maximum:
            ch = string[pos]
            if ch == "\n":
                lineContent = self._getNextLine(nextLine)
                if lineContent is not None:
                    string += lineContent
                    maximum = len(string)
                    nextLine += 1
            elif ch not in " \t":
                break
            pos += 1
        titleRes = parseLinkTitle(string, pos, maximum, None)
        while titleRes.can_continue:
            lineContent = self._getNextLine(nextLine)
            if lineContent is None:
                break
            string += lineContent
            pos = maximum
            maximum = len(string)
            nextLine += 1
            titleRes = parseLinkTitle(string, pos, maximum, titleRes)
        if pos < maximum and start != pos and titleRes.ok:
            title = titleRes.str
            pos = titleRes.pos
        else:
            title = ""
            pos = destEndPos
            nextLine = destEndLineNo
        while pos < maximum and string[pos] in " \t":
            pos += 1
        if pos < maximum and string[pos] != "\n" and title:
            title = ""
            pos = destEndPos
            nextLine = destEndLineNo
            while pos < maximum and string[pos] in " \t":
                pos += 1
        if pos < maximum and string[pos] != "\n":
            return False
        rawLabel = string[1:labelEnd]
        label = _normalize_label(rawLabel)
        if not label:
            return False
        self.line = nextLine
        footnote_like = False
        if self.fn and self._is_fn_def(startLine):
            # The footnote plugin reads this line as a footnote definition instead.
            footnote_like = True
            if nextLine != startLine + 1:
                raise _Fallback
            first = self.bMarks[startLine] + self.tShift[startLine]
            if src.find("[^", first + 2, self.eMarks[startLine]) >= 0:
                raise _Fallback  # its text, a paragraph for the plugin, may cite footnotes
            self._footnote_defs([startLine])
            self._footnote_after(nextLine, True)
        known = self.refs.get(label)
        if known is None:
            self.refs[label] = _Ref(href, footnote_like)
            if self.spans is not None:
                self._definition_span(startLine, string, destStartPos, destEndPos, href)
        elif known.footnote_like != footnote_like:
            raise _Fallback  # the plugin and CommonMark would resolve it differently
        return True

    def _definition_span(
        self, startLine: int, string: str, start: int, end: int, href: str
    ) -> None:
        """Record where the destination ``string[start:end]`` of the definition at
        ``startLine`` is: ``string`` joins its lines from their first character, each
        ending with ``\\n``, so an offset's distance to its line's end is the same in it
        and in the source."""
        row = startLine + string.count("\n", 0, start)
        line_end = string.find("\n", start)
        at = self.eMarks[row] - ((len(string) if line_end < 0 else line_end) - start)
        assert self.spans is not None
        self.spans.append(Destination(None, row, at, at + end - start, href))

    def _html_block(self, startLine: int, endLine: int, silent: bool) -> bool:
        src = self.src
        pos = self.bMarks[startLine] + self.tShift[startLine]
        maximum = self.eMarks[startLine]
        lineText = src[pos:maximum]
        for html_seq in HTML_SEQUENCES:
            if html_seq[0].search(lineText):
                break
        else:
            return False
        if silent:
            return html_seq[2]
        nextLine = startLine + 1
        endsOnBlankLine = bool(html_seq[1].search(""))
        if not html_seq[1].search(lineText):
            while nextLine < endLine:
                if self.sCount[nextLine] < self.blkIndent and (
                    endsOnBlankLine or not self.isEmpty(nextLine)
                ):
                    break
                pos = self.bMarks[nextLine] + self.tShift[nextLine]
                lineText = src[pos : self.eMarks[nextLine]]
                if html_seq[1].search(lineText):
                    if len(lineText) != 0:
                        nextLine += 1
                    break
                nextLine += 1
        self.line = nextLine
        return True

    def _heading(self, startLine: int, silent: bool) -> bool:
        src = self.src
        pos = self.bMarks[startLine] + self.tShift[startLine]
        maximum = self.eMarks[startLine]
        m = _ATX_RE.match(src, pos, maximum)
        if m is None:
            return False
        if silent:
            return True
        # cut tails like '    ###  ' from the end of the line
        text = src[m.end() : maximum].rstrip(" \t")
        cut = text.rstrip("#")
        if cut and cut[-1] in " \t":
            text = cut
        self.line = startLine + 1
        self.inlines.append((text.strip(_TRIM), startLine, m.end() - pos, (), ()))
        return True

    def _paragraph(self, startLine: int, endLine: int) -> None:
        """markdown-it's ``lheading`` rule, then (when it fails) its ``paragraph`` rule."""
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        blkIndent = self.blkIndent
        nextLine = startLine + 1
        level = 0
        while nextLine < endLine:
            sc = sCount[nextLine]
            pos = bMarks[nextLine] + tShift[nextLine]
            maximum = eMarks[nextLine]
            if pos >= maximum:
                break  # empty line
            if sc - blkIndent > 3:
                nextLine += 1
                continue
            if sc >= blkIndent:
                marker = src[pos]
                if marker == "-" or marker == "=":
                    p = self.skipSpaces(self.skipChars(pos, marker))
                    if p >= maximum:
                        level = 1 if marker == "=" else 2
                        break
            if sc < 0:
                nextLine += 1
                continue
            ch = src[pos]
            if ch in "`~>*-_+#<0123456789" and self._terminates(nextLine, endLine, "paragraph"):
                break
            nextLine += 1
        if not level and nextLine >= endLine:
            # the paragraph rule looks past endLine, up to lineMax
            lineMax = self.lineMax
            while nextLine < lineMax:
                if self.isEmpty(nextLine):
                    break
                sc = sCount[nextLine]
                if sc - blkIndent > 3 or sc < 0:
                    nextLine += 1
                    continue
                if self._terminates(nextLine, lineMax, "paragraph"):
                    break
                nextLine += 1
        if not level:
            first = bMarks[startLine]
            last = eMarks[nextLine - 1]
            if src.find("[", first, last) < 0 and src.find("<", first, last) < 0:
                self.line = nextLine  # no link, no footnote: the text is not needed
                return
        content = self.getLines(startLine, nextLine, blkIndent, False)
        prefixes: tuple[int, ...] = ()
        boundaries: tuple[int, ...] = ()
        if self.fn and src.find("[^", bMarks[startLine], eMarks[nextLine - 1]) >= 0:
            prefixes, boundaries = self._footnote_paragraph(startLine, nextLine, content, level)
        content = content.strip(_TRIM)
        if level:
            self.line = nextLine + 1
            self.inlines.append((content, startLine, level, (), ()))
        else:
            self.line = nextLine
            self.inlines.append((content, startLine, 0, prefixes, boundaries))

    # -- footnote definitions -------------------------------------------------------------

    def _footnote_paragraph(
        self, startLine: int, nextLine: int, content: str, level: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Check a paragraph against the footnote plugin's reading of it.

        The plugin starts a footnote definition at every ``[^label]:`` line that is not a
        lazy continuation. Only a top-level paragraph made of such definitions (each
        optionally continued by plain lines) splits the same way in both readings.
        Returns the offsets of the ``[`` of each definition in the trimmed content and of
        the line breaks before the second and later ones.
        """
        sCount = self.sCount
        blkIndent = self.blkIndent
        first = self._is_fn_def(startLine)
        starts = [startLine] if first else []
        for line in range(startLine + 1, nextLine):
            sc = sCount[line]
            if sc - blkIndent > 3 or sc < 0:
                continue  # lazy in both readings (only at blkIndent 0 when accepted)
            if self._is_fn_def(line):
                starts.append(line)
        if not starts:
            return (), ()
        if not first or level or self.depth or blkIndent:
            raise _Fallback
        lead = len(content) - len(content.lstrip(_TRIM))
        src = self.src
        for line in range(startLine + 1, nextLine):
            if line in starts:
                continue
            if sCount[line] >= 4:
                raise _Fallback  # the plugin would check it for terminators
            text = src[self.bMarks[line] : self.eMarks[line]]
            if _LIST_MARKER_RE.match(text):
                raise _Fallback  # a list may interrupt inside a definition
        self._footnote_defs(starts)
        self._footnote_after(nextLine, False)
        base = self.bMarks[startLine] + lead
        prefixes = tuple(self.bMarks[line] + self.tShift[line] - base for line in starts)
        boundaries = tuple(self.bMarks[line] - 1 - base for line in starts[1:])
        return prefixes, boundaries

    def _footnote_defs(self, starts: list[int]) -> None:
        """Record the definitions starting at ``starts`` (top level only)."""
        if self.depth or self.blkIndent:
            raise _Fallback
        for line in starts:
            found = self._is_fn_def(line)
            assert found is not None
            if _FN_UNSAFE.search(found.group(1)):
                raise _Fallback
            if not _plain_paragraph_at(self.src, found.end(), self.eMarks[line]):
                raise _Fallback  # the plugin may read a block (list, fence...) there
            self.fdefs.add(found.group(1))

    def _footnote_after(self, nextLine: int, after_reference: bool) -> None:
        """Make sure the plugin's last definition also ends at ``nextLine``."""
        lineMax = self.lineMax
        if nextLine < lineMax and not self.isEmpty(nextLine):
            if not after_reference:
                return  # a terminator ended the paragraph: it ends the definition too
            if self.sCount[nextLine] < 4 and (
                self._is_fn_def(nextLine) or self._terminates(nextLine, lineMax, "paragraph")
            ):
                return
            raise _Fallback  # the plugin would continue the definition on this line
        # After a blank line, an indented line continues the definition for the plugin
        # (and is a code block for CommonMark).
        line = nextLine
        while line < lineMax and self.isEmpty(line):
            line += 1
        if line < lineMax and self.sCount[line] >= 4:
            raise _Fallback

    # -- inline phase -------------------------------------------------------------------

    def finish(self, first_line: int) -> BodyScan:
        links: list[Link] = []
        footnotes: set[str] = set()
        headings: list[tuple[int, str, int]] = []
        refs = self.refs
        fn = self.fn
        spans = self.spans
        if spans is not None:
            for content, line, _level, _prefixes, _boundaries in self.inlines:
                if "](" in content:
                    _inline_destinations(content, line, refs, spans)
            return BodyScan()
        for content, line, level, prefixes, boundaries in self.inlines:
            if level:
                headings.append((level, content, first_line + line))
            if "<" in content or (
                "[" in content and (refs or "](" in content or (fn and "[^" in content))
            ):
                _Inline(content, refs, fn, prefixes, boundaries).scan(
                    first_line + line, links, footnotes
                )
        return BodyScan(tuple(links), frozenset(footnotes), frozenset(self.fdefs), tuple(headings))


#: What the link and image rules found: where the link ends, its target, where its label
#: starts and ends, the reference definition it uses (``None`` for an inline link) and
#: where its inline destination is written (``None`` for none).
_Found = tuple[int, str, int, int, "_Ref | None", "tuple[int, int] | None"]


class _Delim:
    __slots__ = ("marker", "length", "token", "end", "open", "close")

    def __init__(self, marker: str, length: int, token: int, can_open: bool, can_close: bool):
        self.marker = marker
        self.length = length
        self.token = token
        self.end = -1
        self.open = can_open
        self.close = can_close


class _Inline:
    """markdown-it's inline rules, as far as they decide links, images and footnotes."""

    cache: dict[int, int]
    backticks: dict[int, int] | None = None
    html_last: dict[str, int] | None = None
    depth = 0  # nested skip_token calls
    nl_pos = 0
    nl_count = 0
    hidden = 0  # line breaks inside tokens (no softbreak for them)
    base = 0
    #: When a list, :meth:`scan` adds ``(start, end, target)`` of each inline link's and
    #: image's destination to it.
    spans: list[tuple[int, int, str]] | None = None

    def __init__(
        self,
        src: str,
        refs: dict[str, _Ref],
        fn: bool,
        prefixes: tuple[int, ...],
        boundaries: tuple[int, ...],
    ) -> None:
        self.src = src
        self.refs = refs
        self.fn = fn
        self.prefixes = prefixes
        self.boundaries = boundaries
        self.cache = {}

    # -- line numbers -------------------------------------------------------------------

    def line_at(self, pos: int) -> int:
        """The line of a token starting at ``pos`` (positions only grow)."""
        self.nl_count += self.src.count("\n", self.nl_pos, pos)
        self.nl_pos = pos
        return self.base + self.nl_count - self.hidden

    def hide(self, start: int, end: int) -> None:
        """Line breaks in ``src[start:end]`` belong to one token, not to softbreaks."""
        if self.boundaries:
            for nl in self.boundaries:
                if start <= nl < end:
                    raise _Fallback  # a token across two footnote definitions
        self.hidden += self.src.count("\n", start, end)

    # -- the top level ------------------------------------------------------------------

    def scan(self, line: int, links: list[Link], footnotes: set[str]) -> None:
        src = self.src
        n = len(src)
        self.base = line
        pos = 0
        search = _ACTIVE_RE.search
        simple_link = _SIMPLE_LINK_RE.match
        while True:
            m = search(src, pos)
            if m is None:
                return
            p = m.start()
            ch = src[p]
            if ch == "\\":
                pos = p + 2  # an escape (or a final backslash: nothing follows)
            elif ch == "`":
                end, is_code = self.backtick(p, n)
                if is_code:
                    self.hide(p, end)
                pos = end
            elif ch == "[":
                simple = simple_link(src, p, n)
                if simple is not None:  # [text](destination): the usual case, in one match
                    text, dest = simple.groups()
                    href = _normalize_link(unescapeAll(dest) if "&" in dest else dest)
                    links.append(Link(href, text, self.line_at(p)))
                    if self.spans is not None:
                        self.spans.append((simple.start(2), simple.end(2), href))
                    pos = simple.end()
                    continue
                if self.fn and src.startswith("[^", p):
                    pos = self.footnote_or_link(p, n, links, footnotes)
                    continue
                found = self.link(p, n)
                pos = p + 1 if found is None else self.emit_link(p, found, links)
            elif ch == "!":
                found = self.image(p, n)
                if found is None:
                    pos = p + 1
                else:
                    end, href, labelStart, labelEnd, ref, dest = found
                    self.check_label(labelStart, labelEnd, ref)
                    links.append(Link(href, src[labelStart:labelEnd], self.line_at(p)))
                    if dest is not None and self.spans is not None:
                        self.spans.append((dest[0], dest[1], href))
                    self.hide(p, end)
                    pos = end
            else:  # "<"
                auto = self.autolink(p, n)
                if auto is not None:
                    end, href, text = auto
                    links.append(Link(href, text, self.line_at(p)))
                    self.hide(p, end)
                    pos = end
                    continue
                end = self.html_inline(p, n)
                if end < 0:
                    pos = p + 1
                else:
                    self.hide(p, end)
                    pos = end

    def footnote_or_link(self, p: int, n: int, links: list[Link], footnotes: set[str]) -> int:
        """At ``[^``: a link for CommonMark, maybe a footnote reference for the plugin."""
        ref_match = _FN_REF_RE.match(self.src, p, n)
        found = self.link(p, n)
        if ref_match is not None:
            label = ref_match.group(1)
            if _FN_UNSAFE.search(label):
                raise _Fallback
            is_definition = p in self.prefixes
            if found is None:
                if not is_definition:
                    footnotes.add(label)
            elif found[4] is not None and found[4].footnote_like:
                # The plugin has no such reference definition: it reads a footnote.
                if found[0] != ref_match.end():
                    raise _Fallback
                if not is_definition:
                    footnotes.add(label)
                end = self.emit_link(p, found, links, footnote_ok=True)
                return end
        if found is None:
            return p + 1
        return self.emit_link(p, found, links)

    def check_label(self, labelStart: int, labelEnd: int, ref: _Ref | None) -> None:
        """Links whose reading differs under the footnote plugin are not for the fast path."""
        if self.fn and (
            "[^" in self.src[labelStart:labelEnd] or (ref is not None and ref.footnote_like)
        ):
            raise _Fallback

    def emit_link(
        self,
        p: int,
        found: _Found,
        links: list[Link],
        *,
        footnote_ok: bool = False,
    ) -> int:
        end, href, labelStart, labelEnd, ref, dest = found
        if dest is not None and self.spans is not None:
            self.spans.append((dest[0], dest[1], href))
        if not footnote_ok:
            self.check_label(labelStart, labelEnd, ref)
        if self.boundaries:
            for nl in self.boundaries:
                if p <= nl < end:
                    raise _Fallback
        label = self.src[labelStart:labelEnd]
        if _LABEL_SIMPLE_RE.search(label) is None:
            links.append(Link(href, label, self.line_at(labelEnd)))
        else:
            self.label_links(href, labelStart, labelEnd, links)
        self.hidden += self.src.count("\n", labelEnd, end)
        return end

    # -- link labels (markdown-it tokenizes them for the link text) --------------------

    def label_links(self, href: str, labelStart: int, labelEnd: int, links: list[Link]) -> None:
        """Tokenize a link's label as markdown-it does; emit its links like extract_links."""
        tokens = self.tokenize_label(labelStart, labelEnd)
        text_parts: list[str] | None = []
        target = href
        for token in tokens:
            kind = token[0]
            if kind == "text" or kind == "code":
                if text_parts is not None:
                    text_parts.append(token[1])
            elif kind == "image":
                links.append(Link(token[1], token[2], token[3]))
            elif kind == "auto":  # an autolink: link_open, text, link_close
                target = token[1]
                links.append(Link(target, token[2], token[3]))
                text_parts = None
        if text_parts is not None:
            links.append(Link(target, "".join(text_parts), self.line_at(labelEnd)))

    def tokenize_label(self, start: int, pmax: int) -> list[list]:
        src = self.src
        tokens: list[list] = []
        pending: list[str] = []
        delims: list[_Delim] = []
        pos = start
        while pos < pmax:
            ch = src[pos]
            if ch not in _TERMINATORS:
                m = _TERMINATOR_RE.search(src, pos)
                end = m.start() if m else pmax
                pending.append(src[pos:end])
                pos = end
                continue
            if ch == "\n":
                text = "".join(pending)
                if text.endswith(" "):
                    text = text.rstrip(" ") if text.endswith("  ") else text[:-1]
                pending = [text] if text else []
                if pending:
                    tokens.append(["text", "".join(pending)])
                    pending = []
                tokens.append(["br"])
                pos += 1
                while pos < pmax and src[pos] in " \t":
                    pos += 1
                continue
            if ch == "\\":
                if pos + 1 >= pmax:
                    pending.append(ch)
                    pos += 1
                    continue
                if pending:
                    tokens.append(["text", "".join(pending)])
                    pending = []
                nxt = src[pos + 1]
                if nxt == "\n":
                    tokens.append(["br"])
                    pos += 2
                    while pos < pmax and src[pos] in " \t":
                        pos += 1
                    continue
                escaped = nxt
                after = pos + 2
                if (
                    "\ud800" <= nxt <= "\udbff"
                    and pos + 2 < pmax
                    and "\udc00" <= src[pos + 2] <= "\udfff"
                ):
                    escaped += src[pos + 2]  # a surrogate pair
                    after += 1
                tokens.append(["text", escaped if nxt in _ESCAPABLE else "\\" + escaped])
                pos = after
                continue
            if ch == "`":
                end, is_code = self.backtick(pos, pmax)
                if is_code:
                    if pending:
                        tokens.append(["text", "".join(pending)])
                        pending = []
                    tokens.append(["code", _code_content(src, pos, end)])
                    self.hide(pos, end)
                else:
                    pending.append(src[pos:end])
                pos = end
                continue
            if ch == "*" or ch == "_":
                can_open, can_close, length = self.scan_delims(pos, pmax)
                if pending:
                    tokens.append(["text", "".join(pending)])
                    pending = []
                for _ in range(length):
                    tokens.append(["text", ch])
                    delims.append(_Delim(ch, length, len(tokens) - 1, can_open, can_close))
                pos += length
                continue
            if ch == "[":
                if self.link(pos, pmax) is not None:
                    raise _Fallback  # markdown-it never nests links; be safe
                pending.append(ch)
                pos += 1
                continue
            if ch == "!":
                found = self.image(pos, pmax)
                if found is None:
                    pending.append(ch)
                    pos += 1
                    continue
                end, href, labelStart, labelEnd, ref, dest = found
                self.check_label(labelStart, labelEnd, ref)
                if pending:
                    tokens.append(["text", "".join(pending)])
                    pending = []
                tokens.append(["image", href, src[labelStart:labelEnd], self.line_at(pos)])
                if dest is not None and self.spans is not None:
                    self.spans.append((dest[0], dest[1], href))
                self.hide(pos, end)
                pos = end
                continue
            if ch == "<":
                auto = self.autolink(pos, pmax)
                if auto is not None:
                    end, href, text = auto
                    if pending:
                        tokens.append(["text", "".join(pending)])
                        pending = []
                    tokens.append(["auto", href, text, self.line_at(pos)])
                    self.hide(pos, end)
                    pos = end
                    continue
                end = self.html_inline(pos, pmax)
                if end >= 0:
                    if pending:
                        tokens.append(["text", "".join(pending)])
                        pending = []
                    tokens.append(["html"])
                    self.hide(pos, end)
                    pos = end
                    continue
                pending.append(ch)
                pos += 1
                continue
            if ch == "&":
                found_entity = self.entity(pos, pmax)
                if found_entity is not None:
                    end, text = found_entity
                    if pending:
                        tokens.append(["text", "".join(pending)])
                        pending = []
                    tokens.append(["text", text])
                    pos = end
                    continue
            pending.append(ch)
            pos += 1
        if pending:
            tokens.append(["text", "".join(pending)])
        if delims:
            _balance(delims)
            _unmark(tokens, delims)
        return tokens

    def scan_delims(self, start: int, pmax: int) -> tuple[bool, bool, int]:
        src = self.src
        marker = src[start]
        lastChar = src[start - 1] if start > 0 else " "
        pos = start
        while pos < pmax and src[pos] == marker:
            pos += 1
        count = pos - start
        nextChar = src[pos] if pos < pmax else " "
        isLastPunctChar = isMdAsciiPunct(ord(lastChar)) or isPunctChar(lastChar)
        isNextPunctChar = isMdAsciiPunct(ord(nextChar)) or isPunctChar(nextChar)
        isLastWhiteSpace = isWhiteSpace(ord(lastChar))
        isNextWhiteSpace = isWhiteSpace(ord(nextChar))
        left_flanking = not (
            isNextWhiteSpace or (isNextPunctChar and not (isLastWhiteSpace or isLastPunctChar))
        )
        right_flanking = not (
            isLastWhiteSpace or (isLastPunctChar and not (isNextWhiteSpace or isNextPunctChar))
        )
        canSplitWord = marker == "*"
        can_open = left_flanking and (canSplitWord or (not right_flanking) or isLastPunctChar)
        can_close = right_flanking and (canSplitWord or (not left_flanking) or isNextPunctChar)
        return can_open, can_close, count

    # -- silent rules -------------------------------------------------------------------

    def skip_token(self, pos: int, pmax: int) -> int:
        cached = self.cache.get(pos)
        if cached is not None:
            return cached
        if self.depth >= _MAX_INLINE_DEPTH:
            raise _Fallback
        self.depth += 1
        try:
            end = self.silent_rules(pos, pmax)
        finally:
            self.depth -= 1
        if end < 0:
            end = pos + 1
        self.cache[pos] = end
        return end

    def silent_rules(self, pos: int, pmax: int) -> int:
        src = self.src
        ch = src[pos]
        if ch not in _TERMINATORS:
            m = _TERMINATOR_RE.search(src, pos)
            return m.start() if m else pmax
        if ch == "\n":
            pos += 1
            while pos < pmax and src[pos] in " \t":
                pos += 1
            return pos
        if ch == "\\":
            if pos + 1 >= pmax:
                return -1
            if src[pos + 1] == "\n":
                pos += 2
                while pos < pmax and src[pos] in " \t":
                    pos += 1
                return pos
            nxt = src[pos + 1]
            if (
                "\ud800" <= nxt <= "\udbff"
                and pos + 2 < pmax
                and "\udc00" <= src[pos + 2] <= "\udfff"
            ):
                return pos + 3
            return pos + 2
        if ch == "`":
            return self.backtick(pos, pmax)[0]
        if ch == "[":
            found = self.link(pos, pmax)
            return -1 if found is None else found[0]
        if ch == "!":
            found = self.image(pos, pmax)
            return -1 if found is None else found[0]
        if ch == "<":
            auto = self.autolink(pos, pmax)
            if auto is not None:
                return auto[0]
            return self.html_inline(pos, pmax)
        if ch == "&":
            found_entity = self.entity(pos, pmax)
            return -1 if found_entity is None else found_entity[0]
        return -1

    def backtick(self, start: int, maximum: int) -> tuple[int, bool]:
        """End of the code span at ``start`` (True) or of its unmatched run (False)."""
        src = self.src
        pos = start + 1
        while pos < maximum and src[pos] == "`":
            pos += 1
        opener_length = pos - start
        if self.backticks is None:
            runs: dict[int, int] = {}
            p = 0
            n = len(src)
            while (s := src.find("`", p)) != -1:
                p = s + 1
                while p < n and src[p] == "`":
                    p += 1
                runs[p - s] = s
            self.backticks = runs
        if self.backticks.get(opener_length, -1) >= pos:
            match_end = pos
            n = len(src)
            while (match_start := src.find("`", match_end)) != -1 and match_start < maximum:
                match_end = match_start + 1
                while match_end < n and src[match_end] == "`":
                    match_end += 1
                if match_end > maximum:
                    break
                if match_end - match_start == opener_length:
                    return match_end, True
        return pos, False

    def parse_link_label(self, start: int, pmax: int, disable_nested: bool) -> int:
        src = self.src
        pos = start + 1
        m = _LABEL_END_RE.search(src, pos, pmax)
        if m is not None and src[m.start()] == "]":
            return m.start()
        level = 1
        while pos < pmax:
            marker = src[pos]
            if marker == "]":
                level -= 1
                if level == 0:
                    return pos
            prev = pos
            pos = self.skip_token(pos, pmax)
            if marker == "[":
                if prev == pos - 1:
                    level += 1
                elif disable_nested:
                    return -1
        return -1

    def _reference_end(
        self, pos: int, pmax: int, labelStart: int, labelEnd: int
    ) -> tuple[int, _Ref] | None:
        if not self.refs:
            return None
        src = self.src
        label = None
        if pos < pmax and src[pos] == "[":
            start = pos + 1
            pos = self.parse_link_label(pos, pmax, False)
            if pos >= 0:
                label = src[start:pos]
                pos += 1
            else:
                pos = labelEnd + 1
        else:
            pos = labelEnd + 1
        if not label:
            label = src[labelStart:labelEnd]
        ref = self.refs.get(_normalize_label(label))
        if ref is None:
            return None
        return pos, ref

    def link(self, start: int, pmax: int) -> _Found | None:
        src = self.src
        labelStart = start + 1
        labelEnd = self.parse_link_label(start, pmax, True)
        if labelEnd < 0:
            return None
        pos = labelEnd + 1
        href = ""
        span = None
        parseReference = True
        if pos < pmax and src[pos] == "(":
            parseReference = False
            pos += 1
            while pos < pmax and src[pos] in " \t\n":
                pos += 1
            if pos >= pmax:
                return None
            ok, dest, end = _destination(src, pos, pmax)
            if ok:
                href = _normalize_link(dest)
                span = (pos, end)
                pos = end
                begin = pos
                while pos < pmax and src[pos] in " \t\n":
                    pos += 1
                res = parseLinkTitle(src, pos, pmax)
                if pos < pmax and begin != pos and res.ok:
                    pos = res.pos
                    while pos < pmax and src[pos] in " \t\n":
                        pos += 1
            if pos >= pmax or src[pos] != ")":
                parseReference = True
            pos += 1
        if parseReference:
            found = self._reference_end(pos, pmax, labelStart, labelEnd)
            if found is None:
                return None
            return found[0], found[1].href, labelStart, labelEnd, found[1], None
        return pos, href, labelStart, labelEnd, None, span

    def image(self, start: int, pmax: int) -> _Found | None:
        src = self.src
        if start + 1 < pmax and src[start + 1] != "[":
            return None
        labelStart = start + 2
        labelEnd = self.parse_link_label(start + 1, pmax, False)
        if labelEnd < 0:
            return None
        pos = labelEnd + 1
        href = ""
        span = None
        if pos < pmax and src[pos] == "(":
            pos += 1
            while pos < pmax and src[pos] in " \t\n":
                pos += 1
            if pos >= pmax:
                return None
            ok, dest, end = _destination(src, pos, pmax)
            if ok:
                href = _normalize_link(dest)
                span = (pos, end)
                pos = end
            begin = pos
            while pos < pmax and src[pos] in " \t\n":
                pos += 1
            res = parseLinkTitle(src, pos, pmax, None)
            if pos < pmax and begin != pos and res.ok:
                pos = res.pos
                while pos < pmax and src[pos] in " \t\n":
                    pos += 1
            if pos >= pmax or src[pos] != ")":
                return None
            return pos + 1, href, labelStart, labelEnd, None, span
        found = self._reference_end(pos, pmax, labelStart, labelEnd)
        if found is None:
            return None
        return found[0], found[1].href, labelStart, labelEnd, found[1], None

    def autolink(self, start: int, pmax: int) -> tuple[int, str, str] | None:
        src = self.src
        close = src.find(">", start + 1, pmax)
        if close < 0:
            return None
        url = src[start + 1 : close]
        if "<" in url:
            return None
        if AUTOLINK_RE.search(url) is not None:
            return close + 1, _normalize_link(url), _normalize_link_text(url)
        if EMAIL_RE.search(url) is not None:
            return close + 1, _normalize_link("mailto:" + url), _normalize_link_text(url)
        return None

    def _last(self, term: str) -> int:
        if self.html_last is None:
            self.html_last = {}
        found = self.html_last.get(term)
        if found is None:
            found = self.html_last[term] = self.src.rfind(term)
        return found

    def html_inline(self, pos: int, pmax: int) -> int:
        src = self.src
        if pos + 2 >= pmax:
            return -1
        ch = src[pos + 1]
        if ch not in "!?/" and not ("a" <= ch <= "z" or "A" <= ch <= "Z"):
            return -1
        if src.startswith("<!--", pos):
            if self._last(">") < pos + 4:
                return -1
            if (
                not src.startswith("<!-->", pos)
                and not src.startswith("<!--->", pos)
                and self._last("-->") < pos + 4
            ):
                return -1
        elif src.startswith("<![CDATA[", pos):
            if self._last("]]>") < pos + 9:
                return -1
        elif ch == "?":
            if self._last("?>") < pos + 2:
                return -1
        elif ch == "!":
            if self._last(">") < pos + 3:
                return -1
        elif self._last(">") < pos + 2:
            return -1
        match = HTML_TAG_RE.match(src, pos)
        if not match:
            return -1
        return pos + len(match.group(0))

    def entity(self, pos: int, pmax: int) -> tuple[int, str] | None:
        src = self.src
        if pos + 1 >= pmax:
            return None
        if src[pos + 1] == "#":
            match = DIGITAL_RE.match(src, pos)
            if match:
                code_str = match.group(1)
                code = int(code_str[1:], 16) if code_str[0] in "xX" else int(code_str, 10)
                text = fromCodePoint(code) if isValidEntityCode(code) else fromCodePoint(0xFFFD)
                return pos + len(match.group(0)), text
            return None
        match = NAMED_RE.match(src, pos)
        if match and match.group(1) in _ENTITIES:
            return pos + len(match.group(0)), _ENTITIES[match.group(1)]
        return None


#: ``[text](destination)`` where nothing in the text is an inline token and the
#: destination is plain: the whole of markdown-it's link rule gives this same reading.
_SIMPLE_LINK_RE = re.compile(
    r"\[([^\]\\`<\[\n*_!&]*)\]\(([^ \x00-\x1f\x7f()\\<][^ \x00-\x1f\x7f()\\]*)\)"
)
#: A label holding none of these is its own link text (no inline token inside it).
_LABEL_SIMPLE_RE = re.compile(r"[\n\\`*_\[!<&]")


def _code_content(src: str, start: int, end: int) -> str:
    pos = start
    while src[pos] == "`":
        pos += 1
    length = pos - start
    content = src[pos : end - length].replace("\n", " ")
    if content.startswith(" ") and content.endswith(" ") and any(c != " " for c in content):
        content = content[1:-1]
    return content


def _balance(delimiters: list[_Delim]) -> None:
    """markdown-it's ``balance_pairs.processDelimiters`` (emphasis markers only)."""
    openersBottom: dict[str, list[int]] = {}
    maximum = len(delimiters)
    headerIdx = 0
    lastTokenIdx = -2
    jumps: list[int] = []
    closerIdx = 0
    while closerIdx < maximum:
        closer = delimiters[closerIdx]
        jumps.append(0)
        if delimiters[headerIdx].marker != closer.marker or lastTokenIdx != closer.token - 1:
            headerIdx = closerIdx
        lastTokenIdx = closer.token
        if not closer.close:
            closerIdx += 1
            continue
        if closer.marker not in openersBottom:
            openersBottom[closer.marker] = [-1, -1, -1, -1, -1, -1]
        minOpenerIdx = openersBottom[closer.marker][(3 if closer.open else 0) + (closer.length % 3)]
        openerIdx = headerIdx - jumps[headerIdx] - 1
        newMinOpenerIdx = openerIdx
        while openerIdx > minOpenerIdx:
            opener = delimiters[openerIdx]
            if opener.marker != closer.marker:
                openerIdx -= jumps[openerIdx] + 1
                continue
            if opener.open and opener.end < 0:
                isOddMatch = (
                    (opener.close or closer.open)
                    and (opener.length + closer.length) % 3 == 0
                    and (opener.length % 3 != 0 or closer.length % 3 != 0)
                )
                if not isOddMatch:
                    if openerIdx > 0 and not delimiters[openerIdx - 1].open:
                        lastJump = jumps[openerIdx - 1] + 1
                    else:
                        lastJump = 0
                    jumps[closerIdx] = closerIdx - openerIdx + lastJump
                    jumps[openerIdx] = lastJump
                    closer.open = False
                    opener.end = closerIdx
                    opener.close = False
                    newMinOpenerIdx = -1
                    lastTokenIdx = -2
                    break
            openerIdx -= jumps[openerIdx] + 1
        if newMinOpenerIdx != -1:
            openersBottom[closer.marker][(3 if closer.open else 0) + (closer.length % 3)] = (
                newMinOpenerIdx
            )
        closerIdx += 1


def _unmark(tokens: list[list], delimiters: list[_Delim]) -> None:
    """Empty the text of markers that became emphasis (markdown-it's emphasis postProcess)."""
    i = len(delimiters) - 1
    while i >= 0:
        start = delimiters[i]
        if start.end == -1:
            i -= 1
            continue
        end = delimiters[start.end]
        isStrong = (
            i > 0
            and delimiters[i - 1].end == start.end + 1
            and delimiters[i - 1].marker == start.marker
            and delimiters[i - 1].token == start.token - 1
            and delimiters[start.end + 1].token == end.token + 1
        )
        tokens[start.token] = ["em"]
        tokens[end.token] = ["em"]
        if isStrong:
            tokens[delimiters[i - 1].token][1:] = [""]
            tokens[delimiters[start.end + 1].token][1:] = [""]
            i -= 1
        i -= 1
