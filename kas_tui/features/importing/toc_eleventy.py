"""An Eleventy (11ty) site: its config (``.eleventy.js``, ``eleventy.config.js``) names
the folder its pages are made from (``dir.input``) and, in it, the folders of its
templates and data (``dir.includes``, ``dir.layouts``, ``dir.data``: ``_includes/`` and
``_data/`` by default). Nothing of the site is a table of contents: its folders are
the tree, and what is outside its input folder (its scripts, styles, data, configs) is
no page of it."""

from __future__ import annotations

import posixpath
import re

#: The names Eleventy looks for its config by, at the project's root.
CONFIG_NAMES = frozenset(
    {
        ".eleventy.js",
        ".eleventy.cjs",
        ".eleventy.mjs",
        "eleventy.config.js",
        "eleventy.config.cjs",
        "eleventy.config.mjs",
        "eleventy.config.ts",
    }
)
#: Eleventy's own folders in its input folder by default: templates, layouts, data.
OWN_FOLDERS = ("_includes", "_layouts", "_data")
_DIR_KEY = re.compile(r"""\b(input|includes|layouts|data)\s*:\s*(["'`])([^"'`\n]*)\2""")


def is_eleventy_config(path: str) -> bool:
    return posixpath.basename(path).lower() in CONFIG_NAMES


def eleventy_dirs(path: str, text: str) -> tuple[str, tuple[str, ...]]:
    """(the folder the site's pages are made from, the folders of its templates and
    data), source-relative, from the config ``path`` reading ``text``: its ``dir``
    keys as written (a value built at run time is not read: the defaults stand)."""
    home = posixpath.dirname(path)
    found = {key: value for key, _quote, value in _DIR_KEY.findall(text)}
    pages = _joined(home, found.get("input", "."))
    own = tuple(
        dict.fromkeys(
            _joined(pages, found.get(key, default))
            for key, default in zip(("includes", "layouts", "data"), OWN_FOLDERS, strict=True)
        )
    )
    return pages, tuple(f for f in own if f and not f.startswith(".."))


def _joined(folder: str, path: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, path.strip() or "."))
    return "" if joined == "." else joined
