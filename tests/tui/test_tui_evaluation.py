"""Pilot tests of the evaluation screen (g) at 80×24, on a copy of demo_kb with a real
evaluation of four questions (one missed: see eval_helpers)."""

from __future__ import annotations

import datetime as dt
import io
import json
import threading
from pathlib import Path

from rich.console import Console
from textual.widgets import DataTable, Static

from kas_tui.core.package import Package
from kas_tui.features.evaluate.runner import evals_home, latest_eval_dir
from kas_tui.features.evaluate.runs import Question
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens import evaluation
from kas_tui.tui.screens.entry_editor import EntryEditor
from kas_tui.tui.screens.evaluation import EvalScreen
from kas_tui.tui.screens.replay import ReplayScreen
from tests.helpers.evaluate import (
    BLAMED,
    MISSED,
    QUESTIONS,
    REFUND,
    make_evaluation,
    misleading_root,
    payments,
)
from tests.helpers.waiting import pilot_wait_until

SIZE = (80, 24)
TODAY = dt.date(2026, 11, 30)


def new_app(root: Path) -> KasApp:
    return KasApp(Package.open(root), today=TODAY, watch=False)


def rendered(renderable) -> str:
    console = Console(record=True, width=1000, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def text_of(screen, selector: str) -> str:
    return rendered(screen.query_one(selector, Static).content)


def order(screen: EvalScreen) -> list[str]:
    table = screen.query_one(DataTable)
    return [str(table.coordinate_to_cell_key((i, 0)).row_key.value) for i in range(table.row_count)]


def messages(app: KasApp) -> list[str]:
    return [m for _, m in app.messages]


async def open_screen(pilot) -> EvalScreen:
    await pilot.press("g")
    await pilot_wait_until(pilot, lambda: isinstance(pilot.app.screen, EvalScreen))
    return pilot.app.screen


async def to_row(pilot, screen: EvalScreen, qid: str) -> None:
    """Move the cursor to the question's row with the arrow keys."""
    target = order(screen).index(qid)
    table = screen.query_one(DataTable)
    for _ in range(table.row_count):
        if table.cursor_row == target:
            break
        await pilot.press("down" if table.cursor_row < target else "up")
    assert screen.highlighted == qid


async def test_the_screen_lists_the_questions_and_sorts(root: Path) -> None:
    ev, _ = make_evaluation(root)
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert order(screen) == [q.id for q in QUESTIONS]
        figures = text_of(screen, "#eval-figures")
        assert "Reach 75% (3/4)" in figures
        assert "R@1" in figures and "without descriptions" in figures
        table = screen.query_one(DataTable)
        assert table.has_focus
        # the columns fit in 80 columns; the question column takes the rest
        widths = sum(c.get_render_width(table) for c in table.columns.values())
        assert 70 <= widths <= 80
        assert "✗ answered" in table.get_row(MISSED)[0].plain
        # outcome: the missed question first
        await pilot.press("o")
        assert order(screen)[0] == MISSED
        tokens = {r.question.id: r.summary.total_tokens for r in ev.main.runs}
        await pilot.press("k")
        assert order(screen) == sorted(tokens, key=lambda q: (tokens[q], q))
        await pilot.press("k")  # again: reversed
        assert order(screen) == sorted(tokens, key=lambda q: (tokens[q], q), reverse=True)
        await pilot.press("t")
        turns = [screen.stored.row(q).turns for q in order(screen)]
        assert turns == sorted(turns)
        # the detail of the highlighted question: a missed one shows its blame
        await to_row(pilot, screen, MISSED)
        detail = text_of(screen, "#eval-detail-text")
        assert "blame" in detail and "index.md:10  Incidents" in detail
        assert "instead" in detail and "index.md:19  Billing support" in detail
        assert "fix" in detail and QUESTIONS[2].question in detail


async def test_enter_replays_the_question_trajectory(root: Path) -> None:
    ev, _ = make_evaluation(root)
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        await to_row(pilot, screen, MISSED)
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        run = next(r for r in ev.main.runs if r.question.id == MISSED)
        assert [s.path for s in replay.steps] == [s.path for s in run.steps]
        assert replay.replayed.question == QUESTIONS[2].question
        assert QUESTIONS[2].question in text_of(replay, "#agent-question")
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: app.screen is screen)


