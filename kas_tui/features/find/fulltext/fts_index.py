"""The full-text index of a package: SQLite FTS5 in the user cache folder.

One database file per package (``fulltext-<digest of the root>.sqlite3``, beside the
metadata cache). The FTS5 table ``docs`` holds one row per document (title, description,
tags, body; what :mod:`.reading` takes from the file), tokenized as the evaluation's
lexical scorer does (:data:`kas_tui.text.lexical.TOKENIZER`: Porter stems over
Unicode words, accents folded) and ranked with BM25 weighted title 10, tags 6,
description 4, body 1; the table ``files`` holds each document's path, stat, and the
lines its body, title, description and tags start on. The line to show and open at is
found in the few documents listed (:mod:`.lines`).

Kept up to date incrementally: :meth:`FullTextIndex.sync` compares every document's
(size, mtime) with what was stored and re-reads only new and changed files (the
"racy git" rule of the metadata cache applies: a file modified within two seconds of
being indexed is read again), dropping those gone; :meth:`FullTextIndex.update`
re-reads named files. Writes go in batches, each one transaction, so searches during
a first build see the documents done so far (:attr:`FullTextIndex.progress`).

Robust: a database that is not one, or is damaged, is deleted and rebuilt (said in
:attr:`FullTextIndex.notes`); one held by another process past the busy timeout, or a
cache folder that cannot be written, gives way to a private temporary copy. Two
processes may share the file: SQLite's locks and the write-ahead log serialise their
writes, and each write replaces a document's rows whole, so the result is the same in
whatever order they run. Each thread gets its own connection (a build in a worker
thread, searches in the UI thread).
"""

from __future__ import annotations

import contextlib
import math
import os
import sqlite3
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kas_tui.core.disk import walk
from kas_tui.core.user_dirs import RACY_NS, package_cache_file
from kas_tui.features.find.fulltext.lines import Line, Matcher, Page, printable, window
from kas_tui.features.find.fulltext.query import Query, parse
from kas_tui.features.find.fulltext.reading import FIELDS, Read, read
from kas_tui.text.lexical import TOKENIZER, Stems

if TYPE_CHECKING:
    from kas_tui.core.disk import Walk
    from kas_tui.core.package import Package

#: Bump when the tables change; an older file is then rebuilt.
SCHEMA = 1
#: BM25 weights of the ``docs`` columns: title, description, tags, body.
WEIGHTS = (10.0, 4.0, 6.0, 1.0)
#: Documents read and written per transaction.
BATCH = 250
#: Documents whose rows a thread keeps ready for finding their matching line.
PAGES = 256
#: SQLite's page cache per connection, in KiB (the default 2 MiB keeps ranking ~20 %
#: slower at 10,000 documents).
CACHE_KIB = 32768
#: The page cache of a connection while it brings the index up to date (SQLite's default).
WRITE_CACHE_KIB = 2000
#: Seconds a write waits for another process's write before giving up.
BUSY_SECONDS = 10.0
_DAMAGED = ("malformed", "not a database", "corrupt", "no such table", "no such column")

Span = tuple[int, int]


@dataclass(frozen=True)
class Hit:
    """One found document: where and how it matched.

    ``line`` is the 1-based line of the file to open at (a frontmatter line when only
    the title, description or tags matched: ``field`` says which); ``text`` the words
    around the match on that line, ``spans`` the (start, end) offsets in ``text`` of the
    matched words. ``score`` is BM25's, higher is better.
    """

    path: str
    title: str
    line: int
    text: str
    spans: tuple[Span, ...]
    field: str
    score: float


@dataclass(frozen=True)
class Results:
    """A search's hits and the state of the index when it ran."""

    hits: list[Hit] = field(default_factory=list)
    indexed: int = 0  # documents in the index
    total: int = 0  # documents the package holds (more than ``indexed`` while building)
    note: str = ""  # a problem to tell the user (a damaged index being rebuilt)

    @property
    def building(self) -> bool:
        return self.indexed < self.total


