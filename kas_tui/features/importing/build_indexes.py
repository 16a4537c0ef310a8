"""The build's indexes: the package as its indexes see it (each document's title,
description and type), what each folder's ``index.md`` lists and in what order (the
source's TOC, its first bundles' entries at the root, else the default groups), and
the writing of every index."""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from pathlib import Path

from kas_tui.core.okf import index_layout
from kas_tui.features.importing.build_manifest import _one_line
from kas_tui.features.importing.build_names import titles_below
from kas_tui.features.importing.front_matter import front_matter, front_matter_place
from kas_tui.features.importing.root_pages import with_first_pages
from kas_tui.features.importing.source_meta import is_landing_page
from kas_tui.features.importing.toc_model import FOLDERS
from kas_tui.text import folder_summary as summary
from kas_tui.text.description_verdicts import LONG_DESCRIPTION as MAX_DESCRIPTION
from kas_tui.text.section_topics import entry_sentence
from kas_tui.text.slug import slugify


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


class IndexesMixin:
    """What the builder's indexes list (its state is the builder's: ``docs``,
    ``manifest``, ``toc``, ``index_budget``, ``result``, ...)."""

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

    def _descriptions(
        self, view: dict[str, tuple[str, str, str]]
    ) -> dict[str, tuple[str, str, int]]:
        """Folder -> (title, description, documents at any depth), deepest folders first."""
        bundles, docs_in, subs_in = self._tree(view)
        titles = self._folder_titles(view)
        below_each = titles_below(view)
        subject = self._package_title(view)  # said by SKILL.md, of no bundle alone
        weights = summary.weights_for(
            [[view[p][0] for p in docs_in.get(f, [])] for f in bundles if docs_in.get(f)],
            subject,
        )
        # a bundle's topics are weighed against its siblings' (what tells it apart)
        among = {
            parent: summary.weights_for([below_each.get(s, []) for s in subs], subject)
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

    def _places(self) -> dict[str, float]:
        """Package path -> the place its page gives it among its siblings in its front
        matter (``order:``, ``sidebar_position:``, ``nav_order:``, ``weight:``), a
        folder's its landing page's: read only where no site's config orders the pages
        (react-router's ``order: 1`` pages, built from its folders, were alphabetical)."""
        if "_places_cache" in self.__dict__:
            return self.__dict__["_places_cache"]
        places: dict[str, float] = self.__dict__.setdefault("_places_cache", {})
        if self.toc is not None and self.toc.kind != FOLDERS:
            return places
        for rel in sorted(self.source_files):  # a folder's page, a document or a name only
            folder = self.folders.get(posixpath.dirname(rel))
            if folder and is_landing_page(rel) and rel.lower().endswith((".md", ".mdx")):
                place = front_matter_place(front_matter(self._read_source(rel) or ""))
                if place is not None:
                    places.setdefault(folder, place)
        landing = self._landing_pages()
        for doc in self.docs.values():
            data = doc.converted.frontmatter if doc.converted is not None else None
            place = front_matter_place(data or {})
            if place is None:
                continue
            if doc.out not in landing:  # a folder's own page places the folder (above)
                places[doc.out] = place
        return places

    def _wanted_entries(
        self, view: dict[str, tuple[str, str, str]]
    ) -> tuple[dict[str, list[tuple[str, str, str, bool]]], dict[str, tuple[str, str, int]]]:
        """Folder -> [(target path, title, description, is_bundle)], and the folder info."""
        bundles, docs_in, subs_in = self._tree(view)
        info = self._descriptions(view)
        places = self._places()
        wanted: dict[str, list[tuple[str, str, str, bool]]] = {}
        for folder in bundles:
            entries = [
                (sub, _one_line(info[sub][0]), _one_line(info[sub][1]), True)
                for sub in sorted(
                    subs_in.get(folder, []),
                    key=lambda s: index_layout.entry_order(s, info[s][0], places.get(s)),
                )
            ]
            entries += [
                (path, _one_line(view[path][0]), _one_line(self._entry_sentence(path, view)), False)
                for path in sorted(
                    [*docs_in.get(folder, []), *self._cross_entries(folder)],
                    key=lambda p: index_layout.entry_order(p, view[p][0], places.get(p)),
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
        groups = index_layout.default_groups(rest if first else entries, self._places())
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
