"""What the editors built of frontmatter rows share: their rows, a status line, and a
state refreshed once per burst of keystrokes (the frontmatter editor, the create form).

A form screen holds its :class:`~kas_tui.tui.widgets.fields.FieldRow` rows in
``#me-fields`` and its status line in ``#me-status``; it implements ``refresh_state``.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.actions import SkipAction
from textual.binding import Binding
from textual.widgets import Input, Static

from kas_tui.text.wording import elide_words
from kas_tui.tui.screens.kas_screen import KasModalScreen, ResultType
from kas_tui.tui.screens.pick import PickScreen
from kas_tui.tui.widgets.fields import FieldRow
from kas_tui.tui.widgets.inputs import CleanTextArea


class FormScreen(KasModalScreen[ResultType]):
    """A modal form of field rows with a status line."""

    CSS_PATH = "form.tcss"
    BINDINGS = [
        Binding("ctrl+g", "jump_to_field", "Go to field", key_display="^g"),
        # enter moves on as the app reads it, like tab (see KasModalScreen): in a burst,
        # the keys after it went to the field it left
        Binding("enter", "enter_field", "Next field", show=False, priority=True),
    ]

    _refresh_pending = False
    _message = ""  # a status that stays until the next edit (why a save was refused)

    def refresh_state(self) -> None:
        """Redraw what depends on the rows (marks, counts, the status line)."""
        raise NotImplementedError

    def rows(self) -> list[FieldRow]:
        fields = self.query_one("#me-fields")
        return [w for w in fields.children if isinstance(w, FieldRow) and w.is_attached]

    def row(self, key: str) -> FieldRow | None:
        return next((r for r in self.rows() if r.key == key), None)

    def set_status(self, message: str, *, error: bool = False, sticky: bool = False) -> None:
        """Show ``message`` in the bottom bar; a ``sticky`` one stays until the next edit."""
        if sticky:
            self._message = message
        status = self.query_one("#me-status", Static)
        status.update(Text(message))
        status.set_class(error, "-error")

    def show_notice(self, message: str, severity: str = "information") -> bool:
        """The app's notifications show in the status line; a warning or an error stays
        until the next edit, so a refused save keeps saying why."""
        self.set_status(message, error=severity == "error", sticky=severity != "information")
        self.query_one("#me-status", Static).set_class(severity == "warning", "-warning")
        return True

    def refresh_soon(self) -> None:
        """Refresh the state once after this burst of edits (each keystroke posts one)."""
        if not self._refresh_pending:
            self._refresh_pending = True
            self.call_after_refresh(self._refresh_now)

    def _refresh_now(self) -> None:
        self._refresh_pending = False
        if self.is_attached:
            self.refresh_state()

    def action_jump_to_field(self) -> None:
        """Pick a field by typing its name (or words of its value) and go there: no
        Tab after Tab to the nineteenth key."""
        rows = [r for r in self.rows() if r.display]
        if not rows or not self.query_one("#me-fields").is_on_screen:
            self.notify("No fields to go to here: ctrl+r shows the form", timeout=3)
            return
        items = []
        for row in rows:
            value = " ".join(row.text().split())
            shown = Text.assemble((row.label, "bold"), ("  ", ""), (elide_words(value, 50), "dim"))
            items.append((row.key, shown, f"{row.key} {row.label} {value}"))

        def go(key: str | None) -> None:
            row = self.row(key) if key is not None else None
            if row is None:
                return
            editor = next((w for w in row.query("*") if w.focusable), None)
            if editor is not None:
                editor.focus()
            row.scroll_visible(animate=False)

        self.app.push_screen(
            PickScreen("Go to field", "Type a field's name:", items, placeholder="field…"), go
        )

    def action_enter_field(self) -> None:
        """Enter in a field moves on to the next one, as in a form; elsewhere (a button,
        the raw YAML) it does what it does there."""
        focused = self.focused
        fields = self.query_one("#me-fields")
        if not isinstance(focused, (Input, CleanTextArea)) or fields not in focused.ancestors:
            raise SkipAction()
        self.focus_next()

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        """Enter in a field moves on to the next one, as in a form."""
        event.stop()
        self.focus_next()
