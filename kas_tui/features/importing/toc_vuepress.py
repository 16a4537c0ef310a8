"""A VuePress site's sidebar (VuePress 1 and 2): its ``.vuepress/config.{js,ts,mjs,mts}``
read as text, never run.

The site's pages are the folder holding ``.vuepress``; a folder's ``README.md`` (or
``index.md``) is served as the folder (``/guide/``), every other page at its path
(``/guide/assets.html``); ``.vuepress/public/`` is served from the site's root. The
config is ``module.exports = {...}``, ``export default {...}``, a helper's object
(``defineConfig({...})``, VuePress 2's ``defineUserConfig({...})``) or the object a
function returns (``module.exports = ctx => ({...})``). The default
theme's options are VuePress 1's ``themeConfig: {...}`` or VuePress 2's ``theme:
defaultTheme({...})``; its ``sidebar`` and ``nav`` (``navbar``) are its own or, per
language, those of ``locales['/']`` (the default language: the others' folders are
translations).

A sidebar is a list of items, or an object of such lists keyed by the path they serve
(``'/guide/'``): each key a section named by the navigation bar's item linking there, or
holding only links there (``{text: 'Guide', link: '/guide/'}``, ``{text: 'API', items:
[...]}``), else by its folder, in the order the bar leads to them (the keys' own order
says which matches first); the list of ``'/'``, the site's root pages, first. An item
is a page path (``'getting-started'``, ``''`` the folder's ``README.md``,
``'/guide/page.md'``), relative to the list's key; a pair ``[path, title]``; or an
object: ``{title|text, children|items, path|link, prefix}``, a group or a page.

A sidebar kept in another file of the site (``import { sidebarEn } from
'./configs/index.js'``, re-exported with ``export * from``, wrapped in a helper call
``defineSidebarConfig({...})``, or ``require('./sidebar')``) is followed there
(:mod:`.js_modules`) when the import is a relative path inside the source and the value
a plain literal; one built by code is said (``file:line``), and the folders are then
the tree. A home page (``README.md``
laid out ``home: true``) is named as its hero names it: its ``heroText``, else the
site's title.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any, NamedTuple

from kas_tui.core.okf.index_layout import folder_title
from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.home_page import is_home_layout
from kas_tui.features.importing.js_literals import (
    blank_js,
    exported_object,
    js_option,
    string_option,
)
from kas_tui.features.importing.js_modules import JsPlace, JsValue, SiteModules
from kas_tui.features.importing.toc_formats import URL, short

Read = Callable[[str], "str | None"]

#: VuePress' config files, in a ``.vuepress`` folder (VitePress' too, in ``.vitepress``).
CONFIG_NAMES = frozenset(f"config.{ext}" for ext in ("ts", "mts", "cts", "js", "mjs", "cjs"))
#: The folder a VuePress site keeps its config (and its ``public/`` files) in.
VUEPRESS = ".vuepress"
#: A helper's config object: ``defineConfig({``, ``defineUserConfig({``,
#: ``defineConfig4CustomTheme<T>({``, or the object its function returns
#: (``defineConfig(ctx => ({``).
_HELPER_CONFIG = re.compile(
    r"\bdefine\w*Config\w*\s*(?:<[^<>()]*>)?\s*\(\s*"
    r"(?:(?:[A-Za-z_$][\w$]*|\([^()]*\))\s*=>\s*\(?\s*)?\{"
)
#: A theme's call, its options the argument: ``defaultTheme({``, ``hopeTheme(options)``.
_THEME_CALL = re.compile(r"[A-Za-z_$][\w$.]*\s*\(\s*(?=[\[{A-Za-z_$])")
#: The object a config module's function returns: ``module.exports = ctx => ({``.
_RETURNED_CONFIG = re.compile(
    r"(?:\bmodule\.exports\s*=|\bexport\s+default)\s*(?:async\s+)?"
    r"(?:[A-Za-z_$][\w$]*|\([^()]*\))\s*=>\s*\(\s*\{"
)


def is_vuepress_config(path: str) -> bool:
    parts = path.split("/")
    return len(parts) >= 2 and parts[-2] == VUEPRESS and parts[-1].lower() in CONFIG_NAMES


class VuePressSite(NamedTuple):
    roots: list[Any]  # nodes made by ``node(title, path, children, line)``
    docs_dir: str  # the folder holding .vuepress: the site's pages
    also_read: frozenset[str] = frozenset()  # the site's other files read for its sidebar
    #: its home page -> the name its hero shows (``heroText``, else the site's title)
    page_names: dict[str, str] = {}  # noqa: RUF012 - a NamedTuple's default, never changed


def vuepress_site(
    path: str,
    text: str,
    read: Read,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> VuePressSite:
    """The sidebar of the VuePress site ``path`` configures and its pages' folder. A
    config whose object or sidebar cannot be read says so in ``problems``: the folders
    are then the tree."""
    root = posixpath.dirname(posixpath.dirname(path))
    code = blank_js(text)
    opened = config_object(code)
    if opened is None:
        problems.append(
            f"{path}:1: a VuePress config whose object kas-tui cannot find (no plain object "
            "after module.exports =, export default or defineUserConfig(): built by code?): "
            "its sidebar was not read; the folders are the tree"
        )
        return VuePressSite([], root)
    names = _home_name(root, files, read, locale_string(code, opened, "title"))
    modules = SiteModules(read, path, code)
    theme = theme_options(modules, path, code, opened)
    if isinstance(theme, JsValue):  # themeConfig: a value kas-tui cannot follow
        problems.append(
            f"{theme.file}:{theme.line}: its theme's options are {theme.why or 'built by code'}"
            ": its sidebar was not read; the folders are the tree"
        )
        return VuePressSite([], root, frozenset(modules.read_files), names)
    found = _option(modules, theme, ("sidebar",)) if theme is not None else None
    value = modules.value(*found) if found is not None else None
    if value is None or isinstance(value.data, (str, bool)):
        # no sidebar ('auto', 'heading', false: each page's headings): the folders
        return VuePressSite([], root, frozenset(modules.read_files), names)
    if not isinstance(value.data, (list, dict)):
        problems.append(
            f"{value.file}:{value.line}: its sidebar is {value.why or 'built by code'}: not "
            "read; the folders are the tree"
        )
        return VuePressSite([], root, frozenset(modules.read_files), names)
    problems += [
        f"{value.file}:{line}: sidebar entries made by code (...{name}) are not read; the "
        "pages they list go by their folders"
        for line, name in value.spreads
    ]
    nav_at = _option(modules, theme, ("navbar", "nav")) if theme is not None else None
    nav = modules.value(*nav_at).data if nav_at is not None else None
    items = _Items(value.file, root, files, problems, node, path)
    roots = sidebar_roots(value.data, items, nav)
    return VuePressSite(roots, root, frozenset(modules.read_files), names)


def _home_name(root: str, files: Collection[str], read: Read, site: str | None) -> dict[str, str]:
    """The site's home page (its ``README.md`` laid out ``home: true``) -> the name its
    hero shows: its ``heroText``, else the site's title."""
    home = vuepress_page("/", root, files)
    front = front_matter(read(home) or "") if home is not None else {}
    if home is None or not is_home_layout(front):
        return {}
    hero = front.get("heroText")
    name = " ".join(hero.split()) if isinstance(hero, str) and hero.strip() else site
    return {home: name} if name else {}


