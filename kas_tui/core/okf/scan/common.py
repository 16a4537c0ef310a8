"""What the block and inline scanners share: their results, the step-aside exception
and limits, the patterns several rules use, and link destinations read and normalized
as markdown-it reads them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from markdown_it.common.utils import (
    normalizeReference,
    unescapeAll,
)
from markdown_it.helpers import parseLinkDestination
from markdown_it.rules_block.html_block import HTML_SEQUENCES
from markdown_it.rules_inline.escape import _ESCAPED

from kas_tui.core.okf.link_parser import Link, _parser


@dataclass(frozen=True)
class BodyScan:
    """What a Markdown body links to, cites and is titled.

    ``links``: inline links, images, autolinks and resolved reference links, in the order
    and form :func:`kas_tui.core.okf.links.extract_links` gives them. ``footnotes``: labels of
    footnote references ``[^id]`` used outside code. ``footnote_definitions``: labels
    defined by ``[^id]: text``. ``headings``: ``(level, text, line)`` of ATX and setext
    headings; ``text`` is the heading's Markdown source, trimmed (as markdown-it's inline
    token holds it).
    """

    links: tuple[Link, ...] = ()
    footnotes: frozenset[str] = frozenset()
    footnote_definitions: frozenset[str] = frozenset()
    headings: tuple[tuple[int, str, int], ...] = ()


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


#: Links already normalized (most targets repeat across a package: ``../index.md``).
_NORMALIZED: dict[str, str] = {}
_NORMALIZED_MAX = 16_384


def _normalize_link(url: str) -> str:
    """``MarkdownIt.normalizeLink`` (percent-encoding, punycode), skipping it when it is a no-op."""
    done = _NORMALIZED.get(url)
    if done is not None:
        return done
    m = _URL_AS_IS_RE.fullmatch(url)
    if m is not None and (m.group(1) is None or len(m.group(1)) <= 255):
        done = url
    else:
        done = _normalize_link_slow(url)
    if len(_NORMALIZED) >= _NORMALIZED_MAX:
        _NORMALIZED.clear()
    _NORMALIZED[url] = done
    return done


@lru_cache(maxsize=4096)
def _normalize_link_slow(url: str) -> str:
    return _parser().normalizeLink(url)


@lru_cache(maxsize=4096)
def _normalize_link_text(url: str) -> str:
    return _parser().normalizeLinkText(url)


@lru_cache(maxsize=8192)
def _normalize_label(label: str) -> str:
    return normalizeReference(label)


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


class _Ref:
    __slots__ = ("href", "footnote_like")

    def __init__(self, href: str, footnote_like: bool) -> None:
        self.href = href
        self.footnote_like = footnote_like


#: What the link and image rules found: where the link ends, its target, where its label
#: starts and ends, the reference definition it uses (``None`` for an inline link) and
#: where its inline destination is written (``None`` for none).
_Found = tuple[int, str, int, int, "_Ref | None", "tuple[int, int] | None"]
