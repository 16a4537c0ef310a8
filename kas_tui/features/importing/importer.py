"""Import files into a package: plan, preview, then write everything or nothing.

:func:`plan_import` converts the files and drafts each document without touching the
package. A file whose SHA-256 (``sources[].sha256``) or original path
(``sources[].resource``) is already in the package is planned as an update of that
document when ``update`` is allowed, and reported as already imported otherwise: an
import never makes a duplicate. :func:`preview_import` gives the diff the plans would
write and the index entries they add; :func:`write_import` writes them through the
package's store: the documents, an entry in their bundle's ``index.md`` (the index, and
the bundle's entry in its parent index, created when missing) and a ``log.md`` entry
each. When any write fails, the
ones made before it are undone and the folders created are removed.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import posixpath
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kas_tui.core.okf import index as index_fmt
from kas_tui.core.okf import index_layout
from kas_tui.core.okf import log as log_fmt
from kas_tui.core.okf.errors import EditError
from kas_tui.core.package import Package
from kas_tui.core.store import Change, ConflictError, Store, StoreError, write_atomic
from kas_tui.features.importing.convert import ConversionError, Converted, Limits, Result
from kas_tui.features.importing.draft import (
    Draft,
    draft_document,
    updated_text,
)
from kas_tui.features.importing.git_dates import date_by_commits
from kas_tui.features.importing.pool import convert_files
from kas_tui.features.importing.source_record import source_locations
from kas_tui.text import folder_summary as summary
from kas_tui.text.alike import AlikeSet
from kas_tui.text.slug import TakenNames, name_problem, names_in

#: What a plan does: write a new document, update one, or nothing (and why).
ACTIONS = ("create", "update", "unchanged", "duplicate", "failed")


class ImportFailed(Exception):
    """The import could not be written; whatever it had written was undone.

    ``conflict`` is set when the reason is a file changed on disk since it was read
    (the TUI then offers the diff of importing on top, or reloading).
    """

    def __init__(self, message: str, conflict: ConflictError | None = None) -> None:
        super().__init__(message)
        self.conflict = conflict


@dataclass
class PlannedImport:
    """What importing one file would do.

    ``action``: ``create`` (a new document at ``draft.path``), ``update`` (rewrite the
    document ``existing`` from the file), ``unchanged`` (``existing`` already holds what
    the file gives), ``duplicate`` (the file is already in the package as ``existing``
    and differs from it: :func:`confirm_update` turns the plan into an update),
    ``failed`` (``error`` says why).
    """

    source: Path
    action: str
    draft: Draft | None = None
    error: ConversionError | None = None
    existing: str | None = None
    message: str = ""

    @property
    def path(self) -> str | None:
        """The package document this file becomes (or already is)."""
        if self.existing is not None:
            return self.existing
        return self.draft.path if self.draft else None

    @property
    def writes(self) -> bool:
        return self.action in ("create", "update")


@dataclass
class ImportResult:
    """What :func:`write_import` wrote (or, in a dry run, would write)."""

    plans: list[PlannedImport]
    changes: list[Change] = field(default_factory=list)
    diff: str = ""

    @property
    def created(self) -> list[str]:
        return [p.path for p in self.plans if p.action == "create" and p.path]

    @property
    def updated(self) -> list[str]:
        return [p.path for p in self.plans if p.action == "update" and p.path]


# --- planning ------------------------------------------------------------------------------------


def bundle_of(pkg: Package, folder: str | os.PathLike[str]) -> str:
    """``folder`` (absolute, or relative to the package root) as a root-relative bundle path.

    Raises :class:`ValueError` when it lies outside the package.
    """
    path = Path(folder)
    absolute = path if path.is_absolute() else pkg.root / path
    rel = os.path.relpath(os.path.abspath(absolute), os.path.abspath(pkg.root))
    rel = Path(rel).as_posix()
    if rel == ".":
        return ""
    if rel == ".." or rel.startswith("../"):
        raise ValueError(f"{folder} is outside the package {pkg.root}")
    if any(part.startswith(".") for part in rel.split("/")):
        raise ValueError(f"{folder} is a hidden folder; packages ignore those")
    return rel


def imported_sources(pkg: Package) -> tuple[dict[str, str], dict[str, str]]:
    """(SHA-256 -> document, source file's absolute path -> document) over the
    package's ``sources``."""
    by_hash: dict[str, str] = {}
    by_location: dict[str, str] = {}
    for path, doc in sorted(pkg.documents.items()):
        sources = doc.meta.get("sources")
        if not isinstance(sources, list):
            continue
        for source in sources:
            if not isinstance(source, dict):
                continue
            digest = source.get("sha256")
            if isinstance(digest, str) and digest:
                by_hash.setdefault(digest, path)
            resource = source.get("resource")
            if isinstance(resource, str) and resource:
                for location in source_locations(resource, pkg.root, path):
                    by_location.setdefault(location, path)
    return by_hash, by_location


def _conversion_key(path: Path, limits: Limits | None) -> tuple | None:
    """What a conversion of ``path`` depends on, or ``None`` when it cannot be read."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (str(path.resolve()), st.st_size, st.st_mtime_ns, limits or Limits())


def plan_import(
    pkg: Package,
    files: Sequence[Path | str],
    bundle: str = "",
    *,
    type: str | None = None,
    limits: Limits | None = None,
    update: bool = False,
    workers: int | None = None,
    now: dt.datetime | None = None,
    on_result: Callable[[int, Result], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    converted: dict[tuple, Result] | None = None,
) -> list[PlannedImport]:
    """Convert ``files`` and plan their import into ``bundle`` (root-relative folder).

    Nothing is written. ``update`` allows updating the document a file was imported as
    before (otherwise such a file is planned as ``duplicate``). ``on_result(i, result)``
    is called as each file is converted (for progress); ``should_stop`` cancels.
    ``converted`` keeps conversions between calls, keyed by each file's path, size and
    modification time (and the limits): planning the same files again, into another
    bundle or with another type, converts only the files that changed.
    """
    bundle = bundle.strip("/")
    paths = [Path(f) for f in files]
    results: list[Result | None] = [None] * len(paths)
    keys = [_conversion_key(path, limits) for path in paths]
    todo: list[int] = []
    for i, key in enumerate(keys):
        known = converted.get(key) if converted is not None and key is not None else None
        if known is None:
            todo.append(i)
            continue
        results[i] = known
        if on_result is not None:
            on_result(i, known)
    fresh = [paths[i] for i in todo]
    for j, result in convert_files(fresh, limits, workers=workers, should_stop=should_stop):
        i = todo[j]
        results[i] = result
        if converted is not None and keys[i] is not None:
            converted[keys[i]] = result
        if on_result is not None:
            on_result(i, result)
    # a file checked out of git changed when its last commit did (the notes on what
    # could not be so dated are the build's: here each keeps its file time)
    date_by_commits([r for i in todo if isinstance(r := results[i], Converted)])
    by_hash, by_location = imported_sources(pkg)
    taken = TakenNames(names_in(pkg.root / bundle))  # many files, one bundle: not the square
    types = Counter(d.type for d in pkg.documents_in(bundle) if d.type)
    siblings = AlikeSet()
    seen: dict[str, Path] = {}
    plans: list[PlannedImport] = []
    for path, result in zip(paths, results, strict=True):
        if result is None:
            plans.append(_failed(path, "cancelled before it was converted"))
            continue
        if isinstance(result, ConversionError):
            plans.append(PlannedImport(path, "failed", error=result, message=result.message))
            continue
        if result.sha256 in seen:
            first = seen[result.sha256].name
            plans.append(
                PlannedImport(
                    path, "duplicate", message=f"{path.name}: same content as {first}; skipped"
                )
            )
            continue
        seen[result.sha256] = path
        location = os.path.normpath(os.path.abspath(path))
        existing = by_hash.get(result.sha256) or by_location.get(location)
        if existing is not None:
            plans.append(_plan_update(pkg, result, existing, by_hash, update, type, now))
            continue
        try:
            draft = draft_document(
                result,
                pkg,
                bundle,
                type=type,
                taken=taken,
                existing_types=types,
                siblings=siblings,
                now=now,
            )
        except (EditError, ValueError) as exc:
            plans.append(_failed(path, f"its frontmatter cannot be drafted ({exc})"))
            continue
        taken.add(draft.slug)
        siblings.add(draft.description)
        plans.append(
            PlannedImport(
                path,
                "create",
                draft=draft,
                message=f"{path.name} -> {draft.path} ({draft.type}: {draft.title})",
            )
        )
    return plans


def _failed(path: Path, why: str) -> PlannedImport:
    error = ConversionError(path, "crashed", f"{path.name}: {why}")
    return PlannedImport(path, "failed", error=error, message=error.message)


def _plan_update(
    pkg: Package,
    converted: Converted,
    existing: str,
    by_hash: dict[str, str],
    update: bool,
    type: str | None,
    now: dt.datetime | None,
) -> PlannedImport:
    path = converted.source
    same = by_hash.get(converted.sha256) == existing
    folder, stem = posixpath.split(existing[:-3])
    draft = draft_document(converted, pkg, folder, type=type, slug=stem, now=now)
    if same and existing in pkg.documents:
        try:
            unchanged = pkg.body(existing).strip() == draft.body.strip()
        except (OSError, ValueError):
            unchanged = False
        if unchanged:
            return PlannedImport(
                path,
                "unchanged",
                draft=draft,
                existing=existing,
                message=f"{path.name}: already imported as {existing}, unchanged; nothing to do",
            )
    how = (
        "same file, but the document's body differs from it (edited since?)"
        if same
        else "from an earlier version of this file"
    )
    plan = PlannedImport(
        path,
        "duplicate",
        draft=draft,
        existing=existing,
        message=f"{path.name}: already in the package as {existing} ({how}); "
        "not imported again (--yes updates that document)",
    )
    return confirm_update(plan) if update else plan


def rename(pkg: Package, plans: Sequence[PlannedImport], plan: PlannedImport, slug: str) -> str:
    """Give the document ``plan`` creates the file name ``slug`` when it is free: not taken
    in its bundle on disk nor by another new document of ``plans`` (those written).
    Returns the problem, or ``""`` when renamed."""
    draft = plan.draft
    if draft is None or plan.action != "create" or slug == draft.slug:
        return ""
    others = [
        p.draft.slug
        for p in plans
        if p is not plan and p.action == "create" and p.draft and p.draft.bundle == draft.bundle
    ]
    problem = name_problem(pkg.root, draft.bundle, slug, others)
    if problem is None:
        draft.slug = slug
    return problem or ""


def confirm_update(plan: PlannedImport) -> PlannedImport:
    """``plan`` (a ``duplicate``) turned into an update of the document it duplicates."""
    if plan.action != "duplicate" or plan.draft is None or plan.existing is None:
        return plan
    return PlannedImport(
        plan.source,
        "update",
        draft=plan.draft,
        existing=plan.existing,
        message=f"{plan.source.name} -> {plan.existing} (update: new body and source record; "
        "its title, description and type are kept)",
    )


# --- writing -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedEntry:
    """An index entry an import adds: ``line`` (as written, without its line break) in
    ``index`` (an ``index.md``'s root-relative path), listing ``path`` (a document, or a
    new bundle's folder)."""

    index: str
    path: str
    line: str


@dataclass
class ImportPreview:
    """What :func:`write_import` would write: the unified ``diff`` and the index
    ``entries`` it adds, as the whole import writes them."""

    diff: str
    entries: list[PlannedEntry] = field(default_factory=list)

    def entries_for(self, plan: PlannedImport) -> list[PlannedEntry]:
        """The entries added for ``plan``: its own, and those of the new bundles it goes
        into (none unless it creates a document)."""
        if plan.draft is None or plan.action != "create":
            return []
        path = plan.draft.path
        return [e for e in self.entries if e.path == path or path.startswith(e.path + "/")]


def preview_import(pkg: Package, plans: Sequence[PlannedImport]) -> ImportPreview:
    """The diff :func:`write_import` would make and the entries it adds; nothing is
    written."""
    from kas_tui.core.editing import pending_diff

    saved = pkg.store
    pkg.store = Store(dry_run=True)
    try:
        _write(pkg, plans, today=None, log=True, dry_run=True)
        todo = [p for p in plans if p.writes and p.draft is not None]
        entries = _added_entries(pkg, pkg.store, _listings(pkg, todo, _new_bundles(pkg, todo)))
        return ImportPreview(pending_diff(pkg, pkg.store), entries)
    finally:
        pkg.store = saved


def _added_entries(
    pkg: Package, store: Store, listings: dict[str, list[index_layout.NewEntry]]
) -> list[PlannedEntry]:
    """The entries of ``listings`` (folder -> what it lists) a dry-run ``store`` adds, in
    the order of the diff (by index path, then line)."""
    from kas_tui.core.editing import pending_files

    pending = {f.path: f for f in pending_files(pkg, store)}
    found = []
    for index_rel, folder in sorted((posixpath.join(f, "index.md"), f) for f in listings):
        if index_rel not in pending:
            continue
        before, after = pending[index_rel].before, pending[index_rel].after
        wanted = {entry.path for entry in listings[folder]}
        listed = set()
        if before is not None:
            old = index_fmt.parse_index(before)
            listed = {index_layout.resolve_entry_path(folder, e) for e in old.entries}
        for entry in index_fmt.parse_index(after).entries:
            path = index_layout.resolve_entry_path(folder, entry)
            if path in wanted and path not in listed:
                found.append(PlannedEntry(index_rel, path, entry.render().rstrip("\r\n")))
    return found


def write_import(
    pkg: Package,
    plans: Sequence[PlannedImport],
    *,
    today: dt.date | None = None,
    log: bool = True,
) -> ImportResult:
    """Write the ``create`` and ``update`` plans; everything or nothing.

    Raises :class:`ImportFailed` (after undoing what it wrote) when a write is refused:
    a file changed on disk meanwhile, a folder is read-only, ...
    """
    changes = _write(pkg, plans, today=today, log=log, dry_run=False)
    return ImportResult(list(plans), changes)


def _write(
    pkg: Package,
    plans: Sequence[PlannedImport],
    *,
    today: dt.date | None,
    log: bool,
    dry_run: bool,
) -> list[Change]:
    todo = [p for p in plans if p.writes and p.draft is not None]
    changes: list[Change] = []
    try:
        new_folders = _new_bundles(pkg, todo)
        for plan in todo:
            assert plan.draft is not None
            if plan.action == "create":
                text = plan.draft.render()
                rel = plan.draft.path
                changes += _apply(
                    pkg, rel, lambda _t, text=text: text, create=True, parents=not dry_run
                )
            else:
                rel = plan.existing or plan.draft.path
                changes += _apply(pkg, rel, lambda t, d=plan.draft: updated_text(t, d))
        listings = _listings(pkg, todo, new_folders)
        for folder in sorted(listings, key=lambda f: (-f.count("/"), f)):
            changes += _list(pkg, folder, listings[folder])
        if log:
            date = (today or dt.date.today()).isoformat()
            for plan in todo:
                kind = "Creation" if plan.action == "create" else "Update"
                message = _log_message(pkg, plan)
                changes += _apply(
                    pkg,
                    "log.md",
                    lambda t, k=kind, m=message: log_fmt.append_log_entry(t, date, k, m),
                    create=not (pkg.root / "log.md").exists(),
                )
    except (EditError, StoreError, OSError, ValueError) as exc:
        if not dry_run:
            _rollback(pkg, changes)
        where = getattr(exc, "path", None)
        raise ImportFailed(
            f"{exc if not where or str(where) in str(exc) else f'{where}: {exc}'}; nothing was imported",
            exc if isinstance(exc, ConflictError) else None,
        ) from None
    if any(c.folders for c in changes) and not dry_run:
        pkg.load()  # new folders: the package's folders and bundles change
    return changes


def _listings(
    pkg: Package, todo: Sequence[PlannedImport], new_folders: Sequence[str]
) -> dict[str, list[index_layout.NewEntry]]:
    """Folder -> the entries its index lists for ``todo``: the new documents, and the
    ``new_folders`` (bundles no index lists yet) in their parents."""
    listings: dict[str, list[index_layout.NewEntry]] = {}
    for plan in todo:
        if plan.action == "create":
            d = plan.draft
            assert d is not None
            entry = index_layout.NewEntry(d.path, d.title, d.description, d.type)
            listings.setdefault(d.bundle, []).append(entry)
    for folder in new_folders:
        title = index_layout.folder_title(posixpath.basename(folder))
        description = _folder_description(pkg, folder, todo)
        entry = index_layout.NewEntry(folder, title, description, index_layout.BUNDLE)
        listings.setdefault(posixpath.dirname(folder), []).append(entry)
    return listings


def _apply(
    pkg: Package, rel: str, transform: Any, *, create: bool = False, parents: bool = False
) -> list[Change]:
    pkg.resolve_path(rel)
    # log.md: an append, made on the text there now (other entries stay)
    expect = None if create or rel == "log.md" else pkg.fingerprint(rel)
    change = pkg.store.apply(
        pkg.root / rel, transform, expect=expect, create=create, label=rel, parents=parents
    )
    if not pkg.store.dry_run:
        pkg.reload_file(rel)
    return [change] if change is not None else []


def _new_bundles(pkg: Package, todo: Sequence[PlannedImport]) -> list[str]:
    """The bundles the plans write into that no index lists yet, outermost first (the
    folders themselves are made with the first document written into them)."""
    listed = {
        item.path for f in pkg.indexes.values() for item in f.listings if item.kind == "bundle"
    }
    wanted: list[str] = []
    for plan in todo:
        folder = plan.draft.bundle if plan.draft and plan.action == "create" else ""
        while folder:
            if folder not in wanted:
                wanted.append(folder)
            folder = posixpath.dirname(folder)
    return [f for f in sorted(wanted, key=lambda f: f.count("/")) if f not in listed]


def _list(pkg: Package, folder: str, entries: list[index_layout.NewEntry]) -> list[Change]:
    """List ``entries`` in ``folder``'s index.md (created when missing), by the one layout
    policy (:func:`kas_tui.core.okf.index_layout.list_entries`)."""
    from kas_tui.core.editing import entry_kinds, index_title

    index_rel = posixpath.join(folder, "index.md") if folder else "index.md"
    kinds = entry_kinds(pkg, deprecated=False)  # imported drafts go where the living ones are
    title = index_title(pkg, folder)
    create = pkg.indexes.get(folder) is None and not (pkg.root / index_rel).exists()
    return _apply(
        pkg,
        index_rel,
        lambda text: index_layout.list_entries(text, folder, entries, kinds, title=title),
        create=create,
    )


def _folder_description(pkg: Package, folder: str, todo: Sequence[PlannedImport]) -> str:
    docs = [(d.title, d.type) for d in pkg.documents_in(folder)]
    known = {d.path for d in pkg.documents_in(folder)}
    for plan in todo:
        if plan.draft and plan.draft.bundle == folder and plan.draft.path not in known:
            docs.append((plan.draft.title, plan.draft.type))
    subs = []
    for plan in todo:
        bundle = plan.draft.bundle if plan.draft else ""
        if bundle.startswith(folder + "/"):
            child = folder + "/" + bundle[len(folder) + 1 :].split("/")[0]
            subs.append(child)
    sub_counts = Counter(subs)
    subfolders = [
        (index_layout.folder_title(posixpath.basename(s)), n) for s, n in sub_counts.items()
    ]
    title = index_layout.folder_title(posixpath.basename(folder))
    return summary.folder_description(title, docs, subfolders)


def _log_message(pkg: Package, plan: PlannedImport) -> str:
    assert plan.draft is not None
    path = plan.existing or plan.draft.path
    doc = pkg.documents.get(path)  # an update keeps the curator's title: name it so
    title = index_fmt.escape_title(doc.title if doc is not None else plan.draft.title)
    name = plan.source.name  # written out in the log when it holds a control character
    if plan.action == "create":
        return f"Imported [{title}](/{path}) from {name}."
    return f"Re-imported [{title}](/{path}) from {name}."


def _rollback(pkg: Package, changes: list[Change]) -> None:
    """Undo ``changes`` (newest first) and remove the folders they made; best effort."""
    for change in reversed(changes):
        stack = pkg.store.undo_stack
        try:
            if stack and stack[-1] is change:
                pkg.store.undo()  # removes the folders it made too
                continue
            if change.before is None:
                change.path.unlink(missing_ok=True)
            else:
                write_atomic(change.path, change.before, expect=change.after)
        except (StoreError, OSError):
            continue
        for folder in reversed(change.folders):
            with contextlib.suppress(OSError):
                folder.rmdir()
    pkg.load()
