"""The app's side of editing: run edits safely, undo them, move index entries.

Every write goes through :meth:`EditingMixin.run_edit`: the edit runs in the
:class:`~kas_tui.core.edit_session.EditSession` (grouped for undo, logged in ``log.md``); a file
changed on disk since it was read is never overwritten silently (the user sees the diff
of saving on top of the new text, or reloads); any refusal is a message naming the file,
never a traceback. The lifecycle keys (D, S, V) are in :mod:`.lifecycle`. It returns how
the edit ended, an :class:`~kas_tui.tui.edit_outcome.EditOutcome` (see
:mod:`kas_tui.tui.edit_outcome`).
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import shlex
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.app import SuspendNotSupported
from textual.timer import Timer

from kas_tui.core.edit_session import EditSession
from kas_tui.core.editing import preview
from kas_tui.core.okf.errors import EditError
from kas_tui.core.settings import Settings
from kas_tui.core.store import ConflictError, Fingerprint, StoreError, os_reason
from kas_tui.text.wording import counted
from kas_tui.tui.edit_outcome import EditDecided, EditOutcome, PackageWritten
from kas_tui.tui.screens.choose import ChoiceScreen, DiffScreen

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

    from kas_tui.core.edit_session import Edit
    from kas_tui.core.package import Package

#: Seconds after the last K/J move of an entry that end its burst: the moves become one
#: undo action and one log.md entry.
BURST_END = 1.5


@dataclass
class _Burst:
    """K/J presses on one entry, in a row: written at once, logged once."""

    key: tuple[str, str]  # the index and the entry's target
    title: str
    index: str
    moves: int = 0
    net: int = 0  # places moved, down positive
    timer: Timer | None = None


class EditingMixin:
    """Editing for :class:`~kas_tui.tui.app.KasApp` (which provides package, today, views)."""

    package: Package
    today: dt.date
    location: str | None

    def _init_editing(self) -> None:
        self._burst: _Burst | None = None
        self.settings = Settings.load()
        self.session = EditSession(
            self.package, log_edits=self.settings.log_edits, today=self.today
        )

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
        active now hears how the decision ended as one :class:`EditDecided`.
        """
        app: Any = self
        if logged:
            self._end_burst()  # another edit: the moves before it are one action of their own
        return self._run_edit(label, edit, log, based_on or {}, app.screen, logged)

    def _run_edit(
        self,
        label: str,
        edit: Edit,
        log: str | None,
        based_on: Mapping[str, Fingerprint],
        requester: MessagePump,
        logged: bool = True,
    ) -> EditOutcome:
        app: Any = self
        self.session.package = self.package
        try:
            action = self.session.run(label, edit, log=log, based_on=based_on, logged=logged)
        except ConflictError as exc:
            self._conflict(exc, label, edit, log, based_on, requester)
            return EditOutcome.CONFLICT_PENDING
        except (EditError, StoreError, OSError) as exc:
            app.notify(str(exc), title="Not saved", severity="error", timeout=8)
            return EditOutcome.REFUSED
        self._after_write()
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
        app: Any = self
        rel = self._rel(exc.path)

        def tell(outcome: EditOutcome) -> None:
            if outcome is not EditOutcome.CONFLICT_PENDING:  # else the next decision tells
                requester.post_message(EditDecided(outcome))

        def decided(choice: str | None) -> None:
            if choice == "diff":
                self.package.reload_file(rel)  # read what is there now
                try:
                    diff = preview(self.package, edit)
                except (EditError, StoreError, OSError) as err:
                    app.notify(str(err), title="Not saved", severity="error")
                    tell(EditOutcome.KEPT)
                    return
                # saving on top means: on top of the text this diff was made against
                seen = {**based_on, rel: self.package.fingerprint(rel)}
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
                self.package.reload_file(rel)
                self._after_write()
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
                    ("diff", "See the diff of saving on top"),
                    ("reload", "Reload it, drop my change"),
                    ("keep", "Keep editing"),
                ],
            ),
            decided,
        )

    def _rel(self, path: str) -> str:
        try:
            return os.path.relpath(os.path.realpath(path), os.path.realpath(self.package.root))
        except ValueError:
            return path

    def _after_write(self) -> None:
        """Bring every view up to date with the package after a write."""
        app: Any = self
        watcher = getattr(app, "_watcher", None)
        if watcher is not None:
            watcher.settle()  # our own writes are not news from another program
        app._refresh_views()
        for screen in app.screen_stack[1:]:
            screen.post_message(PackageWritten())

    # -- undo -----------------------------------------------------------------------

    def action_undo(self) -> None:
        self._undo_redo(self.session.undo, "Undid", "Nothing to undo")

    def action_redo(self) -> None:
        self._undo_redo(self.session.redo, "Redid", "Nothing to redo")

    def _undo_redo(self, step: Callable, done: str, nothing: str) -> None:
        app: Any = self
        self._end_burst()  # undo takes back the whole burst of moves
        self.session.package = self.package
        try:
            action = step()
        except (StoreError, EditError, OSError) as exc:
            app.notify(str(exc), title="Refused", severity="error", timeout=8)
            return
        if action is None:
            app.notify(nothing, timeout=2)
            return
        self._after_write()
        app.notify(f"{done}: {action.label}", timeout=3)

    def action_toggle_log(self) -> None:
        app: Any = self
        self.settings.log_edits = self.session.log_edits = not self.session.log_edits
        self._save_settings()
        state = "on" if self.session.log_edits else "off"
        app.notify(f"log.md entry on each save: {state}")

    def _save_settings(self) -> None:
        app: Any = self
        try:
            self.settings.save()
        except OSError as exc:
            app.notify(f"Settings not saved: {exc}", severity="warning")

    # -- index entries (the tree's cursor) ------------------------------------------

    def _entry_at_cursor(self) -> Any:
        """The listing under the navigation tree's cursor, or ``None`` (with a message)."""
        app: Any = self
        from kas_tui.tui.widgets.nav_tree import NavTree

        node = app.query_one(NavTree).cursor_node
        listing = node.data.listing if node is not None and node.data is not None else None
        if listing is None:
            app.notify("Put the tree's cursor on an index entry first", severity="warning")
        return listing

    def _move_entry(self, offset: int) -> None:
        listing = self._entry_at_cursor()
        if listing is None:
            return
        app: Any = self
        from kas_tui.core.editing import move_entry

        index = self.package.indexes.get(posixpath.dirname(listing.index))
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
        burst = self._burst
        key = (listing.index, listing.path)
        if burst is not None and burst.key != key:
            self._end_burst()
            burst = None
        where = "up" if offset < 0 else "down"
        outcome = self.run_edit(
            f"move {listing.entry.title!r} {where} in {listing.index}",
            lambda pkg: move_entry(pkg, listing.index, listing.entry.line, offset),
            logged=False,
        )
        if outcome is EditOutcome.SAVED:
            if burst is None:
                burst = self._burst = _Burst(key, listing.entry.title, listing.index)
            burst.moves += 1
            burst.net += offset
            if burst.timer is not None:
                burst.timer.stop()
            burst.timer = app.set_timer(BURST_END, self._end_burst)
        self._reveal_after_edit(listing.path)

    def _end_burst(self) -> None:
        """Make the moves of one entry one action with one log entry (none if it is back)."""
        burst, self._burst = self._burst, None
        if burst is None:
            return
        if burst.timer is not None:
            burst.timer.stop()
        app: Any = self
        places = counted(abs(burst.net), "place")
        where = "up" if burst.net < 0 else "down"
        label = f"move {burst.title!r} {where} {places} in {burst.index}"
        action = self.session.squash(
            burst.moves,
            label,
            log=f"Moved the entry {burst.title!r} {where} {places} in {burst.index}.",
        )
        if action is None and burst.net == 0:
            app.notify(f"{burst.title!r} is back where it was: nothing changed", timeout=3)
        if action is not None and action.log_error:
            app.notify(action.log_error, severity="warning", timeout=6)
        self._after_write()

    def action_move_entry_up(self) -> None:
        self._move_entry(-1)

    def action_move_entry_down(self) -> None:
        self._move_entry(1)

    def action_remove_entry(self) -> None:
        listing = self._entry_at_cursor()
        if listing is None:
            return
        app: Any = self
        from kas_tui.core.editing import remove_entry

        def decided(choice: str | None) -> None:
            if choice == "remove":
                self.run_edit(
                    f"unlist {listing.entry.title!r} from {listing.index}",
                    lambda pkg: remove_entry(pkg, listing.index, listing.entry.line),
                    log=f"Removed the entry {listing.entry.title!r} from {listing.index}.",
                )

        app.push_screen(
            ChoiceScreen(
                "Remove the entry?",
                f"{listing.index}, line {listing.entry.line}: {listing.entry.title}\n"
                "The entry goes; the file it points at stays (ctrl+z brings the entry back).",
                [("remove", "Remove the entry"), ("keep", "Keep it")],
            ),
            decided,
        )

    def action_add_missing_entries(self) -> None:
        """List the unlisted documents and sub-bundles of the bundle at the tree's cursor."""
        app: Any = self
        from kas_tui.core.editing import list_entries
        from kas_tui.features.check.fixes import missing_entries
        from kas_tui.tui.widgets.nav_tree import NavTree

        node = app.query_one(NavTree).cursor_node
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

    def _reveal_after_edit(self, path: str) -> None:
        app: Any = self
        from kas_tui.tui.widgets.nav_tree import NavTree

        app.query_one(NavTree).select_path(path)

    # -- $EDITOR --------------------------------------------------------------------

    def action_edit_external(self) -> None:
        """Hand the file shown to $VISUAL/$EDITOR; the app suspends and reads it again.

        The command is checked before the terminal is handed over (a bad one is a message
        naming it), and whatever happens while suspended, the app comes back.
        """
        app: Any = self
        rel = self.location
        if rel is None:
            app.notify("Select a file first", severity="warning")
            return
        argv = editor_command(os.environ)
        if isinstance(argv, str):
            app.notify(argv, title="No editor", severity="error", timeout=10)
            return
        editor = argv[0]
        path = self.package.root / rel
        failure: str | None = None
        returncode = 0
        try:
            with app.suspend():
                # nothing may escape this block: an exception leaving app.suspend()
                # skips resuming the app, which stays blank with the terminal cooked
                try:
                    returncode = subprocess.run([*argv, str(path)], check=False).returncode
                except OSError as exc:
                    failure = f"editor {editor!r} could not run: {os_reason(exc)}"
                except KeyboardInterrupt:
                    failure = f"editor {editor!r} was interrupted"
        except SuspendNotSupported:
            app.notify("This terminal cannot hand over to an editor", severity="error")
            return
        if failure is not None:
            app.notify(failure, title="No editor", severity="error", timeout=10)
            return
        self.package.reload_file(rel)
        self._after_write()
        if returncode != 0:
            app.notify(f"{editor} exited with {returncode}", severity="warning")
        else:
            app.notify(f"Read {rel} again")


