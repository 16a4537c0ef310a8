"""How the wizard words things: counts and file sizes."""

from __future__ import annotations

from pathlib import Path

from kas_tui.text.wording import counted


def plural(count: int, word: str) -> str:
    return counted(count, word)


def file_size(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError:
        return "?"
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{size / 1024:.0f} KB" if size >= 1024 else f"{size} B"


def home_short(path: Path) -> str:
    """``path`` with the home folder written ``~`` (what a title has room for)."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except (ValueError, RuntimeError):
        return str(path)