async def test_e_opens_the_entry_editor_on_the_blamed_line(root: Path) -> None:
    make_evaluation(root)
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        await pilot.press("e")  # the first question was reached: nothing to blame
        assert not isinstance(app.screen, EntryEditor)
        assert any("no entry to blame" in m for m in messages(app))
        await to_row(pilot, screen, MISSED)
        await pilot.press("e")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, EntryEditor))
        listing = app.screen.listing
        assert (listing.index, listing.entry.line) == BLAMED
        assert listing.entry.title == "Incidents"


async def test_e_opens_the_entry_editor_on_a_detour(tmp_path: Path) -> None:
    # the refund question is reached, but late: the walk opened Operations first
    root = misleading_root(payments(tmp_path))
    make_evaluation(root, ablations=(), questions=(REFUND,))
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        row = screen.current_row()
        assert row is not None and row.reached and row.turn_to_gold > 4
        table = screen.query_one(DataTable)
        assert table.get_cell_at((0, 4)).style == "yellow"  # the late gold turn
        assert "blame detour" in text_of(screen, "#eval-detail-text")
        assert "Operations" in text_of(screen, "#eval-detail-text")
        await pilot.press("e")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, EntryEditor))
        listing = app.screen.listing
        assert (listing.index, listing.entry.line) == ("index.md", 3)
        assert listing.entry.title == "Money back"
        late = row.turn_to_gold
        # the curator's fix: the entry says what the bundle holds; the re-run shows the
        # detour gone (the gold document within 4 turns)
        index = root / "index.md"
        index.write_text(
            index.read_text(encoding="utf-8").replace(
                "Money returned to customers.", "Refunds to a card payment, chargebacks."
            ),
            encoding="utf-8",
        )
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, EvalScreen))
        await pilot.press("r")
        await pilot_wait_until(pilot, lambda: any("gold on turn" in m for m in messages(app)))
        now = screen.current_row()
        assert now is not None and now.turn_to_gold is not None and now.turn_to_gold <= 4
        assert now.blame is None
        assert f"q1: ✓→✓ reached, gold on turn {late} → {now.turn_to_gold}" in messages(app)[-1]


async def test_sorting_by_outcome_puts_detours_between_misses_and_the_rest(
    tmp_path: Path,
) -> None:
    root = misleading_root(payments(tmp_path))
    paging = Question("q3", "Who is paged for an outage?", ("ops/paging.md",))
    lost = Question("q9", "zebra giraffe", ("ops/paging.md",))
    make_evaluation(root, ablations=(), questions=(paging, REFUND, lost))
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        rows = {row.id: row for row in screen.rows}
        assert not rows["q9"].reached  # missed
        assert rows["q1"].blame is not None and rows["q1"].blame.late  # a detour
        assert rows["q3"].reached and rows["q3"].blame is None  # in time
        await pilot.press("o")
        assert order(screen) == ["q9", "q1", "q3"]
        table = screen.query_one(DataTable)
        await pilot.press("end")
        assert table.cursor_row == 2 and screen.highlighted == "q3"
        await pilot.press("home")  # the first question, where the misses are once sorted
        assert table.cursor_row == 0 and screen.highlighted == "q9"


async def test_rerun_one_in_the_background_shows_the_fix(root: Path) -> None:
    _, folder = make_evaluation(root)
    report = (folder / "report.json").read_bytes()
    # the fix the blame asks for: the entry for incidents/ mentions the webhook backlog
    index = root / "index.md"
    lines = index.read_text("utf-8").splitlines(keepends=True)
    assert lines[BLAMED[1] - 1].startswith("* [Incidents]")
    lines[BLAMED[1] - 1] = (
        lines[BLAMED[1] - 1].rstrip("\n") + " Also the billing webhook backlog.\n"
    )
    index.write_text("".join(lines), "utf-8")
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        await to_row(pilot, screen, MISSED)
        await pilot.press("r")
        await pilot_wait_until(
            pilot, lambda: screen.running is None and screen.stored.rows != screen.rows
        )
        row = next(r for r in screen.rows if r.id == MISSED)
        assert row.reached and row.before is False and row.mark == "✗→✓" and row.fixed
        assert screen.query_one(DataTable).get_row(MISSED)[0].plain.startswith("✗→✓")
        assert "1 re-run (not saved)" in text_of(screen, "#eval-figures")
        assert any(f"{MISSED}: ✗→✓ fixed" in m for m in messages(app))
        # its trajectory is a new file, which enter replays; the report is as it was
        assert row.trajectory is not None and row.trajectory.is_file()
        assert row.trajectory.is_relative_to(folder / "reruns")
        assert (folder / "report.json").read_bytes() == report
        assert latest_eval_dir(root) == folder
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert "postmortems" in app.screen.steps[-2].path