class IndexDamaged(Exception):
    """The database file is not a usable index (it is then rebuilt)."""


class FullTextIndex:
    """The full-text index of the package at ``root`` (see the module docstring).

    ``folder`` overrides the cache folder (tests). Opening never fails: a problem with
    the file becomes a rebuild or a private copy, and a line in :attr:`notes`.
    """

    def __init__(self, root: Path, *, folder: Path | None = None) -> None:
        self.root = Path(root).resolve()
        self.path = package_cache_file(self.root, "fulltext", ".sqlite3", folder)
        self.notes: list[str] = []
        #: (documents indexed, documents in the package) as a sync goes; equal when done.
        self.progress: tuple[int, int] = (0, 0)
        self.damaged = False  # a search met a damaged file: the next sync rebuilds it
        self._private: str | None = None  # a temporary file used instead of self.path
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._guard = threading.Lock()  # the list of connections; the file in use
        self._writing = threading.Lock()  # one sync or update at a time in this process
        self._closed = False  # closed: a sync or update waiting for its turn does nothing
        self._generation = 0  # bumped when the file in use changes
        self._writes = 0  # bumped by each write of this process (cached rarities go stale)
        self._open()

    # -- the database file ------------------------------------------------------------

    @property
    def file(self) -> str:
        """The database file in use (the cache file, or a private temporary copy)."""
        return self._private or str(self.path)

    def _connect(self) -> sqlite3.Connection:
        if self._private is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(
            self.file, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
        )
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            # the doclists of common words are read again at each keystroke: keep them
            db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        except sqlite3.Error:
            db.close()
            raise
        with self._guard:
            self._connections.append(db)
        return db

    def _db(self) -> sqlite3.Connection:
        """This thread's connection to the file in use."""
        local = self._local
        if getattr(local, "generation", None) != self._generation or local.db is None:
            local.db = self._connect()
            local.generation = self._generation
        return local.db

    def _open(self) -> None:
        try:
            self._prepare()
        except (sqlite3.DatabaseError, IndexDamaged, OSError) as exc:
            self._recover(exc)

    def _prepare(self) -> None:
        """Make sure the tables exist and are of this :data:`SCHEMA` (else start anew)."""
        db = self._db()
        if _schema(db) == str(SCHEMA):
            db.execute("SELECT count(*) FROM files").fetchone()  # readable at all
            return
        with self._transaction(db):
            if _schema(db) == str(SCHEMA):  # another process made it meanwhile
                return
            found = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            for (name,) in found:
                if name in ("meta", "files", "docs"):
                    db.execute(f"DROP TABLE IF EXISTS {name}")
            _create(db)

    def _recover(self, exc: BaseException) -> None:
        """Start again after ``exc``: a fresh file, or a private copy when the cache
        file cannot be used (held by another process, or an unwritable folder)."""
        reason = _reason(exc)
        self._drop_connections()
        if _damaged(exc) and self._private is None:
            self._remove_files(str(self.path))
            self.notes.append(f"the full-text index {self.path} was unreadable ({reason}); rebuilt")
            try:
                self._prepare()
                return
            except (sqlite3.DatabaseError, IndexDamaged, OSError) as again:
                reason = _reason(again)
                self._drop_connections()
        if self._private is not None:  # the private copy failed too: nothing left to try
            raise IndexDamaged(reason) from exc
        fd, private = tempfile.mkstemp(prefix="kas-tui-fulltext-", suffix=".sqlite3")
        os.close(fd)
        self._private = private
        self.notes.append(
            f"the full-text index {self.path} cannot be used ({reason}); "
            "using a private copy for this run"
        )
        self._prepare()

    def _drop_connections(self) -> None:
        with self._guard:
            for db in self._connections:
                with contextlib.suppress(sqlite3.Error):
                    db.close()
            self._connections.clear()
            self._generation += 1

    @staticmethod
    def _remove_files(path: str) -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(path + suffix)

    def close(self, timeout: float = -1) -> None:
        """Close every connection (and remove a private copy), once a sync or update
        running in another thread is done (waiting ``timeout`` seconds at most, then
        leaving the connections to the end of the process; -1: no limit)."""
        if not self._writing.acquire(timeout=timeout):
            return
        try:
            self._closed = True
            self._drop_connections()
            if self._private is not None:
                self._remove_files(self._private)
        finally:
            self._writing.release()

    @contextlib.contextmanager
    def _transaction(self, db: sqlite3.Connection) -> Iterator[None]:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # -- keeping it up to date ----------------------------------------------------------

    def stored(self) -> dict[str, tuple[int, int, int]]:
        """Path -> (size, mtime_ns, read_ns) of every indexed document."""
        rows = self._db().execute("SELECT path, size, mtime_ns, read_ns FROM files")
        return {path: (size, mtime, read) for path, size, mtime, read in rows}

    def sync(
        self,
        package: Package | None = None,
        found: Walk | None = None,
        cancelled: Callable[[], bool] | None = None,
        give_way: Callable[[], object] | None = None,
    ) -> int:
        """Bring the index up to date with the package folder; the number of documents
        read again or dropped. ``package`` lends its already parsed frontmatter for the
        files it read as they are now; ``found`` is a walk of the root with stats;
        ``cancelled`` is asked between batches (a stop leaves the rest for next time);
        ``give_way`` is called before each file is read (the app's screen goes first)."""
        with self._writing:
            if self._closed:
                return 0
            if self.damaged:
                self._recover(IndexDamaged("a search found it damaged"))
                self.damaged = False
            try:
                return self._sync(package, found, cancelled, give_way)
            except (sqlite3.DatabaseError, IndexDamaged) as exc:
                if not _damaged(exc) and not _busy(exc):
                    raise
                self._recover(exc)
                self.damaged = False
                return self._sync(package, found, cancelled, give_way)

    def _sync(
        self,
        package: Package | None,
        found: Walk | None,
        cancelled: Callable[[], bool] | None,
        give_way: Callable[[], object] | None = None,
    ) -> int:
        found = found or walk(self.root, stat=True)
        stored = self.stored()
        present = set(found.documents)
        todo = []
        for rel in found.documents:
            stat = found.stats.get(rel)
            known = stored.get(rel)
            if stat is None:
                continue
            if known is None or known[:2] != stat or stat[1] >= known[2] - RACY_NS:
                todo.append(rel)
        gone = [rel for rel in stored if rel not in present]
        ready = len(present) - len(todo)
        self.progress = (ready, len(present))
        db = self._db()
        # writing reads few pages twice: a search's page cache would only fill with
        # pages never read again (32 MB held at 50,000 documents)
        db.execute(f"PRAGMA cache_size=-{WRITE_CACHE_KIB}")
        try:
            if gone:
                self._write([], gone)
            for start in range(0, len(todo), BATCH):
                if cancelled is not None and cancelled():
                    return start + len(gone)
                chunk = todo[start : start + BATCH]
                if give_way is None:
                    self._write([read(self.root, rel, package) for rel in chunk], [])
                else:
                    self._write([give_way() or read(self.root, rel, package) for rel in chunk], [])
                ready += len(chunk)
                self.progress = (ready, len(present))
        finally:
            db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")  # this thread may search next
            db.execute("PRAGMA shrink_memory")
        return len(todo) + len(gone)

    def update(self, paths: Iterable[str], package: Package | None = None) -> int:
        """Read again those of ``paths`` (root-relative) that are indexed documents,
        dropping those no longer on disk; the number changed. New files come in with
        the next :meth:`sync` (only a walk of the folder says what is a document)."""
        with self._writing:
            if self._closed:
                return 0
            stored = self.stored()
            known = [p for p in dict.fromkeys(paths) if p in stored]
            present = [p for p in known if (self.root / p).is_file()]
            gone = [p for p in known if p not in present]
            try:
                self._write([read(self.root, rel, package) for rel in present], gone)
            except sqlite3.DatabaseError as exc:
                if not _damaged(exc) and not _busy(exc):
                    raise
                self.damaged = _damaged(exc)  # then the next sync starts again
                return 0
            return len(known)

    def _write(self, reads: list[Read], gone: list[str]) -> None:
        db = self._db()
        self._writes += 1
        with self._transaction(db):
            for rel in gone:
                row = db.execute("SELECT id FROM files WHERE path = ?", (rel,)).fetchone()
                if row is not None:
                    db.execute("DELETE FROM docs WHERE rowid = ?", (row[0],))
                    db.execute("DELETE FROM files WHERE id = ?", (row[0],))
            for read in reads:
                (doc,) = db.execute(
                    "INSERT INTO files(path, size, mtime_ns, read_ns, body_line, title_line, "
                    "description_line, tags_line) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(path) DO UPDATE SET size = excluded.size, "
                    "mtime_ns = excluded.mtime_ns, read_ns = excluded.read_ns, "
                    "body_line = excluded.body_line, title_line = excluded.title_line, "
                    "description_line = excluded.description_line, "
                    "tags_line = excluded.tags_line RETURNING id",
                    (read.path, read.size, read.mtime_ns, read.read_ns, *read.lines),
                ).fetchone()
                db.execute("DELETE FROM docs WHERE rowid = ?", (doc,))
                db.execute(
                    "INSERT INTO docs(rowid, title, description, tags, body) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (doc, *read.fields),
                )

    # -- searching --------------------------------------------------------------------

    def search(self, text: str, limit: int = 50) -> Results:
        """The ``limit`` best documents for the query ``text`` (see :mod:`.query`), best
        first, each with its best line. Never raises: a problem becomes ``note``."""
        query = parse(text)
        indexed, total = self.progress
        try:
            if not query or limit <= 0:
                return Results([], *self._counts())
            hits = self._search(query, limit)
            return Results(hits, *self._counts())
        except sqlite3.Error as exc:
            if _damaged(exc):
                self.damaged = True
                note = f"the full-text index is damaged ({_reason(exc)}); it is rebuilt next"
            else:
                note = f"full-text search failed: {_reason(exc)}"
            return Results([], indexed, total, note)

    def _counts(self) -> tuple[int, int]:
        """(documents in the index now, documents in the package as far as known)."""
        local = self._local
        if getattr(local, "count_of", None) != (self._generation, self._writes):
            (local.count,) = self._db().execute("SELECT count(*) FROM files").fetchone()
            local.count_of = (self._generation, self._writes)
        return local.count, max(local.count, self.progress[1])

    def _search(self, query: Query, limit: int) -> list[Hit]:
        db = self._db()
        last = None
        rows = _top(db, query.match(), limit)
        if not rows:
            for shorter in query.trimmed:  # a half-typed word past its stem (see .query)
                rows = _top(db, query.match(shorter), limit)
                if rows:
                    last = shorter
                    break
        if not rows:
            return []
        matcher = Matcher(self._stems(), query, last, self._rarity(db))
        hits = []
        for doc, path, rank in rows:
            title, line = self._line(db, doc, matcher)
            hit = Hit(path, printable(title), line.number, line.text, line.spans, line.field, -rank)
            hits.append(hit)
        return hits

    def _rarity(self, db: sqlite3.Connection) -> Callable[[str], float]:
        """A stem's inverse document frequency, asked of FTS5's vocabulary (once per
        stem and thread until the index changes)."""
        local = self._local
        if getattr(local, "rarity_of", None) != (self._generation, self._writes):
            db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, docs, 'row')"
            )
            local.rarity = {}
            local.rarity_of = (self._generation, self._writes)
        known: dict[str, float] = local.rarity
        total = self._counts()[0]

        def rarity(stem: str) -> float:
            if stem not in known:
                row = db.execute("SELECT doc FROM temp.vocab WHERE term = ?", (stem,)).fetchone()
                known[stem] = math.log(1 + total / (row[0] if row else 1))
            return known[stem]

        return rarity

    def _stems(self) -> Stems:
        """This thread's stemmer (an in-memory SQLite of its own)."""
        stems = getattr(self._local, "stems", None)
        if stems is None:
            stems = self._local.stems = Stems()
        return stems

    def _line(self, db: sqlite3.Connection, doc: int, matcher: Matcher) -> tuple[str, Line]:
        """The document's title, and its line that matches best (its first body line
        when the words matched only across lines)."""
        title, page = self._page(db, doc)
        found = matcher.best(page)
        if found is None:
            text, number, field = page.rows[0] if page.rows else ("", 1, "body")
            found = Line(number, field, *window(text, ()))
        return title, found

    def _page(self, db: sqlite3.Connection, doc: int) -> tuple[str, Page]:
        """The document's title and rows (this thread's copy, kept until a write)."""
        local = self._local
        pages: OrderedDict[int, tuple[str, Page]] | None = getattr(local, "pages", None)
        if pages is None or local.pages_of != (self._generation, self._writes):
            pages = local.pages = OrderedDict()
            local.pages_of = (self._generation, self._writes)
        if doc in pages:
            pages.move_to_end(doc)
            return pages[doc]
        title, description, tags, body, *starts = db.execute(
            "SELECT d.title, d.description, d.tags, d.body, f.body_line, f.title_line, "
            "f.description_line, f.tags_line FROM docs AS d JOIN files AS f ON f.id = d.rowid "
            "WHERE d.rowid = ?",
            (doc,),
        ).fetchone()
        rows = [
            (text, number, "body")
            for number, text in enumerate(body.split("\n"), starts[0])
            if text.strip()
        ]
        rows += [
            (text, number, name)
            for text, number, name in zip(
                (title, description, tags), starts[1:], FIELDS[1:], strict=True
            )
            if text
        ]
        pages[doc] = (title, Page(rows))
        if len(pages) > PAGES:
            pages.popitem(last=False)
        return pages[doc]


