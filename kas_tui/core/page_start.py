"""The start of a page too large to show whole.

A page of more than :data:`SHOWN_BYTES` is shown from its start to about that many bytes,
cut after a line (after a blank line when there is one in the last quarter, so no
paragraph is cut), and the reader is told how much is left out. A document's file is read
only that far: opening a 200 MB page reads what a 256 KB one does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kas_tui.core.fileio import read_regular
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.text import decode

#: Bytes of a page shown at most.
SHOWN_BYTES = 256 * 1024


@dataclass(frozen=True)
class PageStart:
    """``text``: what is shown of a page of ``size`` bytes, covering its first ``shown``."""

    text: str
    size: int
    shown: int

    @property
    def cut(self) -> bool:
        """Whether ``text`` is only the start of the page."""
        return self.shown < self.size


def start_of(text: str, limit: int | None = None) -> PageStart:
    """``text`` whole when it holds at most ``limit`` bytes (UTF-8; by default
    :data:`SHOWN_BYTES`), else its start."""
    limit = SHOWN_BYTES if limit is None else limit
    if len(text) <= limit // 4:  # at most 4 bytes a character: no need to count them
        return PageStart(text, len(text), len(text))
    data = text.encode("utf-8", errors="replace")
    if len(data) <= limit:
        return PageStart(text, len(data), len(data))
    head = _cut(data[:limit].decode("utf-8", errors="ignore"))  # a cut character left out
    return PageStart(head, len(data), _bytes(head))


def read_start(path: Path | str, limit: int | None = None) -> PageStart:
    """The body of the document at ``path`` (its frontmatter left out), read no further
    than ``limit`` bytes (:data:`SHOWN_BYTES`); ``size`` and ``shown`` count the whole
    file's bytes.

    Raises ``OSError``, :class:`~kas_tui.core.fileio.NotRegularFile` or a
    :class:`~kas_tui.core.okf.errors.FormatError` (not UTF-8), as reading it whole does.
    """
    limit = SHOWN_BYTES if limit is None else limit
    data = read_regular(path, limit=limit + 1)
    whole = len(data) <= limit
    text = decode(data if whole else data[:limit], final=whole).text
    start = fm.body_start(text)
    if whole:
        return PageStart(text[start:], len(data), len(data))
    body = _cut(text[start:])
    size = max(os.stat(path).st_size, len(data))  # (grown or shrunk since: said as read)
    return PageStart(body, size, _bytes(text[:start]) + _bytes(body))


def _cut(text: str) -> str:
    """``text`` up to the end of a line: a blank line in its last quarter, else its
    last line break, else its last space (a page of one long line)."""
    least = len(text) * 3 // 4
    for mark in ("\n\n", "\n", " "):
        at = text.rfind(mark, least)
        if at >= 0:
            return text[: at + len(mark)]
    return text


def _bytes(text: str) -> int:
    return len(text.encode("utf-8", errors="replace"))
