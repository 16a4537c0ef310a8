"""A VitePress site's sidebar: ``themeConfig.sidebar`` of ``.vitepress/config.{ts,mts,
js,mjs}`` (read as text, never run).

The site's pages are the folder holding ``.vitepress`` (or its ``srcDir``). A sidebar is
a list of items, or an object of such lists keyed by the path they serve (``'/guide/'``,
``'/config/'``): each key is a section, named by the navigation bar's item linking
there (``themeConfig.nav``: "Guide", "Config"), else by its folder. An item is a group
(``{text, items: [...]}``, its ``base`` prefixing its items' links) or a page (``{text,
link: '/guide/features'}``: the page served there, ``guide/features.md``, or a folder's
``index.md``); links off the site are no pages. A sidebar built by code (a function's
result, an import) is said, and the folders are then the tree.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.core.okf.index_layout import folder_title
from kas_tui.features.importing.config_globs import glob_regex
from kas_tui.features.importing.js_literals import (
    blank_js,
    exported_object,
    js_option,
    js_value_at,
    string_option,
    without_computed,
)
from kas_tui.features.importing.toc_formats import (
    SITE_PAGES,
    URL,
    load_lined,
    page_served_at,
)
from kas_tui.features.importing.toc_vuepress import (
    CONFIG_NAMES,
    default_locale_option,
    locale_string,
    nav_names,
)


def is_vitepress_config(path: str) -> bool:
    parts = path.split("/")
    return len(parts) >= 2 and parts[-2] == ".vitepress" and parts[-1].lower() in CONFIG_NAMES


def vitepress_site(
    path: str,
    text: str,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> tuple[list[Any], str] | None:
    """The sidebar of the VitePress site ``path`` configures, as nodes made by
    ``node(title, path, children, line)``, and its pages' folder; ``None`` when the
    file configures no site."""
    code = blank_js(text)
    start = exported_object(code)
    site = posixpath.dirname(posixpath.dirname(path))
    if start is None:
        problems.append(
            f"{path}:1: a VitePress config whose object kas-tui cannot find (no plain object "
            "after export default, module.exports = or defineConfig(): built by code?): its "
            "sidebar was not read; the folders are the tree"
        )
        return [], site
    bare = blank_js(code, strings=True)
    src = string_option(code, start, "srcDir") or "."
    root = posixpath.normpath(posixpath.join(site, src))
    root = "" if root == "." else root
    if root == ".." or root.startswith("../"):
        return None
    theme = js_option(bare, start, "themeConfig")
    if theme is None or code[theme : theme + 1] != "{":
        return [], root
    at = default_locale_option(code, theme, ("sidebar",))  # VitePress 0.x: per locale
    if at is None:
        return [], root  # no sidebar: the folders are the tree
    line = code.count("\n", 0, at) + 1
    plain, _spreads = without_computed(code)
    literal = js_value_at(plain, at, "[") or js_value_at(plain, at, "{")
    data, error = load_lined(literal) if literal is not None else (None, None)
    if error is not None or not isinstance(data, (list, dict)):
        problems.append(
            f"{path}:{line}: its sidebar is no plain list or object in this file (built by "
            "code, or imported from another): not read; the folders are the tree"
        )
        return [], root
    reader = _Items(path, root, files, problems, node)
    if isinstance(data, list):
        return reader.items(data, ""), root
    names = _nav_names(code, theme)
    out = []
    for key, items in data.items():
        children = reader.items(items if isinstance(items, list) else [], "")
        prefix = "/" + str(key).strip("/")
        title = names.get(prefix.rstrip("/") + "/") or folder_title(
            posixpath.basename(prefix.rstrip("/")) or "Home"
        )
        if children:
            out.append(node(title, None, children, getattr(data, "lines", {}).get(key)))
    return out, root


def src_excluded(
    path: str, text: str, root: str, files: Collection[str], read: Callable[[str], str | None]
) -> frozenset[str]:
    """The files of the pages folder ``root`` that the VitePress config ``path`` leaves
    out of its pages (``srcExclude``: glob patterns from ``root``, vitest's
    ``['**/guide/examples/*', 'AGENTS.md']``); empty when it names none. A file the
    site's own code names is not among them: that code shows it (vuejs/docs leaves
    ``tutorial/**/description.md`` out, and its tutorial page reads each step's
    ``description.md`` through a data loader)."""
    code = blank_js(text)
    start = exported_object(code)
    at = js_option(blank_js(code, strings=True), start, "srcExclude") if start is not None else None
    literal = js_value_at(without_computed(code)[0], at, "[") if at is not None else None
    data, error = load_lined(literal) if literal is not None else (None, None)
    if error is not None or not isinstance(data, list):
        return frozenset()
    rules = [
        glob_regex(p.strip().removeprefix("./"), folders_or_none=True)
        for p in data
        if isinstance(p, str) and p.strip()
    ]
    prefix = root + "/" if root else ""
    out = {
        f
        for f in files
        if f.startswith(prefix) and any(rule.fullmatch(f[len(prefix) :]) for rule in rules)
    }
    if out:
        code = [f for f in files if f.startswith(prefix) and f.endswith(_SITE_CODE) and f != path]
        names = {posixpath.basename(f) for f in out}
        said = {n for f in code for n in names if n in (read(f) or "")}
        out = {f for f in out if posixpath.basename(f) not in said}
    return frozenset(out)


#: The files a VitePress site's own code is written in.
_SITE_CODE = (".vue", ".ts", ".js", ".mts", ".mjs")


def vitepress_about(text: str) -> tuple[str | None, str | None]:
    """The ``title`` and ``description`` a VitePress config gives its site, its own or
    (VitePress 0.x) its default language's (each ``None`` unless a plain string)."""
    code = blank_js(text)
    start = exported_object(code)
    if start is None:
        return None, None
    return locale_string(code, start, "title"), locale_string(code, start, "description")


def _nav_names(code: str, theme: int) -> dict[str, str]:
    """The navigation bar's names for the paths it leads to (``/guide/`` -> "Guide")."""
    at = default_locale_option(code, theme, ("nav",))
    literal = js_value_at(without_computed(code)[0], at, "[") if at is not None else None
    data, error = load_lined(literal) if literal is not None else (None, None)
    return nav_names(data if error is None else None)


class _Items:
    def __init__(
        self,
        path: str,
        root: str,
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any],
    ) -> None:
        self.path, self.root, self.files = path, root, files
        self.problems, self.node = problems, node

    def items(self, values: list[Any], base: str) -> list[Any]:
        out = []
        lines = getattr(values, "lines", [])
        for index, item in enumerate(values):
            line = getattr(item, "line", lines[index] if index < len(lines) else None)
            if not isinstance(item, dict):
                continue
            text = item.get("text")
            title = str(text) if isinstance(text, str) and text.strip() else None
            inner = str(item.get("base") or base)
            link = item.get("link")
            page = self.page(inner + link, line, title) if isinstance(link, str) else None
            below = item.get("items") or item.get("children")  # VitePress 0.x: children
            children = self.items(below, inner) if isinstance(below, list) else []
            if page or children:
                out.append(self.node(title, page, children, line))
        return out

    def page(self, link: str, line: int | None, title: str | None) -> str | None:
        """The page a sidebar link names: the site's path without ``.md``/``.html``,
        a folder's ``index.md``."""
        if URL.match(link) or not link.strip():
            return None
        found = page_served_at(link, self.root, self.files, SITE_PAGES["vitepress"])
        if found:
            return found
        self.problems.append(
            f"{self.path}:{line}: {title or link!r} links to {link}, which no page of the "
            "source is served at; fix the link or add the page"
        )
        return None
