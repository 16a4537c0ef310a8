"""Keys arriving in one burst, as a terminal delivers text pasted into it or sent by
``tmux send-keys "Pager tips" Tab "Short tips."``: every key is handed to the app before
it handles the first (Pilot's ``press`` waits for the app to go idle after each key, as
no fast typist or script does)."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.keys import _character_to_key

#: The control characters a terminal sends for these keys, as tmux's key names give them.
_CONTROL = {"\t": "tab", "\r": "enter", "\x1b": "escape", "\x7f": "backspace"}


def send_burst(app: App, text: str) -> None:
    """Hand the keys of ``text`` to ``app`` at once (``\\t`` is Tab, ``\\r`` Enter,
    ``\\x06`` ctrl+f), as its terminal driver does with one read; then await
    ``pilot_wait_until`` a result."""
    for char in text:
        key = _CONTROL.get(char)
        if key is None:  # ctrl+a to ctrl+z are 1 to 26, as a terminal sends them
            key = f"ctrl+{chr(ord(char) + 96)}" if ord(char) < 27 else _character_to_key(char)
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)
