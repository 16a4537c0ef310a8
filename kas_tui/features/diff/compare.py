"""A diff made for reviewers: what an agent will see differently after a change.

:func:`compare_packages` compares two loaded packages; :func:`diff_folders` loads two
folders, :func:`diff_since` a package's folder and the same folder at a git revision
(:mod:`.revision`). The parts have a module each: documents (:mod:`.documents`), index
entries and index costs (:mod:`.indexes`), links (:mod:`.links`), findings
(:mod:`.findings`); here are the catalog entry (SKILL.md's name and description as the
agent's system prompt holds them, :mod:`kas_tui.features.agent.skill_catalog`) and the
:class:`Diff` that holds them all, with its JSON. The text and Markdown are
:mod:`.render`'s.

The old side's catalog entry is rendered with the new side's location, so its token
count changes only with the name and description (the old side of ``--since`` is read
in a temporary folder).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kas_tui import __version__
from kas_tui.core.package import Package
from kas_tui.features.agent.skill_catalog import CatalogEntry, catalog_entry
from kas_tui.features.check.run import CheckOptions
from kas_tui.features.diff.documents import DocumentChanges, document_changes
from kas_tui.features.diff.findings import FindingChanges, finding_changes, finding_json
from kas_tui.features.diff.indexes import IndexChanges, index_changes
from kas_tui.features.diff.links import LinkChanges, link_changes
from kas_tui.features.diff.revision import package_at
from kas_tui.features.diff.sides import load, load_old_side

SCHEMA_VERSION = 1
#: what ``--fail-on`` accepts, and the severities each fails on
FAIL_ON = {"new-errors": ("error",), "new-warnings": ("error", "warning")}


@dataclass
class Diff:
    """Everything :func:`compare_packages` found (see the module docstring)."""

    package: str
    before: str
    after: str
    options: CheckOptions
    catalog_before: CatalogEntry
    catalog_after: CatalogEntry
    documents: DocumentChanges = field(default_factory=DocumentChanges)
    indexes: IndexChanges = field(default_factory=IndexChanges)
    links: LinkChanges = field(default_factory=LinkChanges)
    findings: FindingChanges = field(default_factory=FindingChanges)
    seconds: float = 0.0

    @property
    def catalog_changed(self) -> bool:
        a, b = self.catalog_before, self.catalog_after
        return (a.name, a.description, a.discoverable) != (b.name, b.description, b.discoverable)

    @property
    def empty(self) -> bool:
        """Whether the change changes nothing this diff reports."""
        d, links = self.documents, self.links
        return not (
            d.added or d.removed or d.moved or d.changed or self.indexes.entries
            or any(c.delta for c in self.indexes.costs) or self.catalog_changed
            or links.added or links.removed or links.broken or links.mended
            or self.findings.new or self.findings.fixed
        )  # fmt: skip

    def fails(self, fail_on: str | None) -> bool:
        """Whether ``--fail-on fail_on`` fails on this change."""
        if not fail_on:
            return False
        severities = FAIL_ON[fail_on]
        return any(f.severity in severities for f in self.findings.new)

    def summary(self) -> dict[str, int]:
        d, i, links, f = self.documents, self.indexes, self.links, self.findings
        return {
            "documents_added": len(d.added),
            "documents_removed": len(d.removed),
            "documents_moved": len(d.moved),
            "documents_changed": len(d.changed),
            "entries_added": i.count("added"),
            "entries_removed": i.count("removed"),
            "entries_reworded": i.count("reworded"),
            "entries_moved": i.count("moved"),
            "links_added": len(links.added),
            "links_removed": len(links.removed),
            "links_broken": len(links.broken),
            "links_mended": len(links.mended),
            "catalog_tokens_delta": self.catalog_after.tokens - self.catalog_before.tokens,
            "index_tokens_delta": sum(c.delta for c in i.costs),
            "new_errors": f.count("new", "error"),
            "new_warnings": f.count("new", "warning"),
            "new_infos": f.count("new", "info"),
            "fixed_findings": len(f.fixed),
        }

    def to_json(self) -> dict[str, Any]:
        d = self.documents

        def entry(e: CatalogEntry) -> dict[str, Any]:
            return {
                "name": e.name,
                "description": e.description,
                "discoverable": e.discoverable,
                "tokens": e.tokens,
            }

        return {
            "tool": "kas-tui",
            "version": __version__,
            "schema": SCHEMA_VERSION,
            "package": self.package,
            "before": self.before,
            "after": self.after,
            "profile": self.options.profile,
            "today": self.options.today.isoformat(),
            "summary": self.summary(),
            "documents": {
                "added": [{"path": p, "title": d.titles.get(p, "")} for p in d.added],
                "removed": [{"path": p, "title": d.titles.get(p, "")} for p in d.removed],
                "moved": [m.to_json() for m in d.moved],
                "changed": [c.to_json() for c in d.changed],
            },
            "index_entries": [e.to_json() for e in self.indexes.entries],
            "tokens": {
                "catalog_entry": {
                    "before": self.catalog_before.tokens,
                    "after": self.catalog_after.tokens,
                },
                "indexes": [
                    {"path": c.path, "before": c.before, "after": c.after, "delta": c.delta}
                    for c in self.indexes.costs
                ],
            },
            "catalog_entry": {
                "changed": self.catalog_changed,
                "before": entry(self.catalog_before),
                "after": entry(self.catalog_after),
            },
            "links": {
                name: [link.to_json() for link in getattr(self.links, name)]
                for name in ("added", "removed", "broken", "mended")
            },
            "findings": {
                "before": self.findings.before,
                "after": self.findings.after,
                "new": [finding_json(f) for f in self.findings.new],
                "fixed": [finding_json(f) for f in self.findings.fixed],
            },
            "seconds": round(self.seconds, 3),
        }


def compare_packages(
    old: Package, new: Package, options: CheckOptions, *, before: str, after: str
) -> Diff:
    """What changed from ``old`` to ``new`` (``before``/``after``: how to name them)."""
    started = time.perf_counter()
    location = new.root / "SKILL.md"
    diff = Diff(
        new.name,
        before,
        after,
        options,
        catalog_entry(old, location),
        catalog_entry(new, location),
    )
    diff.documents = document_changes(old, new)
    renames = diff.documents.renames
    diff.indexes = index_changes(old, new, renames)
    diff.links = link_changes(old, new, renames)
    diff.findings = finding_changes(old, new, renames, options)
    diff.seconds = time.perf_counter() - started + old.load_seconds + new.load_seconds
    return diff


def diff_folders(old: Path, new: Path, options: CheckOptions) -> Diff:
    """The diff from the package at ``old`` to the one at ``new`` (both package roots)."""
    a, b = load(old, cache=True), load(new, cache=True)
    return compare_packages(a, b, options, before=str(old), after=str(new))


def diff_since(root: Path, rev: str, options: CheckOptions) -> Diff:
    """The diff from the package at ``root`` as git revision ``rev`` held it to its
    folder now (raises :class:`~.revision.RevisionError` when ``rev`` cannot be read)."""
    started = time.perf_counter()
    with package_at(root, rev) as revision:
        read = time.perf_counter() - started
        b = load(root, cache=True)
        a = load_old_side(revision.folder, revision.digests, b)
        diff = compare_packages(a, b, options, before=revision.label, after="working tree")
    diff.seconds += read
    return diff
