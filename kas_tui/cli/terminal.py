"""What a verb prints reaches the terminal written out, never acted on.

A file name or a document line can hold an escape sequence that sets the terminal's
title or colours, or a carriage return that overwrites the line. Every verb's stdout and
stderr pass through :class:`WrittenOut`, so no message, diff or listing can forget
to escape (:func:`kas_tui.text.wording.terminal_text`). Colour is printed only through
:func:`print_coloured`, by the code that escaped what it colours, and only kas-tui's
own colour codes pass there; anywhere else an escape sequence is written out, even one
that only sets a colour. ``serve`` (JSON-RPC on stdout) and the TUI are left alone.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from kas_tui.text.wording import terminal_text

#: the colour codes kas-tui's own output uses (check's severities, search's match)
OWN_COLOURS = ("\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[33m", "\x1b[36m")
_OWN = re.compile("(" + "|".join(re.escape(code) for code in OWN_COLOURS) + ")")


def written_out(text: str, *, colours: bool = False) -> str:
    """``text`` with every active character written out (but kas-tui's own colour codes,
    with ``colours``)."""
    if not colours or "\x1b" not in text:
        return terminal_text(text)
    pieces = _OWN.split(text)  # odd pieces are our colour codes
    return "".join(p if i % 2 else terminal_text(p) for i, p in enumerate(pieces))


class WrittenOut:
    """A text stream that writes :func:`written_out` text to ``stream``; the rest (isatty,
    fileno, buffer, encoding, flush) is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(written_out(text))
        return len(text)

    def write_coloured(self, text: str) -> int:
        self._stream.write(written_out(text, colours=True))
        return len(text)

    def writelines(self, lines: Iterator[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


@contextmanager
def escaped_output() -> Iterator[None]:
    """Within the block, ``sys.stdout`` and ``sys.stderr`` write out active characters."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = WrittenOut(out), WrittenOut(err)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def print_coloured(text: str, file: TextIO | None = None) -> None:
    """Print ``text`` with its colour codes kept: the caller escaped what it colours."""
    stream = sys.stdout if file is None else file
    if isinstance(stream, WrittenOut):
        stream.write_coloured(text + "\n")
    else:
        stream.write(text + "\n")
