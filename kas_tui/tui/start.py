"""The start screen of ``kas-tui`` run without a package: the packages opened lately
(their paths and when), the demo, and a folder to type. A small app of its own that
returns what was chosen; the workbench then opens it. With nothing opened yet,
``kas-tui`` opens the demo straight away, as it always did."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from kas_tui.core.recent import Recent

#: What the app returns for the demo (a path is returned as itself).
DEMO = "demo"


def ago(when: dt.datetime, now: dt.datetime) -> str:
    """``today``, ``yesterday``, ``3 days ago``, or the date."""
    days = (now.date() - when.astimezone(now.tzinfo).date()).days
    if days <= 0:
        return "today"
    if days == 1:
        return "yesterday"
    return f"{days} days ago" if days < 30 else when.date().isoformat()


class StartApp(App[str | None]):
    """Pick a package: a recent one, the demo, or a typed folder (see the module)."""

    TITLE = "kas-tui"
    CSS = """
    #start { padding: 0 1; }
    #start-title { text-style: bold; margin-bottom: 1; }
    #start-list { height: 1fr; border: round $primary; }
    #start-path { margin-top: 1; }
    #start-note { color: $text-muted; height: auto; }
    """
    BINDINGS = [
        Binding("escape", "quit", "Quit"),
        Binding("o", "open_folder", "Open a folder"),
        Binding("d", "demo", "Demo"),
    ]

    def __init__(self, recent: list[Recent], now: dt.datetime | None = None) -> None:
        super().__init__()
        self.recent = recent
        self.now = now or dt.datetime.now(dt.timezone.utc)

    def compose(self) -> ComposeResult:
        with Vertical(id="start"):
            yield Static("Open a knowledge package", id="start-title")
            options = [
                Option(self._label(r), id=f"recent:{n}", disabled=not r.exists)
                for n, r in enumerate(self.recent)
            ]
            options.append(Option(Text("The bundled demo (orbit-handbook)", "italic"), id=DEMO))
            yield OptionList(*options, id="start-list")
            yield Input(placeholder="or type a folder and press enter", id="start-path")
            yield Static("", id="start-note")
        yield Footer()

    def _label(self, recent: Recent) -> Text:
        home = str(Path.home())
        shown = "~" + recent.path[len(home) :] if recent.path.startswith(home) else recent.path
        label = Text.assemble((Path(recent.path).name, "bold"), "  ", (shown, "dim"))
        label.append(f"  {ago(recent.opened, self.now)}", "cyan")
        if not recent.exists:
            label.append("  (gone)", "red")
        return label

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if option_id == DEMO:
            self.exit(DEMO)
        elif option_id.startswith("recent:"):
            self.exit(self.recent[int(option_id.split(":", 1)[1])].path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        path = Path(text).expanduser()
        if not path.is_dir():
            self.query_one("#start-note", Static).update(
                Text(f"{text}: no such folder; type the folder of a package", "red")
            )
            return
        self.exit(str(path))

    def action_open_folder(self) -> None:
        self.query_one(Input).focus()

    def action_demo(self) -> None:
        self.exit(DEMO)
