"""How include directives are written, and the parts of files they take: the
syntax :mod:`includes` expands (docfx ``[!INCLUDE]``, pymdownx.snippets ``--8<--``)."""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterator, Sequence
from urllib.parse import unquote

from markdown_it import MarkdownIt

from kas_tui.core.okf import frontmatter as fm
from kas_tui.features.importing.toc_mkdocs import is_mkdocs_config
from kas_tui.text.prose import DOCFX_INCLUDE

DOCFX = DOCFX_INCLUDE
SNIPPET = re.compile(
    r"""^(?P<space>[ \t]*)(?P<escape>;*)(?:
        (?P<inline>-+8<-+[ \t]+)(?P<quoted>"(?:\\"|[^"\r\n])+?"|'(?:\\'|[^'\r\n])+?')
        |(?P<block>-+8<-+)
    )\r?$""",
    re.VERBOSE,
)
SECTION = re.compile(
    r"(?P<escape>;*)-+8<-+[ \t]+\[[ \t]*(?P<kind>start|end)[ \t]*:[ \t]*"
    r"(?P<name>[a-z][-_0-9a-z]*)[ \t]*\]",
    re.IGNORECASE,
)
SPEC = re.compile(
    r"(?P<path>.*?)(?:(?P<lines>(?::-?\d*){1,2}(?:,-?\d*(?::-?\d*)?)*)|:(?P<section>[a-z][-_0-9a-z]*))?",
    re.IGNORECASE | re.DOTALL,
)
#: An mdx_include directive (FastAPI, SQLModel, Typer): ``{!path!}``, ``{!path[ln:1-18]!}``,
#: ``{!> path | utf-8 !}``; a preprocessor's, so inside code fences too; ``\\{!`` escapes it,
#: and one after a letter is a LaTeX argument's (``\\frac{!(M-|S|-1)!}{M}``), no directive.
MDX_INCLUDE = re.compile(r"(?<![\\\w])\{!(?P<mode>[<>]?)[ \t]*(?P<spec>[^!\n{}]+?)[ \t]*!\}")
_MDX_LINES = re.compile(r"\[ln:(?P<ranges>[-\d, ]+)\]$")
# What may stand before a docfx directive on a line of its own: blockquote markers and
# one list marker, which the included block's later lines repeat (a marker as spaces).
CONTAINER = re.compile(r"(?P<quote>[ \t]*(?:>[ \t]?)*)(?P<item>[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)?")
IMAGE = re.compile(r"\.(?:svg|png|jpe?g|gif|webp|bmp|ico|tiff?|avif)$", re.IGNORECASE)
BINARY = re.compile(r"\.(?:pdf|zip|gz|mp4|mov|webm|mp3|wav|woff2?|ttf|exe|dll)$", re.IGNORECASE)
MARKDOWN = (".md", ".markdown", ".mdx", ".mdown")
#: Blocks only: code blocks are told apart without parsing a single inline.
_BLOCK_PARSER = MarkdownIt("commonmark").disable("inline")


def directive_paths(text: str) -> Iterator[tuple[str, bool]]:
    """The paths ``text``'s directives name, as written; True for snippets."""
    lines = text.split("\n")
    inside = False
    for line in lines:
        for match in DOCFX.finditer(line):
            yield docfx_target(match.group("target")), False
        match = SNIPPET.match(line)
        if match and match.group("escape"):
            continue
        if match and match.group("block"):
            inside = not inside
        elif inside and line.strip() and not match:
            spec = line.strip()
            if not spec.startswith(";"):
                yield spec, True
        elif match and match.group("inline") and not inside:
            spec = match.group("quoted")[1:-1].strip()
            if not spec.startswith(";"):
                yield spec, True


def parse_mdx_spec(spec: str) -> tuple[str, list[tuple[int | None, int | None]]]:
    """``docs_src/app.py[ln:1-18,20-] | utf-8`` -> (docs_src/app.py, [(1, 18), (20, None)])."""
    path = spec.split("|", 1)[0].strip()
    ranges: list[tuple[int | None, int | None]] = []
    written = _MDX_LINES.search(path)
    if written:
        path = path[: written.start()].strip()
        for part in written.group("ranges").split(","):
            start, _, end = part.strip().partition("-")
            if start.strip().isdigit() or end.strip().isdigit():
                ranges.append(
                    (
                        int(start) if start.strip().isdigit() else None,
                        int(end) if end.strip().isdigit() else None,
                    )
                )
    return path, ranges


def parse_spec(spec: str) -> tuple[str, list[tuple[int | None, int | None]], str | None]:
    """``f.py:3:10`` -> (f.py, [(3, 10)], None); ``f.py:name`` -> (f.py, [], name)."""
    match = SPEC.fullmatch(spec)
    assert match is not None  # the pattern matches every string
    name = match.group("path").strip()
    if not name:  # only a range: the whole spec is the name
        return spec, [], None
    ranges: list[tuple[int | None, int | None]] = []
    written = match.group("lines")
    for part in written[1:].split(",") if written else []:
        start, _, end = part.partition(":")
        ranges.append((int(start) if start else None, int(end) if end else None))
    return name, ranges, match.group("section")


Numbered = list[tuple[int, str]]  # a file's lines with their numbers


def select_lines(lines: Numbered, ranges: list[tuple[int | None, int | None]]) -> Numbered:
    """The lines the 1-based inclusive ranges pick (negative numbers count from the end)."""
    total, chosen = len(lines), []
    for start, end in ranges:
        first = None if start is None else (max(0, total + start) if start < 0 else start - 1)
        last = None if end is None else (max(0, total + 1 + end) if end < 0 else end)
        chosen += lines[slice(None if first is None else max(0, first), last)]
    return chosen


