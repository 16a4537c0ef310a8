"""The app as the screens see it: :class:`Workbench`, and screen bases that reach it typed.

Screens say ``self.kas.package`` or ``self.kas.run_edit(...)`` instead of casting
``self.app`` to ``Any``. :class:`Workbench` is the part of
:class:`~kas_tui.tui.app.KasApp` they use, a protocol so that the screens never import
the app that imports them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, TypeVar, cast, runtime_checkable

from rich.text import Text
from textual.actions import SkipAction
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import TextArea

if TYPE_CHECKING:
    from kas_tui.core.edit_session import Edit, EditSession
    from kas_tui.core.package import Package
    from kas_tui.core.store import Fingerprint
    from kas_tui.tui.edit_outcome import EditOutcome

ResultType = TypeVar("ResultType")


@runtime_checkable
class Workbench(Protocol):
    """What screens use of the app: its package, its day, its place, its edits."""

    package: Package
    today: dt.date
    location: str | None
    session: EditSession

    def go(self, place: str, *, transient: bool = False, reveal: bool = False) -> None: ...

    def go_to_line(self, place: str, line: int | None) -> None: ...

    def run_edit(
        self,
        label: str,
        edit: Edit,
        *,
        log: str | None = None,
        based_on: Mapping[str, Fingerprint] | None = None,
    ) -> EditOutcome: ...

    def action_undo(self) -> None: ...

    def action_redo(self) -> None: ...

    def mark_verified(self, path: str) -> None: ...

    def extend_freshness(self, path: str) -> None: ...

    def deprecate(self, path: str) -> None: ...


class KasScreen(Screen[ResultType]):
    """A full-screen view over the app's main screen."""

    @property
    def kas(self) -> Workbench:
        return cast("Workbench", self.app)


class KasModalScreen(ModalScreen[ResultType]):
    """A dialog or editor over the app's screens.

    An editor with a line for messages (``#modal-notice``) shows the app's notifications
    there, inside its frame, instead of a toast drawn over its border and buttons.

    Tab and shift+tab move between its fields the moment the app reads them, before the
    keys after them are handed on: keys sent in one burst (``Pager tips`` Tab ``Short
    tips.`` in tmux) went to the field the Tab left, since Textual moves the focus only
    once an unclaimed key has climbed back up to the app. A field that takes Tab itself
    (the raw YAML, indenting) still gets it.
    """

    BINDINGS = [
        Binding("tab", "next_field", "Next field", show=False, priority=True),
        Binding("shift+tab", "previous_field", "Previous field", show=False, priority=True),
    ]

    DEFAULT_CSS = """
    #modal-notice {
        width: 1fr;
        height: 1;
        color: $text-muted;
    }

    #modal-notice.-warning {
        color: $text-warning;
    }

    #modal-notice.-error {
        color: $text-error;
        text-style: bold;
    }
    """

    NOTICE = "#modal-notice"

    @property
    def kas(self) -> Workbench:
        return cast("Workbench", self.app)

    def show_notice(self, message: str, severity: str = "information") -> bool:
        """Show ``message`` in the screen's own message line; ``False`` when it has none."""
        found = self.query(self.NOTICE)
        if not found:
            return False
        notice = found.first()
        notice.update(Text(message))
        notice.set_class(severity == "error", "-error")
        notice.set_class(severity == "warning", "-warning")
        return True

    def _tab_is_the_fields(self) -> None:
        focused = self.focused
        indents = isinstance(focused, TextArea) and focused.tab_behavior == "indent"
        if indents and not focused.read_only:
            raise SkipAction()  # it indents: the key goes on to it

    def action_next_field(self) -> None:
        self._tab_is_the_fields()
        self.focus_next()

    def action_previous_field(self) -> None:
        self._tab_is_the_fields()
        self.focus_previous()
