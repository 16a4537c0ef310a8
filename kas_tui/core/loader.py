"""Reading a package from disk: walk the folder, read each file once, never raise.

Every function here turns a broken file into :class:`Problem` records on that file, so
one bad document never stops a load. Document reads are plain functions of a path,
ready to run in worker processes.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import pickle
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.core import field_schema
from kas_tui.core.disk import Problem, special_problem
from kas_tui.core.fileio import Fingerprint, NotRegularFile, open_regular_stat, read_regular
from kas_tui.core.fileio import os_reason as _os_reason
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.links import resolve
from kas_tui.core.okf.text import decode, line_of
from kas_tui.core.workers import claim_next, forking, start_as_worker
from kas_tui.text.wording import size_text

if TYPE_CHECKING:
    from kas_tui.core.okf.scan import BodyScan

#: Bytes read at first; most documents fit, so most files are read exactly once.
HEAD_BYTES = 64 * 1024
#: Documents larger than this are flagged: an agent cannot read them in one call.
LARGE_DOCUMENT_BYTES = 5 * 1024 * 1024


def problem_from(path: str, exc: FormatError, code: str) -> Problem:
    return Problem(path, exc.message, exc.line, exc.hint, "error", code)


@dataclass
class DocumentRead:
    """The result of reading one concept document's head."""

    path: str
    #: The frontmatter; pickled bytes once the read crossed a process pipe or the
    #: metadata cache (:meth:`pack`), decoded by :class:`~kas_tui.core.records.Document`.
    meta: dict[str, Any] | bytes
    has_frontmatter: bool
    body_line: int
    fingerprint: Fingerprint | None
    problems: list[Problem]
    scan: BodyScan | None = None
    #: What the one-document rules found (``checks/document_rules.py``), for scan reads.
    findings: tuple[tuple, ...] | None = None

    @property
    def frontmatter(self) -> dict[str, Any]:
        """``meta`` as a dict, decoded when it came packed."""
        meta = self.meta
        return meta if meta.__class__ is dict else pickle.loads(meta)  # type: ignore[return-value,arg-type]

    def __eq__(self, other: object) -> bool:  # the same read, however its frontmatter travelled
        if other.__class__ is not DocumentRead:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def _fields(self) -> tuple:
        head = (self.path, self.frontmatter, self.has_frontmatter, self.body_line)
        return (*head, self.fingerprint, self.problems, self.scan, self.findings)

    # Reads cross process pipes and sit in the metadata cache as plain tuples: pickle
    # loads 130,000 tuples in a few milliseconds but needs most of a second for as many
    # dataclass instances.

    def pack(self) -> tuple:
        """This read as nested plain tuples (see :meth:`unpack`)."""
        scan = self.scan
        packed_scan = None
        if scan is not None:
            packed_scan = (
                tuple(tuple(link) for link in scan.links),
                scan.footnotes,
                scan.footnote_definitions,
                scan.headings,
            )
        fp = self.fingerprint
        meta = self.meta
        return (
            self.path,
            # one bytes object instead of ~30 objects a document: what a loaded package
            # holds in compact mode, and quicker to unpickle in the loading process
            pickle.dumps(meta, protocol=pickle.HIGHEST_PROTOCOL)
            if meta.__class__ is dict
            else meta,
            self.has_frontmatter,
            self.body_line,
            (fp.size, fp.mtime_ns, fp.digest) if fp else None,
            tuple((p.path, p.message, p.line, p.hint, p.severity, p.code) for p in self.problems),
            packed_scan,
            self.findings,
        )

    @classmethod
    def unpack(cls, packed: tuple) -> DocumentRead:
        """The read :meth:`pack` gave ``packed`` for."""
        path, meta, has_fm, body_line, fp, problems, packed_scan, findings = packed
        scan = None
        if packed_scan is not None:
            links, footnotes, definitions, headings = packed_scan
            scan = _body_scan_type()(
                links=links,  # (target, text, line) tuples: the shape of Link, without the cost
                footnotes=footnotes,
                footnote_definitions=definitions,
                headings=headings,
            )
        return cls(
            path,
            meta,
            has_fm,
            body_line,
            Fingerprint(*fp) if fp else None,
            [Problem(*p) for p in problems],
            scan,
            findings,
        )


@lru_cache(maxsize=1)
def _body_scan_type() -> type[BodyScan]:
    from kas_tui.core.okf.scan import BodyScan

    return BodyScan


