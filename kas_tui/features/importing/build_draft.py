"""The build's third stage: frontmatter drafted for every converted page, with the types
of a folder's pages informing each other, the source's shared sentences passed over
(:func:`~kas_tui.features.importing.heuristics.shared_sentences`) and each folder's
descriptions kept apart (:class:`~kas_tui.text.alike.AlikeSet`).

From :data:`PARALLEL_MIN` pages on, folders are drafted in this process and a forked
helper (:func:`kas_tui.core.workers.map_chunks_in_two`), a folder whole in one of them:
each page's draft comes back with what rewriting its links found (the links between
pages, the site links counted, their spans), and the builder takes them in page order.
Same package either way (tests/features/importing/test_build_draft_in_two.py). What a
page's link rewriting works out once for all (the site's address) is worked out again
here when the helper was the one to need it."""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.workers import map_chunks_in_two
from kas_tui.features.importing.convert_model import LINKED_KINDS, ConversionError
from kas_tui.features.importing.doc_types import FORMAT_TYPES, content_type, section_type
from kas_tui.features.importing.draft import (
    Draft,
    draft_document,
    given_description,
    own_description,
)
from kas_tui.features.importing.heuristics import draft_title, shared_sentences
from kas_tui.features.importing.page_subjects import SUBJECT_KEYS
from kas_tui.text import prose
from kas_tui.text.alike import AlikeSet
from kas_tui.text.section_topics import common_headings, section_topics

if TYPE_CHECKING:
    from kas_tui.features.importing.build_layout import _Doc

#: Pages from which on folders are drafted in two processes: drafting a page takes a
#: millisecond or two (working out what it shows, PARALLEL_MIN of build_prepare, less),
#: so from about a hundred the helper saves more than forking it costs (Textual's 200
#: pages: 2.1 -> 1.8 s).
PARALLEL_MIN = 100
#: Sections of a page kept for its index entry (no more fit in one description).
_ENTRY_TOPICS = 8
#: Front-matter keys a site generator reads as its own, not as OKF's: Hugo's ``type``
#: picks the layout a page is drawn with (``docs``, ``blog``: Docsy sets it on every
#: page), says nothing of what kind of document the page is, and is kept under its
#: generator's name, so the page's OKF type is drafted from what it holds.
_GENERATOR_KEYS = {"hugo": {"type": "hugo_type"}}


def generator_keys_apart(kind: str, frontmatter: dict | None) -> dict | None:
    """``frontmatter`` with the keys the site generator ``kind`` reads as its own renamed
    (:data:`_GENERATOR_KEYS`), in their place."""
    renames = _GENERATOR_KEYS.get(kind)
    if not frontmatter or not renames or not any(k in frontmatter for k in renames):
        return frontmatter
    return {renames.get(k, k): v for k, v in frontmatter.items()}


@dataclass
class _Context:
    """What drafting every page reads (worked out from all of them first)."""

    folder_types: dict[str, Counter[str]]
    common: frozenset[str]
    shared: dict[str, int]
    labels: dict[str, str]
    labels_name_pages: bool = True  # MkDocs' nav names its pages; mdBook's SUMMARY does not


@dataclass
class _Drafted:
    """What drafting a page made: its draft (without its converted text, which the
    builder holds) and what rewriting its links found, or why it failed."""

    draft: Draft | None = None
    text: str = ""
    raw_body: str = ""
    headings: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    raw_spans: list[Any] | None = None
    links: set[tuple[str, str]] = field(default_factory=set)
    off: Counter[str] | None = None
    above: Counter[str] | None = None
    failed: str = ""


