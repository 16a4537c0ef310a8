"""Bulk edit: filter the documents, select some, change one field or tag on all of them.

A full screen over the headless :mod:`kas_tui.features.bulk_edit` core:

- on top, the filters (type, tag, status, trust tier, staleness, a text over title and
  path) with the values the package holds;
- in the middle, the documents that match, with a mark on the selected ones (space
  toggles, ``a`` selects every match, ``n`` none). The selection survives a change of
  filter, and the table's title says how many selected documents it hides;
- below, the change (add tag, remove tag, set field, remove field) and what it will do.

``p`` previews: every file's diff, computed without writing, in a modal that lists the
files on the left and shows the diffs on the right. ``y`` there writes them all as one
action (one ``ctrl+z``), logged in ``log.md``.

A very large match fills the table with the first :data:`ROW_LIMIT` rows only and says
so; selecting all and the change itself still cover every match.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.suggester import SuggestFromList
from textual.timer import Timer
from textual.widgets import (
    Button,
    DataTable,
    Header,
    Input,
    Label,
    Select,
    Static,
)
from textual.worker import get_current_worker

from kas_tui.features.bulk_edit import (
    BulkError,
    Choices,
    Filter,
    Operation,
    Preview,
    choices,
    filter_documents,
    plan,
    preview,
    still_missing,
    suggested_values,
    typed_operation,
)
from kas_tui.text.wording import counted
from kas_tui.tui.edit_outcome import EditDecided
from kas_tui.tui.palette import trust_text
from kas_tui.tui.screens.bulk_fields import (
    MARK,
    NO_MARK,
    STATUS_STYLE,
    change_fields,
    filter_fields,
    staleness_cell,
)
from kas_tui.tui.screens.bulk_preview import BulkPreviewScreen
from kas_tui.tui.screens.kas_screen import KasScreen
from kas_tui.tui.widgets.footer import KasFooter

if TYPE_CHECKING:
    from textual.app import App

    from kas_tui.core.package import Package
    from kas_tui.core.records import Document

#: Rows put in the table at most; the rest are counted, selectable with ``a`` and edited.
ROW_LIMIT = 1_000
#: From this many columns wide the table also shows tags and path (narrower, the title
#: takes their room: the staleness column was cut at 80 columns).
ALL_COLUMNS_FROM = 140
#: Seconds the text filter waits for the typing to pause.
TYPING_PAUSE = 0.15


class _Cancelled(Exception):
    """The preview was abandoned (the screen closed)."""


class BulkScreen(KasScreen[None]):
    """Filter, select and change many documents at once (see the module docstring)."""

    CSS_PATH = "bulk.tcss"
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("space", "toggle", "Select", key_display="space"),
        Binding("a", "select_all", "All"),
        Binding("n", "select_none", "None"),
        Binding("p", "preview", "Preview"),
        Binding("slash", "focus_text", "Filter", key_display="/"),
        Binding("ctrl+z", "undo", "Undo", key_display="^z"),
        Binding("ctrl+y", "redo", "Redo", show=False),
    ]

    dirty = False  # nothing typed here is lost on leaving: the files are written or not

    def __init__(self, paths: Iterable[str] | None = None) -> None:
        super().__init__()
        self.selected: dict[str, None] = dict.fromkeys(paths or ())
        self.matches: list[Document] = []
        self.shown: list[str] = []  # the paths in the table, in row order
        self.busy = False
        self._typing: Timer | None = None
        self._choices: Choices | None = None
        self._width = 0
        self._path_width = 40
        self._all_columns = True

    # -- the app's package ----------------------------------------------------------

    @property
    def package(self) -> Package:
        return self.kas.package

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        found = self._choices = choices(self.package, self.kas.today)
        yield Header()
        with Horizontal(id="bulk-filters") as filters:
            filters.border_title = "Filter"
            yield from filter_fields(found)
        table: DataTable = DataTable(id="bulk-table", cursor_type="row", zebra_stripes=True)
        yield table
        with Horizontal(id="bulk-change") as change:
            change.border_title = "Change the selected documents"
            yield from change_fields(found)
        yield Static(id="bulk-summary")
        yield KasFooter()

    def on_mount(self) -> None:
        self.title = "Bulk edit"
        self.sub_title = self.package.name
        self._columns(self.app.size.width)
        self._operation_changed()
        self.refilter()
        self.query_one("#bulk-table").focus()

    def _columns(self, width: int) -> None:
        """(Re)make the columns so that the table fits ``width`` without scrolling sideways:
        below :data:`ALL_COLUMNS_FROM` columns, tags and path give way to the title (the
        path shows in the preview, tags in the filter)."""
        self._width = width
        fixed = 1 + 12 + 10 + 10 + 11  # mark, type, status, trust, staleness
        self._all_columns = width >= ALL_COLUMNS_FROM
        columns = 8 if self._all_columns else 6
        flexible = max(12, width - 4 - 2 * columns - fixed)  # frame, scrollbar, padding
        self._path_width = flexible * 36 // 100
        title = flexible * 40 // 100 if self._all_columns else flexible
        table = self.query_one("#bulk-table", DataTable)
        table.clear(columns=True)
        table.add_column(Text("✓"), key="mark", width=1)
        table.add_column("Title", key="title", width=title)
        table.add_column("Type", key="type", width=12)
        table.add_column("Status", key="status", width=10)
        table.add_column("Trust", key="trust", width=10)
        table.add_column("Staleness", key="staleness", width=11)
        if self._all_columns:
            table.add_column("Tags", key="tags", width=flexible - title - self._path_width)
            table.add_column("Path", key="path", width=self._path_width)

    def on_resize(self) -> None:
        # below 110 columns the six filters sit in two rows of three, each wide enough
        self.set_class(self.app.size.width < 110, "-narrow")
        if self.is_mounted and self.app.size.width != self._width:
            self._columns(self.app.size.width)
            self._fill()

    # -- filtering ------------------------------------------------------------------

    def current_filter(self) -> Filter:
        def picked(selector: str) -> str | None:
            value = self.query_one(selector, Select).value
            return None if value is Select.NULL else str(value)

        return Filter(
            type=picked("#bulk-type"),
            tag=self.query_one("#bulk-tag", Input).value.strip() or None,
            status=picked("#bulk-status"),
            trust=picked("#bulk-trust"),
            staleness=picked("#bulk-staleness"),
            text=self.query_one("#bulk-text", Input).value,
        )

    def refilter(self) -> None:
        """Match the filter against the package again and refill the table."""
        self.matches = filter_documents(self.package, self.current_filter(), self.kas.today)
        self._fill()

    def _fill(self) -> None:
        table = self.query_one("#bulk-table", DataTable)
        today = self.kas.today
        cursor = self.shown[table.cursor_row] if 0 <= table.cursor_row < len(self.shown) else None
        table.clear()
        rows = self.matches[:ROW_LIMIT]
        self.shown = [doc.path for doc in rows]
        for doc in rows:
            cells = [
                MARK if doc.path in self.selected else NO_MARK,
                Text(doc.title, no_wrap=True, overflow="ellipsis"),
                Text(doc.type or "(none)", "bold" if doc.type else "red"),
                Text(doc.status, STATUS_STYLE.get(doc.status, "")),
                trust_text(doc.trust_tier, short=True),
                staleness_cell(doc, today),
            ]
            if self._all_columns:
                cells.append(
                    Text(", ".join(doc.tags), "magenta", no_wrap=True, overflow="ellipsis")
                )
                cells.append(self._path_cell(doc.path))
            table.add_row(*cells, key=doc.path)
        if cursor in self.shown:
            table.move_cursor(row=self.shown.index(cursor), animate=False)
        self._counts()

    def _path_cell(self, path: str) -> Text:
        """The path, cut at the left when too long (the file name matters most)."""
        width = self._path_width
        if len(path) > width:
            path = "…" + path[len(path) - width + 1 :]
        folder, _, name = path.rpartition("/")
        return Text.assemble((folder + "/" if folder else "", "bright_black"), name)

    def _counts(self) -> None:
        """The table's title and the summary: what is shown, selected and hidden."""
        table = self.query_one("#bulk-table", DataTable)
        total = len(self.package.documents)
        matched = len(self.matches)
        title = f"Documents · {matched:,} of {total:,} match"
        if matched > len(self.shown):
            title += f" · showing the first {len(self.shown):,}"
        table.border_title = title
        selected = len(self.selected)
        matching = {doc.path for doc in self.matches}
        hidden = sum(1 for path in self.selected if path not in matching)
        subtitle = f"{selected:,} selected"
        if hidden:
            subtitle += f" ({hidden:,} hidden by the filter)"
        table.border_subtitle = subtitle
        self._describe()

    @on(Select.Changed, "#bulk-filters Select")
    def _select_changed(self) -> None:
        self.refilter()

    @on(Input.Changed, "#bulk-tag, #bulk-text")
    def _typed(self) -> None:
        if self._typing is not None:
            self._typing.stop()
        self._typing = self.set_timer(TYPING_PAUSE, self.refilter)

    @on(Input.Submitted, "#bulk-tag, #bulk-text")
    def _filter_submitted(self) -> None:
        if self._typing is not None:
            self._typing.stop()
        self.refilter()
        self.query_one("#bulk-table").focus()

    # -- selecting ------------------------------------------------------------------

    def _mark(self, path: str) -> None:
        if path in self.shown:
            self.query_one("#bulk-table", DataTable).update_cell(
                path, "mark", MARK if path in self.selected else NO_MARK
            )

    def action_toggle(self) -> None:
        table = self.query_one("#bulk-table", DataTable)
        if not self.shown or not 0 <= table.cursor_row < len(self.shown):
            return
        path = self.shown[table.cursor_row]
        if path in self.selected:
            del self.selected[path]
        else:
            self.selected[path] = None
        self._mark(path)
        if table.cursor_row < len(self.shown) - 1:
            table.move_cursor(row=table.cursor_row + 1)
        self._counts()

    @on(DataTable.RowSelected, "#bulk-table")
    def _row_selected(self) -> None:
        self.action_toggle()

    def action_select_all(self) -> None:
        """Select every document the filter matches (beyond the rows shown, too)."""
        for doc in self.matches:
            self.selected[doc.path] = None
        self._remark()
        if len(self.matches) > len(self.shown):
            self.notify(f"Selected all {len(self.matches):,} matching documents", timeout=3)

    def action_select_none(self) -> None:
        self.selected.clear()
        self._remark()

    def _remark(self) -> None:
        table = self.query_one("#bulk-table", DataTable)
        for path in self.shown:
            table.update_cell(path, "mark", MARK if path in self.selected else NO_MARK)
        self._counts()

    def action_focus_text(self) -> None:
        self.query_one("#bulk-text", Input).focus()

    # -- the change -----------------------------------------------------------------

    @property
    def op_kind(self) -> str:
        return str(self.query_one("#bulk-op", Select).value)

    @on(Select.Changed, "#bulk-op")
    def _operation_changed(self) -> None:
        kind = self.op_kind
        tags = kind in ("add_tag", "remove_tag")
        found = self._choices
        self.query_one("#bulk-key-field").display = not tags
        value_field = self.query_one("#bulk-value-field")
        value_field.display = kind != "remove_field"
        value = self.query_one("#bulk-value", Input)
        value_field.query_one(Label).update("Tag" if tags else "Value")
        value.placeholder = "tag" if tags else "value: text, 12, true, 2027-03-01, [a, b]"
        if tags and found is not None:
            value.suggester = SuggestFromList([t for t, _ in found.tags], case_sensitive=False)
        else:
            self._value_suggestions()
        self._describe()

    @on(Input.Changed, "#bulk-key, #bulk-value")
    def _change_typed(self, event: Input.Changed) -> None:
        if event.input.id == "bulk-key" and self.op_kind == "set_field":
            self._value_suggestions()
        self._describe()

    def _value_suggestions(self) -> None:
        key = self.query_one("#bulk-key", Input).value
        values = suggested_values(self.package, key, self._choices)
        self.query_one("#bulk-value", Input).suggester = (
            SuggestFromList(values, case_sensitive=False) if values else None
        )

    def _change_as_typed(self) -> tuple[str, str, str]:
        """The change's kind, field and value as typed."""
        key = self.query_one("#bulk-key", Input).value
        return self.op_kind, key, self.query_one("#bulk-value", Input).value

    def operation(self) -> Operation:
        """The change as typed; :class:`BulkError` says what is missing or wrong."""
        return typed_operation(*self._change_as_typed())

    def _describe(self) -> None:
        """Say, under the change, what p would do (or what is still missing)."""
        summary = self.query_one("#bulk-summary", Static)
        count = len(self.selected)
        text = Text()
        missing = still_missing(*self._change_as_typed())
        try:
            op = self.operation()
        except BulkError as exc:
            if missing:
                text.append("▸ ", "bold yellow")
                text.append(missing)
            else:
                text.append("✗ ", "bold red")
                text.append(exc.message, "red")
        else:
            if not count:
                text.append("Select documents: ", "bold")
                text.append("space toggles the row, a selects every match, n none.")
            else:
                text.append("p ", "bold reverse")
                text.append(f" preview: {op.describe()} in ")
                text.append(counted(count, "selected document"), "bold")
                text.append(". Every diff is shown before anything is written.")
        summary.update(text)

    # -- preview and write ----------------------------------------------------------

    @on(Button.Pressed, "#bulk-preview")
    def _preview_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_preview()

    @on(Input.Submitted, "#bulk-key, #bulk-value")
    def _change_submitted(self) -> None:
        self.action_preview()

    def action_preview(self) -> None:
        if self.busy:
            return
        try:
            op = self.operation()
        except BulkError as exc:
            self.notify(exc.message, title="Cannot preview", severity="warning")
            return
        paths = sorted(p for p in self.selected if p in self.package.documents)
        if not paths:
            self.notify(
                "Select documents first: space toggles a row, a selects every match",
                severity="warning",
            )
            return
        self.busy = True
        self.query_one("#bulk-summary", Static).update(
            Text(f"Previewing {counted(len(paths), 'file')}…", "bold")
        )
        self._compute_preview(op, paths)

    @work(thread=True, exclusive=True, group="bulk-preview")
    def _compute_preview(self, op: Operation, paths: list[str]) -> None:
        worker = get_current_worker()
        step = max(1, len(paths) // 50)

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise _Cancelled  # stops between two files; editing.preview restores the store
            if done % step == 0:
                self.app.call_from_thread(
                    self.query_one("#bulk-summary", Static).update,
                    Text(f"Previewing {done:,} of {total:,} files…", "bold"),
                )

        try:
            result = preview(self.package, paths, op, progress=progress)
        except _Cancelled:
            return
        except BulkError as exc:
            self.app.call_from_thread(self._preview_failed, exc.message)
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show_preview, op, result)

    def _preview_failed(self, message: str) -> None:
        self.busy = False
        self._describe()
        self.notify(message, title="Cannot preview", severity="error")

    def _show_preview(self, op: Operation, result: Preview) -> None:
        self.busy = False
        self._describe()
        title = f"Bulk edit: {op.describe()}"

        def decided(write: bool | None) -> None:
            if write:
                self._write(op, result)

        self.app.push_screen(BulkPreviewScreen(title, result), decided)

    def _write(self, op: Operation, result: Preview) -> None:
        paths = [p for p in result.changed if p in self.package.documents]
        if not paths:
            self.notify("Nothing to change", timeout=2)
            return
        try:
            edit = plan(self.package, paths, op)
        except BulkError as exc:
            self.notify(exc.message, title="Not saved", severity="error")
            return
        count = len(paths)
        self.busy = True
        self.query_one("#bulk-summary", Static).update(
            Text(f"Writing {counted(count, 'file')}…", "bold")
        )

        def run() -> None:  # after the message is drawn: run_edit holds the screen meanwhile
            self.busy = False
            outcome = self.kas.run_edit(
                f"{op.describe()} in {counted(count, 'document')}",
                edit,
                log=op.log_message(count),
                based_on={p: result.bases[p] for p in paths if p in result.bases},
            )
            if outcome.saved:
                self.after_write()

        self.call_after_refresh(run)

    def on_edit_decided(self, message: EditDecided) -> None:
        self.after_write()  # saved on top, kept or reloaded: the files may have changed

    def after_write(self) -> None:
        """The package was re-read file by file: show it again."""
        self._choices = choices(self.package, self.kas.today)
        for selector in ("#bulk-tag", "#bulk-value"):
            widget = self.query_one(selector, Input)
            if selector == "#bulk-tag" or self.op_kind in ("add_tag", "remove_tag"):
                widget.suggester = SuggestFromList(
                    [t for t, _ in self._choices.tags], case_sensitive=False
                )
        self.selected = {p: None for p in self.selected if p in self.package.documents}
        self.refilter()

    # -- undo, leaving --------------------------------------------------------------

    def action_undo(self) -> None:
        if not self.busy:
            self.kas.action_undo()
            self.after_write()

    def action_redo(self) -> None:
        if not self.busy:
            self.kas.action_redo()
            self.after_write()

    def action_close(self) -> None:
        if self.busy:
            self.workers.cancel_group(self, "bulk-preview")
            self.busy = False
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("preview", "select_all", "select_none", "toggle") and self.busy:
            return None
        return True


def open_bulk_editor(app: App, paths: list[str] | None = None) -> None:
    """Push the bulk editor (``paths``: documents to start selected)."""
    if any(isinstance(screen, BulkScreen) for screen in app.screen_stack):
        return
    app.push_screen(BulkScreen(paths))
