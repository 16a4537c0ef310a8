"""The root index is a table of contents two levels deep, when it has room.

Every walk starts at the root ``index.md``, and there an agent must guess which bundle
holds its answer from one sentence per bundle. On a docs site whose main chapters sit in
one bundle beside reference bundles named by class and type names ("Events: Click, Key,
Focus, Mount..."), it guessed the reference bundle for most questions a chapter answers;
on a help centre whose every product area sits in one "Business functionality" bundle,
the root named the areas only as a list of words in that bundle's sentence.

So when the source's own table of contents orders the root, the root also lists, under
a heading per bundle in the TOC's order, what that bundle holds: its sub-bundles (their
sentences as the bundle's own index words them, cut to a document's length only when
the whole would not fit), or, for a bundle of pages only, its pages; each
bundle whole, up to the first that would take the root index over ``ROOT_SHARE`` of an
index's token budget and lists at most ``MAX_BUNDLE_ENTRIES`` entries (KAS047; a
bundle holding one sub-bundle adds nothing). A sidebar two levels deep is what the site
itself shows. Without a TOC the root's order is alphabetical, which says nothing of
what matters most, and it lists nothing more (on officedocs-support, listing the first bundles alphabetically
pulled walks into them: reach fell from 44.6% to 39.1%). A document may be listed by
several indexes (RULES, section 4); each copy is its own index's entry.

Measured with the lexical navigator on the 94 questions people wrote for Textual's docs:
the first bundle opened held the answer for 28 of 94 questions, and reach was 82% when
it did, 45% when it did not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kas_tui.core.okf.index_layout import NewEntry
from kas_tui.text.description_verdicts import LONG_DESCRIPTION as MAX_DESCRIPTION
from kas_tui.text.folder_summary import join_words
from kas_tui.text.prose import clip
from kas_tui.text.tokens import MAX_BUNDLE_ENTRIES, estimate_tokens

#: A bundle whose section the root adds names what it lists below when it lists this
#: many or fewer ("Using Redux: 29 documents, listed below: Migrations and Structuring
#: Reducers."); with more, a count, as naming them again drew walks to its index.
FEW_NAMED = 3
#: Share of an index's token budget the root index may take with what it adds (0.5 and
#: 1.0 were measured too: see docs/importing-and-building.md, "The TOC is the tree").
ROOT_SHARE = 0.75

Group = tuple[str | None, list[NewEntry]]


def with_first_pages(
    groups: Sequence[Group],
    entries_of: Callable[[str], Sequence[NewEntry]],
    titles: Callable[[str], str],
    render: Callable[[Sequence[Group]], str],
    budget: int,
    counted: Callable[[str], str] = lambda _bundle: "",
) -> list[Group]:
    """``groups`` (the root index's own sections) followed by a section per bundle the
    root lists, in its order, holding that bundle's sub-bundles (else its pages), for
    bundle whose section keeps the rendered root (``render``) within ``ROOT_SHARE`` of
    ``budget`` tokens and ``MAX_BUNDLE_ENTRIES`` entries, up to the first that does not
    fit. ``entries_of(folder)``
    gives a bundle's entries as its own index lists them; ``titles(folder)`` its title;
    ``counted(folder)`` what it holds in a few words ("1,821 documents").

    A bundle whose section is added says so in its own entry ("1,821 documents; its
    sections are listed below"), rather than naming them a second time: the words its
    sentence shared with the section's entries drew walks to its index, which lists
    those same entries again, a turn spent for nothing."""
    added, absorbed = _added(groups, entries_of, titles, render, budget)
    below = {bundle: (kind, own) for bundle, kind, _section, own in added}

    def said(entry: NewEntry) -> str:
        kind, listed = below[entry.path]
        lead = f"{titles(entry.path)}: {counted(entry.path)}".rstrip(": ")
        if len(listed) <= FEW_NAMED:  # named: two such sentences must not read alike (KAS041)
            return f"{lead}, listed below: {join_words([e.title for e in listed])}."
        if kind == "pages":
            return f"{lead}, listed below."
        return f"{lead}; its {len(listed)} sections are listed below."

    kept = [group for number, group in enumerate(groups) if number not in absorbed]
    return [
        (
            heading,
            [NewEntry(e.path, e.title, said(e), e.kind) if e.path in below else e for e in items],
        )
        for heading, items in [*kept, *(section for _bundle, _kind, section, _own in added)]
    ]


def _added(
    groups: Sequence[Group],
    entries_of: Callable[[str], Sequence[NewEntry]],
    titles: Callable[[str], str],
    render: Callable[[Sequence[Group]], str],
    budget: int,
) -> tuple[list[tuple[str, str, Group, list[NewEntry]]], set[int]]:
    """(bundle, what is listed: "sections" or "pages", its section, the bundle's own
    entries in it) for each bundle :func:`with_first_pages` adds a section for, and the
    numbers of the ``groups`` those sections took in.

    A bundle named as one of the root's own sections (uv's "Concepts" section holds
    ``pip/``, a folder beside ``concepts/``) takes that section's entries in after its
    own, where the bundle's section goes: one "Concepts" section, not "Concepts" and
    "Concepts pages" far apart."""
    added: list[tuple[str, str, Group, list[NewEntry]]] = []
    absorbed: set[int] = set()
    out = [(heading, list(items)) for heading, items in groups]
    limit = int(budget * ROOT_SHARE)
    if estimate_tokens(render(out)) >= limit:
        return added, absorbed
    headings = {h.casefold() for h, _items in out if h}
    used = {e.title.casefold() for _h, items in out for e in items}
    for bundle in [e.path for _h, items in groups for e in items if e.is_bundle]:
        pages = list(entries_of(bundle))
        title = titles(bundle)
        whole = [_told_apart(e, used, title) for e in pages]
        subs = [e for e in whole if e.is_bundle]
        if len(subs) == 1 or len(pages) <= 1:
            continue  # one sub-bundle or one page is the bundle again, in other words
        count = sum(len(items) for _h, items in out) + len(subs or whole)
        if count > MAX_BUNDLE_ENTRIES:
            break
        shared = next(
            (
                n
                for n, (h, items) in enumerate(groups)
                if n not in absorbed
                and h
                and h.casefold() == title.casefold()
                and all(e.path != bundle for e in items)  # its own entry stays where it is
            ),
            None,
        )
        taken = shared is None and title.casefold() in headings
        heading = f"{title} pages" if taken else title
        around = [] if shared is None else list(groups[shared][1])
        # the root's sections have headings of their own: that one leaves its place
        rest = out if shared is None else [g for g in out if g[0] != groups[shared][0]]
        # its sub-bundles as their parent's index words them, else cut to a page's
        # length; a bundle of pages only lists its pages
        options = [subs, [_short(e) for e in subs]] if subs else [whole]
        listed = next(
            (o for o in options if _fits(render, [*rest, (heading, [*o, *around])], limit)),
            None,
        )
        if listed is None:
            break  # the TOC's first bundles only: a later one never comes before it
        section = (heading, [*listed, *around])
        out = [*rest, section]
        added.append((bundle, "sections" if subs else "pages", section, listed))
        if shared is not None:
            absorbed.add(shared)
        headings.add(heading.casefold())
        used |= {e.title.casefold() for e in listed}
    return added, absorbed


def _fits(render: Callable[[Sequence[Group]], str], groups: list[Group], limit: int) -> bool:
    return estimate_tokens(render(groups)) <= limit


def _short(entry: NewEntry) -> NewEntry:
    """A bundle's entry as the root lists it when the whole sentences would take the
    root over its share: cut to a document's length (its own index keeps the whole)."""
    short = clip(entry.description, MAX_DESCRIPTION)
    return NewEntry(entry.path, entry.title, short, entry.kind)


def _told_apart(entry: NewEntry, used: set[str], bundle_title: str) -> NewEntry:
    """``entry`` titled so that no two entries of the root read alike: a page titled as
    an entry already listed says which bundle it is in ("Widgets (Guide)"), or that it is
    the page that opens the bundle named alike ("Runbooks (main page)": "(page)" told
    nothing)."""
    if entry.title.casefold() not in used:
        return entry
    told = bundle_title if bundle_title.casefold() != entry.title.casefold() else "main page"
    return NewEntry(entry.path, f"{entry.title} ({told})", entry.description, entry.kind)
