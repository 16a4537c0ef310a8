"""How an edit run by the app ended, and the messages that say so to the screens.

:meth:`~kas_tui.tui.controllers.edits.EditController.run_edit` returns an
:class:`EditOutcome` once; when a conflict leaves the decision to the user
(``CONFLICT_PENDING``), how that decision ended comes later as an :class:`EditDecided`
message to the screen that ran the edit. Every write of the app is followed by a
:class:`PackageWritten` to each screen over the main one. Editor screens stay open
unless the edit was saved (or dropped), so the user's text is kept
(:func:`close_after_save`).

A module of its own, below the screens and the controllers: the screens import it,
the edit controller imports screens.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from textual.message import Message


class EditOutcome(Enum):
    """How :meth:`~kas_tui.tui.controllers.edits.EditController.run_edit` ended."""

    SAVED = "saved"
    NOTHING = "nothing to change"
    REFUSED = "refused"  # not written; a message said why
    CONFLICT_PENDING = "conflict pending"  # the user decides; EditDecided follows
    KEPT = "kept editing"  # after a conflict: not written, the user keeps editing
    DROPPED = "dropped"  # after a conflict: the user reloaded the file, the change went

    @property
    def saved(self) -> bool:
        """Written, or nothing had to be: an editor's work is done."""
        return self in (EditOutcome.SAVED, EditOutcome.NOTHING)


def close_after_save(editor: Any, outcome: EditOutcome) -> bool:
    """Close an editor screen as every editor closes after a save: the change dropped (the
    user reloaded the file) dismisses it with ``False``, a save with ``True``, once the
    dialog that decided it (a conflict's diff) has closed. ``False`` when it stays open:
    not saved, its fields keep the user's text."""
    if outcome is EditOutcome.DROPPED:
        editor.dismiss(False)
        return True
    if not outcome.saved:
        return False
    if editor.is_current:
        editor.dismiss(True)
    else:
        editor.call_after_refresh(lambda: editor.is_current and editor.dismiss(True))
    return True


class EditDecided(Message):
    """How a conflict's decision ended (never ``CONFLICT_PENDING``): sent to the screen
    that ran the edit, once."""

    bubble = False

    def __init__(self, outcome: EditOutcome) -> None:
        super().__init__()
        self.outcome = outcome


class PackageWritten(Message):
    """The app wrote to the package (an edit, an undo or redo, a reload after a
    conflict): sent to each screen over the main one, for views that show the package
    to bring themselves up to date (the main screen's panes are refreshed directly)."""

    bubble = False
