"""The frontmatter editor: a form with one typed input per field, and the raw YAML a key away.

A save is one undoable, logged action (``app.run_edit``) that patches exactly the fields
that changed (``kas_tui.core.editing.set_field``/``remove_field``), so every other byte of the
file stays as it was. Invalid values are marked at their field and block the save; a
refused save (read-only file, file gone, a value YAML cannot hold) keeps the screen and
the user's text. The YAML editor is for what the form cannot say: comments, nested
values, order; it is checked before it is written (``set_frontmatter_text``).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, ContentSwitcher, Static, TextArea
from textual.widgets.text_area import LanguageDoesNotExist, Selection

from kas_tui.core import form_fields as F
from kas_tui.core.editing import remove_field, set_field, set_frontmatter_text
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.tui.edit_outcome import EditDecided, EditOutcome, close_after_save
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.choose import ask_before_leaving
from kas_tui.tui.screens.form import FormScreen
from kas_tui.tui.screens.meta_rows import FormRows
from kas_tui.tui.widgets.fields import FieldRow, YamlRow
from kas_tui.tui.widgets.footer import KasFooter
from kas_tui.tui.widgets.provenance import SourcesRow
from kas_tui.tui.widgets.yaml_area import YamlArea

if TYPE_CHECKING:
    import datetime as dt

    from kas_tui.core.fileio import Fingerprint
    from kas_tui.core.package import Package


def open_meta_editor(app: Any, path: str) -> None:
    """Open the frontmatter editor for document ``path`` (root-relative) over the app."""
    package: Package = app.package
    if path not in package.documents:
        app.notify(f"{path} is not a document of this package", severity="warning")
        return
    try:
        text, base = package.read_for_edit(path)
        F.frontmatter_text(text)
    except (OSError, FormatError) as exc:  # unreadable, not UTF-8, a block never closed
        reason = exc.located(path) if isinstance(exc, FormatError) else f"{path}: {exc}"
        app.notify(
            f"Cannot edit {reason}. Fix it in your editor (E) first.",
            title="Not opened",
            severity="error",
            timeout=8,
        )
        return
    app.push_screen(MetaEditor(path, text, package, today=app.today, base=base))


class MetaEditor(FormScreen[bool]):
    """Edit the frontmatter of one document; dismisses with ``True`` once saved."""

    CSS_PATH = ["form.tcss", "meta_editor.tcss"]
    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+r", "toggle_raw", "Form/YAML"),
        Binding("ctrl+n", "add_source", "Add source"),
        Binding("escape", "close", "Close"),
    ]

    def __init__(
        self,
        path: str,
        text: str,
        package: Package,
        *,
        today: dt.date,
        base: Fingerprint | None = None,
    ) -> None:
        super().__init__()
        self.path = path
        self.today = today
        self.base = base  # the file as the editor read it: a save over a later change conflicts
        docs = package.documents.values()
        self.types = F.by_use([d.type for d in docs])
        self.tags = F.by_use([t for d in docs for t in d.tags])
        self.rules = package.usable_house_rules()  # the package's own rules, if any
        if self.rules is not None:  # its lists first: what the package allows
            self.types, self.tags = self.rules.allowed_first(self.types, self.tags)
        disk_yaml = F.frontmatter_text(text) or ""  # no block yet: the first save adds one
        self.disk_yaml = disk_yaml
        meta, error, line = F.parse_block(disk_yaml)
        self.disk_meta: dict[str, Any] | None = meta
        self.open_error = (error, line) if error else None
        self.base_yaml = disk_yaml  # what the form's changes apply to (moves on a raw edit)
        self.base_meta: dict[str, Any] = meta or {}
        self.raw_mode = self.disk_meta is None
        self.raw_entered = disk_yaml  # the YAML editor's text when it was opened
        self.saved = False
        self._refresh_pending = False
        self._message = ""  # why the last save was refused; shown until the next edit

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="me-box"):
            with Horizontal(id="me-bar"):
                yield Static(id="me-path")
                yield Button("Form", id="me-tab-form", compact=True)
                yield Button("YAML", id="me-tab-raw", compact=True)
            with ContentSwitcher(
                initial="me-raw" if self.raw_mode else "me-form", id="me-switcher"
            ):
                with VerticalScroll(id="me-form"), Vertical(id="me-fields"):
                    yield from self.build_rows(self.base_meta)
                with Vertical(id="me-raw"):
                    yield self._yaml_area()
                    yield Static(id="me-raw-help")
                    yield Static(id="me-raw-error")
            with Horizontal(id="me-actions"):
                yield Static(id="me-status")
                yield Button("Save", variant="primary", id="me-save", compact=True)
                yield Button("Cancel", id="me-cancel", compact=True)
        yield KasFooter()

    def _yaml_area(self) -> TextArea:
        area = YamlArea(
            self.disk_yaml,
            id="me-yaml",
            soft_wrap=True,
            show_line_numbers=True,
            tab_behavior="indent",
        )
        area.indent_width = 2
        if "yaml" in area.available_languages:  # textual[syntax] installed
            with contextlib.suppress(LanguageDoesNotExist):  # tree-sitter without the grammar
                area.language = "yaml"
        return area

    def build_rows(self, meta: dict[str, Any]) -> list[Widget]:
        """The form for ``meta`` (see :mod:`.meta_rows`)."""
        rows = FormRows(
            types=self.types,
            tags=self.tags,
            today=self.today,
            rules=self.rules,
            title_now=self._title_now,
        )
        return rows.rows(meta)

    def _title_now(self) -> str:
        row = self.row("title") if self.is_mounted else None
        return row.text() if row is not None else str(self.base_meta.get("title") or "")

    def on_mount(self) -> None:
        self.query_one("#me-box").border_subtitle = "ctrl+s save · ctrl+r YAML · esc close"
        self.query_one("#me-tab-form").can_focus = False
        self.query_one("#me-tab-raw").can_focus = False
        self.query_one("#me-path", Static).update(Text(self.path))
        self.query_one("#me-raw-error").display = False
        self.query_one("#me-raw-help", Static).update(
            Text(
                "The YAML between the --- lines, for what the form cannot say "
                "(comments, nesting, order). ctrl+r: the form · ctrl+s: check and save",
                "dim",
            )
        )
        for row in self.rows():
            row.check(show=True)  # problems the file already has are shown, not blocking
        if self.raw_mode and self.open_error:
            self.show_raw_error(*self.open_error, opening=True)
        self.refresh_state()
        self.call_after_refresh(self._focus_start)

    def _focus_start(self) -> None:
        if self.raw_mode:
            self.query_one("#me-yaml").focus()
        else:
            rows = self.rows()
            if rows:
                rows[0].editor.focus()

    # -- state ----------------------------------------------------------------------

    def raw_text(self) -> str:
        return self.query_one("#me-yaml", TextArea).text

    @property
    def raw_edited(self) -> bool:
        return self.raw_mode and self.raw_text() != self.raw_entered

    @property
    def dirty(self) -> bool:
        """Whether leaving now would lose changes (the app asks before quitting)."""
        if self.saved:
            return False
        return (
            self.raw_edited
            or self.base_yaml != self.disk_yaml
            or any(row.changed for row in self.rows())
        )

    def collect(self) -> tuple[list[tuple[str, Any]], list[tuple[FieldRow, str]]]:
        """The changed fields as ``(key, value)``, and the changed rows that are invalid."""
        changes, invalid = [], []
        for row in self.rows():
            if not row.changed:
                continue
            value, error = row.parse()
            if error:
                invalid.append((row, error))
            elif value is F.REMOVE and row.key not in self.base_meta:
                continue  # emptied a field that was never there
            else:
                changes.append((row.key, value))
        return changes, invalid

    def refresh_state(self) -> None:
        """The title's modified mark, the status line and the tabs."""
        dirty = self.dirty
        box = self.query_one("#me-box")
        title = Text("Frontmatter")
        if dirty:
            title.append(" ● modified", "bold yellow")
        if str(box.border_title) != title.plain:
            box.border_title = title
        for tab, active in (("#me-tab-form", not self.raw_mode), ("#me-tab-raw", self.raw_mode)):
            button = self.query_one(tab)
            if button.has_class("-active") != active:
                button.set_class(active, "-active")
        if self._message:
            self.set_status(self._message, error=True)
            return
        if self.raw_mode:
            if self.raw_edited:
                state = "YAML edited: ctrl+s checks and saves it, ctrl+r shows it as the form"
            elif self.raw_entered != self.disk_yaml:
                state = "The YAML with the form's changes (not saved yet)"
            else:
                state = "The YAML as in the file"
            self.set_status(state)
            return
        changes, invalid = self.collect()
        parts = []
        if changes:
            parts.append(f"{len(changes)} field{'s' * (len(changes) != 1)} changed")
        elif self.base_yaml != self.disk_yaml:
            parts.append("changed in the YAML editor")
        if invalid:
            parts.append(f"{len(invalid)} invalid")
        self.set_status(" · ".join(parts) if parts else "No changes", error=bool(invalid))

    @on(FieldRow.Edited)
    def _edited(self, event: FieldRow.Edited) -> None:
        event.stop()
        self._message = ""
        if event.row.key == "title":  # a description repeating the title says nothing
            description = self.row("description")
            if description is not None:
                description.refresh_info()
        self.refresh_soon()

    @on(TextArea.Changed, "#me-yaml")
    def _raw_changed(self) -> None:
        self.query_one("#me-raw-error").display = False
        self._message = ""
        self.refresh_soon()

    # -- actions --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The form's own keys are hidden (and do nothing) in the YAML editor."""
        return not (action == "add_source" and self.raw_mode)

    async def action_add_source(self) -> None:
        row = self.row("sources")
        if isinstance(row, SourcesRow) and not self.raw_mode:
            await row.add_source()

    @on(Button.Pressed, "#add-field")
    def _add_field(self, event: Button.Pressed) -> None:
        event.stop()
        existing = [r.key for r in self.rows()]

        async def named(key: str | None) -> None:
            if not key:
                return
            row = YamlRow(key.strip(), None, new=True)
            await self.query_one("#me-fields").mount(row, before="#add-field")
            row.focus_editor()
            self.refresh_state()

        self.app.push_screen(
            AskScreen(
                "Add a field",
                "The new field's name (a key of the frontmatter):",
                check=lambda text: F.check_key(text, existing),
                placeholder="owner",
            ),
            named,
        )

    @on(Button.Pressed, "#me-save")
    def _save_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_save()

    @on(Button.Pressed, "#me-cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_close()

    @on(Button.Pressed, "#me-tab-form")
    async def _tab_form(self, event: Button.Pressed) -> None:
        event.stop()
        if self.raw_mode:
            await self.action_toggle_raw()

    @on(Button.Pressed, "#me-tab-raw")
    async def _tab_raw(self, event: Button.Pressed) -> None:
        event.stop()
        if not self.raw_mode:
            await self.action_toggle_raw()

    def action_close(self) -> None:
        ask_before_leaving(
            self, f"The frontmatter of {self.path}", self.action_save, closed=self.saved
        )

    # -- form and YAML --------------------------------------------------------------

    async def action_toggle_raw(self) -> None:
        area = self.query_one("#me-yaml", TextArea)
        switcher = self.query_one(ContentSwitcher)
        if not self.raw_mode:
            text = self._form_as_yaml()
            if text is None:
                return
            self.raw_entered = text
            area.load_text(text)
            self.raw_mode = True
            self.refresh_bindings()
            switcher.current = "me-raw"
            self.query_one("#me-raw-error").display = False
            area.focus()
            self.refresh_state()
            return
        text = area.text
        if text != self.raw_entered:
            data, error, line = F.parse_block(text)
            if error:
                self.show_raw_error(error, line)
                return
            assert data is not None
            self.base_yaml, self.base_meta = text, data
            await self.rebuild(data)
        elif self.disk_meta is None and self.base_yaml == self.disk_yaml:
            error, line = self.open_error or ("the YAML cannot be read", None)
            self.show_raw_error(error, line)
            return
        self.raw_mode = False
        self.refresh_bindings()
        switcher.current = "me-form"
        self.refresh_state()
        self.call_after_refresh(self._focus_start)

    def _form_as_yaml(self) -> str | None:
        """The YAML the form would save (``None``, with the field marked, when it cannot)."""
        changes, invalid = self.collect()
        if invalid:
            self._refuse(invalid, "fix the marked field before switching to YAML")
            return None
        try:
            return F.apply_changes(self.base_yaml, changes)
        except (EditError, FormatError) as exc:
            self._refuse_key(exc)
            return None

    async def rebuild(self, meta: dict[str, Any]) -> None:
        """Show the form for ``meta`` (after a YAML edit), marking what differs from the file."""
        fields = self.query_one("#me-fields")
        await fields.remove_children()
        await fields.mount_all(self.build_rows(meta))
        disk = self.disk_meta or {}
        for row in self.rows():
            row.from_disk_changed = (row.key in disk) != (row.key in meta) or disk.get(
                row.key
            ) != meta.get(row.key)
            row.refresh_changed()
            row.check(show=True)

    def show_raw_error(self, error: str, line: int | None, *, opening: bool = False) -> None:
        where = f"line {line}: " if line else ""
        prefix = "This frontmatter cannot be read, so the form cannot show it. " if opening else ""
        shown = self.query_one("#me-raw-error", Static)
        shown.update(Text(f"✗ {prefix}{where}{error}"))
        shown.display = True
        self.set_status(
            f"YAML error{' on line ' + str(line) if line else ''}", error=True, sticky=True
        )
        if line:
            area = self.query_one("#me-yaml", TextArea)
            row = max(0, min(line - 1, area.document.line_count - 1))
            area.selection = Selection.cursor((row, 0))
            area.call_after_refresh(area.scroll_cursor_visible, center=True)

    # -- saving ---------------------------------------------------------------------

    def action_save(self) -> None:
        if self.raw_mode and self.raw_edited:
            self._save_raw(self.raw_text())
            return
        changes, invalid = self.collect()
        if invalid:
            self._refuse(invalid, "not saved")
            return
        if self.base_yaml != self.disk_yaml:  # the YAML editor changed the base
            try:
                final = F.apply_changes(self.base_yaml, changes)
            except (EditError, FormatError) as exc:
                self._refuse_key(exc)
                return
            self._save_raw(final)
            return
        if not changes:
            self.app.notify("Nothing to change", timeout=2)
            self.dismiss(False)
            return
        current = self._read_current()
        if current is None:
            return
        try:  # every change can be written before any is: no half-saved file
            F.apply_changes(current, changes)
        except (EditError, FormatError) as exc:
            self._refuse_key(exc)
            return
        keys = [key for key, _ in changes]
        path = self.path

        def edit(pkg: Package) -> None:
            for key, value in changes:
                if value is F.REMOVE:
                    remove_field(pkg, path, key)
                else:
                    set_field(pkg, path, key, value)

        self._run(
            f"edit {', '.join(keys)} of {path}",
            edit,
            f"Edited {', '.join(keys)} of {path}.",
        )

    def _save_raw(self, yaml_text: str) -> None:
        data, error, line = F.parse_block(yaml_text)
        if error:
            self.show_raw_error(error, line)
            return
        assert data is not None
        before = self.disk_meta or {}
        old_errors = F.check_meta(before)
        for key, message in F.check_meta(data).items():
            if key not in old_errors or data.get(key) != before.get(key):
                if self.raw_mode:
                    self.show_raw_error(f"{key}: {message}", None)
                else:
                    self._refuse_key(EditError(message, path=key))
                return
        if yaml_text == self.disk_yaml:
            self.app.notify("Nothing to change", timeout=2)
            self.dismiss(False)
            return
        if self._read_current() is None:
            return
        path = self.path
        self._run(
            f"edit the frontmatter of {path}",
            lambda pkg: set_frontmatter_text(pkg, path, yaml_text),
            f"Edited the frontmatter of {path}.",
        )

    def _read_current(self) -> str | None:
        """The frontmatter on disk now (``None``, with the reason shown, when it is gone)."""
        try:
            text = self.kas.package.read_text(self.path)
            return F.frontmatter_text(text) or ""
        except FileNotFoundError:
            self._not_saved(
                f"{self.path} was deleted or moved on disk; nothing was saved. "
                "Your changes are still here (ctrl+r shows them as YAML to copy)."
            )
        except (OSError, FormatError) as exc:
            self._not_saved(f"Cannot read {self.path} now: {exc}")
        return None

    def _run(self, label: str, edit: Any, log: str) -> None:
        based_on = {self.path: self.base} if self.base is not None else None
        self._after_save(self.kas.run_edit(label, edit, log=log, based_on=based_on))

    def on_edit_decided(self, message: EditDecided) -> None:
        self._after_save(message.outcome)

    def _after_save(self, outcome: EditOutcome) -> None:
        self.saved = self.saved or outcome.saved
        if close_after_save(self, outcome):
            return
        if outcome is EditOutcome.KEPT:
            self._not_saved("Not saved; your changes are still here.")
        elif not self.saved:  # refused, or a decision pending
            self._not_saved("Not saved (see the message); your changes are still here.")

    def _not_saved(self, message: str) -> None:
        self.set_status(message, error=True, sticky=True)
        if self.raw_mode:
            shown = self.query_one("#me-raw-error", Static)
            shown.update(Text(f"✗ {message}"))
            shown.display = True

    def _refuse(self, invalid: list[tuple[FieldRow, str]], what: str) -> None:
        for row, _ in invalid:
            row.check(show=True)
        row, error = invalid[0]
        row.focus_editor()
        self.set_status(f"{what.capitalize()}: {row.key}: {error}", error=True, sticky=True)

    def _refuse_key(self, exc: EditError | FormatError) -> None:
        key = getattr(exc, "path", None) or ""
        message = getattr(exc, "message", str(exc))
        row = self.row(key)
        if row is None or self.raw_mode:
            self._not_saved(f"Not saved: {message}")
            return
        row.show_error(message)
        row.focus_editor()
        self.set_status(f"Not saved: {key}: {message}", error=True, sticky=True)
