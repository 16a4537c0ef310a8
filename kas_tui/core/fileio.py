"""Files, read and replaced safely: fingerprints, folder locks, atomic replace, temporaries.

Kept apart from the writer's policy (``store.py``: conflicts, the undo journal) so that
the readers (``walk``, ``loader``) import nothing that writes a package's files.

How a file is replaced (``atomic_write``), so that no reader ever sees half a file and
two kas-tui processes never overwrite each other's work:

1. Under the folder's lock, a temporary file ``.NAME.XXXXXXXX.kas-tmp`` is made beside
   the target and locked by its writer (``flock``) for as long as the writer lives.
2. The new bytes are written into it and ``fsync``-ed, and it gets the target's mode.
3. Under the folder's lock again, the caller's check runs (is the file still what the
   caller read?) and the temporary file is renamed over the target; the folder is
   ``fsync``-ed. Check and rename are one step for every process that takes the lock.

A temporary file whose writer died (``kill -9``, a power cut) is not locked by anyone:
it is removed under the folder's lock on the next write in that folder and when the
package is loaded. One a live writer holds is never touched.

The folder lock is ``flock`` on the folder itself: advisory, so it orders kas-tui's
processes (the TUI, ``check --fix``, ``import``, ``build``) among themselves. Another
program (an editor, ``git``) does not take it; against those, the check right before
the rename is what protects a change.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import pickle
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locks, the check before rename stays
    fcntl = None  # type: ignore[assignment]

#: Every temporary file kas-tui makes ends so; the walk never lists them as documents.
TEMP_SUFFIX = ".kas-tmp"
#: How long a write waits for another kas-tui process to finish its write in the folder.
LOCK_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
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

    @classmethod
    def of_bytes(cls, data: bytes) -> Fingerprint:
        """The fingerprint of exactly these bytes (matched by content alone)."""
        return cls(len(data), 0, hashlib.sha256(data).hexdigest())

    def matches(self, data: bytes, st: os.stat_result | None = None) -> bool:
        """Whether a file now holding ``data`` (stat ``st``) is the one we read."""
        if self.digest is not None:
            return len(data) == self.size and hashlib.sha256(data).hexdigest() == self.digest
        return st is not None and (self.size, self.mtime_ns) == (st.st_size, st.st_mtime_ns)


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


# -- what may be opened --------------------------------------------------------------------

#: What a file that is neither a regular file nor a folder is, in words, by file type.
_SPECIAL_KINDS = (
    (stat.S_ISFIFO, "named pipe (FIFO)"),
    (stat.S_ISSOCK, "socket"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
)


def special_kind(mode: int) -> str | None:
    """What a file of ``st_mode`` ``mode`` is when it must never be opened (a named pipe,
    a socket, a device: opening or reading one may block for ever), else ``None`` (a
    regular file or a folder)."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    for test, kind in _SPECIAL_KINDS:
        if test(mode):
            return kind
    return "special file"


def entry_kind(entry: os.DirEntry[str]) -> str | None:
    """:func:`special_kind` of a listed entry, following a symlink: ``None`` for a
    regular file or a folder, told by the listing itself (no system call); for anything
    else, what it is. ``None`` too when it vanished meanwhile."""
    try:
        if entry.is_file() or entry.is_dir():
            return None
        return special_kind(entry.stat().st_mode)
    except OSError:
        return None


def path_kind(path: Path | str) -> str | None:
    """:func:`special_kind` of ``path`` (a symlink followed): ``None`` for a regular file,
    a folder, or nothing there (opening it then says what is wrong)."""
    try:
        return special_kind(os.stat(path).st_mode)
    except (OSError, ValueError):
        return None


class NotRegularFile(OSError):
    """``path`` is a named pipe, a socket or a device: refused, never opened or read.

    An :class:`OSError`, so every caller that reports a file it cannot read reports this
    one too; its ``strerror`` says what the file is.
    """

    def __init__(self, path: Path | str, kind: str) -> None:
        super().__init__(errno.EINVAL, f"a {kind}, not a regular file: never opened", str(path))
        self.kind = kind


def refuse_special(path: Path | str) -> None:
    """Raise :class:`NotRegularFile` when ``path`` is a pipe, socket or device."""
    kind = path_kind(path)
    if kind is not None:
        raise NotRegularFile(path, kind)


def open_regular(path: Path | str, flags: int = os.O_RDONLY, *, listed: bool = False) -> int:
    """``os.open`` for a file that must be a regular file; raises :class:`NotRegularFile`
    for anything else, and ``OSError`` as ``os.open`` does.

    The file is looked at before it is opened (one ``stat``), unless ``listed``: a
    walk's listing said it is a regular file. Either way the open does not block and
    ``fstat`` checks what was opened, so a file swapped for a pipe in between is refused
    at once, never read.
    """
    return open_regular_stat(path, flags, listed=listed)[0]


