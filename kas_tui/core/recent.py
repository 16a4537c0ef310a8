"""The packages opened lately, for the start screen: ``recent.json`` in the user data
folder, newest first, at most :data:`KEEP`, written atomically (a list of ``{"path":
..., "opened": ISO time}``). A file that cannot be read is an empty list; one that
cannot be written is skipped: remembering is a convenience, never a reason to fail."""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass
from pathlib import Path

from kas_tui.core.fileio import atomic_write, read_regular
from kas_tui.core.user_dirs import data_dir

KEEP = 12


@dataclass(frozen=True)
class Recent:
    path: str
    opened: dt.datetime

    @property
    def exists(self) -> bool:
        return os.path.isdir(self.path)


def _file() -> Path:
    return data_dir() / "recent.json"


def recent_packages() -> list[Recent]:
    """The packages opened lately, newest first."""
    try:
        data = json.loads(read_regular(_file()).decode("utf-8"))
    except (OSError, ValueError):
        return []
    found = []
    for item in data if isinstance(data, list) else []:
        try:
            found.append(Recent(str(item["path"]), dt.datetime.fromisoformat(item["opened"])))
        except (KeyError, TypeError, ValueError):
            continue
    return found


def remember(root: Path, now: dt.datetime | None = None) -> None:
    """Put ``root`` first in the list (best effort)."""
    when = now or dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    path = str(Path(root).resolve())
    items = [Recent(path, when), *(r for r in recent_packages() if r.path != path)][:KEEP]
    text = json.dumps([{"path": r.path, "opened": r.opened.isoformat()} for r in items], indent=1)
    try:
        _file().parent.mkdir(parents=True, exist_ok=True)
        atomic_write(_file(), text.encode("utf-8"))
    except OSError:
        pass
