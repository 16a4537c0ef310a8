"""Memory around big loads: the garbage collector paused while a package's objects are
built and, in the TUI's process, kept off them for good (``gc.freeze``); free heap
pages given back after a burst of short-lived allocations."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache

from kas_tui.core.libc import libc_function

#: Whether what a load builds is kept out of the collector's walks (see
#: :func:`freeze_after_loads`).
_FREEZE_AFTER_LOADS = False


def freeze_after_loads(on: bool = True) -> None:
    """For a long-lived interactive process (the TUI): after each load, everything
    alive is moved out of the collector's walks (``gc.freeze``).

    A loaded package is millions of objects; a full collection walks them all, 0.3 s
    at 50,000 documents holding the interpreter lock, so a key pressed meanwhile
    waited that long. Loaded objects form no cycles (a package is freed by reference
    counting when dropped); the price is that cyclic garbage alive at a freeze is
    never collected, which is why only the TUI's own process turns this on.
    """
    global _FREEZE_AFTER_LOADS
    _FREEZE_AFTER_LOADS = on


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many objects that form no cycles.

    Loading allocates hundreds of thousands of dicts and tuples; the collector would
    walk them again and again (it halves the time to read a 10,000-document cache).
    With :func:`freeze_after_loads`, what was built is frozen before the collector
    runs again, so it is never walked at all.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _FREEZE_AFTER_LOADS:
            gc.freeze()
        if was_enabled:
            gc.enable()


@lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` (another C library, another system)."""
    trim = libc_function("malloc_trim")
    if trim is not None:
        import ctypes

        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def give_back_free_memory() -> None:
    """Hand the C heap's free pages back to the system, after a burst of short-lived
    allocations (a full-text build reading every body, a find index built).

    glibc keeps freed memory for reuse, and returns only what lies at the top of a heap:
    after the TUI's first full-text build of 50,000 documents, 40 MB stayed free inside
    the heaps and resident. ``malloc_trim`` releases every whole free page (a few
    milliseconds, without the interpreter lock). Elsewhere it does nothing."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
