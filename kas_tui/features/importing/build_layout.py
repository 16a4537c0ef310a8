"""The build's layout: where each source goes in the package (paths) and how the
links between sources follow; the indexes that list what it holds are
:mod:`.build_indexes`."""

from __future__ import annotations

import os
import posixpath
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from kas_tui.core.fileio import read_regular
from kas_tui.core.okf.links import (
    Span,
    relative_link,
    resolve,
    rewrite_links,
)
from kas_tui.features.importing.build_indexes import IndexesMixin
from kas_tui.features.importing.build_names import NamesMixin
from kas_tui.features.importing.build_site_links import SiteLinksMixin, without_base_tag
from kas_tui.features.importing.convert import MARKDOWN_EXTS, Converted
from kas_tui.features.importing.draft import Draft
from kas_tui.features.importing.source_meta import (
    folder_named_as,
    is_landing_page,
    without_export_id,
)
from kas_tui.features.importing.tag_links import rewrite_tag_links
from kas_tui.text import prose
from kas_tui.text.slug import WINDOWS_RESERVED, TakenNames, slugify, unique_slug

#: Where the assets of the package's root go (images, furniture, site configs).
ASSETS_FOLDER = "assets"


def _ancestors(folder: str) -> Iterator[str]:
    """``folder`` and every folder above it (not the root)."""
    while folder:
        yield folder
        folder = posixpath.dirname(folder)


def _unique_file(stem: str, suffix: str, taken: TakenNames) -> str:
    """``stem + suffix``, or ``stem-2 + suffix``...: the first file name not taken in its
    folder (``schema.json`` beside the folder ``schema/`` keeps its name)."""
    if WINDOWS_RESERVED.fullmatch(stem):  # aux.png: a name Windows refuses
        stem += "-file"
    name, n = stem + suffix, 2
    while name in taken:
        name, n = f"{stem}-{n}{suffix}", n + 1
    return name


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
    raw_body: str = ""  # the converted body before its links were rewritten
    headings: tuple[str, ...] = ()  # its section headings, for grouping
    topics: tuple[str, ...] = ()  # the sections its index entry names (see entry_sentence)
    raw_spans: list[Span] | None = None  # the links found in raw_body, once


#: The image formats a web page shows, in the order Sphinx's HTML builder prefers them.
_WEB_IMAGES = (".svg", ".png", ".gif", ".jpg", ".jpeg", ".webp")


