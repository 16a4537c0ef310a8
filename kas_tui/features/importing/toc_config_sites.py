"""Sites whose one config file says all the build reads of their structure: Quarto's
``_quarto.yml`` and bookdown's ``_bookdown.yml`` (their chapters or sidebar), Eleventy's
and Hexo's configs (the folder their pages are made from, and their own folders of data
and templates, which are no pages). Each is read into a :class:`~.toc_model.Toc`."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection

from kas_tui.features.importing.toc_bookdown import bookdown_toc
from kas_tui.features.importing.toc_eleventy import eleventy_dirs
from kas_tui.features.importing.toc_formats import pruned
from kas_tui.features.importing.toc_hexo import hexo_dirs
from kas_tui.features.importing.toc_model import Toc, TocNode
from kas_tui.features.importing.toc_quarto import quarto_own_files, quarto_toc

#: The kinds :func:`one_file_site` reads (and Hexo's, whose config is named as Jekyll's).
ONE_FILE_SITES = frozenset({"bookdown", "quarto", "eleventy"})


def one_file_site(
    kind: str,
    path: str,
    text: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
) -> Toc | None:
    """The site the config ``path`` (its ``text``) of ``kind`` configures; ``None`` when
    it configures none (a ``_quarto.yml`` of no website or book). A ``jekyll`` config
    here is Hexo's."""
    home = posixpath.dirname(path)
    if kind == "bookdown":  # _bookdown.yml's rmd_files, parts by their headings
        roots, left_out = bookdown_toc(path, text, read, files, problems, TocNode)
        toc = Toc(path, kind, roots, problems, home)
        toc.unpublished, toc.unpublished_by = left_out, f"the book's {path} (rmd_files)"
        return toc
    if kind == "quarto":  # a website's sidebar or a book's chapters
        found = quarto_toc(path, text, files, problems, TocNode)
        if found is None:
            return None
        own = quarto_own_files(home, files)  # _freeze/, _extensions/, _quarto-*.yml
        return Toc(path, kind, pruned(found[0]), problems, home, own)
    # Eleventy's and Hexo's folders are the tree; their input folder holds the pages
    pages, own = eleventy_dirs(path, text) if kind == "eleventy" else hexo_dirs(path, text)
    toc = Toc(path, "eleventy" if kind == "eleventy" else "hexo", [], problems, pages)
    inside = tuple(f + "/" for f in own)
    toc.unpublished = frozenset(f for f in files if f.startswith(inside)) if inside else frozenset()
    folders = ", ".join(f + "/" for f in own)
    toc.unpublished_by = f"the site's {path} (its data and templates: {folders})"
    return toc
