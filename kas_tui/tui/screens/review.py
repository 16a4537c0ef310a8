"""The review queue screen (``t``): what needs a human, grouped, counted, acted on in place.

It shows :func:`kas_tui.features.review.queue.review_queue` of the app's package on the app's day: the
counts by trust tier and status on top, then each group under its heading with its
rows, the highlighted row's whole detail below. Each row acts in place, through the
same code as the main screen's keys (:mod:`kas_tui.tui.controllers`):
enter opens the document in the main view (the screen closes), ``w`` opens the file
and line where the problem is written (a broken link, the index entry or link offering
a deprecated document), ``V`` marks it verified, ``S`` extends its freshness, ``D``
deprecates it, ``d`` shows a changed source against the document
(:func:`kas_tui.features.review.source_changes.source_view`), ctrl+z and ctrl+y undo and redo. After
every write of the app the queue is computed again, in the background: a row whose
reason is gone leaves it, or moves to its new group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from kas_tui.features.review.queue import GROUPS, Queue, Row, review_queue
from kas_tui.features.review.source_changes import source_view
from kas_tui.text.wording import counted
from kas_tui.tui.edit_outcome import PackageWritten
from kas_tui.tui.screens.choose import diff_text
from kas_tui.tui.screens.kas_screen import KasScreen
from kas_tui.tui.widgets.footer import KasFooter

if TYPE_CHECKING:
    from textual.app import App

#: A document's group headings and rows in the list: a heading's option id starts with this.
HEADING = "group:"


class SourceDiffScreen(ModalScreen[None]):
    """A changed source against its document: what can be shown, read only."""

    CSS_PATH = ["choose.tcss", "review.tcss"]
    BINDINGS = [Binding("escape,q", "dismiss(None)", "Close")]

    def __init__(self, title: str, note: str, diff: str) -> None:
        super().__init__()
        self.title_text = title
        self.note = note
        self.diff = diff

    def compose(self) -> ComposeResult:
        with Vertical(id="diff-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = "escape closes"
            yield Static(Text(self.note), id="source-note")
            with VerticalScroll(id="diff-scroll"):
                yield Static(diff_text(self.diff) if self.diff else "")


class ReviewScreen(KasScreen[tuple[str, int | None] | None]):
    """The review queue (see the module docstring); dismisses with a place to show."""

    CSS_PATH = "review.tcss"
    AUTO_FOCUS = "#review-list"

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("enter", "open", "Open", key_display="⏎", show=False),
        Binding("V", "act('mark_verified')", "Verified"),
        Binding("S", "act('extend_freshness')", "Freshness"),
        Binding("D", "act('deprecate')", "Deprecate"),
        Binding("d", "source_diff", "Source diff"),
        Binding("w", "open_where", "Where", show=False),
        Binding("B", "bulk_group", "Bulk edit group", show=False),
        Binding("ctrl+z", "undo", "Undo", key_display="^z"),
        Binding("ctrl+y", "redo", "Redo", key_display="^y", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.queue: Queue | None = None
        self.rows: list[Row] = []  # the rows in list order (headings are not rows)
        self._kept: tuple[tuple[str, str, str] | None, int] = (None, 0)  # key, index

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(Text("Reading the package…", "italic"), id="review-counts")
        yield OptionList(id="review-list")
        yield Static(id="review-detail")
        yield KasFooter()

    def on_mount(self) -> None:
        self.sub_title = f"Review queue · {self.kas.package.name}"
        self.query_one("#review-list").border_title = "To review"
        self.compute()

    # -- the queue ------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="review")
    def compute(self) -> None:
        """Compute the queue of the package as it is now, off the event loop."""
        worker = get_current_worker()
        kas = self.kas
        try:
            queue = review_queue(kas.package, kas.today)
        except RuntimeError:  # the package changed while it was read: read it again
            if not worker.is_cancelled:
                self.app.call_from_thread(self.compute)
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.show, queue)

    def on_package_written(self, message: PackageWritten) -> None:
        self._keep_place()
        self.query_one("#review-counts", Static).update(self._counts(updating=True))
        self.compute()

    def _keep_place(self) -> None:
        """Remember the highlighted row, to highlight it (or what took its place) again."""
        row = self.current()
        options = self.query_one("#review-list", OptionList)
        self._kept = (row.key if row else None, options.highlighted or 0)

    def show(self, queue: Queue) -> None:
        """Show ``queue``: its counts, its groups with their rows, the highlight kept."""
        self.queue = queue
        self.query_one("#review-counts", Static).update(self._counts())
        options = self.query_one("#review-list", OptionList)
        kept_key, kept_index = self._kept
        self.rows = []
        items: list[Option] = []
        target = None
        for group in GROUPS:
            rows = queue.groups.get(group.id, [])
            if not rows:
                continue
            heading = Text.assemble((queue.title(group.id), "bold"), f" · {len(rows):,}")
            items.append(Option(heading, id=HEADING + group.id, disabled=True))
            for row in rows:
                if row.key == kept_key:
                    target = len(items)
                items.append(Option(self._prompt(row), id=str(len(self.rows))))
                self.rows.append(row)
        options.clear_options()
        options.add_options(items)
        options.border_subtitle = f"{counted(len(self.rows), 'row')} · {self._today()}"
        if self.rows:
            index = target if target is not None else min(kept_index, len(items) - 1)
            options.highlighted = _enabled_near(items, index)
        self._show_detail()

    def _today(self) -> str:
        return f"today {self.kas.today.isoformat()}"

    def _counts(self, *, updating: bool = False) -> Text:
        queue = self.queue
        if queue is None:
            return Text("Reading the package…", "italic")
        text = Text()
        text.append(counted(queue.documents, "document"), "bold")
        if queue.unreadable:
            text.append(f" (+{queue.unreadable:,} unreadable)", "red")
        text.append(" · " + queue.trust_line() + "\n")
        text.append(queue.status_line())
        text.append(" · ")
        text.append(f"{counted(queue.total, 'row')} to review", "bold")
        if updating:
            text.append(" · updating…", "italic")
        return text

    @staticmethod
    def _prompt(row: Row) -> Text:
        return Text.assemble(row.path, ("  " + row.detail, "italic"))

    def current(self) -> Row | None:
        """The row highlighted, or ``None`` (an empty queue)."""
        options = self.query_one("#review-list", OptionList)
        index = options.highlighted
        if index is None or index >= options.option_count:
            return None
        option_id = options.get_option_at_index(index).id or ""
        return None if option_id.startswith(HEADING) else self.rows[int(option_id)]

    @on(OptionList.OptionHighlighted, "#review-list")
    def _show_detail(self) -> None:
        row = self.current()
        detail = self.query_one("#review-detail", Static)
        if row is None:
            empty = self.queue is not None and not self.queue.total
            detail.update(Text("Nothing to review." if empty else "", "italic"))
            return
        text = Text.assemble((row.path, "bold"), "\n", row.detail)
        if row.at is not None and row.at[0] != row.path:
            text.append(f"  (w opens {row.at[0]}:{row.at[1]})", "bright_black")
        if row.source is not None:
            text.append("  (d shows the source)", "bright_black")
        detail.update(text)

    # -- acting on a row ------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#review-list")
    def action_open(self) -> None:
        row = self.current()
        if row is not None:
            line = row.at[1] if row.at is not None and row.at[0] == row.path else None
            self.dismiss((row.path, line))

    def action_bulk_group(self) -> None:
        """``B``: the bulk editor with every document of the highlighted row's group
        selected (set the field the house rules ask for on all of them at once)."""
        row = self.current()
        if row is None:
            self.app.notify("Highlight a row: B selects its group's documents for bulk edit")
            return
        from kas_tui.tui.screens.bulk import open_bulk_editor

        documents = self.kas.package.documents
        paths = [r.path for r in self.rows if r.group == row.group and r.path in documents]
        open_bulk_editor(self.app, list(dict.fromkeys(paths)))

    def action_open_where(self) -> None:
        row = self.current()
        if row is not None:
            self.dismiss(row.at or (row.path, None))

    def action_act(self, name: str) -> None:
        """Run the main screen's lifecycle action ``name`` on the row's document."""
        row = self.current()
        if row is None:
            return
        if row.path not in self.kas.package.documents:
            self.notify(f"{row.path} is not a document", severity="warning")
            return
        self._keep_place()
        getattr(self.kas, name)(row.path)

    def action_source_diff(self) -> None:
        row = self.current()
        if row is None or row.source is None:
            self.notify("Not a changed source: d shows a changed source's diff", timeout=3)
            return
        view = source_view(self.kas.package, row.source)
        self.app.push_screen(SourceDiffScreen(view.title, view.note, view.diff))

    def action_undo(self) -> None:
        self._keep_place()
        self.kas.action_undo()

    def action_redo(self) -> None:
        self._keep_place()
        self.kas.action_redo()


def _enabled_near(items: list[Option], index: int) -> int:
    """The first row at or after ``index`` (else the last row before it): never a heading."""
    index = max(0, min(index, len(items) - 1))
    for i in [*range(index, len(items)), *range(index - 1, -1, -1)]:
        if not items[i].disabled:
            return i
    return 0


def open_review(app: App) -> None:
    """Push the review screen (once); a row opened shows its file in the main view."""
    if any(isinstance(screen, ReviewScreen) for screen in app.screen_stack):
        return

    def opened(place: tuple[str, int | None] | None) -> None:
        if place is not None:
            app.go_to_line(*place)  # type: ignore[attr-defined]

    app.push_screen(ReviewScreen(), opened)
