"""The evaluation screen: the last ``kas-tui eval`` of this package, one row per question.

It shows what :mod:`kas_tui.features.evaluate.stored` read from the report (the figures, the
rows, the blame of a missed question) and what :mod:`kas_tui.features.evaluate.rerun` makes of
the package as it is now:

- a header with reach, reach within N turns, the medians, the flat baseline's recall
  and each ablation's reach; a table of the questions (sortable by outcome, turns and
  tokens); below it, the highlighted question's gold paths, answer, reads and blame;
- enter replays the question's trajectory; ``e`` opens the entry editor on the entry
  blamed for a miss or a detour (a question reached after ``within`` turns, its gold
  turn in yellow); ``r`` re-runs the question, ``A`` all of them (a new evaluation
  folder), in the background, reading the package afresh so that edits count; a row
  re-run shows how it changed (``✗→✓``: fixed);
- with no evaluation yet, how to make one, and ``d`` drafts a question set and runs it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Header, ProgressBar, Static
from textual.widgets.data_table import CellDoesNotExist, RowDoesNotExist
from textual.worker import get_current_worker

from kas_tui.features.agent.walk_summary import DEFAULT_BUDGET
from kas_tui.features.evaluate.metrics import WITHIN, on_time
from kas_tui.features.evaluate.rerun import RerunError, draft_and_run, rerun_all, rerun_question
from kas_tui.features.evaluate.runner import latest_eval_dir
from kas_tui.features.evaluate.stored import QuestionRow, StoredEvaluation, load_report
from kas_tui.text.wording import counted
from kas_tui.tui.screens.kas_screen import KasScreen
from kas_tui.tui.widgets.eval_view import cut, detail_text, figures_text, pct
from kas_tui.tui.widgets.footer import KasFooter

if TYPE_CHECKING:
    from textual.app import App

    from kas_tui.core.package import Package
    from kas_tui.core.records import Listing
    from kas_tui.features.evaluate.blame import EntryRef

DRAFT_SIZE = 10

#: (key, title, width) of the fixed columns; the question column takes the rest.
COLUMNS = (("result", "result", 12), ("id", "id", 0), ("turns", "turns", 5))
COLUMNS += (("tokens", "tokens", 6), ("gold", "gold", 4))
_ENDING_ORDER = {"failed": 0, "budget": 1, "gave-up": 2, "answered": 3}
#: Sort keys of a row, given the evaluation's ``within``.
SORTS = {
    # missed, then reached late (a detour), then reached in time
    "outcome": lambda r, within: (
        r.reached,
        on_time(r.turn_to_gold, within),
        _ENDING_ORDER.get(r.ended, 9),
        r.turns,
    ),
    "turns": lambda r, within: (r.turns, r.tokens),
    "tokens": lambda r, within: (r.tokens, r.turns),
}


NO_EVALUATION = (
    "No evaluation of this package yet. Make one from a shell:\n\n"
    "  kas-tui questions PKG --out q.jsonl    drafts a question set (check it)\n"
    "  kas-tui eval PKG --questions q.jsonl   runs it; the last run shows here\n\n"
    "Or press d to draft up to {n} questions from the documents and run them here."
)


class EvalTable(DataTable):
    """The questions: enter replays the highlighted one (the footer says so); home and end
    go to the first and the last question (the table never scrolls sideways)."""

    BINDINGS = [
        Binding("enter", "select_cursor", "Replay", key_display="⏎"),
        Binding("home", "scroll_top", "First", show=False),
        Binding("end", "scroll_bottom", "Last", show=False),
    ]


class EvalScreen(KasScreen[None]):
    """The last evaluation of the package (see the module docstring)."""

    CSS_PATH = "evaluation.tcss"
    AUTO_FOCUS = None  # the table takes the focus when there is one to show

    BINDINGS = [
        Binding("escape", "escape", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("enter", "replay", "Replay", key_display="⏎", show=False),
        Binding("e", "edit_entry", "Edit entry"),
        Binding("r", "rerun_one", "Re-run"),
        Binding("A", "rerun_all", "Re-run all", key_display="A"),
        Binding("o", "sort('outcome')", "Sort", key_display="o/t/k"),
        Binding("t", "sort('turns')", "Sort by turns", show=False),
        Binding("k", "sort('tokens')", "Sort by tokens", show=False),
        Binding("d", "draft", "Draft & run"),
    ]

    def __init__(self, package: Package) -> None:
        super().__init__()
        self.package = package
        self.stored: StoredEvaluation | None = None
        self.baseline: dict[str, bool] = {}  # question id -> reached, in the report loaded
        self.gold_turns: dict[str, int | None] = {}  # question id -> its turn to gold there
        self.rows: list[QuestionRow] = []
        self.reruns = 0
        self.sort_by: str | None = None
        self.reverse = False
        self.running: str | None = None  # "one", "all" or "draft" while a worker runs
        self._stop = False
        self._label = ""  # what the progress line says is running

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="eval-figures")
        yield Static(id="eval-empty")
        yield EvalTable(id="eval-table", cursor_type="row", zebra_stripes=True)
        with Horizontal(id="eval-progress"):
            yield Static(id="eval-progress-label")
            yield ProgressBar(id="eval-bar", show_eta=False)
        with VerticalScroll(id="eval-detail"):
            yield Static(id="eval-detail-text")
        yield KasFooter()

    def on_mount(self) -> None:
        self.sub_title = f"Evaluation · {self.package.name}"
        self.query_one("#eval-progress").display = False
        self.query_one("#eval-detail").border_title = Text("Question")
        self.load()

    def load(self, folder: Path | None = None) -> None:
        """Read the report of ``folder`` (default: the package's last evaluation)."""
        folder = folder or latest_eval_dir(self.package.root)
        self.stored = load_report(folder) if folder is not None else None
        ok = self.stored is not None and self.stored.error is None
        self.rows = list(self.stored.rows) if ok and self.stored else []
        self.baseline = {row.id: row.reached for row in self.rows}
        self.gold_turns = {row.id: row.turn_to_gold for row in self.rows}
        self.reruns = 0
        self.show()

    def show(self) -> None:
        """Redraw everything from :attr:`stored` and :attr:`rows`."""
        stored = self.stored
        ok = stored is not None and stored.error is None
        self.query_one("#eval-figures").display = ok
        self.query_one("#eval-empty").display = not ok
        table = self.query_one("#eval-table", DataTable)
        table.display = table.can_focus = ok
        self.query_one("#eval-detail").display = ok
        if not ok:
            message = NO_EVALUATION.format(n=DRAFT_SIZE)
            if stored is not None and stored.error:
                message = f"{stored.error}\n\n{message}"
            self.query_one("#eval-empty", Static).update(Text(message))
            self.set_focus(None)
            self.refresh_bindings()
            return
        assert stored is not None
        self.query_one("#eval-figures", Static).update(figures_text(stored, self.reruns))
        self.fill()
        self.refresh_bindings()
        self.query_one(DataTable).focus()

    def on_resize(self) -> None:
        if self.rows:
            self.fill()

    def fill(self) -> None:
        """Fill the table, the question column as wide as what is left, sorted as asked."""
        table = self.query_one(DataTable)
        current = self.highlighted
        table.clear(columns=True)
        id_width = min(16, max([2, *(len(r.id) for r in self.rows)]))
        widths = [w or id_width for _, _, w in COLUMNS]
        pad = 2 * table.cell_padding
        rest = (table.size.width or self.size.width) - sum(widths) - pad * (len(widths) + 1) - 2
        question_width = max(12, rest)
        for (key, title, _), width in zip(COLUMNS, widths, strict=True):
            justify = "right" if key in ("turns", "tokens", "gold") else "left"
            table.add_column(Text(title, justify=justify), key=key, width=width)
        table.add_column("question", key="question", width=question_width)
        within = self.stored.within if self.stored else WITHIN
        for row in self.rows:
            gold = "-" if row.turn_to_gold is None else str(row.turn_to_gold)
            late = row.reached and not on_time(row.turn_to_gold, within)
            table.add_row(
                Text(f"{row.mark} {row.ended}", "green" if row.reached else "red"),
                Text(cut(row.id, id_width)),
                Text(str(row.turns), justify="right"),
                Text(f"{row.tokens:,}", justify="right"),
                Text(gold, "yellow" if late else "", justify="right"),
                Text(cut(row.question, question_width)),
                key=row.id,
            )
        if self.sort_by is not None:
            order = SORTS[self.sort_by]
            shown = {cut(row.id, id_width): row for row in self.rows}
            table.sort(
                "id",
                key=lambda cell: (order(shown[cell.plain], within), cell.plain),
                reverse=self.reverse,
            )
        self._move_to(current)
        self.show_detail()

    def _move_to(self, qid: str | None) -> None:
        table = self.query_one(DataTable)
        if qid is not None and table.row_count:
            try:
                table.move_cursor(row=table.get_row_index(qid))
            except RowDoesNotExist:  # the row is gone (a new evaluation)
                table.move_cursor(row=0)

    @property
    def highlighted(self) -> str | None:
        """The id of the question under the cursor."""
        table = self.query_one(DataTable)
        if not table.row_count or table.columns == {}:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except CellDoesNotExist:  # an empty or refilled table
            return None
        return key.value

    def current_row(self) -> QuestionRow | None:
        qid = self.highlighted
        return next((r for r in self.rows if r.id == qid), None)

    @on(DataTable.RowHighlighted, "#eval-table")
    def _moved(self) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        row = self.current_row()
        detail = self.query_one("#eval-detail-text", Static)
        box = self.query_one("#eval-detail")
        if row is None:
            detail.update(Text("No questions in this report."))
            return
        box.border_title = Text(f"Question {row.id}")
        blamed = row.blame is not None and row.blame.expected is not None
        box.border_subtitle = Text("e edits the expected entry · r re-runs" if blamed else "")
        detail.update(detail_text(row))
        box.scroll_home(animate=False)

    # -- keys ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        has_rows = bool(self.rows)
        if action == "draft":
            return not has_rows
        if action in ("replay", "edit_entry", "rerun_one", "rerun_all", "sort"):
            return has_rows
        return True

    def action_sort(self, column: str) -> None:
        if self.sort_by == column:
            self.reverse = not self.reverse
        else:
            self.sort_by, self.reverse = column, False
        self.fill()
        direction = "descending" if self.reverse else "ascending"
        self.notify(f"Sorted by {column}, {direction} (press again to reverse)", timeout=2)

    def action_escape(self) -> None:
        if self.running:
            self.stop()
        else:
            self.action_close()

    def action_close(self) -> None:
        self._stop = True
        self.dismiss(None)

    @on(DataTable.RowSelected, "#eval-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_replay()

    def action_replay(self) -> None:
        row = self.current_row()
        if row is None:
            return
        if row.trajectory is None:
            self.notify(f"{row.id}: the evaluation saved no trajectory (--no-save)")
            return
        if not row.trajectory.is_file():
            self.notify(f"{row.trajectory}: no such file", severity="error", markup=False)
            return
        from kas_tui.features.agent import read_trajectory, replay
        from kas_tui.tui.screens.replay import ReplayScreen

        trajectory = read_trajectory(row.trajectory)
        budget = self.stored.budget if self.stored else DEFAULT_BUDGET
        replayed = replay(self.package_now, trajectory, budget=budget)
        lines = [call.line for call in trajectory.calls]
        self.app.push_screen(ReplayScreen(self.package_now, replayed, budget=budget, lines=lines))

    @property
    def package_now(self) -> Package:
        """The app's package (an edit or reload may have replaced the one opened with)."""
        return getattr(self.app, "package", self.package)

    def action_edit_entry(self) -> None:
        row = self.current_row()
        if row is None:
            return
        blame = row.blame
        if row.reached and blame is None:
            self.notify(f"{row.id} was reached in time: no entry to blame")
            return
        if blame is None or blame.expected is None:
            hint = blame.hint if blame is not None else "the report holds no blame for it"
            self.notify(f"{row.id}: no entry to open: {hint}", markup=False, timeout=8)
            return
        listing = find_listing(self.package_now, blame.expected)
        if listing is None:
            where = blame.expected.where
            self.notify(
                f"{where} no longer holds the entry for {blame.expected.target or 'the root'}",
                severity="warning",
                markup=False,
            )
            return
        from kas_tui.tui.screens.entry_editor import open_entry_editor

        open_entry_editor(self.app, listing)

    # -- re-runs (in a worker thread) ------------------------------------------------------

    def action_rerun_one(self) -> None:
        if self.running == "one":
            self.stop()
            return
        row = self.current_row()
        if row is None or self.busy():
            return
        self.started("one", f"Re-running {row.id}", 1)
        self._run_one(row)

    def action_rerun_all(self) -> None:
        if self.running == "all":
            self.stop()
            return
        if not self.rows or self.busy():
            return
        stored = self.stored
        total = len(self.rows) * (1 + len(stored.ablations if stored else []))
        self.started("all", f"Re-running all {len(self.rows)} questions", total)
        self._run_all()

    def action_draft(self) -> None:
        if self.running == "draft":
            self.stop()
            return
        if self.rows or self.busy():
            return
        self.started("draft", f"Drafting up to {DRAFT_SIZE} questions and running them", DRAFT_SIZE)
        self._run_draft()

    def busy(self) -> bool:
        if self.running:
            self.notify("A re-run is under way: esc stops it", severity="warning")
            return True
        return False

    def started(self, what: str, label: str, total: int) -> None:
        self.running = what
        self._stop = False
        self._label = label
        self.query_one("#eval-progress").display = True
        self.query_one(ProgressBar).update(total=total, progress=0)
        self.progressed(0, total)

    def progressed(self, done: int, total: int) -> None:
        self.query_one(ProgressBar).update(total=total, progress=done)
        self.query_one("#eval-progress-label", Static).update(
            Text.assemble(f"{self._label}: {done}/{total} ", ("esc stops", "bright_black"))
        )

    def stop(self) -> None:
        self._stop = True
        self.query_one("#eval-progress-label", Static).update(Text("Stopping…", "yellow"))

    def finished(self) -> None:
        self.running = None
        self.query_one("#eval-progress").display = False

    def _hooks(self) -> tuple[Callable[[int, int], None], Callable[[], bool]]:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.progressed, done, total)

        return progress, lambda: self._stop or worker.is_cancelled

    @work(thread=True, exclusive=True, group="evaluation")
    def _run_one(self, row: QuestionRow) -> None:
        stored = self.stored
        assert stored is not None
        try:
            new = rerun_question(
                self.package.root,
                row.as_question(),
                stored.folder,
                budget=stored.budget,
                within=stored.within,
            )
        except Exception as exc:  # noqa: BLE001 - shown, never a crash of the app
            self._failed(f"Re-running {row.id} failed: {exc}")
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._one_done, new)

    def _one_done(self, new: QuestionRow) -> None:
        self.finished()
        if self._stop:
            self.notify("Re-run stopped: the row is as it was")
            return
        was = self.baseline.get(new.id)
        if was is not None:
            new = _with_before(new, was)
        self.rows = [new if r.id == new.id else r for r in self.rows]
        self.reruns += 1
        assert self.stored is not None
        self.query_one("#eval-figures", Static).update(figures_text(self.stored, self.reruns))
        self.fill()
        verdict = "fixed" if new.fixed else "reached" if new.reached else "still missed"
        if was is True and not new.reached:
            verdict = "now missed"
        turn_was = self.gold_turns.get(new.id)
        if was and new.reached and turn_was is not None and turn_was != new.turn_to_gold:
            verdict += f", gold on turn {turn_was} → {new.turn_to_gold}"  # a detour shortened
        self.notify(f"{new.id}: {new.mark} {verdict} ({counted(new.turns, 'turn')})", timeout=6)

    @work(thread=True, exclusive=True, group="evaluation")
    def _run_all(self) -> None:
        stored = self.stored
        assert stored is not None
        progress, should_stop = self._hooks()
        try:
            new = rerun_all(
                self.package.root,
                [row.as_question() for row in self.rows],
                ablations=[name for name, _ in stored.ablations],
                budget=stored.budget,
                within=stored.within,
                questions_source=stored.questions_source,
                progress=progress,
                should_stop=should_stop,
            )
        except Exception as exc:  # noqa: BLE001 - shown, never a crash of the app
            self._failed(f"Re-running the evaluation failed: {exc}")
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._all_done, new)

    def _all_done(self, new: StoredEvaluation) -> None:
        self.finished()
        if new.stopped:
            self.notify("Re-run stopped before the end: nothing saved", severity="warning")
            return
        baseline = dict(self.baseline)
        self.stored = new
        self.rows = [_with_before(r, baseline[r.id]) if r.id in baseline else r for r in new.rows]
        self.reruns = 0
        self.show()
        fixed = sum(r.fixed for r in self.rows)
        self.notify(
            f"New evaluation saved ({new.folder.name}): reach {pct(new.overall.reach)}, "
            f"{fixed} fixed",
            timeout=8,
            markup=False,
        )

    @work(thread=True, exclusive=True, group="evaluation")
    def _run_draft(self) -> None:
        progress, should_stop = self._hooks()
        try:
            new = draft_and_run(
                self.package.root, n=DRAFT_SIZE, progress=progress, should_stop=should_stop
            )
        except RerunError as exc:
            self._failed(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - shown, never a crash of the app
            self._failed(f"Drafting and running questions failed: {exc}")
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._draft_done, new)

    def _draft_done(self, new: StoredEvaluation) -> None:
        self.finished()
        if new.stopped:
            self.notify("Stopped before the end: nothing saved", severity="warning")
            return
        self.load(new.folder)
        self.notify(f"Drafted and ran {len(self.rows)} questions", markup=False)

    def _failed(self, message: str) -> None:
        def show() -> None:
            self.finished()
            self.notify(message, severity="error", timeout=10, markup=False)

        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(show)


def _with_before(row: QuestionRow, before: bool) -> QuestionRow:
    from dataclasses import replace

    return replace(row, before=before)


def find_listing(package: Package, ref: EntryRef) -> Listing | None:
    """The listing of ``ref`` in the package now: the same line of the same index, or
    else the entry of that index leading to the same target."""
    folder = posixpath.dirname(ref.index)
    listings = package.listings(folder)
    for listing in listings:
        if listing.entry.line == ref.line:
            return listing
    target = ref.target.rstrip("/")
    return next((item for item in listings if item.path == target), None)


def open_evaluation(app: App, package: Package) -> None:
    """Push the evaluation screen (once)."""
    if any(isinstance(screen, EvalScreen) for screen in app.screen_stack):
        return
    app.push_screen(EvalScreen(package))
