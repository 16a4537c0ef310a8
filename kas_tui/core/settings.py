"""The user's settings, remembered between runs: ``settings.json`` in the config folder.

Only what the user chose is stored (the reviewer id for ``verified`` entries, whether
saves add a ``log.md`` entry). A missing or unreadable file means the defaults; writes
are atomic, so a crash never leaves half a file.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from kas_tui.core.fileio import atomic_write
from kas_tui.core.user_dirs import config_dir

_REVIEWER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$")


@dataclass
class Settings:
    """What kas-tui remembers for the user."""

    reviewer: str = ""  # the id after ``human:`` in verified entries, asked once
    log_edits: bool = True  # each save adds a log.md entry naming what changed

    @staticmethod
    def path() -> Path:
        return config_dir() / "settings.json"

    @classmethod
    def load(cls) -> Settings:
        """The saved settings; the defaults when there are none or they cannot be read."""
        try:
            data = json.loads(cls.path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        settings = cls()
        reviewer = data.get("reviewer")
        if isinstance(reviewer, str) and (not reviewer or _REVIEWER.match(reviewer)):
            settings.reviewer = reviewer
        if isinstance(data.get("log_edits"), bool):
            settings.log_edits = data["log_edits"]
        return settings

    def save(self) -> None:
        """Write the settings atomically (raises OSError when the folder is unwritable)."""
        path = self.path()
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(asdict(self), indent=2) + "\n"
        atomic_write(path, text.encode("utf-8"))


def valid_reviewer(text: str) -> str | None:
    """Why ``text`` cannot be a reviewer id, or ``None`` when it can."""
    if not text:
        return "enter an id such as maria.chen"
    if not _REVIEWER.match(text):
        return "letters, digits and . _ @ + - only, up to 64 characters, no spaces"
    return None
