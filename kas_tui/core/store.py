"""The only code that writes: atomic replace, conflict detection, an undo journal.

Every write goes through :meth:`Store.apply`: read the file, check it is still what
the caller read, transform its text, and atomically replace it (temporary file in the
same folder, fsync, rename, mode kept). A transform that changes nothing writes
nothing. Each write is journalled so it can be undone and redone.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from kas_tui.core.fileio import (
    Fingerprint,
    LockTimeout,
    Staged,
    atomic_write,
    commit,
    discard,
    folder_lock,
    fsync_folder,
    os_reason,
    read_regular,
    stage,
)
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.text import decode, encode


class StoreError(Exception):
    """A write that could not happen; nothing was written."""

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = str(path)
        self.message = message


class ConflictError(StoreError):
    """The file changed on disk since it was read; it is not overwritten."""


class NotPutBack(StoreError):
    """A group failed and some steps could not be undone: the disk is not as it was."""


class ReadOnlyError(StoreError):
    """The file has no write permission for anyone (``chmod a-w``): it is kept as it is,
    as editors keep it, even where the folder would let a rename replace it (and even
    for root, whom permissions do not stop)."""


@dataclass(frozen=True)
class Change:
    """One write: the bytes before (``None`` when the file was created) and after
    (``None`` when it was removed); or a rename (``moved_from``)."""

    path: Path
    before: bytes | None = field(repr=False)
    after: bytes | None = field(repr=False)
    label: str = ""
    #: The folders that exist only for this file, outermost first: made for a created
    #: file (see ``Store.apply(parents=)``) or a rename's target, left empty by a removed
    #: one. Undo removes (or makes) them again when they are empty, redo the opposite.
    folders: tuple[Path, ...] = ()
    #: A rename: what is at ``path`` (a file, or a folder with all it holds) was at
    #: ``moved_from``; its bytes do not change (``before`` and ``after`` are ``None``).
    moved_from: Path | None = None


@dataclass(frozen=True)
class Write:
    """One file of :meth:`Store.apply_group`: ``path`` is where it is once the group's
    renames are done; it holds ``before`` now (``None``: it does not exist) and gets
    ``after`` (``None``: it is removed, and with it the empty ``folders``, outermost
    first, it leaves behind)."""

    path: Path
    before: bytes | None = field(repr=False)
    after: bytes | None = field(repr=False)
    folders: tuple[Path, ...] = ()


def read_bytes(path: Path) -> tuple[bytes, Fingerprint]:
    """Read a whole file and fingerprint it."""
    data = read_regular(path)
    return data, Fingerprint.of(path, data)


def write_atomic(path: Path, data: bytes, *, expect: bytes | None, create: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically, if the file still holds ``expect``.

    ``create=True`` expects the file not to exist. The check and the rename are one step
    for every kas-tui process (the folder's lock, see :mod:`kas_tui.core.fileio`).
    """
    path = Path(os.path.realpath(path))
    try:
        atomic_write(path, data, check=lambda: _check_unchanged(path, expect, create))
    except LockTimeout as exc:
        raise StoreError(path, f"not written: {exc.strerror}") from None
    except OSError as exc:
        raise StoreError(path, f"cannot write: {_reason(exc)}") from None


def _check_unchanged(path: Path, expect: bytes | None, create: bool) -> None:
    try:
        current = read_regular(path)
    except FileNotFoundError:
        if create:
            return
        raise ConflictError(path, "was deleted on disk since it was read; not recreated") from None
    if create:
        raise ConflictError(path, "was created on disk by another program; not overwritten")
    if current != expect:
        raise ConflictError(path, "changed on disk since it was read; reload it before saving")
    if is_read_only(path):
        raise ReadOnlyError(
            path, "is read-only: not written (make it writable, e.g. chmod u+w, to change it)"
        )


def is_read_only(path: Path | str) -> bool:
    """Whether ``path`` is a file nobody may write (no ``w`` bit at all)."""
    try:
        return not os.stat(path).st_mode & 0o222
    except OSError:
        return False


def _reason(exc: OSError) -> str:
    return os_reason(exc, writing=True)


Transform = Callable[[str | None], str]


