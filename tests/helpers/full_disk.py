"""A real full disk for "all or nothing" tests: a small tmpfs mounted in ``tmp_path``.

``with small_disk(tmp_path) as disk:`` mounts one, as root only, and skips the test with
its reason where it cannot; :func:`fill` then takes all its space but ``leave`` bytes, so the next
writes run out of room part-way. :func:`hashes` is every file's SHA-256, to assert that
a failed run left a package byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

#: The tmpfs's size: room for a small package and a little more.
SIZE = "4m"


def _mount(where: Path) -> str:
    """Mount a tmpfs at ``where``; why not, or ""."""
    if os.name != "posix" or os.geteuid() != 0:
        return "mounting a small tmpfs (a disk that fills) needs root"
    if shutil.which("mount") is None:
        return "no mount command"
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={SIZE},mode=0755", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if done.returncode == 0:
        return ""
    said = done.stderr.strip().splitlines()
    return f"cannot mount a tmpfs: {said[0] if said else done.returncode}"


@contextmanager
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """An empty folder on its own small file system, unmounted at the end of the block."""
    where = tmp_path / "disk"
    where.mkdir()
    why = _mount(where)
    if why:
        pytest.skip(why)
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


def free_bytes(disk: Path) -> int:
    st = os.statvfs(disk)
    return st.f_bavail * st.f_frsize


def fill(disk: Path, leave: int) -> Path:
    """Take the disk's free space but ``leave`` bytes (rounded to its blocks) with one
    file outside the package; returns that file (removing it frees the space again)."""
    filler = disk / "filler"
    with open(filler, "wb") as handle:
        handle.write(b"\0" * max(0, free_bytes(disk) - leave))
    return filler


def hashes(root: Path) -> dict[str, str]:
    """Every file under ``root`` (hidden ones too) -> its SHA-256; folders -> "folder"."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_dir():
            found[rel] = "folder"
        else:
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found
