"""What a loaded package is made of: a :class:`Document` (its frontmatter, where its body
starts, its problems), an :class:`IndexFile` and its :class:`Listing` s (index entries
with their targets resolved). Verdicts (trust tier, staleness: see
:mod:`kas_tui.okf.lifecycle`) are derived from the frontmatter, never stored.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .disk import PackageError as PackageError
from .disk import Problem
from .fileio import Fingerprint
from .loader import DocumentRead
from .okf.index import Entry, Index
from .okf.lifecycle import Staleness, Status, TrustTier, staleness, status, trust_tier

if TYPE_CHECKING:
    pass


@dataclass(slots=True)
class Document:
    """A concept document: its frontmatter, where its body starts, its problems."""

    path: str
    meta: dict[str, Any]
    has_frontmatter: bool
    body_line: int
    fingerprint: Fingerprint | None
    problems: list[Problem] = field(default_factory=list)

    @classmethod
    def from_read(cls, read: DocumentRead) -> Document:
        return cls(
            read.path,
            read.meta,
            read.has_frontmatter,
            read.body_line,
            read.fingerprint,
            read.problems,
        )

    @property
    def id(self) -> str:
        """The concept id: the path without ``.md``."""
        return self.path[:-3]

    @property
    def folder(self) -> str:
        return posixpath.dirname(self.path)

    def _text(self, key: str) -> str:
        value = self.meta.get(key)
        return value.strip() if isinstance(value, str) else ""

    @property
    def type(self) -> str:
        return self._text("type")

    @property
    def title(self) -> str:
        """The ``title`` field, or a name made from the file name."""
        return (
            self._text("title")
            or posixpath.basename(self.id).replace("-", " ").replace("_", " ").strip().capitalize()
        )

    @property
    def description(self) -> str:
        return self._text("description")

    @property
    def tags(self) -> list[str]:
        tags = self.meta.get("tags")
        if isinstance(tags, str):
            return [tags]
        return [str(t) for t in tags] if isinstance(tags, list) else []

    @property
    def status(self) -> Status | str:
        """``draft``, ``stable`` or ``deprecated`` (``stable`` when absent; see okf.lifecycle)."""
        return status(self.meta)

    @property
    def trust_tier(self) -> TrustTier:
        return trust_tier(self.meta)

    def staleness(self, today: dt.date) -> Staleness:
        return staleness(self.meta, today)

    @property
    def broken(self) -> bool:
        """Whether the frontmatter could not be read at all."""
        return not self.has_frontmatter


@dataclass(frozen=True, slots=True)
class Listing:
    """An index entry with its target resolved.

    ``kind``: ``document``, ``bundle`` (``path`` is the folder), ``asset``,
    ``reserved`` (an index or log file), ``missing``, ``external`` or ``outside``.
    """

    index: str  # path of the index.md holding the entry
    entry: Entry
    kind: str
    path: str


@dataclass
class IndexFile:
    path: str
    folder: str
    index: Index
    fingerprint: Fingerprint | None
    problems: list[Problem] = field(default_factory=list)
    listings: list[Listing] = field(default_factory=list)