@dataclass
class Store:
    """Applies text transforms to files atomically and keeps an undo journal."""

    undo_stack: list[Change] = field(default_factory=list)
    redo_stack: list[Change] = field(default_factory=list)
    #: A dry run computes every change but writes nothing: later edits of the same file
    #: see the pending text, and ``pending`` holds (bytes on disk, bytes it would write).
    dry_run: bool = False
    pending: dict[Path, tuple[bytes | None, bytes]] = field(default_factory=dict)
    #: What the caller's edits are based on (real path -> fingerprint), see :meth:`based_on`.
    pins: dict[str, Fingerprint] = field(default_factory=dict)

    @contextlib.contextmanager
    def based_on(self, fingerprints: Mapping[Path | str, Fingerprint]) -> Iterator[None]:
        """Within the block, a write of one of these files must find it as fingerprinted.

        An editor opened on a file says what it started from; a save then conflicts
        whenever the file changed since, even when the package's model was reloaded in
        between (live reload). The block's own writes move the pin along, so an edit of
        several fields of one file writes them one after the other.
        """
        saved = self.pins
        self.pins = {**saved, **{os.path.realpath(p): fp for p, fp in fingerprints.items()}}
        try:
            yield
        finally:
            self.pins = saved

    def apply(
        self,
        path: Path,
        transform: Transform,
        *,
        expect: Fingerprint | None = None,
        create: bool = False,
        label: str = "",
        parents: bool = False,
    ) -> Change | None:
        """Rewrite ``path`` with ``transform(text)``; return the change, or ``None``.

        ``expect`` is the fingerprint taken when the caller read the file: if the file
        changed since, :class:`ConflictError`. Without it, ``transform`` gets the text
        on disk now (an append: two of them at once both land). With ``create=True`` a
        missing file is created (``transform`` receives ``None``). The text passed to
        ``transform`` has no BOM; the BOM, if any, is put back. ``parents=True`` makes
        the missing folders of a created file, journalled with the change.

        Reading, checking, transforming and replacing happen under the folder's lock,
        so no other kas-tui process writes the file in between.
        """
        path = Path(path)
        real = os.path.realpath(path)
        expect = self.pins.get(real, expect)
        if self.dry_run:
            return self._dry_apply(path, transform, expect, create, label)
        folders: tuple[Path, ...] = ()
        if parents and create and not os.path.isdir(os.path.dirname(real)):
            folders = _make_folders(Path(os.path.dirname(real)))
        try:
            with folder_lock(os.path.dirname(real)):
                planned = self._plan(path, transform, expect, create)
                if planned is None:
                    _remove_folders(folders)
                    return None
                before, after = planned
                atomic_write(
                    real,
                    after,
                    check=lambda: _check_unchanged(Path(real), before, before is None),
                    locked=True,
                )
        except BaseException as exc:
            _remove_folders(folders)
            if isinstance(exc, LockTimeout):
                raise StoreError(path, f"not written: {exc.strerror}") from None
            if isinstance(exc, OSError):
                raise StoreError(path, f"cannot write: {_reason(exc)}") from None
            raise
        if real in self.pins:
            self.pins[real] = Fingerprint.of_bytes(after)
        change = Change(path, before, after, label, folders)
        self.undo_stack.append(change)
        self.redo_stack.clear()
        return change

    def _dry_apply(
        self, path: Path, transform: Transform, expect: Fingerprint | None, create: bool, label: str
    ) -> Change | None:
        if path in self.pending:
            original, current = self.pending[path]
            decoded = decode(current)
            after = encode(transform(decoded.text), decoded.bom)
            self.pending[path] = (original, after)
            return Change(path, current, after, label) if after != current else None
        planned = self._plan(path, transform, expect, create)
        if planned is None:
            return None
        before, after = planned
        self.pending[path] = (before, after)
        return Change(path, before, after, label)

    @staticmethod
    def _plan(
        path: Path, transform: Transform, expect: Fingerprint | None, create: bool
    ) -> tuple[bytes | None, bytes] | None:
        """The bytes on disk and the bytes to write; ``None`` when nothing changes."""
        try:
            before: bytes | None = read_regular(path)
            st = path.stat()
        except FileNotFoundError:
            if not create:
                raise ConflictError(
                    path, "no longer exists on disk; it was deleted or moved"
                ) from None
            before, st = None, None
        except OSError as exc:
            raise StoreError(path, f"cannot read: {_reason(exc)}") from None
        if before is not None and expect is not None and not expect.matches(before, st):
            raise ConflictError(path, "changed on disk since it was read; reload it before saving")
        if before is None:
            after_text, bom = transform(None), False
        else:
            try:
                decoded = decode(before)
            except FormatError as exc:
                raise StoreError(path, f"cannot edit: {exc.message}") from None
            after_text, bom = transform(decoded.text), decoded.bom
        after = encode(after_text, bom)
        return None if after == before else (before, after)

    def undo(self) -> Change | None:
        """Put back the bytes from before the last write (refused if the file moved on)."""
        if not self.undo_stack:
            return None
        change = self.undo_stack[-1]
        _revert(change)
        self.redo_stack.append(self.undo_stack.pop())
        return change

    def redo(self) -> Change | None:
        """Write again the last undone change."""
        if not self.redo_stack:
            return None
        change = self.redo_stack[-1]
        _replay(change)
        self.undo_stack.append(self.redo_stack.pop())
        return change

    # -- groups: renames and writes, all or none ----------------------------------------

    def pending_writes(self) -> list[Write]:
        """A dry run's writes, for one :meth:`apply_group`: many edits all or none are
        made on a dry-run store, then written by a real one."""
        return [Write(path, before, after) for path, (before, after) in self.pending.items()]

    def apply_group(
        self, renames: Sequence[tuple[Path, Path]], writes: Sequence[Write], *, label: str = ""
    ) -> list[Change]:
        """Rename files and folders, then write, create and remove files: all or nothing.

        Everything is checked before anything is written: each rename's source exists
        and its target does not, and each file holds ``before`` now (read where it is
        before the renames). Then the renames run in order (a target's missing folders
        are made), then the writes, each checked again under its folder's lock right
        before it lands. If a step fails, the steps done are undone, newest first, and
        the error is raised: the disk is as it was (only a :class:`NotPutBack` says
        otherwise). The changes are journalled one by one (an
        :class:`~kas_tui.core.edit_session.EditSession` undoes them as one action).
        """
        if self.dry_run:
            raise StoreError(renames[0][0] if renames else "", "a group is never dry-run")
        _check_group(renames, writes)
        done: list[Change] = []
        try:
            for source, target in renames:
                done.append(_rename(source, target, label))
            for start in range(0, len(writes), _BATCH):
                _write_batch(writes[start : start + _BATCH], label, done)
            _sync_folders(Path(os.path.realpath(c.path)).parent for c in done if not c.moved_from)
        except BaseException as exc:
            _roll_back(done, exc)
            raise
        self.undo_stack.extend(done)
        self.redo_stack.clear()
        return done

    @staticmethod
    def _swap(
        path: Path, *, have: bytes | None, want: bytes | None, folders: tuple[Path, ...] = ()
    ) -> None:
        if have is None and want is not None and folders:
            _make_folders(path.parent)  # redo of a file created in new folders
        real = Path(os.path.realpath(path))
        try:
            with folder_lock(real.parent):
                try:
                    current: bytes | None = read_regular(real)
                except FileNotFoundError:
                    current = None
                if current != have:
                    raise ConflictError(
                        path, "changed on disk since this edit; undo would overwrite it"
                    )
                if want is None:
                    real.unlink()
                else:
                    atomic_write(
                        real,
                        want,
                        check=lambda: _check_unchanged(real, have, have is None),
                        locked=True,
                    )
        except LockTimeout as exc:
            raise StoreError(path, f"not written: {exc.strerror}") from None
        except OSError as exc:
            verb = "remove" if want is None else "write"
            raise StoreError(path, f"cannot {verb}: {_reason(exc)}") from None
        if want is None:
            _remove_folders(folders)


