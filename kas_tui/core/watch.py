"""Noticing files changed on disk by another program (an editor, ``git pull``).

The operating system reports changes (inotify, FSEvents, ReadDirectoryChangesW, through
``watchfiles``): while nothing changes, a poll reads one empty set and costs nothing at
any size. Reported files are statted alone; a file or folder that came or went makes
one walk of the package. Where events cannot be had (the library missing, a watch
limit reached, an unsupported file system), each poll walks and stats every file
instead (about 0.1 s at 10,000 documents), and ``WATCHFILES_FORCE_POLLING=1`` makes
the library poll on network mounts.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kas_tui.core.disk import Walk, is_hidden, size_mtime, walk
from kas_tui.core.fileio import special_kind


@dataclass(frozen=True)
class Changes:
    """What changed between two polls (root-relative POSIX paths)."""

    added: frozenset[str] = field(default_factory=frozenset)
    removed: frozenset[str] = field(default_factory=frozenset)
    modified: frozenset[str] = field(default_factory=frozenset)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.modified)

    @property
    def layout_changed(self) -> bool:
        """Whether files or folders came or went (a re-read of one file is not enough)."""
        return bool(self.added or self.removed)


def _state(found: Walk) -> dict[str, tuple[int, int] | None]:
    state: dict[str, tuple[int, int] | None] = {p: None for p in found.assets}
    # a named pipe or device (never opened): its coming and going is news, its finding
    state.update({p.path: None for p in found.problems if p.code == "special-file"})
    state.update({f"{f}/": None for f in found.folders if f})
    for paths in (found.documents, found.indexes, found.logs, [found.skill] if found.skill else []):
        for path in paths:
            state[path] = found.stats.get(path)
    return state


def _os_events(root: Path) -> Any:
    """A live watch of ``root`` and everything below it, or None where none can be had.

    ``watchfiles``' own watcher, made directly so the watch is in place before the first
    walk (its ``watch()`` generator starts watching only when first iterated)."""
    try:
        from watchfiles._rust_notify import RustNotify

        return RustNotify([os.path.abspath(root)], False, False, 300, True, True)
    except Exception:  # no library, no inotify slots left, an unwatchable file system
        return None


class Watcher:
    """Compares the package folder with what it held at the last poll."""

    def __init__(self, root: Path, *, events: bool = True) -> None:
        self.root = root
        self._reported: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._notify = _os_events(root) if events else None  # before the walk: nothing slips
        self._state = _state(walk(root, stat=True))
        if self._notify is not None:
            threading.Thread(target=self._listen, name="kas-tui watch", daemon=True).start()

    @property
    def uses_events(self) -> bool:
        """Whether the operating system reports changes (else each poll walks)."""
        return self._notify is not None

    def _listen(self) -> None:
        notify = self._notify
        try:
            while not self._stop.is_set():
                # debounce 50 ms, look at the stop event every 50 ms, wake every 5 s
                raw = notify.watch(50, 50, 5000, self._stop)
                if raw == "stop":
                    break
                if isinstance(raw, set) and raw:
                    with self._lock:
                        self._reported.update(path for _, path in raw)
        except Exception:  # the watch broke (a folder unmounted): walk from now on
            self._notify = None
        finally:
            notify.close()

    def close(self) -> None:
        """Stop watching (the listening thread ends within 50 ms)."""
        self._stop.set()

    def settle(self) -> None:
        """Take the folder as it is now as known: after our own writes, which are not
        news from another program. Their events, arriving later, find nothing changed."""
        with self._lock:
            self._reported.clear()
        self._rewalk()

    def poll(self) -> Changes:
        """The changes since the last poll (or since the watcher was made)."""
        if self._notify is not None:
            with self._lock:
                reported, self._reported = self._reported, set()
            if not reported:
                return Changes()
            changes = self._restat(reported)
            if changes is not None:
                return changes
        return self._rewalk()

    def _restat(self, reported: set[str]) -> Changes | None:
        """Changes among the reported paths, or None when files came or went (a walk)."""
        root = os.path.abspath(self.root)
        modified = set()
        for path in reported:
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if rel == "." or rel.startswith("../"):
                return None  # the root itself (a rescan after lost events)
            if any(map(is_hidden, rel.split("/"))):
                continue  # temporary files of atomic saves, .git
            if f"{rel}/" in self._state or os.path.isdir(path):
                return None
            if rel not in self._state:
                if os.path.lexists(path):
                    return None  # a new file
                continue  # came and went between polls
            try:
                st = os.stat(path)
            except OSError:
                return None  # gone
            if special_kind(st.st_mode) is not None:
                return None  # a file became a pipe or device: a walk says so
            old, now = self._state[rel], size_mtime(st)
            if old is not None and old != now:
                self._state[rel] = now
                modified.add(rel)
        return Changes(modified=frozenset(modified))

    def _rewalk(self) -> Changes:
        state = _state(walk(self.root, stat=True))
        old = self._state
        self._state = state
        if state == old:
            return Changes()
        return Changes(
            added=frozenset(state.keys() - old.keys()),
            removed=frozenset(old.keys() - state.keys()),
            modified=frozenset(p for p in state.keys() & old.keys() if state[p] != old[p]),
        )