def vuepress_about(text: str) -> tuple[str | None, str | None]:
    """The ``title`` and ``description`` a VuePress config gives its site, its own or
    its default language's (``locales['/']``); each ``None`` unless a plain string."""
    code = blank_js(text)
    opened = config_object(code)
    if opened is None:
        return None, None
    return locale_string(code, opened, "title"), locale_string(code, opened, "description")


def config_object(code: str) -> int | None:
    """Where the config object of ``code`` (comments blanked) opens: a helper's
    argument, the object the module exports or its function returns."""
    helper = _HELPER_CONFIG.search(code) or _RETURNED_CONFIG.search(code)
    return helper.end() - 1 if helper else exported_object(code)


def theme_options(
    modules: SiteModules, path: str, code: str, opened: int
) -> JsPlace | JsValue | None:
    """Where the default theme's options open: VuePress 1's ``themeConfig: {...}``,
    VuePress 2's ``theme: defaultTheme({...})`` (any theme's call), each maybe through
    a ``const`` or a file of the site (``require('./themeConfig')``); why not, when
    they are a value kas-tui cannot follow; ``None`` when the config gives none."""
    bare = blank_js(code, strings=True)
    at = js_option(bare, opened, "themeConfig")
    if at is None:
        at = js_option(bare, opened, "theme")
        call = _THEME_CALL.match(code, at) if at is not None else None
        if call is None:
            return None  # a theme's name ('@vuepress/vue'), or none: its own defaults
        at = call.end()
    found = modules.place(path, code, at, 0)
    if isinstance(found, JsPlace) and found.code[found.at : found.at + 1] != "{":
        return JsValue(None, found.file, found.code.count("\n", 0, found.at) + 1)
    return found if isinstance(found, JsPlace) or found.why else None  # false: none


