"""Timestamps kept as the text the author wrote."""

from __future__ import annotations


class Timestamp(str):
    """A YAML timestamp kept as the exact text the author wrote.

    PyYAML would turn ``2026-06-30T14:00:00Z`` into a ``datetime`` that re-dumps as
    ``2026-06-30 14:00:00+00:00``; a ``Timestamp`` dumps back unchanged and unquoted.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Timestamp({str.__repr__(self)})"
