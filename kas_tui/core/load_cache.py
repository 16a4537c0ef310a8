"""The metadata cache: what reading each document found, keyed by path, size and mtime.

A second load of a package re-reads only the files whose size or modification time
changed. One file per package in the user cache folder (``KAS_TUI_CACHE_DIR``
overrides it). Safe against corruption (an unreadable cache is ignored and rewritten)
and against concurrent runs (each run writes a temporary file and renames it over the
old one, so readers see a whole cache or the previous one). A file modified within two
seconds of the cache being started is never trusted from it (the "racy git" rule: a
second edit in the same clock tick keeps the same mtime). A file whose mtime changed
but whose bytes did not (a fresh clone, a branch switch, a ``touch``) is recognised by
its content digest and served from the cache too.

The file is a stream of pickles: a header, then segments, each a list of packed reads
(:meth:`DocumentRead.pack`, which carries the path, size and mtime it was read at).
The segments are what the reading workers hand back, written as they arrive
(:class:`CacheWriter`): writing a cold cache pickles nothing twice and holds nothing
in memory. A rewrite after a few files changed copies the untouched segments of the
old file byte for byte and pickles only the rest.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import time
from pathlib import Path
from typing import Any, BinaryIO

from kas_tui.core.code_stamp import code_stamp
from kas_tui.core.fileio import Staged, append, commit, discard, read_regular, stage
from kas_tui.core.loader import DocumentRead, pickle_packed
from kas_tui.core.user_dirs import RACY_NS, package_cache_file

#: Bump when what a DocumentRead holds, or how the file is laid out, changes; old
#: caches are then ignored.
SCHEMA = 8
#: Reads per segment when this process pickles them itself (kept hits, its own reads).
SEGMENT = 1024


class MetadataCache:
    """The cached reads of one package root."""

    def __init__(self, root: Path, *, folder: Path | None = None) -> None:
        self.root = str(Path(root).resolve())
        self.path = package_cache_file(Path(self.root), "meta", ".pickle", folder)
        self.entries: dict[str, tuple] = {}  # path -> packed read
        self.saved_ns = 0
        # where each entry came from, so a rewrite can copy untouched segments
        self._file: BinaryIO | None = None
        self._spans: list[tuple[int, int]] = []  # (offset, length) of each segment
        self._members: list[list[str]] = []  # the paths each segment holds
        self._changed: set[int] = set()  # segments whose entries changed since loading
        self._segment_of: dict[str, int] = {}
        self._load()

    @staticmethod
    def exists(root: Path, *, folder: Path | None = None) -> bool:
        """Whether a cache was ever written for ``root`` (a first start has none)."""
        return package_cache_file(Path(root).resolve(), "meta", ".pickle", folder).exists()

    def _load(self) -> None:
        try:
            handle = open(self.path, "rb")  # noqa: SIM115 - kept open for a rewrite
        except OSError:
            return
        try:
            header = pickle.load(handle)
            if not (
                isinstance(header, dict)
                and header.get("schema") == SCHEMA
                and header.get("version") == code_stamp()
                and header.get("root") == self.root
            ):
                raise ValueError("another version's cache")
            saved_ns = int(header["saved_ns"])
            entries: dict[str, tuple] = {}
            offset = handle.tell()
            while handle.peek(1):
                segment = pickle.load(handle)
                end = handle.tell()
                members = []
                for packed in segment:
                    if packed[4] is None:  # a file that could not be read: read it again
                        self._changed.add(len(self._spans))  # and not copied on
                        continue
                    entries[packed[0]] = packed
                    self._segment_of[packed[0]] = len(self._spans)
                    members.append(packed[0])
                self._spans.append((offset, end - offset))
                self._members.append(members)
                offset = end
        except Exception:  # noqa: BLE001 - any corruption means: no cache
            handle.close()
            self._spans, self._members, self._segment_of, self._changed = [], [], {}, set()
            return
        self.entries, self.saved_ns, self._file = entries, saved_ns, handle

    def close(self) -> None:
        """Let go of the file loaded from (a rewrite copies from it until then)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def get(self, rel: str, size: int, mtime_ns: int, *, scan: bool) -> DocumentRead | None:
        """The cached read of ``rel`` if the file is unchanged, else ``None``."""
        packed = self.entries.get(rel)
        if packed is None:
            return None
        fingerprint = packed[4]
        if fingerprint[0] != size or fingerprint[1] != mtime_ns:
            return None
        if mtime_ns >= self.saved_ns - RACY_NS:
            return None
        if scan and packed[6] is None:
            return None
        return DocumentRead.unpack(packed)

    def get_same_bytes(
        self, rel: str, size: int, mtime_ns: int, *, scan: bool
    ) -> DocumentRead | None:
        """The cached read of ``rel`` when only its modification time changed.

        A fresh clone, a branch switch or a ``touch`` gives unchanged files new mtimes;
        when the file still has the cached size, its bytes are hashed and compared with
        the digest of the cached read (the content decides, so the racy-git rule does
        not apply). A hit is kept under the new mtime for the next save.
        """
        packed = self.entries.get(rel)
        if packed is None:
            return None
        fingerprint = packed[4]
        if fingerprint[0] != size or fingerprint[2] is None or (scan and packed[6] is None):
            return None
        try:
            data = read_regular(os.path.join(self.root, rel), listed=True, limit=size + 1)
        except OSError:
            return None
        if len(data) != size or hashlib.sha256(data).hexdigest() != fingerprint[2]:
            return None
        packed = (*packed[:4], (size, mtime_ns, fingerprint[2]), *packed[5:])
        self.entries[rel] = packed
        if rel in self._segment_of:
            self._changed.add(self._segment_of[rel])
        return DocumentRead.unpack(packed)

    def rewrite(self, keep: set[str]) -> CacheWriter | None:
        """Start the next cache: the entries of ``keep`` (paths served from this one),
        to which the reads made now are added (:meth:`CacheWriter.add`). ``None`` when
        the cache folder cannot be written (a cache is never an error).

        Call it before reading: the time it starts is what the racy-git rule measures
        against, so a file changed while it was read is not trusted next time."""
        writer = CacheWriter.start(self)
        if writer is None:
            self.close()
            return None
        try:
            copied: set[str] = set()
            run: tuple[int, int] | None = None  # adjacent untouched segments, copied at once
            for number, members in enumerate(self._members):
                if number in self._changed or not all(rel in keep for rel in members):
                    continue
                offset, length = self._spans[number]
                if run is not None and run[0] + run[1] == offset:
                    run = (run[0], run[1] + length)
                else:
                    if run is not None:
                        writer.copy(self._file, *run)
                    run = (offset, length)
                copied.update(members)
            if run is not None:
                writer.copy(self._file, *run)
            rest = [self.entries[rel] for rel in keep if rel not in copied]
            for start in range(0, len(rest), SEGMENT):
                writer.add(pickle_packed(rest[start : start + SEGMENT]))
        except BaseException:
            writer.abort()
            raise
        finally:
            self.close()
        return writer


