"""The source's table of contents as the package's tree (pure: no files read).

When a source's TOC nests its pages more deeply than its folders do, in a way the
folders cannot show (a flat folder of 2,000 pages with a nested ``TOC.md``; not an
MkDocs ``nav`` that only wraps ``events/`` and ``styles/`` in "Reference":
:func:`nests_deeper`), the TOC's headings become the bundles:

- **Sections.** A TOC entry with entries below it is a section; its own page (a
  heading that links a page) is the section's first page. A page the TOC lists twice
  belongs to the section that lists it first; the other sections list it too, by an
  index entry pointing across (:attr:`Plan.cross`).
- **Folders.** The root's sections with three pages or more are bundles, always. Below
  that, a section's pages all go into its bundle when they fit in one index (about
  ``capacity`` entries); when they do not, its sub-sections with three pages or more
  become sub-bundles, and so on down, but for the smallest of them, kept in its own
  index under their headings while it has room, from the third level on (a root
  section too big for one index has all its sub-sections of three pages or more as
  bundles: the TOC's top two levels). Sub-sections folded into their parent are kept
  (:attr:`Plan.folded`): if the drafted entries turn out too big after all, the build
  splits that bundle by them before it would ever group by words.
- **Names.** A bundle is the section's title made a slug, titled as the TOC titles it;
  sibling sections of one name are one bundle.
- **Pages the TOC does not list** whose folder's listed pages mostly sit in one section
  (``blog/posts/*`` beside a listed ``blog/index.md``) join that section before sizes
  are reckoned; the others are placed by the build, by their links and words, once
  drafted (:mod:`.build_toc_tree`).
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from kas_tui.core.okf import index_layout
from kas_tui.features.importing.toc import Toc, TocNode
from kas_tui.text.slug import slugify

#: Fewest pages a section needs to be a bundle: a bundle of two costs every walk a turn
#: for what the parent's index can list under the section's heading.
MIN_BUNDLE = 3
#: Share of a folder's listed pages that must sit in one section for its other pages to
#: join it.
_AFFINITY = 0.6


@dataclass
class Section:
    """One heading of the TOC: its pages, its sub-sections, the pages it lists that
    another section owns, and unlisted pages that joined it by their folder."""

    title: str
    pages: list[str] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    cross: list[str] = field(default_factory=list)

    def all_pages(self) -> list[str]:
        out = list(self.pages)
        for child in self.children:
            out += child.all_pages()
        return out

    def all_cross(self) -> list[str]:
        out = list(self.cross)
        for child in self.children:
            out += child.all_cross()
        return out


@dataclass
class Plan:
    """Where each page goes: ``folder_of`` source page -> package folder (``""`` the
    root); ``titles`` bundle -> its TOC title; ``cross`` bundle -> pages it lists that
    live in another bundle; ``folded`` bundle -> the section whose sub-sections were
    kept inside it; ``unlisted`` the pages still to place."""

    folder_of: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    cross: dict[str, list[str]] = field(default_factory=dict)
    folded: dict[str, Section] = field(default_factory=dict)
    unlisted: list[str] = field(default_factory=list)


def nests_deeper(toc: Toc, pages: Iterable[str] | None = None) -> bool:
    """Whether ``toc`` groups its pages in a way their folders cannot show: the folders do not tell its sections
    apart (of each folder's pages, those of its largest section are fewer than half of
    all), whether the TOC nests them more deeply (a flat folder whose pages it spreads
    over fifty headings) or as deep, across a folder (scrapy's captions over its
    ``topics/`` pages: "Basic concepts", "Built-in services", "Extending Scrapy"). A TOC
    that only wraps folders in headings ("Reference" around ``events/`` and
    ``styles/``) leaves the folders the tree. Nor does a TOC listing fewer than half
    of ``pages`` (the source's documents, when given): the folders are then the only
    structure most pages have (PowerShell-Docs' TOC lists its 640 articles, not the
    2,400 cmdlet pages its build writes a TOC for, kept in one folder per version)."""
    sections = toc.sections()
    if not sections:
        return False
    if pages is not None:
        pages = set(pages)
        if 2 * len(pages.intersection(sections)) < len(pages):
            return False
    if toc.kind == "antora":  # its folders (modules/install/pages) are no reader's sections
        return True
    by_folder: dict[str, Counter[tuple[str, ...]]] = {}
    for page, above in sections.items():
        by_folder.setdefault(posixpath.dirname(page), Counter())[tuple(above)] += 1
    told = sum(counts.most_common(1)[0][1] for counts in by_folder.values())
    return told * 2 < len(sections)


def sections_of(toc: Toc) -> Section:
    """The TOC as sections, each page owned by the first section listing it."""
    owner: set[str] = set()

    def claim(page: str, section: Section) -> None:
        if page in owner:
            if page not in section.cross:
                section.cross.append(page)
        else:
            owner.add(page)
            section.pages.append(page)

    def build(title: str, nodes: Iterable[TocNode], landing: str | None) -> Section:
        section = Section(title)
        if landing:
            claim(landing, section)
        for node in nodes:
            if node.children:
                name = node.title or _title_of(node.path or "") or title
                child = build(name, node.children, node.path)
                if child.all_pages() or child.all_cross():
                    section.children.append(child)
            elif node.path:
                claim(node.path, section)
        return section

    root = build("", toc.roots, None)
    while len(root.children) == 1 and len(root.pages) <= 1:  # one heading around all
        inner = root.children[0]
        root = Section("", root.pages + inner.pages, inner.children, root.cross + inner.cross)
    return root


def _title_of(page: str) -> str:
    stem = posixpath.splitext(posixpath.basename(page))[0]
    return index_layout.folder_title(slugify(stem)) if stem else ""


def plan(toc: Toc, pages: Iterable[str], capacity: int) -> Plan:
    """Where each of ``pages`` (the source's documents) goes, the TOC being the tree."""
    pages = list(pages)
    known = set(pages)
    root = sections_of(toc)
    _prune(root, known)
    listed = set(root.all_pages())
    _join_by_folder(root, [p for p in pages if p not in listed])
    result = Plan()
    _place(root, "", result, capacity, depth=0)
    result.unlisted = [p for p in pages if p not in result.folder_of]
    for folder, crossed in list(result.cross.items()):
        kept = [p for p in dict.fromkeys(crossed) if result.folder_of.get(p, folder) != folder]
        if kept:
            result.cross[folder] = kept
        else:
            del result.cross[folder]
    return result


def _prune(section: Section, known: set[str]) -> None:
    """Pages the build does not have (failed, assets) leave the sections."""
    section.pages = [p for p in section.pages if p in known]
    section.cross = [p for p in section.cross if p in known]
    for child in section.children:
        _prune(child, known)


def _join_by_folder(root: Section, unlisted: list[str]) -> None:
    """Unlisted pages join the section holding most of their folder's listed pages (or
    the nearest folder above that has listed pages), when most means 60% or more."""
    where: dict[str, Counter[int]] = {}
    by_id: dict[int, Section] = {}

    def walk(section: Section) -> None:
        by_id[id(section)] = section
        for page in section.pages:
            folder = posixpath.dirname(page)
            where.setdefault(folder, Counter())[id(section)] += 1
        for child in section.children:
            walk(child)

    walk(root)
    for page in unlisted:
        folder = posixpath.dirname(page)
        while True:
            counts = where.get(folder)
            if counts:
                best, n = counts.most_common(1)[0]
                if folder and n >= _AFFINITY * sum(counts.values()) and best != id(root):
                    by_id[best].pages.append(page)
                break
            if not folder:
                break
            folder = posixpath.dirname(folder)


def _place(section: Section, folder: str, result: Plan, capacity: int, *, depth: int) -> None:
    """Place ``section``'s pages in ``folder`` (``depth`` 0: the root; 1: a bundle of
    the root) and its sub-sections in sub-bundles, or in ``folder``'s own index."""
    is_root = depth == 0
    every = section.all_pages()
    if not is_root and len(every) + len(section.all_cross()) <= capacity:
        for page in every:
            result.folder_of[page] = folder
        if section.cross or section.children:
            result.cross.setdefault(folder, []).extend(section.all_cross())
        if section.children:
            result.folded[folder] = section
        return
    for page in section.pages:
        result.folder_of[page] = folder
    if section.cross:
        result.cross.setdefault(folder, []).extend(section.cross)
    merged: dict[str, Section] = {}  # slug -> section: sibling sections of one name are one
    inline: list[Section] = []
    for child in section.children:
        if len(child.all_pages()) < MIN_BUNDLE:
            inline.append(child)
            continue
        slug = slugify(child.title, fallback="section")
        if slug in merged:
            same = merged[slug]
            same.pages += child.pages
            same.children += child.children
            same.cross += child.cross
        else:
            merged[slug] = child
    # the smallest sub-sections stay in this index too, under their heading, while it
    # has room: a sub-bundle costs every walk into it a turn. Not the sections of the
    # root's bundles: the top two levels are the TOC's, and the root lists them with
    # their topics (Business Central's Planning, Quality management and Human resources
    # were headings in Business functionality's index, which no root entry named)
    entries = len(section.pages) + len(section.cross) + len(merged)
    entries += sum(len(c.all_pages()) + len(c.all_cross()) for c in inline)
    if depth >= 2:
        for slug, child in sorted(merged.items(), key=lambda kv: len(kv[1].all_pages())):
            size = len(child.all_pages()) + len(child.all_cross())
            if entries - 1 + size > capacity:
                break
            entries += size - 1
            inline.append(child)
            del merged[slug]
    for child in inline:
        for page in child.all_pages():
            result.folder_of[page] = folder
        if child.all_cross():
            result.cross.setdefault(folder, []).extend(child.all_cross())
    if inline and not is_root:
        result.folded[folder] = Section(section.title, [], inline)
    for slug, child in merged.items():
        sub = posixpath.join(folder, slug) if folder else slug
        result.titles[sub] = child.title
        _place(child, sub, result, capacity, depth=depth + 1)
