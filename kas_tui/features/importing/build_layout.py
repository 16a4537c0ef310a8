"""The build's layout: where each source goes in the package (paths), how the links
between sources follow, and the indexes and SKILL.md that list what it holds."""

from __future__ import annotations

import os
import posixpath
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from kas_tui.core.fileio import read_regular
from kas_tui.core.okf import index_layout
from kas_tui.core.okf.links import (
    Span,
    relative_link,
    resolve,
    rewrite_links,
)
from kas_tui.features.importing.build_manifest import _one_line
from kas_tui.features.importing.build_names import NamesMixin, titles_below
from kas_tui.features.importing.build_site_links import SiteLinksMixin
from kas_tui.features.importing.convert import MARKDOWN_EXTS, Converted
from kas_tui.features.importing.draft import Draft
from kas_tui.features.importing.root_pages import with_first_pages
from kas_tui.features.importing.source_meta import (
    folder_named_as,
    is_landing_page,
    without_export_id,
)
from kas_tui.features.importing.tag_links import rewrite_tag_links
from kas_tui.text import folder_summary as summary
from kas_tui.text import prose
from kas_tui.text.description_verdicts import LONG_DESCRIPTION as MAX_DESCRIPTION
from kas_tui.text.section_topics import entry_sentence
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


def _distinct_titles(
    entries: list[tuple[str, str, str, bool]],
) -> list[tuple[str, str, str, bool]]:
    """``entries`` of one index with no title twice: of entries titled alike, the one
    the title names (a bundle, else the one whose file is named by the title) keeps it;
    the others say what tells them apart, their file's name ("Widgets (Widget gallery)"
    beside the "Widgets" bundle)."""
    alike: dict[str, list[int]] = defaultdict(list)
    for n, (_target, title, _desc, _bundle) in enumerate(entries):
        alike[title.casefold()].append(n)
    out = list(entries)
    for group in (g for g in alike.values() if len(g) > 1):

        def name(n: int) -> str:
            return posixpath.basename(entries[n][0]).removesuffix(".md")

        keep = min(group, key=lambda n: (name(n) != slugify(entries[n][1]), not entries[n][3], n))
        for n in group:
            if n == keep:
                continue
            target, title, desc, is_bundle = entries[n]
            told = index_layout.folder_title(name(n))
            if told.casefold() == title.casefold() or told.casefold() in title.casefold():
                told = "section" if is_bundle else "page"
            out[n] = (target, f"{title} ({told})", desc, is_bundle)
    return out


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


