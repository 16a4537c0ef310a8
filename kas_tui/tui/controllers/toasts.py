"""Toasts and dialogs: a toast never covers a dialog for long (issue 32, item 8).

At 80×24 a toast takes a third of the screen's width and several rows at its bottom,
where a dialog has its buttons. When a dialog or a view opens, the toasts already shown
go (they were said; the app keeps them in ``messages``), on every screen, since the one
underneath is still drawn around a dialog; a toast said over a dialog lasts at most
:data:`OVER_DIALOG` seconds. Editors with a message line of their own show it there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import ModalScreen

if TYPE_CHECKING:
    from textual.screen import Screen

    from kas_tui.tui.controllers.host import Host

#: Seconds at most a toast shows over a dialog: it covers the dialog's border and buttons.
OVER_DIALOG = 5.0


class Toasts:
    """Clears the toasts as a screen is pushed; shortens those said over a dialog."""

    def __init__(self, app: Host) -> None:
        self.app = app
        self._depth = 0  # screens on the stack when last looked: a push makes it grow

    def watch(self) -> None:
        # immediate: as the screen is pushed, so that a toast said just after it stays
        self.app.screen_change_signal.subscribe(self.app, self._screen_changed, immediate=True)

    def _screen_changed(self, screen: Screen) -> None:
        depth = len(self.app.screen_stack)
        if depth > self._depth:
            self.app.clear_notifications()
            for below in self.app.screen_stack[:-1]:  # drawn around a dialog until they expire
                for rack in below.query("ToastRack"):
                    rack.remove_children()
        self._depth = depth

    def timeout(self, timeout: float | None, default: float) -> float | None:
        """How long a toast said now shows: at most OVER_DIALOG over a dialog."""
        if isinstance(self.app.screen, ModalScreen):
            return min(timeout or default, OVER_DIALOG)
        return timeout
