"""The help screen: the keys of the pane holding the focus first, then every other key,
grouped, from the same definitions as the bindings."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from kas_tui.tui.commands import PANE_TITLES, Command, by_group, pane_commands

_WHERE = {"body": "in the body pane", "tree": "in the tree", "findings": "in the findings"}


def keys_table(here: str | None = None) -> Table:
    """Every key of the main screen; with ``here`` (a pane of commands.PANE_KEYS), that
    pane's keys first, under its name, and the others after them."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold cyan", no_wrap=True)
    table.add_column()
    first = pane_commands(here) if here else []
    if first:
        table.add_row("", Text(f"Here: {PANE_TITLES[here]}", "bold underline"))
        for command in first:
            table.add_row(Text(command.key_display), Text(command.help))
        table.add_row("", "")
        table.add_row("", Text("Every other key", "bold reverse"))
        table.add_row("", "")
    for group, commands in by_group().items():
        rest = [c for c in commands if c not in first]
        if not rest:
            continue
        table.add_row("", Text(group, "bold underline"))
        for command in rest:
            table.add_row(Text(command.key_display), _help_text(command))
        table.add_row("", "")
    table.add_row("", Text("Mouse", "bold underline"))
    table.add_row(Text("click"), Text("select a node, follow a link, pick a finding"))
    table.add_row(Text("tab"), Text("move between panes"))
    return table


def _help_text(command: Command) -> Text:
    help_text = Text(command.help)
    where = _WHERE.get(command.scope)
    if where:
        help_text.append(f"  ({where})", "bright_black")
    return help_text


def screen_keys_table(title: str, bindings: Iterable[Binding]) -> Table:
    """The keys a screen (a walk, a wizard...) and its focused widget bind, as they apply
    now, with what they do."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold cyan", no_wrap=True)
    table.add_column()
    table.add_row("", Text(title, "bold underline"))
    for binding in bindings:
        keys = binding.key_display or " / ".join(k.strip() for k in binding.key.split(","))
        table.add_row(Text(keys), Text(binding.description))
    table.add_row(Text("?"), Text("these keys"))
    table.add_row(Text("ctrl+p"), Text("the command palette"))
    return table


class HelpScreen(ModalScreen[None]):
    """Every key the app knows (those of the pane ``here`` first), or with ``over`` the
    keys of that screen; any of escape, q or ? closes it."""

    CSS_PATH = "help.tcss"
    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def __init__(self, over: Screen | None = None, here: str | None = None) -> None:
        """``over``: the screen whose keys to list (``None``: the main screen's, those
        of the pane ``here`` first)."""
        super().__init__()
        self.over = over
        self.here = here

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box") as box:
            box.border_subtitle = "escape closes"
            if self.over is None:
                box.border_title = f"Keys: {PANE_TITLES[self.here]}" if self.here else "Keys"
                yield Static(keys_table(self.here))
            else:
                name = type(self.over).__name__.removesuffix("Screen")
                title = re.sub(r"(?<!^)(?=[A-Z])", " ", name).capitalize()  # "Agent walk"
                box.border_title = f"Keys: {title}"
                yield Static(screen_keys_table(title, _own_bindings(self.over)))


def _own_bindings(screen: Screen) -> list[Binding]:
    """The bindings of ``screen`` and its focused widget that apply in its present state
    (what its footer offers), the app's own left out; each action once."""
    found: list[Binding] = []
    seen: set[str] = set()
    for active in screen.active_bindings.values():
        binding = active.binding
        if active.node is screen.app or not binding.show or not binding.description:
            continue
        if binding.action not in seen:
            seen.add(binding.action)
            found.append(binding)
    return found