def _revert(change: Change) -> None:
    """Undo one journalled change (refused, naming the file, if the disk moved on)."""
    if change.moved_from is not None:
        _move(change.path, change.moved_from, "undo")
        _remove_folders(change.folders)
    else:
        Store._swap(change.path, have=change.after, want=change.before, folders=change.folders)


def _replay(change: Change) -> None:
    """Redo one journalled change."""
    if change.moved_from is not None:
        made = _make_folders(change.path.parent) if change.folders else ()
        try:
            _move(change.moved_from, change.path, "redo")
        except BaseException:
            _remove_folders(made)
            raise
    else:
        Store._swap(change.path, have=change.before, want=change.after, folders=change.folders)


def _origin(path: Path, renames: Sequence[tuple[Path, Path]]) -> Path:
    """Where ``path`` (named as it is after ``renames``) is before them."""
    for source, target in reversed(renames):
        if path == target or target in path.parents:
            path = source / path.relative_to(target)
    return path


def _check_group(renames: Sequence[tuple[Path, Path]], writes: Sequence[Write]) -> None:
    """Refuse a group whose files are no longer what it was planned on."""
    for source, target in renames:
        if not os.path.lexists(source):
            raise ConflictError(source, "no longer exists on disk; nothing was written")
        if os.path.lexists(target) and not _same_entry(source, target):
            raise ConflictError(target, "exists on disk now; nothing was written")
    for write in writes:
        where = _origin(write.path, renames)
        try:
            current: bytes | None = read_regular(where)
        except FileNotFoundError:
            current = None
        except OSError as exc:
            raise StoreError(where, f"cannot read: {_reason(exc)}; nothing was written") from None
        if current != write.before:
            what = "was created" if write.before is None else "changed"
            raise ConflictError(
                where, f"{what} on disk since this change was planned; nothing was written"
            )


