"""Find: a fuzzy finder over titles, descriptions, tags and paths, results as you type;
or, with a ``?`` prefix or ctrl+f, full text (rows from :mod:`.find_text`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from kas_tui.tui.screens import find_text

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.features.find.fulltext import FullTextIndex
    from kas_tui.features.find.fuzzy import Finder, Hit

LIMIT = 50
#: Seconds between two looks at a full-text index still being built.
INDEXING_POLL = 0.5


@dataclass(frozen=True)
class Found:
    """What the finder chose: a document, and the line to open it at (full text)."""

    path: str
    line: int | None = None


_bold = find_text.marked


class FindScreen(ModalScreen[Found | None]):
    """Type to find; enter opens the highlighted document (dismisses with it).

    Full text: a query starting with ``?``, or every query after ctrl+f (which toggles).
    """

    CSS_PATH = "find.tcss"
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("ctrl+f", "toggle_text", "Full text", key_display="^f"),
        Binding("down", "move(1)", "Down", show=False),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("pageup", "move(-10)", show=False),
    ]

    def __init__(
        self,
        finder: Finder,
        package: Package,
        recent: list[str],
        fulltext: FullTextIndex | None = None,
        *,
        text: bool = False,
    ) -> None:
        super().__init__()
        self.finder = finder
        self.package = package
        self.recent = [p for p in recent if p in package.documents]
        self.fulltext = fulltext
        self.text_mode = text and fulltext is not None
        self.paths: list[str] = []
        self.found: list[Found] = []
        #: enter was pressed before the index, still being built, found anything: the
        #: first document found opens once it is built (typed at once, enter was lost)
        self._enter_waits = False

    def compose(self) -> ComposeResult:
        with Vertical(id="find-box"):
            yield Input(id="find-input")
            yield Static(id="find-count")
            yield OptionList(id="find-results")

    def on_mount(self) -> None:
        self._show_mode()
        self._show_recent()

    def _show_mode(self) -> None:
        box = self.query_one("#find-box")
        box.border_title, box.border_subtitle, placeholder = find_text.labels(self.text_mode)
        self.query_one("#find-input", Input).placeholder = placeholder

    def action_toggle_text(self) -> None:
        if self.fulltext is None:
            return
        self.text_mode = not self.text_mode
        self._show_mode()
        self._run(self.query_one("#find-input", Input).value)

    def _show_recent(self) -> None:
        docs = self.package.documents
        self._fill(
            [(p, Text(docs[p].title or p), Text(p, "bright_black")) for p in self.recent[:LIMIT]],
            "recently visited" if self.recent else "type to find a document",
        )

    @on(Input.Changed, "#find-input")
    def search(self, event: Input.Changed) -> None:
        self._enter_waits = False  # enter was for what was typed before
        self._run(event.value)

    def _run(self, value: str) -> None:
        text, query = find_text.split(value, self.text_mode and self.fulltext is not None)
        if text and self.fulltext is not None:
            self._search_text(query)
            return
        query = query.strip()
        if not query:
            self._show_recent()
            return
        hits = self.finder.search(query, limit=LIMIT)
        rows = [(hit.path, *self._labels(hit)) for hit in hits]
        self._fill(rows, f"{len(hits)}{'+' if len(hits) == LIMIT else ''} found")

    def _search_text(self, query: str) -> None:
        assert self.fulltext is not None
        results = self.fulltext.search(query, limit=find_text.LIMIT) if query.strip() else None
        rows, count = find_text.rows(results, self.fulltext)
        self._fill([(hit.path, title, shown) for hit, title, shown in rows], count)
        self.found = [Found(hit.path, hit.line) for hit, _, _ in rows]
        done, total = self.fulltext.progress
        if done < total:  # still building: look again
            self.set_timer(INDEXING_POLL, self._again(self.query_one("#find-input", Input).value))
        elif self._enter_waits:
            self._enter_waits = False
            self.submit()

    def _again(self, value: str):
        def again() -> None:
            if self.is_attached and self.query_one("#find-input", Input).value == value:
                self._run(value)

        return again

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
        self.found = [Found(path) for path in self.paths]
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
        if results.highlighted is not None and self.found:
            self.dismiss(self.found[results.highlighted])
        elif self.text_mode and self.fulltext is not None:
            done, total = self.fulltext.progress
            self._enter_waits = done < total or total == 0

    @on(OptionList.OptionSelected, "#find-results")
    def picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.found[event.option_index])
