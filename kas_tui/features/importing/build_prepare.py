"""The pages' own work, done for every page at once in two processes.

Which files a Markdown page includes (read when the source is listed), what it shows
(its includes expanded, a Sphinx page's toctrees listed) and where its link
destinations are depend on the page and the source files alone, not on the other
pages' drafts: a flat docfx export of 2,000 pages spends half its drafting there
(every page shows the product-name snippets, and every page's links are found by the
body scanner). So the builder works them out for all pages at once, in this process
and one forked helper (:func:`kas_tui.core.workers.map_chunks_in_two`), and drafting
takes them as it goes instead of working them out one page at a time. Same results
either way (tests/features/importing/test_build_prepare.py builds both ways).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kas_tui.core.okf.links import Span, destination_spans
from kas_tui.core.workers import map_chunks_in_two
from kas_tui.features.importing.comment_includes import comment_include_targets
from kas_tui.features.importing.convert_model import LINKED_KINDS
from kas_tui.features.importing.include_markdown import include_markdown_targets
from kas_tui.features.importing.include_syntax import has_directive
from kas_tui.features.importing.includes import targets as include_targets
from kas_tui.features.importing.mdbook_includes import mdbook_targets
from kas_tui.features.importing.mdx_components import component_imports, import_candidates
from kas_tui.features.importing.myst_includes import myst_include_targets
from kas_tui.features.importing.rst_includes import doc_targets
from kas_tui.features.importing.rst_includes import include_targets as rst_include_targets

if TYPE_CHECKING:
    from kas_tui.features.importing.build_layout import _Doc
    from kas_tui.features.importing.includes import IncludeProblem

#: Below this many converted pages a forked helper costs more than it saves: the
#: pages are worked out one at a time, as drafting reaches them.
PARALLEL_MIN = 300
#: Pages per claim: small enough for the two processes to end together.
CHUNK = 16

#: What is worked out for a page: its text as a reader sees it (``None``: as
#: converted), the problems its includes had, and the link destinations in that text
#: (``None`` when drafting will not look for them).
Prepared = tuple["str | None", "list[IncludeProblem]", "list[Span] | None"]


class PrepareMixin:
    """Mixed into the builder (its state is the builder's: ``_read_source``, ``_shown``)."""

    def _named_by_each(self, pages: list[str]) -> list[tuple[list[str], list[str]]]:
        """The files each Markdown page of ``pages`` names in its include directives,
        and where the Markdown files it shows as components may be, in two processes
        from :data:`PARALLEL_MIN` pages on (each page is read)."""
        if len(pages) >= PARALLEL_MIN:
            return map_chunks_in_two(self._named_by, pages, chunk=64)
        return self._named_by(pages)

    def _named_by(self, pages: list[str]) -> list[tuple[list[str], list[str]]]:
        """(included, shown as components) for each of ``pages``."""
        out = []
        for rel in pages:
            text = self._read_source(rel)
            found: list[str] = []
            if text and self.limits.rst_pages.holds(rel):  # .. include:: /_snippets/note.rst
                is_file = lambda r: (self.source / r).is_file()  # noqa: E731 (conf.py: no page)
                named = rst_include_targets(text, rel, is_file)
                rst = self.limits.rst_pages
                titled = [t for t in doc_targets(text, rel, is_file, rst) if t != rel]  # :doc:
                out.append(([n.target for n in named if n.target and n.target != rel], titled))
                continue
            if text and has_directive(text):
                bases = getattr(self, "_mdx_bases", ())
                found = [t for t in include_targets(text, rel, mdx_bases=bases) if t != rel]
            if text and "{{#" in text:  # mdBook's {{#include file.rs:2:10}}
                found += [t for t in mdbook_targets(text, rel) if t != rel and t not in found]
            if text and "@include:" in text:  # VitePress' <!--@include: ./parts/x.md-->
                roots = getattr(self, "_include_roots", [])
                named = comment_include_targets(text, rel, roots)
                found += [t for t in named if t != rel and t not in found]
            shown = [
                c
                for written in component_imports(text or "").values()
                for c in import_candidates(rel, written, getattr(self, "_aliases", None))
                if c != rel
            ]
            shown += include_markdown_targets(text or "", rel)  # {% include-markdown %}
            shown += myst_include_targets(text or "", rel)  # MyST's ```{include} x.md
            out.append((found, shown))
        return out

    def _prepare_pages(self, docs: list[_Doc]) -> None:
        """Work out what each converted page of ``docs`` shows and the links in it, in
        two processes, for :meth:`_expand_includes` and :meth:`_spans_in` to take."""
        pages = [d for d in docs if d.converted is not None]
        if len(pages) < PARALLEL_MIN:
            return
        results = map_chunks_in_two(self._prepare_chunk, pages, chunk=CHUNK)
        prepared: dict[str, Prepared] = self.__dict__.setdefault("_prepared", {})
        for doc, result in zip(pages, results, strict=True):
            prepared[doc.source] = result

    def _prepare_chunk(self, docs: list[_Doc]) -> list[Prepared]:
        out: list[Prepared] = []
        for doc in docs:
            assert doc.converted is not None
            text, problems = self._shown(doc)
            spans = None
            if doc.converted.kind in LINKED_KINDS and ("](" in text or "]:" in text):
                spans = destination_spans(text)  # what _rewrite_links would look for
            out.append((None if text is doc.converted.markdown else text, problems, spans))
        return out

    def _prepared_text(self, doc: _Doc) -> tuple[str, list[IncludeProblem]] | None:
        """What :meth:`_prepare_pages` worked out ``doc`` shows, with its problems
        (``None`` when it did not); its links are kept for :meth:`_spans_in`."""
        prepared: dict[str, Prepared] = self.__dict__.get("_prepared") or {}
        found = prepared.pop(doc.source, None)
        if found is None:
            return None
        assert doc.converted is not None
        text = doc.converted.markdown if found[0] is None else found[0]
        if found[2] is not None:
            spans_of: dict[str, Any] = self.__dict__.setdefault("_spans_found", {})
            spans_of[doc.source] = (text, found[2])
        return text, found[1]

    def _spans_in(self, doc: _Doc, body: str) -> list[Span]:
        """The link destinations in ``body``, ``doc``'s text before its links were
        rewritten: those found beforehand when they were found in this very text."""
        spans_of: dict[str, Any] = self.__dict__.get("_spans_found") or {}
        found = spans_of.pop(doc.source, None)
        if found is not None and found[0] == body:
            return found[1]
        return destination_spans(body)
