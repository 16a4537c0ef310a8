"""The raw YAML editor of the frontmatter editor: a text area whose keys suit YAML."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import TextArea


class YamlArea(TextArea):
    """The raw YAML: Tab indents, one Esc leaves the editor (a plain TextArea keeps the
    first Esc to let go of the focus), ctrl+Home and ctrl+End go to its start and end."""

    BINDINGS = [
        Binding("ctrl+home", "document_start", "Start", show=False),
        Binding("ctrl+end", "document_end", "End", show=False),
    ]

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "escape":  # the screen's Esc: close the editor (asking if unsaved)
            event.stop()
            event.prevent_default()
            await self.run_action("screen.close")
            return
        await super()._on_key(event)

    def action_document_start(self) -> None:
        self.move_cursor((0, 0))

    def action_document_end(self) -> None:
        self.move_cursor(self.document.end)
