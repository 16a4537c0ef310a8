"""A fast scan of a Markdown body: links, footnotes and headings, as markdown-it finds them.

``kas-tui check`` needs every document's links and footnote references; running
markdown-it over 10,000 bodies costs seconds. :func:`scan_body` gives the same answer
about ten times faster (see ``benchmarks/check_scan_corpus.py``):

* the **reference path** (:func:`scan_body_reference`) runs markdown-it itself: the
  ``commonmark`` parser of :func:`kas_tui.core.okf.links.extract_links` for links and
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

from functools import lru_cache

from markdown_it import MarkdownIt

from kas_tui.core.okf.link_parser import Link, _parser, links_in_tokens
from kas_tui.core.okf.scan.blocks import _Blocks
from kas_tui.core.okf.scan.common import _NEWLINES_RE, BodyScan, Destination, _Fallback
from kas_tui.core.okf.scan.flat import _scan_flat

__all__ = [
    "BodyScan",
    "Destination",
    "scan_body",
    "scan_body_fast",
    "scan_body_reference",
    "scan_destinations",
]


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
