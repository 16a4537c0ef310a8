"""Markdown links, found with a real Markdown parser (a link in a code block is not a link):
where they are written, how to rewrite them, and where they point.
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import unquote, urljoin

from kas_tui.core.okf.link_parser import Link, _parser, extract_links, links_in_tokens

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

    from kas_tui.core.okf.scan import Destination

__all__ = [
    "Link",
    "Span",
    "Target",
    "_parser",
    "code_spans",
    "destination_spans",
    "destination_spans_reference",
    "extract_links",
    "format_destination",
    "link_bounds",
    "links_in_tokens",
    "relative_link",
    "resolve",
    "rewrite_links",
    "site_link",
]

#: A URL scheme at the start of a link (``https:``, ``mailto:``): an address, not a path.
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]")
#: A relative path of plain names (none of them "." or ".."): resolves by joining.
_PLAIN_RELATIVE = re.compile(r"[\w-][\w.-]*(?:/[\w-][\w.-]*)*/?", re.ASCII)


class Span(NamedTuple):
    """Where a link destination is written: ``text[start:end]`` is the destination as
    written (``<...>`` included), ``target`` what markdown-it reads there (unescaped and
    normalized, as :class:`Link` holds it), ``line`` its 1-based line.

    Inline links and images have one each; a reference link's destination is its
    definition's (``[x]: dest``), one span however many links use it.
    """

    start: int
    end: int
    target: str
    line: int


@lru_cache(maxsize=1)
def _span_parser() -> MarkdownIt:
    """The links parser, its link rules marking where each destination is written."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    md.validateLink = lambda url: True  # as in _parser: keep every link
    from markdown_it.rules_block import reference
    from markdown_it.rules_inline import image, link

    md.inline.ruler.at("link", _marking(link, "link_open", 0))
    md.inline.ruler.at("image", _marking(image, "image", 1))

    def marked_reference(state: Any, startLine: int, endLine: int, silent: bool) -> bool:
        known = len(state.env.get("references", ()))
        found = reference(state, startLine, endLine, silent)
        if found and not silent and len(state.env["references"]) > known:  # not a duplicate
            _mark_definition(state, startLine, next(reversed(state.env["references"])))
        return found

    md.block.ruler.at("reference", marked_reference)
    return md


