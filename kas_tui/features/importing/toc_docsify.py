"""A Docsify site: an ``index.html`` that sets ``window.$docsify`` (read as text, never
run), the Markdown pages beside it, and its ``_sidebar.md``.

Docsify serves a folder's ``README.md`` as the folder's page (``/`` is ``README.md``,
``/guide/`` is ``guide/README.md``) and any other page at its path without ``.md``; a
link, in the sidebar or in a page, is read from the site's folder (its default,
``relativePath: false``). The sidebar is a Markdown list (nested by indentation) of such
links under plain items naming sections. ``_coverpage.md``, ``_navbar.md``, the
sidebars and ``index.html`` are the site's frame, no pages. The config's ``name`` names
the site; its ``alias`` maps paths (regular expressions) to other files, some fetched
from elsewhere (a changelog from the repository's root): a sidebar link to such a path
says where the page comes from.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from urllib.parse import unquote

from kas_tui.features.importing.js_literals import blank_js, js_option, js_value_at, string_option
from kas_tui.features.importing.toc_formats import URL, load_lined

#: The files of a Docsify site's frame: shown around every page, no pages themselves.
FRAME = frozenset({"_coverpage.md", "_navbar.md", "_sidebar.md", "_footer.md", "index.html"})
_CONFIG = re.compile(r"window\.\$docsify\s*=\s*\{")


def docsify_config(text: str) -> int | None:
    """Where the ``window.$docsify`` object opens in an ``index.html``, or ``None``."""
    found = _CONFIG.search(text)
    return found.end() - 1 if found else None


def docsify_home(sidebar: str, read: Callable[[str], str | None]) -> str | None:
    """The folder of the Docsify site whose sidebar ``sidebar`` is (its ``index.html``
    beside it, or in a folder above it, sets ``window.$docsify``), else ``None``."""
    folder = posixpath.dirname(sidebar)
    while True:
        text = read(posixpath.join(folder, "index.html"))
        if text is not None and docsify_config(text) is not None:
            return folder
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def docsify_about(text: str) -> tuple[str | None, str | None]:
    """The ``name`` a Docsify config gives its site (no description: it has none)."""
    start = docsify_config(text)
    if start is None:
        return None, None
    name = string_option(blank_js(text), start, "name")
    return (" ".join(name.split()) or None if name else None), None


def docsify_page(target: str, home: str, files: Collection[str]) -> str | None:
    """The page a Docsify link names, read from the site's folder ``home``: ``/guide/``
    is ``guide/README.md``, ``guide/intro`` and ``guide/intro.md`` are
    ``guide/intro.md``; ``None`` when the source holds none."""
    path = unquote(target.split("#", 1)[0].split("?", 1)[0]).strip()
    if URL.match(path):
        return None
    inner = posixpath.normpath(path.lstrip("/")) if path.strip("/") else ""
    stem = re.sub(r"\.md$", "", inner, flags=re.IGNORECASE)
    candidates = [f"{stem}/README.md", f"{stem}/readme.md"] if stem else ["README.md", "readme.md"]
    if not path.endswith("/"):
        candidates.insert(0, f"{stem}.md")
    for candidate in candidates:
        found = posixpath.normpath(posixpath.join(home, candidate)) if home else candidate
        if found in files:
            return found
    return None


def docsify_aliases(text: str) -> dict[str, str]:
    """The config's ``alias`` map: a path the site serves -> where it reads it from."""
    start = docsify_config(text)
    if start is None:
        return {}
    code = blank_js(text)
    at = js_option(blank_js(code, strings=True), start, "alias")
    literal = js_value_at(code, at, "{") if at is not None else None
    data, error = load_lined(literal) if literal is not None else (None, None)
    if error is not None or not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}


def docsify_frame(home: str, files: Collection[str]) -> tuple[str, ...]:
    """The files of the site's frame the source holds (a sub-folder's sidebar too)."""
    inside = home + "/" if home else ""
    return tuple(
        sorted(f for f in files if f.startswith(inside) and posixpath.basename(f) in FRAME)
    )


def alias_said(target: str, aliases: dict[str, str]) -> str | None:
    """Where the site's ``alias`` sends a link the source holds no page for."""
    path = "/" + target.split("#", 1)[0].split("?", 1)[0].strip().lstrip("/")
    stem = re.sub(r"\.md$", "", path)
    for key, value in aliases.items():
        try:  # a key is a regular expression over the path the site is asked for
            if any(re.fullmatch(key, p) for p in (path, stem)):
                return value
        except re.error:
            continue
    return None
