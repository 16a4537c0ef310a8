"""How kas-tui words a count: one home for "1 document", "2 documents"."""

from __future__ import annotations


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``count`` and ``word``, the word in the plural unless the count is one
    ("1 warning", "2 warnings", "1,204 documents"); ``plural`` when the plural is not
    the word and an ``s`` ("1 entry", "3 entries")."""
    many = plural if plural is not None else f"{word}s"
    return f"{count:,} {word if count == 1 else many}"
