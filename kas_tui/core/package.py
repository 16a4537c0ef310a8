"""A loaded Knowledge-as-Skill package: documents, indexes, log, links and lookups.

Loading is permissive (a broken file becomes a :class:`Problem`, never an exception)
and reads each document's frontmatter only; bodies, links and backlinks are read on
first use. Verdicts (trust tier, staleness: see :mod:`kas_tui.core.okf.lifecycle`; listing) are derived,
never stored.
"""

from __future__ import annotations

import os
import posixpath
import time
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.core.disk import SKILL_NAMES, Problem, Walk, find_root, special_problem, walk
from kas_tui.core.disk import PackageError as PackageError
from kas_tui.core.fileio import Fingerprint, path_kind, read_regular, remove_stale_temps
from kas_tui.core.house_rules import HouseRules, HouseRulesError, RulesFile
from kas_tui.core.link_resolver import LinkResolver
from kas_tui.core.listings import listing_of
from kas_tui.core.loader import DocumentRead, read_document, read_documents, read_text
from kas_tui.core.memory import paused_gc
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.links import Link, Target, extract_links
from kas_tui.core.okf.log import Log, parse_log
from kas_tui.core.okf.skill import Skill, parse_skill
from kas_tui.core.okf.text import decode
from kas_tui.core.records import Document, IndexFile, Listing
from kas_tui.core.store import Store

if TYPE_CHECKING:
    from kas_tui.core.okf.scan import BodyScan


# --- the package ---------------------------------------------------------------------


