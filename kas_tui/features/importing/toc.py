"""A docs source's own table of contents: its order, its sections, its names.

Read from what the site generator reads, through a ``read(rel_path)`` callable (pure):

- MkDocs: the ``nav`` of ``mkdocs.yml`` or of another ``mkdocs*.yml`` (Textual keeps it
  in ``mkdocs-nav.yml``): ``"page.md"``, ``{"Title": "page.md"}``, ``{"Section":
  [...]}``, paths relative to ``docs_dir`` (the file's own, else the one its ``INHERIT``
  chain or a sibling ``mkdocs*.yml`` sets, else ``docs``), itself relative to the
  config's folder. ``!!python/name:...`` and other unknown tags read as ``None``.
- docfx ``toc.yml``: items with ``name``, ``href``, ``items``, ``topicHref`` and
  ``tocHref``; an ``href`` to another ``toc.yml``/``TOC.md`` or to a folder (``Mail/``)
  nests that table of contents there (loops are problems).
- docfx ``TOC.md``: headings ``# [Title](href)`` or ``## Title``, nested by level.
- Docusaurus ``sidebars.json`` (and ``sidebars.js`` when its object is plain data):
  doc ids as ``docs/<id>.md`` or ``.mdx``, categories as sections.
- A GitHub wiki's ``_Sidebar.md``: headings and nested lists of wiki links
  (``[[Page Name]]``), links to pages or to their wiki addresses; an Azure DevOps wiki's
  ``.order`` files, one in each folder of sub-pages (:mod:`.toc_wiki`).
- Sphinx with Markdown (MyST) pages: the ``toctree`` directives from the root document
  ``conf.py`` names (:mod:`.toc_sphinx`).

External links are no entries; an entry naming a file the source does not hold is a
problem (``file:line``, what, how to fix it) and no page (its title stays a section when
it has entries below it). :meth:`Toc.sections` counts every titled entry with entries
below it as a section of those entries.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from kas_tui.features.importing.toc_formats import MD_HEADING, URL, docusaurus_roots, load_lined
from kas_tui.features.importing.toc_sphinx import sphinx_roots
from kas_tui.features.importing.toc_wiki import (
    ORDER,
    SIDEBAR,
    azure_order_roots,
    wiki_sidebar_roots,
)

Read = Callable[[str], "str | None"]

#: File names (compared case-insensitively) that are tables of contents; so is any
#: ``mkdocs*.yml`` holding a ``nav``.
TOC_NAMES = frozenset(
    {
        "toc.yml",
        "TOC.yml",
        "toc.yaml",
        "toc.md",
        "TOC.md",
        "mkdocs.yml",
        "mkdocs.yaml",
        "mkdocs-nav.yml",
        "sidebars.js",
        "sidebars.json",
        "_Sidebar.md",
        ".order",
        "conf.py",
    }
)
_MKDOCS = re.compile(r"mkdocs[\w.-]*\.ya?ml", re.IGNORECASE)
_MD_LINK = re.compile(
    r"""^\[(?P<title>[^\]]*)\]\(\s*(?P<href><[^>]*>|[^)\s]*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)$"""
)
_DOCFX_NESTED = ("toc.yml", "toc.yaml", "toc.md")


@dataclass
class TocNode:
    title: str | None  # as the TOC names the section or page (None: the TOC gives a path only)
    path: str | None  # source-relative page, None for a pure section
    children: list[TocNode] = field(default_factory=list)
    line: int | None = None  # line in the TOC file where known
    file: str | None = None  # that file, when not Toc.file (a nested docfx toc)


@dataclass
class Toc:
    file: str  # source-relative path of the TOC file read
    kind: str  # docfx-yml, docfx-md, mkdocs, docusaurus, wiki-sidebar, azure-order, sphinx
    roots: list[TocNode]
    problems: list[str] = field(default_factory=list)  # "file:line: what; how to fix it"
    docs_dir: str = ""  # the folder the pages live in (MkDocs, Docusaurus), "" for none

    def walk(self) -> Iterator[tuple[TocNode, tuple[str, ...]]]:
        """Every node, depth first, with the section titles above it."""
        stack: list[tuple[TocNode, tuple[str, ...]]] = [(n, ()) for n in reversed(self.roots)]
        while stack:
            node, above = stack.pop()
            yield node, above
            inner = (*above, node.title) if node.children and node.title else above
            stack += [(child, inner) for child in reversed(node.children)]

    def order(self) -> dict[str, int]:
        """Page path -> its position in reading order (depth first; first mention)."""
        found: dict[str, int] = {}
        for node, _above in self.walk():
            if node.path and node.path not in found:
                found[node.path] = len(found)
        return found

    def sections(self) -> dict[str, list[str]]:
        """Page path -> the section titles above it, outermost first (first mention)."""
        found: dict[str, list[str]] = {}
        for node, above in self.walk():
            if node.path and node.path not in found:
                found[node.path] = list(above)
        return found

    def titles(self) -> dict[str, str]:
        """Page -> the title the TOC gives it (only where it gives one)."""
        found: dict[str, str] = {}
        for node, _above in self.walk():
            if node.path and node.title and node.path not in found:
                found[node.path] = node.title
        return found

    def folder_titles(self) -> dict[str, str]:
        """Source folder -> the name the TOC gives it: a section whose pages mostly
        sit in one folder, which holds mostly that section's pages ("Guide" for
        ``docs/guide``, "CSS Types" for ``docs/css_types``); the largest such section
        names a folder (of equal ones, the innermost)."""
        below = _folder_counts(self.order())
        found: dict[str, tuple[int, str]] = {}
        for node, _above in self.walk():
            if node.path is not None or not node.title:
                continue
            pages = [n.path for n, _a in Toc("", "", [node]).walk() if n.path]
            if len(pages) < 2:
                continue
            counts = _folder_counts(pages)
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


def _folder_counts(pages: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for page in pages:
        folder = posixpath.dirname(page)
        while folder:
            counts[folder] = counts.get(folder, 0) + 1
            folder = posixpath.dirname(folder)
    return counts


def _kind(path: str) -> str | None:
    name = posixpath.basename(path).lower()
    if name in ("toc.yml", "toc.yaml"):
        return "docfx-yml"
    if name == "toc.md":
        return "docfx-md"
    if name in ("sidebars.js", "sidebars.json"):
        return "docusaurus"
    if name == SIDEBAR:
        return "wiki-sidebar"
    if name == ORDER:
        return "azure-order"
    if name == "conf.py":
        return "sphinx"
    if _MKDOCS.fullmatch(name):
        return "mkdocs"
    return None


_RANK = {
    "mkdocs": 0,
    "docfx-yml": 1,
    "docfx-md": 2,
    "docusaurus": 3,
    "wiki-sidebar": 4,
    "azure-order": 5,
    "sphinx": 6,
}


def find_tocs(files: Iterable[str]) -> list[str]:
    """Which of the source's files are tables of contents, by name: shallowest first,
    then MkDocs configs (``mkdocs.yml`` first; one without a ``nav`` reads as ``None``),
    docfx ``toc.yml``, ``TOC.md``, Docusaurus ``sidebars.json``, ``sidebars.js``, a
    wiki's ``_Sidebar.md``, an Azure DevOps wiki's ``.order``, Sphinx's ``conf.py``."""

    def rank(path: str) -> tuple[int, int, bool, bool, str]:
        name = posixpath.basename(path).lower()
        return (
            path.count("/"),
            _RANK[_kind(path) or "docusaurus"],
            name not in ("mkdocs.yml", "sidebars.json"),
            name.endswith(".yaml"),
            path,
        )

    return sorted({f for f in files if _kind(f)}, key=rank)


