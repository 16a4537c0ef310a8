"""Background work gives way while the user waits on the screen.

The app's background threads (the finder's index, the full-text sync) run Python, and
Python runs one thread at a time: a thread building an index takes the interpreter every
few milliseconds from the one drawing the screen, so opening a bundle while the indexes
are built after the first screen took three times as long as after. The app calls
:meth:`Foreground.busy` on each key or click (and when a bundle opens), and the
background work calls :meth:`Foreground.give_way` between small steps: it waits there
until the screen has had no input for a moment (``quiet`` seconds), never longer than
``longest`` at a time, so it always ends.
"""

from __future__ import annotations

import threading
import time


class Foreground:
    """Whether the user is waiting on the screen (see the module docstring)."""

    def __init__(self, *, quiet: float = 0.15, longest: float = 0.5) -> None:
        self.quiet = quiet
        self.longest = longest
        self._idle = threading.Event()
        self._idle.set()
        self._until = 0.0  # monotonic time the last input's quiet period ends
        self._lock = threading.Lock()

    def busy(self) -> None:
        """The user just pressed a key or clicked: background work waits."""
        with self._lock:
            self._until = time.monotonic() + self.quiet
            self._idle.clear()

    def give_way(self) -> None:
        """In background work, between steps: wait while the user waits (at most
        ``longest`` seconds), then go on."""
        if self._idle.is_set():
            return
        deadline = time.monotonic() + self.longest
        while True:
            with self._lock:
                left = self._until - time.monotonic()
                if left <= 0:
                    self._idle.set()
                    return
            wait = min(left, deadline - time.monotonic())
            if wait <= 0:
                return
            self._idle.wait(wait)

    @property
    def waiting(self) -> bool:
        """Whether background work would wait now."""
        with self._lock:
            return not self._idle.is_set() and time.monotonic() < self._until
