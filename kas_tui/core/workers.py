"""What every worker process does first: it leaves Ctrl+C to the process that started
it, and, on Linux, ends when that process is gone.

A terminal's Ctrl+C interrupts the whole foreground process group, workers included. A
worker interrupted mid-task died with a traceback of its own. Workers ignore the
interrupt instead; the starting process stops them when it is interrupted (leaving a
pool's ``with`` block terminates it), and says so once.

A pool torn down while its handler thread was replacing a worker can leave the new
worker behind, waiting for a task forever, after the program has exited (one Ctrl+C
in six left ``kas-tui check`` so: its shell never got the prompt back). On Linux the
kernel ends a worker when the thread that started it ends (``PR_SET_PDEATHSIG``), which
also covers a parent killed outright.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

from kas_tui.core.libc import libc_function

#: prctl option: the signal a process gets when the thread that forked it ends.
_PR_SET_PDEATHSIG = 1


def start_as_worker() -> None:
    """First thing in a worker process: ignore SIGINT (Ctrl+C, the parent decides), and
    on Linux end with the thread that started it."""
    parent = os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    prctl = libc_function("prctl")
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent ended before the request was made
            os._exit(1)


@contextmanager
def forking() -> Iterator[None]:
    """Around starting worker processes: Ctrl+C waits until they are started.

    CPython runs the at-fork hooks of ``os.fork()`` in the parent, and an interrupt
    raised inside one of them is printed as "Exception ignored" and lost: the command
    went on as if Ctrl+C had not been pressed. Blocked meanwhile, the interrupt is
    raised on the line after this block instead."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
