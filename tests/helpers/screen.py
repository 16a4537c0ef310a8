"""What a Pilot test's terminal shows: the screen's text, row by row, as drawn (toasts and
dialogs over the panes included), for tests asserting what can be read."""

from __future__ import annotations

from textual.app import App
from textual.widget import Widget


def screen_rows(app: App) -> list[str]:
    """The rows of the screen on top, as the terminal shows them."""
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip) for strip in strips]


def screen_text(app: App) -> str:
    return "\n".join(screen_rows(app))


def rows_of(app: App, widget: Widget) -> list[str]:
    """The rows ``widget`` takes on screen, cut to its columns (its frame included)."""
    region = widget.region
    return [row[region.x : region.right] for row in screen_rows(app)[region.y : region.bottom]]
