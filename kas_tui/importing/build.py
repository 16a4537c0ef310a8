"""``kas-tui build``: a whole package from a folder of documents, in five stages.

1. **Enumerate** the source folder (hidden files and the output folder left out).
2. **Convert** every document, keeping the folder structure (folder and file names
   become slugs; links between Markdown files are rewritten to follow). Markdown keeps
   its frontmatter; other formats go through MarkItDown in worker processes, each under
   the time limit. A file that cannot be converted is reported, never fatal.
3. **Draft** frontmatter (:mod:`kas_tui.importing.draft`), with the types of a
   folder's documents informing each other.
4. **Navigate**: an ``index.md`` per folder listing every document and sub-folder with
   one sentence each, a root ``SKILL.md`` (what the package covers and when to use it;
   scope, exclusions, navigation, entry points, freshness, when to stop) and ``log.md``.
5. **Validate** with ``check --agent-ready``.

The first build writes into a temporary folder renamed into place at the end, so a
failed build leaves nothing. It also writes ``.kas-build.json`` in the package: each
source's hash and the values the build wrote (every frontmatter field, the body's
hash, each index entry, the SKILL.md description and body). A later build converts
only the sources whose hash changed or that are new, and for every value it would
write compares what is on disk with what it wrote last time: a value a curator has
edited since is kept, and said so in the summary. Documents a curator deleted are not
brought back; sources that disappeared leave their documents in place.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import posixpath
import re
import shutil
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..okf import frontmatter as fm
from ..okf import index as index_fmt
from ..okf import log as log_fmt
from ..okf import yaml_patch
from ..okf.errors import EditError, FormatError
from ..okf.links import relative_link, resolve, rewrite_links, site_link
from ..store import Store, StoreError, os_reason, write_atomic
from . import prose, summary
from .convert import ConversionError, Converted, Limits, sha256_file
from .draft import (
    FORMAT_TYPES,
    GENERATOR,
    Draft,
    body_text,
    content_type,
    draft_document,
    draft_title,
    dump_yaml,
)
from .pool import convert_files
from .slug import slugify, unique_slug

MANIFEST = ".kas-build.json"
#: Failures a second try on the same bytes cannot change (a timeout or a missing
#: dependency may go away with other options or packages: those are tried again).
_FINAL_FAILURES = frozenset({"unsupported", "corrupt", "encrypted", "no-text"})
ASSET_EXTS = frozenset({".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".bmp", ".ico"})
_SITE = re.compile(r"https?://[^/?#\s]+(?:[/?#]\S*)?$")
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class BuildError(Exception):
    """The build cannot start (bad name, output folder not made by kas-tui, ...)."""


Reporter = Callable[[str, int, int], None]


@dataclass
class BuildResult:
    """What a build did. ``report`` is the agent-ready check of the result."""

    out: Path
    name: str
    sources: int = 0
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    failed: list[ConversionError] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # curator edits the build left alone
    notes: list[str] = field(default_factory=list)
    assets: int = 0
    indexes: int = 0
    report: Any = None
    seconds: dict[str, float] = field(default_factory=dict)
    conversion_seconds: float = 0.0
    first: bool = True

    @property
    def errors(self) -> int:
        return self.report.count("error") if self.report is not None else 0


def check_name(name: str) -> None:
    """Raise :class:`BuildError` unless ``name`` is a valid skill name."""
    if not name or len(name) > 64 or not _NAME.match(name):
        raise BuildError(
            f"{name!r} is not a valid skill name: 1-64 lowercase letters, digits and single "
            "hyphens, no leading or trailing hyphen"
        )


def build(
    source_dir: Path | str,
    out_dir: Path | str,
    *,
    name: str | None = None,
    limits: Limits | None = None,
    workers: int | None = None,
    type: str | None = None,
    now: dt.datetime | None = None,
    progress: Reporter | None = None,
    validate: bool = True,
    link_base: str | None = None,
) -> BuildResult:
    """Build (or update) the package ``out_dir`` from the documents in ``source_dir``.

    ``name`` must equal ``out_dir``'s folder name (the Agent Skills rule); by default it
    is that name. ``progress(stage, done, total)`` is called as work advances.
    ``link_base`` (``https://learn.microsoft.com``) makes site-rooted links of Markdown
    sources (``/teams/x``) that lead to no source file absolute links to that site. Raises
    :class:`BuildError` when the build cannot start; bad source files never raise.
    """
    return _Builder(
        Path(source_dir),
        Path(out_dir),
        name=name,
        limits=limits or Limits(),
        workers=workers,
        type=type,
        now=now,
        progress=progress,
        link_base=link_base,
    ).run(validate=validate)


# --- the manifest --------------------------------------------------------------------------------


def _json_value(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, default=str, sort_keys=True) == json.dumps(b, default=str, sort_keys=True)


def _one_line(text: str) -> str:
    """Text as an index entry holds it: one line, single spaces."""
    return " ".join(text.split())


def _sha(text: str) -> str:
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def load_manifest(out: Path) -> dict[str, Any] | None:
    """The build manifest of package ``out``, or ``None`` when it has none."""
    try:
        data = json.loads((out / MANIFEST).read_text("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise BuildError(f"{out / MANIFEST} cannot be read ({exc}); remove it to rebuild") from None
    if not isinstance(data, dict) or data.get("version") != 1:
        raise BuildError(f"{out / MANIFEST} is not a kas-tui build manifest of a known version")
    return data


# --- the builder ---------------------------------------------------------------------------------


@dataclass
class _Doc:
    """One source document through the stages."""

    source: str  # source-relative POSIX path
    out: str  # package-relative POSIX path
    sha256: str = ""
    state: str = "new"  # new, changed, unchanged, deleted
    converted: Converted | None = None
    blocks: list[prose.Block] = field(default_factory=list)
    strong_type: str | None = None
    draft: Draft | None = None
    text: str = ""


class _Builder:
    def __init__(
        self,
        source: Path,
        out: Path,
        *,
        name: str | None,
        limits: Limits,
        workers: int | None,
        type: str | None,
        now: dt.datetime | None,
        progress: Reporter | None,
        link_base: str | None = None,
    ) -> None:
        self.source = Path(os.path.abspath(source))
        self.link_base = link_base or ""
        self.out = Path(os.path.abspath(out))
        self.name = name or self.out.name
        self.limits = limits
        self.workers = workers
        self.type = type
        self.now = now or dt.datetime.now(dt.timezone.utc)
        self.today = self.now.astimezone(dt.timezone.utc).date()
        self.progress = progress or (lambda stage, done, total: None)
        self.result = BuildResult(self.out, self.name)
        self.manifest: dict[str, Any] | None = None
        self.docs: dict[str, _Doc] = {}
        self.assets: dict[str, str] = {}  # source -> out
        self.folders: dict[str, str] = {}  # source folder -> out folder
        self.kinds: dict[str, str] = {}
        self.new_manifest: dict[str, Any] = {}
        self._info: dict[str, tuple[str, str, int]] | None = None
        self.failed_sha: dict[str, str] = {}
        self.asset_sha: dict[str, str] = {}
        self._index_changes = 0

    # -- checks before anything happens ---------------------------------------------------

    def _preflight(self) -> None:
        try:
            if not self.source.is_dir():
                raise BuildError(f"{self.source}: not a folder")
            with os.scandir(self.source):
                pass
        except OSError as exc:
            raise BuildError(f"{self.source}: cannot list the folder ({os_reason(exc)})") from None
        if self.link_base and not _SITE.match(self.link_base):
            raise BuildError(
                f"--link-base {self.link_base!r} is not a site's address; "
                "give one like https://learn.microsoft.com"
            )
        check_name(self.name)
        if self.name != self.out.name:
            raise BuildError(
                f"the skill name {self.name!r} must equal the package folder's name "
                f"({self.out.name!r}): build into {self.out.parent / self.name}"
            )
        if self.out == self.source or self.source.is_relative_to(self.out):
            raise BuildError(f"{self.out}: the output folder cannot hold the sources")
        if self.out.exists():
            if not self.out.is_dir():
                raise BuildError(f"{self.out}: exists and is not a folder")
            self.manifest = load_manifest(self.out)
            if self.manifest is None and any(os.scandir(self.out)):
                raise BuildError(
                    f"{self.out} is not empty and was not made by kas-tui build "
                    f"(no {MANIFEST}); choose an empty or new folder"
                )
        self.result.first = self.manifest is None

    # -- the stages --------------------------------------------------------------------------

    def run(self, *, validate: bool) -> BuildResult:
        self._preflight()
        clock = time.perf_counter()
        self._enumerate()
        self.result.seconds["enumerate"] = time.perf_counter() - clock
        clock = time.perf_counter()
        self._convert()
        self.result.seconds["convert"] = time.perf_counter() - clock
        clock = time.perf_counter()
        self._draft()
        self.result.seconds["draft"] = time.perf_counter() - clock
        clock = time.perf_counter()
        if self.result.first:
            self._write_first()
        else:
            self._write_again()
        self.result.seconds["write"] = time.perf_counter() - clock
        if validate:
            clock = time.perf_counter()
            self._validate()
            self.result.seconds["check"] = time.perf_counter() - clock
        return self.result

    # 1. enumerate ------------------------------------------------------------------------

    def _enumerate(self) -> None:
        documents: list[str] = []
        assets: list[str] = []
        real_source = os.path.realpath(self.source)

        def unlistable(exc: OSError) -> None:  # said, never skipped in silence
            rel = Path(exc.filename or self.source).relative_to(self.source).as_posix()
            self.result.notes.append(
                f"{rel}: cannot list the folder ({os_reason(exc)}); its files were not built"
            )

        for folder, dirs, files in os.walk(self.source, onerror=unlistable):
            here = Path(folder)
            dirs[:] = sorted(
                d
                for d in dirs
                if not d.startswith(".")
                and os.path.abspath(here / d) != str(self.out)
                and not (here / d).is_symlink()
            )
            for name in sorted(files):
                if name.startswith("."):
                    continue
                path = here / name
                if path.is_symlink():
                    real = os.path.realpath(path)
                    if not real.startswith(real_source + os.sep) or not os.path.isfile(real):
                        self.result.notes.append(
                            f"{path.relative_to(self.source)}: a symlink leaving the source "
                            "folder (or dangling); skipped"
                        )
                        continue
                rel = path.relative_to(self.source).as_posix()
                (assets if path.suffix.lower() in ASSET_EXTS else documents).append(rel)
        if not documents:
            raise BuildError(
                f"{self.source}: no files to convert in it"
                + (f" ({self.result.notes[0]})" if self.result.notes else "")
                + "; nothing was built"
            )
        self.result.sources = len(documents)
        self._map_paths(documents, assets)
        self.progress("enumerate", len(documents), len(documents))

    def _map_paths(self, documents: list[str], assets: list[str]) -> None:
        old = (self.manifest or {}).get("documents", {})
        old_assets = (self.manifest or {}).get("assets", {})
        self.folders = dict((self.manifest or {}).get("folders", {}))
        self.folders[""] = ""
        taken: dict[str, set[str]] = defaultdict(set)
        for out in self.folders.values():
            if out:
                taken[posixpath.dirname(out)].add(posixpath.basename(out))
        for entry in old.values():
            taken[posixpath.dirname(entry["path"])].add(posixpath.basename(entry["path"])[:-3])
        for entry in old_assets.values():
            taken[posixpath.dirname(entry["path"])].add(posixpath.basename(entry["path"]))
        if self.manifest is not None:  # names a curator gave files in the package are taken
            for folder, dirs, files in os.walk(self.out):
                rel = Path(folder).relative_to(self.out).as_posix()
                rel = "" if rel == "." else rel
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                taken[rel].update(dirs)
                taken[rel].update(f[:-3] if f.endswith(".md") else f for f in files)
        all_folders = sorted(
            {posixpath.dirname(p) for p in documents + assets} - {""},
            key=lambda f: (f.count("/"), f),
        )
        needed: set[str] = set()
        for folder in all_folders:
            while folder:
                needed.add(folder)
                folder = posixpath.dirname(folder)
        for folder in sorted(needed, key=lambda f: (f.count("/"), f)):
            if folder in self.folders:
                continue
            parent = self.folders[posixpath.dirname(folder)]
            slug = unique_slug(
                slugify(posixpath.basename(folder), fallback="folder"), taken[parent]
            )
            out = posixpath.join(parent, slug) if parent else slug
            taken[parent].add(slug)
            self.folders[folder] = out
        for rel in documents:
            if rel in old:
                out = old[rel]["path"]
            else:
                folder = self.folders[posixpath.dirname(rel)]
                base = slugify(Path(rel).stem)
                stem = unique_slug(base, taken[folder], at_root=not folder)
                taken[folder].add(stem)
                out = posixpath.join(folder, stem + ".md") if folder else stem + ".md"
            self.docs[rel] = _Doc(rel, out)
        for rel in assets:
            if rel in old_assets:
                self.assets[rel] = old_assets[rel]["path"]
                continue
            folder = self.folders[posixpath.dirname(rel)]
            suffix = Path(rel).suffix.lower()
            stem = unique_slug(slugify(Path(rel).stem, fallback="asset"), taken[folder])
            taken[folder].add(stem + suffix)
            self.assets[rel] = posixpath.join(folder, stem + suffix) if folder else stem + suffix

    # 2. convert --------------------------------------------------------------------------

    def _convert(self) -> None:
        old = (self.manifest or {}).get("documents", {})
        old_failed = (self.manifest or {}).get("failed", {})
        todo: list[_Doc] = []
        for doc in self.docs.values():
            try:
                doc.sha256 = sha256_file(self.source / doc.source)
            except OSError as exc:
                self.result.failed.append(
                    ConversionError(self.source / doc.source, "unreadable", f"{doc.source}: {exc}")
                )
                doc.state = "failed"
                continue
            previous = old.get(doc.source)
            failure = old_failed.get(doc.source)
            if (
                previous is None
                and isinstance(failure, dict)
                and failure.get("sha256") == doc.sha256
                and failure.get("reason") in _FINAL_FAILURES
            ):
                # the same bytes failed last time for a reason a new try cannot change
                self.result.failed.append(
                    ConversionError(
                        self.source / doc.source, failure["reason"], str(failure.get("message"))
                    )
                )
                self.failed_sha[doc.source] = doc.sha256
                doc.state = "failed"
                continue
            if previous is None:
                doc.state = "new"
            elif not (self.out / doc.out).is_file():
                doc.state = "deleted"
                self.result.notes.append(
                    f"{doc.out}: deleted since the last build; not recreated "
                    f"(its source is {doc.source})"
                )
                continue
            elif previous.get("sha256") == doc.sha256:
                doc.state = "unchanged"
                self.kinds[doc.source] = previous.get("kind") or "markdown"
                self.result.unchanged += 1
                continue
            else:
                doc.state = "changed"
            todo.append(doc)
        total = len(todo)
        self.progress("convert", 0, total)
        paths = [self.source / d.source for d in todo]
        converted = convert_files(paths, self.limits, workers=self.workers)
        for done, (i, result) in enumerate(converted, start=1):
            doc = todo[i]
            if isinstance(result, ConversionError):
                result.message = result.message.replace(
                    f"{result.source.name}:", f"{doc.source}:", 1
                )
                self.result.failed.append(result)
                self.failed_sha[doc.source] = doc.sha256
                doc.state = "failed"
            else:
                doc.converted = result
                self.result.conversion_seconds += result.seconds
            self.progress("convert", done, total)
        self.result.failed.sort(key=lambda e: str(e.source))
        for rel in sorted(set(old) - set(self.docs)):
            self.result.notes.append(
                f"{old[rel]['path']}: its source {rel} is gone; the document was kept"
            )

    # 3. draft ----------------------------------------------------------------------------

    def _draft(self) -> None:
        converted = [d for d in self.docs.values() if d.converted is not None]
        folder_types: dict[str, Counter[str]] = defaultdict(Counter)
        old = (self.manifest or {}).get("documents", {})
        for rel, entry in old.items():
            kind_type = (entry.get("fields") or {}).get("type")
            if rel in self.docs and self.docs[rel].converted is None and isinstance(kind_type, str):
                folder_types[posixpath.dirname(entry["path"])][kind_type] += 1
        for doc in converted:
            assert doc.converted is not None
            foreign = doc.converted.frontmatter or {}
            if all(
                isinstance(foreign.get(k), str) and foreign[k].strip()
                for k in ("title", "description")
            ):
                doc.blocks = prose.headings(doc.converted.markdown)  # all the draft needs
            else:
                doc.blocks = list(prose.blocks(doc.converted.markdown))
            given = foreign.get("type") if isinstance(foreign.get("type"), str) else None
            title = foreign.get("title") if isinstance(foreign.get("title"), str) else None
            doc.strong_type = (
                self.type
                or (given.strip() if given and given.strip() else None)
                or content_type(
                    doc.converted, title or draft_title(doc.converted, doc.blocks), doc.blocks
                )
            )
            if doc.strong_type and doc.strong_type not in FORMAT_TYPES:
                folder_types[posixpath.dirname(doc.out)][doc.strong_type] += 1
        siblings: dict[str, list[str]] = defaultdict(list)
        total = len(converted)
        for n, doc in enumerate(sorted(converted, key=lambda d: d.out), start=1):
            assert doc.converted is not None
            folder, stem = posixpath.split(doc.out[:-3])
            try:
                doc.draft = draft_document(
                    doc.converted,
                    None,
                    folder,
                    type=self.type,
                    root=self.out,
                    existing_types=folder_types[folder],
                    siblings=siblings[folder],
                    now=self.now,
                    slug=stem,
                    blocks=doc.blocks,
                )
                body = doc.draft.body
                if doc.converted.kind == "markdown":
                    body = self._rewrite_links(doc, body)
                    doc.draft.body = body
                doc.text = doc.draft.render()
            except (EditError, FormatError, ValueError) as exc:
                self.result.failed.append(
                    ConversionError(
                        self.source / doc.source,
                        "corrupt",
                        f"{doc.source}: its frontmatter cannot be completed ({exc})",
                    )
                )
                doc.state, doc.draft = "failed", None
                continue
            siblings[folder].append(doc.draft.description)
            self.kinds[doc.source] = doc.converted.kind
            doc.blocks = []
            self.progress("draft", n, total)

    def _rewrite_links(self, doc: _Doc, body: str) -> str:
        """Links to other sources, rewritten to the documents and assets they became."""
        if "](" not in body and "]:" not in body:
            return body

        def target_for(target: str) -> str | None:
            found = resolve(doc.source, target)
            if found.kind != "internal":
                return None  # an anchor, a URL, or a path leaving the sources
            resolved, rooted = found.path, target.startswith("/")
            path = unquote(target.partition("#")[0].partition("?")[0])
            sep, fragment = ("#", found.fragment) if "#" in target else ("", "")
            if resolved in self.docs and self.docs[resolved].state != "failed":
                new = self.docs[resolved].out
                folder = False
            elif resolved in self.assets:
                new = self.assets[resolved]
                folder = False
            elif resolved.rstrip("/") in self.folders:
                new = self.folders[resolved.rstrip("/")]
                folder = True
            elif rooted and self.link_base:
                return site_link(self.link_base, target)  # a page of the site the sources came from
            else:
                return None
            if rooted:
                link = "/" + new + ("/" if folder and new else "")
            else:
                link = relative_link(doc.out, new, folder=folder)
            if link == path:
                return None
            return link + (sep + fragment if sep else "")

        return rewrite_links(body, target_for)

    # 4. write: the first build -----------------------------------------------------------

    def _write_first(self) -> None:
        parent = self.out.parent
        parent.mkdir(parents=True, exist_ok=True)
        tmp = parent / f".{self.out.name}.kas-build-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            tmp.mkdir()
            docs = [d for d in self.docs.values() if d.draft is not None]
            total = len(docs) + len(self.assets)
            for n, doc in enumerate(docs, start=1):
                self._write_file(tmp / doc.out, doc.text)
                self.result.created.append(doc.out)
                self.progress("write", n, total)
            for n, (src, out) in enumerate(sorted(self.assets.items()), start=len(docs) + 1):
                target = tmp / out
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(self.source / src, target)
                self.asset_sha[src] = sha256_file(target)
                self.result.assets += 1
                self.progress("write", n, total)
            view = self._view_from_drafts()
            entries = self._write_indexes(tmp, view)
            skill_description, skill_body = self._skill(view)
            skill_text = (
                "---\n"
                + dump_yaml(
                    {
                        "name": self.name,
                        "description": skill_description,
                        "metadata": {"generated-by": GENERATOR, "source": self.source.name},
                    }
                )
                + "---\n\n"
                + skill_body
            )
            self._write_file(tmp / "SKILL.md", skill_text)
            failed = len(self.result.failed)
            message = (
                f"Built the package from {self.result.sources:,} files in {self.source.name} "
                f"with {GENERATOR}: {len(self.result.created):,} documents"
                + (f", {failed:,} files could not be converted" if failed else "")
                + "."
            )
            log_text = log_fmt.append_log_entry(
                None, self.today.isoformat(), "Initialization", message
            )
            self._write_file(tmp / "log.md", log_text)
            self._save_manifest(tmp, entries, skill_description, _sha(skill_body))
            if self.out.exists():
                self.out.rmdir()  # checked empty before the build started
            os.replace(tmp, self.out)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise BuildError(f"cannot write the package: {exc}") from None
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    @staticmethod
    def _write_file(path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")

    # -- the package as the indexes see it --------------------------------------------------

    def _view_from_drafts(self) -> dict[str, tuple[str, str, str]]:
        return {
            d.out: (d.draft.title, d.draft.description, d.draft.type)
            for d in self.docs.values()
            if d.draft is not None
        }

    def _tree(self, view: dict[str, tuple[str, str, str]]) -> tuple[list[str], dict, dict]:
        """(bundles, folder -> documents, folder -> sub-bundles) of the package."""
        bundles = {""}
        for path in view:
            folder = posixpath.dirname(path)
            while folder and folder not in bundles:
                bundles.add(folder)
                folder = posixpath.dirname(folder)
        docs_in: dict[str, list[str]] = defaultdict(list)
        for path in sorted(view):
            docs_in[posixpath.dirname(path)].append(path)
        subs_in: dict[str, list[str]] = defaultdict(list)
        for folder in bundles:
            if folder:
                subs_in[posixpath.dirname(folder)].append(folder)
        depth = lambda f: f.count("/") + 1 if f else 0  # noqa: E731
        return sorted(bundles, key=lambda f: (-depth(f), f)), docs_in, subs_in

    def _folder_titles(self) -> dict[str, str]:
        """Out folder -> title, from the source folder's own name (``SharePointServer``)."""
        titles = {"": index_fmt.folder_title(self.name)}
        for src, out in self.folders.items():
            if out:
                titles[out] = index_fmt.folder_title(posixpath.basename(src))
        return titles

    def _descriptions(
        self, view: dict[str, tuple[str, str, str]]
    ) -> dict[str, tuple[str, str, int]]:
        """Folder -> (title, description, documents at any depth), deepest folders first."""
        bundles, docs_in, subs_in = self._tree(view)
        titles = self._folder_titles()
        weights = summary.weights_for(
            [[view[p][0] for p in docs_in.get(f, [])] for f in bundles if docs_in.get(f)]
        )
        out: dict[str, tuple[str, str, int]] = {}
        types: dict[str, Counter[str]] = {}
        for folder in bundles:
            title = titles.get(folder) or index_fmt.folder_title(posixpath.basename(folder))
            documents = [(view[p][0], view[p][2]) for p in docs_in.get(folder, [])]
            subfolders = [(out[s][0], out[s][2]) for s in subs_in.get(folder, []) if s in out]
            types[folder] = Counter(t for _title, t in documents)
            for sub in subs_in.get(folder, []):
                types[folder].update(types.get(sub, Counter()))
            total = len(documents) + sum(n for _t, n in subfolders)
            description = summary.folder_description(
                title,
                documents,
                subfolders,
                total=total,
                weights=weights,
                doc_type=summary.main_type(types[folder].elements()),
            )
            out[folder] = (title, description, total)
        return out

    def _wanted_entries(
        self, view: dict[str, tuple[str, str, str]]
    ) -> tuple[dict[str, list[tuple[str, str, str, bool]]], dict[str, tuple[str, str, int]]]:
        """Folder -> [(target path, title, description, is_bundle)], and the folder info."""
        bundles, docs_in, subs_in = self._tree(view)
        info = self._descriptions(view)
        wanted: dict[str, list[tuple[str, str, str, bool]]] = {}
        for folder in bundles:
            entries = [
                (sub, _one_line(info[sub][0]), _one_line(info[sub][1]), True)
                for sub in sorted(subs_in.get(folder, []), key=lambda s: info[s][0].lower())
            ]
            entries += [
                (path, _one_line(view[path][0]), _one_line(view[path][1]), False)
                for path in sorted(docs_in.get(folder, []), key=lambda p: view[p][0].lower())
            ]
            wanted[folder] = entries
        return wanted, info

    @staticmethod
    def _new_entries(
        entries: list[tuple[str, str, str, bool]], view: dict
    ) -> list[index_fmt.NewEntry]:
        return [
            index_fmt.NewEntry(
                target, title, description, index_fmt.BUNDLE if is_bundle else view[target][2]
            )
            for target, title, description, is_bundle in entries
        ]

    def _index_text(
        self, folder: str, entries: list[tuple[str, str, str, bool]], info: dict, view: dict
    ) -> str:
        return index_fmt.new_index(folder, info[folder][0], self._new_entries(entries, view))

    def _write_indexes(self, root: Path, view: dict) -> dict[str, dict[str, list[str]]]:
        wanted, info = self._wanted_entries(view)
        written: dict[str, dict[str, list[str]]] = {}
        for folder, entries in wanted.items():
            index_rel = posixpath.join(folder, "index.md") if folder else "index.md"
            self._write_file(root / index_rel, self._index_text(folder, entries, info, view))
            written[folder] = {t: [title, desc] for t, title, desc, _b in entries}
            self.result.indexes += 1
        self._info = info
        return written

    # -- SKILL.md ---------------------------------------------------------------------------

    def _skill(self, view: dict[str, tuple[str, str, str]]) -> tuple[str, str]:
        info = self._info or self._descriptions(view)
        top = [f for f in info if f and "/" not in f]
        types = Counter(t for _title, _desc, t in view.values() if t)
        kinds = Counter(
            self.kinds.get(d.source, "markdown") for d in self.docs.values() if d.out in view
        )
        root_docs = sorted(
            ((p, v[0], v[1]) for p, v in view.items() if "/" not in p), key=lambda x: x[1].lower()
        )
        facts = summary.PackageFacts(
            name=self.name,
            title=index_fmt.folder_title(self.name),
            documents=len(view),
            bundles=[(f, info[f][0], info[f][1], info[f][2]) for f in top],
            root_documents=root_docs,
            types=types,
            kinds=kinds,
            source=self.source.name,
            failed=[f"{self._rel(e.source)}: {e.reason}" for e in self.result.failed],
            topics=summary.topics([v[0] for v in view.values()], limit=6),
        )
        return summary.skill_description(facts), summary.skill_body(facts)

    def _rel(self, path: Path) -> str:
        try:
            return Path(path).relative_to(self.source).as_posix()
        except ValueError:
            return Path(path).name

    # -- the manifest -----------------------------------------------------------------------

    def _save_manifest(
        self,
        root: Path,
        entries: dict[str, dict[str, list[str]]],
        skill_description: str,
        skill_body_sha: str,
    ) -> None:
        old = (self.manifest or {}).get("documents", {})
        documents: dict[str, Any] = {}
        for doc in self.docs.values():
            if doc.draft is not None:
                documents[doc.source] = {
                    "path": doc.out,
                    "sha256": doc.sha256,
                    "kind": doc.converted.kind if doc.converted else "",
                    "fields": self.new_manifest.get(doc.source, {}).get("fields")
                    or _json_value(doc.draft.frontmatter),
                    "body": self.new_manifest.get(doc.source, {}).get("body")
                    or _sha(doc.draft.body),
                }
            elif doc.source in old:
                documents[doc.source] = old[doc.source]
        old_assets = (self.manifest or {}).get("assets", {})
        data = {
            "version": 1,
            "generator": GENERATOR,
            "source": str(self.source),
            "name": self.name,
            "built": self.now.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "folders": {k: v for k, v in sorted(self.folders.items()) if k},
            "documents": dict(sorted(documents.items())),
            "assets": {
                src: {
                    "path": out,
                    "sha256": self.asset_sha.get(src) or old_assets.get(src, {}).get("sha256", ""),
                }
                for src, out in sorted(self.assets.items())
            },
            "indexes": entries,
            "skill": {"description": skill_description, "body": skill_body_sha},
            "failed": {
                self._rel(e.source): {
                    "sha256": self.failed_sha.get(self._rel(e.source), ""),
                    "reason": e.reason,
                    "message": e.message,
                }
                for e in self.result.failed
            },
        }
        if self.manifest is not None and _same(
            {**data, "built": None}, {**self.manifest, "built": None}
        ):
            return  # the build changed nothing: its record stays as it was, to the byte
        write_atomic(
            root / MANIFEST,
            (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"),
            expect=(root / MANIFEST).read_bytes() if (root / MANIFEST).exists() else None,
            create=not (root / MANIFEST).exists(),
        )

    # 4'. write: a later build ------------------------------------------------------------

    def _write_again(self) -> None:
        from ..package import Package

        assert self.manifest is not None
        store = Store()
        old = self.manifest.get("documents", {})
        changed = [d for d in self.docs.values() if d.draft is not None]
        for n, doc in enumerate(changed, start=1):
            target = self.out / doc.out
            if doc.state == "new" or not target.exists():
                if target.exists():  # never over a file the build did not write
                    self.result.notes.append(
                        f"{doc.out}: a file of that name is already there; kept"
                    )
                    doc.draft = None
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                store.apply(target, lambda _t, text=doc.text: text, create=True, label=doc.out)
                self.result.created.append(doc.out)
            else:
                self._update_document(store, doc, old.get(doc.source, {}))
            self.progress("write", n, len(changed))
        for src, out in self.assets.items():
            self._update_asset(src, out)
        pkg = Package(self.out)
        pkg.load()
        view = {p: (d.title, d.description, d.type) for p, d in pkg.documents.items()}
        entries = self._reconcile_indexes(pkg, store, view)
        skill_description, skill_body = self._skill(view)
        skill_description, skill_sha = self._update_skill(store, skill_description, skill_body)
        if self.result.created or self.result.updated or self._index_changes:
            added, updated = len(self.result.created), len(self.result.updated)
            message = (
                f"Rebuilt from {self.source.name}: {added:,} added, {updated:,} updated, "
                f"{self.result.unchanged:,} unchanged"
                + (f", {len(self.result.failed):,} failed" if self.result.failed else "")
                + (
                    f"; curator edits kept in {len(self.result.kept):,} places"
                    if self.result.kept
                    else ""
                )
                + "."
            )
            store.apply(
                self.out / "log.md",
                lambda t: log_fmt.append_log_entry(t, self.today.isoformat(), "Update", message),
                create=not (self.out / "log.md").exists(),
                label="log.md",
            )
        self._save_manifest(self.out, entries, skill_description, skill_sha)

    def _update_asset(self, src: str, out: str) -> None:
        """Copy a new or changed asset, unless a curator replaced or removed its copy."""
        assert self.manifest is not None
        target = self.out / out
        previous = self.manifest.get("assets", {}).get(src)
        digest = sha256_file(self.source / src)
        self.asset_sha[src] = digest
        if previous is None:
            if target.exists():
                self.result.notes.append(f"{out}: a file of that name is already there; kept")
                self.asset_sha[src] = ""
                return
        elif previous.get("sha256") == digest:
            return
        elif not target.exists() or sha256_file(target) != previous.get("sha256"):
            self.result.kept.append(f"{out}: replaced or removed by a curator; kept")
            self.asset_sha[src] = previous.get("sha256", "")
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.source / src, target)
        self.result.assets += 1

    def _update_document(self, store: Store, doc: _Doc, previous: dict[str, Any]) -> None:
        assert doc.draft is not None
        written = previous.get("fields") or {}
        new = doc.draft.frontmatter
        target = self.out / doc.out
        kept_fields: dict[str, Any] = {}
        notes: list[str] = []

        def transform(text: str | None) -> str:
            assert text is not None
            try:
                parsed = fm.parse(text)
            except FormatError:
                notes.append(f"{doc.out}: its frontmatter cannot be read; left as it is")
                return text
            current = parsed.data if parsed else {}
            for key, value in new.items():
                if key in written:
                    if key not in current:
                        notes.append(f"{doc.out}: '{key}' was removed by a curator; not restored")
                        kept_fields[key] = written[key]
                    elif _same(current[key], written[key]):
                        if not _same(current[key], value):
                            text = yaml_patch.set_field(text, key, value)
                    elif not _same(current[key], value):
                        notes.append(f"{doc.out}: '{key}' was edited by a curator; kept")
                        kept_fields[key] = written[key]
                elif key not in current:
                    text = yaml_patch.set_field(text, key, value)
            for key in written:
                if key not in new and key in current and _same(current[key], written[key]):
                    text = yaml_patch.remove_field(text, key)
            block = fm.find_block(text)
            head, body = (text[: block.end], text[block.end :]) if block else ("", text)
            if _sha(body) == previous.get("body"):
                text = head + body_text(doc.draft)
            elif _sha(body) != _sha(doc.draft.body):
                notes.append(
                    f"{doc.out}: the body was edited by a curator; the source's new text was not applied"
                )
                kept_fields["\0body"] = previous.get("body")
            return text

        try:
            change = store.apply(target, transform, label=doc.out)
        except (EditError, StoreError) as exc:
            self.result.notes.append(f"{doc.out}: not updated ({exc})")
            return
        self.result.kept.extend(notes)
        fields = {k: kept_fields.get(k, v) for k, v in _json_value(new).items()}
        self.new_manifest[doc.source] = {
            "fields": fields,
            "body": kept_fields.get("\0body") or _sha(doc.draft.body),
        }
        if change is not None:
            self.result.updated.append(doc.out)

    def _reconcile_indexes(
        self, pkg: Any, store: Store, view: dict[str, tuple[str, str, str]]
    ) -> dict[str, dict[str, list[str]]]:
        wanted, info = self._wanted_entries(view)
        self._info = info
        old_entries: dict[str, dict[str, list[str]]] = (
            self.manifest.get("indexes", {}) if self.manifest else {}
        )
        result: dict[str, dict[str, list[str]]] = {}
        self._index_changes = 0
        from ..editing import entry_kinds

        kinds = entry_kinds(pkg)  # the curator's documents count too, the build's win
        kinds.update((path, value[2]) for path, value in view.items())
        kinds.update((folder, index_fmt.BUNDLE) for folder in wanted if folder)
        for folder, entries in wanted.items():
            index_rel = posixpath.join(folder, "index.md") if folder else "index.md"
            path = self.out / index_rel
            index_file = pkg.indexes.get(folder)
            if index_file is None:
                store.apply(
                    path,
                    lambda _t, f=folder, e=entries: self._index_text(f, e, info, view),
                    create=not path.exists(),
                    label=index_rel,
                )
                result[folder] = {t: [title, desc] for t, title, desc, _b in entries}
                self._index_changes += 1
                self.result.indexes += 1
                continue
            before = old_entries.get(folder, {})
            record: dict[str, list[str]] = {}
            listed = {
                item.path: item
                for item in index_file.listings
                if item.kind in ("document", "bundle")
            }
            line_edits: list[tuple[int, str, str]] = []
            additions: list[tuple[str, str, str, bool]] = []
            for target, title, description, is_bundle in entries:
                item = listed.get(target)
                previous = before.get(target)
                if item is None:
                    if previous is not None:
                        self.result.kept.append(
                            f"{index_rel}: the entry for {target} was removed by a curator; "
                            "not restored"
                        )
                        record[target] = previous
                        continue
                    additions.append((target, title, description, is_bundle))
                    record[target] = [title, description]
                    continue
                now_pair = [item.entry.title, item.entry.description]
                if previous is None:
                    continue  # an entry the build did not write: the curator's
                if now_pair != previous:
                    self.result.kept.append(
                        f"{index_rel}: the entry for {target} was edited by a curator; kept"
                    )
                    record[target] = previous
                    continue
                if now_pair != [title, description]:
                    line_edits.append((item.entry.line, title, description))
                record[target] = [title, description]
            removals: list[int] = []
            for item in index_file.listings:
                # an entry the build wrote for a document a curator has deleted since
                pair = [item.entry.title, item.entry.description]
                if item.kind == "missing" and before.get(item.path) == pair:
                    removals.append(item.entry.line)
                    self.result.notes.append(
                        f"{index_rel}: removed the entry for {item.path}, which was deleted"
                    )
            if line_edits or additions or removals:

                def transform(
                    text: str | None,
                    folder: str = folder,
                    line_edits: list = line_edits,
                    additions: list = additions,
                    removals: list = removals,
                ) -> str:
                    assert text is not None
                    for line, title, description in line_edits:  # lines as read: first
                        text = index_fmt.set_entry(text, line, title=title, description=description)
                    for line in sorted(removals, reverse=True):
                        text = index_fmt.remove_entry(text, line)
                    return index_fmt.list_entries(
                        text, folder, self._new_entries(additions, view), kinds
                    )

                try:
                    if store.apply(path, transform, expect=index_file.fingerprint, label=index_rel):
                        self._index_changes += 1
                except (EditError, StoreError) as exc:
                    self.result.notes.append(f"{index_rel}: not updated ({exc})")
            result[folder] = record
        return result

    def _update_skill(self, store: Store, description: str, body: str) -> tuple[str, str]:
        """Update SKILL.md where the build's last text is still there; keep curator edits."""
        path = self.out / "SKILL.md"
        previous = (self.manifest or {}).get("skill", {})
        if not path.exists():
            self.result.notes.append("SKILL.md: deleted since the last build; not recreated")
            return previous.get("description", description), previous.get("body", "")
        kept_description = kept_body = False

        def transform(text: str | None) -> str:
            nonlocal kept_description, kept_body
            assert text is not None
            parsed = fm.parse(text)
            current = parsed.data.get("description") if parsed else None
            if current == previous.get("description"):
                if current != description:
                    text = yaml_patch.set_field(text, "description", description)
            else:
                kept_description = True
            block = fm.find_block(text)
            head, old_body = (text[: block.end], text[block.end :]) if block else ("", text)
            if _sha(old_body) == previous.get("body"):
                text = head + "\n" + body
            else:
                kept_body = True
            return text

        try:
            if store.apply(path, transform, label="SKILL.md"):
                self._index_changes += 1
        except (EditError, StoreError, FormatError) as exc:
            self.result.notes.append(f"SKILL.md: not updated ({exc})")
        if kept_description:
            self.result.kept.append("SKILL.md: the description was edited by a curator; kept")
            description = previous.get("description", description)
        if kept_body:
            self.result.kept.append("SKILL.md: the body was edited by a curator; kept")
            return description, previous.get("body", "")
        return description, _sha(body)

    # 5. validate --------------------------------------------------------------------------

    def _validate(self) -> None:
        from ..checks import check
        from ..package import Package

        pkg = Package(self.out)
        pkg.load(scan=True)
        self.result.report = check(pkg, agent_ready=True, today=self.today)
