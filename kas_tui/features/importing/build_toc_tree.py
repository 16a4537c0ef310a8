"""The build's side of a source's table of contents: its order and section names in
every index (whatever the tree), and, when it is the tree (:mod:`.toc_tree`), the plan
made when the paths are mapped, the pages it does not list placed once drafted, and a
TOC bundle too big for its index split by its own sub-headings.

Pages the TOC does not list (and that did not join a section by their folder) are
drafted at the root, then moved where their links place them: the bundle whose pages
link to them most (a link from a page counting one, a link to a page half); without
links, the bundle whose pages' titles share the rarest of their title's words; with
neither, they stay at the root. They never go into a bundle made for them.
"""

from __future__ import annotations

import math
import posixpath
from collections import Counter, defaultdict
from typing import Any

from kas_tui.core.okf import index_layout
from kas_tui.features.importing import toc_tree
from kas_tui.features.importing.source_meta import is_landing_page
from kas_tui.features.importing.source_record import source_record
from kas_tui.features.importing.toc_model import Toc
from kas_tui.text.grouping import fold
from kas_tui.text.lexical import query_terms
from kas_tui.text.slug import TakenNames, slugify, unique_slug
from kas_tui.text.title_ranges import natural_order
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET, MAX_BUNDLE_ENTRIES

#: Tokens an index entry is reckoned at before its description is drafted (a title, a
#: file name and one sentence); a TOC section is one bundle when this many fit.
PLANNED_ENTRY_TOKENS = 65
_FILL = 0.85