async def test_rerun_all_makes_a_new_evaluation(root: Path) -> None:
    _, folder = make_evaluation(root)
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        await pilot.press("A")
        await pilot_wait_until(pilot, lambda: screen.running is None)
        latest = latest_eval_dir(root)
        assert latest is not None and latest != folder
        assert screen.stored.folder == latest
        assert [r.id for r in screen.rows] == [q.id for q in QUESTIONS]
        assert all(r.before is not None for r in screen.rows)  # compared with the report
        assert json.loads((latest / "report.json").read_text("utf-8"))["kas_tui_eval"] == 1
        assert len(json.loads((latest / "report.json").read_text("utf-8"))["variants"]) == 2


async def test_escape_stops_a_rerun_and_nothing_is_saved(root: Path, monkeypatch) -> None:
    _, folder = make_evaluation(root)
    real = evaluation.rerun_all
    asked_to_stop = threading.Event()

    def slow(root, questions, *, progress, should_stop, **options):
        progress(1, 8)
        while not should_stop():  # until the screen says stop (not a wait for time)
            asked_to_stop.wait(0.01)
        return real(root, questions, progress=progress, should_stop=should_stop, **options)

    monkeypatch.setattr(evaluation, "rerun_all", slow)
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        await pilot.press("A")
        await pilot_wait_until(pilot, lambda: "1/8" in text_of(screen, "#eval-progress-label"))
        assert screen.query_one("#eval-progress").display
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: screen.running is None)
        assert app.screen is screen  # escape stopped the re-run; it did not close
        assert not screen.query_one("#eval-progress").display
        assert any("nothing saved" in m for m in messages(app))
        assert latest_eval_dir(root) == folder
        assert [p.name for p in evals_home(root).iterdir()] == [folder.name]


async def test_no_evaluation_says_how_to_make_one(root: Path) -> None:
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        text = text_of(screen, "#eval-empty")
        assert text.startswith("No evaluation of this package yet.")
        assert "kas-tui eval PKG --questions" in text and "kas-tui questions PKG --out" in text
        assert not screen.query_one(DataTable).display
        await pilot.press("d")
        await pilot_wait_until(pilot, lambda: screen.running is None and messages(app))
        try:
            import kas_tui.features.evaluate.drafting  # noqa: F401
        except ImportError:
            assert any("Drafting questions is not available" in m for m in messages(app))
        else:  # pragma: no cover - once drafting is merged
            assert screen.rows


async def test_a_corrupt_report_is_one_line_naming_the_file(root: Path) -> None:
    folder = evals_home(root) / "20261202T000000000000Z"
    folder.mkdir(parents=True)
    (folder / "report.json").write_text('{"kas_tui_eval": 1, "variants": [', "utf-8")
    app = new_app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        first = text_of(screen, "#eval-empty").splitlines()[0]
        assert "report.json" in first and "not JSON" in first
        (folder / "report.json").write_text('{"kas_tui_eval": 9}', "utf-8")
        screen.load()
        await pilot.pause()
        assert "report schema 9; this kas-tui reads 1" in text_of(screen, "#eval-empty")


def test_the_header_gives_the_medians_to_the_first_gold_read_when_known(tmp_path: Path) -> None:
    """Issue 34 item 6: the totals of a lexical walk measure its wandering after the
    answer; the header says what the walks took to reach it, when the report knows."""
    from kas_tui.features.evaluate.stored import Figures, StoredEvaluation
    from kas_tui.tui.widgets.eval_view import figures_text

    known = Figures(4, 3, 0.75, 0.75, 4, 15, 7308, median_turns_to_gold=3.5,
                    median_tokens_to_gold=1695)  # fmt: skip
    text = figures_text(StoredEvaluation(tmp_path, overall=known)).plain
    assert "median 15 turns, 7,308 tokens" in text and "to gold 3.5 turns, 1,695 tokens" in text
    old = figures_text(StoredEvaluation(tmp_path, overall=Figures(4, 3, 0.75, 0.75, 4, 15, 7308)))
    assert "to gold" not in old.plain  # a report from before says nothing it does not know
