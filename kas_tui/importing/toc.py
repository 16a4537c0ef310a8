"""A docs source's own table of contents: its order, its sections, its names.

Read from what the site generator reads: an MkDocs ``nav`` (in ``mkdocs.yml`` or a
file it includes, such as ``mkdocs-nav.yml``; paths relative to ``docs_dir``), docfx's
``toc.yml`` (``name``/``href``/``items``, nested tocs followed) and ``TOC.md``
(headings nested by level), and Docusaurus's ``sidebars.json``. The build uses it to
order index entries, to name index sections and folders, and never as a document.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from .source_meta import load_site_yaml

Read = Callable[[str], "str | None"]
_URL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_LINK = re.compile(r"^\[([^\]]*)\]\(\s*<?([^)>\s]+)>?\s*\)$")


@dataclass
class TocNode:
    title: str | None
    path: str | None  # source-relative page, or None for a section
    children: list[TocNode] = field(default_factory=list)


@dataclass
class Toc:
    file: str
    kind: str  # mkdocs, docfx-yml, docfx-md, docusaurus
    roots: list[TocNode]
    problems: list[str] = field(default_factory=list)
    docs_dir: str = ""  # the folder pages live in (MkDocs), "" for the source root

    def walk(self) -> Iterable[tuple[TocNode, tuple[str, ...]]]:
        """Every node, depth first, with the section titles above it."""
        stack = [(node, ()) for node in reversed(self.roots)]
        while stack:
            node, above = stack.pop()
            yield node, above
            inner = (*above, node.title) if node.path is None and node.title else above
            stack += [(child, inner) for child in reversed(node.children)]

    def order(self) -> dict[str, int]:
        """Page -> its position in reading order."""
        found: dict[str, int] = {}
        for node, _above in self.walk():
            if node.path and node.path not in found:
                found[node.path] = len(found)
        return found

    def sections(self) -> dict[str, tuple[str, ...]]:
        """Page -> the section titles above it, outermost first."""
        found: dict[str, tuple[str, ...]] = {}
        for node, above in self.walk():
            if node.path and node.path not in found:
                found[node.path] = above
        return found

    def folder_titles(self) -> dict[str, str]:
        """Source folder -> the name the TOC gives it: a section whose pages mostly
        sit in one folder, which holds mostly that section's pages ("Guide" for
        ``docs/guide``, "CSS Types" for ``docs/css_types``); the largest such section
        names a folder (of equal ones, the innermost)."""
        in_toc = list(self.order())
        below: dict[str, int] = {}
        for page in in_toc:
            folder = posixpath.dirname(page)
            while folder:
                below[folder] = below.get(folder, 0) + 1
                folder = posixpath.dirname(folder)
        found: dict[str, tuple[int, str]] = {}
        for node, _above in self.walk():
            if node.path is not None or not node.title:
                continue
            pages = [n.path for n, _a in _subtree(node) if n.path]
            if len(pages) < 2:
                continue
            counts: dict[str, int] = {}
            for page in pages:
                folder = posixpath.dirname(page)
                while folder:
                    counts[folder] = counts.get(folder, 0) + 1
                    folder = posixpath.dirname(folder)
            fits = [
                f
                for f, n in counts.items()
                if n >= 0.6 * len(pages) and n >= 0.6 * below.get(f, n) and f != self.docs_dir
            ]
            if not fits:
                continue
            folder = max(fits, key=lambda f: (f.count("/"), f))
            if len(pages) >= found.get(folder, (0, ""))[0]:  # equal: the inner one
                found[folder] = (len(pages), node.title)
        return {folder: title for folder, (_n, title) in found.items()}

    def titles(self) -> dict[str, str]:
        """Page -> the title the TOC gives it (only where it gives one)."""
        return {n.path: n.title for n, _a in self.walk() if n.path and n.title}


def _subtree(node: TocNode) -> Iterable[tuple[TocNode, tuple[str, ...]]]:
    return Toc("", "", [node]).walk()


def find_toc(files: Collection[str], read: Read) -> Toc | None:
    """The source's table of contents: an MkDocs nav first, then the root's docfx
    ``toc.yml`` / ``TOC.md``, then Docusaurus's ``sidebars.json``; ``None`` when it
    ships none."""
    roots = sorted(f for f in files if "/" not in f)
    mkdocs = [f for f in roots if re.fullmatch(r"mkdocs[\w.-]*\.ya?ml", f, re.IGNORECASE)]
    for rel in sorted(mkdocs, key=lambda f: (f.lower() != "mkdocs.yml", f)):
        toc = _mkdocs(rel, read, files, mkdocs)
        if toc is not None:
            return toc
    for name in ("toc.yml", "toc.yaml", "toc.md"):
        rel = next((f for f in roots if f.lower() == name), None)
        if rel is not None:
            seen: set[str] = set()
            problems: list[str] = []
            nodes = _docfx(rel, read, files, seen, problems)
            return Toc(rel, "docfx-md" if name == "toc.md" else "docfx-yml", nodes, problems)
    rel = next((f for f in roots if f.lower() == "sidebars.json"), None)
    if rel is not None:
        return _docusaurus(rel, read, files)
    return None


# --- MkDocs --------------------------------------------------------------------------------


def _mkdocs(rel: str, read: Read, files: Collection[str], configs: list[str]) -> Toc | None:
    data = load_site_yaml(read(rel))
    if not isinstance(data, dict) or "nav" not in data:
        return None
    docs_dir = "docs"
    for other in configs:  # docs_dir may be set in the main config, nav in another file
        config = load_site_yaml(read(other))
        if isinstance(config, dict) and isinstance(config.get("docs_dir"), str):
            docs_dir = config["docs_dir"].strip("/") or "docs"
            break
    problems: list[str] = []
    roots = _mkdocs_items(data["nav"], docs_dir, files, rel, problems)
    return Toc(rel, "mkdocs", roots, problems, docs_dir)


def _mkdocs_items(
    items: Any, docs_dir: str, files: Collection[str], rel: str, problems: list[str]
) -> list[TocNode]:
    nodes: list[TocNode] = []
    for item in items if isinstance(items, list) else []:
        title, value = None, item
        if isinstance(item, dict) and len(item) == 1:
            title, value = next(iter(item.items()))
            title = str(title)
        if isinstance(value, list):
            nodes.append(TocNode(title, None, _mkdocs_items(value, docs_dir, files, rel, problems)))
        elif isinstance(value, str) and not _URL.match(value):
            path = posixpath.normpath(posixpath.join(docs_dir, value.strip()))
            if path in files:
                nodes.append(TocNode(title, path))
            else:
                problems.append(
                    f"{rel}: nav names {value}, which is not in the source ({path}); "
                    "fix the nav or add the page"
                )
    return nodes


# --- docfx ---------------------------------------------------------------------------------


def _docfx(
    rel: str, read: Read, files: Collection[str], seen: set[str], problems: list[str]
) -> list[TocNode]:
    if rel in seen:
        problems.append(f"{rel}: nested tables of contents loop back to it; stopped")
        return []
    seen.add(rel)
    text = read(rel)
    if text is None:
        problems.append(f"{rel}: cannot be read")
        return []
    if rel.lower().endswith(".md"):
        return _docfx_md(rel, text, files, problems)
    data = load_site_yaml(text)
    if isinstance(data, dict):
        data = data.get("items")
    return _docfx_items(data, rel, read, files, seen, problems)


def _docfx_items(
    items: Any, rel: str, read: Read, files: Collection[str], seen: set[str], problems: list[str]
) -> list[TocNode]:
    nodes: list[TocNode] = []
    folder = posixpath.dirname(rel)
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        title = item.get("name") or item.get("displayName")
        title = str(title) if title is not None else None
        href = item.get("href") or item.get("topicHref")
        children = _docfx_items(item.get("items"), rel, read, files, seen, problems)
        path = None
        if isinstance(href, str) and href.strip() and not _URL.match(href):
            target = _join(folder, href)
            nested = _nested_toc(target, files)
            if nested is not None:
                children += _docfx(nested, read, files, seen, problems)
            elif target in files:
                path = target
            else:
                problems.append(f"{rel}: '{title}' names {href}, which is not in the source")
        if path or children:
            nodes.append(TocNode(title, path, children))
    return nodes


def _docfx_md(rel: str, text: str, files: Collection[str], problems: list[str]) -> list[TocNode]:
    roots: list[TocNode] = []
    stack: list[tuple[int, TocNode]] = []
    folder = posixpath.dirname(rel)
    for number, line in enumerate(text.splitlines(), start=1):
        match = _MD_HEADING.match(line)
        if not match:
            continue
        level, label = len(match.group(1)), match.group(2)
        link = _MD_LINK.match(label)
        title, path = (link.group(1), _join(folder, link.group(2))) if link else (label, None)
        if path is not None and (_URL.match(link.group(2)) or path not in files):
            if not _URL.match(link.group(2)):
                problems.append(
                    f"{rel}:{number}: names {link.group(2)}, which is not in the source"
                )
            path = None
        node = TocNode(title, path)
        while stack and stack[-1][0] >= level:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(node)
        stack.append((level, node))
    return roots


def _nested_toc(target: str, files: Collection[str]) -> str | None:
    for candidate in (target, posixpath.join(target, "toc.yml"), posixpath.join(target, "TOC.yml")):
        name = posixpath.basename(candidate).lower()
        if name in ("toc.yml", "toc.yaml", "toc.md") and candidate in files:
            return candidate
    return None


def _join(folder: str, href: str) -> str:
    target = unquote(href.split("#", 1)[0].split("?", 1)[0]).strip()
    joined = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
    return posixpath.normpath(joined).rstrip("/")


# --- Docusaurus ----------------------------------------------------------------------------


def _docusaurus(rel: str, read: Read, files: Collection[str]) -> Toc:
    problems: list[str] = []
    try:
        data = json.loads(read(rel) or "")
    except ValueError as exc:
        return Toc(
            rel, "docusaurus", [], [f"{rel}: not JSON ({exc}); the folders order the package"]
        )

    def items(values: Any) -> list[TocNode]:
        nodes = []
        for value in values if isinstance(values, list) else []:
            if isinstance(value, str):
                path = next(
                    (p for p in (f"docs/{value}.md", f"docs/{value}.mdx") if p in files), None
                )
                if path:
                    nodes.append(TocNode(None, path))
                else:
                    problems.append(f"{rel}: names the page {value}, which is not in docs/")
            elif isinstance(value, dict) and value.get("type") == "category":
                nodes.append(
                    TocNode(str(value.get("label") or ""), None, items(value.get("items")))
                )
            elif isinstance(value, dict) and value.get("type") == "doc" and value.get("id"):
                nodes += items([value["id"]])
        return nodes

    roots = []
    for name, values in data.items() if isinstance(data, dict) else []:
        if isinstance(values, dict):  # {"Category": [ids]}
            roots += [TocNode(str(k), None, items(v)) for k, v in values.items()]
        else:
            roots.append(TocNode(str(name), None, items(values)))
    return Toc(rel, "docusaurus", roots, problems, "docs")
