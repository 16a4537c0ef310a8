"""The build's third stage: frontmatter drafted for every converted page, with the types
of a folder's pages informing each other, the source's shared sentences passed over
(:func:`~kas_tui.features.importing.heuristics.shared_sentences`) and each folder's
descriptions kept apart (:class:`~kas_tui.text.alike.AlikeSet`)."""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict

from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.features.importing.convert_model import LINKED_KINDS, ConversionError
from kas_tui.features.importing.draft import draft_document, own_description
from kas_tui.features.importing.heuristics import (
    FORMAT_TYPES,
    content_type,
    draft_title,
    section_type,
    shared_sentences,
)
from kas_tui.features.importing.source_meta import SUBJECT_KEYS
from kas_tui.text import prose
from kas_tui.text.alike import AlikeSet
from kas_tui.text.section_topics import common_headings, section_topics

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


class DraftMixin:
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
            if isinstance(own_title, str) and own_title.strip() and own_description(doc.converted):
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
                or section_type(doc.out)
            )
            known = doc.strong_type if doc.strong_type not in FORMAT_TYPES else None
            folder_types[posixpath.dirname(doc.out)][known or ""] += 1  # "": no signal
        siblings: dict[str, AlikeSet] = defaultdict(AlikeSet)
        common = common_headings(doc.blocks for doc in converted)
        shared = shared_sentences(
            (d.converted, d.blocks) for d in converted if not own_description(d.converted)
        )
        labels = self.toc.labels() if self.toc is not None else {}
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
                    common_headings=common,
                    shared=shared,
                    title_hint=labels.get(doc.source, ""),
                    now=self.now,
                    slug=stem,
                    blocks=doc.blocks,
                )
                self.result.notes += [f"{doc.source}: {note}" for note in doc.draft.notes]
                body = doc.draft.body
                doc.raw_body = body
                doc.headings = tuple(
                    b.text for b in doc.blocks if b.kind == "heading" and b.level >= 2
                )[:30]
                own = (doc.converted.frontmatter or {}).get("description")
                if isinstance(own, str) and own.strip():  # the index names its sections
                    topics = section_topics(doc.blocks, doc.draft.title, common)
                    doc.topics = tuple(topics[:_ENTRY_TOPICS])
                if doc.converted.kind in LINKED_KINDS:
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
            siblings[folder].add(doc.draft.description)
            self.kinds[doc.source] = doc.converted.kind
            doc.blocks = []
            self.progress("draft", n, total)
        self._note_off_source()
        self._note_unresolved()
