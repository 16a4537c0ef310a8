"""The lossless editing API: every change a curator or a fix makes to a package.

Each function turns one intent into a minimal text patch (``kas_tui.core.okf``), writes it
through the package's :class:`~kas_tui.core.store.Store` (atomic, conflict-checked,
journalled) and refreshes the model. A refused edit raises
:class:`~kas_tui.core.okf.errors.EditError` or :class:`~kas_tui.core.store.StoreError` and
leaves the disk untouched.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import os
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf import index as index_fmt
from kas_tui.core.okf import index_layout, yaml_patch
from kas_tui.core.okf import log as log_fmt
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.links import destination_spans, relative_link, rewrite_links, unlink
from kas_tui.core.okf.text import decode, newline_of
from kas_tui.core.package import Package
from kas_tui.core.store import Change, Fingerprint, NotPutBack, Store


def _fingerprint(pkg: Package, rel: str) -> Fingerprint | None:
    special = rel in ("SKILL.md", "log.md") or posixpath.basename(rel) == "index.md"
    if not special and rel not in pkg.documents:
        raise EditError(f"{rel} is not a document of this package", path=rel)
    return pkg.fingerprint(rel)


def _apply(
    pkg: Package,
    rel: str,
    transform: Any,
    label: str,
    *,
    create: bool = False,
    merge: bool = False,
) -> Change | None:
    """Write ``transform`` into ``rel`` if the file is still what the package read.

    ``merge=True`` applies ``transform`` to the text on disk now instead (an append to
    ``log.md``: another process's entry written meanwhile stays, and so does ours).
    """
    try:
        pkg.resolve_path(rel)
    except PermissionError as exc:
        raise EditError(str(exc), path=rel) from None
    expect = None if create or merge else _fingerprint(pkg, rel)
    try:
        change = pkg.store.apply(
            pkg.root / rel, transform, expect=expect, create=create, label=label
        )
    except EditError as exc:
        exc.path = exc.path or rel
        raise
    pkg.reload_file(rel)
    return change


# --- frontmatter -----------------------------------------------------------------------


def set_field(pkg: Package, rel: str, key: str, value: Any) -> Change | None:
    """Set frontmatter ``key`` of document (or SKILL.md) ``rel`` to ``value``."""
    return _apply(
        pkg, rel, lambda text: yaml_patch.set_field(text, key, value), f"set {key} in {rel}"
    )


def remove_field(pkg: Package, rel: str, key: str) -> Change | None:
    """Remove frontmatter ``key`` from ``rel`` (nothing is written when it is absent)."""
    return _apply(
        pkg, rel, lambda text: yaml_patch.remove_field(text, key), f"remove {key} from {rel}"
    )


def set_skill_description(pkg: Package, description: str) -> Change | None:
    """Change the ``description`` in SKILL.md's frontmatter."""
    if not description.strip():
        raise EditError("the SKILL.md description cannot be empty", path="SKILL.md")
    return set_field(pkg, "SKILL.md", "description", description.strip())


def set_frontmatter_text(pkg: Package, rel: str, yaml_text: str) -> Change | None:
    """Replace the YAML inside ``rel``'s frontmatter block with ``yaml_text`` (raw editing).

    The body and the ``---`` lines are kept byte for byte; the new YAML must parse to a
    mapping (checked before anything is written), and line endings follow the file's.
    """

    def transform(text: str) -> str:
        newline = newline_of(text)
        body_yaml = yaml_text.replace("\r\n", "\n").replace("\n", newline)
        if body_yaml and not body_yaml.endswith(newline):
            body_yaml += newline
        block = fm.find_block(text)
        if block is None:
            result = f"---{newline}{body_yaml}---{newline}{text}"
        else:
            result = text[: block.yaml_start] + body_yaml + text[block.yaml_end :]
        parsed = fm.parse(result)  # FormatError (line numbers in the file) when invalid
        if parsed is None or not isinstance(parsed.data, dict):
            raise EditError("the frontmatter must be a YAML mapping (key: value lines)", path=rel)
        return result

    return _apply(pkg, rel, _as_edit_error(transform, rel), f"edit the frontmatter of {rel}")


def set_body(pkg: Package, rel: str, body: str) -> Change | None:
    """Replace the text after ``rel``'s frontmatter (a document or SKILL.md) with ``body``.

    The frontmatter block is kept byte for byte; line endings follow the file's.
    """

    def transform(text: str) -> str:
        newline = newline_of(text)
        new_body = body.replace("\r\n", "\n").replace("\n", newline)
        block = fm.find_block(text)
        return (text[: block.end] if block else "") + new_body

    return _apply(pkg, rel, _as_edit_error(transform, rel), f"edit the body of {rel}")


def remove_link(pkg: Package, rel: str, line: int, target: str) -> Change | None:
    """Replace the inline link to ``target`` on file line ``line`` of ``rel`` by its text
    (a broken link's page keeps what it said); every other byte stays."""

    def transform(text: str) -> str:
        block = fm.find_block(text)
        start = block.end if block else 0
        body = text[start:]
        before = text.count("\n", 0, start)
        for span in destination_spans(body):
            if span.line + before == line and span.target == target:
                new = unlink(body, span)
                if new is None:
                    raise EditError(
                        f"line {line}: the link to {target} is a reference link; its "
                        "definition is shared, so edit the page to remove it",
                        path=rel,
                    )
                return text[:start] + new
        raise EditError(
            f"line {line}: no link to {target} there any more (changed on disk?)", path=rel
        )

    return _apply(pkg, rel, transform, f"remove the link to {target} from {rel}")


def retarget_link(pkg: Package, rel: str, line: int, target: str, path: str) -> Change | None:
    """Point the link to ``target`` on file line ``line`` of ``rel`` at the package's file
    ``path`` instead (written relative to ``rel``, its ``#fragment`` kept); only the
    destination's characters change."""
    fragment = target.partition("#")[2]
    new = relative_link(rel, path) + (f"#{fragment}" if fragment else "")

    def transform(text: str) -> str:
        block = fm.find_block(text)
        start = block.end if block else 0
        before = text.count("\n", 0, start)
        hit = [
            s
            for s in destination_spans(text[start:])
            if s.line + before == line and s.target == target
        ]
        if not hit:
            raise EditError(
                f"line {line}: no link to {target} there any more (changed on disk?)", path=rel
            )
        return text[:start] + rewrite_links(text[start:], lambda _: new, hit[:1])

    return _apply(pkg, rel, transform, f"point the link to {target} in {rel} at {path}")


def _as_edit_error(transform: Any, rel: str) -> Any:
    """``transform`` raising :class:`EditError` (with the file) for a format problem."""

    def wrapped(text: str) -> str:
        try:
            return transform(text)
        except FormatError as exc:
            where = f" (line {exc.line})" if exc.line else ""
            raise EditError(f"{exc.message}{where}; nothing was written", path=rel) from None

    return wrapped


# --- index.md --------------------------------------------------------------------------


def set_entry(
    pkg: Package,
    index_rel: str,
    line: int,
    *,
    title: str | None = None,
    description: str | None = None,
) -> Change | None:
    """Change the title and/or description of the entry on ``line`` of ``index_rel``."""
    return _apply(
        pkg,
        index_rel,
        lambda text: index_fmt.set_entry(text, line, title=title, description=description),
        f"edit entry on line {line} of {index_rel}",
    )


def add_entry(
    pkg: Package,
    folder: str,
    target: str,
    *,
    title: str | None = None,
    description: str | None = None,
    section: str | None = None,
) -> Change | None:
    """List ``target`` (a document path or a sub-folder) in ``folder``'s index.md.

    Title and description default to the document's own; a missing index.md is created.
    The link follows the file's style (``/``-rooted or relative).
    """
    is_bundle = target in pkg.folders
    doc = pkg.documents.get(target)
    if doc is None and not is_bundle:
        raise EditError(f"{target} is neither a document nor a folder of this package")
    if title is None:
        title = doc.title if doc else posixpath.basename(target).replace("-", " ").capitalize()
    if description is None:
        description = doc.description if doc else ""
    index_rel = posixpath.join(folder, "index.md") if folder else "index.md"
    existing = pkg.indexes.get(folder)
    rooted = bool(existing) and any(e.target.startswith("/") for e in existing.index.entries)
    if rooted:
        link = "/" + target + ("/" if is_bundle else "")
    else:
        link = relative_link(index_rel, target, folder=is_bundle)
    heading = index_title(pkg, folder)

    def transform(text: str | None) -> str:
        return index_fmt.add_entry(text, title, link, description, section=section, heading=heading)

    return _apply(
        pkg, index_rel, transform, f"list {target} in {index_rel}", create=existing is None
    )


def list_entries(pkg: Package, folder: str, entries: list[index_layout.NewEntry]) -> Change | None:
    """List ``entries`` in ``folder``'s index.md, placed by the one layout policy
    (:func:`kas_tui.core.okf.index_layout.list_entries`); a missing index.md is created whole.
    The living documents say where an entry goes (``deprecated=False``)."""
    index_rel = posixpath.join(folder, "index.md") if folder else "index.md"
    kinds = entry_kinds(pkg, deprecated=False)
    title = index_title(pkg, folder)

    def transform(text: str | None) -> str:
        return index_layout.list_entries(text, folder, entries, kinds, title=title)

    return _apply(
        pkg,
        index_rel,
        transform,
        f"list {len(entries)} entries in {index_rel}",
        create=pkg.indexes.get(folder) is None,
    )


def entry_kinds(pkg: Package, *, deprecated: bool = True) -> dict[str, str]:
    """Root-relative path -> kind (a document's type, or ``BUNDLE``) of what can be listed.

    ``deprecated=False`` leaves deprecated documents out: where a new draft goes is not
    where the retired ones of its type are kept (a "Retired" section of runbooks)."""
    kinds = {folder: index_layout.BUNDLE for folder in pkg.folders}
    kinds.update(
        (path, doc.type)
        for path, doc in pkg.documents.items()
        if deprecated or doc.status != "deprecated"
    )
    return kinds


def index_title(pkg: Package, folder: str) -> str:
    """The heading of a new index.md: the folder's name as a title (the skill's at the root)."""
    name = posixpath.basename(folder) if folder else (pkg.skill and pkg.skill.name) or pkg.name
    return index_layout.folder_title(name)


def remove_entry(pkg: Package, index_rel: str, line: int) -> Change | None:
    """Remove the entry on ``line`` of ``index_rel``; the document stays."""
    return _apply(
        pkg, index_rel, lambda text: index_fmt.remove_entry(text, line), f"unlist line {line}"
    )


def move_entry(pkg: Package, index_rel: str, line: int, offset: int) -> Change | None:
    """Move the entry on ``line`` up (``-1``) or down (``+1``) within its section."""
    return _apply(
        pkg, index_rel, lambda text: index_fmt.move_entry(text, line, offset), "move entry"
    )


# --- new files -----------------------------------------------------------------------


def create_file(pkg: Package, rel: str, text: str, *, parents: bool = False) -> Change | None:
    """Write the new file ``rel`` holding ``text``; refused when ``rel`` exists.

    ``parents=True`` makes its missing folders too (journalled: undo removes them).
    """
    try:
        pkg.resolve_path(rel)
    except PermissionError as exc:
        raise EditError(str(exc), path=rel) from None

    def transform(current: str | None) -> str:
        if current is not None:
            raise EditError("already exists; nothing was written", path=rel)
        return text

    change = pkg.store.apply(
        pkg.root / rel, transform, create=True, label=f"create {rel}", parents=parents
    )
    pkg.reload_file(rel)
    return change


# --- log.md ----------------------------------------------------------------------------


def append_log(
    pkg: Package, kind: str, message: str, *, today: dt.date | None = None
) -> Change | None:
    """Add ``* **kind**: message`` under today's date in the root log.md (created if missing)."""
    date = (today or dt.date.today()).isoformat()
    return _apply(
        pkg,
        "log.md",
        lambda text: log_fmt.append_log_entry(text, date, kind, message),
        "log entry",
        create=True,  # a missing log.md is made
        merge=True,  # entries written by another process meanwhile stay
    )


# --- previews --------------------------------------------------------------------------


@dataclass(frozen=True)
class PendingFile:
    """One file an edit would write: its root-relative ``path`` and texts."""

    path: str
    before: str | None  # None: the file is created
    after: str

    @property
    def diff(self) -> str:
        """The file's unified diff."""
        old = self.before.splitlines(keepends=True) if self.before is not None else []
        new = self.after.splitlines(keepends=True)
        a = "/dev/null" if self.before is None else f"a/{self.path}"
        return "".join(difflib.unified_diff(old, new, a, f"b/{self.path}"))

    @property
    def counts(self) -> tuple[int, int]:
        """(lines added, lines removed), as the diff shows them."""
        old = self.before.splitlines(keepends=True) if self.before is not None else []
        matcher = difflib.SequenceMatcher(None, old, self.after.splitlines(keepends=True))
        added = removed = 0
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "equal":
                removed += i2 - i1
                added += j2 - j1
        return added, removed


def preview(pkg: Package, edit: Callable[[Package], Any]) -> str:
    """The unified diff ``edit`` would make, computed without writing anything."""
    return "".join(f.diff for f in preview_files(pkg, edit))


def preview_files(pkg: Package, edit: Callable[[Package], Any]) -> list[PendingFile]:
    """The files ``edit`` would write, computed without writing anything."""
    saved = pkg.store
    pkg.store = Store(dry_run=True)
    try:
        edit(pkg)
        return pending_files(pkg, pkg.store)
    finally:
        # In a dry run each edit re-read its file from the unchanged disk, so the model
        # is already what the disk says; only the store is put back.
        pkg.store = saved


def pending_files(pkg: Package, store: Store) -> list[PendingFile]:
    """What a dry-run ``store`` would write, file by file (by path)."""
    root = pkg.root.resolve()
    return [
        PendingFile(
            path.resolve().relative_to(root).as_posix(),
            decode(before).text if before is not None else None,
            decode(after).text,
        )
        for path, (before, after) in sorted(store.pending.items())
    ]


def pending_diff(pkg: Package, store: Store) -> str:
    """The unified diff of what a dry-run ``store`` would write, file by file."""
    return "".join(f.diff for f in pending_files(pkg, store))


# --- many edits, all or nothing --------------------------------------------------------


def write_pending(pkg: Package, staged: Store, *, label: str = "") -> list[Change]:
    """Write what the edits made on the dry-run store ``staged`` would write, as one
    group: every file or none (:meth:`Store.apply_group`; on a full disk the package
    stays as it was). Journalled in the package's store; the model re-reads them."""
    writes = staged.pending_writes()
    if not writes:
        return []
    changes = pkg.store.apply_group([], writes, label=label)
    if any(c.folders for c in changes):
        pkg.load(cache=True)
    else:
        for change in changes:
            _reload(pkg, change)
    return changes


def failure_line(exc: Exception, root: Path | str) -> str:
    """Why a group of writes failed, in one line naming its file from ``root``, and that
    nothing was changed (or, when it could not all be put back, what stayed)."""
    shown = str(exc)
    where = getattr(exc, "path", None)
    if where:
        with contextlib.suppress(ValueError):
            rel = Path(where).relative_to(os.path.realpath(root)).as_posix()
            shown = shown.replace(str(where), rel, 1)
    if isinstance(exc, NotPutBack):
        return f"stopped half-way and not all of it could be undone: {shown}"
    return f"nothing was changed: {shown.removesuffix('; nothing was written')}"


# --- undo ------------------------------------------------------------------------------


def undo(pkg: Package) -> Change | None:
    """Undo the last write of this session (refused if the file changed since)."""
    change = pkg.store.undo()
    _reload(pkg, change)
    return change


def redo(pkg: Package) -> Change | None:
    """Redo the last undone write."""
    change = pkg.store.redo()
    _reload(pkg, change)
    return change


def _reload(pkg: Package, change: Change | None) -> None:
    if change is None:
        return
    if change.folders or change.moved_from is not None:
        # folders or whole files came or went: the layout changed (metadata from the cache)
        pkg.load(cache=True)
    else:
        pkg.reload_file(change.path.resolve().relative_to(pkg.root.resolve()).as_posix())