class LayoutMixin(NamesMixin, SiteLinksMixin):
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
            base = slugify(without_export_id(posixpath.basename(folder)), fallback="folder")
            out = posixpath.join(parent, base) if parent else base
            if out == posixpath.join(ASSETS_FOLDER, ASSETS_FOLDER):
                out = ASSETS_FOLDER  # the site's own assets/ is the package's, not assets/assets/
            if out in made or out == ASSETS_FOLDER:  # "Mail Flow/" beside "mail-flow/": one
                self.folders[folder] = out  # name, one bundle (and one assets/)
                continue
            slug = unique_slug(base, taken[parent])
            out = posixpath.join(parent, slug) if parent else slug
            made.add(out)
            taken[parent].add(slug)
            self.folders[folder] = out
        served = self.toc.served_as if self.toc is not None else {}
        # its own id; a folder's own page keeps its name (index)
        named = {f: posixpath.basename(k) for k, f in served.items() if not is_landing_page(f)}
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

        def target_for(target: str) -> str | None:
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
            if link == path:
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

    # -- the package as the indexes see it --------------------------------------------------

    def _view_from_drafts(self) -> dict[str, tuple[str, str, str]]:
        return {
            d.out: (d.draft.title, d.draft.description, d.draft.type)
            for d in self.docs.values()
            if d.draft is not None
        }

    def _entry_sentence(self, path: str, view: dict[str, tuple[str, str, str]]) -> str:
        """What the index entry of the page at ``path`` says (``entry_sentence``): its
        description, naming the sections drafted this build or recorded by the last."""
        sections = getattr(self, "_sections", None)
        if sections is None:
            recorded = (self.manifest or {}).get("documents", {})
            sections = {e["path"]: e.get("sections") or () for e in recorded.values()}
            sections.update((d.out, d.topics) for d in self.docs.values() if d.draft is not None)
            self._sections = sections
        return entry_sentence(view[path][1], sections.get(path, ()), MAX_DESCRIPTION)

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

    def _read_source(self, rel: str) -> str | None:
        """A source file's text (a byte-order mark, as Windows tools write one before
        docfx.json, is none of it); ``None`` when it cannot be read."""
        try:
            return read_regular(self.source / rel).decode("utf-8-sig", errors="replace")
        except OSError:
            return None

    def _descriptions(
        self, view: dict[str, tuple[str, str, str]]
    ) -> dict[str, tuple[str, str, int]]:
        """Folder -> (title, description, documents at any depth), deepest folders first."""
        bundles, docs_in, subs_in = self._tree(view)
        titles = self._folder_titles(view)
        below_each = titles_below(view)
        weights = summary.weights_for(
            [[view[p][0] for p in docs_in.get(f, [])] for f in bundles if docs_in.get(f)]
        )
        # a bundle's topics are weighed against its siblings' (what tells it apart)
        among = {
            parent: summary.weights_for([below_each.get(s, []) for s in subs])
            for parent, subs in subs_in.items()
            if len(subs) >= summary.SIBLINGS_TO_WEIGH
        }
        out: dict[str, tuple[str, str, int]] = {}
        types: dict[str, Counter[str]] = {}
        for folder in bundles:
            title = titles.get(folder) or index_layout.folder_title(posixpath.basename(folder))
            parent = posixpath.dirname(folder)
            documents = [(view[p][0], view[p][2]) for p in docs_in.get(folder, [])]
            subfolders = [(out[s][0], out[s][2]) for s in subs_in.get(folder, []) if s in out]
            types[folder] = Counter(t for _title, t in documents)
            for sub in subs_in.get(folder, []):
                types[folder].update(types.get(sub, Counter()))
            total = len(documents) + sum(n for _t, n in subfolders)
            prefix = folder + "/" if folder else ""
            depth = prefix.count("/") + 1
            deeper = (
                [
                    (out[s][0], out[s][2])
                    for s in out
                    if s.startswith(prefix) and s.count("/") >= depth
                ]
                if subfolders
                else []
            )
            below = sorted(below_each.get(folder, [])) if subfolders else []
            siblings = len(subs_in.get(parent, []))  # the bundles its parent lists
            if folder and total == 1 and len(documents) == 1:  # a page and its images:
                description = view[docs_in[folder][0]][1]  # the bundle says what it says
            else:
                description = summary.folder_description(
                    title,
                    documents,
                    subfolders,
                    total=total,
                    weights=among.get(parent, weights) if subfolders else weights,
                    doc_type=summary.main_type(types[folder].elements()),
                    types=types[folder],
                    all_titles=below,
                    deeper=deeper,
                    room=(
                        summary.folder_room(siblings, self.index_budget)
                        if folder
                        else summary.MAX_DESCRIPTION
                    ),
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
                (path, _one_line(view[path][0]), _one_line(self._entry_sentence(path, view)), False)
                for path in sorted(
                    [*docs_in.get(folder, []), *self._cross_entries(folder)],
                    key=lambda p: view[p][0].lower(),
                )
                if path in view
            ]
            wanted[folder] = _distinct_titles(entries)
        self._wanted = wanted  # the root index lists the first bundles' entries too
        self._root_groups = None
        if "" in wanted:
            self._root_groups = self._first_pages(wanted[""], info, view)
        if self._root_groups is not None:  # a bundle listed below says so (root_pages)
            said = {e.path: e.description for _h, items in self._root_groups for e in items}
            wanted[""] = [
                (target, title, said.get(target, description), is_bundle)
                for target, title, description, is_bundle in wanted[""]
            ]
        return wanted, info

    def _first_pages(
        self, entries: list[tuple[str, str, str, bool]], info: dict, view: dict
    ) -> list | None:
        """The root index's sections when the source's TOC orders it: its own, then its
        first bundles' entries (``root_pages.with_first_pages``); ``None`` without a TOC."""
        groups = self._toc_groups("", self._new_entries(entries, view), info)
        if groups is None:
            return None
        wanted = self._wanted
        return with_first_pages(
            groups,
            lambda bundle: self._listed(bundle, wanted.get(bundle, []), info, view),
            lambda bundle: info[bundle][0],
            lambda gs: index_layout.new_index_in_sections("", info[""][0], gs),
            self.index_budget,
            lambda bundle: summary.count_phrase(info[bundle][2], None),
        )

    @staticmethod
    def _new_entries(
        entries: list[tuple[str, str, str, bool]], view: dict
    ) -> list[index_layout.NewEntry]:
        return [
            index_layout.NewEntry(
                target, title, description, index_layout.BUNDLE if is_bundle else view[target][2]
            )
            for target, title, description, is_bundle in entries
        ]

    def _index_text(
        self, folder: str, entries: list[tuple[str, str, str, bool]], info: dict, view: dict
    ) -> str:
        new = self._new_entries(entries, view)
        groups = self._toc_groups(folder, new, info)
        root = getattr(self, "_root_groups", None)
        if folder == "" and root is not None:  # the TOC's order, its first bundles' entries
            groups = root
        if groups is not None:
            return index_layout.new_index_in_sections(folder, info[folder][0], groups)
        return index_layout.new_index_in_sections(folder, info[folder][0], self._groups(new))

    def _listed(
        self, folder: str, entries: list[tuple[str, str, str, bool]], info: dict, view: dict
    ) -> list[index_layout.NewEntry]:
        """``folder``'s entries in the order its own index lists them."""
        new = self._new_entries(entries, view)
        groups = self._toc_groups(folder, new, info) or self._groups(new)
        return [entry for _heading, items in groups for entry in items]

    def _groups(
        self, entries: list[index_layout.NewEntry]
    ) -> list[tuple[str | None, list[index_layout.NewEntry]]]:
        """How an index the source's TOC does not order lists ``entries``: a folder's
        landing page (its ``index``, ``README``) first, as a site shows it, then as any
        new index (:func:`index_layout.default_groups`)."""
        landing = self._landing_pages()
        first = [e for e in entries if e.path in landing]
        rest = [e for e in entries if e.path not in landing]
        groups = index_layout.default_groups(rest if first else entries)
        if first and groups and groups[0][0] is None:  # one list, the landing page first
            return [(None, [*first, *groups[0][1]]), *groups[1:]]
        return [(None, first), *groups] if first else groups

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
