"""The bundled demo package, opened from a writable copy in the user data folder.

The pristine demo ships inside the package (``kas_tui/_demo/orbit-handbook`` in a wheel,
mapped from ``demo_kb/`` by setup.py; a source checkout uses ``demo_kb/`` itself). The
first :func:`demo_copy` copies it to ``<user data folder>/demo/orbit-handbook`` (see
:func:`kas_tui.core.user_dirs.data_dir`), so a curator can edit it while the installed copy
stays pristine. Later calls reuse that copy, edits and all; ``reset=True`` replaces it
with a fresh one. Copies are made in a temporary folder beside it and renamed into
place, so an interrupted copy never passes for a finished one.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from kas_tui.core.user_dirs import data_dir

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

NAME = "orbit-handbook"  # the skill's name, so also its folder's


class DemoError(Exception):
    """The bundled demo is missing from this installation."""


def bundled() -> Traversable:
    """The pristine demo: the packaged copy when installed, else the checkout's demo_kb/."""
    packaged = resources.files("kas_tui") / "_demo" / NAME
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "demo_kb" / NAME
    if checkout.is_dir():
        return checkout
    raise DemoError("the bundled demo package is missing from this installation")


def copy_path() -> Path:
    """Where the writable copy lives (it may not exist yet)."""
    return data_dir() / "demo" / NAME


def demo_copy(*, reset: bool = False) -> Path:
    """The writable copy's root: made on first use, reused after, made anew with ``reset``."""
    target = copy_path()
    if target.is_dir() and not reset:
        return target
    source = bundled()
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".new-", dir=target.parent))
    try:
        _copy(source, work / NAME)
        if target.exists() or target.is_symlink():
            target.rename(work / "old")  # out of the way first; removed with ``work``
        (work / NAME).rename(target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def _copy(source: Traversable, target: Path) -> None:
    """Copy a resource folder (a real folder or one inside a zip) to ``target``."""
    target.mkdir()
    for item in source.iterdir():
        if item.name.startswith(".") or item.name == "__pycache__":
            continue
        if item.is_dir():
            _copy(item, target / item.name)
        else:
            (target / item.name).write_bytes(item.read_bytes())
