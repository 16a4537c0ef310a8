"""The preview's form: a planned document's drafted frontmatter as the editor's rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from kas_tui.core import form_fields as F
from kas_tui.text.slug import parse_file_name
from kas_tui.tui.widgets.fields import DescriptionRow, FieldRow, TagsRow, TextRow, YamlRow
from kas_tui.tui.widgets.lifecycle_fields import DateRow, StatusRow
from kas_tui.tui.widgets.provenance import HistoryView

if TYPE_CHECKING:
    from kas_tui.features.importing import Draft


#: The fields the preview's form edits, in the editor's order.
FORM_KEYS = tuple(k for k in F.FORM_FIELDS if k != "resource")
#: The form's row for the new document's file name (not a frontmatter key).
FILE_KEY = "file-name"


class PlanForm(VerticalScroll):
    """The drafted frontmatter of one planned document, as the frontmatter editor's rows."""

    DEFAULT_CSS = """
    PlanForm {
        height: 1fr;
        padding: 0 1 0 0;
        scrollbar-size-vertical: 1;
    }

    .iw-fields {
        height: auto;
    }

    PlanForm .me-key {
        width: 13;
    }

    .iw-kept {
        height: auto;
        padding: 0 1;
    }

    .iw-history {
        height: auto;
        padding: 0 1;
    }
    """

    # Tab goes from the file list straight to the first field (the file name), not to the
    # frame around the fields; each field scrolls into view as it takes the focus.
    can_focus = False

    def __init__(self, number: int, draft: Draft, types: list[str], tags: list[str], today: Any):
        super().__init__(id=f"iw-form-{number}", classes="iw-form")
        self.number = number
        self.draft = draft
        self.types = types
        self.tags = tags
        self.today = today

    def compose(self) -> ComposeResult:
        meta = self.draft.frontmatter
        with Vertical(classes="iw-fields"):
            yield TextRow(
                FILE_KEY,
                self.draft.slug,
                parse=parse_file_name,
                hint=".md is added; the name must be free in the bundle",
                label="file name",
            )
            for key in FORM_KEYS:
                yield self._row_for(key, meta.get(key))
        yield Static(Text("Kept as drafted", "bold"), classes="me-section")
        yield Static(self._kept(), classes="iw-kept")
        history = HistoryView(classes="iw-history")
        history.show(F.history(meta))
        yield history

    def _row_for(self, key: str, value: Any) -> FieldRow:
        if key == "description" and F.plain_text(value):
            return DescriptionRow(value, self._title_now)
        if key == "tags" and (
            value is None
            or (
                isinstance(value, list)
                and all(isinstance(t, str) and F.plain_text(t) for t in value)
            )
        ):
            return TagsRow(value, self.tags)
        if key == "status" and F.plain_text(value):
            return StatusRow(value)
        if key == "stale_after" and F.plain_text(value):
            return DateRow(value, self.today)
        if key in ("type", "title") and F.plain_text(value):
            used = ", ".join(self.types[:4])
            hint = (f"required; used here: {used}" if key == "type" and used else "required") + (
                " · inferred from the file" if key == "type" else ": the index entry's text"
            )
            return TextRow(
                key,
                value,
                parse=F.parse_type if key == "type" else F.parse_title,
                hint=hint,
                suggestions=self.types if key == "type" else (),
            )
        return YamlRow(key, value, note=f"{key}: the value the file gives, as YAML")

    def _title_now(self) -> str:
        row = self.row("title") if self.is_mounted else None
        return row.text() if row is not None else self.draft.title

    def _kept(self) -> Text:
        text = Text()
        for source in self.draft.frontmatter.get("sources") or []:
            if not isinstance(source, dict):
                continue
            if text:
                text.append("\n")
            text.append(f"{'source':<10}", "dim")
            text.append(str(source.get("resource", "")), "bold")
            digest = str(source.get("sha256", ""))
            if digest:
                text.append(f"\n{'sha256':<10}", "dim")
                text.append(f"{digest[:16]}…")
        others = [
            k for k in self.draft.frontmatter if k not in (*FORM_KEYS, "sources", "generated")
        ]
        if others:
            text.append(f"\n{'also kept':<10}", "dim")
            text.append(", ".join(others))
        for note in self.draft.notes:
            text.append(f"\n! {note}", "yellow")
        return text

    def rows(self) -> list[FieldRow]:
        return [r for r in self.query(FieldRow) if r.is_attached]

    def row(self, key: str) -> FieldRow | None:
        return next((r for r in self.rows() if r.key == key), None)

    def invalid(self) -> list[tuple[FieldRow, str]]:
        found = []
        for row in self.rows():
            _, error = row.parse()
            if error or row.error:
                found.append((row, error or row.error or ""))
        return found
