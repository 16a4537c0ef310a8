"""Links the change added and removed, the links it breaks and the ones it mends.

The links are those ``check`` follows: each document's body links, from the body scan
the package made as it read the documents (the links ``check``'s OKF120 reads), SKILL.md's
links (:meth:`Package.links`), and each index's entries as the package resolved them
(:mod:`kas_tui.core.listings`; a link in an index's prose, outside its entries, is not
compared). A link is known by the file holding it and where it points: the resolved
path inside the package, or the URL. On the old side both are carried to their new paths
for documents that moved, so a move the links followed is no change. A link is broken
when it points inside the package at a path the package does not hold; the change
**breaks** a link broken after it and not before (its text changed, or what it named
went away). Index entries count only as links broken or mended: their additions and
removals are :mod:`.indexes`'s. Targets are resolved by :func:`kas_tui.core.okf.links.resolve` once per
folder and text, for both sides (as ``check`` does: symlinks are not followed here).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.core.okf.links import Target, resolve

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.core.records import Listing


@dataclass(frozen=True)
class LinkChange:
    """A link: the file holding it, where it points (a path or a URL), and as written."""

    source: str
    target: str
    href: str
    text: str
    line: int
    #: an index entry (its additions and removals are the index entries' business)
    entry: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "target": self.target,
            "href": self.href,
            "text": self.text,
            "line": self.line,
            "index_entry": self.entry,
        }


@dataclass
class LinkChanges:
    added: list[LinkChange] = field(default_factory=list)
    removed: list[LinkChange] = field(default_factory=list)
    #: broken after the change, not before
    broken: list[LinkChange] = field(default_factory=list)
    #: broken before the change, not after
    mended: list[LinkChange] = field(default_factory=list)


_Key = tuple[str, str]


def _links(
    package: Package, renames: dict[str, str], resolved: dict[tuple[str, str], Target]
) -> tuple[dict[_Key, LinkChange], set[_Key]]:
    """Every link of ``package`` by (source, target), the first of each kept, and the
    keys of the broken ones (``resolved``: targets already resolved, by folder and text)."""
    known = package.known_paths()
    found: dict[_Key, LinkChange] = {}
    broken: set[_Key] = set()

    def add(source: str, href: str, text: str, line: int, target: Target, entry: bool) -> None:
        holder = renames.get(source, source)
        if target.kind == "anchor":
            return
        if target.kind == "internal":
            where = renames.get(target.path, target.path)
            if target.path not in known:
                broken.add((holder, where))
        else:
            where = href
        key = (holder, where)
        if key not in found:  # shown as it is on this side: where it points here
            shown = target.path if target.kind == "internal" else where
            found[key] = LinkChange(holder, shown, href, text, line, entry)

    if package.skill is not None:
        for link, target in package.links(package.skill_file):
            add(package.skill_file, link.target, link.text, link.line, target, False)
    for index_file in package.indexes.values():
        for listing in index_file.listings:
            entry = listing.entry
            add(index_file.path, entry.target, entry.title, entry.line, _listed(listing), True)
    for path, doc in package.documents.items():
        if not doc.has_frontmatter:
            continue
        folder = posixpath.dirname(path)
        for href, text, line in package.scan(path).links:
            if text[:1] == "^":
                continue  # a footnote, as check reads it
            key = ("/" if href[:1] == "/" else folder, href)
            target = resolved.get(key)
            if target is None:
                target = resolved[key] = resolve(path, href)
            add(path, href, text, line, target, False)
    return found, broken


def _listed(listing: Listing) -> Target:
    """Where an index entry points, as a link target."""
    if listing.kind in ("external", "outside"):
        return Target(listing.kind, listing.entry.target)
    return Target("internal", listing.path)  # a bundle's: its folder


def link_changes(old: Package, new: Package, renames: dict[str, str]) -> LinkChanges:
    """The link changes from ``old`` to ``new`` (``renames``: old path to new of the
    documents that moved)."""
    resolved: dict[tuple[str, str], Target] = {}
    before, broken_before = _links(old, renames, resolved)
    after, broken_after = _links(new, {}, resolved)
    out = LinkChanges()
    added = [after[k] for k in sorted(after.keys() - before.keys())]
    removed = [before[k] for k in sorted(before.keys() - after.keys())]
    # a link written the same in the same file now points elsewhere (the file moved, or
    # what it named did): not added nor removed; broken, if it is
    same = {(x.source, x.href) for x in added} & {(x.source, x.href) for x in removed}
    out.added = [x for x in added if (x.source, x.href) not in same and not x.entry]
    out.removed = [x for x in removed if (x.source, x.href) not in same and not x.entry]
    out.broken = [after[k] for k in sorted(broken_after - broken_before)]
    out.mended = [after[k] for k in sorted((broken_before - broken_after) & after.keys())]
    return out
