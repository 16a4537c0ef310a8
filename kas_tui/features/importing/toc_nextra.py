"""A Nextra site's sidebar: the ``_meta`` file of each folder of its pages (read as
text, never run).

The site is the folder of a ``next.config.{js,mjs,ts,...}`` that sets up ``nextra(...)``
(or a pages folder built alone, its ``_meta`` file at the root). Its pages are the
first of these to hold any: ``content/`` (or ``src/content/``; Nextra 4: every ``.md``
and ``.mdx``, ``index`` a folder's own), ``pages/`` (or ``src/pages/``; Nextra 2 and 3:
``guide.mdx`` beside ``guide/`` is that folder's page), ``app/`` (or ``src/app/``;
Nextra 4: each folder's ``page.mdx`` is the page served at that folder, and no other
Markdown file is served; route groups ``(name)`` add nothing to the path, ``_name``
and ``[name]`` folders are no routes).
Under ``content/`` a folder per language (``en``, ``es``: ``i18n`` of the config,
``defaultLocale`` first, else English) holds the default language's tree; the others
are its translations. ``contentDirBasePath`` is the path the site serves the content at.

A folder's ``_meta.json`` (Nextra 2) or ``_meta.{js,jsx,ts,tsx}`` (``export default {...}``,
directly or through a ``const``; Nextra 3 and 4), or the items of a folder in the one
``_meta.global`` file, orders it: its keys in order, each a page or a folder of it (a
string is its title, an object its ``title``); the pages and folders it does not name
follow, ``index`` first, then by name. ``type: 'separator'`` (with a ``title``) heads
the entries after it; a key naming no entry with an ``href`` is a link (no page); ``display: 'hidden'`` keeps
a page out of the sidebar (the site serves it still), ``display: 'children'`` shows a
folder's entries in its place; ``type: 'page'`` (a navbar item) and ``'menu'`` are
entries as any other (a menu's ``items`` are links), and so is a key with an ``href``
that names a page or folder (the navbar links it). A title a component draws (JSX) is none: the page's own stands.
A key naming no page or folder is a problem, as is a ``_meta`` file that does not
read as plain data (built by code): its folder's entries then follow by name.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from kas_tui.features.importing.js_literals import (
    blank_js,
    const_values,
    js_option,
    js_value_at,
    plain_entries,
    spread_name,
    string_option,
    with_consts,
    without_computed,
    without_jsx,
)
from kas_tui.features.importing.toc_formats import SITE_PAGES, SiteTree, load_lined
from kas_tui.text.languages import is_english, is_language_tag

#: Next.js' config files; Nextra's is one that sets ``nextra(...)`` up.
CONFIG_NAMES = frozenset(f"next.config.{ext}" for ext in ("js", "mjs", "cjs", "ts", "mts"))
#: A folder's ``_meta`` file (any case of extension), or the one ``_meta.global`` file.
META = re.compile(r"_meta(?:\.global)?\.(?:json|[cm]?jsx?|tsx?)", re.IGNORECASE)
_META_NAMES = ("_meta.json", "_meta.js", "_meta.jsx", "_meta.ts", "_meta.tsx", "_meta.mjs")
_GLOBAL_NAMES = ("_meta.global.js", "_meta.global.jsx", "_meta.global.ts", "_meta.global.tsx")
PAGES = SITE_PAGES["nextra"]
#: A page of the ``app/`` folder: Markdown (``page.mdx``), or code (``page.tsx``).
_APP_PAGE = re.compile(r"page\.(mdx?|[jt]sx?)")
_USES_NEXTRA = re.compile(r"""\bnextra\s*\(|['"]nextra['"]""")
_NEXTRA_CALL = re.compile(r"\bnextra\s*\(\s*\{")
_EXPORT = re.compile(r"\bexport\s+default\s+|\bmodule\.exports\s*=\s*")
_GROUP = re.compile(r"\(.*\)")
#: Next.js' own error pages (``pages/404.mdx``): served, in no sidebar.
_ERROR_PAGES = frozenset({"404", "500"})
#: Where a site keeps its pages, in the order looked for.
_LAYOUTS = (
    ("content", ("content", "src/content")),
    ("pages", ("pages", "src/pages")),
    ("app", ("app", "src/app")),
)


def is_nextra_config(path: str) -> bool:
    return posixpath.basename(path).lower() in CONFIG_NAMES


def is_meta_file(path: str) -> bool:
    """Whether a file is a Nextra ``_meta`` file (``_meta.json``, ``_meta.ts``,
    ``_meta.global.tsx``, ...): read for the sidebar, no page."""
    return META.fullmatch(posixpath.basename(path)) is not None


def nextra_site(
    path: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> SiteTree | None:
    """The sidebar of the Nextra site ``path`` configures (a ``next.config`` file, or
    the root ``_meta`` file of a pages folder built alone), as nodes made by
    ``node(title, path, children, line)``; ``None`` when it is no Nextra site's."""
    config = ""
    if is_nextra_config(path):
        config = blank_js(read(path) or "")
        if not _USES_NEXTRA.search(config):
            return None
        found = _layout(posixpath.dirname(path), files)
    else:  # a pages folder built alone: its own _meta file at its root
        folder = posixpath.dirname(path)
        inside = [f for f in files if f.startswith(folder + "/" if folder else "")]
        app = sum(_APP_PAGE.fullmatch(posixpath.basename(f)) is not None for f in inside)
        found = ("app" if 2 * app > len(inside) else "content", folder)
    if found is None:
        return None
    layout, root = found
    root = _default_language(path, config, root, layout, files, problems)
    base = ""
    if layout == "content":
        opened = _NEXTRA_CALL.search(config)
        given = string_option(config, opened.end() - 1, "contentDirBasePath") if opened else None
        base = (given or "").strip("/")
    sidebar = _Sidebar(root, layout, read, files, problems, node)
    roots = sidebar.folder(root, *sidebar.meta(root), top=True)
    # a folder built alone names no pages folder: what lies beside its _meta stays; but
    # Next.js serves an app/ folder at the site's root (pelican's docs/app/: its /install/
    # is app/install/page.mdx)
    docs_dir = root if config or layout == "app" else ""
    return SiteTree(
        roots,
        docs_dir,
        sidebar.served_as,
        frozenset(sidebar.folder_pages),
        base_url=base,
        folder_names=sidebar.folder_names,
        unserved=tuple(sidebar.unserved),
    )


def _layout(site: str, files: Collection[str]) -> tuple[str, str] | None:
    """(layout, folder): where the site keeps its pages (see the module's docstring)."""
    for layout, names in _LAYOUTS:
        for name in names:
            prefix = posixpath.join(site, name) + "/"
            if any(f.startswith(prefix) and _markdown_page(layout, f) for f in files):
                return layout, prefix[:-1]
    return None


def _markdown_page(layout: str, path: str) -> bool:
    """Whether a file is a Markdown page of a folder of this layout (under ``app/``,
    a folder's ``page.md`` or ``page.mdx`` only)."""
    if layout != "app":
        return path.lower().endswith(PAGES)
    found = _APP_PAGE.fullmatch(posixpath.basename(path))
    return found is not None and found.group(1).lower().startswith("md")


def _default_language(
    config_path: str,
    config: str,
    root: str,
    layout: str,
    files: Collection[str],
    problems: list[str],
) -> str:
    """The folder of the default language's pages when the pages' folder holds one per
    language (``content/en``, ``app/en``), else ``root``; the other languages are said."""
    prefix = root + "/" if root else ""
    tops = set()
    for f in files:
        parts = f[len(prefix) :].split("/") if f.startswith(prefix) else []
        if len(parts) > 1 and _markdown_page(layout, f) and parts[0][:1] not in "_[(":
            tops.add(parts[0])
    if not tops or not all(is_language_tag(t) for t in tops):
        return root
    said = re.search(r"""\bdefaultLocale\s*:\s*['"]([^'"]+)['"]""", config)
    default = said.group(1) if said and said.group(1) in tops else None
    default = default or next((t for t in sorted(tops) if is_english(t)), None) or min(tops)
    others = sorted(tops - {default})
    if others:
        line = config.count("\n", 0, said.start()) + 1 if said else 1
        problems.append(
            f"{config_path}:{line}: {', '.join(f'{prefix}{o}/' for o in others)} translate "
            f"{prefix}{default}/, the default language's pages, whose sidebar this is: left "
            "out; build one of those folders alone for a package in its language"
        )
    return prefix + default


@dataclass
class _Entry:
    """A page or folder of a folder, as its ``_meta`` keys name it."""

    page: str | None = None  # its own page (a file, the page beside a folder, page.mdx)
    folder: str | None = None  # the folder of its pages below


class _Sidebar:
    def __init__(
        self,
        root: str,
        layout: str,
        read: Callable[[str], str | None],
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any],
    ) -> None:
        self.root, self.layout, self.read, self.files = root, layout, read, files
        self.problems, self.node = problems, node
        self.served_as: dict[str, str] = {}
        self.folder_pages: set[str] = set()
        self.folder_names: dict[str, str] = {}
        self.unserved: list[str] = []  # app/'s Markdown that is no page.mdx: no route
        self._entries = self._index()

    # -- what each folder holds ------------------------------------------------------

    def _index(self) -> dict[str, dict[str, _Entry]]:
        """Folder -> its entries by name."""
        out: dict[str, dict[str, _Entry]] = {}
        prefix = self.root + "/" if self.root else ""
        for f in sorted(self.files):
            if not f.startswith(prefix):
                continue
            parts = f[len(prefix) :].split("/")
            if any(p.startswith(("_", "[")) or p == "node_modules" for p in parts[:-1]):
                continue  # partials, dynamic routes: no pages of the sidebar
            folder = posixpath.dirname(f)
            if parts[-1] in _META_NAMES:  # a folder with a _meta is one of the sidebar
                self._folders(out, folder)
            elif self.layout == "app":
                self._app_page(out, f, parts)
            elif f.lower().endswith(PAGES) and not parts[-1].startswith("_"):
                stem = posixpath.splitext(parts[-1])[0]
                if folder == self.root and stem in _ERROR_PAGES:
                    continue  # Next.js' "page not found": no page of the sidebar
                out.setdefault(folder, {}).setdefault(stem, _Entry()).page = f
                self._folders(out, folder)
        if self.layout == "app":  # a folder's page.mdx: its "index" when it is a folder
            for parent in list(out):
                for name, entry in out.get(parent, {}).items():
                    inner = posixpath.join(parent, name)
                    if entry.folder is None and name != "index":
                        out.pop(inner, None)  # a page alone: no folder of the sidebar
                    elif entry.folder is not None:
                        entry.page = None
        return out

    def _app_page(self, out: dict[str, dict[str, _Entry]], f: str, parts: list[str]) -> None:
        """A page of the ``app/`` folder, served at its folder (route groups add nothing
        to the path: their entries are their parent's): its folder's entry in the
        folder above, and that folder's own ``index``."""
        found = _APP_PAGE.fullmatch(parts[-1])
        if found is None:
            if f.lower().endswith(PAGES):
                self.unserved.append(f)  # imported by a page, never served itself
            return
        route = [p for p in parts[:-1] if not _GROUP.fullmatch(p)]
        folder = posixpath.join(self.root, *route) if route else self.root
        markdown = found.group(1).lower().startswith("md")
        if markdown:
            self.folder_pages.add(f)
            if folder:
                self.served_as.setdefault(folder, f)
        entries = [out.setdefault(folder, {}).setdefault("index", _Entry())]
        if route:
            parent, name = posixpath.split(folder)
            entries.append(out.setdefault(parent, {}).setdefault(name, _Entry()))
            self._folders(out, parent)
        for entry in entries:  # a page code makes (page.tsx) is served: no file to read
            entry.page = f if markdown else entry.page

    def _folders(self, out: dict[str, dict[str, _Entry]], folder: str) -> None:
        """Each folder above a page, an entry of the folder above it."""
        while folder != self.root:
            parent, name = posixpath.split(folder)
            entry = out.setdefault(parent, {}).setdefault(name, _Entry())
            if entry.folder is not None:
                return
            entry.folder = folder
            folder = parent

    # -- each folder's _meta ---------------------------------------------------------

    def meta(self, folder: str) -> tuple[dict[str, Any] | None, str]:
        """A folder's ``_meta`` data (``None`` without one, or when it does not read)
        and its file; at the root, a ``_meta.global`` file's."""
        names = (*_GLOBAL_NAMES, *_META_NAMES) if folder == self.root else _META_NAMES
        for name in names:
            rel = posixpath.join(folder, name) if folder else name
            if rel in self.files:
                return _meta_data(rel, self.read(rel) or "", self.problems), rel
        return None, ""

    def folder(
        self, folder: str, meta: dict[str, Any] | None, file: str, *, top: bool = False
    ) -> list[Any]:
        """The nodes of ``folder``'s entries, as its ``meta`` (read from ``file``)
        orders and names them."""
        entries = self._entries.get(folder, {})
        out: list[Any] = []
        target = out  # the entries of the separator last met
        named: set[str] = set()
        meta = meta or {}
        lines = getattr(meta, "lines", {})
        for key, value in meta.items():
            key = str(key)
            if key == "*":
                continue
            named.add(key)
            line = lines.get(key)
            option = value if isinstance(value, dict) else {}
            title = _title(value)
            if option.get("type") == "separator":
                if title:
                    out.append(self.node(title, None, [], line))
                    target = out[-1].children
                else:
                    target = out
                continue
            entry = entries.get(key)
            if entry is None:
                if option.get("type") != "menu" and not isinstance(option.get("href"), str):
                    self.problems.append(
                        f"{file}:{line or 1}: its _meta names {key!r}, which is no page "
                        f"or folder in {folder or '.'}/; fix the key or add the page"
                    )
                continue  # a link off the site, or to a page listed where it is
            if option.get("display") == "hidden":
                continue  # served, but not in the sidebar: placed by its links
            items = option.get("items") if option.get("type") != "menu" else None
            made = self.entry(entry, title, line, items if isinstance(items, dict) else None, file)
            if made is None:
                continue
            if option.get("display") == "children":
                target.extend(made.children)
            else:
                target.append(made)
        fallback = meta.get("*")
        if isinstance(fallback, dict) and fallback.get("display") == "hidden":
            return out
        for name in sorted(n for n in entries if n not in named):
            made = self.entry(entries[name], None, None, None, file)
            if made is not None and name == "index":
                out.insert(0, made)  # a folder's index first, when its _meta places it not
            elif made is not None:
                target.append(made)
        return out

    def entry(
        self,
        entry: _Entry,
        title: str | None,
        line: int | None,
        items: dict[str, Any] | None,
        file: str,
    ) -> Any:
        """The node of one entry: a page, or a folder (its own page first)."""
        if entry.folder is None:
            return self.node(title, entry.page, [], line) if entry.page else None
        meta, inner = (items, file) if items is not None else self.meta(entry.folder)
        children = self.folder(entry.folder, meta, inner)
        if entry.page:
            children.insert(0, self.node(None, entry.page, [], line))
        if title and children:
            self.folder_names.setdefault(entry.folder, title)
        return self.node(title, None, children, line) if children else None


def _title(value: Any) -> str | None:
    """A ``_meta`` entry's title: its string, or its ``title``; ``None`` for none (an
    empty one, a component's)."""
    title = value.get("title") if isinstance(value, dict) else value
    return " ".join(title.split()) or None if isinstance(title, str) else None


def _plain_entries(
    rel: str, plain: str, start: int, line: int, problems: list[str]
) -> tuple[dict[str, Any] | None, Any]:
    """The entries of the object at ``start`` of ``plain`` that read as data, those code
    computes said and left out (:func:`.js_literals.plain_entries`); ``(None, None)``
    when none reads."""
    found = plain_entries(plain, start)
    if found is None or not found[1]:
        return None, None
    data: dict[str, Any] = {}
    for literal in found[0]:
        entry, error = load_lined(literal)
        if isinstance(entry, dict) and error is None:
            data.update(entry)
    if not data:
        return None, None
    computed = found[1]
    problems.append(
        f"{rel}:{line}: {', '.join(computed)}: "
        f"{'its value is' if len(computed) == 1 else 'their values are'} built by code: "
        "not read; its other entries are"
    )
    return data, None


def _meta_data(rel: str, text: str, problems: list[str]) -> dict[str, Any] | None:
    """The object a ``_meta`` file holds; ``None`` (and a problem said) when it does
    not read as data."""
    if rel.lower().endswith(".json"):
        data, error = load_lined(text)
        if error is not None or not isinstance(data, dict):
            at, what = error or (1, "no object")
            problems.append(
                f"{rel}:{at}: not valid JSON ({what}): its folder's order was not read; "
                "fix the JSON"
            )
            return None
        return data
    code = with_consts(without_jsx(blank_js(text)))
    plain, spreads = without_computed(code)
    exported = _EXPORT.search(plain)
    literal = js_value_at(plain, exported.end(), "{") if exported else None
    data, error = load_lined(literal) if literal is not None else (None, None)
    line = plain.count("\n", 0, exported.start()) + 1 if exported else 1
    if exported is not None and (not isinstance(data, dict) or error is not None):
        data, error = _plain_entries(rel, plain, exported.end(), line, problems)
    if not isinstance(data, dict) or error is not None:
        problems.append(
            f"{rel}:{line}: its object is built by code (no plain object after export "
            "default): not read; its folder's pages follow by name"
        )
        return None
    inside = [s for s in spreads if exported is not None and exported.end() <= s]
    problems += [
        f"{rel}:{plain.count(chr(10), 0, s) + 1}: entries made by code "
        f"(...{spread_name(code, s)}) are not read; the pages they name follow by name"
        for s in inside
    ]
    return const_values(data, plain, lambda lit: load_lined(lit)[0])


def next_app_about(text: str) -> tuple[str | None, str | None]:
    """The name and description a Next.js app's root layout gives its site: ``export
    const metadata = {title: {default: 'Nextra', template: ...}, description: ...}``
    (or a ``title`` string; also through ``createMetadata({...})`` or the object
    ``generateMetadata`` returns)."""
    code = blank_js(text)
    opened = re.search(
        r"\bmetadata\b[^=;{]*=\s*(?:\w+\s*\(\s*)?\{|\bgenerateMetadata\b.{0,2000}?\breturn\s*\{",
        code,
        re.DOTALL,
    )
    if opened is None:
        return None, None
    start = opened.end() - 1
    name = string_option(code, start, "title")
    at = js_option(blank_js(code, strings=True), start, "title") if name is None else None
    if at is not None and code[at : at + 1] == "{":
        name = string_option(code, at, "default")
    return name, string_option(code, start, "description")
