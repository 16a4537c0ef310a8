"""Remembered check results: a check of an unchanged package reuses the last report.

A check's findings are a function of the package's files and the run's options. Each
run stamps the package from one walk (every path, and every ``.md`` file's size and
modification time) and stores its findings under that stamp and the options. A run that
finds the same stamp and options returns them without opening a file.

The memo is one small file per package root beside the metadata cache, written
atomically (a temporary file renamed over the old one) so concurrent runs never see half
a file; an unreadable memo is ignored. A file modified within two seconds of the stamp
is never trusted (the "racy git" rule: a second edit in the same clock tick keeps the
same mtime), so such a run is simply checked again.
"""

from __future__ import annotations

import hashlib
import pickle
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.core.code_stamp import code_stamp
from kas_tui.core.fileio import save_cache_pickle
from kas_tui.core.user_dirs import RACY_NS, cache_dir
from kas_tui.features.check.findings import Finding

if TYPE_CHECKING:
    from kas_tui.core.disk import Walk

#: Bump when what a memo holds changes; older memos are then ignored.
SCHEMA = 1


def stamp(found: Walk, options: dict[str, Any]) -> tuple[str, int]:
    """A digest of what ``found`` lists and the run's ``options``, and the newest mtime."""
    state = (
        SCHEMA,
        code_stamp(),
        sorted((k, repr(v)) for k, v in options.items()),
        found.skill,
        found.documents,
        found.indexes,
        found.logs,
        found.assets,
        found.folders,
        [str(p) for p in found.problems],
        sorted(found.stats.items()),
    )
    digest = hashlib.blake2b(repr(state).encode(), digest_size=20).hexdigest()
    newest = max((mtime for _, mtime in found.stats.values()), default=0)
    return digest, newest


class ReportMemo:
    """The last check report of one package root."""

    def __init__(self, root: Path, *, folder: Path | None = None) -> None:
        key = hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:24]
        self.path = (folder or cache_dir()) / f"report-{key}.pickle"

    def recall(self, digest: str) -> tuple[int, list[Finding]] | None:
        """The (documents, findings) stored under ``digest``, or ``None``."""
        try:
            with open(self.path, "rb") as handle:
                data = pickle.load(handle)
            if data["schema"] != SCHEMA or data["stamp"] != digest:
                return None
            if data["newest_ns"] >= data["saved_ns"] - RACY_NS:
                return None  # a file changed too close to the stamp to trust its mtime
            return data["documents"], [Finding(*f) for f in data["findings"]]
        except Exception:  # noqa: BLE001 - a missing or corrupt memo means: check again
            return None

    def remember(
        self, digest: str, newest_ns: int, documents: int, findings: list[Finding]
    ) -> None:
        """Store a report under ``digest`` (silently skipped if the folder is unwritable)."""
        data = {
            "schema": SCHEMA,
            "stamp": digest,
            "newest_ns": newest_ns,
            "saved_ns": time.time_ns(),
            "documents": documents,
            "findings": [(f.code, f.severity, f.path, f.line, f.message, f.hint) for f in findings],
        }
        save_cache_pickle(self.path, data)  # an unwritable cache folder is no error
