"""Which of a source's files are tables of contents, by name and place: docfx's
``toc.yml`` and ``TOC.md``, MkDocs' config, Docusaurus' sidebars, the configs of
Hugo, VitePress, VuePress, Starlight, Mintlify, Nextra, Fumadocs, Jekyll, Eleventy, Quarto, bookdown and Sphinx,
books' ``_toc.yml`` and ``SUMMARY.md``, wikis' sidebars and ``.order`` files, Antora's
``antora.yml``; and which of them are looked at first (:func:`find_tocs`). What each
holds is read by :mod:`.toc`."""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Iterable

from kas_tui.features.importing.toc_antora import is_antora_file
from kas_tui.features.importing.toc_bookdown import is_bookdown_config
from kas_tui.features.importing.toc_dendron import is_dendron_config
from kas_tui.features.importing.toc_eleventy import is_eleventy_config
from kas_tui.features.importing.toc_fumadocs import is_fumadocs_config
from kas_tui.features.importing.toc_hugo import is_hugo_config
from kas_tui.features.importing.toc_jekyll import is_jekyll_config
from kas_tui.features.importing.toc_jupyterbook import is_book_toc, is_myst_config
from kas_tui.features.importing.toc_mintlify import is_mintlify_config
from kas_tui.features.importing.toc_mkdocs import is_mkdocs_config
from kas_tui.features.importing.toc_nextra import is_meta_file, is_nextra_config
from kas_tui.features.importing.toc_quarto import is_quarto_config
from kas_tui.features.importing.toc_starlight import is_astro_config
from kas_tui.features.importing.toc_vitepress import is_vitepress_config
from kas_tui.features.importing.toc_vuepress import is_vuepress_config
from kas_tui.features.importing.toc_wiki import ORDER, SIDEBAR, SUMMARY

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
        "sidebars.ts",
        "sidebars.json",
        "_Sidebar.md",
        ".order",
        "conf.py",
        "_toc.yml",
        "myst.yml",
    }
)


def toc_kind(path: str) -> str | None:
    name = posixpath.basename(path).lower()
    if name in ("toc.yml", "toc.yaml"):
        # docfx's breadcrumb/toc.yml (breadcrumb_path) links above the site: no contents
        return None if f"/{path.lower()}".endswith(f"/breadcrumb/{name}") else "docfx-yml"
    if name == "toc.md":
        return "docfx-md"
    if name in ("sidebars.js", "sidebars.ts", "sidebars.json"):
        return "docusaurus"
    if name == "sidebar.json":
        return "starlight"
    if is_astro_config(name):
        return "astro"
    if is_hugo_config(path):
        return "hugo"
    if is_vitepress_config(path):
        return "vitepress"
    if is_vuepress_config(path):
        return "vuepress"
    if is_book_toc(path):
        return "jupyter-book"
    if is_myst_config(path):
        return "myst"
    if name == SIDEBAR:
        return "wiki-sidebar"
    if name == SUMMARY:
        return "summary"
    if is_jekyll_config(path):
        return "jekyll"
    if name == ORDER:
        return "azure-order"
    if name == "conf.py":
        return "sphinx"
    if is_mintlify_config(path):
        return "mintlify"
    if is_nextra_config(path) or is_meta_file(path):
        return "nextra"
    if is_fumadocs_config(path) or name == "meta.json":
        return "fumadocs"
    if is_mkdocs_config(path):
        return "mkdocs"
    if is_antora_file(path):
        return "antora"
    if is_dendron_config(path):
        return "dendron"
    if is_eleventy_config(path):
        return "eleventy"
    if is_quarto_config(path):
        return "quarto"
    if is_bookdown_config(path):
        return "bookdown"
    return None


_RANK = {
    "mkdocs": 0,
    "docfx-yml": 1,
    "docfx-md": 2,
    "docusaurus": 3,
    "wiki-sidebar": 4,
    "azure-order": 5,
    "sphinx": 6,
    "starlight": 7,
    "astro": 8,
    "hugo": 9,
    "vitepress": 10,
    "summary": 11,
    "jekyll": 12,
    "mintlify": 13,
    "nextra": 14,
    "fumadocs": 15,
    "vuepress": 16,
    # a book's TOC before its _config.yml (Jekyll's name) and a conf.py that reads it
    # (sphinx-external-toc); myst.yml before the _toc.yml it may read
    "myst": -2,
    "jupyter-book": -1,
    "antora": 16,
    "dendron": 17,
    "eleventy": 18,
    "quarto": 19,
    "bookdown": 20,
}


def find_tocs(files: Iterable[str]) -> list[str]:
    """Which of the source's files are tables of contents, by name: shallowest first,
    then MkDocs configs (``mkdocs.yml`` first; one without a ``nav`` reads as ``None``),
    docfx ``toc.yml``, ``TOC.md``, Docusaurus ``sidebars.json``, ``sidebars.js``, a
    wiki's ``_Sidebar.md``, an Azure DevOps wiki's ``.order``, Sphinx's ``conf.py``,
    a Starlight ``sidebar.json``."""

    def rank(path: str) -> tuple[int, int, bool, bool, str]:
        name = posixpath.basename(path).lower()
        return (
            path.count("/"),
            _RANK[toc_kind(path) or "docusaurus"],
            name not in ("mkdocs.yml", "sidebars.json"),
            name.endswith(".yaml"),
            path,
        )

    return sorted({f for f in files if toc_kind(f)}, key=rank)


def tool_folder(path: str) -> bool:
    """Whether ``path`` is in a hidden folder of the source's (``.cargo/config.toml``,
    ``.github/``): a tool's settings, no site, unless VitePress' ``.vitepress/`` or
    VuePress' ``.vuepress/``."""
    top = path.split("/", 1)[0]
    return "/" in path and top.startswith(".") and not vue_config(path)


def vue_config(path: str) -> bool:
    """Whether ``path`` is a VitePress or VuePress config (``.vitepress/config.ts``)."""
    return is_vitepress_config(path) or is_vuepress_config(path)


def book_summary(path: str, files: Collection[str]) -> bool:
    """Whether ``path`` is an mdBook's ``SUMMARY.md``: in the pages folder beside the
    book's ``book.toml``."""
    if posixpath.basename(path).lower() != SUMMARY:
        return False
    return posixpath.join(posixpath.dirname(posixpath.dirname(path)), "book.toml") in files
