"""The build's size budget: a folder whose index would not fit is split into topical
sub-bundles (:mod:`.grouping`), on the first build.

Runs after drafting (titles, descriptions and tags are known) and before writing. A
moved document keeps its file name; its new folder is a sub-folder of the one its
source was in, named by the group's label. Links are rewritten again from the
converted bodies, so every link follows the move. The groups' titles are kept in the
build manifest, so a later build over the same sources writes the same indexes; a later
build does not regroup (a curator may have moved things since), and a document new
since then lands in its source's folder, where ``check --agent-ready`` warns if the
folder grows past the budget again.
"""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict

from kas_tui.core.okf import index_layout
from kas_tui.features.importing.convert_model import LINKED_KINDS
from kas_tui.features.importing.source_meta import is_landing_page
from kas_tui.text.description_verdicts import LONG_DESCRIPTION as MAX_DESCRIPTION
from kas_tui.text.grouping import Member, group
from kas_tui.text.lexical import STOPWORDS
from kas_tui.text.section_topics import entry_sentence
from kas_tui.text.slug import TakenNames, slugify, unique_slug
from kas_tui.text.title_ranges import title_ranges
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET, MAX_BUNDLE_ENTRIES, estimate_tokens
from kas_tui.text.version_runs import title_version, version_runs
from kas_tui.text.year_runs import dated_year, year_runs

#: Tokens an index's heading and a sub-bundle's entry are reckoned at before they exist.
_HEADER_TOKENS, _BUNDLE_ENTRY_TOKENS = 40, 60
#: Share of the budget the entries are planned to fill (descriptions of new sub-bundles
#: are written later and vary).
_FILL = 0.85
#: Deepest nesting of topical groups inside one source folder; a folder still too large
#: there is split by title range (:mod:`kas_tui.text.title_ranges`).
_MAX_DEPTH = 4


def entry_tokens(title: str, description: str, target: str) -> int:
    """Tokens of one index entry as the index writes it."""
    return estimate_tokens(f"* [{title}]({posixpath.basename(target)}) - {description}\n")


