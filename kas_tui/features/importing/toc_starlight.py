"""Astro Starlight's sidebar: a ``sidebar.json``, or the ``sidebar`` option of the
``starlight({...})`` integration in ``astro.config.mjs`` (read as text, never run).

A sidebar is a list of entries: a group ``{label, items: [...]}``; a page ``{label,
slug: "start/prerequisites"}`` or ``"start/prerequisites"`` alone, where the slug is the
page's path without its extension from the content root; a link ``{label, link:
"/start/"}``, a page when it is a path the site serves (external links lead off the
site and are no pages); an ``autogenerate: {directory: "concept"}`` group, every page
below that folder as Starlight lists them (a folder's own page first, then by path;
sub-folders as groups without a label, named as any folder is). ``translations``, ``badge``,
``collapsed`` and ``attrs`` say nothing about the tree.

The content root of a ``sidebar.json`` is tried from its folder and each folder above
it; a config's is ``src/content/docs`` beside it, Starlight's docs folder, whose pages
alone the site serves (``_``-prefixed files and folders are partials it never
serves). A top-level group labelled as an identifier (``docs_tab``) is a tab of the
site's header: titled in words ("Docs"). A ``sidebar.json`` in another shape is no
sidebar (``None``); a config whose sidebar is built by code says so, and its folders
are then the tree, as Starlight's own default sidebar is.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.js_literals import (
    blank_js,
    js_option,
    js_value_at,
    spread_notes,
    string_option,
    without_computed,
)
from kas_tui.features.importing.toc_formats import (
    SITE_PAGES,
    URL,
    load_lined,
    page_served_at,
    sidebar_title,
)

#: Where Starlight reads its pages, from the config's folder.
CONTENT_ROOT = "src/content/docs"
#: Astro's config files.
CONFIG_NAMES = frozenset(f"astro.config.{ext}" for ext in ("mjs", "js", "ts", "mts", "cjs", "cts"))
_STARLIGHT_CALL = re.compile(r"\bstarlight\s*\(\s*\{")


def starlight_roots(
    path: str,
    text: str,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> list[Any] | None:
    """The sidebar in ``text`` (the file ``path``, a ``sidebar.json``) as nodes made by
    ``node(title, path, children, line)``; ``None`` when it is no Starlight sidebar."""
    data, error = load_lined(text)
    if error is not None or not isinstance(data, list) or not data:
        return None
    if not all(isinstance(e, dict) and "label" in e for e in data):
        return None
    return _Sidebar(path, _folders(path), files, problems, node).entries(data, True)


def is_astro_config(path: str) -> bool:
    return posixpath.basename(path).lower() in CONFIG_NAMES


def starlight_config(
    path: str,
    text: str,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> tuple[list[Any], str] | None:
    """The sidebar of the Starlight integration an Astro config (``path``) sets up, as
    nodes, and the site's content root; ``None`` when the config sets up no Starlight.
    A sidebar built by code, or none, reads as no nodes (the folders are the tree)."""
    code = blank_js(text)
    call = _STARLIGHT_CALL.search(code)
    if call is None:
        return None
    root = posixpath.normpath(posixpath.join(posixpath.dirname(path), CONTENT_ROOT))
    at = js_option(blank_js(code, strings=True), call.end() - 1, "sidebar")
    if at is None:
        return [], root  # Starlight's own sidebar: every page, by folder
    line = code.count("\n", 0, at) + 1
    plain, spreads = without_computed(code)
    literal = js_value_at(plain, at, "[")
    data = None
    if literal is not None:
        data, error = load_lined(literal)
        data = data if error is None else None
    if not isinstance(data, list):
        problems.append(
            f"{path}:{line}: its Starlight sidebar is no plain list in this file (built by "
            "code, or imported from another): not read; the folders are the tree"
        )
        return [], root
    # entries code makes inside the literal (a plugin's links): said, the rest read
    problems += spread_notes(path, text, literal, spreads)
    return _Sidebar(path, [root], files, problems, node).entries(data, True), root


def starlight_about(text: str) -> tuple[str | None, str | None]:
    """The ``title`` and ``description`` an Astro config gives its Starlight site (each
    ``None`` unless a plain string: a title per language is an object)."""
    code = blank_js(text)
    call = _STARLIGHT_CALL.search(code)
    if call is None:
        return None, None
    opened = call.end() - 1
    return string_option(code, opened, "title"), string_option(code, opened, "description")


class _Sidebar:
    """Reads sidebar entries: pages are looked for under each of ``folders``."""

    def __init__(
        self,
        path: str,
        folders: list[str],
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any],
    ) -> None:
        self.path = path
        self.folders = folders
        self.files = files
        self.problems = problems
        self.node = node

    def page(self, slug: str, line: int | None, label: str, *, said: bool = True) -> str | None:
        for folder in self.folders:
            found = page_served_at(slug, folder, self.files, SITE_PAGES["starlight"])
            if found:
                return found
        slug = slug.split("#", 1)[0].split("?", 1)[0].strip("/")
        if said:
            self.problems.append(
                f"{self.path}:{line}: {label!r} names the page {slug or '/'}, which is not "
                "in the source; fix the slug or add the page"
            )
        return None

    def entries(self, items: Any, top: bool) -> list[Any]:
        out = []
        lines = getattr(items, "lines", [])
        for index, item in enumerate(items if isinstance(items, list) else []):
            line = getattr(item, "line", lines[index] if index < len(lines) else None)
            if isinstance(item, str):  # a slug alone
                found = self.page(item, line, item)
                if found:
                    out.append(self.node(None, found, [], line))
                continue
            keys = {"items", "slug", "link", "autogenerate"} & set(item or ())
            if not isinstance(item, dict) or not keys:
                self.problems.append(  # no entry at all: said
                    f"{self.path}:{line}: is not a sidebar entry kas-tui reads (a group "
                    "with items: or autogenerate:, a page with slug: or a link:): skipped"
                )
                continue
            label = str(item.get("label") or "")
            title = sidebar_title(label) if top and label and " " not in label else label
            if isinstance(item.get("items"), list):
                children = self.entries(item["items"], False)
                if children:
                    out.append(self.node(title or None, None, children, line))
            elif isinstance(item.get("autogenerate"), dict):
                children = self.generated(item["autogenerate"].get("directory"), line)
                if children:
                    out.append(self.node(title or None, None, children, line))
            elif isinstance(item.get("slug"), str):
                found = self.page(item["slug"], line, label)
                if found:
                    out.append(self.node(title or None, found, [], line))
            elif _served(item.get("link")):  # a path the site serves: a page of it
                found = self.page(item["link"], line, label, said=False)
                if found:
                    out.append(self.node(title or None, found, [], line))
                else:
                    self.problems.append(
                        f"{self.path}:{line}: {label!r} links to {item['link']}, which no "
                        "page of the source is served at (a page a plugin makes?): no entry"
                    )
        return out

    def generated(self, directory: Any, line: int | None) -> list[Any]:
        """The pages an ``autogenerate`` group lists: every page below ``directory``."""
        inner = str(directory or "").strip("/")
        for folder in self.folders:
            base = posixpath.normpath(posixpath.join(folder, inner)) if inner else folder
            prefix = base + "/" if base not in ("", ".") else ""
            pages = sorted(
                f
                for f in self.files
                if f.startswith(prefix)
                and f.lower().endswith(SITE_PAGES["starlight"])
                and not any(p.startswith("_") for p in f[len(prefix) :].split("/"))
            )
            if pages:
                return self._tree(prefix, pages, line)
        self.problems.append(
            f"{self.path}:{line}: autogenerates from {inner or '/'}, which holds no pages in "
            "the source: no entries; fix the directory"
        )
        return []

    def _tree(self, prefix: str, pages: list[str], line: int | None) -> list[Any]:
        own = [p for p in pages if "/" not in p[len(prefix) :]]
        own.sort(key=lambda p: (posixpath.splitext(posixpath.basename(p))[0] != "index", p))
        out = [self.node(None, p, [], line) for p in own]
        subs: dict[str, list[str]] = {}
        for p in pages:
            rest = p[len(prefix) :]
            if "/" in rest:
                subs.setdefault(rest.split("/", 1)[0], []).append(p)
        for name, inner in sorted(subs.items()):
            children = self._tree(f"{prefix}{name}/", inner, line)
            out.append(self.node(None, None, children, line))
        return out


def _served(link: Any) -> bool:
    """Whether a ``link`` entry's target is a path of the site (``/start/``), not a
    link off it."""
    return isinstance(link, str) and link.startswith("/") and not URL.match(link)


def _folders(path: str) -> list[str]:
    """The sidebar's folder and each folder above it, nearest first ("" the root)."""
    out = []
    folder = posixpath.dirname(path)
    while True:
        out.append(folder)
        if not folder:
            return out
        folder = posixpath.dirname(folder)
