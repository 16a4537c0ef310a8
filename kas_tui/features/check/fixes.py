"""Safe fixes: add what is missing, never delete or reword what a curator wrote.

Each fix goes through the lossless editing API: list unlisted documents and bundles
(by the one layout policy of :mod:`kas_tui.core.okf.index`: a missing ``index.md`` is
created whole), fill an entry's empty description from its document, create ``log.md``,
and record the run as one log entry. The edits are computed in memory first: a dry run
returns their unified diff, a real one writes all their files or none.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from collections import Counter
from dataclasses import dataclass, field

from kas_tui.core import editing
from kas_tui.core.okf import index_layout
from kas_tui.core.package import Package
from kas_tui.core.store import Store
from kas_tui.features.check.findings import Finding, Report
from kas_tui.text.folder_summary import folder_description

FIXABLE = ("KAS030", "KAS031", "KAS032", "KAS033", "KAS035")


@dataclass
class FixOutcome:
    """What a fix run did (or, in a dry run, would do)."""

    fixed: list[Finding] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    diff: str = ""


def _listed(pkg: Package, folder: str) -> set[str]:
    index = pkg.indexes.get(folder)
    return {i.path for i in index.listings if i.kind in ("document", "bundle")} if index else set()


def missing_entries(pkg: Package, folder: str) -> list[index_layout.NewEntry]:
    """The documents and sub-bundles of ``folder`` its index.md does not list (all of
    them when it has none): what ``check --fix`` and the TUI's "add missing entries" list.

    A document with no description to list it with (its frontmatter is broken, or says
    none) is left out: an entry without one would be a new error; see :func:`unlistable`.
    """
    listed = _listed(pkg, folder)
    bundles = pkg.bundles()
    entries = [
        index_layout.NewEntry(doc.path, doc.title, doc.description, doc.type)
        for doc in pkg.documents_in(folder)
        if doc.path not in listed and doc.description.strip()
    ]
    entries += [
        index_layout.NewEntry(
            sub,
            index_layout.folder_title(posixpath.basename(sub)),
            _bundle_description(pkg, sub),
            index_layout.BUNDLE,
        )
        for sub in pkg.subfolders(folder)
        if sub in bundles and sub not in listed
    ]
    return entries


def unlistable(pkg: Package, folder: str) -> list[str]:
    """The unlisted documents of ``folder`` that :func:`missing_entries` leaves out: they
    have no description to list them with until their frontmatter gives one."""
    listed = _listed(pkg, folder)
    return [
        doc.path
        for doc in pkg.documents_in(folder)
        if doc.path not in listed and not doc.description.strip()
    ]


def apply_fixes(
    pkg: Package,
    report: Report,
    *,
    today: dt.date,
    dry_run: bool = False,
    folders: set[str] | None = None,
) -> FixOutcome:
    """Fix what ``report`` found that can be fixed safely; returns what was done.

    ``folders`` limits the index fixes to those bundles (the TUI's "add missing entries").
    A fix refused or unwritable raises (``EditError``, ``StoreError``) with every file as
    it was: the fixes are written all or none.
    """
    outcome = FixOutcome()
    wanted = {f.code for f in report.findings if f.code in FIXABLE}
    if not wanted:
        return outcome
    saved_store = pkg.store
    # Every fix is made on a dry-run store first, then (unless a dry run) all its files
    # are written as one group: on a full disk, none is.
    pkg.store = staged = Store(dry_run=True)
    counts: Counter = Counter()
    done: set[tuple[str, object]] = set()  # (index path, line or name) of what was fixed
    try:
        bundles = pkg.bundles()
        for folder in sorted(bundles):
            if folders is not None and folder not in folders:
                continue
            index = pkg.indexes.get(folder)
            if index is None and "KAS030" not in wanted:
                continue
            new_index = index is None
            # Fill descriptions first: in place, so the entries' lines do not move.
            if "KAS033" in wanted and index is not None:
                for item in index.listings:
                    doc = pkg.documents.get(item.path) if item.kind == "document" else None
                    if doc and not item.entry.description.strip() and doc.description:
                        editing.set_entry(
                            pkg, index.path, item.entry.line, description=doc.description
                        )
                        done.add((index.path, item.entry.line))
                        counts["description"] += 1
                        outcome.actions.append(f"filled the entry for {doc.path} in {index.path}")
            missing = [
                e
                for e in missing_entries(pkg, folder)
                if new_index or ("KAS032" if e.is_bundle else "KAS031") in wanted
            ]
            if missing:
                editing.list_entries(pkg, folder, missing)
                index_rel = f"{folder}/index.md" if folder else "index.md"
                done.add((index_rel, None))
                for entry in missing:
                    name = posixpath.basename(entry.path) + ("/" if entry.is_bundle else "")
                    done.add((index_rel, name))
                    counts["bundle" if entry.is_bundle else "document"] += 1
                    shown = entry.path + ("/" if entry.is_bundle else "")
                    outcome.actions.append(f"listed {shown} in {folder or '.'}/index.md")
        log_missing = not (pkg.root / "log.md").is_file()
        if outcome.actions or ("KAS035" in wanted and log_missing):
            editing.append_log(pkg, "Update", _log_message(counts, log_missing), today=today)
            if log_missing:
                outcome.actions.append("created log.md")
                done.add(("log.md", None))
        outcome.fixed = [f for f in report.findings if f.code in wanted and _was_fixed(f, done)]
        if dry_run:
            outcome.diff = editing.pending_diff(pkg, pkg.store)
    finally:
        # Each edit of the dry run re-read its file from the unchanged disk, so the model
        # is still what the disk says; only the store is put back.
        pkg.store = saved_store
    if not dry_run:
        editing.write_pending(pkg, staged, label="check --fix")
    return outcome


def _was_fixed(finding: Finding, done: set[tuple[str, object]]) -> bool:
    """Whether a finding is one the run fixed (by its file and line, or its file)."""
    if finding.code == "KAS033":
        return (finding.path, finding.line) in done
    if finding.code in ("KAS031", "KAS032"):
        return (finding.path, finding.message.split(" ", 1)[0]) in done
    return (finding.path, None) in done


def _bundle_description(pkg: Package, folder: str) -> str:
    """A sentence on what a bundle holds: the one wording import and build use too."""
    documents = [(d.title, d.type) for d in pkg.documents_in(folder)]
    subfolders = [
        (
            index_layout.folder_title(posixpath.basename(sub)),
            sum(1 for path in pkg.documents if path.startswith(sub + "/")),
        )
        for sub in pkg.subfolders(folder)
    ]
    title = index_layout.folder_title(posixpath.basename(folder))
    return folder_description(title, documents, subfolders)


def _log_message(counts: Counter, created: bool) -> str:
    parts = []
    if counts["document"]:
        parts.append(f"listed {counts['document']} document{'s' * (counts['document'] != 1)}")
    if counts["bundle"]:
        parts.append(f"listed {counts['bundle']} bundle{'s' * (counts['bundle'] != 1)}")
    if counts["description"]:
        n = counts["description"]
        parts.append(f"filled {n} empty entry description{'s' * (n != 1)}")
    if created:
        parts.append("created this log")
    return "kas-tui check --fix " + (", ".join(parts) or "found nothing to change") + "."
