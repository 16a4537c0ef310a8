"""A list to pick one item from, narrowed as the user types (bundles, form fields)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from kas_tui.text.wording import holds_words

#: An item: the value picked, how it is shown, and the words typing matches.
Item = tuple[str, Text, str]


class PickScreen(ModalScreen[str | None]):
    """Pick an item; type to filter. Dismisses with the item's value (escape: ``None``)."""

    CSS_PATH = "pick.tcss"
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
    ]

    def __init__(
        self, title: str, prompt: str, items: Sequence[Item], *, placeholder: str = ""
    ) -> None:
        super().__init__()
        self.title_text = title
        self.prompt = prompt
        self.items = list(items)
        self.placeholder = placeholder
        self.shown: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = "type to filter · enter picks · escape cancels"
            yield Static(Text(self.prompt), id="pick-prompt")
            yield Input(placeholder=self.placeholder, id="pick-input")
            yield OptionList(id="pick-list")

    def on_mount(self) -> None:
        self._fill("")

    @on(Input.Changed, "#pick-input")
    def filtered(self, event: Input.Changed) -> None:
        self._fill(event.value)

    def _fill(self, query: str) -> None:
        rows = [(value, shown) for value, shown, words in self.items if holds_words(words, query)]
        self.shown = [value for value, _ in rows]
        options = self.query_one("#pick-list", OptionList)
        options.clear_options()
        options.add_options(Option(shown) for _, shown in rows)
        if rows:
            options.highlighted = 0

    def action_move(self, offset: int) -> None:
        options = self.query_one("#pick-list", OptionList)
        if self.shown:
            at = (options.highlighted or 0) + offset
            options.highlighted = max(0, min(len(self.shown) - 1, at))

    @on(Input.Submitted, "#pick-input")
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        highlighted = self.query_one("#pick-list", OptionList).highlighted
        if highlighted is not None and self.shown:
            self.dismiss(self.shown[highlighted])

    @on(OptionList.OptionSelected, "#pick-list")
    def selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.shown[event.option_index])