def _same_entry(a: Path, b: Path) -> bool:
    """Whether two names are one file (a case-only rename on a case-insensitive disk)."""
    try:
        return a != b and os.path.samefile(a, b)
    except OSError:
        return False


def _move(source: Path, target: Path, verb: str = "rename") -> None:
    """Rename ``source`` (a file or a folder) to ``target``, which must not exist.

    Both folders are locked (in a fixed order) so no kas-tui write lands in between.
    """
    folders = sorted({os.path.realpath(source.parent), os.path.realpath(target.parent)})
    try:
        with contextlib.ExitStack() as stack:
            for folder in folders:
                stack.enter_context(folder_lock(folder))
            if not os.path.lexists(source):
                raise ConflictError(source, f"no longer exists on disk; {verb} refused")
            if os.path.lexists(target) and not _same_entry(source, target):
                raise ConflictError(target, f"exists on disk now; {verb} refused")
            os.rename(source, target)
    except LockTimeout as exc:
        raise StoreError(source, f"not moved: {exc.strerror}") from None
    except OSError as exc:
        raise StoreError(source, f"cannot move to {target}: {_reason(exc)}") from None
    for folder in folders:
        fsync_folder(folder)


def _rename(source: Path, target: Path, label: str) -> Change:
    made = () if target.parent.is_dir() else _make_folders(target.parent)
    try:
        _move(source, target)
    except BaseException:
        _remove_folders(made)
        raise
    return Change(target, None, None, label, made, moved_from=source)


#: How many files of a group are staged (written and synced, in threads) at once: the
#: syncs of a batch overlap (about four times faster than one after the other), and
#: each staged file holds a file descriptor until it is put in place.
_BATCH = 64
_THREADS = 8


def _write_batch(batch: Sequence[Write], label: str, done: list[Change]) -> None:
    """Stage the new bytes of ``batch`` (in threads), then put each file in place (or
    remove it) in order, each checked under its folder's lock; ``done`` gets each
    change as it lands. What is staged but not put in place is thrown away."""
    made: dict[int, tuple[Path, ...]] = {}
    staged: dict[int, Staged] = {}
    try:
        for i, write in enumerate(batch):
            parent = Path(os.path.realpath(write.path)).parent
            if write.after is not None and not parent.is_dir():
                made[i] = _make_folders(parent)
        staged = _stage_all(batch)
        for i, write in enumerate(batch):
            done.append(_put(write, staged.pop(i, None), made.pop(i, ()), label))
    finally:
        for left in staged.values():
            discard(left)
        for folders in made.values():
            _remove_folders(folders)


