"""What a built page shows of other source files: the snippets its include directives
pull in (docfx ``[!INCLUDE]``, MkDocs ``--8<--`` and ``{!path!}``), the Markdown files
an MDX page shows as components (:mod:`.mdx_components`), for a Sphinx page the pages
its toctrees list, and for a MyST page (Sphinx's, a Jupyter Book's) what its
cross-references name (:mod:`.myst_refs`). Each is shown in the page as a reader of the
site sees it, and folded into the page's hash, so a changed snippet or a listed or
referenced page's new title builds the page again.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import TYPE_CHECKING

from kas_tui.features.importing.build_manifest import _sha
from kas_tui.features.importing.build_prepare import PrepareMixin
from kas_tui.features.importing.build_site_links import liquid_link_tags
from kas_tui.features.importing.comment_includes import expand_comment_includes
from kas_tui.features.importing.convert import sha256_file
from kas_tui.features.importing.convert_model import LINKED_KINDS, MARKDOWN_EXTS
from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.hugo_shortcodes import HugoParams, uses_params
from kas_tui.features.importing.include_markdown import expand_include_markdown
from kas_tui.features.importing.include_syntax import frontmatter_end, mdx_bases
from kas_tui.features.importing.includes import IncludeProblem, expand_includes
from kas_tui.features.importing.mdbook_includes import expand_mdbook_includes
from kas_tui.features.importing.mdx_components import expand_components, path_aliases
from kas_tui.features.importing.mkdocstrings import ApiReader, api_reader, shown_api
from kas_tui.features.importing.myst_directives import shown_directives
from kas_tui.features.importing.myst_includes import expand_myst_includes
from kas_tui.features.importing.myst_pages import myst_index
from kas_tui.features.importing.myst_refs import References, Unresolved, roles_as_text
from kas_tui.features.importing.myst_rst import RstBlocks
from kas_tui.features.importing.openapi_pages import OpenApiPages, config_specs
from kas_tui.features.importing.toc_dendron import with_frontmatter_values
from kas_tui.features.importing.toc_mintlify import mintlify_data
from kas_tui.features.importing.toc_sphinx import toctree_lists
from kas_tui.features.importing.wikilinks import WikiLinks, aliases_of
from kas_tui.text.prose import outside_fences

if TYPE_CHECKING:
    from kas_tui.features.importing.build_layout import _Doc

#: Sites whose Markdown pages are MyST, linked by labels and roles (:mod:`.myst_refs`).
MYST_SITES = frozenset({"sphinx", "jupyter-book", "myst"})
#: Their Markdown pages, which define and name targets as the reStructuredText pages do
#: (``self.limits.rst_pages``).
MYST_PAGES = (".md", ".markdown", ".ipynb")


class IncludesMixin(PrepareMixin):
    """Mixed into the builder (its state is the builder's: ``source``, ``toc``,
    ``source_files``, ``includes_of``, ``result``, ``_read_source``); what every page
    shows is worked out for all at once by :class:`PrepareMixin`."""

    def _find_includes(
        self, documents: list[str], assets: list[str]
    ) -> tuple[list[str], list[str]]:
        """Files the Markdown pages pull in with include directives (docfx
        ``[!INCLUDE]``, MkDocs ``--8<--``): snippets, kept as assets, never pages;
        ``self.includes_of`` maps each page to the files it names."""
        named: set[str] = set()
        self._mdx_bases = mdx_bases([*documents, *assets])
        self._aliases = path_aliases([*documents, *assets], self._read_source)
        rst = self.limits.rst_pages
        markdown = [
            rel for rel in documents if Path(rel).suffix.lower() in MARKDOWN_EXTS or rst.holds(rel)
        ]
        for rel, (found, shown) in zip(markdown, self._named_by_each(markdown), strict=True):
            if found:
                self.includes_of[rel] = found
                named.update(found)
            if shown and rst.holds(rel):  # :doc: links show the titles
                self.titles_of[rel] = shown
            elif shown:  # a file a page shows as a component may be a page too: it stays one
                self.components_of[rel] = shown
        if not named:
            return documents, assets
        pages = [d for d in documents if d not in named]
        return pages, sorted({*assets, *(d for d in documents if d in named)})

    def _expand_includes(self, doc: _Doc) -> None:
        """Replace ``doc``'s include directives by the text they stand for (its
        problems go to the build's notes, by file and line), and a Sphinx page's
        toctrees by the lists of pages they show (as worked out beforehand for all
        pages, :mod:`.build_prepare`, or now)."""
        assert doc.converted is not None
        text, problems = self._prepared_text(doc) or self._shown(doc)
        doc.converted.markdown = text
        above = doc.converted.body_line - 1  # a problem's line is the page's, not its body's
        for problem in problems:
            if isinstance(problem, Unresolved):  # counted, for one note
                self.__dict__.setdefault("_unresolved", []).append((doc.source, problem))
                continue
            self.result.notes.append(f"{doc.source}:{problem.line + above}: {problem.message}")

    def _shown(self, doc: _Doc) -> tuple[str, list[IncludeProblem]]:
        """``doc``'s text as a reader of the site sees it, and its includes' problems:
        read from the source files alone, whatever else the build did."""
        assert doc.converted is not None
        text = doc.converted.markdown
        shown = self._toctrees_shown(text, doc.source)
        if shown is not None:  # a reader sees the pages its toctrees list
            text = shown
        problems: list[IncludeProblem] = []
        api = self._openapi_pages()
        reference = api.reference(doc.converted.frontmatter) if api is not None else None
        if reference is not None:  # an endpoint's page: the site shows it from the spec
            text = f"{text.rstrip()}\n\n{reference}\n" if text.strip() else reference + "\n"
        if doc.source in self.components_of:  # the Markdown files it shows as components
            shown_files = expand_components(
                text,
                doc.source,
                self._read_source(doc.source) or "",
                self._read_included,
                aliases=getattr(self, "_aliases", None),
            )
            text, problems = shown_files.text, shown_files.problems
            text, _files, more = expand_include_markdown(text, doc.source, self._read_included)
            problems += more  # mkdocs-include-markdown's {% include-markdown "..." %}
            text, more = expand_myst_includes(text, doc.source, self._read_included)
            problems += more  # MyST's ```{include} ../CHANGES.md
        params = self._hugo_params()
        if params is not None and uses_params(text):  # {{% param vers.otel %}}
            written = text
            text, unknown = params.expand(text, doc.source, doc.converted.frontmatter or {})
            problems += [
                IncludeProblem(
                    written.count("\n", 0, at) + 1,
                    name,
                    f"{{{{% param {name} %}}}} prints nothing the page, a section above it "
                    "or the site's params define as text: left as written",
                )
                for at, name in unknown
            ]
        if "](" in text and ("{%" in text or "{{" in text):  # {% link x.md %}, {{ site.baseurl }}
            text = outside_fences(text, liquid_link_tags)
        if params is not None and self.toc.shown_on.get(doc.source):
            text = self._with_pages_shown(text, doc.source)  # a glossary's terms
        if params is not None:  # included pages, relref links, paired shortcodes, figures
            written = text
            text, missing = params.with_included(text, doc.source)
            problems += [
                IncludeProblem(written.count("\n", 0, at) + 1, target, why)
                for at, target, why in missing
            ]
            text = params.shown(text, doc.source)
        if doc.source in self.includes_of and "{{#" in text:  # mdBook's {{#include x.rs}}
            text, more = expand_mdbook_includes(text, doc.source, self._read_included)
            problems += more
        if doc.source in self.includes_of and "@include:" in text:  # VitePress' <!--@include:-->
            roots = getattr(self, "_include_roots", [])
            text, more = expand_comment_includes(text, doc.source, self._read_included, roots)
            problems += more
        if doc.source in self.includes_of:
            shared = self.__dict__.setdefault("_shown_includes", {})
            expanded = expand_includes(
                text,
                doc.source,
                self._read_included,
                shared=shared,
                mdx_bases=getattr(self, "_mdx_bases", ()),
            )
            text, problems = expanded.text, [*problems, *expanded.problems]
        if self.toc is not None and self.toc.kind == "mkdocs" and "::: " in text:
            text, more = shown_api(text, self._api_reader())  # mkdocstrings' ::: fastapi.X
            problems += more
        if self.toc is not None and self.toc.kind == "dendron" and "fm." in text:
            text, unknown = with_frontmatter_values(text, doc.converted.frontmatter or {})
            problems += [
                IncludeProblem(
                    line,
                    written,
                    f"{written} names no value the note's frontmatter gives: left as written",
                )
                for line, written in unknown
            ]
        wiki = self._vault_links() if "[[" in text else None
        if wiki is not None and doc.converted.kind == "markdown":  # Obsidian's [[Note]]
            resolved = wiki.resolve(text, doc.source)
            text = resolved.text
            problems += _unresolved_wikilinks(text, resolved.unresolved)
        if (
            self.toc is not None
            and self.toc.kind in MYST_SITES
            and doc.source.lower().endswith(MYST_PAGES)
        ):  # ```{note} a code block to a Markdown reader: a colon fence, its links links
            blocks = RstBlocks(self.source / doc.source, self.limits)  # ```{eval-rst}
            text = shown_directives(text, blocks)
            problems += blocks.problems
        references = self._myst_references()
        if references is not None and doc.converted.kind in LINKED_KINDS:
            text, unresolved = references.resolve(text, doc.source)
            problems += unresolved
            if self.limits.rst_pages.holds(doc.source):  # none left as MyST's role syntax
                text = roles_as_text(text)
        return text, problems

    def _api_reader(self) -> ApiReader:
        """What reads the objects the site's mkdocstrings blocks name (one per build)."""
        if "_api" not in self.__dict__:
            assert self.toc is not None
            self.__dict__["_api"] = api_reader(str(self.source), self.toc.file, self._read_source)
        return self.__dict__["_api"]

    # -- wikilinks --------------------------------------------------------------------

    def _vault_links(self) -> WikiLinks | None:
        """The source's notes by name and alias, when the source is a vault, its pages
        linked by wikilinks (:mod:`.wikilinks`): a tenth of the ``[[...]]`` its
        Markdown pages write, and two at least, name a file of it (Logseq's docs: half,
        the rest tag pages Logseq makes when first named). Elsewhere ``[[bin]]`` is a
        TOML table's name and ``[[TOC]]`` a marker: ``None``, left alone and unsaid."""
        if "_wikilinks" in self.__dict__:
            return self.__dict__["_wikilinks"]
        aliases = {
            name: source
            for source, other in sorted(self.docs.items(), reverse=True)
            if other.converted is not None
            for name in aliases_of(other.converted.frontmatter)
        }  # of two pages answering to one name, the first in path order
        wiki = WikiLinks([*self.docs, *self.assets], aliases)
        linked = unresolved = 0
        for source, doc in self.docs.items():
            markdown = doc.converted.markdown if doc.converted is not None else ""
            if doc.converted is not None and doc.converted.kind == "markdown" and "[[" in markdown:
                probe = wiki.resolve(markdown, source)
                linked, unresolved = linked + probe.linked, unresolved + len(probe.unresolved)
        vault = linked >= 2 and 10 * linked >= linked + unresolved
        self._wikilinks = wiki if vault else None
        return self._wikilinks

    # -- MyST cross-references ---------------------------------------------------------

    def _myst_references(self) -> References | None:
        """What the MyST pages of a Sphinx site or a Jupyter Book define (the
        reStructuredText pages of any source), read from the sources once (``None`` for
        another site)."""
        if "_myst_refs" in self.__dict__:
            return self.__dict__["_myst_refs"]
        sphinx = self.toc is not None and self.toc.kind in MYST_SITES
        holds = self.limits.rst_pages.holds
        rst = not sphinx and any(holds(p) for p in self.docs)
        found = self._myst_refs = None
        if sphinx or rst:  # reStructuredText pages' :ref: roles are resolved as MyST's
            pages = [
                p for p in self.docs if holds(p) or (sphinx and p.lower().endswith(MYST_PAGES))
            ]
            rst, roles = self.limits.rst_pages, self.limits.rst_reading
            index = myst_index(pages, self._read_source, rst, roles)
            base = self.toc.docs_dir if self.toc is not None else ""
            found = self._myst_refs = References(index, self.source_files, base, rst, roles)
        return found

    def _note_unresolved(self) -> None:
        """One note on the cross-references that name no target of the source."""
        found: list[tuple[str, Unresolved]] = self.__dict__.pop("_unresolved", [])
        if not found:
            return
        page, first = found[0]
        rst = self.limits.rst_pages.holds(page)
        written = first.target
        if rst:  # as the page writes it, not as the build read it
            written = re.sub(r"^\{(\w+)\}`", r":\1:`", written)
        source = self._read_source(page) or ""  # its line in the source, as written there
        at = source.find(written)
        line = source.count("\n", 0, at) + 1 if at >= 0 else first.line
        kind = "cross-references" if rst else "MyST cross-references"
        more = f" and {len(found) - 1:,} more {kind}" if len(found) > 1 else ""
        label = "a .. _label: line" if rst else "a (label)= line"
        self.result.notes.append(
            f"{page}:{line}: {written}{more} name{'' if more else 's'} no label, page "
            "or term of the "
            "source (Sphinx's genindex, an API object autodoc documents, another project's "
            f"docs through intersphinx): shown as their text; {label} before the heading "
            "they mean defines one"
        )

    def _openapi_pages(self) -> OpenApiPages | None:
        """The site's OpenAPI specs, for pages made from one (a Mintlify site's)."""
        if self.toc is None or self.toc.kind != "mintlify":
            return None
        found = self.__dict__.get("_openapi")
        if found is None:
            folder = posixpath.dirname(self.toc.file)
            config = mintlify_data(self._read_source(self.toc.file) or "")
            named = config_specs(config, folder)
            found = self._openapi = OpenApiPages(
                self._read_source, self.source_files, folder, named
            )
        return found

    def _read_included(self, rel: str) -> str | None:
        """An included file's text, read once however many pages show it (a docfx
        product-name snippet is in every page)."""
        texts = self.__dict__.setdefault("_included_texts", {})
        if rel not in texts:
            texts[rel] = self._read_source(rel)
        return texts[rel]

    def _include_sha(self, rel: str, own: str) -> str:
        """A page's hash, what it shows of other files folded in: a changed snippet
        changes the pages that include it, and a listed page's new title (or a page a
        ``:glob:`` now matches) the Sphinx pages whose toctrees list it."""
        parts = [own]
        hashes = self.__dict__.setdefault("_included_sha", {})  # one read per snippet
        others = [*self.components_of.get(rel, ()), *self.titles_of.get(rel, ())]
        for target in [*self.includes_of.get(rel, ()), *others]:
            if target not in hashes:
                try:
                    hashes[target] = sha256_file(self.source / target)
                except OSError:
                    hashes[target] = "missing:" + target
            parts.append(hashes[target])
        parts += self._adoc_sha(rel)  # an AsciiDoc page's includes, its antora.yml
        params = self._hugo_params()
        if params is not None and uses_params(self._read_source(rel) or ""):
            for target in params.sources(rel):  # its config, the sections cascading
                parts.append(_sha(self._read_included(target) or "missing:" + target))
        if params is not None:  # the pages its include shortcodes show, or it lists
            shown = params.included_files(self._read_source(rel) or "", rel)
            for target in [*shown, *self.toc.shown_on.get(rel, ())]:
                parts.append(_sha(self._read_included(target) or "missing:" + target))
        shown = None
        if self._toctrees_possible():  # else the source is not read again for nothing
            shown = self._toctrees_shown(self._read_source(rel) or "", rel)
        if shown is not None:
            parts.append("toctree:" + _sha(shown))
        references = self._myst_references()
        if references is not None and (
            rel.lower().endswith(MYST_PAGES) or self.limits.rst_pages.holds(rel)
        ):
            parts.append("myst:" + _sha(references.named(self._read_source(rel) or "", rel)))
        return own if len(parts) == 1 else _sha("\n".join(parts))

    def _with_pages_shown(self, text: str, rel: str) -> str:
        """``text`` of the Hugo section page ``rel`` followed by the pages only it shows,
        each under its title (hugoDocs' glossary: a heading per term, its definition
        below; the site's links to ``#term`` find it), as the site's page shows them."""
        parts = [text.rstrip("\n")]
        for page in self.toc.shown_on[rel]:
            source = self._read_included(page) or ""
            title = front_matter(source).get("title")
            name = str(title).strip() if title else posixpath.splitext(posixpath.basename(page))[0]
            body = source[frontmatter_end(source) :].strip("\n")
            parts.append(f"## {name}\n\n{body}" if body else f"## {name}")
        return "\n\n".join(parts) + "\n"

    def _hugo_params(self) -> HugoParams | None:
        """The parameters a Hugo site's pages print (:mod:`.hugo_shortcodes`); ``None``
        for another site."""
        if self.toc is None or self.toc.kind != "hugo":
            return None
        found = self.__dict__.get("_params")
        if found is None:
            found = self._params = HugoParams(
                self.toc.file, self.toc.docs_dir, self._read_included, self.source_files
            )
        return found

    def _toctrees_shown(self, text: str, rel: str) -> str | None:
        """``text`` (the page ``rel``) with its toctrees as the lists of pages they
        show, or ``None`` when this is no Sphinx source or the page has none."""
        if not self._toctrees_possible() or "{toctree}" not in text:
            return None
        return toctree_lists(text, rel, self._read_source, self.source_files, self.toc.docs_dir)

    def _toctrees_possible(self) -> bool:
        """Whether the source is a Sphinx site, whose pages may hold toctrees."""
        return self.toc is not None and self.toc.kind == "sphinx"


def _unresolved_wikilinks(text: str, unresolved: list[str]) -> list[IncludeProblem]:
    """The problems of the wikilinks of ``text`` that name no file of the source
    (``unresolved``, in the order the page writes them), each at its own line."""
    problems, after = [], {}
    for written in unresolved:
        at = text.find(written, after.get(written, 0))
        after[written] = at + len(written) if at >= 0 else 0
        problems.append(
            IncludeProblem(
                text.count("\n", 0, max(0, at)) + 1,
                written,
                "a wikilink names no note or file of the source (a note not written yet?): "
                f"{written}, left as written; a note of that name, or [text](path.md), makes "
                "it a link",
            )
        )
    return problems