def read_document(root: Path, rel: str, scan: bool = False, digest: bool = True) -> DocumentRead:
    """Read a document's frontmatter; with ``scan`` (a read for a check), also scan its
    body (links, footnotes) and run the one-document rules on it.

    Without ``scan`` the body is read later, on demand; without ``digest``, see :func:`read_head`.
    """
    problems: list[Problem] = []
    result = DocumentRead(rel, {}, False, 1, None, problems)
    try:
        text, fingerprint, complete = read_head(f"{root}/{rel}", digest)  # a str: no Path built
    except FormatError as exc:
        problems.append(problem_from(rel, exc, "encoding"))
        return result
    except NotRegularFile as exc:  # swapped for a pipe or device since the walk
        problems.append(special_problem(rel, exc.kind))
        return result
    except OSError as exc:
        problems.append(Problem(rel, f"cannot read: {_os_reason(exc)}", code="unreadable"))
        return result
    result.fingerprint = fingerprint
    if fingerprint.size > LARGE_DOCUMENT_BYTES:
        problems.append(
            Problem(
                rel,
                f"very large document ({size_text(fingerprint.size)}, about "
                f"{fingerprint.size // 4:,} tokens): an agent cannot read it in one call",
                hint="split it into smaller documents",
                severity="warning",
                code="large-file",
            )
        )
    if not text.strip():
        problems.append(
            Problem(
                rel,
                "empty file: a concept document needs YAML frontmatter with a 'type'",
                1,
                "add '---', 'type: <Type>', '---' at the top, or delete the file",
                code="frontmatter",
            )
        )
        return result
    try:
        parsed = fm.parse(text)
    except FormatError as exc:
        if "never closed" in exc.message and not complete:
            exc = FormatError(
                f"frontmatter is not closed within the first {fm.MAX_FRONTMATTER_CHARS:,} characters",
                line=1,
                hint="add a line containing only --- after the last field",
            )
        problems.append(problem_from(rel, exc, "frontmatter"))
        return result
    if parsed is None:
        problems.append(
            Problem(
                rel,
                "no YAML frontmatter: a concept document must start with a line '---'",
                1,
                "add '---', 'type: <Type>', '---' at the top",
                code="frontmatter",
            )
        )
        return result
    result.meta = parsed.data
    result.has_frontmatter = True
    problems.extend(_duplicate_key_problem(rel, duplicate) for duplicate in parsed.duplicates)
    result.body_line = line_of(text, parsed.block.end) if parsed.block.end < len(text) else 1
    for key in field_schema.missing(parsed.data):
        message, hint = field_schema.missing_message(key)
        problems.append(Problem(rel, message, parsed.first_line, hint, code="required"))
    if scan:
        body = text[parsed.block.end :] if complete else _whole_body(root / rel)
        result.scan = _scan(body, result.body_line)
        problems.extend(_outside(rel, result.scan.links))
        result.findings = _document_findings(parsed.data, result.scan, text)
    elif complete:
        problems.extend(outside_links(rel, text[parsed.block.end :], result.body_line))
    return result


def _duplicate_key_problem(rel: str, duplicate: fm.DuplicateKey) -> Problem:
    key, first, line = duplicate
    return Problem(
        rel,
        f"frontmatter key {key!r} is written twice, on lines {first} and {line}: "
        f"YAML keeps only the value on line {line}",
        line,
        f"keep one {key!r} line: merge the two values or delete the one you do not mean",
        "warning",
        "duplicate-key",
    )


def _scan(body: str, first_line: int) -> BodyScan:
    return _checking()[0](body, first_line=first_line)


def _document_findings(meta: dict[str, Any], scan: BodyScan, text: str) -> tuple[tuple, ...]:
    _, findings, key_lines = _checking()
    return tuple(findings(meta, scan, lambda: key_lines(text)))


@lru_cache(maxsize=1)
def _checking() -> tuple[Callable[..., Any], ...]:
    """The body scanner and the one-document rules, imported at a check's first read."""
    from kas_tui.core.document_rules import document_findings, key_lines
    from kas_tui.core.okf.scan import scan_body

    return scan_body, document_findings, key_lines


def _whole_body(path: Path) -> str:
    """The body of a file too large for one head read (undecodable bytes replaced)."""
    text = decode_lenient(read_regular(path, listed=True))
    block = fm.find_block(text)
    return text[block.end :] if block else text


