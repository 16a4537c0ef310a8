"""The app's side of editing: run edits safely, undo them, move index entries.

Every write goes through :meth:`EditController.run_edit`: the edit runs in the
:class:`~kas_tui.core.edit_session.EditSession` (grouped for undo, logged in ``log.md``); a
file changed on disk since it was read is never overwritten silently (the user sees the
diff of saving on top of the new text, or reloads); any refusal is a message naming the
file, never a traceback. It returns how the edit ended, an
:class:`~kas_tui.tui.edit_outcome.EditOutcome` (see :mod:`kas_tui.tui.edit_outcome`). The
lifecycle keys (D, S, V) are in :mod:`.lifecycle_actions`, $EDITOR in
:mod:`.external_editor`.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kas_tui.core.edit_session import EditSession
from kas_tui.core.editing import preview
from kas_tui.core.okf.errors import EditError
from kas_tui.core.settings import Settings
from kas_tui.core.store import ConflictError, Fingerprint, StoreError
from kas_tui.text.wording import counted
from kas_tui.tui.edit_outcome import EditDecided, EditOutcome
from kas_tui.tui.screens.choose import ChoiceScreen, DiffScreen
from kas_tui.tui.widgets.nav_tree import NavTree

if TYPE_CHECKING:
    from textual.message_pump import MessagePump
    from textual.timer import Timer

    from kas_tui.core.edit_session import Action, Edit
    from kas_tui.core.package import Package
    from kas_tui.core.records import Listing
    from kas_tui.tui.controllers.host import Host
    from kas_tui.tui.controllers.live_reload import Reloader

#: The keys that move an entry: a run of them on one entry is one burst, which any other
#: key, a click, another edit or quitting ends (see KasApp.on_event); its moves become one
#: undo action and one log.md entry, none when the entry is back where it was.
BURST_KEYS = frozenset({"K", "J"})
#: Seconds after the last move that end a burst all the same, when nothing else happens:
#: the log entry is not left waiting while the curator is away.
BURST_END = 60.0


@dataclass
class _Burst:
    """K/J presses on one entry, in a row: written at once, logged once."""

    key: tuple[str, str]  # the index and the entry's target
    title: str
    index: str
    moves: int = 0
    net: int = 0  # places moved, down positive
    timer: Timer | None = None


class EditController:
    """The edit session (undo, redo, the log.md entries), the user's settings, the
    burst of entry moves under way, and the decisions a conflict asks for."""

    def __init__(self, app: Host, reloader: Reloader) -> None:
        self.app = app
        self.reloader = reloader
        self.burst: _Burst | None = None
        self.settings = Settings.load()
        self.session = EditSession(app.package, log_edits=self.settings.log_edits, today=app.today)

    # -- running edits --------------------------------------------------------------

    def run_edit(
        self,
        label: str,
        edit: Edit,
        *,
        log: str | None = None,
        based_on: Mapping[str, Fingerprint] | None = None,
        logged: bool = True,
    ) -> EditOutcome:
        """Run ``edit`` now and say how it ended.

        ``based_on`` maps the files the user's edit was made on (root-relative) to their
        fingerprints when the editor read them: a file changed on disk since (live
        reload or not) is never overwritten. A conflict opens a decision (diff and save
        on top, reload, or keep editing) and returns ``CONFLICT_PENDING``; the screen
        active now hears how the decision ended as one
        :class:`~kas_tui.tui.edit_outcome.EditDecided`.
        """
        if logged:
            self.end_burst()  # another edit: the moves before it are one action of their own
        return self._run_edit(label, edit, log, based_on or {}, self.app.screen, logged)

    def _run_edit(
        self,
        label: str,
        edit: Edit,
        log: str | None,
        based_on: Mapping[str, Fingerprint],
        requester: MessagePump,
        logged: bool = True,
    ) -> EditOutcome:
        app = self.app
        self.session.package = app.package
        try:
            action = self.session.run(label, edit, log=log, based_on=based_on, logged=logged)
        except ConflictError as exc:
            self._conflict(exc, label, edit, log, based_on, requester)
            return EditOutcome.CONFLICT_PENDING
        except (EditError, StoreError, OSError) as exc:
            app.notify(str(exc), title="Not saved", severity="error", timeout=8)
            return EditOutcome.REFUSED
        self.reloader.after_write()
        if action is None:
            app.notify("Nothing to change", timeout=2)
            return EditOutcome.NOTHING
        app.notify(f"Saved: {label}", timeout=3)
        if action.log_error:
            app.notify(action.log_error, severity="warning", timeout=6)
        return EditOutcome.SAVED

    def _conflict(
        self,
        exc: ConflictError,
        label: str,
        edit: Edit,
        log: str | None,
        based_on: Mapping[str, Fingerprint],
        requester: MessagePump,
    ) -> None:
        app = self.app
        rel = self._rel(exc.path)

        def tell(outcome: EditOutcome) -> None:
            if outcome is not EditOutcome.CONFLICT_PENDING:  # else the next decision tells
                requester.post_message(EditDecided(outcome))

        def decided(choice: str | None) -> None:
            package = app.package
            if choice == "diff":
                package.reload_file(rel)  # read what is there now
                try:
                    diff = preview(package, edit)
                except (EditError, StoreError, OSError) as err:
                    app.notify(str(err), title="Not saved", severity="error")
                    tell(EditOutcome.KEPT)
                    return
                # saving on top means: on top of the text this diff was made against
                seen = {**based_on, rel: package.fingerprint(rel)}
                rebased = {k: v for k, v in seen.items() if v is not None}

                def confirmed(save: bool | None) -> None:
                    if save:
                        tell(self._run_edit(label, edit, log, rebased, requester))
                    else:
                        tell(EditOutcome.KEPT)

                app.push_screen(
                    DiffScreen(f"Save on top of the new {rel}?", diff, confirm="Save"), confirmed
                )
            elif choice == "reload":
                package.reload_file(rel)
                self.reloader.after_write()
                app.notify(f"Reloaded {rel}; your change was not saved", timeout=5)
                tell(EditOutcome.DROPPED)  # an editor closes, the file on disk is shown
            else:
                tell(EditOutcome.KEPT)

        app.push_screen(
            ChoiceScreen(
                "Changed on disk",
                f"{rel} changed on disk since kas-tui read it (another editor, a git pull).\n"
                "Nothing was written.",
                [
                    ("diff", "Diff of saving on top: read it, then save or not"),
                    ("reload", "Reload it, drop my change"),
                    ("keep", "Keep editing"),
                ],
            ),
            decided,
        )

    def _rel(self, path: str) -> str:
        try:
            return os.path.relpath(os.path.realpath(path), os.path.realpath(self.app.package.root))
        except ValueError:
            return path

    def shown_base(self, path: str) -> dict[str, Fingerprint]:
        """The file ``path`` as the app shows it now: what a key's edit is based on."""
        found = self.app.package.fingerprint(path)
        return {path: found} if found is not None else {}

    # -- undo -----------------------------------------------------------------------

    def undo(self) -> Action | None:
        """Undo the last action; the action undone (``None``: nothing, or refused)."""
        return self._undo_redo(self.session.undo, "Undid", "Nothing to undo")

    def redo(self) -> Action | None:
        """Redo the last undone action; the action redone (``None``: nothing, or refused)."""
        return self._undo_redo(self.session.redo, "Redid", "Nothing to redo")

    def _undo_redo(
        self, step: Callable[[], Action | None], done: str, nothing: str
    ) -> Action | None:
        app = self.app
        self.end_burst()  # undo takes back the whole burst of moves
        self.session.package = app.package
        try:
            action = step()
        except (StoreError, EditError, OSError) as exc:
            app.notify(str(exc), title="Refused", severity="error", timeout=8)
            return None
        if action is None:
            app.notify(nothing, timeout=2)
            return None
        self.reloader.after_write()
        app.notify(f"{done}: {action.label}", timeout=3)
        return action

    def toggle_log(self) -> None:
        """``L``: a log.md entry on each save, or none."""
        self.settings.log_edits = self.session.log_edits = not self.session.log_edits
        self.save_settings()
        state = "on" if self.session.log_edits else "off"
        self.app.notify(f"log.md entry on each save: {state}")

    def save_settings(self) -> None:
        try:
            self.settings.save()
        except OSError as exc:
            self.app.notify(f"Settings not saved: {exc}", severity="warning")

    # -- index entries (the tree's cursor) ------------------------------------------

    def _entry_at_cursor(self) -> Listing | None:
        """The listing under the navigation tree's cursor, or ``None`` (with a message)."""
        node = self.app.query_one(NavTree).cursor_node
        listing = node.data.listing if node is not None and node.data is not None else None
        if listing is None:
            self.app.notify("Put the tree's cursor on an index entry first", severity="warning")
        return listing

    def move_entry(self, offset: int) -> None:
        """``K`` (``offset`` -1) and ``J`` (1): the entry at the cursor up or down its
        section; the moves in a row are one action with one log.md entry."""
        listing = self._entry_at_cursor()
        if listing is None:
            return
        from kas_tui.core.editing import move_entry

        app = self.app
        index = app.package.indexes.get(posixpath.dirname(listing.index))
        peers = (
            [e for e in index.index.entries if e.section == listing.entry.section] if index else []
        )
        ends = [e.line for e in peers[:1]] if offset < 0 else [e.line for e in peers[-1:]]
        if listing.entry.line in ends:
            where = f"section {listing.entry.section!r}" if listing.entry.section else "index"
            edge = "first" if offset < 0 else "last"
            app.notify(
                f"{listing.entry.title!r} is the {edge} entry of its {where}: entries move "
                "within their section (the section of a new entry follows its type)",
                timeout=5,
            )
            return
        burst = self.burst
        key = (listing.index, listing.path)
        if burst is not None and burst.key != key:
            self.end_burst()
            burst = None
        where = "up" if offset < 0 else "down"
        outcome = self.run_edit(
            f"move {listing.entry.title!r} {where} in {listing.index}",
            lambda pkg: move_entry(pkg, listing.index, listing.entry.line, offset),
            logged=False,
        )
        if outcome is EditOutcome.SAVED:
            if burst is None:
                burst = self.burst = _Burst(key, listing.entry.title, listing.index)
            burst.moves += 1
            burst.net += offset
            if burst.timer is not None:
                burst.timer.stop()
            burst.timer = app.set_timer(BURST_END, self.end_burst)
        app.query_one(NavTree).select_path(listing.path)

    def end_burst(self) -> None:
        """Make the moves of one entry one action with one log entry (none if it is back)."""
        burst, self.burst = self.burst, None
        if burst is None:
            return
        if burst.timer is not None:
            burst.timer.stop()
        places = counted(abs(burst.net), "place")
        where = "up" if burst.net < 0 else "down"
        label = f"move {burst.title!r} {where} {places} in {burst.index}"
        action = self.session.squash(
            burst.moves,
            label,
            log=f"Moved the entry {burst.title!r} {where} {places} in {burst.index}.",
        )
        if action is None and burst.net == 0:
            self.app.notify(f"{burst.title!r} is back where it was: nothing changed", timeout=3)
        if action is not None and action.log_error:
            self.app.notify(action.log_error, severity="warning", timeout=6)
        self.reloader.after_write()

    def remove_entry(self) -> None:
        """``del``: take the entry at the cursor out of its index.md (asked first)."""
        listing = self._entry_at_cursor()
        if listing is None:
            return
        from kas_tui.core.editing import remove_entry

        def decided(choice: str | None) -> None:
            if choice == "remove":
                self.run_edit(
                    f"unlist {listing.entry.title!r} from {listing.index}",
                    lambda pkg: remove_entry(pkg, listing.index, listing.entry.line),
                    log=f"Removed the entry {listing.entry.title!r} from {listing.index}.",
                )

        self.app.push_screen(
            ChoiceScreen(
                "Remove the entry?",
                f"{listing.index}, line {listing.entry.line}: {listing.entry.title}\n"
                "The entry goes; the file it points at stays (ctrl+z brings the entry back).",
                [("remove", "Remove the entry"), ("keep", "Keep it")],
            ),
            decided,
        )

    def add_missing_entries(self) -> None:
        """``A``: list the unlisted documents and sub-bundles of the bundle at the tree's
        cursor."""
        from kas_tui.core.editing import list_entries
        from kas_tui.features.check.fixes import missing_entries, unlistable

        node = self.app.query_one(NavTree).cursor_node
        ref = node.data if node is not None else None
        folder = ""
        if ref is not None and ref.kind == "bundle":
            folder = ref.path
        elif ref is not None and ref.kind != "root":
            folder = os.path.dirname(ref.path)
        index_rel = f"{folder}/index.md" if folder else "index.md"

        def fix(pkg: Package) -> None:
            # what check --fix lists in this folder, the same way (a missing index.md too)
            missing = missing_entries(pkg, folder)
            if missing:
                list_entries(pkg, folder, missing)

        self.run_edit(f"add the missing entries of {index_rel}", fix)
        left = unlistable(self.app.package, folder)
        if left:
            names = ", ".join(os.path.basename(path) for path in left[:3])
            more = f" and {len(left) - 3} more" if len(left) > 3 else ""
            self.app.notify(
                f"Not listed: {names}{more}: no description to list with; fix the frontmatter",
                severity="warning",
                timeout=8,
            )