def _stage_all(batch: Sequence[Write]) -> dict[int, Staged]:
    """The staged new bytes of each write of ``batch`` that is not a removal, by position;
    all or none (the first failure, in order, is raised)."""
    jobs = {i: w for i, w in enumerate(batch) if w.after is not None}
    staged: dict[int, Staged] = {}
    failed: list[tuple[int, BaseException]] = []
    with ThreadPoolExecutor(max_workers=max(1, min(_THREADS, len(jobs)))) as pool:
        futures = {i: pool.submit(stage, w.path, w.after) for i, w in jobs.items()}
        for i, future in futures.items():
            try:
                staged[i] = future.result()
            except BaseException as exc:  # noqa: BLE001 - raised below, after the clean-up
                failed.append((i, exc))
    if failed:
        for left in staged.values():
            discard(left)
        i, exc = failed[0]
        raise _store_error(batch[i].path, exc, "written") from None
    return staged


def _put(write: Write, staged: Staged | None, made: tuple[Path, ...], label: str) -> Change:
    """Put one staged write in place (or remove the file) if its file is as planned."""
    real = Path(os.path.realpath(write.path))
    if staged is None:  # a removal
        try:
            with folder_lock(real.parent):
                _check_unchanged(real, write.before, False)
                real.unlink()
        except OSError as exc:
            raise _store_error(write.path, exc, "removed") from None
        _remove_folders(write.folders)
        return Change(write.path, write.before, None, label, write.folders)
    try:
        commit(
            staged,
            check=lambda: _check_unchanged(real, write.before, write.before is None),
            durable=False,  # the folders are synced once, at the end of the group
        )
    except BaseException as exc:
        with contextlib.suppress(OSError):  # commit removes it itself, unless it never ran
            os.unlink(staged.tmp)
        raise _store_error(write.path, exc, "written") from None
    return Change(write.path, write.before, write.after, label, made)


def _store_error(path: Path, exc: BaseException, done: str) -> BaseException:
    if isinstance(exc, StoreError) or not isinstance(exc, OSError):
        return exc
    if isinstance(exc, LockTimeout):
        return StoreError(path, f"not {done}: {exc.strerror}")
    verb = "remove" if done == "removed" else "write"
    return StoreError(path, f"cannot {verb}: {_reason(exc)}")


def _sync_folders(folders: Iterable[Path]) -> None:
    """Make the renames done in ``folders`` durable, the syncs overlapping."""
    unique = set(folders)
    with ThreadPoolExecutor(max_workers=max(1, min(_THREADS, len(unique)))) as pool:
        list(pool.map(fsync_folder, unique))


def _roll_back(done: list[Change], cause: BaseException) -> None:
    """Undo ``done`` newest first after ``cause`` stopped a group; say what stayed (on a
    full disk too: with the newer steps undone, old bytes fit where new ones were staged)."""
    stuck: list[str] = []
    for change in reversed(done):
        try:
            _revert(change)
        except (StoreError, OSError) as exc:
            stuck.append(str(exc))
    if stuck:
        raise NotPutBack(
            done[0].path,
            f"{cause}; and {len(stuck)} of the {len(done)} steps already done could not be "
            f"put back: {'; '.join(stuck)}",
        ) from cause


def _make_folders(folder: Path) -> tuple[Path, ...]:
    """Make ``folder`` and its missing parents; the ones made, outermost first."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    made: list[Path] = []
    for path in reversed(missing):
        try:
            path.mkdir()
        except OSError as exc:
            _remove_folders(tuple(made))
            raise StoreError(path, f"cannot make the folder: {_reason(exc)}") from None
        made.append(path)
    return tuple(made)


def _remove_folders(folders: tuple[Path, ...]) -> None:
    """Remove ``folders`` (outermost first) innermost first, where they are empty."""
    for path in reversed(folders):
        with contextlib.suppress(OSError):
            path.rmdir()


__all__ = [
    "Change",
    "ConflictError",
    "EditError",
    "Fingerprint",
    "NotPutBack",
    "Store",
    "StoreError",
    "Write",
    "os_reason",
    "read_bytes",
    "write_atomic",
]