def _marking(rule: Callable[[Any, bool], bool], kind: str, label_at: int) -> Callable[..., bool]:
    """markdown-it's ``link`` or ``image`` ``rule``, recording on its token where an inline
    destination is: ``(start, end)`` in the inline text (a reference link's is its
    definition's: see :func:`_mark_definition`)."""

    def marked(state: Any, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        if silent:
            return True
        token = next(t for t in state.tokens[count:] if t.type == kind)
        src, end = state.src, state.pos
        label_end = state.md.helpers.parseLinkLabel(state, start + label_at, label_at == 0)
        if src[end - 1] == ")" and src.startswith("(", label_end + 1):  # [x](dest)
            pos = label_end + 2
            while src[pos] in " \t\n":
                pos += 1
            found = state.md.helpers.parseLinkDestination(src, pos, state.posMax)
            if found.ok and found.pos > pos:
                token.meta["dest"] = (pos, found.pos)
        return True

    return marked


def _mark_definition(state: Any, startLine: int, label: str) -> None:
    """Record where the destination of the definition of ``label`` at ``startLine`` is,
    as an offset in the (newline-normalized) source: what markdown-it's ``reference``
    rule read, rebuilt from the lines it read."""
    src = state.src
    lines = range(startLine, state.line)
    string = "".join(src[state.bMarks[n] + state.tShift[n] : state.eMarks[n] + 1] for n in lines)
    pos = 1
    while string[pos] != "]":
        pos += 2 if string[pos] == "\\" else 1
    pos += 2
    while string[pos] in " \t\n":
        pos += 1
    found = state.md.helpers.parseLinkDestination(string, pos, len(string))
    line = startLine + string.count("\n", 0, pos)
    line_end = string.find("\n", pos)
    line_end = len(string) if line_end < 0 else line_end
    start = state.eMarks[line] - (line_end - pos)
    state.env.setdefault("dest_spans", {})[label] = (start, start + found.pos - pos, line)


def destination_spans(markdown: str) -> list[Span]:
    """Every link, image and reference-definition destination markdown-it finds in
    ``markdown``, in text order: never one in code, HTML or a link's title.

    Autolinks (``<https://...>``) are absolute URLs and have none: nothing rewrites them.
    The fast body scanner finds them (:func:`kas_tui.core.okf.scan.scan_destinations`, about
    ten times faster than markdown-it); where it steps aside, markdown-it does
    (:func:`destination_spans_reference`).
    """
    if "[" not in markdown:
        return []  # every destination follows a link's, an image's or a definition's label
    from kas_tui.core.okf.scan import (
        scan_destinations,  # on first use: importing links needs no markdown-it
    )

    found = scan_destinations(markdown)
    return _place(markdown, _markdown_it_destinations(markdown) if found is None else found)


def destination_spans_reference(markdown: str) -> list[Span]:
    """:func:`destination_spans` found by markdown-it itself (slow, the definition of right)."""
    return _place(markdown, _markdown_it_destinations(markdown))


def _markdown_it_destinations(markdown: str) -> list[tuple[str | None, int, int, int, str]]:
    """The destinations markdown-it's rules read in ``markdown``, as
    :class:`kas_tui.core.okf.scan.Destination` tuples: in an inline token's text, or (for a
    reference definition, ``None`` for the text) in the normalized source."""
    env: dict[str, Any] = {}
    tokens = _span_parser().parse(markdown, env)
    found: list[tuple[str | None, int, int, int, str]] = []
    references = env.get("references", {})
    for label, (start, end, line) in env.get("dest_spans", {}).items():
        found.append((None, line, start, end, references[label]["href"]))
    for token in tokens:
        if token.type != "inline" or not token.children or not token.map:
            continue
        for child in token.children:
            dest = child.meta.get("dest")
            if dest is None:
                continue
            target = child.attrs.get("href" if child.type == "link_open" else "src", "")
            found.append((token.content, token.map[0], dest[0], dest[1], str(target)))
    return found


def _place(text: str, found: Iterable[Destination | tuple]) -> list[Span]:
    """The spans in ``text`` of destinations found in its normalized source, in text order."""
    source: _Source | None = None
    spans: dict[int, Span] = {}
    for content, row, start, end, target in found:
        if source is None:
            source = _Source(text)
        if content is None:
            span: Span | None = source.span(start, end, target, row)
        else:
            span = source.inline_span(content, row, start, end, target)
        if span is not None:
            spans[span.start] = span
    return [spans[start] for start in sorted(spans)]


class _Source:
    """Offsets in markdown-it's normalized source (``\\r\\n`` made ``\\n``) mapped to
    offsets in the text as given."""

    def __init__(self, text: str) -> None:
        self.text = text
        if "\r" in text:
            self.lines = re.split(r"\r\n?|\n", text)
            # where each line starts in the text as given
            self.given = [0, *(nl.end() for nl in re.finditer(r"\r\n?|\n", text))]
        else:
            self.lines = text.split("\n")
        # where each line starts, in the normalized text
        self.starts = list(accumulate(map((1).__add__, map(len, self.lines[:-1])), initial=0))
        if "\r" not in text:
            self.given = self.starts

    def span(self, start: int, end: int, target: str, line: int) -> Span:
        """The span of a destination at ``start:end`` in the normalized source, on 0-based
        ``line``."""
        n = bisect_right(self.starts, start) - 1
        shift = self.given[n] - self.starts[n]
        return Span(start + shift, end + shift, target, line + 1)

    def inline_span(self, content: str, row: int, start: int, end: int, target: str) -> Span | None:
        """The span of a destination at ``start:end`` in the text of an inline token
        starting on 0-based ``row``: its line of the token is the end of a source line
        (block quote and list markers, indents and tabs are cut from its start), trimmed
        at the end for the last line."""
        row += content.count("\n", 0, start)
        cut = content.find("\n", start)
        tail = content[start : len(content) if cut < 0 else cut]
        line = self.lines[row]
        at = len(line) - len(tail) if line.endswith(tail) else line.rfind(tail)
        if at < 0 or line[at : at + end - start] != content[start:end]:
            return None  # pragma: no cover - a line markdown-it rebuilt some other way
        return Span(self.given[row] + at, self.given[row] + at + end - start, target, row + 1)


#: Characters a destination written bare cannot hold (it is then written in ``<...>``).
_NEEDS_ANGLE = re.compile(r"[\s()<>]|^$")
#: ``&`` that would start a character reference, and backslashes: escaped when written.
_ESCAPE_IN_DEST = re.compile(r"\\|&(?=#?[A-Za-z0-9]+;)")


def format_destination(dest: str, *, angle: bool = False) -> str:
    """``dest`` written as a Markdown link destination that markdown-it reads back as
    ``dest``: bare when it can be, else in ``<...>`` (always when ``angle``)."""
    if "\n" in dest or "\r" in dest:
        raise ValueError(f"link destination {dest!r} holds a line break")
    escaped = _ESCAPE_IN_DEST.sub(lambda m: "\\" + m.group(0), dest)
    if angle or _NEEDS_ANGLE.search(dest):
        return "<" + re.sub(r"[<>]", lambda m: "\\" + m.group(0), escaped) + ">"
    return escaped


def rewrite_links(
    text: str,
    change: Callable[[str], str | None],
    spans: Iterable[Span] | None = None,
    *,
    by_span: bool = False,
) -> str:
    """``text`` with each link destination that ``change`` maps to a new one rewritten.

    ``change`` gets a destination as markdown-it reads it (:attr:`Span.target`) and
    returns the new one, or ``None`` to keep it. Only the destinations'
    own characters change (``<...>`` stays ``<...>``; titles and text stay as written):
    links in code, HTML and everything else are the bytes they were. ``spans`` are
    :func:`destination_spans` of ``text`` (computed when not given). ``by_span=True``
    passes ``change`` the whole :class:`Span` instead, for a change that follows how the
    destination is written (``text[span.start:span.end]``: percent-encoded or not).
    """
    parts: list[str] = []
    at = 0
    for span in destination_spans(text) if spans is None else spans:
        new = change(span) if by_span else change(span.target)  # type: ignore[arg-type]
        if new is None or new == span.target:
            continue
        written = text[span.start : span.end]
        parts += [text[at : span.start], format_destination(new, angle=written[:1] == "<")]
        at = span.end
    if not parts:
        return text
    parts.append(text[at:])
    return "".join(parts)


def unlink(text: str, span: Span) -> str | None:
    """``text`` with the inline link (or image) whose destination is ``span`` replaced by
    its label, as written: ``see [the policy](gone.md) first`` becomes ``see the policy
    first``, every other byte kept. ``None`` when ``span`` is not an inline link's (a
    reference definition, shared by its links, is not removed this way)."""
    bounds = link_bounds(text, span)
    if bounds is None:
        return None
    start, close, end = bounds
    label = start + 2 if text[start] == "!" else start + 1
    return text[:start] + text[label:close] + text[end:]


def link_bounds(text: str, span: Span) -> tuple[int, int, int] | None:
    """Where the inline link (or image) whose destination is ``span`` is written: the
    offset of its opening ``[`` (an image's ``!``), of the ``]`` closing its label, and
    just past its ``)``; ``None`` when ``span`` is not an inline link's."""
    if text[span.start - 2 : span.start] != "](" and text[span.start - 3 : span.start] != "]( ":
        return None
    close = text.rfind("]", 0, span.start)
    depth, at = 0, close - 1
    while at >= 0:  # the label's opening bracket, nested brackets and escapes allowed
        char = text[at]
        escaped = at > 0 and text[at - 1] == "\\"
        if char == "]" and not escaped:
            depth += 1
        elif char == "[" and not escaped:
            if depth == 0:
                break
            depth -= 1
        at -= 1
    if at < 0:
        return None
    start = at - 1 if at > 0 and text[at - 1] == "!" else at
    end = _after_title(text, span.end)
    if end is None:
        return None
    return start, close, end


def _after_title(text: str, at: int) -> int | None:
    """Where an inline link ends: past its optional title and the closing ``)``."""
    while at < len(text) and text[at] in " \t\n":
        at += 1
    if at < len(text) and text[at] in "\"'(":
        closing = ")" if text[at] == "(" else text[at]
        at += 1
        while at < len(text) and text[at] != closing:
            at += 2 if text[at] == "\\" else 1
        at += 1
        while at < len(text) and text[at] in " \t\n":
            at += 1
    return at + 1 if at < len(text) and text[at] == ")" else None


def code_spans(markdown: str) -> list[Span]:
    """The inline code spans markdown-it finds in ``markdown`` (never one in a code block
    or in HTML), in text order: ``text[start:end]`` is the code as written between its
    backticks (one padding space each side left out), ``target`` the code markdown-it
    reads. A path written as code (SKILL.md's entry points: `` `/billing/refunds.md` ``)
    is one. A span markdown-it reads across a line break is left out.
    """
    if "`" not in markdown:
        return []
    source = _Source(markdown)
    found: list[Span] = []
    for token in _parser().parse(markdown):
        if token.type != "inline" or not token.map or not token.children:
            continue
        first, last = token.map
        at = source.given[first]
        end = source.given[last] if last < len(source.given) else len(markdown)
        for child in token.children:
            if child.type != "code_inline" or not child.content:
                continue
            ticks = re.escape(child.markup)
            pattern = rf"(?<!`){ticks}( ?){re.escape(child.content)}\1{ticks}(?!`)"
            hit = re.compile(pattern).search(markdown, at, end)
            if hit is None:
                continue
            start = hit.start() + len(child.markup) + len(hit.group(1))
            row = bisect_right(source.given, start) - 1
            found.append(Span(start, start + len(child.content), child.content, row + 1))
            at = hit.end()
    return found


def site_link(base: str, link: str) -> str:
    """``link`` (as markdown-it reads it) made absolute against the address ``base``, as a
    browser joins a page's link to the page's address (RFC 3986): a ``/``-rooted link
    keeps only the scheme and host of ``base`` (``https://site/docs/product`` and
    ``/docs/product/x`` give ``https://site/docs/product/x``, never the path twice); a
    relative one replaces the last segment of ``base``'s path (all of it after a final
    ``/``), ``../`` climbing from there.
    """
    return urljoin(base, link)


@dataclass(frozen=True)
class Target:
    """Where a link points, relative to the package root.

    ``kind`` is ``internal`` (``path`` is a root-relative POSIX path, ``''`` for the root),
    ``external`` (a URL), ``anchor`` (same document), or ``outside`` (leaves the
    package: never followed).
    """

    kind: str
    path: str = ""
    fragment: str = ""


def resolve(source: str, target: str) -> Target:
    """Resolve link ``target`` found in file ``source`` (root-relative POSIX path).

    ``/``-rooted targets start at the package root; others at ``source``'s folder.
    ``#fragment`` and ``?query`` are not part of the path.
    """
    if _PLAIN_RELATIVE.fullmatch(target):  # the usual "doc.md", "sub/", "a/b.md": no normpath
        folder = posixpath.dirname(source)
        path = target.rstrip("/")
        return Target("internal", f"{folder}/{path}" if folder else path)
    target = target.strip()
    if not target or target.startswith("#"):
        return Target("anchor", source, target[1:])
    raw = unquote(target)  # the Markdown parser writes ``C:\\x`` as ``C:%5Cx``
    if _WINDOWS_PATH.match(raw) or raw.startswith("\\\\"):
        return Target("outside", target)
    if SCHEME.match(target):
        scheme = target.split(":", 1)[0].lower()
        return Target("outside" if scheme == "file" else "external", target)
    if target.startswith("//"):
        return Target("external", target)
    path, _, fragment = target.partition("#")
    path = unquote(path.partition("?")[0])
    if path.startswith("/"):
        joined = path.lstrip("/")
    else:
        joined = posixpath.join(posixpath.dirname(source), path)
    norm = posixpath.normpath(joined) if joined else "."
    if norm == ".." or norm.startswith("../"):
        return Target("outside", norm, fragment)
    return Target("internal", "" if norm == "." else norm, fragment)


def relative_link(source: str, path: str, *, folder: bool = False) -> str:
    """The relative link text from file ``source`` to root-relative ``path``."""
    rel = _relpath(path or ".", posixpath.dirname(source) or ".")
    if folder:
        rel = "" if rel == "." else rel.rstrip("/") + "/"
        return rel or "./"
    return rel


@lru_cache(maxsize=1 << 16)
def _relpath(path: str, start: str) -> str:
    """``posixpath.relpath``, remembered: a build asks the same pairs thousands of times
    (every page of a folder linking to the same pages)."""
    return posixpath.relpath(path, start)
