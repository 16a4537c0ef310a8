"""Where served sessions are logged, and finding them again.

Logs go to ``sessions/`` in the user data folder unless ``serve --log-dir`` names
another folder; such a folder is remembered (``session-folders.json`` in the user data
folder, the most recent first, at most :data:`MAX_REMEMBERED`), so the replay screen
(``R``) lists the sessions of every folder a server logged to.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from kas_tui.core.fileio import os_reason, read_regular
from kas_tui.core.store import StoreError, write_atomic
from kas_tui.core.user_dirs import data_dir

#: How many ``--log-dir`` folders are remembered.
MAX_REMEMBERED = 20


def sessions_dir() -> Path:
    """Where served sessions are logged unless ``--log-dir`` says otherwise."""
    return data_dir() / "sessions"


def _remembered_file() -> Path:
    return data_dir() / "session-folders.json"


def _read_remembered() -> tuple[list[str], bytes | None]:
    try:
        data = read_regular(_remembered_file())
    except OSError:
        return [], None
    try:
        folders = json.loads(data.decode("utf-8"))
    except ValueError:
        return [], data
    if not isinstance(folders, list):
        return [], data
    return [f for f in folders if isinstance(f, str) and os.path.isabs(f)], data


def remember_log_dir(folder: Path) -> str:
    """Remember ``folder`` as one sessions are logged to; ``''``, or why it could not be."""
    path = str(Path(folder).resolve())
    if Path(path) == sessions_dir().resolve():
        return ""
    problem = ""
    for _ in range(3):  # another server may remember its folder at the same moment
        folders, current = _read_remembered()
        if folders[:1] == [path]:
            return ""
        kept = [path] + [f for f in folders if f != path][: MAX_REMEMBERED - 1]
        try:
            _remembered_file().parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps(kept, indent=2, ensure_ascii=False) + "\n"
            write_atomic(
                _remembered_file(), text.encode("utf-8"), expect=current, create=current is None
            )
            return ""
        except StoreError as exc:
            problem = str(exc)
        except OSError as exc:
            problem = f"{_remembered_file()}: {os_reason(exc, writing=True)}"
    return problem


def log_dirs() -> list[Path]:
    """The folders served sessions may be in: the default one, then the remembered
    ``--log-dir`` folders, most recent first."""
    found = [sessions_dir()]
    for folder in _read_remembered()[0]:
        if Path(folder) not in found:
            found.append(Path(folder))
    return found


def recent_sessions(name: str, folder: Path | None = None, limit: int = 20) -> list[Path]:
    """The logged sessions of package ``name``, newest first (at most ``limit``), from
    ``folder``, or from every folder of :func:`log_dirs`."""
    found: list[tuple[float, str, Path]] = []
    for where in [folder] if folder is not None else log_dirs():
        try:
            for path in where.glob(f"{name}-*.jsonl"):
                if path.is_file():
                    found.append((path.stat().st_mtime, path.name, path))
        except OSError:
            continue
    found.sort(reverse=True)
    return [path for _, _, path in found[:limit]]
