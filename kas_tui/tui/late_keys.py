"""Keys typed in one burst with a key that opens or closes a screen go to the screen on
top, as they would have, typed a moment later (and keys typed after a dialog's answer,
to what is on top once it has closed: :meth:`LateKeys.after`).

Textual hands each key to the widget focused when the app reads it; a key no widget
claims climbs back to the app, where the screen's bindings act on it. A key that opens a
dialog (``ctrl+f``, ``S``, ``r``) therefore acts only once the keys read with it have
been handed to the panes under the dialog: ``send-keys C-f "refund" Enter`` in tmux, or
a fast typist, opened the finder empty, the query lost. :class:`LateKeys` sends such a
key, when it comes back unclaimed from a screen that is no longer on top, to the screen
now on top, in the order typed, once that screen has its focus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events

if TYPE_CHECKING:
    from textual.app import App

#: Refreshes a screen just opened gets to focus a widget before its keys go to it.
_PATIENCE = 10


class LateKeys:
    """The keys of a burst that came back from a screen gone from the top."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._waiting: list[events.Key] = []
        self._tries = 0
        self._closing: object | None = None

    def read(self, event: events.Event) -> None:
        """A key read from the terminal: note the screen it is handed to (``App.on_event``)."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            event._kas_screen = self.app.screen  # type: ignore[attr-defined]

    def came_back(self, event: events.Key) -> bool:
        """A key no widget claimed, back at the app: whether it was handed to a screen no
        longer on top (a key read with it opened or closed one); if so it is sent again,
        to the screen on top, and nothing else is to be done with it here."""
        handed = getattr(event, "_kas_screen", None)
        if handed is None or handed is self.app.screen:
            return False
        self._waiting.append(events.Key(event.key, event.character))
        if len(self._waiting) == 1:
            self._tries = 0
            self.app.call_after_refresh(self._send)
        return True

    def after(self, event: events.Key, screen: object) -> None:
        """A key typed after an answer to ``screen`` (a dialog closing): sent, in the
        order typed, to what is on top once ``screen`` is gone (the next question its
        answer asks, or the screen under it)."""
        event.stop()
        event.prevent_default()
        self._closing = screen
        self._waiting.append(events.Key(event.key, event.character))
        if len(self._waiting) == 1:
            self._tries = 0
            self.app.call_after_refresh(self._send)

    def _send(self) -> None:
        app = self.app
        screen = app.screen
        closing = self._closing
        if closing is not None and closing in app.screen_stack and self._tries < _PATIENCE:
            self._tries += 1  # the dialog answered is still closing
            app.call_after_refresh(self._send)
            return
        self._closing = None
        if screen.focused is None and self._tries < _PATIENCE and screen.focus_chain:
            self._tries += 1  # just opened: its field is focused after a refresh or two
            app.call_after_refresh(self._send)
            return
        keys, self._waiting = self._waiting, []
        for key in keys:
            key.set_sender(app)
            app.post_message(key)