def find_toc(files: Collection[str], read: Read) -> Toc | None:
    """The source's table of contents: the first of the root's TOC files
    (:func:`find_tocs`) that reads as one; ``None`` when the source ships none."""
    for path in find_tocs(f for f in files if "/" not in f):
        toc = read_toc(path, read, files)
        if toc is not None:
            return toc
    return None


def read_toc(path: str, read: Read, files: Collection[str]) -> Toc | None:
    """The table of contents in the source file ``path``; ``None`` when it is no TOC
    file, cannot be read, or is an MkDocs config without a ``nav``. ``files`` are the
    source's files (source-relative POSIX paths): entries naming others are problems."""
    kind = _kind(path)
    text = read(path) if kind else None
    if kind is None or text is None:
        return None
    reader = _Reader(read, files)
    if kind == "mkdocs":
        return reader.mkdocs(path, text)
    if kind == "docusaurus":
        base = posixpath.join(posixpath.dirname(path), "docs")
        roots = docusaurus_roots(path, text, base, reader.files, reader.problems, TocNode)
        return Toc(path, kind, roots, reader.problems, base)
    if kind == "wiki-sidebar":
        roots = wiki_sidebar_roots(path, text, reader.files, reader.problems, TocNode)
        return Toc(path, kind, _pruned(roots), reader.problems)
    if kind == "azure-order":
        roots = azure_order_roots(path, read, reader.files, reader.problems, TocNode)
        return Toc(path, kind, roots, reader.problems)
    if kind == "sphinx":
        found = sphinx_roots(path, read, reader.files, reader.problems, TocNode)
        if not found or len(found) == 1 and not reader.problems:
            return None  # no Markdown root document, or one without a toctree
        return Toc(path, kind, found, reader.problems, posixpath.dirname(path))
    return Toc(path, kind, reader.docfx(path, text, ()), reader.problems)