class CacheWriter:
    """A cache file being written: a temporary file beside the cache, renamed over it by
    :meth:`finish` (readers see the old cache or the new one, never a part)."""

    def __init__(self, staged: Staged) -> None:
        self._staged: Staged | None = staged

    @classmethod
    def start(cls, cache: MetadataCache) -> CacheWriter | None:
        header = {
            "schema": SCHEMA,
            "version": code_stamp(),
            "root": cache.root,
            "saved_ns": time.time_ns(),
        }
        try:
            cache.path.parent.mkdir(parents=True, exist_ok=True)
            return cls(stage(cache.path, pickle.dumps(header), durable=False))
        except OSError:
            return None

    def add(self, segment: bytes) -> None:
        """Append one segment (what a reading worker sent, or :func:`pickle_packed`)."""
        if self._staged is None:
            return
        try:
            append(self._staged, segment)
        except OSError:  # a full disk: no cache this time
            self.abort()

    def copy(self, source: BinaryIO | None, offset: int, length: int) -> None:
        """Append ``length`` bytes of ``source`` from ``offset`` (segments kept as they are)."""
        if self._staged is None or source is None:
            return
        fd = source.fileno()
        try:
            while length:
                data = os.pread(fd, min(length, 1 << 22), offset)
                if not data:
                    raise OSError("the old cache is shorter than it was")
                append(self._staged, data)
                offset += len(data)
                length -= len(data)
        except OSError:
            self.abort()

    def finish(self) -> None:
        """Put the new cache in place."""
        if self._staged is None:
            return
        staged, self._staged = self._staged, None
        with contextlib.suppress(OSError):
            commit(staged, durable=False)

    def abort(self) -> None:
        """Throw the new cache away (the old one stays)."""
        if self._staged is not None:
            discard(self._staged)
            self._staged = None


def cached_reads(root: Path, found: Any, paths: list[str], scan: bool) -> tuple[dict, Any]:
    """The reads of ``paths`` (of the walk ``found``, with stats) the metadata cache of
    ``root`` still holds, and the writer of the next cache (``None`` when it needs
    none: nothing to read, or a part of the package, never saved alone: the full load
    that follows saves it)."""
    store = MetadataCache(root)
    try:
        hits: dict[str, Any] = {}
        retimed = False  # a hit found by content, under a new mtime the cache must learn
        for rel in paths:
            size_mtime = found.stats.get(rel)
            if size_mtime is None:
                continue
            hit = store.get(rel, *size_mtime, scan=scan)
            if hit is None:
                hit = store.get_same_bytes(rel, *size_mtime, scan=scan)
                retimed = retimed or hit is not None
            if hit is not None:
                hits[rel] = hit
        misses = len(paths) - len(hits)
        writer = None
        if paths is found.documents and (misses or retimed or len(store.entries) != len(paths)):
            writer = store.rewrite(set(hits))
    finally:
        store.close()
    return hits, writer
