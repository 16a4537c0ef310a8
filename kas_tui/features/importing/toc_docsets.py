"""The docfx tables of contents a site's main one does not link: each a section of it.

A docfx repository may keep a part of its pages under a ``toc.yml`` of their own that
its main table of contents never names (Exchange Server 2013's ``management/toc.yml``,
the Management Pack guide, and ``management/health/toc.yml``, 31 health-set pages).
The site shows them under that table of contents; read by the main one only, they were
pages it does not list, and went by their words into bundles about something else
(health sets under voice mail). So each such table of contents that lists pages the
main one does not becomes a section of the main one, after its own sections, titled by
its single top entry (or its folder's name), and its pages are placed as the main
table's are. One listing mostly pages the main one lists is another view of the same
docset (Exchange's ``exchange2013toc/toc.yml``, 4 pages of its 1,160 new) and is left
out: joined, its sections merged with the main one's of the same names.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection

from kas_tui.core.okf import index_layout
from kas_tui.features.importing.toc import Read, Toc, TocNode, read_toc
from kas_tui.features.importing.toc_files import find_tocs

#: The kinds of table of contents a docfx site nests: read as parts of the main one.
_DOCFX = ("docfx-yml", "docfx-md")


def with_other_tocs(toc: Toc | None, files: Collection[str], read: Read) -> Toc | None:
    """``toc`` with a section for each docfx table of contents below its folder that it
    does not read itself and whose pages it mostly does not list (``toc`` unchanged
    when it is no docfx table of contents, or when there is none such)."""
    if toc is None or toc.kind not in _DOCFX:
        return toc
    home = posixpath.dirname(toc.file)
    inside = home + "/" if home else ""
    read_already = {toc.file} | {node.file for node, _above in toc.walk() if node.file}
    listed = set(toc.order())
    for path in find_tocs(f for f in files if f.startswith(inside) and "/" in f[len(inside) :]):
        if path in read_already:
            continue
        other = read_toc(path, read, files)
        if other is None or other.kind not in _DOCFX:
            continue
        if not other.roots:
            toc.problems += other.problems  # one that cannot be read says so
            continue
        read_already |= {path} | {n.file for n, _above in other.walk() if n.file}
        order = other.order()
        pages = [p for p in order if p not in listed]
        if not pages or 2 * len(pages) < len(order):
            continue  # another view of the main one's pages (exchange2013toc/toc.yml)
        listed.update(pages)
        for node, _above in other.walk():  # each entry says which file it is read from
            node.file = node.file or path
        toc.roots.append(_section(path, other.roots))
        toc.problems += other.problems
    return toc


def _section(path: str, roots: list[TocNode]) -> TocNode:
    """The section an unlinked table of contents makes: its single top entry, or one
    titled by its folder's name holding its entries."""
    if len(roots) == 1 and roots[0].title and roots[0].children:
        return roots[0]
    folder = posixpath.basename(posixpath.dirname(path)) or "Other pages"
    return TocNode(index_layout.folder_title(folder), None, roots, None, path)
