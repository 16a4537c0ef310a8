"""Noticing files changed on disk by another program (an editor, ``git pull``).

Polling, not OS events: one walk with stats per poll (about 0.1 s at 10,000 documents)
works the same on every system and file system, network and container mounts included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .disk import Walk, walk


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
    state.update({f"{f}/": None for f in found.folders if f})
    for paths in (found.documents, found.indexes, found.logs, [found.skill] if found.skill else []):
        for path in paths:
            state[path] = found.stats.get(path)
    return state


class Watcher:
    """Compares the package folder with what it held at the last poll."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._state = _state(walk(root, stat=True))

    def poll(self) -> Changes:
        """The changes since the last poll (or since the watcher was made)."""
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
