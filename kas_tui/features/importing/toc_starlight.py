"""A ``sidebar.json`` in Astro Starlight's sidebar shape: the site's own navigation.

Starlight sites (google-gemini/gemini-cli's docs among them) keep their sidebar as a
list of entries: a group ``{"label": ..., "items": [...]}`` and a page ``{"label": ...,
"slug": "docs/get-started/installation"}``, where the slug is the page's path without
its extension, from the content root (tried from the sidebar's folder and each folder
above it: ``docs/get-started/installation.md``, or ``.../index.md`` for a folder's
page). ``link`` entries lead off the site and are no pages. A top-level group labelled
as an identifier (``docs_tab``) is a tab of the site's header: titled in words
("Docs"). A file of that name in another shape is no sidebar (``None``).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.toc_formats import load_lined, sidebar_title

#: What a slug may name: the page itself, or a folder's index page.
_PAGE_FORMS = ("{}.md", "{}.mdx", "{}/index.md", "{}/index.mdx")


def starlight_roots(
    path: str,
    text: str,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> list[Any] | None:
    """The sidebar in ``text`` (the file ``path``) as nodes made by ``node(title, path,
    children, line)``; ``None`` when it is no Starlight sidebar."""
    data, error = load_lined(text)
    if error is not None or not isinstance(data, list) or not data:
        return None
    if not all(isinstance(e, dict) and "label" in e for e in data):
        return None
    folders = _folders(path)

    def page(slug: str, line: int | None, label: str) -> str | None:
        for folder in folders:
            for form in _PAGE_FORMS:
                candidate = posixpath.normpath(posixpath.join(folder, form.format(slug.strip("/"))))
                if candidate in files:
                    return candidate
        problems.append(
            f"{path}:{line}: {label!r} names the page {slug}, which is not in the source; "
            "fix the slug or add the page"
        )
        return None

    def entries(items: Any, top: bool) -> list[Any]:
        out = []
        lines = getattr(items, "lines", [])
        for index, item in enumerate(items if isinstance(items, list) else []):
            line = getattr(item, "line", lines[index] if index < len(lines) else None)
            if not isinstance(item, dict):
                continue
            label = str(item.get("label") or "")
            title = sidebar_title(label) if top and label and " " not in label else label
            if isinstance(item.get("items"), list):
                children = entries(item["items"], False)
                if children:
                    out.append(node(title or None, None, children, line))
            elif isinstance(item.get("slug"), str):
                found = page(item["slug"], line, label)
                if found:
                    out.append(node(title or None, found, [], line))
        return out

    return entries(data, True)


def _folders(path: str) -> list[str]:
    """The sidebar's folder and each folder above it, nearest first ("" the root)."""
    out = []
    folder = posixpath.dirname(path)
    while True:
        out.append(folder)
        if not folder:
            return out
        folder = posixpath.dirname(folder)
