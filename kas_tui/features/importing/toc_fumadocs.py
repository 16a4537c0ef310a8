"""A Fumadocs site's page tree: the ``meta.json`` of each folder of its docs, read as
Fumadocs' ``loader()`` reads them (its "Page Slugs & Page Tree" conventions).

The site is the folder of a ``source.config.{ts,mts,js,mjs}`` (Fumadocs MDX); its docs
are the folder its ``defineDocs({dir})`` names (the collection called ``docs``, else
the first; ``content/docs`` when it names none), served under the ``baseUrl`` its
``loader()`` gives (``/docs``). A docs folder built alone is read from its root
``meta.json``. A folder's ``meta.json`` (or ``meta.yaml``) gives its ``title`` and its
``pages`` in order: a page or folder by its path (``getting-started``, ``sub/page``),
``---Label---`` a separator heading the entries after it, ``[Text](url)`` a link (no
page), ``...`` the entries not listed (``z...a`` reversed), ``...folder`` a folder's
entries in its place, ``!name`` an entry ``...`` leaves out. With no ``pages``, every
entry in order; with ``pages`` but no ``...``, the entries it does not list are in no
sidebar (the site serves them still: placed by their links). Entries in order are
``index`` first, then pages, then folders, each by name. A folder's ``index`` is its
own page, but in a ``root: true`` folder (a tab of the site); ``pagesIndex`` names
another. A folder group ``(name)`` adds nothing to its pages' paths. A page named by a
language beside the page it translates (``get-started.cn.mdx``), and that language's
``meta.cn.json``, are the site's other languages: not read. An entry naming no page or
folder is a problem.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.js_literals import blank_js, string_option
from kas_tui.features.importing.toc_formats import SITE_PAGES, URL, SiteTree, load_lined

#: Fumadocs MDX's config files.
CONFIG_NAMES = frozenset(f"source.config.{ext}" for ext in ("ts", "mts", "js", "mjs"))
#: A folder's meta file; with a language (``meta.cn.json``), another language's.
META_NAMES = ("meta.json", "meta.yaml", "meta.yml")
_META = re.compile(r"meta(?:\.[\w-]+)?\.(?:json|ya?ml)")
PAGES = SITE_PAGES["fumadocs"]
_SEPARATOR = re.compile(r"---(?:\[[^\]]+\])?(.+)---|---")
_LINK = re.compile(r"(?:external:)?(?:\[[^\]]+\])?\[[^\]]+\]\([^)]+\)")
_GROUP = re.compile(r"\((.+)\)")
_DEFINE_DOCS = re.compile(r"(?:\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*)?\bdefineDocs\s*\(\s*\{")
_BASE_URL = re.compile(r"""\bbaseUrl\s*:\s*['"]([^'"]*)['"]""")


def is_fumadocs_config(path: str) -> bool:
    return posixpath.basename(path).lower() in CONFIG_NAMES


def fumadocs_site(
    path: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> SiteTree | None:
    """The page tree of the Fumadocs site ``path`` configures (a ``source.config``
    file, or the root ``meta.json`` of a docs folder built alone), as nodes made by
    ``node(title, path, children, line)``; ``None`` when it is no Fumadocs site's."""
    if is_fumadocs_config(path):
        code = blank_js(read(path) or "")
        if "fumadocs" not in code:
            return None
        site = posixpath.dirname(path)
        folder = _docs_folder(code)
        root = posixpath.normpath(posixpath.join(site, folder))
        if root == ".." or root.startswith("../"):
            return None
        root = "" if root == "." else root
        base = _base_url(site, folder, read, files)
    else:  # a docs folder built alone: its root meta.json says it is one
        data, _error = load_lined(read(path) or "")
        if not _is_meta(data):
            return None
        root, base = posixpath.dirname(path), ""
    prefix = root + "/" if root else ""
    if not any(f.startswith(prefix) and f.lower().endswith(PAGES) for f in files):
        return None
    tree = _Tree(root, read, files, problems, node)
    roots = tree.folder(root, top=True)
    also = frozenset(
        f for f in files if f.startswith(prefix) and _META.fullmatch(posixpath.basename(f).lower())
    )
    docs_dir = root if is_fumadocs_config(path) else ""
    return SiteTree(
        roots,
        docs_dir,
        tree.served_as,
        base_url=base,
        also_read=also,
        folder_names=tree.folder_names,
    )


def _is_meta(data: Any) -> bool:
    """Whether ``data`` is a Fumadocs folder's meta: its ``pages`` a list of names, or
    a ``title`` with ``root`` or ``defaultOpen``."""
    if not isinstance(data, dict):
        return False
    pages = data.get("pages")
    if isinstance(pages, list):
        return bool(pages) and all(isinstance(p, str) for p in pages)
    return isinstance(data.get("title"), str) and ("root" in data or "defaultOpen" in data)


