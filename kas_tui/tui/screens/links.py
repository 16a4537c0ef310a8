"""The link picker: every link of the page shown, to follow one from the keyboard."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

_KIND_STYLE = {"internal": "green", "external": "blue", "missing": "red", "outside": "red"}


class LinksScreen(ModalScreen[str | None]):
    """Pick a link; dismisses with its target (``href``) or ``None``.

    ``links`` are ``(text, href, kind)``: ``kind`` is ``internal``, ``missing``,
    ``external``, ``anchor`` or ``outside``, shown as a mark.
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, links: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.links = links

    def compose(self) -> ComposeResult:
        with Vertical(id="links-box") as box:
            box.border_title = f"Links ({len(self.links)})"
            box.border_subtitle = "enter follows · escape closes"
            options = [
                Option(
                    Text.assemble(
                        (f"{kind:<8} ", _KIND_STYLE.get(kind, "bright_black")),
                        (text or href, "bold"),
                        ("  → ", "bright_black"),
                        (href, "bright_black"),
                    ),
                    id=str(i),
                )
                for i, (text, href, kind) in enumerate(self.links)
            ]
            yield OptionList(*options, id="links-list")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.links[int(event.option.id or 0)][1])
