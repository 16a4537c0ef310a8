"""The footer every screen uses: compact when the terminal is narrow."""

from __future__ import annotations

from textual import events
from textual.widgets import Footer

#: Narrower than this, the keys lose their padding so that all of them, Quit included, fit
#: (the main screen's keys need 108 columns with padding, 96 without).
COMPACT_BELOW = 110


class KasFooter(Footer):
    """Textual's footer, compact below :data:`COMPACT_BELOW` columns."""

    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < COMPACT_BELOW