def decode_lenient(data: bytes) -> str:
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff")


def _outside(rel: str, links: Any) -> list[Problem]:
    depth = rel.count("/")
    return [
        Problem(
            rel,
            f"link to {target!r} leaves the package; it is never followed",
            line,
            "link to a document inside the package, or to a URL",
            "warning",
            "link-outside",
        )
        for target, _, line in links
        if _may_leave(rel, target, depth) and resolve(rel, target).kind == "outside"
    ]


#: Below this many documents, worker processes cost more than they save.
PARALLEL_MIN = 300
#: ... and below this many, workers started afresh (they import the reader first).
SPAWN_MIN = 2000
#: Documents per claim: small enough to balance the cores, large enough to cost nothing.
CHUNK = 64

#: The job forked workers inherit: (root, chunks, (scan, digest), next-chunk counter).
_JOB: tuple[Path, list[list[str]], tuple[bool, bool], Any] | None = None


def read_documents(
    root: Path,
    paths: list[str],
    *,
    scan: bool = False,
    digests: bool = True,
    workers: int | None = None,
    meanwhile: Callable[[], None] | None = None,
    sink: Callable[[bytes], None] | None = None,
) -> list[DocumentRead]:
    """Read many documents, in worker processes when it pays (``scan`` and ``digests``:
    as :func:`read_document`'s ``scan`` and ``digest``).

    The documents are cut into chunks that the calling process and ``workers - 1``
    forked ones claim one at a time from a shared counter, so a core that is slower
    (or busy with ``meanwhile``, run in this process while the workers read) simply
    claims fewer. Only the workers' reads cross a pipe, as pickled lists of packed
    tuples; ``sink`` (the metadata cache being written) gets every chunk's pickle as
    it is, the workers' as they sent it.

    Forking is safe only while this process runs one thread; with others running (the
    TUI reading a large package behind its first screen), the workers are started
    afresh instead (``spawn``: about 0.2 s to import the reader) and do all the
    reading, so this process stays free for the threads that draw.
    """
    global _JOB
    workers = workers or os.cpu_count() or 1
    threads = threading.active_count() > 1
    method = "spawn" if threads else "fork"
    if (
        workers < 2
        or len(paths) < (SPAWN_MIN if threads else PARALLEL_MIN)
        or method not in multiprocessing.get_all_start_methods()
    ):
        if meanwhile is not None:
            meanwhile()
        reads = [read_document(root, rel, scan, digests) for rel in paths]
        if sink is not None:
            _sink_all(sink, reads)
        return reads
    if scan and not threads:  # imported once here, before forking, not in every process
        _checking()
    context = multiprocessing.get_context(method)
    chunks = [paths[i : i + CHUNK] for i in range(0, len(paths), CHUNK)]
    how = (scan, digests)
    job = (root, chunks, how, context.Value("i", 0))
    helpers = workers if threads else workers - 1
    try:
        if not threads:
            _JOB = job
        with forking():
            started = context.Pool(
                helpers, initializer=_take_job, initargs=(job,) if threads else ()
            )
        with started as pool:
            pending = [pool.apply_async(_read_claimed) for _ in chunks]
            if meanwhile is not None:
                meanwhile()
            mine: dict[int, list[Any]] = {}
            while not threads and (claimed := _claim()) is not None:
                mine[claimed] = [read_document(root, rel, *how) for rel in chunks[claimed]]
                if sink is not None:
                    sink(_pickled(mine[claimed]))
            return _gathered(root, chunks, how, mine, pending, sink)
    finally:
        _JOB = None


def _gathered(
    root: Path,
    chunks: list[list[str]],
    how: tuple[bool, bool],
    mine: dict[int, list[Any]],
    pending: list,
    sink: Callable[[bytes], None] | None,
) -> list[DocumentRead]:
    """Every chunk's reads in order: this process's, the workers' (waited for, each
    chunk's pickle handed to ``sink`` as it arrives), and any chunk no worker handed
    back (seen once, under a loaded test run) read here."""
    unpack = DocumentRead.unpack
    theirs: dict[int, list[DocumentRead]] = {}
    for task in pending:
        result = task.get()
        if result is not None:
            number, blob = result
            theirs[number] = [unpack(packed) for packed in pickle.loads(blob)]
            if sink is not None:
                sink(blob)
    out: list[DocumentRead] = []
    for number, chunk in enumerate(chunks):
        if number in mine:
            out += mine[number]
        elif number in theirs:
            out += theirs[number]
        else:
            lost = [read_document(root, rel, *how) for rel in chunk]
            if sink is not None:
                sink(_pickled(lost))
            out += lost
    return out


