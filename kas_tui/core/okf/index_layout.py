"""Where a new entry goes in an index, and what a new ``index.md`` looks like: the one
layout policy for listing documents and bundles (``check --fix``, the TUI's "add missing
entries", ``create``, ``import`` and ``build`` all call it)."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from kas_tui.core.okf.index import (
    Entry,
    Index,
    add_entry,
    check_entry_text,
    escape_title,
    format_target,
    parse_index,
)
from kas_tui.core.okf.links import relative_link, resolve
from kas_tui.text.slug import order_prefix, without_order_prefix
from kas_tui.text.title_ranges import natural_order

# --- layout: where a new entry goes, what a new index.md looks like ---------------------
#
# The one policy for listing documents and bundles, used by ``check --fix``, the TUI's
# "add missing entries", ``import`` and ``build``. A new index.md is rendered whole:
# the root's ``okf_version`` frontmatter, ``# Title``, then the sub-bundles and the
# documents (by title), in ``##`` sections when the folder holds both, or documents of
# several types (one section per type, plural, in alphabetical order). Into an existing
# index an entry goes, by minimal edit, into the first section whose listed entries are
# mostly of its kind, else a section named after it (``Runbook``/``Runbooks``,
# ``Bundles``), else (a document) the section listing the most documents; failing
# those it opens a section of its own at the end.

#: The kind of a sub-bundle's entry (a document's kind is its ``type``).
BUNDLE = "\0bundle"


@dataclass(frozen=True)
class NewEntry:
    """Something to list: a document (``kind`` its type) or a sub-bundle (:data:`BUNDLE`).

    ``path`` is root-relative: the document's path, or the bundle's folder.
    """

    path: str
    title: str
    description: str
    kind: str

    @property
    def is_bundle(self) -> bool:
        return self.kind == BUNDLE


_UNCOUNTABLE = frozenset(
    {"data", "information", "guidance", "software", "media", "news", "equipment", "feedback"}
)


def plural(word: str) -> str:
    """An English plural good enough for section headings (Runbook -> Runbooks)."""
    lower = word.lower()
    last = lower.split()[-1] if lower.split() else lower
    if last in _UNCOUNTABLE or last.endswith("ing"):
        return word  # Data, Troubleshooting
    if last.endswith("s") and not last.endswith(("ss", "us", "is", "as", "os")):
        return word  # Release notes: plural already
    if word.isupper():
        return word + "s"
    if lower.endswith("y") and lower[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    if lower.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def section_heading(kind: str) -> str:
    """The heading of the section for entries of ``kind`` (``Bundles``, ``Runbooks``)."""
    return "Bundles" if kind == BUNDLE else plural(kind.strip() or "Document")


def folder_title(name: str) -> str:
    """A folder name as a title: ``teams-rooms`` -> ``Teams rooms``, ``SharePoint`` kept,
    ``01-introduction`` -> ``Introduction`` (:func:`.without_order_prefix`)."""
    words = [w for w in re.split(r"[\s_\-]+", without_order_prefix(name)) if w]
    if not words:
        return name
    title = " ".join(words)
    return title[0].upper() + title[1:]


def _index_rel(folder: str) -> str:
    return f"{folder}/index.md" if folder else "index.md"


def entry_order(path: str, title: str, place: float | None = None) -> tuple:
    """Where an entry goes among its kind in an index: those given a ``place`` first,
    by it (a page's own ``order:`` in a site without a config: react-router's), then
    those whose names carry an order prefix by it, as their site lists them (svelte's
    ``01-basic-markup``, ``02-if``, ``18-class``), then the others by title, numbers in
    it as numbers ("Step 2" before "Step 10")."""
    number = order_prefix(posixpath.basename(path.rstrip("/")))
    return (place is None, place or 0, number is None, number or 0, natural_order(title))


def _order(
    entries: Iterable[NewEntry], places: Mapping[str, float] | None = None
) -> list[NewEntry]:
    """Bundles, then documents, each in :func:`entry_order`."""
    places = places or {}
    return sorted(
        entries,
        key=lambda e: (not e.is_bundle, *entry_order(e.path, e.title, places.get(e.path)), e.path),
    )


def entry_link(folder: str, entry: NewEntry, index: Index | None = None) -> str:
    """The link to ``entry`` from ``folder``'s index, in the style of its entries."""
    if index is not None and any(e.target.startswith("/") for e in index.entries):
        return "/" + entry.path + ("/" if entry.is_bundle else "")
    return relative_link(_index_rel(folder), entry.path, folder=entry.is_bundle)


