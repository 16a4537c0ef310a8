"""Dialogs of moves: pick the bundle to move into (or merge into), choose what to split.

They only ask; the moves themselves are planned and written by :mod:`kas_tui.features.moves.planner`
(through the app's :mod:`kas_tui.tui.controllers.move_actions`), which also says why one is refused: a
dialog's ``check`` returns that message and the dialog stays open to correct it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, SelectionList, Static

from kas_tui.tui.screens.pick import PickScreen
from kas_tui.tui.widgets.inputs import FieldInput


class BundlePicker(PickScreen):
    """Pick a bundle; type to filter. Dismisses with its folder (``""``: the root)."""

    def __init__(self, title: str, prompt: str, bundles: Sequence[tuple[str, str]]) -> None:
        """``bundles``: (folder, how to show it) in the order to list them."""
        items = [
            (
                folder,
                Text.assemble((f"{folder or '.'}/", "bold cyan"), (f" — {label}", "")),
                f"{folder}/ {label}",
            )
            for folder, label in bundles
        ]
        super().__init__(title, prompt, items, placeholder="folder…")


class SplitScreen(ModalScreen[bool]):
    """Choose documents of a bundle, a folder name and a description for the new
    sub-bundle. ``check(paths, name, description)`` returns why it is refused, or
    ``None`` (then the screen dismisses with ``True``); escape dismisses with ``False``."""

    CSS_PATH = "moving.tcss"
    BINDINGS = [Binding("escape", "dismiss(False)", "Cancel")]

    def __init__(
        self,
        bundle: str,
        documents: Sequence[tuple[str, str]],
        check: Callable[[list[str], str, str], str | None],
    ) -> None:
        """``documents``: (path, how to show it) of the bundle's documents."""
        super().__init__()
        self.bundle = bundle
        self.documents = list(documents)
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="split-box") as box:
            box.border_title = Text(f"Split {self.bundle or '.'}/")
            box.border_subtitle = "space chooses · tab next · enter splits · escape cancels"
            yield Static("Documents to move into the new sub-bundle:", id="split-prompt")
            yield SelectionList[str](
                *((Text(label), path) for path, label in self.documents), id="split-list"
            )
            yield FieldInput(
                placeholder="folder name of the new bundle (e.g. paging-tools)", id="split-name"
            )
            yield FieldInput(
                placeholder="its one-sentence description (the index entry's)",
                id="split-description",
            )
            yield Static(id="split-error")

    def on_mount(self) -> None:
        self.query_one("#split-error").display = False
        self.query_one("#split-list").focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        paths = list(self.query_one("#split-list", SelectionList).selected)
        name = self.query_one("#split-name", Input).value.strip()
        description = self.query_one("#split-description", Input).value.strip()
        error = self.check(paths, name, description)
        shown = self.query_one("#split-error", Static)
        if error:
            shown.update(Text(error, "bold red"))
            shown.display = True
            return
        self.dismiss(True)

    @on(Input.Changed)
    def edited(self) -> None:
        self.query_one("#split-error").display = False