class Package:
    """A package loaded from ``root``. Use :meth:`open`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.documents: dict[str, Document] = {}
        self.indexes: dict[str, IndexFile] = {}  # keyed by folder ('' is the root)
        self.folders: list[str] = [""]
        self.assets: list[str] = []
        self.skill: Skill | None = None
        #: The file read as the skill: SKILL.md, or a lowercase skill.md (see walk.SKILL_NAMES)
        self.skill_file = "SKILL.md"
        self.ignored_skill: str | None = None  # a skill.md beside SKILL.md
        self.skill_fingerprint: Fingerprint | None = None
        self.log: Log | None = None
        self.log_fingerprint: Fingerprint | None = None
        self.logs: dict[str, Log] = {}
        self.problems: list[Problem] = []  # package-level and walk problems
        self.file_problems: dict[str, list[Problem]] = {}  # index, log and SKILL.md problems
        self.store = Store()
        self.load_seconds = 0.0
        self._links: dict[str, list[tuple[Link, Target]]] = {}
        self.resolver = LinkResolver(root)
        self.scans: dict[str, BodyScan] = {}
        #: What the one-document rules found, for documents read for a check (see loader).
        self.document_findings: dict[str, tuple[tuple, ...]] = {}
        self._by_folder: dict[str, list[Document]] | None = None
        self._subfolders: dict[str, list[str]] | None = None
        self._backlinks: dict[str, list[tuple[str, Link]]] | None = None
        self._derived: dict[str, Any] = {}  # see derived()
        #: Counts the changes that clear what :meth:`derived` keeps (a background maker
        #: keeps its result only if none happened meanwhile).
        self.changes = 0
        #: False for a :meth:`preview`: documents outside the folders read are missing.
        self.complete = True
        self._unread: dict[str, list[str]] = {}  # a preview's documents not read, by folder
        self._unread_indexes: dict[str, str] = {}  # ... and index files, by folder
        self._walked: set[str] = set()  # ... and every document its walk found
        self._house_rules = RulesFile(root)

    @property
    def house_rules(self) -> HouseRules | None:
        """The rules the package declares in ``.kas-tui.yaml`` (see :class:`RulesFile`);
        raises :class:`HouseRulesError` for a file that cannot be used."""
        return self._house_rules.current()

    def usable_house_rules(self) -> HouseRules | None:
        """:attr:`house_rules`, or ``None`` when the file cannot be used (``check`` says
        why): what a form or a key that only offers choices asks."""
        try:
            return self._house_rules.current()
        except HouseRulesError:
            return None

    # -- opening ------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        reader: Any = None,
        scan: bool = False,
        cache: bool = False,
        found: Walk | None = None,
        digests: bool = True,
    ) -> Package:
        """Find the package root at or around ``path`` and load it.

        ``scan`` also scans every body (links, footnotes, headings) during the same read;
        ``cache`` reuses the metadata cache for unchanged files. Without ``digests``
        (a check that writes nothing), the documents' fingerprints hold no content
        digest unless ``cache``, whose entries are matched by content. ``reader`` maps
        ``read_document`` over (root, paths, scan) and hands each chunk of reads to the
        fourth argument, the metadata cache's sink, when that is not ``None``, as
        :func:`read_documents` does (tests use it to force one process).
        ``found`` is a walk of the root already made (with stats when ``cache``).
        """
        pkg = cls(find_root(Path(path)))
        pkg.load(reader=reader, scan=scan, cache=cache, found=found, digests=digests)
        return pkg

    @classmethod
    def preview(cls, root: Path, found: Walk, folders: Collection[str] = ("",)) -> Package:
        """What a first screen needs of a large package, read at once: the logs, SKILL.md,
        and the index and documents of each of ``folders`` (read, not looked up in the
        metadata cache: loading that costs more than reading a few files).

        The listings know every document of ``found``; :meth:`read_folder` reads more
        while a full load (another Package, in the background) makes the whole."""
        pkg = cls(root)
        wanted = set(folders)
        pkg._load(reader=None, scan=False, cache=False, found=found, only=wanted)
        pkg.complete = False
        for rel in found.documents:
            folder = posixpath.dirname(rel)
            if folder not in wanted:
                pkg._unread.setdefault(folder, []).append(rel)
        pkg._unread_indexes = {
            posixpath.dirname(i): i for i in found.indexes if posixpath.dirname(i) not in wanted
        }
        pkg._walked = set(found.documents)
        return pkg

    def is_unread(self, path: str) -> bool:
        """A preview: whether ``path`` is a document not read yet (see :meth:`read_folder`)."""
        return path in self._unread.get(posixpath.dirname(path), ())

    def read_folder(self, folder: str) -> None:
        """A preview: read ``folder``'s index.md and the documents in it, if not yet."""
        index = self._unread_indexes.pop(folder, None)
        if index is not None:
            self._load_index(index, self._walked)
        paths = self._unread.pop(folder, ())
        for rel in paths:
            self.documents[rel] = Document.from_read(read_document(self.root, rel))
        if paths:
            self._by_folder = None

    @property
    def name(self) -> str:
        return self.root.name

    def load(
        self,
        *,
        reader: Any = None,
        scan: bool = False,
        cache: bool = False,
        found: Walk | None = None,
        digests: bool = True,
    ) -> None:
        """(Re)load everything from disk (``found``: a fresh walk of the root, if made;
        ``digests``: as for :meth:`open`)."""
        with paused_gc():
            self._load(
                reader=reader, scan=scan, cache=cache, found=found, only=None, digests=digests
            )

    def _load(
        self,
        *,
        reader: Any,
        scan: bool,
        cache: bool,
        found: Walk | None,
        only: Collection[str] | None,
        digests: bool = True,
    ) -> None:
        """``only``: read just these folders' documents and indexes (a preview); the
        listings still know every document."""
        self.complete, self._unread, self._unread_indexes = True, {}, {}
        started = time.perf_counter()
        found = found or walk(self.root, stat=cache)
        if found.temps:  # left by a writer that died mid-save (never a live one's)
            remove_stale_temps(found.temps)
        self.folders = found.folders
        self.assets = found.assets
        self.problems = list(found.problems)
        self.file_problems = {}
        self.indexes = {}
        self.logs = {}
        self.log = None
        self.skill = None
        self.skill_file = found.skill or "SKILL.md"
        self.ignored_skill = found.ignored_skill

        def load_other_files() -> None:  # runs while worker processes read the documents
            documents = set(found.documents)
            for rel in found.indexes:
                if only is None or posixpath.dirname(rel) in only:
                    self._load_index(rel, documents)
            for rel in found.logs:
                self._load_log(rel)
            if found.skill:
                self._load_skill()

        paths = (
            found.documents
            if only is None
            else [d for d in found.documents if posixpath.dirname(d) in only]
        )
        reads = self._read_documents(
            found, paths, reader, scan, cache or digests, load_other_files, cache
        )
        self.documents = {r.path: Document.from_read(r) for r in reads}
        self._links.clear()
        self.resolver.forget()
        self._by_folder = self._subfolders = None
        self.scans = {r.path: r.scan for r in reads if r.scan is not None}
        self.document_findings = {r.path: r.findings for r in reads if r.findings is not None}
        self._backlinks = None
        self._derived.clear()
        self.changes += 1
        self.load_seconds = time.perf_counter() - started

    def _read_documents(
        self,
        found: Any,
        paths: list[str],
        reader: Any,
        scan: bool,
        digests: bool,
        meanwhile: Callable[[], None],
        cache: bool,
    ) -> list[DocumentRead]:
        """The reads of ``paths`` (of ``found``); ``meanwhile`` runs once, during the reading.

        With ``cache``, a full load that read anything writes the next metadata cache
        as it reads: the reads served from the old one are kept, and every chunk the
        reading workers send is appended as they sent it (:mod:`.cache`)."""

        def read_many(paths: list[str], sink: Any) -> list[DocumentRead]:
            if reader is None:
                return read_documents(
                    self.root, paths, scan=scan, digests=digests, meanwhile=meanwhile, sink=sink
                )
            meanwhile()
            return reader(self.root, paths, scan, sink)

        if not cache:
            return read_many(paths, None)
        from kas_tui.core.load_cache import cached_reads

        hits, writer = cached_reads(self.root, found, paths, scan)
        misses = [rel for rel in paths if rel not in hits]
        if not misses:
            meanwhile()
        try:
            fresh = {r.path: r for r in read_many(misses, writer and writer.add)} if misses else {}
        except BaseException:
            if writer is not None:
                writer.abort()
            raise
        if writer is not None:
            writer.finish()
        return [hits.get(rel) or fresh[rel] for rel in paths]

    def reload_file(self, rel: str) -> None:
        """Re-read one file after it changed (an edit, or another program)."""
        name = posixpath.basename(rel)
        self._links.pop(rel, None)
        self.resolver.forget(rel)  # the file may have become (or stopped being) a symlink
        self.scans.pop(rel, None)
        self.document_findings.pop(rel, None)
        self._by_folder = None
        self._backlinks = None
        self._derived.clear()
        self.changes += 1
        kind = path_kind(self.root / rel)  # a pipe or device now: never opened
        self.problems = [p for p in self.problems if p.path != rel or p.code != "special-file"]
        if kind is not None:
            self.problems.append(special_problem(rel, kind))
        exists = kind is None and (self.root / rel).is_file()
        if rel in SKILL_NAMES:  # which of SKILL.md and skill.md is the skill may change
            present = [n for n in SKILL_NAMES if (self.root / n).is_file()]
            self.skill_file = present[0] if present else "SKILL.md"
            self.ignored_skill = present[1] if len(present) > 1 else None
            self._load_skill() if present else setattr(self, "skill", None)
        elif name == "index.md":
            self.indexes.pop(posixpath.dirname(rel), None)
            if exists:
                self._load_index(rel)
        elif name == "log.md":
            self.logs.pop(rel, None)
            if rel == "log.md":
                self.log = None
            if exists:
                self._load_log(rel)
        elif rel.endswith(".md"):
            existed = rel in self.documents
            if exists:
                self.documents[rel] = Document.from_read(read_document(self.root, rel))
            else:
                self.documents.pop(rel, None)
            if exists != existed:  # a listing's kind depends only on whether its file exists
                self._resolve_listings()

    def _load_index(self, rel: str, documents: Collection[str] | None = None) -> None:
        """Parse one index.md and resolve its entries (against ``documents``, by default
        the loaded documents' paths)."""
        text, fingerprint, problems = read_text(self.root, rel)
        index = parse_index(text or "")
        folder = posixpath.dirname(rel)
        problems += [_problem(rel, p, "index") for p in index.problems]
        if index.frontmatter is not None:
            keys = sorted(set(index.frontmatter) - {"okf_version"})
            if folder:
                problems.append(
                    Problem(
                        rel,
                        "only the root index.md may have frontmatter",
                        1,
                        "remove the --- block from this index.md",
                        code="index",
                    )
                )
            elif keys:
                problems.append(
                    Problem(
                        rel,
                        f"the root index.md frontmatter may hold only okf_version, not {', '.join(keys)}",
                        1,
                        "move other keys out of index.md",
                        code="index",
                    )
                )
        self.indexes[folder] = IndexFile(rel, folder, index, fingerprint, problems)
        self.file_problems[rel] = problems
        self._resolve_listings(self.indexes[folder], documents)

    def _load_log(self, rel: str) -> None:
        text, fingerprint, problems = read_text(self.root, rel)
        log = parse_log(text or "")
        problems += [_problem(rel, p, "log") for p in log.problems]
        self.logs[rel] = log
        self.file_problems[rel] = problems
        if rel == "log.md":
            self.log, self.log_fingerprint = log, fingerprint

    def _load_skill(self) -> None:
        text, fingerprint, problems = read_text(self.root, self.skill_file)
        if text is None:
            self.skill, self.skill_fingerprint = Skill(), None
        else:
            self.skill = parse_skill(text)
            self.skill_fingerprint = fingerprint
            problems += [_problem("SKILL.md", p, "skill") for p in self.skill.problems]
        self.file_problems["SKILL.md"] = problems

    def _resolve_listings(
        self, only: IndexFile | None = None, documents: Collection[str] | None = None
    ) -> None:
        folders = set(self.folders)
        documents = self.documents if documents is None else documents
        for index_file in [only] if only else self.indexes.values():
            index_file.listings = [
                listing_of(index_file.path, entry, self.root, folders, documents, self.assets)
                for entry in index_file.index.entries
            ]

    # -- queries ------------------------------------------------------------------------

    def listings(self, folder: str) -> list[Listing]:
        """The entries of ``folder``'s index.md, in index order (empty without one)."""
        index_file = self.indexes.get(folder)
        return index_file.listings if index_file else []

    def listed_by(self, path: str) -> list[str]:
        """Index files listing the document (or bundle folder) ``path``."""
        return [
            f.path
            for f in self.indexes.values()
            if any(item.path == path and item.kind in ("document", "bundle") for item in f.listings)
        ]

    def unlisted(self) -> list[str]:
        """Documents that no index lists."""
        listed = {
            item.path
            for f in self.indexes.values()
            for item in f.listings
            if item.kind == "document"
        }
        return sorted(p for p in self.documents if p not in listed)

    def bundles(self) -> set[str]:
        """Folders that hold documents (at any depth) or an index.md: the bundles.

        A folder of assets only (``references/``) is not a bundle.
        """
        found = set(self.indexes)
        for path in self.documents:
            folder = posixpath.dirname(path)
            while folder and folder not in found:
                found.add(folder)
                folder = posixpath.dirname(folder)
        found.add("")
        return found

    def known_paths(self) -> set[str]:
        """Every root-relative path a link may name: files, folders and the root itself."""
        known = {"", *self.documents, *self.assets, *self.folders, *self.logs}
        known.update(f.path for f in self.indexes.values())
        if self.skill is not None:
            known.add(self.skill_file)
        return known

    def unreadable_folder_of(self, rel: str) -> str | None:
        """The folder that could not be listed and holds ``rel`` (or is it), if any: what
        is there is unknown, not missing."""
        for problem in self.problems:
            folder = problem.path
            inside = rel == folder or rel.startswith(f"{folder}/")
            if problem.code == "unreadable" and inside and (self.root / folder).is_dir():
                return folder
        return None

    def scan(self, rel: str) -> BodyScan:
        """The links, footnotes and headings of a document's body (scanned at most once)."""
        found = self.scans.get(rel)
        if found is None:
            try:
                body = self.body(rel)
            except (OSError, FormatError, PermissionError):
                body = ""
            from kas_tui.core.okf.scan import scan_body

            doc = self.documents.get(rel)
            found = scan_body(body, first_line=doc.body_line if doc else 1)
            self.scans[rel] = found
        return found

    def documents_in(self, folder: str) -> list[Document]:
        """The documents directly in ``folder``, sorted by path."""
        if self._by_folder is None:
            by_folder: dict[str, list[Document]] = {}
            for path in sorted(self.documents):
                doc = self.documents[path]
                by_folder.setdefault(doc.folder, []).append(doc)
            self._by_folder = by_folder
        return self._by_folder.get(folder, [])

    def subfolders(self, folder: str) -> list[str]:
        """The folders directly in ``folder``."""
        if self._subfolders is None:
            subs: dict[str, list[str]] = {}
            for f in self.folders:
                if f:
                    subs.setdefault(posixpath.dirname(f), []).append(f)
            self._subfolders = subs
        return self._subfolders.get(folder, [])

    def problems_of(self, path: str) -> list[Problem]:
        """Every load problem recorded on the file or folder ``path``."""
        if path in self.documents:
            return list(self.documents[path].problems)
        return self.file_problems.get(path, []) + [p for p in self.problems if p.path == path]

    def all_problems(self) -> list[Problem]:
        out = list(self.problems)
        for doc in self.documents.values():
            out.extend(doc.problems)
        for problems in self.file_problems.values():
            out.extend(problems)
        return out

    def read_text(self, rel: str) -> str:
        """The whole decoded text of a file in the package (raises OSError/FormatError)."""
        return self.read_for_edit(rel)[0]

    def read_for_edit(self, rel: str) -> tuple[str, Fingerprint]:
        """The decoded text of ``rel`` now, and the fingerprint of the bytes it came from.

        An editor keeps the fingerprint and saves with it (``run(based_on=...)``), so a
        change made on disk after the editor opened is a conflict, never overwritten.
        """
        target = self.resolve_path(rel)
        data = read_regular(self.root / target)
        return decode(data).text, Fingerprint.of_bytes(data)

    def index_paths(self) -> list[str]:
        """The root-relative path of every index.md read."""
        return [f.path for f in self.indexes.values()]

    def fingerprint(self, rel: str) -> Fingerprint | None:
        """The fingerprint of ``rel`` as the package last read it (``None``: not read)."""
        if rel == "SKILL.md":
            return self.skill_fingerprint
        if rel == "log.md":
            return self.log_fingerprint
        if posixpath.basename(rel) == "index.md":
            found = self.indexes.get(posixpath.dirname(rel))
            return found.fingerprint if found else None
        doc = self.documents.get(rel)
        return doc.fingerprint if doc else None

    def body(self, rel: str) -> str:
        """A document's body without its frontmatter, read now from disk."""
        text = self.read_text(rel)
        return text[fm.body_start(text) :]

    def resolve_path(self, rel: str) -> str:
        """Check that root-relative ``rel`` stays in the package (symlinks included)."""
        if not self.resolver.stays_inside(rel):
            raise PermissionError(f"{rel} leaves the package; it is never read")
        return rel

    def resolve(self, source: str, target: str) -> Target:
        """Resolve a link found in ``source``; a symlink leaving the root is ``outside``
        (see :class:`~kas_tui.core.link_resolver.LinkResolver`)."""
        return self.resolver.resolve(source, target)

    def links(self, rel: str) -> list[tuple[Link, Target]]:
        """The links in a document's body (or an index), resolved; read on first use.

        A document's come from its body scan (:meth:`scan`: the same links as
        ``extract_links``, about ten times faster, and shared with ``check``).
        """
        if rel not in self._links:
            if rel in self.documents:  # (a scan from the metadata cache holds plain tuples)
                found: Iterable[Link] = map(Link._make, self.scan(rel).links)
            else:  # an index or SKILL.md: its body, as the app shows it
                try:
                    text = self.read_text(rel)
                except (OSError, FormatError):
                    text = ""
                block = fm.find_block(text)
                end = block.end if block else 0
                found = extract_links(text[end:], first_line=text.count("\n", 0, end) + 1)
            self._links[rel] = [(link, self.resolve(rel, link.target)) for link in found]
        return self._links[rel]

    def derived(self, key: str, make: Callable[[Package], Any] | None = None) -> Any:
        """``make(self)``, made once and kept until a file of the package changes (the
        link graph, graph.py); without ``make``, what is kept (``None``: not made)."""
        if key not in self._derived:
            if make is None:
                return None
            self._derived[key] = make(self)
        return self._derived[key]

    def keep_derived(self, key: str, value: Any, changes: int) -> bool:
        """Keep ``value`` (made in the background) for ``key`` if the package did not
        change since ``changes``; say whether it was kept."""
        if changes != self.changes:
            return False
        self._derived[key] = value
        return True

    def backlinks(self, rel: str) -> list[tuple[str, Link]]:
        """Documents whose bodies link to ``rel`` (all bodies are read the first time)."""
        if self._backlinks is None:
            back: dict[str, list[tuple[str, Link]]] = {}
            for source in self.documents:
                for link, target in self.links(source):
                    if target.kind == "internal" and target.path != source:
                        back.setdefault(target.path, []).append((source, link))
            self._backlinks = back
        return self._backlinks.get(rel, [])


def _problem(rel: str, exc: FormatError, code: str) -> Problem:
    return Problem(rel, exc.message, exc.line, exc.hint, "error", exc.kind or code)
