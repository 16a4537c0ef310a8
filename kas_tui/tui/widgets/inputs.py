"""The inputs of the forms: focus never selects a field's value (the next key would replace
it), and those that refuse terminal escapes: pasted text loses escape sequences and
control characters (the field says what was removed), so they never reach a file or the
screen; and the tag suggester of tag fields."""

from __future__ import annotations

from collections.abc import Iterable

from textual import events
from textual.message import Message
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input, TextArea

from kas_tui.core import form_fields as F


class FieldInput(Input):
    """An ``Input`` of a form: arriving in it (Tab, or the dialog opening) puts the cursor
    at the end of its value and selects nothing, so the next key adds to the value
    instead of replacing it (Textual's own selects it all: a title became "Z")."""

    def __init__(self, *args, select_on_focus: bool = False, **kwargs) -> None:
        super().__init__(*args, select_on_focus=select_on_focus, **kwargs)

    def _on_focus(self, event: events.Focus) -> None:  # before Input's own (Textual calls both)
        if not self.select_on_focus and not event.from_app_focus:  # a click moves it after
            self.cursor_position = len(self.value)


class CleanInput(FieldInput):
    """A form's ``Input`` whose pasted text loses terminal escapes and control characters.

    What was removed is posted as :class:`CleanInput.Cleaned` for the field to show.
    """

    class Cleaned(Message):
        def __init__(self, widget: Widget, message: str) -> None:
            super().__init__()
            self.widget = widget
            self.message = message

    def _clean_insert(self, text: str) -> None:
        clean, removed = F.sanitize(text)
        if removed:
            self.post_message(self.Cleaned(self, F.describe_removed(removed)))
        if clean:
            start, end = self.selection
            self.replace(clean, min(start, end), max(start, end))

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()
        self._clean_insert(event.text)

    def action_paste(self) -> None:
        self._clean_insert(self.app.clipboard)


class CleanTextArea(TextArea):
    """A ``TextArea`` for one long line (a description): paste is cleaned, enter moves on."""

    def _clean_insert(self, text: str) -> None:
        clean, removed = F.sanitize(text)
        if removed:
            self.post_message(CleanInput.Cleaned(self, F.describe_removed(removed)))
        if clean:
            result = self.replace(clean, *self.selection)
            self.move_cursor(result.end_location)

    async def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()
        if not self.read_only:
            self._clean_insert(event.text)

    def action_paste(self) -> None:
        if not self.read_only:
            self._clean_insert(self.app.clipboard)

    def _on_focus(self, event: events.Focus) -> None:
        if not event.from_app_focus:  # arriving by tab: continue at the end (a click moves it)
            self.move_cursor(self.document.end)

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":  # one line: enter goes to the next field
            event.stop()
            event.prevent_default()
            self.screen.focus_next()


class TagSuggester(Suggester):
    """Suggests a completion of the last comma-separated tag from the package's tags."""

    def __init__(self, tags: Iterable[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.tags = list(tags)

    async def get_suggestion(self, value: str) -> str | None:
        head, _, last = value.rpartition(",")
        stem = last.lstrip()
        if not stem:
            return None
        used = {t.strip().casefold() for t in head.split(",")}
        for tag in self.tags:
            folded = tag.casefold()
            stem_folded = stem.casefold()
            if folded.startswith(stem_folded) and folded != stem_folded and folded not in used:
                return value + tag[len(stem) :]
        return None
