"""The frontmatter form's rows about where knowledge came from: each ``sources`` entry
(resource, title, id) and the list of them, and the read-only history of ``generated``
and ``verified`` (who, when)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from kas_tui.core import form_fields as F
from kas_tui.tui.widgets.fields import FieldRow, RowInfo
from kas_tui.tui.widgets.inputs import CleanInput


class SourceRow(Vertical):
    """One ``sources`` entry: resource, title and id; its other keys are kept as they are."""

    DEFAULT_CLASSES = "me-source"

    def __init__(self, entry: Any = None, number: int = 0) -> None:
        super().__init__()
        self.entry = entry
        self.number = number
        self.removing = False  # on its way out (its inputs may already be gone)
        self.error: str | None = None
        self.initial = F.source_text(entry) if entry is not None else ("", "", "")

    def compose(self) -> ComposeResult:
        resource, title, source_id = self.initial
        with Horizontal(classes="me-line"):
            yield CleanInput(
                resource,
                placeholder="resource: https://… or /path/in/package",
                compact=True,
                classes="me-source-resource me-editor",
            )
            yield Button("✕", compact=True, classes="me-remove", tooltip="remove this source")
        with Horizontal(classes="me-line"):
            yield CleanInput(title, placeholder="title", compact=True, classes="me-source-title")
            yield CleanInput(source_id, placeholder="id", compact=True, classes="me-source-id")
        yield RowInfo(classes="me-info")

    def on_mount(self) -> None:
        self.show_error(None, force=True)

    def show_error(self, error: str | None, *, force: bool = False) -> None:
        if error == self.error and not force:
            return
        self.error = error
        self.set_class(bool(error), "-invalid")
        extra = (
            [k for k in self.entry if k not in F.SOURCE_FIELDS]
            if isinstance(self.entry, dict)
            else []
        )
        notes = [("info", f"also kept: {', '.join(map(str, extra))}")] if extra else []
        self.query_one(RowInfo).show(error, None, notes)

    def texts(self) -> tuple[str, str, str]:
        inputs = list(self.query(Input))
        if len(inputs) != 3:  # not composed yet
            return self.initial
        resource, title, source_id = (i.value for i in inputs)
        return resource, title, source_id

    @property
    def changed(self) -> bool:
        return tuple(t.strip() for t in self.texts()) != tuple(t.strip() for t in self.initial)

    def value(self) -> tuple[Any, str | None]:
        if self.entry is not None and not self.changed:
            return self.entry, None
        return F.build_source(self.entry, *self.texts())


class SourcesRow(FieldRow):
    """``sources``: a list of entries that can be added, edited and removed."""

    DEFAULT_CSS = """
    .me-sources {
        height: auto;
    }

    .me-source {
        height: auto;
        margin-bottom: 1;
        padding-left: 1;
        border-left: outer $primary 40%;
    }

    .me-source.-invalid {
        border-left: outer $error;
    }

    .me-source .me-source-title {
        width: 2fr;
    }

    .me-source .me-source-id {
        width: 1fr;
        margin-left: 1;
    }
    """

    def __init__(self, value: Any) -> None:
        super().__init__("sources")
        self.entries = list(value) if isinstance(value, list) else []
        self.initial_count = len(self.entries)

    def compose_editor(self) -> ComposeResult:
        with Vertical(classes="me-sources"):
            for number, entry in enumerate(self.entries, start=1):
                yield SourceRow(entry, number)
        yield Button("+ Add source", compact=True, classes="me-add", id="add-source")

    @property
    def editor(self) -> Widget:
        rows = self.rows()
        return rows[0].query_one(Input) if rows else self.query_one("#add-source")

    def rows(self) -> list[SourceRow]:
        """The entries shown (not one on its way out, nor one still being built)."""
        return [row for row in self.query(SourceRow) if not row.removing and row.children]

    def text(self) -> str:
        return "\n".join("\t".join(r.texts()) for r in self.rows())

    @property
    def changed(self) -> bool:
        rows = self.rows()
        return len(rows) != self.initial_count or any(
            row.entry is None or row.changed for row in rows
        )

    def parse(self) -> tuple[Any, str | None]:
        entries, first_error = [], None
        for row in self.rows():
            entry, error = row.value()
            entries.append(entry)
            if error and first_error is None:
                first_error = f"source {row.number}: {error}"
        if first_error is None:
            duplicates = F.duplicate_ids(entries)
            if duplicates:
                i = min(duplicates)
                first_error = f"source {self.rows()[i].number}: {duplicates[i]}"
        if first_error:
            return None, first_error
        return (entries if entries else F.REMOVE), None

    def check(self, *, show: bool) -> str | None:
        """Check every entry; show each one's error at it (when ``show`` or already shown)."""
        rows = self.rows()
        entries, errors = [], []
        for row in rows:
            entry, error = row.value()
            entries.append(entry)
            errors.append(error)
        for i, error in F.duplicate_ids(entries).items():
            errors[i] = errors[i] or error
        for row, error in zip(rows, errors, strict=True):
            if error is None or show or row.error:
                row.show_error(error)
        first = next((e for e in errors if e), None)
        self.set_class(first is not None or bool(self.error), "-invalid")
        return first

    def edited(self) -> None:
        self.error = None  # a message about the whole list goes with the next edit
        self.check(show=False)
        self.refresh_info()
        self.refresh_changed()
        self.post_message(self.Edited(self))

    def notes(self) -> list[tuple[str, str]]:
        if not self.rows():
            return [("hint", "no sources yet: where this knowledge comes from (ctrl+n adds one)")]
        return [("hint", "each needs a resource; title and id are optional · ctrl+n adds one")]

    async def add_source(self) -> SourceRow:
        """Add an empty entry at the end and focus its resource."""
        number = max((r.number for r in self.rows()), default=0) + 1
        row = SourceRow(None, number)
        await self.query_one(".me-sources").mount(row)
        self.edited()
        row.query_one(Input).focus()
        self.screen.scroll_to_widget(row, animate=False)
        return row

    def first_invalid(self) -> Widget:
        for row in self.rows():
            if row.has_class("-invalid"):
                return row.query_one(Input)
        return self.editor

    def focus_editor(self) -> None:
        target = self.first_invalid()
        target.focus()
        self.screen.scroll_to_widget(target, animate=False)

    @on(Button.Pressed, "#add-source")
    async def _add(self, event: Button.Pressed) -> None:
        event.stop()
        await self.add_source()

    @on(Button.Pressed, ".me-remove")
    async def _remove(self, event: Button.Pressed) -> None:
        event.stop()
        for row in event.button.ancestors:
            if isinstance(row, SourceRow):
                row.removing = True
                await row.remove()
                break
        self.edited()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.edited()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if isinstance(event.widget, Input):
            self.check(show=True)


class HistoryView(Static):
    """``generated`` and ``verified`` as read-only history: who, when."""

    def show(self, rows: list[tuple[str, str, str]]) -> None:
        if not rows:
            self.update(Text("never generated or verified (V verifies in the main view)", "dim"))
            return
        text = Text()
        width = max(len(who) for _, who, _ in rows) + 2
        for what, who, when in rows:
            if text:
                text.append("\n")
            text.append(f"{what:<10}", "dim")
            text.append(f"{who or '?':<{width}}", "bold")
            text.append(when, "dim")
        self.update(text)