# --- the tables ------------------------------------------------------------------------


def _create(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)")
    db.execute(
        "CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, "
        "size INTEGER, mtime_ns INTEGER, read_ns INTEGER, body_line INTEGER, "
        "title_line INTEGER, description_line INTEGER, tags_line INTEGER)"
    )
    db.execute(
        "CREATE VIRTUAL TABLE docs USING fts5(title, description, tags, body, "
        f"tokenize='{TOKENIZER}', prefix='2 3')"
    )
    weights = ", ".join(repr(w) for w in WEIGHTS)
    db.execute(f"INSERT INTO docs(docs, rank) VALUES ('rank', 'bm25({weights})')")
    db.executemany(
        "INSERT INTO meta VALUES (?, ?)", [("schema", str(SCHEMA)), ("tokenizer", TOKENIZER)]
    )


def _schema(db: sqlite3.Connection) -> str | None:
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            raise
        return None
    return row[0] if row is not None else None


def _top(db: sqlite3.Connection, match: str, limit: int) -> list[tuple[int, str, float]]:
    """(id, path, rank) of the best ``limit`` documents (FTS5 sorts by rank)."""
    return db.execute(
        "SELECT d.id, f.path, d.rank FROM (SELECT rowid AS id, rank FROM docs "
        "WHERE docs MATCH ? ORDER BY rank LIMIT ?) AS d JOIN files AS f ON f.id = d.id "
        "ORDER BY d.rank",
        (match, limit),
    ).fetchall()


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _damaged(exc: BaseException) -> bool:
    if isinstance(exc, IndexDamaged):
        return True
    text = str(exc).lower()
    return isinstance(exc, sqlite3.DatabaseError) and any(word in text for word in _DAMAGED)


def _busy(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text or "unable to open" in text or "readonly" in text
