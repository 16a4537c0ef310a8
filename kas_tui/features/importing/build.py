"""``kas-tui build``: a whole package from a folder of documents, in five stages.

1. **Enumerate** the source folder (hidden files and the output folder left out).
2. **Convert** every document, keeping the folder structure (folder and file names
   become slugs; links between Markdown files are rewritten to follow). Markdown keeps
   its frontmatter; other formats go through MarkItDown in worker processes, each under
   the time limit. A file that cannot be converted is reported, never fatal.
3. **Draft** frontmatter (:mod:`kas_tui.features.importing.draft`), with the types of a
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

This module holds the stages; :mod:`.build_draft` the drafting, :mod:`.build_layout`
the paths, links, indexes and SKILL.md, :mod:`.build_reconcile` a later build's writes,
:mod:`.build_manifest` the record.
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import re
import shutil
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kas_tui.core.okf import log as log_fmt
from kas_tui.core.store import os_reason
from kas_tui.features.importing.build_asciidoc import AsciidocMixin
from kas_tui.features.importing.build_draft import DraftMixin
from kas_tui.features.importing.build_groups import GroupsMixin
from kas_tui.features.importing.build_includes import IncludesMixin
from kas_tui.features.importing.build_layout import LayoutMixin, _Doc
from kas_tui.features.importing.build_manifest import (
    MANIFEST,
    BuildError,
    ManifestMixin,
    _sha,
    load_manifest,
)
from kas_tui.features.importing.build_published import (
    ASSET_EXTS,
    PublishedMixin,
    image_without_extension,
)
from kas_tui.features.importing.build_reconcile import ReconcileMixin
from kas_tui.features.importing.build_skill import SkillMixin
from kas_tui.features.importing.build_toc_tree import TocTreeMixin
from kas_tui.features.importing.comment_includes import site_roots
from kas_tui.features.importing.convert import (
    SHOWS_NOTHING,
    ConversionError,
    Limits,
    sha256_file,
)
from kas_tui.features.importing.draft import GENERATOR, dump_yaml
from kas_tui.features.importing.files import SUPPORTED
from kas_tui.features.importing.git_dates import date_by_commits
from kas_tui.features.importing.machinery import without_machinery
from kas_tui.features.importing.redirects import redirect_pages, redirect_pages_note
from kas_tui.features.importing.source_meta import (
    in_include_folder,
    is_furniture,
    is_page_part,
    is_partial,
    is_site_config,
    is_source_code,
    is_template,
    is_toc_file,
    readmes_as_pages,
    site_config_above,
)
from kas_tui.features.importing.source_walk import GITBOOK, walk_source
from kas_tui.features.importing.sphinx_conf import rst_pages, rst_reading
from kas_tui.features.importing.tiddlywiki import without_system_tiddlers
from kas_tui.features.importing.toc import Toc, find_toc
from kas_tui.features.importing.toc_docsets import with_other_tocs
from kas_tui.features.importing.toc_jekyll import in_jekyll_own_folder
from kas_tui.features.importing.toc_model import FOLDERS
from kas_tui.features.importing.translations import without_translations
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET
from kas_tui.text.wording import counted

#: Failures a second try on the same bytes cannot change (a timeout or a missing
#: dependency may go away with other options or packages: those are tried again).
_FINAL_FAILURES = frozenset({"unsupported", "corrupt", "encrypted", "no-text"})
#: What a docs site's file no converter reads is to the build.
_SERVED = "no converter reads it; a file the site serves as it is, copied as an asset"
_SITE = re.compile(r"https?://[^/?#\s]+(?:[/?#]\S*)?$")
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


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
    index_budget: int = INDEX_TOKEN_BUDGET,
) -> BuildResult:
    """Build (or update) the package ``out_dir`` from the documents in ``source_dir``.

    ``name`` must equal ``out_dir``'s folder name (the Agent Skills rule); by default it
    is that name. ``progress(stage, done, total)`` is called as work advances.
    ``link_base`` (``https://learn.microsoft.com``) makes site-rooted links of Markdown
    sources (``/teams/x``) that lead to no source file absolute links to that site. Raises
    :class:`BuildError` when the build cannot start; bad source files never raise.
    ``index_budget``: most tokens an index may take; a folder whose index would take
    more is split into topical sub-bundles (:mod:`.build_groups`).
    """
    if index_budget < 500:
        raise BuildError(f"an index budget of {index_budget} tokens is too small (500 at least)")
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
        index_budget=index_budget,
    ).run(validate=validate)


# --- the builder ---------------------------------------------------------------------------------


class _Builder(
    DraftMixin,
    LayoutMixin,
    SkillMixin,
    IncludesMixin,
    GroupsMixin,
    TocTreeMixin,
    ReconcileMixin,
    ManifestMixin,
    AsciidocMixin,
    PublishedMixin,
):
    """The five stages; the paths, links and indexes (:mod:`.build_layout`), SKILL.md
    (:mod:`.build_skill`), a later build's reconciling (:mod:`.build_reconcile`) and the
    manifest (:mod:`.build_manifest`) come from its mixins."""

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
        index_budget: int = INDEX_TOKEN_BUDGET,
    ) -> None:
        self.source = Path(os.path.abspath(source))
        self.link_base = link_base or ""
        self.out = Path(os.path.abspath(out))
        self.name = name or self.out.name
        # a page's include directives (reStructuredText's) may show files of the source
        self.limits = replace(limits, include_root=str(self.source))
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
        self.group_titles: dict[str, str] = {}  # sub-bundles the build made -> title
        self.source_meta: list[dict] = []  # what each source says it is about
        self.about: dict[str, dict] = {}  # source -> its SUBJECT_KEYS values
        self.links_between: set[tuple[str, str]] = set()  # (source, source it links to)
        self._off_links: dict[str, Counter[str]] = {}  # site-rooted links to no source file
        self._above_links: dict[str, Counter[str]] = {}  # relative links above the docs
        self.includes_of: dict[str, list[str]] = {}  # page -> files its directives name
        self._section_names: dict[str, str] = {}  # folder -> the name its section page gives it
        self.components_of: dict[str, list[str]] = {}  # page -> where files it shows may be
        self.titles_of: dict[str, list[str]] = {}  # page -> the pages whose titles it shows
        self.toc: Toc | None = None  # the source's own table of contents
        self.source_files: set[str] = set()  # every file of the source (hidden .order too)
        self.index_budget = index_budget
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
        groups = (self.manifest or {}).get("groups") or {}
        self.group_titles = {str(k): str(v) for k, v in groups.items()}

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
        if self.result.first:
            self._refuse_if_nothing_converted()
            self._split_large_folders()
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

    def _refuse_if_nothing_converted(self) -> None:
        """A first build in which no file could be converted writes nothing: an empty
        package would only hide the failures behind a SKILL.md and an empty index."""
        if any(doc.state != "failed" for doc in self.docs.values()):
            return
        if not self.docs:  # every page was left out: the notes say why
            said = "; ".join(self.result.notes[:3]) or "no page is left to build"
            raise BuildError(f"{self.source}: no pages left to build ({said}); nothing was built")
        failed = self.result.failed
        first = f" (first: {failed[0].message})" if failed else ""
        raise BuildError(
            f"{self.source}: none of its {len(self.docs):,} files could be converted"
            f"{first}; nothing was built"
        )

    # 1. enumerate ------------------------------------------------------------------------

    def _enumerate(self) -> None:
        documents: list[str] = []
        assets: list[str] = []
        found, orders = walk_source(self.source, self.out, self.result.notes)
        # which files are reStructuredText pages (Django's .txt below its conf.py), what
        # roles its Sphinx projects add (:ticket:`123`, :setting:`DEBUG`)
        read = self._read_source
        self.limits = replace(
            self.limits, rst_pages=rst_pages(found, read), rst_reading=rst_reading(found, read)
        )
        tops = {rel.split("/", 1)[0] if "/" in rel else "" for rel in found}
        wrapper = tops.pop() + "/" if len(tops) == 1 and "" not in tops else ""
        listed = set(found)
        for rel in found:
            # furniture and site configs are told by their place in the site: below a
            # wrapper folder around everything, that folder is the root
            inner = rel[len(wrapper) :] if wrapper else rel
            asset = Path(rel).suffix.lower() in ASSET_EXTS or is_furniture(inner)
            asset = asset or in_jekyll_own_folder(rel, listed)  # templates, data, drafts
            asset = asset or is_site_config(inner) or is_source_code(rel)
            asset = (
                asset or in_include_folder(rel) or is_partial(rel) or is_template(self.source, rel)
            )
            asset = asset or GITBOOK in rel.split("/")[:-1]  # a GitBook space's uploads
            asset = asset or image_without_extension(self.source / rel)  # Joplin's
            # a JSON schema (sourcegraph's team.schema.json, a PEP's): a file, no page
            asset = asset or rel.lower().endswith(".schema.json")
            (assets if asset else documents).append(rel)
        content = readmes_as_pages(documents, assets, wrapper)  # a repository that is its README
        documents, assets = [*content, *documents], [a for a in assets if a not in content]
        if not documents:
            raise BuildError(
                f"{self.source}: no files to convert in it"
                + (f" ({self.result.notes[0]})" if self.result.notes else "")
                + "; nothing was built"
            )
        self._include_roots = site_roots([*found, *orders])  # where <!--@include: @/x--> starts
        documents, assets = self._find_includes(documents, assets)
        self._redirect_pages = redirect_pages(documents, self._read_source, self.source)
        if self._redirect_pages:  # old addresses a site sends on: no pages
            documents = [d for d in documents if d not in self._redirect_pages]
            self.result.notes.append(redirect_pages_note(self._redirect_pages, self._read_source))
        self.source_files = {*documents, *assets, *orders}
        self.toc = with_other_tocs(
            find_toc(self.source_files, self._read_source), self.source_files, self._read_source
        )
        if self.toc is not None:  # a page the site serves though furniture elsewhere
            included = {f for found in self.includes_of.values() for f in found}
            served = self.toc.served_pages(assets, included)
            own = (served & included) - self.toc.unpublished  # conf.py excludes a template
            self.limits = replace(self.limits, own_pages=frozenset(own))
            documents, assets = (
                [*documents, *sorted(served)],
                [a for a in assets if a not in served],
            )
        documents = self._without_drawn_pages(documents)  # a theme's, a folder's name
        walked = len(self.result.notes)  # what the walk and the includes said
        bare = self.toc is None or self.toc.kind == FOLDERS  # no site's config read
        above = site_config_above(self.source) if bare else None
        self.result.notes += [above] if above else []
        if self.toc is not None:
            self.result.notes += self.toc.problems
            # the files read for its tree are no pages (Fumadocs' meta.json in each folder)
            documents = [d for d in documents if d not in self.toc.also_read]
        if self.toc is not None:  # the docs' earlier versions, what the config leaves out
            older, what = self.toc.left_out([*documents, *assets])
            if older & set(documents):
                self.result.notes.append(f"{counted(len(older), 'file')} {what}; left out")
                documents = [d for d in documents if d not in older]
                assets = [a for a in assets if a not in older]
        documents, assets = self._without_unpublished(documents, assets, walked)
        documents, assets = without_translations(
            documents,
            assets,
            self.result.notes,
            self._read_source,
            by_name=self.toc is None or not self.toc.names_are_places,
            listed=self.toc.order() if self.toc is not None else (),
        )
        documents, assets = without_machinery(
            documents, assets, self.result.notes, self._read_source
        )
        documents = without_system_tiddlers(documents, assets, self.result.notes, self._read_source)
        themed = set()
        if self.toc is not None:  # a theme's templates, files the site serves as they are
            themed = self.toc.theme_files(documents)
            themed |= self.toc.static_files(documents, self.limits.rst_pages.holds)
            self.result.notes += self.toc.resources_note(themed)
            served = sorted(
                d for d in documents if d not in themed and Path(d).suffix.lower() not in SUPPORTED
            )
            self.result.notes += [f"{d}: {_SERVED}" for d in served]  # a download: a .chm
            themed.update(served)
        documents, assets = [d for d in documents if d not in themed], [*assets, *sorted(themed)]
        # the TOC files are read for the tree, not copied: the indexes are the package's TOC
        # (a page holding a toctree, Sphinx' index.md, is read for the tree and a page too)
        read = self.toc.read_files() if self.toc is not None else set()
        assets = [a for a in assets if a not in read and not is_toc_file(a) and not is_page_part(a)]
        documents = [d for d in documents if self.toc is None or d != self.toc.file]
        documents, assets = self._adoc_includes(documents, assets)  # AsciiDoc's snippets
        self.result.sources = len(documents)
        self._map_paths(documents, assets)
        self.progress("enumerate", len(documents), len(documents))

    # 2. convert --------------------------------------------------------------------------

    def _convert(self) -> None:
        old = (self.manifest or {}).get("documents", {})
        old_failed = (self.manifest or {}).get("failed", {})
        todo: list[_Doc] = []
        for doc in self.docs.values():
            try:
                doc.sha256 = self._include_sha(doc.source, sha256_file(self.source / doc.source))
            except OSError as exc:
                self.result.failed.append(
                    ConversionError(
                        self.source / doc.source,
                        "unreadable",
                        f"{doc.source}: cannot be read ({os_reason(exc)})",
                    )
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
        converted = self._convert_all(paths)  # AsciiDoc pages with their site
        for done, (i, result) in enumerate(converted, start=1):
            doc = todo[i]
            if isinstance(result, ConversionError):
                result.message = result.message.replace(
                    f"{result.source.name}:", f"{doc.source}:", 1
                )
                doc.state = "failed"  # not built, either way
                if result.reason == SHOWS_NOTHING:
                    self.result.notes.append(result.message)
                else:
                    self.result.failed.append(result)
                    self.failed_sha[doc.source] = doc.sha256
            else:
                doc.converted = result
                self.result.conversion_seconds += result.seconds
            self.progress("convert", done, total)
        self.result.failed.sort(key=lambda e: str(e.source))
        self._date_by_commits([d for d in todo if d.converted is not None])
        for rel in sorted(set(old) - set(self.docs)):
            self.result.notes.append(
                f"{old[rel]['path']}: its source {rel} is gone; the document was kept"
            )

    def _date_by_commits(self, docs: list[_Doc]) -> None:
        """A source in a git work tree changed when its last commit did, not when it was
        checked out (:mod:`.git_dates`)."""
        converted = [d.converted for d in docs if d.converted is not None]
        self.result.notes += date_by_commits(converted, self.source)

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
            folders = {posixpath.dirname(d.out) for d in docs}
            folders |= {posixpath.dirname(out) for out in self.assets.values()}
            for folder in sorted(folders):  # each folder made once, not once a file
                (tmp / folder).mkdir(parents=True, exist_ok=True)
            for n, doc in enumerate(docs, start=1):
                self._write_text(tmp / doc.out, doc.text)
                self.result.created.append(doc.out)
                self.progress("write", n, total)
            for n, (src, out) in enumerate(sorted(self.assets.items()), start=len(docs) + 1):
                shutil.copy2(self.source / src, tmp / out)
                self.asset_sha[src] = sha256_file(tmp / out)
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
                f"Built the package from {counted(self.result.sources, 'file')} in "
                f"{self.source.name} with {GENERATOR}: "
                f"{counted(len(self.result.created), 'document')}"
                + (f", {counted(failed, 'file')} could not be converted" if failed else "")
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

    # 5. validate --------------------------------------------------------------------------

    def _validate(self) -> None:
        from kas_tui.core.package import Package
        from kas_tui.features.check import check

        pkg = Package(self.out)
        pkg.load(scan=True)
        self.result.report = check(
            pkg, agent_ready=True, today=self.today, index_budget=self.index_budget
        )
