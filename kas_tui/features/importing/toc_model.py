"""A table of contents as the build reads it (pure): :class:`Toc`, its tree of
:class:`TocNode` entries, and what it tells of the source's pages (their order, their
sections, the names of their folders, which of them the site does not serve as pages).
:mod:`.toc` finds and reads one."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field

from kas_tui.features.importing.convert import MARKDOWN_EXTS, RST_EXTS
from kas_tui.features.importing.source_meta import is_furniture, is_toc_file
from kas_tui.features.importing.toc_formats import SITE_PAGES
from kas_tui.text.wording import counted

#: What a TOC may list as a page though its name is a repository's furniture elsewhere.
_PAGE_EXTS = MARKDOWN_EXTS | RST_EXTS
#: Sites whose sidebar is their folders, each titled by its own meta file.
_FOLDER_SITES = frozenset({"nextra", "fumadocs"})
#: Sites serving a folder's ``README.md`` as the folder: the site's is its home.
_README_HOMES = frozenset({"docsify", "vuepress"})
#: Where Docusaurus keeps its docs' earlier versions, beside the current ones.
_VERSIONED = frozenset({"versioned_docs", "versioned_sidebars"})


@dataclass
class TocNode:
    title: str | None  # as the TOC names the section or page (None: the TOC gives a path only)
    path: str | None  # source-relative page, None for a pure section
    children: list[TocNode] = field(default_factory=list)
    line: int | None = None  # line in the TOC file where known
    file: str | None = None  # that file, when not Toc.file (a nested docfx toc)


#: The kind of a "table of contents" that only says which folder holds the docs (a
#: repository's ``docs/`` with no site configured): its folders are the tree.
FOLDERS = "folders"


@dataclass
class Toc:
    file: str  # source-relative path of the TOC file read
    kind: str  # docfx-yml, docfx-md, mkdocs, docusaurus, wiki-sidebar, azure-order, sphinx
    roots: list[TocNode]
    problems: list[str] = field(default_factory=list)  # "file:line: what; how to fix it"
    docs_dir: str = ""  # the folder the pages live in (MkDocs, Docusaurus), "" for none
    #: folders of files that are no pages: the site's theme (MkDocs'
    #: ``theme.custom_dir``), Hugo's headless bundles (snippets other pages include)
    theme_dirs: tuple[str, ...] = ()
    #: a page's path as the site serves it (``docs/getting-started``) -> its source,
    #: where they differ (a Docusaurus page's own ``id:``)
    served_as: dict[str, str] = field(default_factory=dict)
    #: pages only the site's other versions list (Mintlify's ``versions`` but its
    #: default), and the folders holding them (ending in ``/``)
    older: frozenset[str] = frozenset()
    #: pages that are their folder (Nextra's ``app/guide/page.mdx``, served at ``/guide``)
    folder_pages: frozenset[str] = frozenset()
    #: the path the site serves ``docs_dir`` at (Fumadocs' ``/docs``), "" its root
    base_url: str = ""
    #: files read for the tree besides ``file`` that are no pages (Fumadocs' meta.json)
    also_read: frozenset[str] = frozenset()
    #: a source folder -> the title the site gives it (a Nextra folder's ``_meta`` title,
    #: a Fumadocs folder's ``meta.json`` one), for a site whose sidebar is its folders
    folder_names: dict[str, str] = field(default_factory=dict)
    #: the folders of a Docusaurus site's other docs instances -> where the site serves
    #: each (``website/community`` -> ``community``): its pages too
    more_docs: dict[str, str] = field(default_factory=dict)
    #: files the site's config leaves out of its pages (a Jupyter Book's
    #: ``exclude_patterns``, a VitePress config's ``srcExclude``), and what says so
    #: ("the book's _config.yml (exclude_patterns)")
    unpublished: frozenset[str] = frozenset()
    unpublished_by: str = ""
    #: a page -> the name the site's theme shows for it though its sidebar does not
    #: (a VuePress home page's ``heroText``, else the site's title)
    page_names: dict[str, str] = field(default_factory=dict)
    #: the site serves its pages at a path ending in a slash (a Docusaurus config's
    #: ``trailingSlash: true``): a relative link is read from the page's own path
    trailing_slash: bool = False
    #: the released version a Docusaurus site serves (``stable``; its pages are
    #: ``docs_dir``), and its working docs' folder, served as "next", then no pages
    version: str = ""
    unreleased: str = ""
    #: a docfx site's pages served at one path in several versions: served path ->
    #: {moniker: page}; and each version's folder -> its moniker (a link's ``?view=``)
    served_versions: dict[str, dict[str, str]] = field(default_factory=dict)
    version_folders: dict[str, str] = field(default_factory=dict)
    #: a page -> the pages the site shows on it alone, in order (a Hugo section whose
    #: pages are never rendered on their own: hugoDocs' glossary and its 157 terms)
    shown_on: dict[str, list[str]] = field(default_factory=dict)
    #: files the site's config serves as they are, never as pages (a docfx.json's
    #: ``build.resource``: images, PDFs to download), and that config
    resources: frozenset[str] = frozenset()
    resources_by: str = ""
    #: a page -> its name among its siblings where its file's is its whole place (a
    #: Dendron note's last name part: ``dendron.topic.publish.md`` is ``publish``)
    own_names: dict[str, str] = field(default_factory=dict)

    @property
    def names_are_places(self) -> bool:
        """Whether the dots of a page's name are its place in the tree (Dendron's
        ``a.b.c.md``), never a language (``page.fr.md``)."""
        return self.kind == "dendron"

    def read_files(self) -> set[str]:
        """The files the tree was read from: read, never copied into the package (its
        indexes are the package's table of contents). A ``myst.yml`` is the project's
        config as well, which its pages show (``[myst.yml](myst.yml)``): copied."""
        own = {self.file} if self.kind != "myst" else set()
        return {*own, *self.also_read} | {n.file for n, _above in self.walk() if n.file}

    def served_pages(self, paths: Iterable[str], included: Collection[str] = ()) -> set[str]:
        """Those of ``paths`` the site serves as pages though they are a repository's
        furniture elsewhere: the Markdown and reStructuredText files its TOC lists (a
        GitBook space's ``README.md``, its "Introduction"; a Jupyter Book's ``toc.md``,
        which is docfx's TOC elsewhere; Sphinx's ``support.rst``, "Get support", and
        ``authors.rst`` in ``doc/``: a name is furniture at a repository's root, or in
        the docs folder wrapping the rest), a Docsify or VuePress site's ``README.md``,
        its home; and a page another includes, which the TOC lists too (sqlalchemy's
        ``changelog_14.rst``, in its toctree and included by ``changelog_21.rst``: a
        snippet by one, a page by the other)."""
        listed = self.order()
        home = posixpath.join(self.docs_dir, "") if self.docs_dir else ""
        named = self.kind not in ("docfx-yml", "docfx-md")  # docfx's TOC.md is its TOC
        return {
            p
            for p in paths
            if (
                p in listed
                and posixpath.splitext(p)[1].lower() in _PAGE_EXTS
                and (
                    is_furniture(posixpath.basename(p))
                    or (named and is_toc_file(p))
                    or p in included
                )
            )
            or (self.kind in _README_HOMES and p.lower() == f"{home}readme.md".lower())
        }

    def left_out(self, paths: Iterable[str]) -> tuple[set[str], str]:
        """Those of ``paths`` that are no pages of the current docs, and what they are:
        the docs' earlier versions, published beside the current ones (a package is one
        version of the docs, the current), in Docusaurus' ``versioned_docs/`` (at any
        depth) or only in a Mintlify config's other ``versions``; the files a Jupyter
        Book's config leaves out of its pages."""
        if self.unpublished:
            return set(paths) & self.unpublished, f"{self.unpublished_by} leaves out"
        if self.kind == "docusaurus" and self.version:
            served, working = f"{self.docs_dir}/", f"{self.unreleased}/"
            other = {
                p
                for p in paths
                if p.startswith(working)
                or (not p.startswith(served) and not _VERSIONED.isdisjoint(p.split("/")[:-1]))
            }
            return other, (
                f"of the docs' other versions (the unreleased {working}, served as next, "
                f"and versioned_docs/), not the one the site serves ({self.version})"
            )
        if self.kind == "docusaurus":
            older = {p for p in paths if not _VERSIONED.isdisjoint(p.split("/")[:-1])}
            return older, "of the docs' earlier versions (versioned_docs/), not the current docs"
        folders = tuple(p for p in self.older if p.endswith("/"))
        older = {p for p in paths if p in self.older or (folders and p.startswith(folders))}
        where = f"the other versions {self.file} lists"
        return older, f"of the docs' earlier versions ({where}), not the current docs"

    def walk(self) -> Iterator[tuple[TocNode, tuple[str, ...]]]:
        """Every node, depth first, with the section titles above it."""
        stack: list[tuple[TocNode, tuple[str, ...]]] = [(n, ()) for n in reversed(self.roots)]
        while stack:
            node, above = stack.pop()
            yield node, above
            inner = (*above, node.title) if node.children and node.title else above
            stack += [(child, inner) for child in reversed(node.children)]

    def outside_docs(self, paths: Iterable[str]) -> list[str]:
        """Those of ``paths`` outside the folder the site makes its pages from (MkDocs'
        ``docs_dir``, Docusaurus' docs ``path``): a repository's code, configs and
        README, which the site does not publish; none when the site names no folder."""
        inside = self.docs_dir + "/" if self.docs_dir else ""
        if not inside:
            return []
        # the folders of the pages it lists are the site's too (dendron-site's Jekyll
        # config in docs-dev/ lists the notes of vault/, which its theme reads)
        listed = {n.path for n, _above in self.walk() if n.path}
        folders = (inside, *(f + "/" for f in self.more_docs))
        folders += tuple(
            f + "/"
            for f in sorted({posixpath.dirname(p) for p in listed})
            if f and not (f + "/").startswith(folders)
        )
        return [p for p in paths if not p.startswith(folders) and p not in listed]

    def outside_note(self, n: int) -> str:
        """The build's note on the ``n`` files :meth:`outside_docs` leaves out."""
        if self.kind == FOLDERS:
            return (
                f"{counted(n, 'file')} {'is' if n == 1 else 'are'} outside {self.docs_dir}/, "
                "which holds most of its pages (no "
                "docs site is configured): its code, tests and configs; left out"
            )
        return (
            f"{counted(n, 'file')} {'is' if n == 1 else 'are'} outside the docs folder the "
            "site builds its docs from, "
            f"{self.docs_dir}/ (its code, configs, README, a blog); left out"
        )

    def theme_files(self, paths: Iterable[str]) -> set[str]:
        """Those of ``paths`` in the site's theme folders: templates, not pages."""
        inside = tuple(d + "/" for d in self.theme_dirs)
        named = set(self.theme_dirs)  # a file named alone (Jekyll's exclude: Gemfile)
        return {p for p in paths if p.startswith(inside) or p in named} if inside else set()

    def static_files(
        self, paths: Iterable[str], is_page: Callable[[str], bool] = lambda _path: False
    ) -> set[str]:
        """Those of ``paths`` in the docs folder of a site that makes pages from Markdown
        only (MkDocs, Docusaurus) and that its TOC does not list: the site copies them
        as they are (a JSON schema, a badge, a hook's data, ``package.json``); no pages.
        So are Docusaurus' partials (``_warning.mdx``, anything in ``_folder/``): pages
        import them, the site never serves them; and an Antora component's files outside
        its modules' ``pages/`` (partials and examples pages include, images). A Sphinx
        project makes pages of its pages' suffixes and those its ``conf.py`` names
        (``is_page``), every other file is a figure or a download. A docfx site's are
        what its config serves as resources (:attr:`resources`)."""
        pages = SITE_PAGES.get(self.kind)
        if pages is None:
            listed = self.order() if self.resources else {}
            return {p for p in paths if p in self.resources and p not in listed}
        inside = self.docs_dir + "/" if self.docs_dir else ""
        listed = self.order()

        def served(path: str) -> bool:
            if not path.lower().endswith(pages) and not is_page(path):
                return False
            inner = path[len(inside) :].split("/")
            if self.kind == "antora":  # a module's pages/; its partials/, examples/ included
                return len(inner) > 2 and inner[1] == "pages"
            return self.kind != "docusaurus" or not any(p.startswith("_") for p in inner)

        return {p for p in paths if p.startswith(inside) and not served(p) and p not in listed}

    def resources_note(self, kept: Iterable[str]) -> list[str]:
        """The note saying which of ``kept`` (files kept as assets) are there because
        the site's config serves them as they are (:attr:`resources`)."""
        served = sorted(p for p in kept if p in self.resources)
        if not served:
            return []
        return [
            f"{served[0]}: {counted(len(served), 'file')} {self.resources_by} serves as "
            "they are, not as pages (downloads): copied as assets; list one in the TOC "
            "to make it a document"
        ]

    def labels(self) -> dict[str, str]:
        """Page path -> the title the site gives it in its nav (first mention): MkDocs
        titles a page by its nav entry, Nextra one without a title of its own by its
        ``_meta`` title, a GitBook or mdBook ``SUMMARY.md`` by its link's text, Quarto
        by its sidebar entry's ``text``. Other TOCs' labels are link texts (a wiki's sidebar
        says "Alert Rules" for its page "Alerting"): none. A site's home page is named as
        its theme names it (:attr:`page_names`). A page's own title is its title; a label
        names a page without one, or one titled as a part of a page ("Overview")."""
        found: dict[str, str] = dict(self.page_names)
        if self.kind not in ("mkdocs", "nextra", "summary", "quarto"):
            return found
        for node, _above in self.walk():
            if node.path and node.title:
                found.setdefault(node.path, node.title)
        return found

    def order(self) -> dict[str, int]:
        """Page path -> its position in reading order (depth first; first mention)."""
        found: dict[str, int] = {}
        for node, _above in self.walk():
            if node.path and node.path not in found:
                found[node.path] = len(found)
        return found

    def sections(self) -> dict[str, list[str]]:
        """Page path -> the section titles above it, outermost first (first mention)."""
        found: dict[str, list[str]] = {}
        for node, above in self.walk():
            if node.path and node.path not in found:
                found[node.path] = list(above)
        return found

    def titles(self) -> dict[str, str]:
        """Page -> the title the TOC gives it (only where it gives one)."""
        found: dict[str, str] = {}
        for node, _above in self.walk():
            if node.path and node.title and node.path not in found:
                found[node.path] = node.title
        return found

    def folder_titles(self) -> dict[str, str]:
        """Source folder -> the name the TOC gives it: a section whose pages mostly
        sit in one folder, which holds mostly that section's pages ("Guide" for
        ``docs/guide``, "CSS Types" for ``docs/css_types``); the section whose pages
        are most nearly the folder's names it ("Contributing" for ``contributing/``,
        not the "Community" around it that holds ``guides/`` too), of equal ones the
        largest, then the innermost. A site whose sidebar is its folders (Nextra,
        Fumadocs) names them itself (:attr:`folder_names`): its separators' headings
        ("Writing" over ``page-conventions.mdx`` and ``markdown/``) name none."""
        if self.kind in _FOLDER_SITES:  # its sections are its folders: no guessing
            return dict(self.folder_names)
        below = _folder_counts(self.order())
        held: dict[int, dict[str, int]] = {}  # a section -> its pages in each folder
        sections = []
        for node, above in self._with_parents():
            if not node.title or (node.path is not None and not node.children):
                continue  # a page, not a section (a section may open with a page of its own)
            pages = [n.path for n, _a in Toc("", "", [node]).walk() if n.path]
            if pages:
                held[id(node)] = _folder_counts(pages)
                sections.append((node, above, pages))
        found: dict[str, tuple[float, int, str]] = {}
        for node, above, pages in sections:
            counts, size = held[id(node)], len(pages)
            if size == 1 and below.get(posixpath.dirname(pages[0])) != 1:
                continue  # one page names only a folder of its own ('Style Guide')
            fits = [
                f
                for f, n in counts.items()
                if n >= 0.6 * size and n >= 0.6 * below.get(f, n) and f != self.docs_dir
            ]
            for folder in fits:  # each folder it fits: the one most nearly its names it
                n = counts[folder]
                title = node.title
                if n < below.get(folder, n) and self._spans(folder, node, above, held):
                    if above is None or not above.title:
                        continue
                    title = above.title  # its siblings' too: the section holding them
                alike = n / (size + below.get(folder, n) - n)  # shared / either's pages
                if (alike, size) >= found.get(folder, (0.0, 0, ""))[:2]:  # equal: inner
                    found[folder] = (alike, size, title)
        return {folder: title for folder, (_a, _n, title) in found.items()}

    def _with_parents(self) -> Iterator[tuple[TocNode, TocNode | None]]:
        """Every node, depth first, with the node it sits in (``None`` at the top)."""
        stack: list[tuple[TocNode, TocNode | None]] = [(n, None) for n in reversed(self.roots)]
        while stack:
            node, parent = stack.pop()
            yield node, parent
            stack += [(child, node) for child in reversed(node.children)]

    def _spans(
        self, folder: str, node: TocNode, above: TocNode | None, held: dict[int, dict[str, int]]
    ) -> bool:
        """Whether the sections beside ``node`` hold two or more of ``folder``'s pages:
        the folder is theirs together (dotnet/docfx's ``docs/``, whose pages its TOC
        heads "Get started", "Essentials" and "Advanced"), not ``node``'s alone."""
        siblings = above.children if above is not None else self.roots
        return (
            sum(
                held.get(id(s), {}).get(folder, 0) for s in siblings if s is not node and s.children
            )
            >= 2
        )


def _folder_counts(pages: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for page in pages:
        folder = posixpath.dirname(page)
        while folder:
            counts[folder] = counts.get(folder, 0) + 1
            folder = posixpath.dirname(folder)
    return counts