def _option(modules: SiteModules, options: JsPlace, keys: tuple[str, ...]) -> JsPlace | None:
    """Where the value of the first of ``keys`` of the theme's ``options`` starts: the
    default language's (``locales: {'/': {...}}``, maybe through consts and imports)
    or, without one, the options' own."""
    default = _object_at(modules, options, "locales")
    default = _object_at(modules, default, "/") if default is not None else None
    for where in (default, options):
        bare = blank_js(where.code, strings=True) if where is not None else ""
        for key in keys if where is not None else ():
            at = js_option(bare, where.at, key)
            if at is not None:
                return JsPlace(where.file, where.code, at)
    return None


def _object_at(modules: SiteModules, where: JsPlace, key: str) -> JsPlace | None:
    """Where the object the option ``key`` of the object at ``where`` names opens."""
    at = js_option(blank_js(where.code, strings=True), where.at, key, where.code)
    found = modules.place(where.file, where.code, at, 0) if at is not None else None
    if isinstance(found, JsPlace) and found.code[found.at : found.at + 1] == "{":
        return found
    return None


def default_locale_option(code: str, opened: int, keys: tuple[str, ...]) -> int | None:
    """Where the value of the first of ``keys`` starts: the default language's
    (``locales: {'/': {...}}``) or, without one, the object's own."""
    bare = blank_js(code, strings=True)
    locales = js_option(bare, opened, "locales")
    if locales is not None and code[locales : locales + 1] == "{":
        default = js_option(bare, locales, "/", code)
        if default is not None and code[default : default + 1] == "{":
            for key in keys:
                at = js_option(bare, default, key)
                if at is not None:
                    return at
    for key in keys:
        at = js_option(bare, opened, key)
        if at is not None:
            return at
    return None


def locale_string(code: str, opened: int, key: str) -> str | None:
    """A string option of the object opening at ``opened``, or of its default
    language's ``locales['/']``."""
    own = string_option(code, opened, key)
    if own is not None:
        return own
    bare = blank_js(code, strings=True)
    locales = js_option(bare, opened, "locales")
    if locales is None or code[locales : locales + 1] != "{":
        return None
    default = js_option(bare, locales, "/", code)
    return string_option(code, default, key) if default is not None else None


