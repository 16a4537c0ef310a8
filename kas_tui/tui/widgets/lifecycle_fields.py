"""The rows of a document's lifecycle in the frontmatter form: ``status`` (a choice of
the OKF statuses) and ``stale_after`` (a date, extended by +30/+90/+365 days)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Input, Select

from kas_tui.core import form_fields as F
from kas_tui.core.okf.lifecycle import FRESHNESS_DAYS
from kas_tui.tui.widgets.fields import FieldRow
from kas_tui.tui.widgets.inputs import CleanInput

STATUS_HINTS = {
    "draft": "draft: work in progress; agents may treat it as unconfirmed",
    "stable": "stable: the default when status is absent",
    "deprecated": "deprecated: kept for history; say what replaces it in the body",
}


class StatusRow(FieldRow):
    """``status``: draft, stable or deprecated (absent: stable)."""

    def __init__(self, value: Any) -> None:
        super().__init__("status")
        self.initial = "" if value is None else str(value)

    def compose_editor(self) -> ComposeResult:
        options: list[tuple[Any, str]] = [(s, s) for s in ("draft", "stable", "deprecated")]
        if self.initial and self.initial not in STATUS_HINTS:
            options.append((Text(f"{self.initial} (not a status)"), self.initial))
        yield Select(
            options,
            prompt="(not set: stable)",
            allow_blank=True,
            value=self.initial or Select.NULL,
            compact=True,
            classes="me-editor",
            id="field-status",
        )

    def text(self) -> str:
        value = self.query_one(Select).value
        return "" if value is Select.NULL else str(value)

    def parse(self) -> tuple[Any, str | None]:
        return F.parse_status(self.text())

    def notes(self) -> list[tuple[str, str]]:
        return [("hint", STATUS_HINTS.get(self.text(), "stable when not set"))]

    @on(Select.Changed)
    def _changed(self, event: Select.Changed) -> None:
        event.stop()
        self.edited()


class DateRow(FieldRow):
    """``stale_after``: an offset datetime (or a date), extended by +30/+90/+365 days."""

    DEFAULT_CSS = """
    .me-date {
        height: auto;
    }

    .me-days {
        min-width: 8;
        margin-left: 1;
    }
    """

    def __init__(self, value: Any, today: Any) -> None:
        super().__init__("stale_after")
        self.initial = "" if value is None else str(value)
        self.today = today

    def compose_editor(self) -> ComposeResult:
        with Horizontal(classes="me-date"):
            yield CleanInput(
                self.initial,
                placeholder="YYYY-MM-DDThh:mm:ssZ",
                compact=True,
                classes="me-editor",
                id="field-stale_after",
            )
            for days in FRESHNESS_DAYS:
                yield Button(
                    f"+{days} d",
                    compact=True,
                    classes="me-days",
                    id=f"days-{days}",
                    tooltip=f"+{days} days: {F.days_from(self.today, days, self.initial or None)}",
                )

    def text(self) -> str:
        return self.query_one(CleanInput).value

    def parse(self) -> tuple[Any, str | None]:
        return F.parse_timestamp(self.text(), self.today, self.initial or None)

    def notes(self) -> list[tuple[str, str]]:
        meaning = F.describe_stale_after(self.text(), self.today, self.initial or None)
        relative = F.relative_date(self.text(), self.today, self.initial or None)
        if relative:
            meaning = f"{relative}, {meaning}"
        out = [("info", meaning)] if meaning else []
        out.append(
            (
                "hint",
                "+30, +90 or +365 (or the buttons) add days to the later of today and this date",
            )
        )
        return out

    def extend(self, days: int) -> None:
        self.query_one(CleanInput).value = F.days_from(self.today, days, self.initial or None)

    def settle(self) -> None:
        """Write ``+90`` out as the date it means (on enter and on leaving the field)."""
        relative = F.relative_date(self.text(), self.today, self.initial or None)
        if relative:
            self.query_one(CleanInput).value = relative

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.settle()  # and the screen moves on to the next field

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget is self.editor:
            self.settle()

    @on(Button.Pressed, ".me-days")
    def _days(self, event: Button.Pressed) -> None:
        event.stop()
        self.extend(int((event.button.id or "0").removeprefix("days-")))

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.edited()
