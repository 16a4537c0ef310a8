"""Which documents the change added, removed, moved or changed, and how.

A document is known by its path on each side. A path only the old side has and a path
only the new side has are one document **moved** when their bodies are the same (after
the frontmatter, surrounding blank lines aside) or near-same: RapidFuzz's ``fuzz.ratio``
of the two bodies at least :data:`ALIKE` (the score KAS041 uses for descriptions). Near
bodies are sought only among the documents left after the same-body pairs, and only
while the pairs to score stay under :data:`MOST_PAIRS` (a change that removes and adds
thousands of documents pairs by same bodies alone). A document on both sides whose bytes
differ is **changed**: each frontmatter field added, removed or given a new value, and
the body's lines added and removed.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.text.alike import SIMILAR

if TYPE_CHECKING:
    from kas_tui.core.package import Package

#: the least ``fuzz.ratio`` of two bodies that makes a removed and an added document one
ALIKE = SIMILAR
#: most (removed x added) pairs scored for near-same bodies
MOST_PAIRS = 250_000


@dataclass(frozen=True)
class FieldChange:
    """One frontmatter field: ``before``/``after`` are its values shown as text, ``None``
    where the field is absent on that side."""

    name: str
    before: str | None
    after: str | None

    @property
    def kind(self) -> str:
        return "added" if self.before is None else "removed" if self.after is None else "changed"


@dataclass
class DocumentChange:
    """A document on both sides (``old`` and ``new`` differ when it moved)."""

    old: str
    new: str
    #: 100: the same body; less: how alike the bodies are (a move by near-same body)
    likeness: int = 100
    fields: list[FieldChange] = field(default_factory=list)
    lines_added: int = 0
    lines_removed: int = 0

    @property
    def moved(self) -> bool:
        return self.old != self.new

    @property
    def body_changed(self) -> bool:
        return bool(self.lines_added or self.lines_removed)

    def to_json(self) -> dict[str, Any]:
        return {
            "old": self.old,
            "new": self.new,
            "likeness": self.likeness,
            "fields": [
                {"field": f.name, "change": f.kind, "before": f.before, "after": f.after}
                for f in self.fields
            ],
            "body": {"lines_added": self.lines_added, "lines_removed": self.lines_removed},
        }


@dataclass
class DocumentChanges:
    """Every document the change touched, by path (each list sorted)."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    moved: list[DocumentChange] = field(default_factory=list)
    changed: list[DocumentChange] = field(default_factory=list)
    #: the title of each added, removed or moved document (its new title when moved)
    titles: dict[str, str] = field(default_factory=dict)

    @property
    def renames(self) -> dict[str, str]:
        """Old path to new path of every moved document."""
        return {m.old: m.new for m in self.moved}


def shown(value: Any) -> str:
    """A frontmatter value as one line of text: a string as it is, a date as ISO, the rest
    as JSON (lists and maps in flow form)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)


def field_changes(before: dict[str, Any], after: dict[str, Any]) -> list[FieldChange]:
    """The fields of two frontmatters that differ, in the order the new side holds them
    (fields only the old side had last)."""
    changes = []
    for name in [*after, *(k for k in before if k not in after)]:
        old = shown(before[name]) if name in before else None
        new = shown(after[name]) if name in after else None
        if old != new:
            changes.append(FieldChange(str(name), old, new))
    return changes


def _body(package: Package, path: str) -> str:
    try:
        return package.body(path).strip()
    except (OSError, ValueError, PermissionError):
        return ""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _same_bytes(old: Package, new: Package, path: str) -> bool:
    a, b = old.documents[path].fingerprint, new.documents[path].fingerprint
    return a is not None and b is not None and a.digest is not None and a.digest == b.digest


def _line_counts(before: str, after: str) -> tuple[int, int]:
    """Lines added and removed turning ``before`` into ``after``."""
    a, b = before.splitlines(), after.splitlines()
    added = removed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += i2 - i1
            added += j2 - j1
    return added, removed


def _compare(old: Package, new: Package, a: str, b: str, likeness: int) -> DocumentChange:
    change = DocumentChange(a, b, likeness)
    change.fields = field_changes(old.documents[a].meta, new.documents[b].meta)
    before, after = _body(old, a), _body(new, b)
    if before != after:
        change.lines_added, change.lines_removed = _line_counts(before, after)
    return change


def _near_pairs(gone: dict[str, str], came: dict[str, str]) -> list[tuple[str, str, int]]:
    """``(old, new, score)``: each left-over removed document paired with the added one
    whose body is most alike, best pairs first, each document in one pair at most."""
    if not gone or not came or len(gone) * len(came) > MOST_PAIRS:
        return []
    from rapidfuzz import fuzz, process

    names = list(came)
    bodies = [came[n] for n in names]
    scored = []
    for old, body in gone.items():
        for _, score, at in process.extract(
            body, bodies, scorer=fuzz.ratio, score_cutoff=ALIKE, limit=5
        ):
            scored.append((score, old, names[at]))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    taken_old: set[str] = set()
    taken_new: set[str] = set()
    pairs = []
    for score, old, new in scored:
        if old not in taken_old and new not in taken_new:
            taken_old.add(old)
            taken_new.add(new)
            pairs.append((old, new, int(score)))
    return pairs


def document_changes(old: Package, new: Package) -> DocumentChanges:
    """What changed between the documents of ``old`` and ``new``."""
    out = DocumentChanges()
    gone = sorted(set(old.documents) - set(new.documents))
    came = sorted(set(new.documents) - set(old.documents))
    gone_bodies = {p: _body(old, p) for p in gone}
    came_bodies = {p: _body(new, p) for p in came}
    by_digest: dict[str, list[str]] = {}
    for path in came:
        by_digest.setdefault(_digest(came_bodies[path]), []).append(path)
    moves: list[tuple[str, str, int]] = []
    for path in gone:
        same = by_digest.get(_digest(gone_bodies[path]))
        if same and gone_bodies[path]:  # an empty body says nothing of who it is
            moves.append((path, same.pop(0), 100))
    paired_old = {m[0] for m in moves}
    paired_new = {m[1] for m in moves}
    moves += _near_pairs(
        {p: b for p, b in gone_bodies.items() if p not in paired_old and b},
        {p: b for p, b in came_bodies.items() if p not in paired_new and b},
    )
    out.moved = sorted(
        (_compare(old, new, a, b, score) for a, b, score in moves), key=lambda c: c.new
    )
    moved_old = {m.old for m in out.moved}
    moved_new = {m.new for m in out.moved}
    out.removed = [p for p in gone if p not in moved_old]
    out.added = [p for p in came if p not in moved_new]
    for path in sorted(set(old.documents) & set(new.documents)):
        if _same_bytes(old, new, path):
            continue
        change = _compare(old, new, path, path, 100)
        if change.fields or change.body_changed:
            out.changed.append(change)
    out.titles = {p: old.documents[p].title for p in out.removed}
    out.titles |= {p: new.documents[p].title for p in [*out.added, *moved_new]}
    return out