class TocTreeMixin:
    """Mixed into the builder (its state is the builder's: ``toc``, ``docs``,
    ``links_between``, ``group_titles``, ``index_budget``)."""

    tree_plan: toc_tree.Plan | None = None

    def _plan_toc_tree(self, documents: list[str], root: str) -> toc_tree.Plan | None:
        """The plan when the source's TOC groups its pages in a way its folders cannot
        show (:func:`.toc_tree.nests_deeper`)."""
        toc = getattr(self, "toc", None)
        if toc is None or not toc_tree.nests_deeper(toc, documents):
            return None
        budget = getattr(self, "index_budget", INDEX_TOKEN_BUDGET)
        capacity = max(4, min(MAX_BUNDLE_ENTRIES, int(budget * _FILL) // PLANNED_ENTRY_TOKENS))
        plan = toc_tree.plan(toc, documents, capacity)
        self.group_titles.update(plan.titles)
        self.tree_plan = plan
        return plan

    def _cross_entries(self, folder: str) -> list[str]:
        """Package paths of the documents ``folder``'s index lists though they live in
        another bundle (pages the TOC lists twice)."""
        plan = self.tree_plan
        if plan is None:
            return []
        out = []
        here = folder
        for source in plan.cross.get(here, ()):
            doc = self.docs.get(source)
            if doc is not None and doc.draft is not None and posixpath.dirname(doc.out) != here:
                out.append(doc.out)
        return list(dict.fromkeys(out))

    # -- the indexes in the TOC's order ----------------------------------------------------

    def _toc_groups(
        self, folder: str, entries: list[index_layout.NewEntry], info: dict
    ) -> list[tuple[str | None, list[index_layout.NewEntry]]] | None:
        """``entries`` in the order of the source's table of contents, grouped under its
        section names (the folder's own section and the sub-bundle's own dropped);
        entries it does not list follow, by title. ``None`` when it lists none of them."""
        if self.toc is None:
            return None
        order, sections = self._toc_maps()
        across = set(self._cross_entries(folder))  # listed here, living in another bundle
        first: dict[str, str] = {}  # entry -> the page its position and sections come from
        around: dict[str, tuple[str, ...]] = {}  # a bundle -> the sections all its pages share
        for entry in entries:
            if entry.path in across:
                continue
            if entry.is_bundle:
                inside = [p for p in order if p.startswith(entry.path + "/")]
                if inside:
                    first[entry.path] = min(inside, key=order.__getitem__)
                    around[entry.path] = _shared_prefix([sections.get(p, ()) for p in inside])
            elif entry.path in order:
                first[entry.path] = entry.path
        if not first:
            return None
        own = info[folder][0] if folder else None
        listed = sorted((e for e in entries if e.path in first), key=lambda e: order[first[e.path]])
        groups: list[tuple[str | None, list[index_layout.NewEntry]]] = []
        for entry in listed:
            # a bundle stands under the sections all its pages share (none: under none)
            above = list(
                around[entry.path] if entry.path in around else sections.get(first[entry.path], ())
            )
            if own in above:
                above = above[above.index(own) + 1 :]
            # "Technical Documentation" names it too; "`cfg`" the bundle "Cfg"
            folded = [_said(a) for a in above]
            name = _said(info[entry.path][0]) if entry.is_bundle else None
            if name in folded:  # its own section: the innermost so named (a book's part
                # "Classification" holds its chapter "Classification")
                above = above[: len(folded) - 1 - folded[::-1].index(name)]
            heading = above[-1] if above else None
            group = next((g for g in groups if g[0] == heading), None)
            if group is None:
                groups.append((heading, [entry]))
            else:
                group[1].append(entry)
        groups.sort(key=lambda g: g[0] is not None)  # unsectioned entries first
        if len(groups) == 1:  # one section over every entry names no part of it
            groups = [(None, groups[0][1])]
        rest = sorted(
            (e for e in entries if e.path not in first and e.path not in across),
            key=lambda e: natural_order(e.title),
        )
        landing = [e for e in rest if e.path in self._landing_pages()]
        if landing:  # a landing page the TOC does not list opens the index, as on the site
            rest = [e for e in rest if e not in landing]
            if groups and groups[0][0] is None:
                groups[0] = (None, [*landing, *groups[0][1]])
            else:
                groups.insert(0, (None, landing))
        if rest:
            groups.append(("Other pages" if groups else None, rest))
        elsewhere = [e for e in entries if e.path in across]
        if elsewhere:
            groups.append(("See also", elsewhere))
        return groups

    def _toc_maps(self) -> tuple[dict[str, int], dict[str, tuple[str, ...]]]:
        """Package path -> position in the TOC, and -> the TOC sections above it; a
        page that is a section's own (a docfx item with an ``href`` and ``items``, a
        Dendron note with notes below it) is in that section too."""
        cached = getattr(self, "_toc_cache", None)
        if cached is None:
            assert self.toc is not None
            out_of = {src: d.out for src, d in self.docs.items()}
            order = {out_of[p]: n for p, n in self.toc.order().items() if p in out_of}
            sections = {out_of[p]: s for p, s in self.toc.sections().items() if p in out_of}
            for node, above in self.toc.walk():
                out = out_of.get(node.path or "")
                if not out or not node.children or not node.title:
                    continue
                here = posixpath.dirname(out)
                below = (out_of.get(n.path or "") for n, _a in Toc("", "", node.children).walk())
                # with entries of its section in its index: a heading over it alone says
                # nothing (its entries listed in their own bundles)
                if list(sections.get(out, ())) == list(above) and any(
                    b and b != out and posixpath.dirname(b) == here for b in below
                ):
                    sections[out] = (*above, node.title)
            cached = self._toc_cache = (order, sections)
        return cached

    # -- after drafting -------------------------------------------------------------------

    def _place_unlisted(self) -> set[str]:
        """Move the pages the TOC does not list to the bundle their links, else their
        words, place them in; the sources moved."""
        plan = self.tree_plan
        if plan is None or not plan.unlisted:
            return set()
        site = self.toc.docs_dir if self.toc is not None else ""
        waiting = {
            s
            for s in plan.unlisted
            if s in self.docs
            and self.docs[s].draft is not None
            # the site's home page (its README, its index) opens the package, as the site
            and not (is_landing_page(s) and posixpath.dirname(s) == site)
        }
        if not waiting:
            return set()
        home: dict[str, str] = {}  # placed source -> its folder
        for source, doc in self.docs.items():
            if doc.draft is not None and source not in waiting:
                home[source] = posixpath.dirname(doc.out)
        linked_from: dict[str, list[str]] = defaultdict(list)
        links_to: dict[str, list[str]] = defaultdict(list)
        for source, target in self.links_between:
            if target in waiting:
                linked_from[target].append(source)
            if source in waiting:
                links_to[source].append(target)
        words = _FolderWords(plan.titles.items())
        for source, folder in home.items():
            words.add(folder, self.docs[source].draft.title)
        moved: set[str] = set()
        taken: dict[str, TakenNames] = defaultdict(TakenNames)
        for doc in self.docs.values():
            if doc.draft is not None:
                taken[posixpath.dirname(doc.out)].add(posixpath.basename(doc.out)[:-3])
        for source in sorted(waiting):
            doc = self.docs[source]
            votes: Counter[str] = Counter()
            for other in linked_from.get(source, ()):
                if other in home:
                    votes[home[other]] += 1.0
            for other in links_to.get(source, ()):
                if other in home:
                    votes[home[other]] += 0.5
            if votes:
                top = max(votes.values())
                best = [f for f, n in votes.items() if n == top]
                folder = best[0] if len(best) == 1 else words.best(doc.draft.title, best)
                folder = folder if folder is not None else min(best)
            else:
                folder = words.best(doc.draft.title) or ""
            if folder == posixpath.dirname(doc.out):
                continue
            self._move_doc(doc, folder, taken)
            moved.add(source)
        return moved

    def _move_doc(self, doc: Any, folder: str, taken: dict[str, TakenNames] | None = None) -> None:
        """``doc`` into ``folder`` (its name made unique there when ``taken`` is given),
        its ``sources`` record following when it is relative to the document."""
        name = posixpath.basename(doc.out)[:-3]
        if taken is not None:
            others = self._other_names(doc.source, name, doc.draft.title)
            name = unique_slug(name, taken[folder], at_root=not folder, alternatives=others)
            taken[folder].add(name)
        doc.out = posixpath.join(folder, name + ".md") if folder else name + ".md"
        doc.draft.bundle = folder
        if doc.converted is None:
            return
        sources = doc.draft.frontmatter.get("sources")
        if not (isinstance(sources, list) and sources and isinstance(sources[-1], dict)):
            return
        resource = str(sources[-1].get("resource") or "")
        if resource.startswith(("/", "file:")):
            return  # inside the package, or where it really is: the same from anywhere
        record = source_record(doc.converted, self.out, folder)
        if record["resource"] != resource:
            new = [*sources[:-1], {**sources[-1], "resource": record["resource"]}]
            try:
                if "sources" in doc.draft.drafted:  # ours: written anew, no YAML to patch
                    doc.draft.frontmatter["sources"] = new
                else:
                    doc.draft.set_field("sources", new)
                doc.text = doc.draft.render()
            except ValueError:  # keep the text as drafted
                return

    def _split_by_headings(self, folder: str, members: list[Any]) -> list[tuple[str, str, list]]:
        """A TOC bundle's sub-headings as its sub-bundles: (slug, title, documents) for
        each sub-section with three of ``members`` or more; [] when it has none."""
        plan = self.tree_plan
        section = plan.folded.get(folder) if plan is not None else None
        if section is None:
            return []
        by_source = {d.source: d for d in members}
        out: dict[str, tuple[str, str, list]] = {}
        for child in section.children:
            inside = [by_source[p] for p in child.all_pages() if p in by_source]
            if len(inside) < toc_tree.MIN_BUNDLE:
                continue
            slug = slugify(child.title, fallback="section")
            if slug in out:
                out[slug][2].extend(inside)
            else:
                out[slug] = (slug, child.title, inside)
                sub = posixpath.join(folder, slug) if folder else slug
                if child.children:
                    plan.folded[sub] = child
        return list(out.values())

    def _split_by_sections(self, folder: str, members: list[Any]) -> list[tuple[str, str, list]]:
        """An over-full folder the TOC does not make the tree of (its folders are), split
        by the TOC's sections of its own pages: the sections just below those all of them
        share (trigger.dev's 74 root pages under "Writing tasks", "Runs", "Config"...),
        (slug, title, documents) for each of three pages or more; [] when the TOC tells
        them apart into fewer than two such sections."""
        if self.toc is None or self.tree_plan is not None:
            return []
        sections = self.toc.sections()
        above = {id(d): tuple(sections.get(d.source, ())) for d in members}
        listed = [d for d in members if above[id(d)]]
        if len(listed) < 2 * toc_tree.MIN_BUNDLE:
            return []
        # the sections around most of them (a tab all but two sit in) are no parts
        shared: tuple[str, ...] = ()
        while True:
            inner = Counter(
                above[id(d)][len(shared)]
                for d in listed
                if len(above[id(d)]) > len(shared) and above[id(d)][: len(shared)] == shared
            )
            if not inner:
                break
            name, n = inner.most_common(1)[0]
            if 3 * n < 2 * len(listed):  # no section holds two thirds: these are the parts
                break
            shared = (*shared, name)
        parts: dict[str, tuple[str, str, list]] = {}
        for doc in listed:
            path = above[id(doc)]
            if len(path) > len(shared) and path[: len(shared)] == shared:
                title = path[len(shared)]
                slug = slugify(title, fallback="section")
                parts.setdefault(slug, (slug, title, []))[2].append(doc)
        kept = [p for p in parts.values() if len(p[2]) >= toc_tree.MIN_BUNDLE]
        return kept if len(kept) >= 2 else []


class _FolderWords:
    """The words of each bundle's title and its pages' titles, to find the bundle a
    title belongs in by the rarest words it shares."""

    def __init__(self, titled: Any) -> None:
        self.counts: dict[str, Counter[str]] = defaultdict(Counter)
        for folder, title in titled:
            for word in _terms(title):
                self.counts[folder][word] += 2
        self._df: Counter[str] | None = None

    def add(self, folder: str, title: str) -> None:
        for word in _terms(title):
            self.counts[folder][word] += 1
        self._df = None

    def best(self, title: str, among: list[str] | None = None) -> str | None:
        if self._df is None:
            self._df = Counter(w for c in self.counts.values() for w in c)
        terms = _terms(title)
        if not terms:
            return None
        total = max(1, len(self.counts))
        scored: list[tuple[float, str]] = []
        for folder in among if among is not None else list(self.counts):
            counts = self.counts.get(folder)
            if not counts or not folder:
                continue
            score = sum(
                math.log(1 + total / self._df[w]) * math.log(1 + counts[w])
                for w in terms
                if counts.get(w)
            )
            if score > 0:
                scored.append((score, folder))
        if not scored:
            return None
        return max(scored, key=lambda s: (s[0], -s[1].count("/"), s[1]))[1]


def _terms(text: str) -> set[str]:
    return {fold(w) for w in query_terms(text) if len(w) > 2 and not w.isdigit()}


def _shared_prefix(lists: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The sections every one of a bundle's pages sits in: a bundle the build made of
    several TOC sections (a run "Table 00 to Table 34") sits under none of theirs."""
    if not lists:
        return ()
    shortest = min(lists, key=len)
    n = 0
    while n < len(shortest) and all(len(x) > n and x[n] == shortest[n] for x in lists):
        n += 1
    return tuple(shortest[:n])


def _said(title: str) -> str:
    """A title as words, to tell whether two name the same: case and code marks aside."""
    return title.replace("`", "").strip().casefold()
