"""A one-line question: an Input in a small modal, with an optional check before closing.
(A yes-or-no question is choose.ConfirmScreen.)"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from kas_tui.tui.widgets.inputs import FieldInput


class AskScreen(ModalScreen[str | None]):
    """Ask for one value; enter dismisses with it, escape with ``None``.

    ``check(value)`` runs on enter and returns an error message to show (the screen
    stays open so the value can be corrected) or ``None`` to accept the value. It may do
    the work itself (write the file, read the trajectory) so that its errors show here.
    """

    CSS_PATH = "ask.tcss"
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(
        self,
        title: str,
        prompt: str,
        value: str = "",
        *,
        check: Callable[[str], str | None] | None = None,
        placeholder: str = "",
        hint: str = "enter accepts · escape cancels",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.prompt = prompt
        self.value = value
        self.check = check
        self.placeholder = placeholder
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = Text(self.hint)
            yield Static(Text(self.prompt), id="ask-prompt")
            yield FieldInput(self.value, placeholder=self.placeholder, id="ask-input")
            yield Static(id="ask-error")

    def on_mount(self) -> None:
        self.query_one("#ask-error").display = False

    @on(Input.Submitted, "#ask-input")
    def accept(self, event: Input.Submitted) -> None:
        event.stop()
        error = self.check(event.value) if self.check else None
        shown = self.query_one("#ask-error", Static)
        if error:
            shown.update(Text(error, "bold red"))
            shown.display = True
            return
        self.dismiss(event.value)

    @on(Input.Changed, "#ask-input")
    def edited(self) -> None:
        self.query_one("#ask-error").display = False
