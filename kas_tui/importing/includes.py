"""Include directives resolved the way the docs site renders them.

A page of a docs site pulls shared text in with a directive the site's generator
expands; a build that kept the directive would show an agent ``[!INCLUDE ...]`` where a
reader sees a paragraph. Two forms:

- docfx: ``[!INCLUDE[title](path.md)]`` (a space before ``[title]`` allowed), on a
  line of its own or inline; the path is relative to the including file; the included
  file's frontmatter is dropped; inline, its text is joined into the line. Not inside
  fenced code or a code span.
- MkDocs (pymdownx.snippets): a line ``--8<-- "path"`` (any indentation, which the
  snippet's lines take too), the path relative to the site's base (the source root or
  ``docs/``); ``"path:3:10"`` keeps lines 3 to 10, ``"path:name"`` the lines between
  ``--8<-- [start:name]`` and ``--8<-- [end:name]``; a path starting with ``;`` is
  commented out and the line dropped. Expanded inside fenced code too (that is how
  pages show example sources).

Includes nest (up to ``max_depth``); a cycle, a missing file, a path leaving the source
or an image is a problem naming the line, and the directive is left as written.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote

from ..okf import frontmatter as fm
from ..okf.errors import FormatError
from ..okf.links import relative_link, resolve, rewrite_links

_DOCFX = re.compile(r"\[!INCLUDE\s*\[[^\]]*\]\(\s*<?([^)>\s]+)>?\s*\)\s*\]", re.IGNORECASE)
_SNIPPET = re.compile(r"^(\s*)-{2}8<-{2}\s+(['\"])(.+?)\2\s*$")
_FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_SECTION = re.compile(r"--8<--\s*\[(start|end):([\w.-]+)\]")
_IMAGE = re.compile(r"\.(?:svg|png|jpe?g|gif|webp|bmp|ico|mov|mp4)$", re.IGNORECASE)

Read = Callable[[str], "str | None"]


@dataclass(frozen=True)
class IncludeProblem:
    line: int  # 1-based, in the including file
    target: str  # the path as written
    message: str


@dataclass
class Expanded:
    text: str
    included: list[str] = field(default_factory=list)  # source-relative paths, first use order
    problems: list[IncludeProblem] = field(default_factory=list)


def targets(text: str, path: str, *, snippet_bases: Sequence[str] = ("", "docs")) -> list[str]:
    """The source-relative paths ``text``'s directives name, without reading them (the
    snippet paths in every base they may be in), for telling snippets from pages."""
    found: list[str] = []
    for line in text.splitlines():
        for match in _DOCFX.finditer(line):
            rel = _relative(path, match.group(1))
            if rel:
                found.append(rel)
        match = _SNIPPET.match(line)
        if match and not match.group(3).startswith(";"):
            name = _split_spec(match.group(3))[0]
            found += [p for p in (_based(b, name) for b in snippet_bases) if p]
    return list(dict.fromkeys(found))


def expand_includes(
    text: str,
    path: str,
    read: Read,
    *,
    max_depth: int = 5,
    snippet_bases: Sequence[str] = ("", "docs"),
) -> Expanded:
    """``text`` (the page at source-relative ``path``) with its directives expanded."""
    result = Expanded(text)
    if "INCLUDE" not in text.upper() and "--8<--" not in text:
        return result
    result.text = _expand(text, path, read, result, (path,), max_depth, snippet_bases, None)
    return result


def _expand(
    text: str,
    path: str,
    read: Read,
    result: Expanded,
    chain: tuple[str, ...],
    depth: int,
    bases: Sequence[str],
    top_line: int | None,
) -> str:
    out: list[str] = []
    fence = ""
    for number, line in enumerate(text.split("\n"), start=1):
        where = top_line or number
        opened = _FENCE.match(line)
        snippet = _SNIPPET.match(line)
        if snippet:
            out.extend(_snippet(snippet, path, read, result, chain, depth, bases, where))
            continue
        if opened:
            mark = opened.group(1)[:3]
            fence = "" if fence and mark == fence else (fence or mark)
            out.append(line)
            continue
        if fence or "[!" not in line.upper():
            out.append(line)
            continue
        out.append(_docfx_line(line, path, read, result, chain, depth, bases, where))
    return "\n".join(out)


def _docfx_line(
    line: str,
    path: str,
    read: Read,
    result: Expanded,
    chain: tuple[str, ...],
    depth: int,
    bases: Sequence[str],
    where: int,
) -> str:
    spans = [m.span() for m in _CODE_SPAN.finditer(line)]

    def replace(match: re.Match[str]) -> str:
        if any(a <= match.start() < b for a, b in spans):
            return match.group(0)
        written = match.group(1)
        text = _load(_relative(path, written), written, read, result, chain, depth, where)
        if text is None:
            return match.group(0)
        rel = _relative(path, written)
        body = _expand(
            _without_frontmatter(text), rel, read, result, (*chain, rel), depth, bases, where
        )
        body = rebase_links(body, rel, chain[0])
        alone = line.strip() == match.group(0)
        return body.strip("\n") if alone else " ".join(body.split())

    return _DOCFX.sub(replace, line)


def _snippet(
    match: re.Match[str],
    path: str,
    read: Read,
    result: Expanded,
    chain: tuple[str, ...],
    depth: int,
    bases: Sequence[str],
    where: int,
) -> list[str]:
    indent, spec = match.group(1), match.group(3)
    if spec.startswith(";"):
        return []  # commented out
    name, lines, section = _split_spec(spec)
    if _IMAGE.search(name):
        result.problems.append(
            IncludeProblem(
                where, spec, f"{name} is an image: it cannot be included as text; the line was kept"
            )
        )
        return [match.group(0)]
    found = next((p for p in (_based(b, name) for b in bases) if p and read(p) is not None), None)
    if found is None:
        result.problems.append(
            IncludeProblem(
                where,
                spec,
                f"the snippet {name} is not in the source (looked from the root and from "
                f"{', '.join(b + '/' for b in bases if b)}): the line was kept; add the file or fix the path",
            )
        )
        return [match.group(0)]
    text = _load(found, spec, read, result, chain, depth, where)
    if text is None:
        return [match.group(0)]
    if section:
        text = _section(text, section)
    elif lines:
        start, end = lines
        text = "\n".join(text.split("\n")[start - 1 : end])
    text = "\n".join(line for line in text.split("\n") if not _SECTION.search(line))
    body = _expand(text, found, read, result, (*chain, found), depth, bases, where)
    if found.lower().endswith((".md", ".markdown")):
        body = rebase_links(body, found, chain[0])
    return [indent + part if part else part for part in body.rstrip("\n").split("\n")]


def _load(
    rel: str | None,
    written: str,
    read: Read,
    result: Expanded,
    chain: tuple[str, ...],
    depth: int,
    where: int,
) -> str | None:
    if rel is None:
        result.problems.append(
            IncludeProblem(where, written, f"{written} leads outside the source: not read")
        )
        return None
    if rel in chain:
        loop = " -> ".join((*chain, rel))
        result.problems.append(
            IncludeProblem(where, written, f"include loop {loop}: stopped there")
        )
        return None
    if len(chain) > depth:
        result.problems.append(
            IncludeProblem(where, written, f"includes nested deeper than {depth}: stopped at {rel}")
        )
        return None
    text = read(rel)
    if text is None:
        result.problems.append(
            IncludeProblem(
                where,
                written,
                f"{rel} does not exist: the directive was left as it was; fix the path or add the file",
            )
        )
        return None
    if rel not in result.included:
        result.included.append(rel)
    return text


def rebase_links(text: str, written_in: str, shown_in: str) -> str:
    """``text``'s relative links, written for the file ``written_in``, rewritten to lead
    to the same files from ``shown_in`` (the page an include is expanded into)."""
    if written_in == shown_in or posixpath.dirname(written_in) == posixpath.dirname(shown_in):
        return text

    def change(target: str) -> str | None:
        if target.startswith("/"):
            return None  # rooted: the same from anywhere
        found = resolve(written_in, target)
        if found.kind != "internal":
            return None
        link = relative_link(shown_in, found.path)
        return link + ("#" + found.fragment if "#" in target else "")

    return rewrite_links(text, change)


def _relative(path: str, written: str) -> str | None:
    target = unquote(written.split("#", 1)[0].split("?", 1)[0])
    joined = posixpath.normpath(
        target.lstrip("/")
        if target.startswith("/")
        else posixpath.join(posixpath.dirname(path), target)
    )
    return None if joined.startswith("..") or joined in (".", "") else joined


def _based(base: str, name: str) -> str | None:
    joined = posixpath.normpath(posixpath.join(base, name.lstrip("/")))
    return None if joined.startswith("..") else joined


def _split_spec(spec: str) -> tuple[str, tuple[int, int] | None, str | None]:
    """``file.py:3:10`` -> (file.py, (3, 10), None); ``file.py:name`` -> (file.py, None, name)."""
    parts = spec.split(":")
    if len(parts) >= 3 and parts[-1].isdigit() and parts[-2].isdigit():
        return ":".join(parts[:-2]), (int(parts[-2]), int(parts[-1])), None
    if len(parts) >= 2 and re.fullmatch(r"[A-Za-z_][\w.-]*", parts[-1]) and "." in parts[-2]:
        return ":".join(parts[:-1]), None, parts[-1]
    return spec, None, None


def _section(text: str, name: str) -> str:
    keep, inside = [], False
    for line in text.split("\n"):
        marker = _SECTION.search(line)
        if marker and marker.group(2) == name:
            inside = marker.group(1) == "start"
            continue
        if inside:
            keep.append(line)
    return "\n".join(keep)


def _without_frontmatter(text: str) -> str:
    try:
        block = fm.find_block(text)
    except FormatError:
        return text
    return text[block.end :] if block else text