class _DraftPages:
    """Drafting a folder's pages in order, each beside its siblings' descriptions (so
    that they read apart): a folder is drafted whole, in either process."""

    def _draft_folders(self, groups: list[list[_Doc]]) -> list[list[_Drafted]]:
        return [self._draft_folder(group) for group in groups]

    def _draft_folder(self, group: list[_Doc]) -> list[_Drafted]:
        siblings = AlikeSet()
        out = []
        for doc in group:
            drafted = self._draft_one(doc, siblings)
            if drafted.draft is not None:
                siblings.add(drafted.draft.description)
            out.append(drafted)
        return out

    def _draft_one(self, doc: _Doc, siblings: AlikeSet) -> _Drafted:
        assert doc.converted is not None
        context: _Context = self._drafting
        folder, stem = posixpath.split(doc.out[:-3])
        links, self.links_between = self.links_between, set()  # those this page adds
        try:
            draft = draft_document(
                doc.converted,
                None,
                folder,
                type=self.type,
                root=self.out,
                existing_types=context.folder_types[folder],
                siblings=siblings,
                common_headings=context.common,
                shared=context.shared,
                title_hint=context.labels.get(doc.source, ""),
                hint_names_page=context.labels_name_pages,
                now=self.now,
                slug=stem,
                blocks=doc.blocks,
            )
            drafted = _Drafted(draft, raw_body=draft.body)
            doc.raw_body = draft.body
            drafted.headings = tuple(
                b.text for b in doc.blocks if b.kind == "heading" and b.level >= 2
            )[:30]
            if given_description(doc.converted.frontmatter):  # the index names its sections
                topics = section_topics(doc.blocks, draft.title, context.common)
                drafted.topics = tuple(topics[:_ENTRY_TOPICS])
            if doc.converted.kind in LINKED_KINDS:
                draft.body = self._rewrite_links(doc, draft.body)
                drafted.raw_spans = doc.raw_spans
                drafted.off = self._off_links.get(doc.source)
                drafted.above = self._above_links.get(doc.source)
            drafted.text = draft.render()
        except (EditError, FormatError, ValueError) as exc:
            drafted = _Drafted(failed=f"{doc.source}: its frontmatter cannot be completed ({exc})")
        finally:
            drafted_links, self.links_between = self.links_between, links
            links |= drafted_links
        drafted.links = drafted_links
        if drafted.draft is not None:
            drafted.draft.converted = None  # type: ignore[assignment]  # the builder has it
        return drafted

    def _take_draft(self, doc: _Doc, drafted: _Drafted) -> None:
        """The page's draft as this process's own, wherever it was drafted."""
        assert doc.converted is not None
        self.links_between |= drafted.links
        for found, counted in ((self._off_links, drafted.off), (self._above_links, drafted.above)):
            if counted is None:
                found.pop(doc.source, None)
            else:
                found[doc.source] = counted
        if drafted.draft is None:
            self.result.failed.append(
                ConversionError(self.source / doc.source, "corrupt", drafted.failed)
            )
            doc.state, doc.draft = "failed", None
            return
        doc.draft = drafted.draft
        doc.draft.converted = doc.converted
        self.result.notes += [f"{doc.source}: {note}" for note in doc.draft.notes]
        doc.raw_body, doc.headings, doc.topics = drafted.raw_body, drafted.headings, drafted.topics
        if drafted.raw_spans is not None:
            doc.raw_spans = drafted.raw_spans
        doc.text = drafted.text
        self.kinds[doc.source] = doc.converted.kind
        doc.blocks = []


class DraftMixin(_DraftPages):
    """Drafts the builder's converted pages (its state is the builder's)."""

    def _draft(self) -> None:
        converted = [d for d in self.docs.values() if d.converted is not None]
        folder_types: dict[str, Counter[str]] = defaultdict(Counter)
        old = (self.manifest or {}).get("documents", {})
        for rel, entry in old.items():
            if rel in self.docs and self.docs[rel].converted is None:
                # unchanged: what the last build learned from its source still holds
                self.links_between.update((rel, t) for t in entry.get("links") or ())
                about = entry.get("about") or {}
                self.about[rel] = about
                self.source_meta.append(about)
            kind_type = (entry.get("fields") or {}).get("type")
            if rel in self.docs and self.docs[rel].converted is None and isinstance(kind_type, str):
                folder_types[posixpath.dirname(entry["path"])][kind_type] += 1
        self._prepare_pages(converted)  # what the pages show, and their links, in 2 processes
        sections: list[list[tuple[prose.Block, str]]] = []  # each page's, for its furniture
        for doc in converted:
            assert doc.converted is not None
            self._expand_includes(doc)
            if self.toc is not None:
                doc.converted.frontmatter = generator_keys_apart(
                    self.toc.kind, doc.converted.frontmatter
                )
            foreign = doc.converted.frontmatter or {}
            self.about[doc.source] = {k: foreign[k] for k in SUBJECT_KEYS if k in foreign}
            self.source_meta.append(self.about[doc.source])
            own_title = foreign.get("title")
            sections.append(prose.sections(doc.converted.markdown))
            if isinstance(own_title, str) and own_title.strip() and own_description(doc.converted):
                doc.blocks = [b for b, _text in sections[-1]]  # all the draft needs
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
                or section_type(doc.out)
            )
            known = doc.strong_type if doc.strong_type not in FORMAT_TYPES else None
            folder_types[posixpath.dirname(doc.out)][known or ""] += 1  # "": no signal
        common = common_headings((doc.blocks for doc in converted), sections)
        shared = shared_sentences(
            (d.converted, d.blocks) for d in converted if not own_description(d.converted)
        )
        labels = self.toc.labels() if self.toc is not None else {}
        names = self.toc is None or self.toc.kind in ("mkdocs", "nextra")
        self._drafting = _Context(folder_types, common, shared, labels, names)
        folders: dict[str, list[_Doc]] = defaultdict(list)
        for doc in sorted(converted, key=lambda d: d.out):
            folders[posixpath.dirname(doc.out)].append(doc)
        groups = list(folders.values())
        if len(converted) >= PARALLEL_MIN and len(groups) > 1:
            drafted = map_chunks_in_two(self._draft_folders, groups, chunk=1)
        else:
            drafted = self._draft_folders(groups)
        total = len(converted)
        done = 0
        for group, outcomes in zip(groups, drafted, strict=True):
            for doc, outcome in zip(group, outcomes, strict=True):
                self._take_draft(doc, outcome)
                done += 1
                self.progress("draft", done, total)
        del self._drafting
        self._note_off_source()
        self._note_unresolved()
