"""Progress of a long run on stderr: counts, rate and an ETA.

On a terminal one line is redrawn in place; otherwise (a CI log, a pipe) a plain line
is printed every few seconds and when the stage ends, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    """Report ``done`` of ``total`` for one stage; call :meth:`update`, then :meth:`finish`."""

    def __init__(
        self,
        label: str,
        total: int,
        *,
        stream: TextIO | None = None,
        tty: bool | None = None,
        every: float = 5.0,
    ) -> None:
        self.label = label
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.every = every
        self.started = time.monotonic()
        self._last = 0.0 if self.tty else self.started
        self._width = 0
        self.done = 0

    def line(self, done: int) -> str:
        elapsed = time.monotonic() - self.started
        pct = 100 * done / self.total if self.total else 100.0
        text = f"{self.label}: {done:,}/{self.total:,} ({pct:.0f}%)"
        if 0 < done < self.total and elapsed > 0.5:
            rate = done / elapsed
            text += f", {rate:,.1f}/s, ETA {_clock((self.total - done) / rate)}"
        elif done >= self.total:
            text += f" in {elapsed:.1f} s"
        return text

    def update(self, done: int, note: str = "") -> None:
        self.done = done
        now = time.monotonic()
        if self.tty:
            if now - self._last < 0.1 and done < self.total:
                return
            text = self.line(done) + (f"  {note}" if note else "")
            text = text[:119]
            pad = max(0, self._width - len(text))
            self.stream.write("\r" + text + " " * pad)
            self._width = len(text)
            self.stream.flush()
        elif now - self._last >= self.every and done < self.total:
            print(self.line(done) + (f"  {note}" if note else ""), file=self.stream, flush=True)
        else:
            return
        self._last = now

    def finish(self) -> None:
        text = self.line(self.total)
        if self.tty:
            pad = max(0, self._width - len(text))
            self.stream.write("\r" + text + " " * pad + "\n")
            self.stream.flush()
        else:
            print(text, file=self.stream, flush=True)
