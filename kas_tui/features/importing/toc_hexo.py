"""A Hexo site: its ``_config.yml`` (Jekyll's name) says where its pages are
(``source_dir``, ``source/`` by default); ``scaffolds/`` holds the templates ``hexo new``
fills in, ``themes/`` its themes, both outside it, and ``_data/`` and ``_drafts/`` in it
are no pages. Its folders are the tree (it has no table of contents)."""

from __future__ import annotations

import posixpath
from collections.abc import Collection

from kas_tui.features.importing.toc_formats import load_lined

#: Keys only Hexo's config has (Jekyll's has none of them).
_HEXO_KEYS = ("new_post_name", "source_dir", "public_dir", "post_asset_folder", "skip_render")


def hexo_site(path: str, text: str, files: Collection[str]) -> bool:
    """Whether the ``_config.yml`` at ``path`` (reading ``text``) is a Hexo site's: a key
    of Hexo's own, or its ``scaffolds/`` beside it."""
    data, _error = load_lined(text)
    if isinstance(data, dict) and any(key in data for key in _HEXO_KEYS):
        return True
    scaffolds = posixpath.join(posixpath.dirname(path), "scaffolds") + "/"
    return any(f.startswith(scaffolds) for f in files)


def hexo_dirs(path: str, text: str) -> tuple[str, tuple[str, ...]]:
    """(the folder the site's pages are made from, the folders in it that are no pages)."""
    data, _error = load_lined(text)
    source = data.get("source_dir") if isinstance(data, dict) else None
    source = source.strip().strip("/") if isinstance(source, str) and source.strip() else "source"
    pages = posixpath.normpath(posixpath.join(posixpath.dirname(path), source))
    pages = "" if pages == "." else pages
    return pages, tuple(posixpath.join(pages, own) for own in ("_data", "_drafts"))