#: What :func:`open_regular` adds to the caller's flags: never block, never take a tty.
_OPEN_FLAGS = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def open_regular_stat(
    path: Path | str, flags: int = os.O_RDONLY, *, listed: bool = False
) -> tuple[int, os.stat_result]:
    """:func:`open_regular`, and the ``fstat`` of what was opened (one call, not two)."""
    if not listed:
        refuse_special(path)
    fd = os.open(path, flags | _OPEN_FLAGS)
    try:
        st = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    mode = st.st_mode
    if not stat.S_ISREG(mode):
        kind = special_kind(mode) or ("folder" if stat.S_ISDIR(mode) else None)
        if kind is not None:
            os.close(fd)
            if kind == "folder":
                raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
            raise NotRegularFile(path, kind)
    return fd, st


def read_regular(path: Path | str, *, listed: bool = False, limit: int = -1) -> bytes:
    """The bytes of a regular file (the first ``limit``, when given); a pipe, socket or
    device raises :class:`NotRegularFile` unopened (see :func:`open_regular`)."""
    fd = open_regular(path, listed=listed)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(limit)


class LockTimeout(TimeoutError):
    """Another process held a folder's lock for longer than :data:`LOCK_TIMEOUT`."""


@contextlib.contextmanager
def folder_lock(folder: Path | str, *, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold the exclusive write lock of ``folder`` (not re-entrant: take it once).

    Where the folder cannot be locked (no ``flock`` on this file system, a folder we
    may write but not read), the body runs unlocked: the caller's check before the
    rename still protects against other writers, with a window of microseconds.
    """
    fd = _open_for_lock(folder)
    if fd is None:
        yield
        return
    try:
        _acquire(fd, folder, timeout)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _open_for_lock(path: Path | str) -> int | None:
    if fcntl is None:
        return None
    try:
        return os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None


def _acquire(fd: int, folder: Path | str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        except OSError as exc:  # ENOLCK, EOPNOTSUPP: this file system cannot lock
            if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
                return
            raise
        if time.monotonic() >= deadline:
            raise LockTimeout(
                errno.ETIMEDOUT,
                f"another process kept {folder} locked for {timeout:.0f} s (a kas-tui "
                "write that hangs?); try again",
            )
        time.sleep(delay)  # waiting for another process's lock: there is nothing to poll
        delay = min(delay * 2, 0.05)


def atomic_write(
    path: Path | str,
    data: bytes | Callable[[BinaryIO], object],
    *,
    check: Callable[[], None] | None = None,
    locked: bool = False,
    durable: bool = True,
) -> None:
    """Replace ``path`` with ``data`` atomically (see the module's docstring).

    ``data`` is the bytes, or a function that writes them into the file it is given
    (a large pickle is streamed, not built in memory first). ``check`` runs under the
    folder's lock right before the rename and may raise to stop the write (nothing is
    left behind). ``locked=True`` says the caller already holds the folder's lock.
    ``durable=False`` skips the ``fsync`` calls (a cache, rebuilt when lost). The file's
    mode is kept (a new file gets the umask's). Raises :class:`OSError` when the folder
    cannot be written.
    """
    staged = stage(path, data, locked=locked, durable=durable)
    commit(staged, check=check, locked=locked, durable=durable)


@dataclass(frozen=True)
class Staged:
    """New bytes for ``path``, written (and synced) into a temporary file beside it that
    this process holds locked: steps 1 and 2 of :func:`atomic_write`, done ahead, so a
    writer of many files can sync them all at once (in threads) before it renames any."""

    path: Path
    tmp: str
    fd: int


def stage(
    path: Path | str,
    data: bytes | Callable[[BinaryIO], object],
    *,
    locked: bool = False,
    durable: bool = True,
) -> Staged:
    """Write ``data`` into a new temporary file beside ``path`` (see :func:`atomic_write`);
    :func:`commit` puts it in place, :func:`discard` throws it away. Raises
    :class:`OSError` when the folder cannot be written (nothing is left behind)."""
    path = Path(os.path.realpath(path))
    folder = path.parent
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    lock = contextlib.nullcontext if locked else lambda: folder_lock(folder)
    with lock():
        _sweep_if_changed(folder)
        fd, tmp = _make_temp(folder, path.name)
    try:
        if callable(data):
            with os.fdopen(os.dup(fd), "wb") as handle:
                data(handle)
        else:
            _write_all(fd, data)
        if durable:
            os.fsync(fd)
        os.fchmod(fd, mode)
    except BaseException:
        discard(Staged(path, tmp, fd))
        raise
    return Staged(path, tmp, fd)


def commit(
    staged: Staged,
    *,
    check: Callable[[], None] | None = None,
    locked: bool = False,
    durable: bool = True,
) -> None:
    """Put ``staged`` in its place: under the folder's lock ``check`` runs (it may raise
    to stop the write) and the temporary file is renamed over the target; then the
    folder is synced (``durable``). The temporary file is gone either way."""
    folder = staged.path.parent
    lock = contextlib.nullcontext if locked else lambda: folder_lock(folder)
    try:
        with lock():
            if check is not None:
                check()
            os.replace(staged.tmp, staged.path)
            _note_swept(folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(staged.tmp)
        raise
    finally:
        os.close(staged.fd)  # releases the temporary file's lock
    if durable:
        _fsync_dir(folder)


def append(staged: Staged, data: bytes) -> None:
    """Write more bytes at the end of a staged file (one written piece by piece)."""
    _write_all(staged.fd, data)


def discard(staged: Staged) -> None:
    """Throw a staged file away (it was never put in place)."""
    with contextlib.suppress(OSError):
        os.unlink(staged.tmp)
    with contextlib.suppress(OSError):
        os.close(staged.fd)


def fsync_folder(folder: Path | str) -> None:
    """Make the renames done in ``folder`` durable (a no-op where folders cannot be synced)."""
    _fsync_dir(Path(folder))


def save_cache_pickle(path: Path, data: object) -> bool:
    """Pickle ``data`` into a cache file atomically; ``False`` when the folder refuses.

    For kas-tui's own caches (metadata, remembered reports): no fsync (a lost cache is
    rebuilt), and an unwritable cache folder never breaks the command using it.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(
            path,
            lambda handle: pickle.dump(data, handle, protocol=pickle.HIGHEST_PROTOCOL),
            durable=False,
        )
    except OSError:
        return False
    return True


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _make_temp(folder: Path, name: str) -> tuple[int, str]:
    """A new temporary file beside ``name``, locked by this process until it is closed."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=TEMP_SUFFIX, dir=folder)
    if fcntl is not None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd, tmp


def is_temp_name(name: str) -> bool:
    """Whether ``name`` is one of kas-tui's temporary files."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


