"""Where kas-tui keeps its own files, and when a remembered file stat can be trusted."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

#: A file modified within this many nanoseconds of a cache being written is never
#: trusted from it (the "racy git" rule: a second edit in the same clock tick keeps the
#: same mtime).
RACY_NS = 2_000_000_000


def cache_dir() -> Path:
    """The user cache folder (``KAS_TUI_CACHE_DIR`` overrides it)."""
    override = os.environ.get("KAS_TUI_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("kas-tui", appauthor=False))


def package_cache_file(root: Path, kind: str, suffix: str, folder: Path | None = None) -> Path:
    """The cache file of kind ``kind`` for the package at ``root``: one per package and
    kind in the user cache folder (or ``folder``), named by a digest of the resolved root."""
    key = hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:24]
    return (folder or cache_dir()) / f"{kind}-{key}{suffix}"


def data_dir() -> Path:
    """The user data folder (``KAS_TUI_DATA_DIR`` overrides it): the demo's writable copy."""
    override = os.environ.get("KAS_TUI_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("kas-tui", appauthor=False))


def config_dir() -> Path:
    """The user config folder (``KAS_TUI_CONFIG_DIR`` overrides it): settings.json."""
    override = os.environ.get("KAS_TUI_CONFIG_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("kas-tui", appauthor=False))
