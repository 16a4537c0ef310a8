"""What the change did to the indexes: entries added, removed, reworded and moved, and
what each index costs an agent to read, before and after.

Entries are read by the package's own index parser and resolved as the package resolves
them (:mod:`kas_tui.core.listings`). An entry is known by what it names: the document,
bundle or file its link resolves to (an old-side path carried to its new path when the
document moved, see :mod:`.documents`), or the URL. One thing listed on both sides is
one entry: **reworded** when its title or description changed, **moved** when it now sits
under another section heading or in another index. An index's cost is the estimated
tokens of its whole text (:func:`kas_tui.text.tokens.estimate_tokens`), as ``info`` says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.text.tokens import estimate_tokens

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.core.records import Listing


@dataclass(frozen=True)
class Place:
    """Where an entry is: its index file, the section heading above it, its line."""

    index: str
    section: str | None
    line: int

    @property
    def section_name(self) -> str:
        return self.section or "(no section)"


@dataclass(frozen=True)
class EntryChange:
    """One index entry added (no ``before``), removed (no ``after``) or changed."""

    target: str
    before: Place | None
    after: Place | None
    title_before: str = ""
    title_after: str = ""
    description_before: str = ""
    description_after: str = ""

    @property
    def kind(self) -> str:
        if self.before is None:
            return "added"
        return "removed" if self.after is None else "changed"

    @property
    def reworded(self) -> bool:
        return self.kind == "changed" and (
            self.title_before != self.title_after
            or self.description_before != self.description_after
        )

    @property
    def moved(self) -> bool:
        b, a = self.before, self.after
        return b is not None and a is not None and (b.index, b.section) != (a.index, a.section)

    @property
    def index(self) -> str:
        """The index the entry is in now (where it was, when removed)."""
        place = self.after or self.before
        assert place is not None
        return place.index

    @property
    def title(self) -> str:
        return self.title_after or self.title_before

    def to_json(self) -> dict[str, Any]:
        def place(p: Place | None) -> dict[str, Any] | None:
            return None if p is None else {"index": p.index, "section": p.section, "line": p.line}

        return {
            "change": self.kind,
            "target": self.target,
            "reworded": self.reworded,
            "moved": self.moved,
            "before": place(self.before),
            "after": place(self.after),
            "title": {"before": self.title_before, "after": self.title_after},
            "description": {"before": self.description_before, "after": self.description_after},
        }


@dataclass(frozen=True)
class Cost:
    """Estimated tokens of one file on each side (0: not there)."""

    path: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass
class IndexChanges:
    entries: list[EntryChange] = field(default_factory=list)
    #: every index on either side, whether or not its cost changed, by path
    costs: list[Cost] = field(default_factory=list)

    def count(self, what: str) -> int:
        if what in ("added", "removed"):
            return sum(1 for e in self.entries if e.kind == what)
        return sum(1 for e in self.entries if getattr(e, what))


def _target(listing: Listing, renames: dict[str, str]) -> str:
    if listing.kind in ("external", "outside"):
        return listing.entry.target
    return renames.get(listing.path, listing.path)


def _entries(package: Package, renames: dict[str, str]) -> dict[str, list[tuple[Place, Listing]]]:
    """Every entry of every index, by the target it names."""
    found: dict[str, list[tuple[Place, Listing]]] = {}
    for index_file in sorted(package.indexes.values(), key=lambda f: f.path):
        for listing in index_file.listings:
            place = Place(index_file.path, listing.entry.section, listing.entry.line)
            found.setdefault(_target(listing, renames), []).append((place, listing))
    return found


def _pair(
    old: list[tuple[Place, Listing]], new: list[tuple[Place, Listing]]
) -> tuple[list[tuple[Any, Any]], list[Any], list[Any]]:
    """Pairs of one target's entries (same index first, in order), and the leftovers."""
    pairs = []
    rest_old, rest_new = list(old), list(new)
    for item in list(rest_old):
        same = next((n for n in rest_new if n[0].index == item[0].index), None)
        if same is not None:
            pairs.append((item, same))
            rest_old.remove(item)
            rest_new.remove(same)
    while rest_old and rest_new:  # listed by another index now
        pairs.append((rest_old.pop(0), rest_new.pop(0)))
    return pairs, rest_old, rest_new


def index_changes(old: Package, new: Package, renames: dict[str, str]) -> IndexChanges:
    """The entry changes and index costs from ``old`` to ``new`` (``renames``: old
    document path to new, for the documents that moved)."""
    out = IndexChanges()
    before, after = _entries(old, renames), _entries(new, {})
    for target in sorted(set(before) | set(after)):
        pairs, gone, came = _pair(before.get(target, []), after.get(target, []))
        for (p, a), (q, b) in pairs:
            change = EntryChange(
                target, p, q, a.entry.title, b.entry.title, a.entry.description, b.entry.description
            )
            if change.reworded or change.moved:
                out.entries.append(change)
        for p, a in gone:
            out.entries.append(
                EntryChange(target, p, None, a.entry.title, "", a.entry.description, "")
            )
        for q, b in came:
            out.entries.append(
                EntryChange(target, None, q, "", b.entry.title, "", b.entry.description)
            )
    out.entries.sort(key=lambda e: (e.index, (e.after or e.before).line))  # type: ignore[union-attr]
    costs_before = _costs(old)
    costs_after = _costs(new)
    out.costs = [
        Cost(path, costs_before.get(path, 0), costs_after.get(path, 0))
        for path in sorted(set(costs_before) | set(costs_after), key=_index_order)
    ]
    return out


def _index_order(path: str) -> tuple[int, str]:
    return (path.count("/"), path)


def _costs(package: Package) -> dict[str, int]:
    """The estimated tokens of each index of ``package``, by path."""
    return {f.path: estimate_tokens(f.index.render()) for f in package.indexes.values()}