def pickle_packed(packed: list[tuple]) -> bytes:
    """Packed reads (:meth:`DocumentRead.pack`) as one pickle: what a worker sends for a
    chunk, and what a segment of the metadata cache holds."""
    return pickle.dumps(packed, protocol=pickle.HIGHEST_PROTOCOL)


def _pickled(reads: list[DocumentRead]) -> bytes:
    """A chunk of reads as the workers send them (and the metadata cache keeps them)."""
    return pickle_packed([read.pack() for read in reads])


def _sink_all(sink: Callable[[bytes], None], reads: list[DocumentRead]) -> None:
    """Hand ``reads`` to ``sink`` a chunk at a time, as the workers would have."""
    for start in range(0, len(reads), CHUNK):
        sink(_pickled(reads[start : start + CHUNK]))


class ReadAhead:
    """Documents read by forked worker processes while this process goes on (the TUI
    drawing its first screen over a preview). Made while this process runs one thread,
    so forking is safe; :meth:`reader` hands the reads over (waiting for them)."""

    def __init__(self, root: Path, paths: list[str], workers: int | None = None) -> None:
        global _JOB
        self.root = root
        context = multiprocessing.get_context("fork")
        chunks = [paths[i : i + CHUNK] for i in range(0, len(paths), CHUNK)]
        _JOB = (root, chunks, (False, True), context.Value("i", 0))
        try:  # the workers are forked here and keep their copy of the job
            with forking():
                self._pool = context.Pool(workers or os.cpu_count() or 1, initializer=_take_job)
        finally:
            _JOB = None
        self._chunks = chunks
        self._pending = [self._pool.apply_async(_read_claimed) for _ in chunks]
        self._pool.close()
        self._reads: dict[str, DocumentRead] | None = None

    @staticmethod
    def possible() -> bool:
        return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1

    def reader(
        self,
        root: Path,
        paths: list[str],
        scan: bool,
        sink: Callable[[bytes], None] | None = None,
    ) -> list[DocumentRead]:
        """``Package.load``'s reader: the reads made ahead (any other read here);
        ``sink`` as for :func:`read_documents`."""
        usable = not scan and root == self.root  # what was read ahead is what is asked
        sent = False  # whether the reads made ahead went to ``sink``
        if self._reads is None:
            reads = _gathered(
                self.root, self._chunks, (False, True), {}, self._pending, sink if usable else None
            )
            self._pending = []  # each held its chunk's pickle: unpacked, they are garbage
            self._pool.join()
            self._reads = {read.path: read for read in reads}
            sent = usable
        got = self._reads if usable else {}
        out, others = [], []
        for rel in paths:
            read = got.get(rel)
            if read is None:
                read = read_document(root, rel, scan)
                others.append(read)
            out.append(read)
        if sink is not None:
            _sink_all(sink, others if sent else out)
        return out


def _take_job(job: Any = None) -> None:
    """A worker's start: Ctrl+C left to the parent, and, in a spawned worker, the job
    the parent's fork would have handed down."""
    global _JOB
    start_as_worker()
    if job is not None:
        _JOB = job


def _claim() -> int | None:
    """The number of the next unread chunk of the current job, or ``None`` when done."""
    assert _JOB is not None
    return claim_next(_JOB[3], len(_JOB[1]))


def _read_claimed() -> tuple[int, bytes] | None:
    """In a worker: claim one chunk and read it (``None`` once every chunk is taken)."""
    number = _claim()
    if number is None:
        return None
    root, chunks, how, _ = _JOB  # type: ignore[misc]
    return number, _pickled([read_document(root, rel, *how) for rel in chunks[number]])