class GroupsMixin:
    """Splits the builder's over-budget folders (its state is the builder's)."""

    index_budget: int = INDEX_TOKEN_BUDGET

    def _split_large_folders(self) -> None:
        docs = [d for d in self.docs.values() if d.draft is not None]
        if not docs:
            return
        members: dict[str, list] = defaultdict(list)  # folder -> its documents
        children: dict[str, set[str]] = defaultdict(set)  # folder -> sub-folder names
        for doc in docs:
            folder = posixpath.dirname(doc.out)
            members[folder].append(doc)
            while folder:
                parent = posixpath.dirname(folder)
                children[parent].add(posixpath.basename(folder))
                folder = parent
        moved: set[str] = self._place_unlisted()
        if moved:
            members.clear()
            for doc in docs:
                members[posixpath.dirname(doc.out)].append(doc)
        pending = sorted(members)
        depth: dict[str, int] = defaultdict(int)
        while pending:
            folder = pending.pop(0)
            made = self._split(folder, depth[folder], members, children)
            for sub in made:
                depth[sub] = depth[folder] + 1
                pending.append(sub)
                moved.update(d.source for d in members[sub])
        moved |= self._bundles_in_runs(docs)
        if moved:
            # the moved documents, and those linking to one, get their links again
            touched = moved | {src for src, target in self.links_between if target in moved}
            for doc in docs:
                if doc.source not in touched:
                    continue
                if doc.converted is not None and doc.converted.kind in LINKED_KINDS:
                    body = self._rewrite_links(doc, doc.raw_body)
                    doc.text = doc.draft.with_body(body, doc.text)
                # other kinds keep no links to other pages: their text stands as drafted

    def _folder_ranges(self, documents: list[str], with_pages: set[str], top: str) -> dict:
        """Source folder -> the name of its run, for the sub-folders of a folder that
        holds more than an index may list (``MAX_BUNDLE_ENTRIES``) and mostly folders:
        they go into runs by name (:func:`~kas_tui.text.title_ranges.title_ranges`), as
        a docs repository's 200 service folders would. A later build keeps the folders
        where the first put them."""
        pages: Counter[str] = Counter(posixpath.dirname(rel) for rel in documents)
        subs: dict[str, list[str]] = defaultdict(list)
        for folder in with_pages:
            if folder and folder != top and folder not in self.folders:
                subs[posixpath.dirname(folder)].append(folder)
        out: dict[str, str] = {}
        for parent, folders in subs.items():
            many = len(folders) + pages[parent]
            if many <= MAX_BUNDLE_ENTRIES or len(folders) * 2 <= MAX_BUNDLE_ENTRIES:
                continue  # few folders: the pages are what a split groups (build_groups)
            named = [(f, index_layout.folder_title(posixpath.basename(f))) for f in folders]
            runs = title_ranges(named, MAX_BUNDLE_ENTRIES - 4)
            for run in runs:
                out.update(dict.fromkeys(run.members, run.label))
            self.result.notes.append(
                f"{parent or 'the source'}: its {len(folders):,} sub-folders are more than "
                f"one index lists; put in {len(runs)} runs by name"
            )
        return out

    def _bundles_in_runs(self, docs: list) -> set[str]:
        """A bundle listing more sub-bundles than one index lists (a TOC section of 70
        sub-sections) puts them into runs by title, as :meth:`_folder_ranges` does with
        a source's folders; the sources moved. Only bundles the build made move: a
        source folder keeps its images beside its pages."""
        subs: dict[str, set[str]] = defaultdict(set)
        pages: Counter[str] = Counter()
        for doc in docs:
            folder = posixpath.dirname(doc.out)
            pages[folder] += 1
            while folder:
                subs[posixpath.dirname(folder)].add(folder)
                folder = posixpath.dirname(folder)
        kept = set(self.folders.values())
        moved: set[str] = set()
        for parent in sorted(subs, key=lambda f: (f.count("/"), f)):
            folders = sorted(subs[parent])
            if len(folders) + pages[parent] <= MAX_BUNDLE_ENTRIES or len(folders) * 2 <= (
                MAX_BUNDLE_ENTRIES
            ):
                continue
            if kept & set(folders):
                continue
            named = [
                (f, self.group_titles.get(f) or index_layout.folder_title(posixpath.basename(f)))
                for f in folders
            ]
            taken = TakenNames(posixpath.basename(f) for f in folders)
            taken.update(posixpath.basename(d.out)[:-3] for d in docs if d.out.startswith(parent))
            for run in title_ranges(named, MAX_BUNDLE_ENTRIES - 4):
                slug = unique_slug(slugify(run.label, fallback="bundles"), taken)
                taken.add(slug)
                home = posixpath.join(parent, slug) if parent else slug
                self.group_titles[home] = run.label
                for old in run.members:
                    new = posixpath.join(home, posixpath.basename(old))
                    for key in [
                        k for k in self.group_titles if k == old or k.startswith(old + "/")
                    ]:
                        self.group_titles[new + key[len(old) :]] = self.group_titles.pop(key)
                    for doc in docs:
                        if doc.out.startswith(old + "/"):
                            self._move_doc(doc, new + posixpath.dirname(doc.out)[len(old) :])
                            moved.add(doc.source)
            self.result.notes.append(
                f"{parent or 'the package root'}: its {len(folders):,} bundles are more than "
                "one index lists; put in runs by title"
            )
        if moved:
            self.__dict__.pop("_toc_cache", None)  # the TOC's places of the moved pages
        return moved

    def _range_folder(self, parent: str, label: str, taken: dict, made: set[str]) -> str:
        """The package folder of the run named ``label`` in ``parent``, made once."""
        runs = self.__dict__.setdefault("_runs", {})
        if (parent, label) not in runs:
            slug = unique_slug(slugify(label, fallback="folders"), taken[parent])
            taken[parent].add(slug)
            runs[parent, label] = out = posixpath.join(parent, slug) if parent else slug
            made.add(out)
            self.group_titles[out] = label
        return runs[parent, label]

    def _split(
        self,
        folder: str,
        depth: int,
        members_of: dict[str, list],
        children_of: dict[str, set[str]],
    ) -> list[str]:
        """Split one folder when its index would not fit; the new sub-folders."""
        members = members_of.get(folder, [])
        children = children_of.get(folder, set())
        if len(members) < 6:
            return []
        sizes = [
            entry_tokens(
                d.draft.title, entry_sentence(d.draft.description, d.topics, MAX_DESCRIPTION), d.out
            )
            for d in members
        ]
        crossed = self._cross_entries(folder)
        total = _HEADER_TOKENS + sum(sizes) + _BUNDLE_ENTRY_TOKENS * len(children)
        total += _BUNDLE_ENTRY_TOKENS * len(crossed)
        entries = len(members) + len(children) + len(crossed)
        if total <= self.index_budget and entries <= MAX_BUNDLE_ENTRIES:
            return []
        by_headings = self._split_by_headings(folder, members) if depth < _MAX_DEPTH else None
        if not by_headings and depth == 0:  # the TOC's own sections of the folder's pages
            by_headings = self._split_by_sections(folder, members)
        if by_headings:
            return self._split_into(folder, by_headings, members_of, children_of)
        average = max(1, sum(sizes) // max(1, len(sizes)))
        capacity = max(4, min(MAX_BUNDLE_ENTRIES, int(self.index_budget * _FILL) // average))
        room = max(2, min(MAX_BUNDLE_ENTRIES, capacity) - len(children))
        # posts dated in their names go by year, as their readers look for one
        dated = [(d.out, y) for d in members if (y := dated_year(_dated_name(d.source)))]
        groups = year_runs(dated, capacity) if len(dated) >= 0.8 * len(members) else []
        if not groups:  # release notes titled by their version go by version
            versioned = [(d.out, v) for d in members if (v := title_version(d.draft.title))]
            enough = len(versioned) >= 0.8 * len(members)
            groups = version_runs(versioned, capacity) if enough else []
        if not groups and depth < _MAX_DEPTH:
            groups, _kept = group(
                [
                    Member(
                        d.out,
                        d.draft.title,
                        d.draft.description,
                        tuple(str(t) for t in d.draft.frontmatter.get("tags") or () if t),
                        d.headings,
                    )
                    for d in members
                ],
                capacity=capacity,
                parent_room=room,
                context=" ".join(self._folder_context(folder)),
            )
        taken = set(children)  # a page and a folder may share a name: setup.md, setup/
        targets = self._targets(folder, groups, members_of, taken) if groups else None
        if targets is None:  # nested deep enough, or nothing tells them apart: title ranges
            # the bundle's own page stays beside the runs: titled as the bundle, or its
            # landing page (psscriptanalyzer's rules/README.md, "List of ... rules")
            own = self._folder_context(folder)[0].casefold()
            ranged = [
                (d.out, d.draft.title)
                for d in members
                if d.draft.title.casefold() != own
                and not (  # a page bundle's index.md below it is a page of the folder
                    is_landing_page(d.source)
                    and self.folders.get(posixpath.dirname(d.source)) == folder
                )
            ]
            groups = title_ranges(ranged, capacity)
            targets = self._targets(folder, groups, members_of, taken) if groups else None
            if targets is None:  # one run of them all would be the folder again, nested
                self.result.notes.append(
                    f"{folder or 'the package root'}: {len(members):,} documents are more "
                    "than one index lists, and neither their words nor their titles split "
                    "them: left in one folder, so check warns of its index's size"
                )
                return []
            why = (
                f"in groups {depth} deep already"
                if depth >= _MAX_DEPTH
                else "sharing no words to group them by"
            )
            self.result.notes.append(
                f"{folder or 'the package root'}: {len(members):,} documents, {why}, are "
                f"split by title into {len(groups)} ranges"
            )
        by_key = {d.out: d for d in members}
        made: list[str] = []
        for g, (sub, new) in zip(groups, targets, strict=True):
            if new:
                self.group_titles[sub] = g.label
                children.add(posixpath.basename(sub))
            for key in g.members:
                doc = by_key.pop(key)
                doc.out = posixpath.join(sub, posixpath.basename(doc.out))
                doc.draft.bundle = sub
                members_of[sub].append(doc)
            if sub not in made:
                made.append(sub)
        members_of[folder] = list(by_key.values())
        children_of[folder] = children
        return made

    def _targets(
        self, folder: str, groups: list, members_of: dict[str, list], taken: set[str]
    ) -> list[tuple[str, bool]] | None:
        """Where each of ``groups`` goes in ``folder``: (its sub-bundle, whether it is
        new), adding the new ones' names to ``taken``; ``None`` when the split would make
        no progress: every document of the folder in one sub-bundle, which would be
        over the budget again, one level deeper, for ever (the Korean help of Obsidian:
        every label slugged to one name). A group whose label names a bundle the folder
        holds already joins it (no "setup-2"); a label with no letters a name can keep
        (Hangul, Cyrillic), or only function words ("to" of a run's "노트 to 플러그인"; a
        letter is a name: "A to I"),
        names none, so its group gets a bundle of its own."""
        planned: list[tuple[str, bool]] = []
        names = set(taken)
        for g in groups:
            kept = slugify(g.label, fallback="")
            if all(len(word) > 1 and word in STOPWORDS for word in kept.split("-")):
                kept = ""
            sub = posixpath.join(folder, kept) if folder else kept
            inside = {posixpath.basename(d.out) for d in members_of.get(sub, [])}
            if kept and kept in names and inside.isdisjoint(map(posixpath.basename, g.members)):
                planned.append((sub, False))  # joins the bundle of that name
                continue
            slug = unique_slug(kept or "group", names)
            names.add(slug)
            planned.append((posixpath.join(folder, slug) if folder else slug, True))
        stays = len(members_of.get(folder, [])) - sum(len(g.members) for g in groups)
        if len({sub for sub, _new in planned}) < 2 and stays <= 0:
            return None
        taken.update(names)
        return planned

    def _split_into(
        self,
        folder: str,
        parts: list[tuple[str, str, list]],
        members_of: dict[str, list],
        children_of: dict[str, set[str]],
    ) -> list[str]:
        """Move each part's documents into its sub-bundle (slug, title, documents) of
        ``folder``: a TOC bundle split by its own sub-headings."""
        children = children_of.get(folder, set())
        names: dict[str, TakenNames] = defaultdict(TakenNames)
        made = []
        moving = {id(d) for _slug, _title, docs in parts for d in docs}
        for slug, title, docs in parts:
            sub = posixpath.join(folder, slug) if folder else slug
            self.group_titles[sub] = title
            names[sub].update(posixpath.basename(d.out)[:-3] for d in members_of.get(sub, []))
            for doc in docs:
                self._move_doc(doc, sub, names)
                members_of[sub].append(doc)
            children.add(slug)
            made.append(sub)
        members_of[folder] = [d for d in members_of.get(folder, []) if id(d) not in moving]
        children_of[folder] = children
        return made

    def _folder_context(self, folder: str) -> list[str]:
        """The titles of ``folder`` and its parents, innermost first, then the package's."""
        titles = getattr(self, "_context_titles", None)
        if titles is None:
            titles = self._context_titles = self._folder_titles()
        out = []
        while folder:
            out.append(titles.get(folder) or index_layout.folder_title(posixpath.basename(folder)))
            folder = posixpath.dirname(folder)
        return [*out, titles[""]]  # the package's title: what every page is about


def _dated_name(source: str) -> str:
    """The name that dates a page: its own, or its folder's for a folder's own page (a
    Docusaurus blog's ``2021-03-09-release/index.md``)."""
    path = posixpath.dirname(source) if is_landing_page(source) else source
    return posixpath.splitext(posixpath.basename(path))[0]
