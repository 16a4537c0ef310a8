"""Step 1: the file picker, the selection, typed paths, the target bundle and type."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import (
    Button,
    DirectoryTree,
    Input,
    OptionList,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from kas_tui.features.importing.files import files_in, parse_paths, supported
from kas_tui.text.slug import parse_folder as parse_new_bundle
from kas_tui.tui.screens.import_wizard.labels import file_size, plural
from kas_tui.tui.screens.kas_screen import KasScreen
from kas_tui.tui.widgets.inputs import CleanInput

if TYPE_CHECKING:
    from textual.widgets._directory_tree import DirEntry
    from textual.widgets.tree import TreeNode


class FilePicker(DirectoryTree):
    """A directory tree where files are marked for import (space); unknown formats dimmed."""

    BINDINGS = [Binding("space", "toggle_node", "Mark", key_display="space")]

    class Toggled(Message):
        """The user marked or unmarked ``paths`` (a file, or a folder's files)."""

        def __init__(self, picker: FilePicker, paths: list[Path], folder: bool) -> None:
            super().__init__()
            self.picker = picker
            self.paths = paths
            self.folder = folder

    def __init__(self, path: Path, marked: dict[Path, None], **kwargs: Any) -> None:
        super().__init__(path, **kwargs)
        self.marked = marked  # shared with the screen, which owns the selection

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".")]

    def render_label(self, node: TreeNode[DirEntry], base_style: Any, style: Any) -> Text:
        label = super().render_label(node, base_style, style)
        entry = node.data
        if entry is None or node.allow_expand:
            return label
        path = Path(os.path.abspath(entry.path))
        if path in self.marked:
            return Text.assemble(("● ", "bold green"), label)
        if not supported(path):
            label.stylize("dim")
        return Text.assemble("  ", label)

    def action_toggle_node(self) -> None:
        """Space: mark the file under the cursor, or every convertible file of a folder."""
        node = self.cursor_node
        if node is None or node.data is None:
            return
        path = Path(os.path.abspath(node.data.path))
        if node.allow_expand:
            self.post_message(self.Toggled(self, files_in(path), True))
        else:
            self.post_message(self.Toggled(self, [path], False))

    def refresh_marks(self) -> None:
        stack = [self.root]
        while stack:
            node = stack.pop()
            node.refresh()
            stack.extend(node.children)


class SelectedList(OptionList):
    """The files chosen so far; delete (or space) takes the highlighted one out."""

    BINDINGS = [Binding("delete,backspace,space", "screen.unselect", "Remove", key_display="del")]


class FilesStep(KasScreen[None]):
    """The wizard's first step (its state is the wizard's)."""

    def select(self, paths: Iterable[Path]) -> None:
        """Add ``paths`` to the selection (what the picker and the paths input do)."""
        for path in paths:
            self.marked[Path(os.path.abspath(path))] = None
        self._refresh_selected()

    def _refresh_selected(self) -> None:
        listed = self.query_one("#iw-selected", SelectedList)
        highlighted = listed.highlighted
        listed.clear_options()
        # an empty list is no stop for Tab: it goes on to where paths are typed
        listed.can_focus = bool(self.marked)
        for number, path in enumerate(self.marked):
            # the name first and whole, its folder after it: files of one name stay apart
            shown = self.shown_path(path)
            folder = shown.rpartition("/")[0]
            label = Text(path.name, "bold" if supported(path) else "dim")
            label.append(f"  {file_size(path)}", "dim")
            if folder:
                label.append(f"\n  in {folder}/", "dim")
            if not supported(path):
                label.append("  unknown format: read as text if it is", "yellow")
            listed.add_option(Option(label, id=str(number)))
        if self.marked:
            listed.highlighted = min(highlighted or 0, len(self.marked) - 1)
        count = len(self.marked)
        listed.border_title = f"Selected ({count})" if count else "Selected"
        self.query_one(FilePicker).refresh_marks()
        if self.error:
            return
        _, problem = parse_new_bundle(self.query_one("#iw-new-bundle", CleanInput).value)
        if problem:
            self._files_status(f"New bundle: {problem}", error=True)
            return
        self._files_status(
            "Mark files in the tree (space) or type their paths."
            if not count
            else f"{plural(count, 'file')} into {self._bundle_name(self._bundle_value())}"
        )

    def _files_status(self, message: str, *, error: bool = False) -> None:
        status = self.query_one("#iw-files-status", Static)
        status.update(Text(message))
        status.set_class(error, "-error")

    def _bundle_value(self) -> str:
        """The target bundle: a valid new one typed, else the one chosen."""
        new, _ = parse_new_bundle(self.query_one("#iw-new-bundle", CleanInput).value)
        if new:
            return new
        value = self.query_one("#iw-bundle", Select).value
        return value if isinstance(value, str) else ""

    @staticmethod
    def _bundle_name(bundle: str) -> str:
        return f"{bundle}/" if bundle else "the package root"

    @on(FilePicker.Toggled)
    def _toggled(self, event: FilePicker.Toggled) -> None:
        event.stop()
        self.error = ""
        if not event.paths:
            self.notify("No file kas-tui can convert in this folder", timeout=3)
            return
        if all(p in self.marked for p in event.paths):
            for path in event.paths:
                self.marked.pop(path, None)
        else:
            for path in event.paths:
                self.marked[path] = None
        self._refresh_selected()

    @on(DirectoryTree.FileSelected, "#iw-picker")
    def _file_chosen(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        picker = self.query_one(FilePicker)
        picker.post_message(FilePicker.Toggled(picker, [Path(os.path.abspath(event.path))], False))

    def action_unselect(self) -> None:
        listed = self.query_one("#iw-selected", SelectedList)
        if listed.highlighted is None or not self.marked:
            return
        path = list(self.marked)[listed.highlighted]
        del self.marked[path]
        self._refresh_selected()

    @on(CleanInput.Submitted, "#iw-paths")
    def _paths_entered(self, event: CleanInput.Submitted) -> None:
        event.stop()
        self._take_typed()

    def _take_typed(self) -> bool:
        """Add the typed paths; ``False`` (with the problems shown) when one is not found."""
        box = self.query_one("#iw-paths", CleanInput)
        if not box.value.strip():
            return True
        found, problems = parse_paths(box.value, self.start)
        self.select(found)
        shown = self.query_one("#iw-paths-error", Static)
        if problems:
            more = f" (and {len(problems) - 2} more)" if len(problems) > 2 else ""
            shown.update(Text("✗ " + "; ".join(problems[:2]) + more))
            shown.display = True
            return False
        shown.display = False
        box.value = ""
        return True

    @on(CleanInput.Changed, "#iw-paths")
    def _paths_typed(self) -> None:
        self.query_one("#iw-paths-error").display = False

    @on(Select.Changed, "#iw-bundle")
    @on(Input.Changed, "#iw-new-bundle")
    def _bundle_changed(self) -> None:
        self._refresh_selected()

    @on(Button.Pressed, "#iw-convert")
    def _convert_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_convert()

    def action_close(self) -> None:
        self.dismiss(None)