def nav_names(nav: Any) -> dict[str, str]:
    """The navigation bar's name for each folder path it leads to (``/guide/`` ->
    "Guide"): an item linking to the folder, else the group (``items``/``children``)
    whose links on the site all lead into it (of several, the one with the most, then
    the innermost: "API" under "Learn More")."""
    exact: dict[str, str] = {}
    groups: list[tuple[int, str, list[str]]] = []

    def walk(items: Any, depth: int) -> list[str]:
        links: list[str] = []
        for item in items if isinstance(items, list) else []:
            if isinstance(item, str):
                links += [_served(item)] if _internal(item) else []
                continue
            if not isinstance(item, dict):
                continue
            text, link = item.get("text"), item.get("link")
            if isinstance(link, str) and _internal(link):
                served = _served(link)
                links.append(served)
                if isinstance(text, str) and text.strip():  # /guide/, or /guide
                    exact.setdefault(served.rstrip("/") + "/", text.strip())
            inner = item.get("items") or item.get("children")
            if isinstance(inner, list):
                below = walk(inner, depth + 1)
                links += below
                if isinstance(text, str) and text.strip() and below:
                    groups.append((depth, text.strip(), below))
        return links

    walk(nav, 0)
    names = dict(exact)
    folders = {
        posixpath.dirname(link.rstrip("/")) + "/" for _d, _t, links in groups for link in links
    }
    folders |= {link for _d, _t, links in groups for link in links if link.endswith("/")}
    for folder in folders - set(names):
        fits = [(len(ls), d, t) for d, t, ls in groups if all(x.startswith(folder) for x in ls)]
        if fits and folder != "/":
            names[folder] = max(fits)[2]
    return names


def _internal(link: str) -> bool:
    return link.startswith("/") and not URL.match(link)


def _served(link: str) -> str:
    """A link as the path it serves: ``/guide/README.md`` and ``/guide/`` are
    ``/guide/``, ``/api/cli.html`` is ``/api/cli``."""
    path = re.sub(r"\.(?:md|html)$", "", link.split("#", 1)[0].split("?", 1)[0])
    head, _, last = path.rpartition("/")
    return f"{head}/" if last.lower() in ("readme", "index") else path


def sidebar_roots(data: Any, items: _Items, nav: Any) -> list[Any]:
    """A sidebar's entries: a list's from the site's root, or each key's of an object:
    ``'/'``'s (the site's root pages) first, then a section for each other key, named by
    the navigation bar (:func:`nav_names`), else by its folder, in the order the bar
    leads to them (its keys' order says which matches first, not how they read), the
    others after them."""
    if isinstance(data, list):
        return items.items(data, "/")
    names, rank = nav_names(nav), nav_order(nav)
    top, sections = [], []
    for key, value in data.items():
        if not isinstance(value, list):
            continue  # 'auto', 'heading': the page's own headings
        prefix = "/" + str(key).strip("/") + "/" if str(key).strip("/") else "/"
        children = items.items(value, prefix)
        if prefix == "/":
            top += children
            continue
        title = names.get(prefix) or folder_title(posixpath.basename(prefix.rstrip("/")))
        if children:
            line = getattr(data, "lines", {}).get(key)
            sections.append((rank.get(prefix, len(rank)), items.node(title, None, children, line)))
    return top + [node for _rank, node in sorted(sections, key=lambda pair: pair[0])]


def nav_order(nav: Any) -> dict[str, int]:
    """Each folder path the navigation bar leads into -> its place (the first link into
    it, depth first)."""
    order: dict[str, int] = {}

    def walk(items: Any) -> None:
        for item in items if isinstance(items, list) else []:
            link = item if isinstance(item, str) else None
            if isinstance(item, dict):
                link = item.get("link") if isinstance(item.get("link"), str) else None
            if link is not None and _internal(link):
                parts = _served(link).split("/")[1:-1]
                for depth in range(len(parts), 0, -1):
                    order.setdefault("/" + "/".join(parts[:depth]) + "/", len(order))
            if isinstance(item, dict):
                walk(item.get("items") or item.get("children"))

    walk(nav)
    return order


