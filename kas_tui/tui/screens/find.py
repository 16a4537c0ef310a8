"""Find: a fuzzy finder over titles, descriptions, tags and paths, results as you type."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

if TYPE_CHECKING:
    from ...package import Package
    from ...search import Finder, Hit

LIMIT = 50


def _bold(text: str, spans: tuple[tuple[int, int], ...], style: str = "") -> Text:
    out = Text(text, style)
    for start, end in spans:
        out.stylize("bold reverse", start, end)
    return out


class FindScreen(ModalScreen[str | None]):
    """Type to find; enter opens the highlighted document (dismisses with its path)."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("down", "move(1)", "Down", show=False),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("pageup", "move(-10)", show=False),
    ]

    def __init__(self, finder: Finder, package: Package, recent: list[str]) -> None:
        super().__init__()
        self.finder = finder
        self.package = package
        self.recent = [p for p in recent if p in package.documents]
        self.paths: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="find-box") as box:
            box.border_title = "Find"
            box.border_subtitle = "words · #tag · folder/name · enter opens · escape closes"
            yield Input(placeholder="title, description, #tag or path…", id="find-input")
            yield Static(id="find-count")
            yield OptionList(id="find-results")

    def on_mount(self) -> None:
        self._show_recent()

    def _show_recent(self) -> None:
        docs = self.package.documents
        self._fill(
            [(p, Text(docs[p].title or p), Text(p, "bright_black")) for p in self.recent[:LIMIT]],
            "recently visited" if self.recent else "type to find a document",
        )

    @on(Input.Changed, "#find-input")
    def search(self, event: Input.Changed) -> None:
        query = event.value.strip()
        if not query:
            self._show_recent()
            return
        hits = self.finder.search(query, limit=LIMIT)
        rows = [(hit.path, *self._labels(hit)) for hit in hits]
        self._fill(rows, f"{len(hits)}{'+' if len(hits) == LIMIT else ''} found")

    def _labels(self, hit: Hit) -> tuple[Text, Text]:
        title = _bold(hit.title or hit.path, hit.title_spans)
        doc = self.package.documents.get(hit.path)
        if hit.field == "tag" and hit.tag:
            title.append(f"  #{hit.tag}", "magenta")
        elif hit.field == "description" and doc and doc.description:
            title.append(f"  {doc.description[:80]}", "bright_black")
        return title, _bold(hit.path, hit.path_spans, "bright_black")

    def _fill(self, rows: list[tuple[str, Text, Text]], count: str) -> None:
        self.paths = [path for path, _, _ in rows]
        results = self.query_one("#find-results", OptionList)
        results.clear_options()
        results.add_options(
            Option(Text.assemble(title, "\n  ", shown), id=path) for path, title, shown in rows
        )
        if rows:
            results.highlighted = 0
        self.query_one("#find-count", Static).update(Text(count, "bright_black"))

    def action_move(self, delta: int) -> None:
        results = self.query_one("#find-results", OptionList)
        if results.option_count:
            current = results.highlighted or 0
            results.highlighted = max(0, min(results.option_count - 1, current + delta))

    @on(Input.Submitted, "#find-input")
    def submit(self) -> None:
        results = self.query_one("#find-results", OptionList)
        if results.highlighted is not None and self.paths:
            self.dismiss(self.paths[results.highlighted])

    @on(OptionList.OptionSelected, "#find-results")
    def picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)
