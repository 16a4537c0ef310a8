"""Links the change added and removed, the links it breaks and the ones it mends.

The links are the package's own (:meth:`Package.links`, the parser ``check`` and
``graph`` use) from every file ``graph`` reads: SKILL.md, each ``index.md`` and each
document. A link is known by the file holding it and where it points: the resolved path
inside the package, or the URL. On the old side both are carried to their new paths for
documents that moved, so a move the links followed is no change. A link is broken when
it points inside the package at a path the package does not hold; the change **breaks**
a link broken after it and not before (its text changed, or what it named went away).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.features.graph import sources

if TYPE_CHECKING:
    from kas_tui.core.package import Package


@dataclass(frozen=True)
class LinkChange:
    """A link: the file holding it, where it points (a path or a URL), and as written."""

    source: str
    target: str
    href: str
    text: str
    line: int

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "target": self.target,
            "href": self.href,
            "text": self.text,
            "line": self.line,
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


def _links(package: Package, renames: dict[str, str]) -> tuple[dict[_Key, LinkChange], set[_Key]]:
    """Every link of ``package`` by (source, target), the first of each kept, and the
    keys of the broken ones."""
    known = package.known_paths()
    found: dict[_Key, LinkChange] = {}
    broken: set[_Key] = set()
    for source in sources(package):
        holder = renames.get(source, source)
        for link, target in package.links(source):
            if target.kind == "anchor":
                continue
            if target.kind == "internal":
                where = renames.get(target.path, target.path)
                if target.path not in known:
                    broken.add((holder, where))
            else:
                where = link.target
            key = (holder, where)
            if key not in found:  # shown as it is on this side: where it points here
                shown = target.path if target.kind == "internal" else where
                found[key] = LinkChange(holder, shown, link.target, link.text, link.line)
    return found, broken


def link_changes(old: Package, new: Package, renames: dict[str, str]) -> LinkChanges:
    """The link changes from ``old`` to ``new`` (``renames``: old path to new of the
    documents that moved)."""
    before, broken_before = _links(old, renames)
    after, broken_after = _links(new, {})
    out = LinkChanges()
    added = [after[k] for k in sorted(after.keys() - before.keys())]
    removed = [before[k] for k in sorted(before.keys() - after.keys())]
    # a link written the same in the same file now points elsewhere (the file moved, or
    # what it named did): not added nor removed; broken, if it is
    same = {(x.source, x.href) for x in added} & {(x.source, x.href) for x in removed}
    out.added = [x for x in added if (x.source, x.href) not in same]
    out.removed = [x for x in removed if (x.source, x.href) not in same]
    out.broken = [after[k] for k in sorted(broken_after - broken_before)]
    out.mended = [after[k] for k in sorted((broken_before - broken_after) & after.keys())]
    return out
