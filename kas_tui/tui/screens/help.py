"""The help screen: every key, grouped, from the same definitions as the bindings."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..commands import by_group

_WHERE = {"body": "in the body pane", "tree": "in the tree", "findings": "in the findings"}


def keys_table() -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold cyan", no_wrap=True)
    table.add_column()
    for group, commands in by_group().items():
        table.add_row("", Text(group, "bold underline"))
        for command in commands:
            where = _WHERE.get(command.scope)
            help_text = Text(command.help)
            if where:
                help_text.append(f"  ({where})", "bright_black")
            table.add_row(Text(command.key_display), help_text)
        table.add_row("", "")
    table.add_row("", Text("Mouse", "bold underline"))
    table.add_row(Text("click"), Text("select a node, follow a link, pick a finding"))
    table.add_row(Text("tab"), Text("move between panes"))
    return table


class HelpScreen(ModalScreen[None]):
    """Every key the app knows; any of escape, q or ? closes it."""

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box") as box:
            box.border_title = "Keys"
            box.border_subtitle = "escape closes"
            yield Static(keys_table())