def new_index(folder: str, title: str, entries: Iterable[NewEntry]) -> str:
    """The text of a new ``index.md`` for ``folder`` listing ``entries``."""
    return _render_index(folder, title, default_groups(entries))


def default_groups(
    entries: Iterable[NewEntry], places: Mapping[str, float] | None = None
) -> list[tuple[str | None, list[NewEntry]]]:
    """How a new index groups ``entries``: bundles first, then documents, in a section
    per type when they have more than one; each in :func:`entry_order` (``places``: the
    place a path's page gives it)."""
    entries = _order(entries, places)
    bundles = [e for e in entries if e.is_bundle]
    documents = [e for e in entries if not e.is_bundle]
    types = sorted({e.kind for e in documents}, key=lambda t: (t.casefold(), t))
    groups: list[tuple[str | None, list[NewEntry]]] = []
    if bundles:
        groups.append((section_heading(BUNDLE) if documents else None, bundles))
    if len(types) > 1:
        groups += [(section_heading(t), [e for e in documents if e.kind == t]) for t in types]
    elif documents:
        groups.append((section_heading(types[0]) if bundles else None, documents))
    return groups


def new_index_in_sections(
    folder: str, title: str, groups: Sequence[tuple[str | None, Sequence[NewEntry]]]
) -> str:
    """The text of a new ``index.md`` listing entries in the order and sections given
    (a source's own table of contents), not by type and title."""
    return _render_index(folder, title, [(h, list(items)) for h, items in groups if items])


def _render_index(
    folder: str, title: str, groups: Sequence[tuple[str | None, Sequence[NewEntry]]]
) -> str:
    lines = [] if folder else ['---\nokf_version: "0.2"\n---\n']
    lines.append(f"# {title.strip() or folder_title(posixpath.basename(folder))}\n")
    for heading, items in groups:
        lines.append("\n")
        if heading:
            lines.append(f"## {heading}\n\n")
        for entry in items:
            check_entry_text(entry.description, "description")
            description = " ".join(entry.description.split())
            lines.append(
                f"* [{escape_title(entry.title)}]({format_target(entry_link(folder, entry))})"
                f"{' - ' + description if description else ''}\n"
            )
    return "".join(lines)


def section_for(index: Index, folder: str, kinds: Mapping[str, str], kind: str) -> str | None:
    """The section of ``index`` (``folder``'s) a new entry of ``kind`` goes into.

    ``kinds``: root-relative path -> kind of the documents and bundles the package has,
    so the existing entries can be counted. ``None``: the file has no headings.
    """
    if not index.sections:
        return None
    by_section: dict[str | None, Counter[str]] = {}
    for entry in index.entries:
        found = kinds.get(resolve_entry_path(folder, entry))
        if found is not None:
            by_section.setdefault(entry.section, Counter())[found] += 1
    for section, counts in by_section.items():
        if counts.most_common(1)[0][0] == kind:
            return section
    names = {s.title.casefold(): s.title for s in index.sections}
    heading = section_heading(kind)
    for candidate in (heading,) if kind == BUNDLE else (kind, heading):
        if candidate.casefold() in names:
            return names[candidate.casefold()]
    if kind != BUNDLE:
        documents = {s: n for s, c in by_section.items() if (n := sum(c.values()) - c[BUNDLE]) > 0}
        if documents:
            return max(documents, key=lambda s: documents[s])
    return heading


def list_entries(
    text: str | None,
    folder: str,
    entries: Iterable[NewEntry],
    kinds: Mapping[str, str],
    *,
    title: str = "",
) -> str:
    """``folder``'s index text with ``entries`` listed: :func:`new_index` when ``text`` is
    ``None``, else one minimal :func:`add_entry` each (an entry already listed is skipped).
    """
    entries = _order(entries)
    if text is None:
        return new_index(folder, title, entries)
    known = dict(kinds)
    for entry in entries:
        index = parse_index(text)
        listed = {resolve_entry_path(folder, e) for e in index.entries}
        known[entry.path] = entry.kind
        if entry.path in listed:
            continue
        section = section_for(index, folder, known, entry.kind)
        link = entry_link(folder, entry, index)
        text = add_entry(text, entry.title, link, entry.description, section=section)
    return text


def resolve_entry_path(folder: str, entry: Entry) -> str:
    """The root-relative path ``entry`` of ``folder``'s index names (a bundle: its folder)."""
    path = resolve(_index_rel(folder), entry.target).path
    if path == "index.md" or path.endswith("/index.md"):
        path = posixpath.dirname(path)
    return path.rstrip("/")
