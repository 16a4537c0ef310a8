"""The metadata cache: what reading each document found, keyed by path, size and mtime.

A second load of a package re-reads only the files whose size or modification time
changed. One file per package in the user cache folder (``KAS_TUI_CACHE_DIR``
overrides it). Safe against corruption (an unreadable cache is ignored and rewritten)
and against concurrent runs (each run writes a temporary file and renames it over the
old one, so readers see a whole cache or the previous one). A file modified within two
seconds of the cache being written is never trusted from it (the "racy git" rule: a
second edit in the same clock tick keeps the same mtime). A file whose mtime changed
but whose bytes did not (a fresh clone, a branch switch, a ``touch``) is recognised by
its content digest and served from the cache too.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import threading
import time
from pathlib import Path
from typing import Any

from . import __version__
from .fileio import save_cache_pickle
from .loader import DocumentRead
from .userdirs import RACY_NS, package_cache_file

#: Bump when what a DocumentRead holds changes; old caches are then ignored.
SCHEMA = 6


class MetadataCache:
    """The cached reads of one package root."""

    def __init__(self, root: Path, *, folder: Path | None = None) -> None:
        self.root = str(Path(root).resolve())
        self.path = package_cache_file(Path(self.root), "meta", ".pickle", folder)
        self.entries: dict[str, tuple[int, int, Any]] = {}
        self.saved_ns = 0
        self._writer = 0  # pid of a background save
        self._load()

    @staticmethod
    def exists(root: Path, *, folder: Path | None = None) -> bool:
        """Whether a cache was ever written for ``root`` (a first start has none)."""
        return package_cache_file(Path(root).resolve(), "meta", ".pickle", folder).exists()

    def _load(self) -> None:
        try:
            with open(self.path, "rb") as handle:
                data = pickle.load(handle)
            if (
                isinstance(data, dict)
                and data.get("schema") == SCHEMA
                and data.get("version") == __version__
                and data.get("root") == self.root
                and isinstance(data.get("entries"), dict)
            ):
                self.entries = data["entries"]
                self.saved_ns = int(data.get("saved_ns", 0))
        except Exception:  # noqa: BLE001 - any corruption means: no cache
            self.entries = {}

    def get(self, rel: str, size: int, mtime_ns: int, *, scan: bool) -> Any | None:
        """The cached read of ``rel`` if the file is unchanged, else ``None``."""
        entry = self.entries.get(rel)
        if entry is None or entry[0] != size or entry[1] != mtime_ns:
            return None
        if mtime_ns >= self.saved_ns - RACY_NS:
            return None
        packed = entry[2]
        if scan and packed[6] is None:
            return None
        return DocumentRead.unpack(packed)

    def get_same_bytes(self, rel: str, size: int, mtime_ns: int, *, scan: bool) -> Any | None:
        """The cached read of ``rel`` when only its modification time changed.

        A fresh clone, a branch switch or a ``touch`` gives unchanged files new mtimes;
        when the file still has the cached size, its bytes are hashed and compared with
        the digest of the cached read (the content decides, so the racy-git rule does
        not apply). A hit is kept under the new mtime for the next save.
        """
        entry = self.entries.get(rel)
        if entry is None or entry[0] != size:
            return None
        packed = entry[2]
        fingerprint = packed[4]
        if fingerprint is None or fingerprint[2] is None or (scan and packed[6] is None):
            return None
        try:
            with open(os.path.join(self.root, rel), "rb") as handle:
                data = handle.read(size + 1)
        except OSError:
            return None
        if len(data) != size or hashlib.sha256(data).hexdigest() != fingerprint[2]:
            return None
        packed = (*packed[:4], (size, mtime_ns, fingerprint[2]), *packed[5:])
        self.entries[rel] = (size, mtime_ns, packed)
        return DocumentRead.unpack(packed)

    def save(self, entries: dict[str, tuple[int, int, tuple]], *, background: bool = False) -> None:
        """Replace the cache with ``entries`` (path -> (size, mtime_ns, packed read)).

        Atomic: readers see the old cache or the new one. With ``background`` the
        pickling and writing happen in a forked process (the check goes on on the other
        core); :meth:`wait` waits for it.
        """
        if background and _may_fork():
            pid = os.fork()
            if pid:
                self._writer = pid
                return
            try:  # the child: write, then leave without running the parent's exit handlers
                self._write(entries)
            finally:
                os._exit(0)
        self._write(entries)

    def wait(self) -> None:
        """Wait for a background :meth:`save` to finish."""
        if self._writer:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self._writer, 0)
            self._writer = 0

    def _write(self, entries: dict[str, tuple[int, int, tuple]]) -> None:
        data = {
            "schema": SCHEMA,
            "version": __version__,
            "root": self.root,
            "saved_ns": time.time_ns(),
            "entries": entries,
        }
        save_cache_pickle(self.path, data)  # an unwritable cache folder is no error


def _may_fork() -> bool:
    """Whether forking is safe here: POSIX, and no other thread holding a lock."""
    return hasattr(os, "fork") and threading.active_count() == 1
