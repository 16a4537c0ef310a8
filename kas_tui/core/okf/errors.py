"""Errors raised by the format layer: each names the file and, where known, the line."""

from __future__ import annotations


class FormatError(Exception):
    """A file that breaks its grammar.

    ``line`` is 1-based; ``hint`` tells the user how to fix it.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        path: str | None = None,
        hint: str = "",
        kind: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.path = path
        self.hint = hint
        self.kind = kind  # a stable name for what is wrong, for checks to map to rule codes

    def located(self, path: str) -> FormatError:
        """Return this error with ``path`` filled in (when not set yet)."""
        if self.path is None:
            self.path = path
        return self

    def __str__(self) -> str:
        where = self.path or "<text>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        text = f"{where}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text


class EditError(Exception):
    """An edit that was refused before anything was written."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message
