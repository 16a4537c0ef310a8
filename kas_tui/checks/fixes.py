"""Safe fixes: add what is missing, never delete or reword what a curator wrote.

Each fix goes through the lossless editing API: list unlisted documents and bundles
(creating ``index.md`` where missing, in the section matching the document's type or a
default one), fill an entry's empty description from its document, create ``log.md``,
and record the run as one log entry. A dry run computes the same edits in memory and
returns their unified diff.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from collections import Counter
from dataclasses import dataclass, field

from .. import editing
from ..package import IndexFile, Package
from ..store import Store
from .model import Finding, Report

FIXABLE = ("KAS030", "KAS031", "KAS032", "KAS033", "KAS035")


@dataclass
class FixOutcome:
    """What a fix run did (or, in a dry run, would do)."""

    fixed: list[Finding] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    diff: str = ""


def plural(word: str) -> str:
    """An English plural good enough for section headings (Runbook -> Runbooks)."""
    lower = word.lower()
    if word.isupper():
        return word + "s"
    if lower.endswith("y") and lower[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    if lower.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def _section_for(
    pkg: Package, index: IndexFile | None, doc_type: str, is_bundle: bool
) -> str | None:
    """The section an entry goes in: one whose documents share its type, or a default."""
    if index is None:
        return None
    by_section: dict[str | None, Counter] = {}
    for item in index.listings:
        kind = "\0bundle" if item.kind == "bundle" else None
        if item.kind == "document":
            kind = pkg.documents[item.path].type
        by_section.setdefault(item.entry.section, Counter())[kind] += 1
    want = "\0bundle" if is_bundle else doc_type
    best = [s for s, types in by_section.items() if types and types.most_common(1)[0][0] == want]
    if best:
        return best[0]
    names = {s.title.lower(): s.title for s in index.index.sections}
    if is_bundle and index.index.sections:
        return names.get("bundles", "Bundles")  # a section of its own, not under a type
    if doc_type and not is_bundle:  # a section named after the type ("Runbook", "Runbooks")
        for candidate in (doc_type.lower(), plural(doc_type).lower()):
            if candidate in names:
                return names[candidate]
    # Otherwise the index's main section: the one listing the most documents.
    documents = {s: sum(n for k, n in c.items() if k != "\0bundle") for s, c in by_section.items()}
    return max(documents, key=lambda s: documents[s]) if documents else None


def _new_index_section(pkg: Package, folder: str, doc_type: str, is_bundle: bool) -> str | None:
    """Sections of a new index: by type when the folder mixes types, else one heading."""
    types = {d.type for d in pkg.documents_in(folder) if d.type}
    if len(types) <= 1:
        return None
    return "Bundles" if is_bundle else plural(doc_type or "Document")


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
    """
    outcome = FixOutcome()
    wanted = {f.code for f in report.findings if f.code in FIXABLE}
    if not wanted:
        return outcome
    saved_store = pkg.store
    if dry_run:
        pkg.store = Store(dry_run=True)
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
            listed = (
                {i.path for i in index.listings if i.kind in ("document", "bundle")}
                if index
                else set()
            )
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
            if "KAS031" in wanted or new_index:
                for doc in pkg.documents_in(folder):
                    if doc.path in listed:
                        continue
                    section = (
                        _new_index_section(pkg, folder, doc.type, False)
                        if new_index
                        else _section_for(pkg, index, doc.type, False)
                    )
                    editing.add_entry(pkg, folder, doc.path, section=section)
                    index_rel = f"{folder}/index.md" if folder else "index.md"
                    done.update({(index_rel, posixpath.basename(doc.path)), (index_rel, None)})
                    counts["document"] += 1
                    outcome.actions.append(f"listed {doc.path} in {folder or '.'}/index.md")
            if "KAS032" in wanted or new_index:
                for sub in pkg.subfolders(folder):
                    if sub in bundles and sub not in listed:
                        section = (
                            _new_index_section(pkg, folder, "", True)
                            if new_index
                            else _section_for(pkg, index, "", True)
                        )
                        editing.add_entry(
                            pkg,
                            folder,
                            sub,
                            description=_bundle_description(pkg, sub),
                            section=section,
                        )
                        index_rel = f"{folder}/index.md" if folder else "index.md"
                        done.update({(index_rel, posixpath.basename(sub) + "/"), (index_rel, None)})
                        counts["bundle"] += 1
                        outcome.actions.append(f"listed {sub}/ in {folder or '.'}/index.md")
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
        # In a dry run each edit re-read its file from the unchanged disk, so the model
        # is already what the disk says; only the store is put back.
        pkg.store = saved_store
    return outcome


def _was_fixed(finding: Finding, done: set[tuple[str, object]]) -> bool:
    """Whether a finding is one the run fixed (by its file and line, or its file)."""
    if finding.code == "KAS033":
        return (finding.path, finding.line) in done
    if finding.code in ("KAS031", "KAS032"):
        return (finding.path, finding.message.split(" ", 1)[0]) in done
    return (finding.path, None) in done


def _bundle_description(pkg: Package, folder: str) -> str:
    """A sentence on what a bundle holds, from its documents' titles."""
    titles = [d.title for d in pkg.documents_in(folder)]
    subs = [posixpath.basename(s) for s in pkg.subfolders(folder)]
    if not titles:
        return f"Sub-bundles: {', '.join(subs)}." if subs else ""
    shown = ", ".join(titles[:4]) + (f" and {len(titles) - 4} more" if len(titles) > 4 else "")
    return f"{len(titles)} document{'s' if len(titles) != 1 else ''}: {shown}."


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
