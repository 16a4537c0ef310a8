"""What an index entry names: a document, a bundle, an asset, a reserved file, something
missing, or a place outside the package (the kinds of :class:`~kas_tui.core.records.Listing`)."""

from __future__ import annotations

import posixpath
from collections.abc import Collection
from pathlib import Path

from kas_tui.core.okf.index import Entry
from kas_tui.core.okf.links import resolve
from kas_tui.core.records import Listing


def listing_of(
    index: str,
    entry: Entry,
    root: Path,
    folders: Collection[str],
    documents: Collection[str],
    assets: Collection[str],
) -> Listing:
    """The listing of ``entry`` in the index file ``index`` (root-relative)."""
    target = resolve(index, entry.target)
    if target.kind != "internal":
        return Listing(index, entry, target.kind, target.path)
    path = target.path
    if path.endswith("/index.md") or path == "index.md":
        folder = posixpath.dirname(path)
        return Listing(index, entry, "bundle" if folder in folders else "missing", folder)
    if path in folders or entry.target.endswith("/"):
        return Listing(index, entry, "bundle" if path in folders else "missing", path)
    if path in documents:
        return Listing(index, entry, "document", path)
    if posixpath.basename(path) in ("log.md", "SKILL.md") and (root / path).is_file():
        return Listing(index, entry, "reserved", path)
    if path in assets:
        return Listing(index, entry, "asset", path)
    return Listing(index, entry, "missing", path)