def section_lines(lines: Numbered, name: str) -> Numbered | None:
    """The lines between the ``start`` and ``end`` markers of section ``name`` (other
    sections' markers left out); ``None`` when no such section starts."""
    kept: Numbered | None = None
    for number, line in lines:
        marker = SECTION.search(line)
        if marker and marker.group("escape"):
            if kept is not None:
                kept.append((number, unescape(line, marker)))
            continue
        if marker and marker.group("name") == name:
            if marker.group("kind").lower() == "end":
                break
            kept = [] if kept is None else kept
            continue
        if kept is not None and not marker:
            kept.append((number, line))
    return kept


def without_markers(lines: Numbered) -> Numbered:
    kept = []
    for number, line in lines:
        marker = SECTION.search(line)
        if marker is None:
            kept.append((number, line))
        elif marker.group("escape"):
            kept.append((number, unescape(line, marker)))
    return kept


def unescape(line: str, marker: re.Match[str]) -> str:
    return line[: marker.start("escape")] + line[marker.start("escape") + 1 :]


def file_lines(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if len(lines) > 1 and lines[-1] == "" else lines


def code_lines(text: str) -> frozenset[int]:
    """The 0-based lines of ``text`` inside fenced or indented code blocks, as far as
    a docfx include may sit in them: none without a fence and without an indented
    ``[!INCLUDE`` line (no page is parsed for nothing); else from the block structure."""
    low = text.lower()
    last = low.rfind("[!include")
    if last < 0:
        return frozenset()
    if "```" not in text and "~~~" not in text and not _indented_include(text, low):
        return frozenset()
    # what a line is depends on the lines above it: the text after the last include
    # cannot make it code, nor stop it being code (an unclosed fence runs to the end)
    end = text.find("\n", last)
    return _code_lines(text if end < 0 else text[: end + 1])


def _indented_include(text: str, low: str) -> bool:
    """Whether a line naming an include starts with four spaces or a tab."""
    at = low.find("[!include")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        if text.startswith("    ", start) or text.startswith("\t", start):
            return True
        at = low.find("[!include", at + 1)
    return False


@functools.lru_cache(maxsize=256)
def _code_lines(text: str) -> frozenset[int]:
    found: set[int] = set()
    for token in _BLOCK_PARSER.parse(text):
        if token.type in ("fence", "code_block") and token.map:
            found.update(range(*token.map))
    return frozenset(found)


def code_spans(line: str) -> list[tuple[int, int]]:
    """Where ``line``'s code spans are: a run of backticks closed by one as long."""
    runs = [m.span() for m in re.finditer(r"`+", line)]
    spans, index = [], 0
    while index < len(runs):
        start, end = runs[index]
        close = next(
            (k for k in range(index + 1, len(runs)) if runs[k][1] - runs[k][0] == end - start),
            None,
        )
        if close is None:
            index += 1
            continue
        spans.append((start, runs[close][1]))
        index = close + 1
    return spans


def docfx_target(target: str) -> str:
    target = target.strip()
    if target.startswith("<") and target.endswith(">"):
        return target[1:-1].strip()
    return re.sub(r"""\s+(?:"[^"]*"|'[^']*')$""", "", target)  # a link title


def relative(path: str, written: str) -> str | None:
    """``written`` (relative to ``path``, or to the root with ``/`` or ``~/``) as a
    source-relative path; ``None`` when it leaves the source."""
    target = unquote(written.split("#", 1)[0].split("?", 1)[0]).strip()
    if target.startswith(("~/", "/")):
        joined = target.lstrip("~/")
    else:
        joined = posixpath.join(posixpath.dirname(path), target)
    norm = posixpath.normpath(joined) if joined else "."
    return None if norm.startswith("../") or norm in ("..", ".") else norm


def under(base: str, name: str) -> str | None:
    """``name`` in the snippet base ``base``, ``None`` when it climbs out of it (as
    pymdownx's ``restrict_base_path``) or is absolute."""
    if name.startswith("/") or re.match(r"[A-Za-z]:[\\/]", name):
        return None
    norm = posixpath.normpath(posixpath.join(base, name))
    if norm in (".", "..") or norm.startswith("../"):
        return None
    return norm if not base or norm.startswith(base + "/") else None


def frontmatter_end(text: str) -> int:
    """Where ``text``'s frontmatter ends (0 without one)."""
    return fm.body_start(text)


def has_directive(text: str) -> bool:
    """Whether ``text`` may hold an include directive of any syntax (a quick look)."""
    return "8<" in text or "{!" in text or "{*" in text or "[!include" in text.lower()


def mdx_bases(files: Sequence[str]) -> list[str]:
    """Where an MkDocs site's mdx_include paths may start from: the folder of each of
    its configs (mkdocs runs there) and its ``docs`` folder (FastAPI's
    ``docs/en/docs/tutorial/first-steps.md`` names ``../../../docs_src/...``)."""
    found: list[str] = []
    for rel in sorted(f for f in files if is_mkdocs_config(f)):
        folder = posixpath.dirname(rel)
        found += [folder, posixpath.join(folder, "docs")]
    return list(dict.fromkeys(found))


def mdx_candidates(path: str, name: str, bases: Sequence[str]) -> list[str]:
    """Where the mdx_include path ``name`` of the page ``path`` may be, in order: beside
    the page, then in each base; none leaves the source."""
    found = [under("", posixpath.join(posixpath.dirname(path), name))]
    found += [under("", posixpath.join(base.strip("/"), name)) for base in bases]
    return list(dict.fromkeys(f for f in found if f))
