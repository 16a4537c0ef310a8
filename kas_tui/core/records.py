"""What a loaded package is made of: a :class:`Document` (its frontmatter, where its body
starts, its problems), an :class:`IndexFile` and its :class:`Listing` s (index entries
with their targets resolved). Verdicts (trust tier, staleness: see
:mod:`kas_tui.core.okf.lifecycle`) are derived from the frontmatter, never stored.
"""

from __future__ import annotations

import datetime as dt
import pickle
import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.core.disk import PackageError as PackageError
from kas_tui.core.disk import Problem
from kas_tui.core.fileio import Fingerprint
from kas_tui.core.loader import DocumentRead
from kas_tui.core.okf.index import Entry, Index
from kas_tui.core.okf.lifecycle import Staleness, Status, TrustTier, staleness, status, trust_tier

if TYPE_CHECKING:
    from collections.abc import Sequence


#: Whether documents keep their frontmatter as the bytes the reading workers sent,
#: decoded on each look (see :func:`compact_frontmatter`).
_COMPACT = False


def compact_frontmatter(on: bool = True) -> None:
    """For a long-lived interactive process (the TUI): documents read by worker
    processes or from the metadata cache keep their frontmatter as the pickle the
    worker sent (about 0.6 KB a document) and decode it on each look, instead of
    holding it as Python objects (about 2.3 KB: a source list with its dict is 0.5 KB).
    A look costs a few microseconds; the last one decoded is kept for the next. Off
    (the CLI), the first look decodes it for good."""
    global _COMPACT
    _COMPACT = on


#: The last frontmatter decoded in compact mode: (its bytes, the dict).
_last: tuple[bytes, dict[str, Any]] = (b"", {})


class Document:
    """A concept document: its frontmatter, where its body starts, its problems.

    ``meta`` is the frontmatter as a dict; a read that came through a worker process or
    the metadata cache hands it over as pickled bytes, decoded when first looked at
    (see :func:`compact_frontmatter`). Treat it as read-only: edits go through the
    store and a reload.
    """

    __slots__ = ("path", "_meta", "has_frontmatter", "body_line", "fingerprint", "problems")

    def __init__(
        self,
        path: str,
        meta: dict[str, Any] | bytes,
        has_frontmatter: bool,
        body_line: int,
        fingerprint: Fingerprint | None,
        problems: Sequence[Problem] = (),
    ) -> None:
        self.path = path
        self._meta = meta
        self.has_frontmatter = has_frontmatter
        self.body_line = body_line
        self.fingerprint = fingerprint
        # a tuple: most documents have none, and share the one empty tuple
        self.problems: tuple[Problem, ...] = tuple(problems)

    @property
    def meta(self) -> dict[str, Any]:
        meta = self._meta
        if meta.__class__ is dict:
            return meta  # type: ignore[return-value]
        global _last
        last = _last  # one read: another thread (the find index's build) may replace it
        if last[0] is meta:
            return last[1]
        decoded = pickle.loads(meta)  # type: ignore[arg-type]
        if _COMPACT:
            _last = (meta, decoded)  # type: ignore[assignment]
        else:
            self._meta = decoded
        return decoded

    @meta.setter
    def meta(self, value: dict[str, Any]) -> None:
        self._meta = value

    def _fields(self) -> tuple:
        fields = (self.path, self.meta, self.has_frontmatter, self.body_line)
        return (*fields, self.fingerprint, self.problems)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Document:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        return (
            f"Document(path={self.path!r}, meta={self.meta!r}, "
            f"has_frontmatter={self.has_frontmatter!r}, body_line={self.body_line!r}, "
            f"fingerprint={self.fingerprint!r}, problems={self.problems!r})"
        )

    @classmethod
    def from_read(cls, read: DocumentRead) -> Document:
        meta = read.meta
        if _COMPACT and meta.__class__ is dict:  # read in this process: held as the rest are
            meta = pickle.dumps(meta, protocol=pickle.HIGHEST_PROTOCOL)
        return cls(
            read.path,
            meta,
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

    def own_listings(self, kind: str | None = None) -> int:
        """How many of its entries are its folder's own (a document in the folder, a
        sub-bundle of it), of ``kind`` when given ("bundle": what the room of a
        bundle's description is measured by). Entries it lists from deeper bundles (a
        root listing a chapter's pages) are copies and take no room from them."""
        inside = self.folder + "/" if self.folder else ""
        own = 0
        for listing in self.listings:
            if kind is not None and listing.kind != kind:
                continue
            rest = listing.path.removeprefix(inside) if listing.path.startswith(inside) else None
            own += rest is not None and "/" not in rest.strip("/")
        return max(own, 1)
