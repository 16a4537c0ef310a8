"""What the build names things: the package, its folders (by the source's TOC, a
folder's one page, its landing page, or its own name written as its pages write it),
and which pages are landing pages."""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from kas_tui.core.okf import index_layout
from kas_tui.features.importing.home_page import without_name_only, without_theme_drawn
from kas_tui.features.importing.site_about import site_title
from kas_tui.features.importing.source_meta import (
    acronyms_as_written,
    is_landing_page,
    readable_name,
)
from kas_tui.features.importing.toc_model import Toc
from kas_tui.text.grouping import fold
from kas_tui.text.languages import is_english, is_language_tag
from kas_tui.text.slug import slugify, slugify_middle_out

#: Folder names that say where pages are kept, not what they are about.
_GENERIC_FOLDERS = frozenset(
    {"docs", "doc", "documentation", "content", "pages", "src", "source", "wiki", "site", "app"}
)


def titles_below(view: dict[str, tuple[str, str, str]]) -> dict[str, list[str]]:
    """Folder -> the titles of the documents at any depth below it ('' for the root):
    each document counted once per folder above it, not once per folder of the package."""
    below: dict[str, list[str]] = defaultdict(list)
    for path, (title, _description, _type) in view.items():
        folder = posixpath.dirname(path)
        while True:
            below[folder].append(title)
            if not folder:
                break
            folder = posixpath.dirname(folder)
    return below


