"""The rows of the frontmatter form (:class:`~.meta_editor.MetaEditor`): the known fields
first, typed, then sources, the other fields (with those the package's house rules ask
for and the document lacks), and the history."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import partial
from typing import Any

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Button, Static

from kas_tui.core import field_schema
from kas_tui.core import form_fields as F
from kas_tui.core.house_rules import HouseRules
from kas_tui.features.check.computations import CONTRACT_FIELDS, is_computation
from kas_tui.tui.widgets.fields import DescriptionRow, FieldRow, TagsRow, TextRow, YamlRow
from kas_tui.tui.widgets.lifecycle_fields import DateRow, StatusRow
from kas_tui.tui.widgets.provenance import HistoryView, SourcesRow

HINTS = {
    "title": "the display name; index entries and the tree show it",
    "resource": "URI of the underlying asset, when the document describes one (optional)",
}


class FormRows:
    """Makes the form's rows for one document of a package."""

    def __init__(
        self,
        *,
        types: list[str],
        tags: list[str],
        today: dt.date,
        rules: HouseRules | None,
        title_now: Callable[[], str],
    ) -> None:
        self.types, self.tags, self.today, self.rules = types, tags, today, rules
        self._title_now = title_now

    def rows(self, meta: dict[str, Any]) -> list[Widget]:
        """The form for ``meta``: known fields first, then sources, other fields, history."""
        rows: list[Widget] = [Static(Text("Properties"), classes="me-section")]
        for key in F.FORM_FIELDS:
            rows.append(self._row_for(key, meta.get(key)))
        sources = meta.get("sources")
        if sources is None or isinstance(sources, list):
            rows.append(SourcesRow(sources))
        else:
            rows.append(YamlRow("sources", sources, note="not a list: write a list of entries"))
        asked = self._house_required(meta)
        contract = CONTRACT_FIELDS if is_computation(meta) else {}
        if contract:  # what a consumer runs (OKF §10.2), each field offered when absent
            rows.append(Static(Text("Attested Computation contract"), classes="me-section"))
            for key, note in contract.items():
                rows.append(YamlRow(key, meta.get(key), offered=key not in meta, note=note))
        rows.append(Static(Text("Other fields"), classes="me-section"))
        for key, value in meta.items():
            if key not in F.KNOWN_FIELDS and key not in contract:
                rows.append(YamlRow(key, value, note=asked.get(key, "")))
        for key, note in asked.items():  # required by the package and not there yet
            if key not in meta and key not in F.FORM_FIELDS and key not in contract:
                rows.append(YamlRow(key, None, offered=True, note=note))
        rows.append(Button("+ Add field", compact=True, classes="me-add", id="add-field"))
        rows.append(Static(Text("History"), classes="me-section"))
        history = HistoryView(id="me-history")
        history.show(F.history(meta))
        rows.append(history)
        return rows

    def _row_for(self, key: str, value: Any) -> FieldRow:
        """The typed row for a known field, or the YAML line when the value does not fit."""
        if key == "description" and F.plain_text(value):
            return DescriptionRow(value, self._title_now)
        if key == "tags" and (
            value is None
            or F.plain_text(value)
            or (
                isinstance(value, list)
                and all(isinstance(t, (str, int)) and F.plain_text(str(t)) for t in value)
            )
        ):
            return TagsRow(value, self.tags)
        if key == "status" and F.plain_text(value):
            return StatusRow(value)
        if key == "stale_after" and F.plain_text(value):
            return DateRow(value, self.today)
        if key in ("type", "title", "resource") and F.plain_text(value):
            return TextRow(
                key,
                value,
                parse=partial(F.parse_field, key),
                hint=self._type_hint() if key == "type" else HINTS[key],
                suggestions=self.types if key == "type" else (),
                placeholder="Runbook" if key == "type" else "",
            )
        return YamlRow(
            key, value, note=f"{key} holds a value the form cannot show; edit it as YAML"
        )

    def _house_required(self, meta: dict[str, Any]) -> dict[str, str]:
        """Field -> the note saying the package's rules require it (``.kas-tui.yaml``)."""
        doc_type = meta.get("type") if isinstance(meta.get("type"), str) else ""
        return self.rules.required_notes(doc_type) if self.rules is not None else {}

    def _type_hint(self) -> str:
        if self.rules is not None and self.rules.types:
            return f"required; this package allows: {', '.join(self.rules.types)}"
        used = ", ".join(self.types[:5])
        return (
            f"required; used here: {used}"
            if used
            else f"required: {field_schema.FIELDS['type'].examples}…"
        )
