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
    extend_stale_after,
    now_timestamp,
)
from kas_tui.core.settings import valid_reviewer
from kas_tui.features.review.entry_notes import NoteFix, note_fixes
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

    def _note_fixes(self, path: str, **change: str) -> list[NoteFix]:
        """The entries listing ``path`` that disagree with it once its frontmatter has
        ``change``: one rule with ``check --agent-ready`` (KAS044)."""
        meta = {**self.app.package.documents[path].meta, **change}
        return note_fixes(self.app.package, path, meta, self.app.today)

    def deprecate(self, path: str) -> None:
        """``status: deprecated`` for the document ``path`` (``D``); when index entries
        list it without saying so (what KAS044 then asks for), offer to put the note in
        them too, as one undoable action."""
        base = self.edits.shown_base(path)
        unnoted = self._note_fixes(path, status="deprecated")
        for fix in unnoted:
            base.update(self.edits.shown_base(fix.index))

        def write(note: bool) -> None:
            def edit(pkg: Package) -> None:
                set_field(pkg, path, "status", "deprecated")
                for fix in unnoted if note else ():
                    set_entry(pkg, fix.index, fix.line, description=fix.description)

            where = ", ".join(fix.index for fix in unnoted)
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

        entries = "\n".join(f"  {fix.index}:{fix.line}  {fix.title}" for fix in unnoted)
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
        """Offer +30, +90 or +365 days of freshness for the document ``path`` (``S``);
        when index entries then open with a note that is no longer true ("(Stale: ...)"),
        offer to drop it too, as one undoable action."""
        base = self.edits.shown_base(path)  # the value the choice below is made against
        current = self.app.package.documents[path].meta.get("stale_after")
        offered = list(FRESHNESS_DAYS)
        doc_type = str(self.app.package.documents[path].meta.get("type") or "")
        rules = self.app.package.usable_house_rules()
        own = rules.freshness_days(doc_type) if rules is not None else None
        if own:  # the package's cadence for this type first (.kas-tui.yaml)
            offered = [own, *(d for d in offered if d != own)]

        # any choice makes it fresh, so the same entries disagree whichever is taken
        fresh = extend_stale_after(current, min(offered), self.app.today)
        noted = self._note_fixes(path, stale_after=fresh)
        for fix in noted:
            base.update(self.edits.shown_base(fix.index))

        def write(until: str, drop: bool) -> None:
            def edit(pkg: Package) -> None:
                set_field(pkg, path, "stale_after", until)
                for fix in noted if drop else ():
                    set_entry(pkg, fix.index, fix.line, description=fix.description)

            where = ", ".join(fix.index for fix in noted)
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
            entries = "\n".join(f"  {fix.index}:{fix.line}  {fix.title}" for fix in noted)
            said = " or ".join(sorted({fix.said for fix in noted}))
            self.app.push_screen(
                ChoiceScreen(
                    "Extend freshness",
                    f"{path} is fresh until {until}. Its index entries still call it {said}:\n"
                    f"{entries}",
                    [
                        ("drop", f"Also drop the {said} note from them"),
                        ("keep", "Only the date"),
                    ],
                ),
                lambda answer: write(until, answer == "drop") if answer else None,
            )

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