class _Reader:
    def __init__(self, read: Read, files: Collection[str]) -> None:
        self.read = read
        self.files = files if isinstance(files, (set, frozenset, dict)) else set(files)
        self._lower: dict[str, str] | None = None
        self.problems: list[str] = []

    def find(self, rel: str) -> str | None:
        """``rel`` as the source spells it (docfx is case-insensitive, as Windows)."""
        if rel in self.files:
            return rel
        if self._lower is None:
            self._lower = {f.lower(): f for f in sorted(self.files, reverse=True)}
        return self._lower.get(rel.lower())

    # -- MkDocs ----------------------------------------------------------------------------

    def mkdocs(self, path: str, text: str) -> Toc | None:
        data, error = load_lined(text)
        if error is not None:
            if re.search(r"^nav\s*:", text, re.MULTILINE):
                self.problems.append(
                    f"{path}:{error[0]}: not valid YAML ({error[1]}): its nav was not read; "
                    "fix the YAML"
                )
                return Toc(path, "mkdocs", [], self.problems)
            return None
        if not isinstance(data, dict) or "nav" not in data:
            return None
        folder = posixpath.dirname(path)
        docs_dir = self._docs_dir(path, data)
        base = posixpath.normpath(posixpath.join(folder, docs_dir))
        if base == ".." or base.startswith(("../", "/")):
            self.problems.append(
                f"{path}:1: docs_dir {docs_dir} leads outside the source: the nav was not "
                "read; build from the folder holding the docs"
            )
            return Toc(path, "mkdocs", [], self.problems)
        base = "" if base == "." else base
        nav = data["nav"]
        if not isinstance(nav, list):
            self.problems.append(
                f"{path}:{getattr(data, 'lines', {}).get('nav', 1)}: nav is not a list: "
                "not read; write it as a list of pages and sections"
            )
            return Toc(path, "mkdocs", [], self.problems, base)
        return Toc(path, "mkdocs", self._nav(nav, base, path), self.problems, base)

    def _docs_dir(self, path: str, data: dict[str, Any]) -> str:
        seen, current = {path}, path
        config: Any = data
        while isinstance(config, dict):  # its own, then the INHERIT chain
            if isinstance(config.get("docs_dir"), str) and config["docs_dir"].strip():
                return config["docs_dir"].strip().rstrip("/")
            parent = config.get("INHERIT")
            if not isinstance(parent, str):
                break
            current = posixpath.normpath(posixpath.join(posixpath.dirname(current), parent))
            if current in seen:
                break
            seen.add(current)
            config = _safe(self.read(current))
        folder = posixpath.dirname(path)
        for other in find_tocs(f for f in self.files if posixpath.dirname(f) == folder):
            if other not in seen and _kind(other) == "mkdocs":
                config = _safe(self.read(other))
                if isinstance(config, dict) and isinstance(config.get("docs_dir"), str):
                    return config["docs_dir"].strip().rstrip("/") or "docs"
        return "docs"

    def _nav(self, items: list[Any], base: str, path: str) -> list[TocNode]:
        nodes: list[TocNode] = []
        lines = getattr(items, "lines", [])
        for index, item in enumerate(items):
            line = lines[index] if index < len(lines) else None
            title, value = None, item
            if isinstance(item, dict) and len(item) == 1:
                title, value = next(iter(item.items()))
                title = str(title)
            elif not isinstance(item, str):
                self.problems.append(
                    f"{path}:{line}: is not a nav entry ({_short(item)}): skipped; write "
                    '"page.md", Title: page.md or Section: [entries]'
                )
                continue
            if isinstance(value, list):
                children = self._nav(value, base, path)
                if children:  # a section whose pages are all missing leads nowhere
                    nodes.append(TocNode(title, None, children, line))
            elif isinstance(value, str) and value.strip() and not URL.match(value.strip()):
                page = posixpath.normpath(posixpath.join(base, unquote(value.strip().lstrip("/"))))
                if page in self.files:
                    nodes.append(TocNode(title, page, [], line))
                else:
                    self.problems.append(
                        f"{path}:{line}: nav names {value}, which is not in the source "
                        f"({page}); fix the nav or add the page"
                    )
        return nodes

    # -- docfx -----------------------------------------------------------------------------

    def docfx(self, path: str, text: str, chain: tuple[str, ...]) -> list[TocNode]:
        chain = (*chain, path)
        if path.lower().endswith(".md"):
            return self._docfx_md(path, text, chain)
        data, error = load_lined(text)
        if error is not None:
            self.problems.append(
                f"{path}:{error[0]}: not valid YAML ({error[1]}): not read; fix the YAML"
            )
            return []
        if isinstance(data, dict):  # the form with a root ``items:``
            data = data.get("items")
        return self._docfx_items(data, path, chain)

    def _docfx_items(self, items: Any, path: str, chain: tuple[str, ...]) -> list[TocNode]:
        nodes: list[TocNode] = []
        folder = posixpath.dirname(path)
        lines = getattr(items, "lines", [])
        for index, item in enumerate(items if isinstance(items, list) else []):
            line = getattr(item, "line", lines[index] if index < len(lines) else None)
            if not isinstance(item, dict):
                self.problems.append(
                    f"{path}:{line}: is not a toc item ({_short(item)}): skipped; write "
                    "name: and href:"
                )
                continue
            title = str(item["name"]) if item.get("name") is not None else None
            node = TocNode(title, None, [], line, None if len(chain) == 1 else path)
            node.children = self._docfx_items(item.get("items"), path, chain)
            for key in ("href", "tocHref", "topicHref"):
                href = item.get(key)
                if not isinstance(href, str) or not href.strip() or URL.match(href.strip()):
                    continue
                target = _join(folder, href)
                nested = None if key == "topicHref" else self._nested(target)
                where = f"{path}:{line}:" + (f" {title!r}" if title else "")
                where += f" ({key})" if key != "href" else ""
                if nested is not None and nested in chain:
                    self.problems.append(
                        f"{where} names {href}, a table of contents that includes this one "
                        f"({' -> '.join((*chain, nested))}): not followed; remove the loop"
                    )
                elif nested is not None:
                    node.children += self.docfx(nested, self.read(nested) or "", chain)
                elif key != "tocHref" and self.find(target) and node.path is None:
                    node.path = self.find(target)
                elif not self.find(target) and href.strip().endswith("/"):
                    self.problems.append(
                        f"{where} names the folder {href}, which holds no toc.yml or TOC.md; "
                        "add one there or name a page"
                    )
                elif not self.find(target):
                    self.problems.append(
                        f"{where} names {href}, which is not in the source ({target}); fix "
                        "the href or add the page"
                    )
            if node.path or node.children:
                nodes.append(node)
        return nodes

    def _nested(self, target: str) -> str | None:
        """The table of contents ``target`` names: a toc file, or a folder's toc."""
        if posixpath.basename(target).lower() in _DOCFX_NESTED:
            return self.find(target)
        if target and self.find(target):
            return None  # a page
        for name in ("toc.yml", "TOC.yml", "toc.yaml", "toc.md", "TOC.md"):
            found = self.find(posixpath.join(target, name) if target else name)
            if found:
                return found
        return None

    def _docfx_md(self, path: str, text: str, chain: tuple[str, ...]) -> list[TocNode]:
        roots: list[TocNode] = []
        stack: list[tuple[int, TocNode]] = []
        folder = posixpath.dirname(path)
        for number, line in enumerate(text.splitlines(), start=1):
            heading = MD_HEADING.match(line)
            if not heading:
                continue
            level, label = len(heading.group(1)), heading.group(2).strip()
            link = _MD_LINK.match(label)
            node = TocNode(link.group("title").strip() if link else label, None, [], number)
            node.file = None if len(chain) == 1 else path
            href = link.group("href").strip("<>").strip() if link else ""
            if href and not URL.match(href):
                target = _join(folder, href)
                nested = self._nested(target)
                if nested is not None and nested in chain:
                    self.problems.append(
                        f"{path}:{number}: names {href}, a table of contents that includes "
                        f"this one ({' -> '.join((*chain, nested))}): not followed; remove the loop"
                    )
                elif nested is not None:
                    node.children += self.docfx(nested, self.read(nested) or "", chain)
                elif self.find(target):
                    node.path = self.find(target)
                else:
                    self.problems.append(
                        f"{path}:{number}: names {href}, which is not in the source "
                        f"({target}); fix the link or add the page"
                    )
            while stack and stack[-1][0] >= level:
                stack.pop()
            (stack[-1][1].children if stack else roots).append(node)
            stack.append((level, node))
        return _pruned(roots)


def _pruned(nodes: list[TocNode]) -> list[TocNode]:
    """Without the entries that lead nowhere: no page and none below."""
    kept = []
    for node in nodes:
        node.children = _pruned(node.children)
        if node.path or node.children:
            kept.append(node)
    return kept


def _join(folder: str, href: str) -> str:
    target = unquote(href.split("#", 1)[0].split("?", 1)[0]).strip()
    target = target[2:] if target.startswith("~/") else target
    joined = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
    norm = posixpath.normpath(joined) if joined else "."
    return "" if norm == "." else norm


def _safe(text: str | None) -> Any:
    return load_lined(text)[0] if text else None


def _short(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."
