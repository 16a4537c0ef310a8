"""The metadata cache: what reading each document found, keyed by path, size and mtime.

A second load of a package re-reads only the files whose size or modification time
changed. One file per package in the user cache folder (``KAS_TUI_CACHE_DIR``
overrides it). Safe against corruption (an unreadable cache is ignored and rewritten)
and against concurrent runs (each run writes a temporary file and renames it over the
old one, so readers see a whole cache or the previous one). A file modified within two
seconds of the cache being written is never trusted from it (the "racy git" rule: a
second edit in the same clock tick keeps the same mtime).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
import time
from pathlib import Path
from typing import Any

from . import __version__
from .loader import DocumentRead, Problem
from .okf.scan import BodyScan
from .store import Fingerprint
from .userdirs import RACY_NS, cache_dir

#: Bump when what a DocumentRead holds changes; old caches are then ignored.
SCHEMA = 4


class MetadataCache:
    """The cached reads of one package root."""

    def __init__(self, root: Path, *, folder: Path | None = None) -> None:
        self.root = str(Path(root).resolve())
        key = hashlib.sha256(self.root.encode()).hexdigest()[:24]
        self.path = (folder or cache_dir()) / f"meta-{key}.pickle"
        self.entries: dict[str, tuple[int, int, Any]] = {}
        self.saved_ns = 0
        self._load()

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
        return _unpack(packed)

    def save(self, reads: dict[str, tuple[int, int, Any]]) -> None:
        """Replace the cache with ``reads`` (path -> (size, mtime_ns, read)), atomically."""
        data = {
            "schema": SCHEMA,
            "version": __version__,
            "root": self.root,
            "saved_ns": time.time_ns(),
            "entries": {
                rel: (size, mtime, _pack(read)) for rel, (size, mtime, read) in reads.items()
            },
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".meta-", suffix=".tmp")
        except OSError:
            return  # a read-only cache folder must not break a check
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(data, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


# Cached reads are stored as plain tuples: pickle loads 130,000 tuples in a few
# milliseconds but needs most of a second for as many dataclass instances.


def _pack(read: Any) -> tuple:
    scan = read.scan
    packed_scan = None
    if scan is not None:
        packed_scan = (
            tuple(tuple(link) for link in scan.links),
            scan.footnotes,
            scan.footnote_definitions,
            scan.headings,
        )
    fp = read.fingerprint
    return (
        read.path,
        read.meta,
        read.has_frontmatter,
        read.body_line,
        (fp.size, fp.mtime_ns, fp.digest) if fp else None,
        tuple((p.path, p.message, p.line, p.hint, p.severity, p.code) for p in read.problems),
        packed_scan,
    )


def _unpack(packed: tuple) -> Any:
    path, meta, has_fm, body_line, fp, problems, packed_scan = packed
    scan = None
    if packed_scan is not None:
        links, footnotes, definitions, headings = packed_scan
        scan = BodyScan(
            links=links,  # (target, text, line) tuples: the shape of Link, without the cost
            footnotes=footnotes,
            footnote_definitions=definitions,
            headings=headings,
        )
    return DocumentRead(
        path,
        meta,
        has_fm,
        body_line,
        Fingerprint(*fp) if fp else None,
        [Problem(*p) for p in problems],
        scan,
    )
