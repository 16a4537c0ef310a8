"""The lifecycle keys on the document shown: ``D`` deprecates it (offering to say so in
the index entries that list it, as KAS044 asks), ``S`` extends its freshness
(``stale_after``), ``V`` appends the user's verification. Each is one undoable edit run
through :meth:`~kas_tui.tui.controllers.edits.EditController.run_edit`, based on the
file as shown. The review screen runs the same three on its rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kas_tui.core.editing import set_entry, set_field
from kas_tui.core.okf.lifecycle import (
    DEPRECATED_NOTE,
    FRESHNESS_DAYS,
    entry_says_lifecycle,
    extend_stale_after,
    now_timestamp,
    opening_note,
)
from kas_tui.core.settings import valid_reviewer
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.choose import ChoiceScreen

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.core.store import Fingerprint
    from kas_tui.tui.controllers.edits import EditController
    from kas_tui.tui.controllers.host import Host
    from kas_tui.tui.controllers.navigation import Navigation

#: The word that starts the button of a freshness offer: its key is the word's first
#: letter (m, q, y); another number of days is keyed by its first digit.
_SPANS = {30: "Month: ", 90: "Quarter: ", 365: "Year: "}


class LifecycleActions:
    """Deprecate, extend freshness, mark verified: a document's lifecycle, by key."""

    def __init__(self, app: Host, nav: Navigation, edits: EditController) -> None:
        self.app = app
        self.nav = nav
        self.edits = edits

    # -- the keys, on the document shown --------------------------------------------

    def mark_deprecated_shown(self) -> None:
        path = self.nav.document_shown()
        if path is not None:
            self.deprecate(path)

    def extend_freshness_shown(self) -> None:
        path = self.nav.document_shown()
        if path is not None:
            self.extend_freshness(path)

    def mark_verified_shown(self) -> None:
        path = self.nav.document_shown()
        if path is not None:
            self.mark_verified(path)

    # -- on any document ------------------------------------------------------------

    def deprecate(self, path: str) -> None:
        """``status: deprecated`` for the document ``path`` (``D``); when index entries
        list it without saying so (what KAS044 then asks for), offer to put the note in
        them too, as one undoable action."""
        base = self.edits.shown_base(path)
        unnoted = [
            listing
            for folder, index in self.app.package.indexes.items()
            for listing in index.listings
            if listing.path == path
            and listing.kind == "document"
            and not entry_says_lifecycle(listing.entry.title, listing.entry.description)
        ]
        for listing in unnoted:
            base.update(self.edits.shown_base(listing.index))

        def write(note: bool) -> None:
            def edit(pkg: Package) -> None:
                set_field(pkg, path, "status", "deprecated")
                for listing in unnoted if note else ():
                    description = DEPRECATED_NOTE + listing.entry.description
                    set_entry(pkg, listing.index, listing.entry.line, description=description)

            where = ", ".join(listing.index for listing in unnoted)
            self.edits.run_edit(
                f"deprecate {path}",
                edit,
                log=f"Marked {path} deprecated" + (f" and said so in {where}." if note else "."),
                based_on=base,
            )

        if not unnoted:
            write(False)
            return

        def chosen(answer: str | None) -> None:
            if answer is not None:
                write(answer == "note")

        entries = "\n".join(f"  {e.index}:{e.entry.line}  {e.entry.title}" for e in unnoted)
        self.app.push_screen(
            ChoiceScreen(
                "Deprecate",
                f"{path} gets status: deprecated. Its index entries do not say so:\n{entries}",
                [
                    ("note", f"Also start them with '{DEPRECATED_NOTE.strip()}'"),
                    ("status", "Only the status"),
                ],
            ),
            chosen,
        )

    def extend_freshness(self, path: str) -> None:
        """Offer +30, +90 or +365 days of freshness for the document ``path`` (``S``)."""
        base = self.edits.shown_base(path)  # the value the choice below is made against
        current = self.app.package.documents[path].meta.get("stale_after")

        noted = [  # entries that call it stale: false once it is fresh again (KAS044)
            (listing, said[1])
            for index in self.app.package.indexes.values()
            for listing in index.listings
            if listing.path == path
            and listing.kind == "document"
            and (said := opening_note(listing.entry.description)) is not None
            and said[0] == "stale"
        ]
        for listing, _ in noted:
            base.update(self.edits.shown_base(listing.index))

        def write(until: str, drop: bool) -> None:
            def edit(pkg: Package) -> None:
                set_field(pkg, path, "stale_after", until)
                for listing, rest in noted if drop else ():
                    set_entry(pkg, listing.index, listing.entry.line, description=rest)

            where = ", ".join(listing.index for listing, _ in noted)
            self.edits.run_edit(
                f"stale_after {until} for {path}",
                edit,
                log=f"Set stale_after of {path} to {until}"
                + (f" and dropped the stale note in {where}." if drop else "."),
                based_on=base,
            )

        def chosen(days: str | None) -> None:
            if not days:
                return
            until = extend_stale_after(current, int(days), self.app.today)
            if not noted:
                write(until, False)
                return
            entries = "\n".join(f"  {e.index}:{e.entry.line}  {e.entry.title}" for e, _ in noted)
            self.app.push_screen(
                ChoiceScreen(
                    "Extend freshness",
                    f"{path} is fresh until {until}. Its index entries still call it stale:\n"
                    f"{entries}",
                    [
                        ("drop", "Also drop the stale note from them"),
                        ("keep", "Only the date"),
                    ],
                ),
                lambda answer: write(until, answer == "drop") if answer else None,
            )

        offered = list(FRESHNESS_DAYS)
        doc_type = str(self.app.package.documents[path].meta.get("type") or "")
        rules = self.app.package.usable_house_rules()
        own = rules.freshness_days(doc_type) if rules is not None else None
        if own:  # the package's cadence for this type first (.kas-tui.yaml)
            offered = [own, *(d for d in offered if d != own)]
        choices = [
            (
                str(days),
                f"{_SPANS.get(days, '')}+{days} days, until "
                f"{extend_stale_after(current, days, self.app.today)}"
                + (f" (every {doc_type}, by this package's rules)" if days == own else ""),
            )
            for days in offered
        ]
        self.app.push_screen(
            ChoiceScreen(
                "Extend freshness",
                f"{path}\nstale_after is {current or 'not set'}; keep it fresh for:\n"
                "(added to the later of today and the current stale_after)",
                choices,
            ),
            chosen,
        )

    def mark_verified(self, path: str) -> None:
        """Append your verification to the document ``path`` (``V``; your reviewer id is
        asked the first time)."""
        settings = self.edits.settings
        if settings.reviewer:
            self._verify(path)
            return
        base = self.edits.shown_base(path)

        def answered(reviewer: str | None) -> None:
            if reviewer:
                settings.reviewer = reviewer.strip()
                self.edits.save_settings()
                self._verify(path, base)

        self.app.push_screen(
            AskScreen(
                "Who is verifying?",
                "Your reviewer id, written as human:<id> in verified (asked once, remembered).",
                check=lambda text: valid_reviewer(text.strip()),
                placeholder="maria.chen",
            ),
            answered,
        )

    def _verify(self, path: str, base: dict[str, Fingerprint] | None = None) -> None:
        reviewer = self.edits.settings.reviewer
        entry = {"by": f"human:{reviewer}", "at": now_timestamp()}
        current = self.app.package.documents[path].meta.get("verified")
        if isinstance(current, list):
            value = [*current, entry]
        elif isinstance(current, dict):
            value = [current, entry]
        else:
            value = [entry]
        self.edits.run_edit(
            f"verify {path}",
            lambda pkg: set_field(pkg, path, "verified", value),
            log=f"Verified {path} (human:{reviewer}).",
            based_on=base if base is not None else self.edits.shown_base(path),
        )
