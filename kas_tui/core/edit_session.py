"""An editing session: the user's actions on a package, each undoable as one.

One action (save a form, move an entry, a bulk edit of 40 files) may write several
files, plus a ``log.md`` entry naming what changed. The session runs each action through
the lossless editing API (``kas_tui.core.editing``), groups the writes it made, and undoes or
redoes a group as a whole, newest first. Headless: the TUI is one face of it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kas_tui.core import editing
from kas_tui.core.fileio import Fingerprint
from kas_tui.core.okf.errors import EditError
from kas_tui.core.package import Package
from kas_tui.core.store import Change, StoreError

#: An edit: writes through ``kas_tui.core.editing`` and returns what it wrote.
Edit = Callable[[Package], "Change | list[Change | None] | None"]


@dataclass
class Action:
    """One user action: its label and the writes it made, in order."""

    label: str
    changes: list[Change] = field(default_factory=list)
    log_error: str = ""  # why its log.md entry could not be written, if it could not

    @property
    def paths(self) -> list[Path]:
        return list(dict.fromkeys(c.path for c in self.changes))


class EditSession:
    """Runs edits on ``package``, logs them in ``log.md``, undoes and redoes them by action.

    ``log_edits`` (on by default) appends one ``log.md`` entry per action that wrote
    something, naming it; the entry is part of the action, so undo removes it too.
    """

    def __init__(
        self, package: Package, *, log_edits: bool = True, today: dt.date | None = None
    ) -> None:
        self.package = package
        self.log_edits = log_edits
        self.today = today
        self.done: list[Action] = []
        self.undone: list[Action] = []

    def run(
        self,
        label: str,
        edit: Edit,
        *,
        log: str | None = None,
        based_on: Mapping[str, Fingerprint] | None = None,
        logged: bool = True,
    ) -> Action | None:
        """Run ``edit``; ``None`` when it changed nothing. Errors propagate, nothing half-logged.

        ``log`` is the ``log.md`` message (default: ``label``); ``logged=False`` writes
        none now (a burst of moves is logged once, by :meth:`squash`). ``based_on`` maps the
        root-relative files the user's edit was made on to their fingerprints then: a
        file that changed since is a :class:`~kas_tui.core.store.ConflictError`, even when
        the package was reloaded in between (see :meth:`Store.based_on`).
        """
        store = self.package.store
        mark = len(store.undo_stack)
        pins = {self.package.root / rel: fp for rel, fp in (based_on or {}).items()}
        try:
            with store.based_on(pins):
                result = edit(self.package)
        except Exception:
            self._adopt(label, store.undo_stack[mark:])  # what was written stays undoable
            raise
        del result  # the store's journal is the record of what was written
        changes = store.undo_stack[mark:]
        if not changes:
            return None
        log_error = ""
        if logged and not any(c.path.name == "log.md" for c in changes):
            log_error = self._log(log or label)
        action = self._adopt(label, store.undo_stack[mark:])
        if action is not None:
            action.log_error = log_error
        return action

    def _log(self, message: str) -> str:
        """Append the ``log.md`` entry of an action (when logging is on); why not, or ""."""
        if not self.log_edits:
            return ""
        try:
            editing.append_log(self.package, "Update", message, today=self.today)
        except (EditError, StoreError, OSError) as exc:
            # the edit itself is saved; a log.md we cannot write must not undo it
            return f"log.md not updated: {exc}"
        return ""

    def squash(self, count: int, label: str, *, log: str | None = None) -> Action | None:
        """Make the newest ``count`` actions one, as a burst of entry moves is one.

        Per file, the merged action goes from the bytes before the first action to the
        bytes after the last, so one undo restores the start. A file that ends as it began
        drops out; when none is left the actions vanish (``None``) and nothing is logged,
        else one ``log.md`` entry (``log``, default ``label``) joins the merged action.
        Refused (``None``, nothing changed) when the actions are not the newest writes.
        """
        if not 0 < count <= len(self.done):
            return None
        actions = self.done[-count:]
        changes = [c for a in actions for c in a.changes]
        stack = self.package.store.undo_stack
        if len(stack) < len(changes) or any(
            a is not b for a, b in zip(stack[len(stack) - len(changes) :], changes, strict=True)
        ):
            return None
        del stack[len(stack) - len(changes) :]
        del self.done[-count:]
        merged: dict[Path, Change] = {}
        for change in changes:
            first = merged.get(change.path, change)
            merged[change.path] = Change(
                change.path, first.before, change.after, label, folders=first.folders
            )
        kept = [c for c in merged.values() if c.before != c.after]
        if not kept:
            return None
        stack.extend(kept)
        mark = len(stack)
        log_error = self._log(log or label)
        action = Action(label, kept + stack[mark:], log_error)
        self.done.append(action)
        self.undone.clear()
        return action

    def _adopt(self, label: str, changes: list[Change]) -> Action | None:
        if not changes:
            return None
        action = Action(label, list(changes))
        self.done.append(action)
        self.undone.clear()
        return action

    @property
    def can_undo(self) -> bool:
        return bool(self.done)

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def undo(self) -> Action | None:
        """Undo the last action (all its writes), or refuse with StoreError naming the file."""
        if not self.done:
            return None
        action = self.done[-1]
        self._step(action, editing.undo, editing.redo)
        self.undone.append(self.done.pop())
        return action

    def redo(self) -> Action | None:
        """Redo the last undone action."""
        if not self.undone:
            return None
        action = self.undone[-1]
        self._step(action, editing.redo, editing.undo)
        self.done.append(self.undone.pop())
        return action

    def _step(self, action: Action, forward: Callable, back: Callable) -> None:
        """Undo (or redo) every write of ``action``; if one is refused, put back the rest."""
        stepped = 0
        try:
            for _ in action.changes:
                forward(self.package)
                stepped += 1
        except Exception:
            for _ in range(stepped):
                back(self.package)
            raise