class LayoutMixin(IndexesMixin, NamesMixin, SiteLinksMixin):
    """Paths, links, indexes and SKILL.md of the builder (its state is the builder's)."""

    # 1'. paths ---------------------------------------------------------------------------

    def _map_paths(self, documents: list[str], assets: list[str]) -> None:
        old = (self.manifest or {}).get("documents", {})
        old_assets = (self.manifest or {}).get("assets", {})
        self.folders = dict((self.manifest or {}).get("folders", {}))
        self.folders[""] = ""
        top = ""
        more = self.toc.more_docs if self.toc is not None else {}
        if self.manifest is None:
            top = self._wrapper_folder(documents, assets)
            main = self.toc.docs_dir if self.toc is not None else ""
            inside = tuple(f + "/" for f in (main, *more) if f)
            if more and main and all(d.startswith(inside) for d in documents):
                top = main  # the main docs are the root, the other instances beside them
            if top:
                self.folders[top] = ""  # a folder holding every page is the package root
                for above in _ancestors(posixpath.dirname(top)):
                    self.folders.setdefault(above, ASSETS_FOLDER)  # its files beside it
            # a Docusaurus site's other docs instances sit where the site serves them
            # (website/community/ at /community): beside its docs, never inside website/
            for folder, route in more.items():
                if route and "/" not in route and folder != top:
                    self.folders.setdefault(folder, slugify(route, fallback="docs"))
                    for above in _ancestors(posixpath.dirname(folder)):
                        self.folders.setdefault(above, ASSETS_FOLDER)
        taken: dict[str, TakenNames] = defaultdict(TakenNames)
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
        home, landing = self._folder_pages(documents)
        self.folder_landing = landing
        all_folders = sorted(
            {home.get(p) or posixpath.dirname(p) for p in documents + assets} - {""},
            key=lambda f: (f.count("/"), f),
        )
        needed: set[str] = set()
        for folder in all_folders:
            while folder:
                needed.add(folder)
                folder = posixpath.dirname(folder)
        with_pages = {f for p in documents for f in _ancestors(home.get(p) or posixpath.dirname(p))}
        root = top or next((s for s, o in self.folders.items() if s and not o), "")
        plan = self._plan_toc_tree(documents, root)  # a later build places new pages by it
        made: set[str] = set()
        served_names = _served_folder_names(self.toc.served_as if self.toc is not None else {})
        ranged = self._folder_ranges(documents, with_pages, top) if plan is None else {}
        for folder in sorted(needed, key=lambda f: (f.count("/"), f)):
            if folder in self.folders:
                continue
            parent = self.folders[posixpath.dirname(folder)]
            if folder in ranged:  # one of too many sub-folders: in its run by name
                parent = self._range_folder(parent, ranged[folder], taken, made)
            if not parent and (plan is not None or folder not in with_pages):
                # the TOC's bundles are the tree, or the folder holds no page: the root
                # holds bundles, and folders of images, styles or templates go to assets/
                parent = ASSETS_FOLDER
            own = served_names.get(folder) or without_export_id(posixpath.basename(folder))
            kept = slugify(own, fallback="")
            base = kept or "folder"
            out = posixpath.join(parent, base) if parent else base
            if out == posixpath.join(ASSETS_FOLDER, ASSETS_FOLDER):
                out = ASSETS_FOLDER  # the site's own assets/ is the package's, not assets/assets/
            # "Mail Flow/" beside "mail-flow/": one name, one bundle (and one assets/); two
            # names a slug keeps nothing of ("플러그인/", "시작하기/") are two folders
            if (kept and out in made) or out == ASSETS_FOLDER:
                self.folders[folder] = out
                continue
            slug = unique_slug(base, taken[parent])
            out = posixpath.join(parent, slug) if parent else slug
            made.add(out)
            taken[parent].add(slug)
            self.folders[folder] = out
        served = self.toc.served_as if self.toc is not None else {}
        # its own id; a folder's own page keeps its name (index)
        named = {f: posixpath.basename(k) for k, f in served.items() if not is_landing_page(f)}
        named |= self.toc.own_names if self.toc is not None else {}  # a Dendron note's
        named.update(dict.fromkeys(landing, "index"))
        for page in home:  # a page that is its folder is named as the folder
            named.setdefault(page, posixpath.basename(posixpath.dirname(page)))
        # FAQ.md beside faq/ opens it too, when faq/ holds pages: a blog post beside the
        # folder of its images is a page of the blog (tauri-docs' posts were moved in)
        needed_lower: dict[str, str] = {}
        for folder in sorted(with_pages):
            needed_lower.setdefault(folder.lower(), folder)
        dirs_in: dict[str, set[str]] = defaultdict(set)  # a page may share a folder's name
        for out in made:
            dirs_in[posixpath.dirname(out)].add(posixpath.basename(out).lower())
        for rel in documents:
            if rel in old:
                out = old[rel]["path"]
            else:
                # a page beside a folder of its name (an Azure DevOps or Confluence parent
                # page: Runbooks.md and Runbooks/) opens that folder's bundle
                inner = posixpath.splitext(rel)[0]
                if plan is not None:  # where the TOC puts it; unlisted: the root, for now
                    folder = plan.folder_of.get(rel, "")
                else:
                    own = home.get(rel) or posixpath.dirname(rel)
                    named_alike = needed_lower.get(
                        inner.lower(), needed_lower.get(without_export_id(inner).lower(), own)
                    )  # Notion's "Runbooks 1b47....md" beside "Runbooks/" too
                    folder = self.folders[inner if inner in with_pages else named_alike]
                    if inner in with_pages or named_alike != own:  # the bundle's own page
                        self.folder_landing.add(rel)
                name = named.get(rel) or without_export_id(Path(rel).stem)  # the site's own
                base = slugify(name)
                names = taken[folder]
                if base.lower() in dirs_in[folder]:  # post.md beside post/: both may be
                    names = TakenNames(n for n in names if n not in dirs_in[folder])
                stem = unique_slug(
                    base, names, at_root=not folder, alternatives=self._other_names(rel, name)
                )
                taken[folder].add(stem)
                out = posixpath.join(folder, stem + ".md") if folder else stem + ".md"
            self.docs[rel] = _Doc(rel, out)
        for rel in assets:
            if rel in old_assets:
                self.assets[rel] = old_assets[rel]["path"]
                continue
            # images and furniture never sit beside SKILL.md: the root holds bundles
            folder = self.folders[posixpath.dirname(rel)] or ASSETS_FOLDER
            suffix = Path(rel).suffix.lower()
            if suffix in MARKDOWN_EXTS:
                suffix = (
                    ".txt"  # every .md in a package is a document: furniture and snippets are not
                )
            name = _unique_file(slugify(Path(rel).stem, fallback="asset"), suffix, taken[folder])
            taken[folder].add(name)
            self.assets[rel] = posixpath.join(folder, name)

    def _folder_pages(self, documents: list[str]) -> tuple[dict[str, str], set[str]]:
        """The pages that are their folder (the TOC's ``folder_pages``: Nextra serves
        ``app/guide/why/page.mdx`` at ``/guide/why``; a landing page, ``index.md``):
        those alone in their folder -> the folder above, of whose pages they are one
        (named by their folder); and the others, their folder's own pages (its landing
        page: named ``index``)."""
        own = self.toc.folder_pages if self.toc is not None else frozenset()
        holding: Counter[str] = Counter()  # folder -> the pages in it and below it
        for page in documents:
            for folder in _ancestors(posixpath.dirname(page)):
                holding[folder] += 1
        # a landing page alone in its folder is a page too (FastAPI's learn/index.md,
        # served at /learn/): a bundle of one page costs a walk a turn for nothing; but
        # not the folder that is the package's root (a site of one page)
        alone = {
            p
            for p in documents
            if (p in own or is_landing_page(p))
            and self.folders.get(posixpath.dirname(p), None) != ""
            and posixpath.dirname(p)
            and holding[posixpath.dirname(p)] == 1
        }
        home = {p: posixpath.dirname(posixpath.dirname(p)) for p in alone}
        return home, {p for p in documents if p in own and p not in alone}

    def _wrapper_folder(self, documents: list[str], assets: list[str]) -> str:
        """The folder every page sits in, when there is one: a site's pages folder (an
        MkDocs ``docs_dir`` whose pages its nav lists; a content folder holding every
        page), and, when no TOC lists them, below it the only folder in it, and so on
        (an export unzipped with its folder around it; the one language folder left,
        ``src/content/docs/en``); '' otherwise. It becomes the package root instead of a chain of bundles of one that
        costs every walk a turn."""
        toc = self.toc
        prefix = ""
        if toc is not None and toc.docs_dir:
            inside = toc.docs_dir + "/"
            listed = list(toc.order())
            if listed and all(p.startswith(inside) for p in listed):
                return toc.docs_dir  # below it, the TOC's sections are the tree
            if documents and all(p.startswith(inside) for p in documents):
                prefix = inside
        # below a site's pages folder its pages decide (its public/ files go to assets);
        # elsewhere an export's images beside its one folder of pages keep it a bundle
        files = [
            f for f in (documents if prefix else [*documents, *assets]) if f.startswith(prefix)
        ]
        pages = set(documents)
        while files:
            inner = [f[len(prefix) :] for f in files]
            folders = {f.split("/", 1)[0] for f in inner if "/" in f}
            # a page beside the one folder of its name opens it (Notion's, Azure DevOps')
            named = {f: folder_named_as(f, folders) for f in inner if prefix + f in pages}
            tops = {f.split("/", 1)[0] if "/" in f else named.get(f, "") for f in inner}
            if len(tops) != 1 or "" in tops:
                break
            prefix += tops.pop() + "/"
        return prefix.rstrip("/")

    # 3'. links ---------------------------------------------------------------------------

    def _rewrite_links(self, doc: _Doc, body: str) -> str:
        """Links to other sources, rewritten to the documents and assets they became."""
        self._off_links.pop(doc.source, None)  # counted again as this body is rewritten
        self._above_links.pop(doc.source, None)
        if "](" not in body and "]:" not in body and "href" not in body and "src=" not in body:
            return body

        def target_for(written: str) -> str | None:
            target = without_base_tag(written)  # {{ site.baseurl }}/x/: the site's /x/
            found = resolve(doc.source, target)
            here = found.path if found.kind == "internal" else None
            if here is None or (here not in self.docs and here not in self.assets):
                # through an import alias of the site (@assets/x.png, tsconfig paths)
                here = self._aliased(doc.source, target) or here
            if here is None:  # an anchor, a URL, or a path above the sources (on the site?)
                return self._above_docs(doc, target) if found.kind == "outside" else None
            resolved, rooted = here, target.startswith("/")
            if resolved.endswith(".*"):  # Sphinx's image.*: the format the source has
                resolved = self._any_format(resolved[:-2], rooted) or resolved
            if resolved not in self.docs and resolved not in self.assets:
                resolved = self._loose_match(resolved) or resolved
            if resolved in getattr(self, "_redirect_pages", {}):  # a page that only sends on
                resolved = self._moved_page(resolved) or resolved
            if resolved not in self.docs and resolved not in self.assets:
                served = self._served_page(resolved) if rooted else self._served_at(doc, target)
                # a file the site moved: its map of moved pages names the source path
                # (docfx's source_path), so a relative link to it follows too
                # one version of a page the site serves in several (docfx's ?view=)
                served = served or (
                    self._versioned_page(target, doc.source)
                    if rooted
                    else self._moved_page(resolved)
                )
                resolved = served or resolved
            path = unquote(target.partition("#")[0].partition("?")[0])
            sep, fragment = ("#", found.fragment) if "#" in target else ("", "")
            if resolved in self.docs and self.docs[resolved].state != "failed":
                new = self.docs[resolved].out
                if resolved != doc.source:
                    self.links_between.add((doc.source, resolved))
                folder = False
            elif resolved in self.assets:
                new = self.assets[resolved]
                folder = False
            elif self.tree_plan is not None and self._folder_page(resolved):
                new = self.docs[self._folder_page(resolved)].out  # the folder's own page
                folder = False
            elif resolved.rstrip("/") in self.folders:
                new = self.folders[resolved.rstrip("/")]
                folder = True
            elif rooted:
                return self._off_source(doc, target)  # a page of the site the sources came from
            else:
                return self._above_docs(doc, target)  # beside the docs on the site, or None
            if rooted:
                link = "/" + new + ("/" if folder and new else "")
            else:
                link = relative_link(doc.out, new, folder=folder)
            if link == path and target == written:
                return None
            return link + (sep + fragment if sep else "")

        spans = None
        if body == doc.raw_body:  # rewritten again when the page moves: its links read once
            if doc.raw_spans is None:
                doc.raw_spans = self._spans_in(doc, body)
            spans = doc.raw_spans
        body = rewrite_links(body, target_for, spans)
        return rewrite_tag_links(body, target_for)  # <Card href="/quickstart">

    def _any_format(self, stem: str, rooted: bool) -> str | None:
        """The image of the source a Sphinx ``.. image:: diagram.*`` names: ``stem`` in
        the first format a web page shows (SVG, then PNG...), from the project's folder
        when written ``/``-rooted."""
        folder = self.toc.docs_dir if rooted and self.toc is not None else ""
        for base in dict.fromkeys([posixpath.join(folder, stem) if folder else stem, stem]):
            for ext in _WEB_IMAGES:
                if base + ext in self.assets:
                    return base + ext
        return None

    @staticmethod
    def _write_file(path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")

    @staticmethod
    def _write_text(path: Path, text: str) -> int:
        """``text`` into ``path``, whose folder exists."""
        return path.write_text(text, encoding="utf-8", newline="\n")

    def _read_source(self, rel: str) -> str | None:
        """A source file's text (a byte-order mark, as Windows tools write one before
        docfx.json, is none of it); ``None`` when it cannot be read."""
        try:
            return read_regular(self.source / rel).decode("utf-8-sig", errors="replace")
        except OSError:
            return None


def _served_folder_names(served: dict[str, str]) -> dict[str, str]:
    """Source folder -> the name the site serves it by, where the site drops a prefix of
    its name (Docusaurus serves ``03-Introduction/01-help.md`` at ``Introduction/help``):
    read from the paths the TOC says its pages are served at."""
    names: dict[str, str] = {}
    for site, page in served.items():
        ours, theirs = posixpath.dirname(page).split("/"), posixpath.dirname(site).split("/")
        if len(ours) != len(theirs):
            continue
        for depth, (own, shown) in enumerate(zip(ours, theirs, strict=True)):
            if own != shown and own.endswith(shown) and not own[-len(shown) - 1].isalnum():
                names.setdefault("/".join(ours[: depth + 1]), shown)
    return names
