"""VitePress' (and VuePress' markdown-include) file inclusion, expanded as the site does.

``<!--@include: ./parts/basics.md-->`` stands for the file's text, wherever it is
written (VitePress replaces it in the page's source before reading the Markdown, so
inside a code fence too). The path is read from the including page's folder, or, after
``@/``, from the site's pages folder (the folder holding ``.vitepress/``). After the
path, ``#name`` takes the lines between the file's ``#region name`` and ``#endregion``
markers (a VS Code region, in any comment style), and ``{3,}``, ``{,10}``, ``{3,10}``
(VuePress: ``{3-10}``) its lines 3 to 10, counted from 1, both kept. A Markdown file
included whole leaves its front matter out. An included file's own directives are
expanded too (up to ``max_depth``, never in a loop). vitest's CLI reference is one such
page: ``guide/cli.md`` shows its option table from ``guide/cli-generated.md``.

VitePress leaves a directive naming no file as written, silently; here it is a problem
by line, so the build says it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from typing import Any

from kas_tui.core.okf import frontmatter as fm
from kas_tui.features.importing.include_nesting import expand_nested
from kas_tui.features.importing.includes import IncludeProblem

Read = Callable[[str], "str | None"]
#: A directive: ``<!--@include: path-->``, spaces allowed around its parts.
DIRECTIVE = re.compile(r"<!--\s*@include:\s*(?P<spec>.*?)\s*-->")
_RANGE = re.compile(r"\{(?P<start>\d*)[,-](?P<end>\d*)\}$")
_REGION = re.compile(r"#(?P<name>[\w-]+)")
#: The folders a site keeps its config in, beside its pages.
_SITE_FOLDERS = (".vitepress", ".vuepress")


def site_roots(files: Iterable[str]) -> list[str]:
    """The folders holding a ``.vitepress/`` or ``.vuepress/`` folder (a site's pages
    folder, where ``@/`` starts), deepest first."""
    roots = {
        posixpath.dirname(posixpath.dirname(f))
        for f in files
        if posixpath.basename(posixpath.dirname(f)) in _SITE_FOLDERS
    }
    return sorted(roots, key=lambda r: (-r.count("/") if r else 1, r))


def _site_root(page: str, roots: list[str]) -> str:
    for root in roots:
        if not root or page.startswith(root + "/"):
            return root
    return ""


def _target(
    page: str, spec: str, roots: list[str]
) -> tuple[str, str | None, tuple[str, str] | None]:
    """(the source file, its region, its line range) a directive's ``spec`` names."""
    spec = spec.strip()
    lines = _RANGE.search(spec)
    if lines:
        spec = spec[: lines.start()]
    region = _REGION.search(spec)
    if region:
        spec = spec[: region.start()]
    if spec.startswith("@"):
        base, spec = _site_root(page, roots), spec[2:] if spec[1:2] == "/" else spec[1:]
    else:
        base = posixpath.dirname(page)
    target = posixpath.normpath(posixpath.join(base, spec)) if spec else ""
    if target.startswith("../") or target in ("", ".", ".."):
        target = ""
    part = (lines.group("start"), lines.group("end")) if lines else None
    return target, region.group("name") if region else None, part


def comment_include_targets(text: str, page: str, roots: list[str]) -> list[str]:
    """The source-relative files ``text``'s directives name, unread."""
    if "@include:" not in text:
        return []
    found = []
    for match in DIRECTIVE.finditer(text):
        target = _target(page, match.group("spec"), roots)[0]
        if target:
            found.append(target)
    return list(dict.fromkeys(found))


def expand_comment_includes(
    text: str, page: str, read: Read, roots: list[str], *, max_depth: int = 5
) -> tuple[str, list[IncludeProblem]]:
    """``text`` (the page ``page``) with each directive replaced by what it includes,
    and the problems, by the page's line."""
    if "@include:" not in text:
        return text, []

    def named(path: str, match: re.Match[str]) -> tuple[str | None, Any, str, str] | str:
        spec = match.group("spec")
        if not spec:
            return match.group(0)
        target, region, part = _target(path, spec, roots)
        return target or None, (region, part), spec, "<!--@include:-->"

    def shown(raw: str, file: str, part: Any) -> str:
        return _shown(raw, file, *part)

    return expand_nested(text, page, DIRECTIVE, named, shown, read, max_depth=max_depth)


def _shown(raw: str, path: str, region: str | None, part: tuple[str, str] | None) -> str:
    """The part of the file ``path`` (text ``raw``) a directive shows."""
    text = raw.replace("\r\n", "\n")
    if region is not None:
        lines = text.split("\n")
        start = _region_line(lines, rf"#region\s+{re.escape(region)}\b")
        end = None
        if start is not None:
            end = _region_line(lines[start + 1 :], rf"#endregion\b(?:\s+{re.escape(region)}\b)?")
            end = None if end is None else start + 1 + end
            text = "\n".join(lines[start + 1 : end])
    if part is not None:
        lines = text.split("\n")
        first = int(part[0]) - 1 if part[0] else None
        last = int(part[1]) if part[1] else None
        text = "\n".join(lines[first:last])
    if region is None and part is None and path.lower().endswith(".md"):
        block = fm.find_block(text)
        text = text[block.end :] if block is not None else text
    return text


def _region_line(lines: list[str], marker: str) -> int | None:
    """The index of the first of ``lines`` holding a region marker (``<!-- #region x
    -->``, ``// #region x``, ``# #region x``), or ``None``."""
    pattern = re.compile(rf"^\s*(?:<!--|//|/\*|#|;|--|')?\s*{marker}")
    return next((i for i, line in enumerate(lines) if pattern.search(line)), None)