def editor_command(environ: Mapping[str, str]) -> list[str] | str:
    """The editor to run, as argv with its program resolved, or why there is none.

    $VISUAL wins over $EDITOR, and ``vi`` is the fallback. The message (a string) names
    the variable and the editor, and says how to fix it.
    """
    name = next((var for var in ("VISUAL", "EDITOR") if environ.get(var)), None)
    command = environ[name] if name else "vi"
    try:
        argv = shlex.split(command)
    except ValueError:
        return f"${name} has unbalanced quotes: {command}; fix its quoting"
    if not argv:
        return f"${name} is blank; set $VISUAL or $EDITOR to an editor command"
    program = argv[0]
    source = f"from ${name}" if name else "neither $VISUAL nor $EDITOR is set"
    where = f"editor {program!r} ({source})"
    if os.sep in program or (os.altsep and os.altsep in program):
        found = os.path.expanduser(program)
        if not os.path.exists(found):
            return f"{where} does not exist; set $VISUAL or $EDITOR to an installed editor"
        if os.path.isdir(found) or not os.access(found, os.X_OK):
            return f"{where} is not an executable file; chmod +x it or set $VISUAL or $EDITOR"
    else:
        resolved = shutil.which(program, path=environ.get("PATH", os.defpath))
        if resolved is None:
            return f"{where} not found on PATH; set $VISUAL or $EDITOR to an installed editor"
        found = resolved
    return [found, *argv[1:]]