def read_head(path: Path | str, digest: bool = True) -> tuple[str, Fingerprint, bool]:
    """Read enough of ``path`` to hold its frontmatter.

    Returns the decoded text, a fingerprint, and whether the text is the whole file.
    Small files are read whole (and their fingerprint carries a digest, unless not
    ``digest``: a check that neither writes nor keeps a cache never compares contents). Plain
    ``os.read`` calls: three times faster than ``open()`` on thousands of small files.
    ``path`` is one the walk listed as a regular file; anything else (a named pipe...)
    raises :class:`~kas_tui.core.fileio.NotRegularFile`, never read.
    """
    fd, st = open_regular_stat(path, listed=True)  # a pipe swapped in after the walk: refused
    try:
        data = os.read(fd, HEAD_BYTES)
        if len(data) < HEAD_BYTES and len(data) != st.st_size:
            data += _read_upto(fd, HEAD_BYTES - len(data))  # a short read before the end
        if len(data) < HEAD_BYTES:
            hexdigest = hashlib.sha256(data).hexdigest() if digest else None
            return decode(data).text, Fingerprint(st.st_size, st.st_mtime_ns, hexdigest), True
        limit = fm.MAX_FRONTMATTER_CHARS * 4
        while not _closed(data) and len(data) < limit:
            chunk = _read_upto(fd, len(data))
            if not chunk:
                break
            data += chunk
        if len(data) < HEAD_BYTES * 2 and not _read_upto(fd, 1):  # it was all there
            hexdigest = hashlib.sha256(data).hexdigest() if digest else None
            return decode(data).text, Fingerprint(st.st_size, st.st_mtime_ns, hexdigest), True
    finally:
        os.close(fd)
    return decode(data, final=False).text, Fingerprint(st.st_size, st.st_mtime_ns), False


def _read_upto(fd: int, size: int) -> bytes:
    """Read ``size`` bytes, or fewer at the end of the file."""
    chunks = []
    while size > 0:
        chunk = os.read(fd, size)
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _closed(data: bytes) -> bool:
    """Whether ``data`` holds the whole frontmatter block (or has none)."""
    head = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    if not head.startswith(b"---"):
        return True
    return re.search(rb"\n---[ \t]*\r?\n", head[3:]) is not None


_INLINE_TARGET = re.compile(r"\]\(\s*<?([^)\s>]+)")
_REFERENCE_TARGET = re.compile(r"^[ \t]{0,3}\[[^\]]+\]:\s*<?(\S+?)>?\s*$", re.M)
_MAYBE_OUTSIDE = re.compile(r"file:|\(\s*<?[A-Za-z]:[\\/]", re.I)
_AUTOLINK_TARGET = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>")  # <file:///x>


def _may_leave(rel: str, target: str, depth: int) -> bool:
    """Cheap test: can ``target`` possibly resolve outside the root from ``rel``?"""
    return target.count("..") > depth or ":" in target or "\\" in target


def outside_links(rel: str, body: str, first_line: int) -> list[Problem]:
    """Problems for links in ``body`` that leave the package (never followed)."""
    if ".." not in body and "\\" not in body and not _MAYBE_OUTSIDE.search(body):
        return []
    depth = rel.count("/")
    candidates = [m.group(1) for m in _INLINE_TARGET.finditer(body)]
    if "]:" in body:
        candidates += [m.group(1) for m in _REFERENCE_TARGET.finditer(body)]
    if "<" in body:
        candidates += [m.group(1) for m in _AUTOLINK_TARGET.finditer(body)]
    if not any(_may_leave(rel, c, depth) and resolve(rel, c).kind == "outside" for c in candidates):
        return []  # the Markdown parser runs only when a link may leave the package
    from kas_tui.core.okf.links import extract_links

    return [
        Problem(
            rel,
            f"link to {link.target!r} leaves the package; it is never followed",
            link.line,
            "link to a document inside the package, or to a URL",
            "warning",
            "link-outside",
        )
        for link in extract_links(body, first_line=first_line)
        if resolve(rel, link.target).kind == "outside"
    ]


def read_text(root: Path, rel: str) -> tuple[str | None, Fingerprint | None, list[Problem]]:
    """Read a whole small text file (index, log, SKILL.md); problems instead of raising."""
    path = root / rel
    try:
        data = read_regular(path)
        fingerprint = Fingerprint.of(path, data)
        return decode(data).text, fingerprint, []
    except FormatError as exc:
        return None, None, [problem_from(rel, exc, "encoding")]
    except NotRegularFile as exc:
        return None, None, [special_problem(rel, exc.kind)]
    except OSError as exc:
        return None, None, [Problem(rel, f"cannot read: {_os_reason(exc)}", code="unreadable")]
