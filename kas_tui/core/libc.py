"""Functions of the C library this process runs on, found once: glibc's ``malloc_trim``
(:mod:`.collector`), Linux's ``prctl`` (:mod:`.workers`). ``None`` where there is no
such function (macOS, Windows, musl's missing ``malloc_trim``): the caller does without."""

from __future__ import annotations

import sys
from functools import cache
from typing import Any


@cache
def libc_function(name: str) -> Any | None:
    """The C library's function ``name`` (its ``errno`` kept for ``ctypes.get_errno``),
    on Linux, or ``None``."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return getattr(ctypes.CDLL(None, use_errno=True), name)
    except (OSError, AttributeError):
        return None
