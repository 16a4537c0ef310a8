"""Step 3: the preview: the planned files, each one's form, entries and body; the write."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import (
    Button,
    ContentSwitcher,
    Markdown,
    OptionList,
    Static,
)

from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.tui.edit_outcome import EditDecided, EditOutcome
from kas_tui.tui.screens.choose import DiffScreen, ask_unsaved
from kas_tui.tui.screens.import_wizard.files import FilePicker
from kas_tui.tui.screens.import_wizard.labels import plural
from kas_tui.tui.screens.import_wizard.plan_form import FILE_KEY, PlanForm
from kas_tui.tui.screens.kas_screen import KasScreen
from kas_tui.tui.widgets.fields import FieldRow

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.features.importing import PlannedImport


#: Characters of a body rendered in the preview (a 300-page PDF would take seconds).
BODY_PREVIEW = 30_000

_GLYPHS = {
    "create": ("+", "bold green"),
    "update": ("↻", "bold cyan"),
    "unchanged": ("=", "bright_black"),
    "duplicate": ("≡", "bold yellow"),
    "failed": ("✗", "bold red"),
}


def _clip_body(body: str) -> str:
    if len(body) <= BODY_PREVIEW:
        return body
    cut = body.rfind("\n", 0, BODY_PREVIEW)
    cut = cut if cut > BODY_PREVIEW // 2 else BODY_PREVIEW
    rest = len(body) - cut
    return f"{body[:cut]}\n\n---\n\n*… {rest:,} more characters, written but not shown here.*\n"


class PlanList(OptionList):
    """The planned files of the preview."""

    BINDINGS = [
        Binding("space", "screen.toggle_skip", "Skip/include", key_display="space"),
        Binding("u", "screen.update_instead", "Update instead"),
        Binding("d", "screen.diff", "Diff"),
    ]


class PreviewStep(KasScreen[None]):
    """The wizard's third step (its state is the wizard's)."""

    def _to_write(self) -> list[PlannedImport]:
        return [p for n, p in enumerate(self.plans) if p.writes and n not in self.skipped]

    def _plan_label(self, number: int) -> Text:
        plan = self.plans[number]
        glyph, style = _GLYPHS.get(plan.action, ("?", ""))
        skipped = number in self.skipped or not plan.writes
        text = Text()
        text.append("○ " if skipped else "● ", "bright_black" if skipped else "bold green")
        text.append(f"{glyph} ", style)
        draft = plan.draft
        form = self._form(number)
        if form is not None and form.invalid():
            text.append("! ", "bold red")
        title = draft.title if draft is not None and plan.action == "create" else plan.source.name
        text.append(title, "strike bright_black" if number in self.skipped else "bold")
        text.append("\n    ")
        if plan.action == "create" and draft is not None:
            text.append(f"{plan.source.name} → {draft.slug}.md", "dim")
        elif plan.action == "failed":
            why = plan.message.split(": ", 1)[-1] if plan.message else "not converted"
            text.append(why, "red")
        elif plan.action == "duplicate" and plan.existing:
            text.append(f"already in the package as {plan.existing} · u updates it", "yellow")
        elif plan.action == "update" and plan.existing:
            text.append(f"updates {plan.existing}", "cyan")
        else:
            text.append(plan.message.split(": ", 1)[-1], "dim")
        if number in self.skipped:
            text.append("  (left out)", "bright_black")
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text

    def _relabel(self, number: int) -> None:
        self.query_one("#iw-plans", PlanList).replace_option_prompt_at_index(
            number, self._plan_label(number)
        )

    def _form(self, number: int) -> PlanForm | None:
        forms = self.query_one("#iw-forms", ContentSwitcher)
        found = forms.query(f"#iw-form-{number}")
        return found.first(PlanForm) if found else None

    @on(OptionList.OptionHighlighted, "#iw-plans")
    async def _plan_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        await self._show_plan(int(event.option.id or 0))

    async def _show_plan(self, number: int) -> None:
        if not 0 <= number < len(self.plans):
            return
        self._shown = number
        plan = self.plans[number]
        forms = self.query_one("#iw-forms", ContentSwitcher)
        if plan.action == "create" and plan.draft is not None:
            form = self._form(number)
            if form is None:
                form = PlanForm(number, plan.draft, self.types, self.tags, self.today)
                await forms.mount(form)
                for row in form.rows():
                    row.check(show=True)
            forms.current = form.id
            forms.border_title = "Frontmatter (drafted)"
        else:
            self.query_one("#iw-no-form-text", Static).update(self._no_form(plan))
            forms.current = "iw-no-form"
            forms.border_title = "Frontmatter"
        self._show_where(number)
        if self._body_of != number:
            self._body_of = number
            body = plan.draft.body if plan.draft is not None else ""
            markdown = self.query_one("#iw-body", Markdown)
            # a class, not display: the narrow layout hides the body pane in CSS too
            self.query_one("#iw-body-scroll").set_class(plan.draft is None, "-empty")
            markdown.update("" if plan.draft is None else _clip_body(body))
            self.query_one("#iw-body-scroll", VerticalScroll).scroll_home(animate=False)

    def _no_form(self, plan: PlannedImport) -> Text:
        if plan.action == "failed":
            return Text.assemble(
                ("✗ ", "bold red"),
                (plan.message or "not converted", "bold"),
                "\n\nNothing is drafted for this file; the other files are imported without it.",
            )
        if plan.action == "update":
            return Text(
                "An update of the existing document: its body and its source record are "
                "replaced from the file; its title, description, type and every other "
                "field the curator wrote are kept.\n\nu: do not update it after all."
            )
        if plan.action == "duplicate" and plan.existing:
            return Text.assemble(
                (plan.message, "yellow"),
                "\n\nu: update ",
                (plan.existing, "bold"),
                " from this file instead (its new body and source record; the "
                "curator's title, description and type are kept).",
            )
        return Text(plan.message or "Nothing to write for this file.")

    def shown_path(self, path: Path) -> str:
        """``path`` as the picker shows it: from where kas-tui started, else from home."""
        try:
            return path.relative_to(self.start).as_posix()
        except ValueError:
            pass
        try:
            return "~/" + path.relative_to(Path.home()).as_posix()
        except (ValueError, RuntimeError):
            return str(path)

    def _show_where(self, number: int) -> None:
        plan = self.plans[number]
        text = Text()
        if plan.action == "create" and plan.draft is not None:
            text.append(plan.draft.path, "bold")
            text.append("  ← ", "dim")
            text.append(self.shown_path(plan.source), "dim")
            if number in self.skipped:
                text.append("\nleft out: space includes it again", "yellow")
            else:
                for index, line in self._entries(plan):
                    text.append("\n")
                    text.append(f"+ {index}  ", "green")
                    text.append(line)
        elif plan.existing:
            text.append(plan.existing, "bold")
            text.append("  ← ", "dim")
            text.append(self.shown_path(plan.source), "dim")
        else:
            text.append(self.shown_path(plan.source), "bold")
        self.query_one("#iw-where", Static).update(text)

    def _entries(self, plan: PlannedImport) -> list[tuple[str, str]]:
        from kas_tui.features.importing import ImportFailed, preview_import

        todo = self._to_write()
        try:
            # as the whole import writes them: a new bundle's entry counts all its files
            preview = preview_import(self.package, todo if plan in todo else [*todo, plan])
        except (ImportFailed, EditError, FormatError, ValueError, OSError) as exc:
            return [("index.md", f"(the entry cannot be drafted: {exc})")]
        return [(entry.index, entry.line) for entry in preview.entries_for(plan)]

    @on(FieldRow.Edited)
    def _field_edited(self, event: FieldRow.Edited) -> None:
        event.stop()
        form = next((a for a in event.row.ancestors if isinstance(a, PlanForm)), None)
        if form is None:
            return
        if event.row.key == "title":
            description = form.row("description")
            if description is not None:
                description.refresh_info()
        if not self._sync_pending:
            self.call_after_refresh(self._sync_forms)
        self._sync_pending.add(form.number)

    def _sync_forms(self) -> None:
        """Carry the forms' valid values into their drafts; show what cannot be."""
        pending, self._sync_pending = self._sync_pending, set()
        for number in pending:
            form = self._form(number)
            if form is None:
                continue
            for row in form.rows():
                value, error = row.parse()
                if error:
                    continue
                if row.key == FILE_KEY:
                    self._rename(form, row, value)
                    continue
                try:
                    form.draft.set_field(row.key, value)
                except (EditError, FormatError, ValueError) as exc:
                    row.show_error(getattr(exc, "message", str(exc)))
            self._relabel(number)
            if number == self._shown:
                self._show_where(number)
        self.error = ""
        self._refresh_summary()

    def _rename(self, form: PlanForm, row: FieldRow, slug: str) -> None:
        """Give the drafted document the file name ``slug``, when it is free."""
        from kas_tui.features.importing.importer import rename

        writing = [p for n, p in enumerate(self.plans) if n not in self.skipped]
        problem = rename(self.package, writing, self.plans[form.number], slug)
        if problem:
            row.show_error(problem)

    def _refresh_summary(self) -> None:
        counts = Counter(p.action for p in self.plans)
        writing = self._to_write()
        text = Text()
        if self.error:
            text.append(f"✗ {self.error}", "bold red")
        else:
            parts = []
            for action, label in (
                ("create", "new"),
                ("update", "to update"),
                ("duplicate", "already imported"),
                ("unchanged", "unchanged"),
                ("failed", "failed"),
            ):
                if counts[action]:
                    parts.append(f"{counts[action]} {label}")
            if self.skipped:
                parts.append(f"{len(self.skipped)} left out")
            text.append(" · ".join(parts) or "no files")
            invalid = [n for n in range(len(self.plans)) if (f := self._form(n)) and f.invalid()]
            if invalid:
                text.append(f" · {plural(len(invalid), 'draft')} with an invalid field", "red")
            elif writing:
                text.append(
                    f" · ctrl+s writes {plural(len(writing), 'document')} into "
                    f"{self._bundle_name(self.target)}; ctrl+z undoes it all",
                    "dim",
                )
            else:
                text.append(" · nothing to write", "yellow")
        self.query_one("#iw-summary", Static).update(text)
        button = self.query_one("#iw-write", Button)
        button.disabled = not writing
        button.label = f"Import {len(writing)}  ^s" if writing else "Import  ^s"
        self.query_one("#iw-plans").border_title = f"Files ({len(self.plans)})"

    def action_toggle_skip(self) -> None:
        number = self.query_one("#iw-plans", PlanList).highlighted
        if number is None:
            return
        if not self.plans[number].writes:
            self.notify("Nothing is written for this file", timeout=2)
            return
        self.skipped ^= {number}
        self._relabel(number)
        self._show_where(number)
        self._refresh_summary()

    async def action_update_instead(self) -> None:
        from kas_tui.features.importing import confirm_update

        number = self.query_one("#iw-plans", PlanList).highlighted
        if number is None:
            return
        plan = self.plans[number]
        if number in self.originals:
            self.plans[number] = self.originals.pop(number)
        elif plan.action == "duplicate" and plan.existing and plan.draft is not None:
            self.originals[number] = plan
            self.plans[number] = confirm_update(plan)
        else:
            self.notify("Only a file already in the package can update it", timeout=3)
            return
        self.skipped.discard(number)
        self._relabel(number)
        self._body_of = None
        await self._show_plan(number)
        self._refresh_summary()

    def action_diff(self) -> None:
        from kas_tui.features.importing import ImportFailed, preview_import

        if not self._check_forms():
            return
        try:
            diff = preview_import(self.package, self._to_write()).diff
        except (ImportFailed, EditError, FormatError, ValueError, OSError) as exc:
            self._refuse(str(exc))
            return

        def decided(write: bool | None) -> None:
            if write:
                self.action_write()

        self.app.push_screen(DiffScreen("What the import writes", diff, confirm="Import"), decided)

    def _check_forms(self) -> bool:
        """Whether every draft to write is valid (else the first invalid field is shown)."""
        self._sync_forms()
        for number, _plan in enumerate(self.plans):
            form = self._form(number)
            if number in self.skipped or form is None:
                continue
            invalid = form.invalid()
            if invalid:
                for row, _ in invalid:
                    row.check(show=True)
                self.query_one("#iw-plans", PlanList).highlighted = number
                row, error = invalid[0]
                self.call_after_refresh(row.focus_editor)
                self._refuse(f"{form.draft.converted.name}: {row.key}: {error}")
                return False
        return True

    def _refuse(self, message: str) -> None:
        self.error = message
        self._refresh_summary()

    @on(Button.Pressed, "#iw-write")
    def _write_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_write()

    @on(Button.Pressed, "#iw-cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()

    def action_write(self) -> None:
        from kas_tui.features.importing import ImportFailed, write_import

        if not self._check_forms():
            return
        todo = self._to_write()
        if not todo:
            self.notify("Nothing to import", timeout=2)
            return
        app = self.kas
        refused: list[str] = []

        def edit(pkg: Package) -> Any:
            try:
                return write_import(pkg, todo, today=self.today, log=app.session.log_edits)
            except ImportFailed as exc:
                if exc.conflict is not None:  # an index changed since the wizard opened
                    raise exc.conflict from None
                refused.append(str(exc))
                raise EditError(str(exc)) from None

        label = f"import {plural(len(todo), 'file')} into {self._bundle_name(self.target)}"

        self._first = next((p.path for p in todo if p.path), None)
        outcome = app.run_edit(label, edit, based_on=self._base)
        if outcome.saved:
            self._written(outcome)
            return
        self._refuse(
            (refused[0] if refused else "not written (see the message)")
            + " · your edits are kept; ctrl+s tries again"
        )

    def on_edit_decided(self, message: EditDecided) -> None:
        self._written(message.outcome)  # after the conflict's "save on top"

    def _written(self, outcome: EditOutcome) -> None:
        if not outcome.saved or self.step == "done":
            return
        self.step = "done"
        self.dismiss(None)
        if self._first is not None and self._first in self.kas.package.documents:
            self.kas.go(self._first, reveal=True)

    def action_cancel(self) -> None:
        if not self._to_write():
            self.dismiss(None)
            return

        def back_to_files() -> None:
            self._go("files")
            self.query_one(FilePicker).focus()

        ask_unsaved(
            self.app,
            f"{plural(len(self._to_write()), 'drafted document')} and your edits to them "
            "are not written yet: save imports them, discard cancels the import.",
            save=self.action_write,
            discard=lambda: self.dismiss(None),
            others=[("files", "Back to the files", "b", back_to_files)],
        )

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        if re.match(r"^[a-zA-Z][\w+.-]*:", event.href):
            self.app.open_url(event.href)

    def on_unmount(self) -> None:
        self._stop.set()  # a conversion still running stops and reports nothing
