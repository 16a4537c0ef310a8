"""The only code that writes: atomic replace, conflict detection, an undo journal.

Every write goes through :meth:`Store.apply`: read the file, check it is still what
the caller read, transform its text, and atomically replace it (temporary file in the
same folder, fsync, rename, mode kept). A transform that changes nothing writes
nothing. Each write is journalled so it can be undone and redone.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .okf.errors import EditError, FormatError
from .okf.text import decode, encode


class StoreError(Exception):
    """A write that could not happen; nothing was written."""

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = str(path)
        self.message = message


class ConflictError(StoreError):
    """The file changed on disk since it was read; it is not overwritten."""


@dataclass(frozen=True)
class Fingerprint:
    """What a file looked like when it was read: size, mtime and a content digest."""

    size: int
    mtime_ns: int
    digest: str | None = None  # sha256 of the full bytes, when they were all read

    @classmethod
    def of(cls, path: Path, data: bytes | None = None) -> Fingerprint:
        st = path.stat()
        digest = hashlib.sha256(data).hexdigest() if data is not None else None
        return cls(st.st_size, st.st_mtime_ns, digest)

    def matches(self, data: bytes, st: os.stat_result) -> bool:
        """Whether a file now holding ``data`` (stat ``st``) is the one we read."""
        if self.digest is not None:
            return hashlib.sha256(data).hexdigest() == self.digest
        return (self.size, self.mtime_ns) == (st.st_size, st.st_mtime_ns)


@dataclass(frozen=True)
class Change:
    """One write: the bytes before (``None`` when the file was created) and after."""

    path: Path
    before: bytes | None = field(repr=False)
    after: bytes = field(repr=False)
    label: str = ""
    #: Folders made for a created file (outermost first, see ``Store.apply(parents=)``):
    #: undo removes them again when they are empty, redo makes them again.
    folders: tuple[Path, ...] = ()


def read_bytes(path: Path) -> tuple[bytes, Fingerprint]:
    """Read a whole file and fingerprint it."""
    data = path.read_bytes()
    return data, Fingerprint.of(path, data)


def write_atomic(path: Path, data: bytes, *, expect: bytes | None, create: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically, if the file still holds ``expect``.

    ``create=True`` expects the file not to exist. The temporary file lives in the
    same folder so the rename is atomic; the original file mode is kept.
    """
    path = Path(os.path.realpath(path))
    folder = path.parent
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".kas-tmp", dir=folder)
    except OSError as exc:
        raise StoreError(path, f"cannot write in {folder}: {_reason(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        _check_unchanged(path, expect, create)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise StoreError(path, f"cannot write: {_reason(exc)}") from None
        raise
    _fsync_dir(folder)


def _check_unchanged(path: Path, expect: bytes | None, create: bool) -> None:
    try:
        current = path.read_bytes()
    except FileNotFoundError:
        if create:
            return
        raise ConflictError(path, "was deleted on disk since it was read; not recreated") from None
    if create:
        raise ConflictError(path, "was created on disk by another program; not overwritten")
    if current != expect:
        raise ConflictError(path, "changed on disk since it was read; reload it before saving")


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def os_reason(exc: OSError, *, writing: bool = False) -> str:
    """A plain-words reason for an OS error, for messages that name the file."""
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (
            "permission denied (the file or its folder is read-only)"
            if writing
            else "permission denied"
        )
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno == errno.ELOOP:
        return "symlink loop"
    return exc.strerror or str(exc)


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
        changed since, :class:`ConflictError`. With ``create=True`` a missing file is
        created (``transform`` receives ``None``). The text passed to ``transform`` has
        no BOM; the BOM, if any, is put back. ``parents=True`` makes the missing folders
        of a created file, journalled with the change.
        """
        path = Path(path)
        if self.dry_run and path in self.pending:
            original, current = self.pending[path]
            decoded = decode(current)
            after = encode(transform(decoded.text), decoded.bom)
            self.pending[path] = (original, after)
            return Change(path, current, after, label) if after != current else None
        try:
            before: bytes | None = path.read_bytes()
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
        if after == before:
            return None
        if self.dry_run:
            self.pending[path] = (before, after)
            return Change(path, before, after, label)
        folders = _make_folders(path.parent) if parents and before is None else ()
        try:
            write_atomic(path, after, expect=before, create=before is None)
        except BaseException:
            _remove_folders(folders)
            raise
        change = Change(path, before, after, label, folders)
        self.undo_stack.append(change)
        self.redo_stack.clear()
        return change

    def undo(self) -> Change | None:
        """Put back the bytes from before the last write (refused if the file moved on)."""
        if not self.undo_stack:
            return None
        change = self.undo_stack[-1]
        self._swap(change.path, have=change.after, want=change.before, folders=change.folders)
        self.redo_stack.append(self.undo_stack.pop())
        return change

    def redo(self) -> Change | None:
        """Write again the last undone change."""
        if not self.redo_stack:
            return None
        change = self.redo_stack[-1]
        self._swap(change.path, have=change.before, want=change.after, folders=change.folders)
        self.undo_stack.append(self.redo_stack.pop())
        return change

    @staticmethod
    def _swap(
        path: Path, *, have: bytes | None, want: bytes | None, folders: tuple[Path, ...] = ()
    ) -> None:
        try:
            current: bytes | None = path.read_bytes()
        except FileNotFoundError:
            current = None
        if current != have:
            raise ConflictError(path, "changed on disk since this edit; undo would overwrite it")
        if want is None:
            try:
                path.unlink()
            except OSError as exc:
                raise StoreError(path, f"cannot remove: {_reason(exc)}") from None
            _remove_folders(folders)
        else:
            if have is None:
                _make_folders(path.parent)
            write_atomic(path, want, expect=have, create=have is None)


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
    "Store",
    "StoreError",
    "read_bytes",
    "write_atomic",
]