class NamesMixin:
    """The builder's names (``docs``, ``folders``, ``toc``, ``source``, ``source_files``
    and ``group_titles`` are the builder's)."""

    docs: dict[str, Any]
    folders: dict[str, str]
    toc: Any
    source: Any
    source_files: set[str]
    group_titles: dict[str, str]

    def _folder_titles(self, view: dict[str, tuple[str, str, str]] | None = None) -> dict[str, str]:
        """Out folder -> title, from the source folder's own name, written as the
        folder's documents write it when it is squashed (``SharePointServer`` ->
        "SharePoint Server", with ``view``'s titles; see :func:`.source_meta.readable_name`)."""
        titles = {"": self._package_title(view)}
        named = self.toc.folder_titles() if self.toc is not None else {}
        below_each = titles_below(view or {})
        landing = self._landing_titles(view or {})
        opened = self._opening_titles(view or {})
        own: dict[str, str] = {}  # out folder -> the title its own name gives it
        for src, out in self.folders.items():
            if out:
                name = posixpath.basename(src)
                below = below_each.get(out, [])
                only = below[0] if len(below) == 1 else ""  # a folder named for its one page
                own[out] = (
                    self._section_names.get(src)  # its section page's title alone
                    or (only if slugify(only) == slugify(name) else None)
                    or landing.get(src)
                    or opened.get(src)
                    or ("English" if is_english(name) else None)  # en/, its translations gone
                    or readable_name(name, below)
                    or acronyms_as_written(index_layout.folder_title(name), below)
                )
                titles[out] = named.get(src) or own[out]
        for out in sorted(own, key=lambda f: f.count("/")):
            # a TOC section named as the folder's parent ("Windows" around the
            # platform-specific pages of windows/platform-specifics/, another "Windows"
            # around windows/deployment/) names where it sits, not what it holds
            parent = titles.get(posixpath.dirname(out))
            if parent and titles[out].casefold() == parent.casefold() != own[out].casefold():
                titles[out] = own[out]
        titles.update(self.group_titles)  # sub-bundles the build made: named by their label
        return titles

    def _without_drawn_pages(self, documents: list[str]) -> list[str]:
        """``documents`` without the pages the site's theme draws from its data
        (:func:`.without_theme_drawn`) and the section pages that only name their
        folder (:func:`.without_name_only`: ``self._section_names`` keeps the names). A
        section's own page beside its pages stays when it says more: it names its
        section; the site's home page always stays."""
        home = self.toc.docs_dir if self.toc is not None else ""
        sections = {posixpath.dirname(d) for d in documents if not is_landing_page(d)} - {home}
        shows = self.toc.shown_on if self.toc is not None else {}  # Hugo's, pages below it

        def section_page(rel: str) -> bool:
            return is_landing_page(rel) and posixpath.dirname(rel) in sections

        read, notes = self._read_source, self.result.notes
        documents = without_theme_drawn(documents, read, self.source, notes, section_page)
        documents, self._section_names = without_name_only(
            documents, read, self.source, notes, lambda rel: section_page(rel) and rel not in shows
        )
        return documents

    def _landing_titles(self, view: dict[str, tuple[str, str, str]]) -> dict[str, str]:
        """Source folder -> the title of its landing page (``index``, ``README``,
        ``_index``), when that title holds the folder's name: tauri-docs' ``concept/``
        is "Core Concepts", as its ``index.mdx`` says; an "Overview" names no folder."""
        found: dict[str, str] = {}
        for rel, doc in self.docs.items():
            folder = posixpath.dirname(rel)
            if not folder or not is_landing_page(rel) or doc.out not in view:
                continue
            title = view[doc.out][0]
            words = {fold(w) for w in re.findall(r"\w+", title.lower())}
            if {fold(w) for w in re.findall(r"\w+", posixpath.basename(folder).lower())} <= words:
                found.setdefault(folder, title)
        return found

    def _opening_titles(self, view: dict[str, tuple[str, str, str]]) -> dict[str, str]:
        """Source folder -> the title of its landing page, when the TOC lists that page
        with the folder's pages below it: the site's navigation shows the folder by that
        title (Sphinx's ``extdev/index.rst``, "Sphinx API", its toctree listing
        ``extdev/*``: the bundle was "Extdev"; ``man/`` was "Man", not "Command-line
        tools")."""
        found: dict[str, str] = {}
        for node, _above in self.toc.walk() if self.toc is not None else ():
            if node.title or not node.path or not node.children or not is_landing_page(node.path):
                continue
            folder = posixpath.dirname(node.path)
            pages = [n.path for n, _a in Toc("", "", node.children).walk() if n.path]
            inside = [p for p in pages if p.startswith(folder + "/")]
            doc = self.docs.get(node.path)
            if folder and doc is not None and doc.out in view and 2 * len(inside) > len(pages):
                found.setdefault(folder, view[doc.out][0])
        return found

    def _package_title(self, view: dict[str, tuple[str, str, str]] | None = None) -> str:
        """The package's title: the site's own name (``site_name`` of mkdocs.yml,
        docfx.json's ``_appTitle``...), else the name of the folder the pages came from
        (the wrapper folder that became the root, unless it is called ``docs`` or the
        like, else the source folder), made readable; never the output folder's name,
        which is a skill name; its acronyms as the titles of ``view`` (the package's
        documents: the same on every build) write them, else the drafts'."""
        cached = getattr(self, "_title_cache", None)
        if cached is None:
            files = sorted(self.source_files)  # the site config too, copied or not
            wrapper = next((src for src, out in self.folders.items() if src and not out), "")
            # the innermost folder around every page names the docset best
            # ("Exchange/ExchangeServer2013"), unless it is called "docs" or the like
            inner = self._innermost_folder(wrapper)
            names = [n for n in reversed(inner.split("/")) if n] if inner else []
            name = next(  # nor a language's folder (content/en)
                (n for n in names if n.lower() not in _GENERIC_FOLDERS and not is_language_tag(n)),
                "",
            )
            near = self.toc.file if self.toc is not None else ""
            site = site_title(self._read_source, files, near)
            cached = self._title_cache = (site, name or self.source.name)
        site, name = cached
        if site:
            return site
        if view is not None:
            written: list[str] = [title for title, _d, _t in view.values()]
        else:
            written = [d.draft.title for d in self.docs.values() if d.draft is not None]
        # a squashed name as the titles write it ("ExchangeServer2013" -> "Exchange Server
        # 2013"), its acronyms too ("Azure CLI", not "Azure cli")
        folder_name = readable_name(name, written) or index_layout.folder_title(name)
        return acronyms_as_written(folder_name, written)

    def _innermost_folder(self, wrapper: str) -> str:
        """The deepest source folder holding every page (at or below ``wrapper``, the
        folder that became the root); ``wrapper`` when the pages part below it."""
        pages = [posixpath.dirname(rel) for rel in self.docs]
        if not wrapper or not pages:
            return wrapper
        common = posixpath.commonpath(pages)
        return common if common == wrapper or common.startswith(wrapper + "/") else wrapper

    def _landing_pages(self) -> set[str]:
        """The package paths of the source's landing pages (``index``, ``README``,
        ``_index`` of a folder, or of the source)."""
        found = getattr(self, "_landing_cache", None)
        if found is None:
            own = getattr(self, "folder_landing", set())  # app/guide/page.mdx of app/guide/x
            found = self._landing_cache = {
                doc.out for rel, doc in self.docs.items() if is_landing_page(rel) or rel in own
            }
        return found

    def _other_names(self, rel: str, name: str, title: str | None = None) -> Iterator[str]:
        """The names the page ``rel`` (file name ``name``) goes by when its own is taken
        in its folder (two sources' ``overview.md`` in one TOC section, ``welcome.md``
        of ``SRB/`` and of ``UBB/``): the title the TOC gives it (else ``title``), its
        name with the middle left out when it is too long to tell apart once cut, its
        source folder's name before its own ("jea-overview"). A number comes after."""
        titles = getattr(self, "_toc_titles", None)
        if titles is None:
            titles = self._toc_titles = self.toc.titles() if self.toc is not None else {}
        if titles.get(rel) or title:
            yield slugify(titles.get(rel) or title or "")
        whole = slugify_middle_out(name)
        if whole:
            yield whole
        folder = posixpath.basename(posixpath.dirname(rel))
        if folder:
            yield slugify(f"{folder} {name}")