class _Items:
    def __init__(
        self,
        file: str,
        root: str,
        files: Collection[str],
        problems: list[str],
        make: Callable[..., Any],
        config: str,
    ) -> None:
        self.file, self.root, self.files = file, root, files
        self.problems, self.make = problems, make
        self.elsewhere = file if file != config else None  # the file its lines are of
        self._lower: dict[str, str] | None = None

    def node(self, title: str | None, page: str | None, children: list[Any], line: Any) -> Any:
        return self.make(title, page, children, line, self.elsewhere)

    def items(self, values: list[Any], base: str) -> list[Any]:
        out = []
        lines = getattr(values, "lines", [])
        for index, item in enumerate(values):
            line = getattr(item, "line", lines[index] if index < len(lines) else None)
            title, link, inner, prefix = None, None, None, base
            if isinstance(item, str):
                link = item
            elif isinstance(item, list) and item and isinstance(item[0], str):
                link = item[0]  # [path, title]
                title = item[1] if len(item) > 1 and isinstance(item[1], str) else None
            elif isinstance(item, dict):
                text = item.get("title") or item.get("text")
                title = (
                    str(text).strip()
                    if isinstance(text, (str, int)) and str(text).strip()
                    else None
                )
                found = item.get("link") or item.get("path")
                link = found if isinstance(found, str) else None
                inner = item.get("children") or item.get("items")
                if isinstance(item.get("prefix"), str):  # its children's, a folder's
                    prefix = _joined(base, item["prefix"]).rstrip("/") + "/"
            if item is None:  # a template string that computes: a path code makes
                self.problems.append(
                    f"{self.file}:{line}: a sidebar item code computes (a template string) is "
                    "not read: skipped"
                )
                continue
            if link is None and not isinstance(inner, (list, str)):  # 'structure': folders
                self.problems.append(
                    f"{self.file}:{line}: {short(item)} is no sidebar item kas-tui reads (a "
                    "page's path, [path, title], or {text, link, children}): skipped"
                )
                continue
            page = self.page(_joined(base, link), line, title or link) if link is not None else None
            children = self.items(inner, prefix) if isinstance(inner, list) else []
            if page or children:
                out.append(self.node(title, page, children, line))
        return out

    def page(self, link: str, line: int | None, label: str) -> str | None:
        """The page a sidebar path names; ``None`` (said) when none is served there."""
        if URL.match(link):
            return None
        found = vuepress_page(link, self.root, self.files, self.lower())
        if found is None:
            self.problems.append(
                f"{self.file}:{line}: {label!r} names {link}, which no page of the source is "
                "served at; fix the path or add the page"
            )
        return found

    def lower(self) -> dict[str, str]:
        if self._lower is None:
            self._lower = {f.lower(): f for f in self.files}
        return self._lower


def _joined(base: str, link: str) -> str:
    """A sidebar path read from its list's ``base`` (``/guide/``): an absolute path as it
    is, a relative one below the base (``''`` the base itself, ``../x`` above it)."""
    if link.startswith("/") or URL.match(link):
        return link
    if link.startswith(("#", "?")):
        return base + link
    parts = base.split("/")[:-1] if not base.endswith("/") else base.rstrip("/").split("/")
    for segment in link.split("/"):
        if segment == "..":
            parts = parts[:-1] if len(parts) > 1 else parts
        elif segment != ".":
            parts.append(segment)
    return "/".join(parts) if parts and parts[0] == "" else "/" + "/".join(parts)


def vuepress_page(
    link: str, root: str, files: Collection[str], lower: dict[str, str] | None = None
) -> str | None:
    """The page VuePress serves at ``link`` from its pages folder ``root``: the path
    plus ``.md``, or (a folder's path, its ``README.md`` or ``index.md`` named)
    that folder's ``README.md`` or ``index.md``, any case; ``None`` when none is."""
    path = link.split("#", 1)[0].split("?", 1)[0]
    path = re.sub(r"\.(?:md|html)$", "", path).strip("/")
    head, _, last = path.rpartition("/")
    stems = [path] if last.lower() not in ("readme", "index") else []
    folder = head if not stems else path
    homes = [posixpath.join(folder, name) for name in ("README", "readme", "index")]
    lower = lower if lower is not None else {f.lower(): f for f in files}
    for stem in [*stems, *homes]:
        candidate = posixpath.normpath(posixpath.join(root, stem + ".md"))
        if candidate in files:
            return candidate
        if stem not in stems and candidate.lower() in lower:  # README.md, Readme.md
            return lower[candidate.lower()]
    return None