def _docs_folder(code: str) -> str:
    """The ``dir`` of the config's docs collection (``defineDocs``)."""
    found = []
    for call in _DEFINE_DOCS.finditer(code):
        folder = string_option(code, call.end() - 1, "dir")
        if folder:
            found.append((call.group(1), folder))
    named = [f for name, f in found if name == "docs"]
    return (named or [f for _n, f in found] or ["content/docs"])[0]


def _base_url(
    site: str, folder: str, read: Callable[[str], str | None], files: Collection[str]
) -> str:
    """The path the site serves its docs at: the ``baseUrl`` a ``loader()`` of its
    ``lib/`` gives (the one named as the docs folder when there are several), else the
    docs folder's name (``/docs`` for ``content/docs``)."""
    own = posixpath.basename(folder.rstrip("/"))
    inside = tuple(posixpath.join(site, d) + "/" for d in ("lib", "src/lib"))
    found: list[str] = []
    for rel in sorted(f for f in files if f.startswith(inside) and f.endswith((".ts", ".tsx"))):
        text = read(rel) or ""
        if "loader(" in text:
            found += [url.strip("/") for url in _BASE_URL.findall(blank_js(text))]
    if own in found or not found:
        return own
    return found[0]


class _Tree:
    def __init__(
        self,
        root: str,
        read: Callable[[str], str | None],
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any],
    ) -> None:
        self.root, self.read, self.problems, self.node = root, read, problems, node
        self.served_as: dict[str, str] = {}
        self.folder_names: dict[str, str] = {}
        self.claimed: set[str] = set()  # pages and folders a meta lists by name
        self.pages: dict[str, dict[str, str]] = {}  # folder -> page stem -> page
        self.folders: dict[str, set[str]] = {}  # folder -> its folders holding pages
        self.metas: dict[str, str] = {}  # folder -> its meta file
        self._read: dict[str, tuple[dict[str, Any], str]] = {}
        prefix = root + "/" if root else ""
        inside = [f for f in files if f.startswith(prefix)]
        for f in sorted(inside):
            folder, name = posixpath.split(f)
            if name.lower() in META_NAMES:
                self.metas.setdefault(folder, f)
            if not name.lower().endswith(PAGES):
                continue
            stem = posixpath.splitext(name)[0]
            base, dot, _lang = stem.rpartition(".")
            if dot and any(posixpath.join(folder, base + ext) in files for ext in PAGES):
                continue  # another language's page (get-started.cn.mdx)
            self.pages.setdefault(folder, {})[stem] = f
            while folder != root:
                parent = posixpath.dirname(folder)
                self.folders.setdefault(parent, set()).add(folder)
                folder = parent
            slugs = [p for p in f[len(prefix) :].split("/")[:-1] if not _GROUP.fullmatch(p)]
            if len(slugs) != f[len(prefix) :].count("/"):  # in a folder group
                slugs += [] if stem == "index" else [stem]
                self.served_as.setdefault(posixpath.join(root, *slugs), f)

    def meta(self, folder: str) -> tuple[dict[str, Any], str]:
        """A folder's meta data (``{}`` without one, or when it does not read)."""
        if folder in self._read:
            return self._read[folder]
        rel = self.metas.get(folder)
        self._read[folder] = ({}, rel or "")
        if rel is None:
            return {}, ""
        data, error = load_lined(self.read(rel) or "")
        if error is not None or not isinstance(data, dict):
            at, what = error or (1, "no object")
            self.problems.append(
                f"{rel}:{at}: not valid JSON ({what}): its folder's order was not read; "
                "fix the file"
            )
            return {}, rel
        self._read[folder] = (data, rel)
        return data, rel

    def folder(self, folder: str, *, top: bool = False) -> list[Any]:
        """The nodes of ``folder``'s entries, its own page (its ``index``) first."""
        meta, file = self.meta(folder)
        own = self.pages.get(folder, {})
        index = None
        if isinstance(meta.get("pagesIndex"), str):
            index = self.entry(folder, meta["pagesIndex"])
        elif not (meta.get("root") or top):
            index = own.get("index")
        index = index if index and index.lower().endswith(PAGES) else None
        pages = meta.get("pages")
        if not isinstance(pages, list):
            rest = self.rest(folder, {index} if index else set(), reverse=False)
            children = [self.made(e) for e in rest]
        else:
            children = self.listed(folder, pages, file, index)
            if index is not None and index in self.claimed:
                index = None  # listed where the meta lists it
        if index is not None:
            children.insert(0, self.node(None, index, [], None))
        return [c for c in children if c is not None]

    def listed(self, folder: str, pages: list[Any], file: str, index: str | None) -> list[Any]:
        """The nodes of a ``pages`` list, in its order."""
        items: list[Any] = []  # (kind, value, line)
        excluded: set[str] = set()
        lines = getattr(pages, "lines", [])
        for at, item in enumerate(pages):
            line = lines[at] if at < len(lines) else None
            if not isinstance(item, str):
                self.problems.append(
                    f"{file}:{line or 1}: {item!r} is no entry of its pages (a page's or "
                    "folder's name, ---Label---, [Text](url), ...): skipped; write it as one"
                )
                continue
            item = item.strip()
            if item in ("...", "z...a"):
                items.append(("rest", item, line))
            elif _SEPARATOR.fullmatch(item):
                label = (_SEPARATOR.fullmatch(item).group(1) or "").strip()
                items.append(("separator", label, line))
            elif _LINK.fullmatch(item) or URL.match(item):
                continue  # a link, off the site or to a page listed where it is
            elif item.startswith("!"):
                excluded.add(self.entry(folder, item[1:]) or "")
            elif item.startswith("..."):
                inner = posixpath.normpath(posixpath.join(folder, item[3:]))
                if inner in self.folders.get(posixpath.dirname(inner), set()):
                    excluded.add(inner)
                    self.claimed.add(inner)
                    items.append(("extract", inner, line))
                else:
                    self.missing(file, line, item, folder)
            else:
                found = self.entry(folder, item)
                if found is None:
                    self.missing(file, line, item, folder)
                    continue
                excluded.add(found)
                self.claimed.add(found)
                items.append(("entry", found, line))
        if index is not None:
            excluded.add(index)
        out: list[Any] = []
        target = out
        for kind, value, line in items:
            if kind == "separator":
                if value:
                    out.append(self.node(value, None, [], line))
                    target = out[-1].children
                else:
                    target = out
            elif kind == "rest":
                target += [self.made(e) for e in self.rest(folder, excluded, value == "z...a")]
            elif kind == "extract":
                target += self.folder(value)
                self.named(value)
            else:
                target.append(self.made(value, line))
        return out

    def entry(self, folder: str, name: str) -> str | None:
        """The page or folder ``name`` (a path from ``folder``) is, or ``None``."""
        path = posixpath.normpath(posixpath.join(folder, name.strip().strip("/")))
        head = posixpath.dirname(path)
        if path in self.folders.get(head, set()):
            return path
        return self.pages.get(head, {}).get(posixpath.basename(path))

    def rest(self, folder: str, excluded: set[str], reverse: bool) -> list[str]:
        """The entries of ``folder`` a meta does not list, in Fumadocs' order."""
        pages = [p for p in self.pages.get(folder, {}).values() if p not in excluded]
        folders = [f for f in self.folders.get(folder, set()) if f not in excluded]
        pages = [p for p in pages if p not in self.claimed]
        folders = [f for f in folders if f not in self.claimed]
        ranked = sorted(
            [(False, posixpath.basename(p).casefold(), p) for p in pages]
            + [(True, posixpath.basename(f).casefold(), f) for f in folders],
            reverse=reverse,
        )
        first = [r for r in ranked if not r[0] and posixpath.splitext(r[1])[0] == "index"]
        return [r[2] for r in first + [r for r in ranked if r not in first]]

    def made(self, path: str, line: int | None = None) -> Any:
        """The node of a page, or of a folder (titled by its meta)."""
        if path not in self.folders.get(posixpath.dirname(path), set()):
            return self.node(None, path, [], line)
        meta, _file = self.meta(path)
        title = meta.get("title")
        title = " ".join(title.split()) or None if isinstance(title, str) else None
        children = self.folder(path)
        self.named(path)
        return self.node(title, None, children, line) if children else None

    def named(self, folder: str) -> None:
        """A folder's title: its meta's, else a folder group's name ("Integrations"
        for ``(integrations)``, as Fumadocs names it)."""
        title = self.meta(folder)[0].get("title")
        group = _GROUP.fullmatch(posixpath.basename(folder))
        if not isinstance(title, str) or not title.strip():
            title = group.group(1).replace("-", " ").capitalize() if group else None
        if title:
            self.folder_names.setdefault(folder, " ".join(title.split()))

    def missing(self, file: str, line: int | None, item: str, folder: str) -> None:
        self.problems.append(
            f"{file}:{line or 1}: its pages list {item!r}, which is no page or folder in "
            f"{folder or '.'}/; fix the entry or add the page"
        )
