"""A :class:`~.compare.Diff` as a list a screen shows: one row per change, grouped, each
naming the file (and line) to open and the lines that say what changed.

The TUI's diff view lists these; Enter opens the row's file. A row of something the
change removed names the file where it was (opening it may find nothing: it is gone).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kas_tui.features.diff.compare import Diff
from kas_tui.features.diff.documents import DocumentChange, FieldChange
from kas_tui.features.diff.render import changed_costs, entry_verb, signed

#: the groups, in the order the view shows them: (id, heading)
GROUPS = (
    ("findings", "Findings"),
    ("documents", "Documents"),
    ("entries", "Index entries"),
    ("catalog", "Catalog entry"),
    ("links", "Links"),
    ("tokens", "Token cost"),
)


@dataclass(frozen=True)
class Row:
    """One change: its group, a mark (``+ - → ~ !``), a one-line summary, the file to
    open (and line), and the detail lines."""

    group: str
    mark: str
    summary: str
    path: str
    line: int | None = None
    detail: tuple[str, ...] = field(default_factory=tuple)


def _field(change: FieldChange) -> str:
    if change.before is None:
        return f"{change.name}: added: {change.after}"
    if change.after is None:
        return f"{change.name}: removed (was {change.before})"
    return f"{change.name}: {change.before} → {change.after}"


def _changes(change: DocumentChange) -> tuple[str, ...]:
    lines = [_field(f) for f in change.fields]
    if change.body_changed:
        lines.append(f"body: +{change.lines_added:,} −{change.lines_removed:,} lines")
    return tuple(lines)


def diff_rows(diff: Diff) -> list[Row]:
    """Every change of ``diff`` as a :class:`Row`, group by group (see :data:`GROUPS`)."""
    rows: list[Row] = []
    for f in diff.findings.new:
        rows.append(
            Row(
                "findings",
                "!",
                f"new {f.code} {f.severity}: {f.message}",
                f.path,
                f.line,
                (f.hint,),
            )
        )
    for f in diff.findings.fixed:
        rows.append(Row("findings", "✓", f"fixed {f.code}: {f.message}", f.path, None))
    d = diff.documents
    rows += [Row("documents", "+", f"added: {d.titles.get(p, '')}", p) for p in d.added]
    rows += [Row("documents", "-", f"removed: {d.titles.get(p, '')}", p) for p in d.removed]
    for m in d.moved:
        how = "same body" if m.likeness == 100 else f"body {m.likeness}% alike"
        rows.append(Row("documents", "→", f"moved from {m.old} ({how})", m.new, None, _changes(m)))
    for c in d.changed:
        rows.append(Row("documents", "~", "changed", c.new, None, _changes(c)))
    for e in diff.indexes.entries:
        place = e.after or e.before
        assert place is not None
        verb = entry_verb(e)
        detail = []
        if e.moved and e.before and e.after:
            detail.append(f"from {e.before.index} · {e.before.section_name}")
            detail.append(f"to {e.after.index} · {e.after.section_name}")
        if e.reworded:
            for name, a, b in (
                ("title", e.title_before, e.title_after),
                ("description", e.description_before, e.description_after),
            ):
                if a != b:
                    detail.append(_field(FieldChange(name, a, b)))
        mark = {"added": "+", "removed": "-"}.get(e.kind, "~")
        rows.append(
            Row(
                "entries",
                mark,
                f"{verb} [{e.title}] → {e.target}",
                e.index,
                place.line,
                tuple(detail),
            )
        )
    if diff.catalog_changed:
        a, b = diff.catalog_before, diff.catalog_after
        detail = [
            _field(FieldChange(n, x, y))
            for n, x, y in (("name", a.name, b.name), ("description", a.description, b.description))
            if x != y
        ]
        rows.append(
            Row(
                "catalog",
                "~",
                f"{b.name}: SKILL.md's name or description",
                "SKILL.md",
                None,
                tuple(detail),
            )
        )
    for group, mark, word in (
        (diff.links.broken, "!", "broken"),
        (diff.links.added, "+", "added"),
        (diff.links.removed, "-", "removed"),
        (diff.links.mended, "✓", "mended"),
    ):
        for x in group:
            rows.append(
                Row(
                    "links",
                    mark,
                    f"{word}: → {x.target}",
                    x.source,
                    x.line,
                    (f"[{x.text}]({x.href})",),
                )
            )
    for cost in changed_costs(diff):
        if cost.delta:
            path = "SKILL.md" if cost.path == "catalog entry" else cost.path
            summary = (
                f"{cost.path}: ~{cost.before:,} → ~{cost.after:,} tokens ({signed(cost.delta)})"
            )
            rows.append(Row("tokens", "~", summary, path))
    return rows
