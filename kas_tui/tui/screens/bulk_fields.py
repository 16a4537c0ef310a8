"""What the bulk editor (:mod:`.bulk`) shows: the filter fields with the values the
package holds, the fields of the change, and the cells of a document's row."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.containers import Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Button, Label, Select

from kas_tui.features.bulk_edit import STALENESS, Choices
from kas_tui.tui.widgets.inputs import FieldInput

if TYPE_CHECKING:
    from kas_tui.core.records import Document

OPERATIONS = (
    ("add_tag", "Add tag"),
    ("remove_tag", "Remove tag"),
    ("set_field", "Set field"),
    ("remove_field", "Remove field"),
)
STATUS_STYLE = {"draft": "yellow", "deprecated": "red", "stable": ""}
MARK = Text("●", "bold green")
NO_MARK = Text("·", "bright_black")


def staleness_cell(doc: Document, today: Any) -> Text:
    state = doc.staleness(today)
    if state.state == "fresh":
        return Text(f"fresh {state.days:,} d", "green")
    if state.state == "stale":
        return Text(f"stale {-state.days:,} d", "bold red")
    if state.state == "invalid":
        return Text("not a date", "yellow")
    return Text("—", "bright_black")


def field(label: str, widget: Any, field_id: str | None = None) -> Vertical:
    """One labelled field, one line (no border box): the filters and the change take four
    lines, not eight, and the documents keep the room at 80x24."""
    widget.compact = True
    return Vertical(Label(label, classes="bulk-label"), widget, classes="bulk-field", id=field_id)


def filter_fields(found: Choices) -> Iterator[Vertical]:
    """Type, tag, status, trust, staleness and text: each offers the values found."""
    yield field(
        "Type",
        Select(
            [(Text(f"{t or '(none)'}  {n:,}"), t) for t, n in found.types],
            prompt="any type",
            id="bulk-type",
        ),
    )
    yield field(
        "Tag",
        FieldInput(
            placeholder="any tag",
            suggester=SuggestFromList([t for t, _ in found.tags], case_sensitive=False),
            id="bulk-tag",
        ),
    )
    yield field(
        "Status",
        Select(
            [(Text(f"{s}  {n:,}"), s) for s, n in found.statuses],
            prompt="any status",
            id="bulk-status",
        ),
    )
    yield field(
        "Trust",
        Select(
            [(Text(f"{s}  {n:,}"), s) for s, n in found.trust],
            prompt="any trust",
            id="bulk-trust",
        ),
    )
    yield field(
        "Staleness",
        Select(
            [(Text(f"{STALENESS.get(s, s)}  {n:,}"), s) for s, n in found.staleness],
            prompt="any",
            id="bulk-staleness",
        ),
    )
    yield field(
        "Title or path", FieldInput(placeholder="words…", id="bulk-text"), "bulk-text-field"
    )


def change_fields(found: Choices) -> Iterator[Vertical]:
    """The change: its kind, the field, the tag or value, and the preview button."""
    yield field(
        "Change",
        Select(
            [(label, key) for key, label in OPERATIONS],
            allow_blank=False,
            value="add_tag",
            id="bulk-op",
        ),
        "bulk-op-field",
    )
    yield field(
        "Field",
        FieldInput(
            placeholder="key, e.g. owner",
            suggester=SuggestFromList([k for k, _ in found.keys]),
            id="bulk-key",
        ),
        "bulk-key-field",
    )
    yield field(
        "Tag",
        FieldInput(
            placeholder="tag",
            suggester=SuggestFromList([t for t, _ in found.tags], case_sensitive=False),
            id="bulk-value",
        ),
        "bulk-value-field",
    )
    yield Vertical(
        Label(" "),
        Button("Preview  p", id="bulk-preview", variant="primary", compact=True),
        classes="bulk-field",
        id="bulk-preview-field",
    )