# -- stale temporary files ---------------------------------------------------------------

#: Folder -> its mtime after this process last swept it (or renamed into it): a folder
#: nobody else wrote in since cannot hold a new stale temporary file.
_swept: dict[Path, int] = {}


def _sweep_if_changed(folder: Path) -> None:
    """Remove the folder's stale temporaries, unless nobody wrote in it since we looked."""
    try:
        mtime = os.stat(folder).st_mtime_ns
    except OSError:
        return
    if _swept.get(folder) == mtime:
        return
    try:
        names = [e.name for e in os.scandir(folder) if is_temp_name(e.name) and is_plain_file(e)]
    except OSError:
        return
    _remove_unlocked(folder / name for name in names)
    _note_swept(folder)


def is_plain_file(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a regular file, not a symlink (told by the listing)."""
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _note_swept(folder: Path) -> None:
    with contextlib.suppress(OSError):
        _swept[folder] = os.stat(folder).st_mtime_ns


def remove_stale_temps(paths: Iterable[Path | str]) -> list[Path]:
    """Remove the temporary files among ``paths`` that no live process holds; say which.

    For the loader, which finds them while walking. Each folder is locked while its
    files are looked at, so none is removed between a writer making it and locking it.
    """
    by_folder: dict[Path, list[Path]] = {}
    for path in paths:
        path = Path(path)
        if is_temp_name(path.name):
            by_folder.setdefault(path.parent, []).append(path)
    removed: list[Path] = []
    for folder, found in by_folder.items():
        try:
            with folder_lock(folder, timeout=1.0):
                removed.extend(_remove_unlocked(found))
        except (OSError, LockTimeout):
            continue  # busy or not ours to clean: the next write there tries again
    return removed


def _remove_unlocked(paths: Iterable[Path]) -> list[Path]:
    """Remove each file no process holds a lock on (its writer died); the caller holds
    the folder's lock, so no writer is between making a file and locking it."""
    removed = []
    for path in paths:
        try:
            fd = os.open(
                path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
            )
        except OSError:
            continue
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                continue  # a pipe named like one of ours: not ours, never read
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    continue  # a live writer holds it
            with contextlib.suppress(OSError):
                os.unlink(path)
                removed.append(path)
        finally:
            os.close(fd)
    return removed


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
