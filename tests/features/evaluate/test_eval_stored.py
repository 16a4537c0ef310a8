"""kas_tui.features.evaluate.stored: a report.json read back into rows, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

from kas_tui.features.evaluate.runner import latest_eval_dir
from kas_tui.features.evaluate.stored import compared, load_report, stored_from
from tests.helpers.evaluate import BLAMED, CHOSEN, MISSED, QUESTIONS, make_evaluation


def test_a_report_reads_back_into_rows_with_figures_and_blame(root: Path) -> None:
    ev, out = make_evaluation(root)
    assert latest_eval_dir(root) == out
    stored = load_report(out)
    assert stored.error is None and stored.problems == []
    assert [r.id for r in stored.rows] == [q.id for q in QUESTIONS]
    assert stored.package == "orbit-handbook" and stored.navigator == "lexical-bm25"
    assert stored.budget == 15 and stored.within == 4
    o = ev.main.overall
    assert (stored.overall.questions, stored.overall.reached) == (4, 3)
    assert stored.overall.reach == o.reach and stored.overall.median_tokens == o.median_tokens
    assert set(stored.recall) == {1, 3, 5}
    assert [name for name, _ in stored.ablations] == ["descriptions"]
    for row, run in zip(stored.rows, ev.main.runs, strict=True):
        assert (row.reached, row.turns, row.tokens, row.ended) == (
            run.reached,
            run.summary.turns,
            run.summary.total_tokens,
            run.ended,
        )
        assert row.trajectory == out / "full" / f"{row.id}.jsonl"
        assert row.trajectory.is_file()
        assert row.mark == ("✓" if run.reached else "✗")
    missed = stored.row(MISSED)
    assert missed is not None and not missed.reached
    assert missed.blame is not None and missed.blame.expected is not None
    assert (missed.blame.expected.index, missed.blame.expected.line) == BLAMED
    assert missed.blame.chosen is not None
    assert (missed.blame.chosen.index, missed.blame.chosen.line) == CHOSEN
    assert missed.blame.hint.startswith("index.md:10")
    assert all(r.blame is None for r in stored.rows if r.reached)
    # the same rows from the evaluation in memory
    fresh = stored_from(ev, out)
    assert fresh.rows == stored.rows and fresh.overall == stored.overall


def test_compared_rows_say_what_changed(root: Path) -> None:
    _, out = make_evaluation(root, ablations=())
    rows = load_report(out).rows
    flipped = [r.__class__(**{**r.__dict__, "reached": not r.reached}) for r in rows]
    marks = {r.id: (r.mark, r.fixed) for r in compared(flipped, rows)}
    assert marks[MISSED] == ("✗→✓", True)
    assert marks["escalation"] == ("✓→✗", False)


def test_no_report(tmp_path: Path) -> None:
    stored = load_report(tmp_path)
    assert stored.rows == [] and stored.error == f"{tmp_path / 'report.json'}: no such file"


def test_corrupt_json_is_one_line_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "report.json").write_text('{"kas_tui_eval": 1, "variants": [', "utf-8")
    stored = load_report(tmp_path)
    assert stored.rows == []
    assert stored.error is not None and "\n" not in stored.error
    assert stored.error.startswith(f"{tmp_path / 'report.json'}: not JSON (line 1")


def test_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "report.json").write_bytes(b"\xff\xfe{}")
    assert load_report(tmp_path).error == f"{tmp_path / 'report.json'}: not UTF-8 text"


def test_wrong_schema(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"kas_tui_eval": 7, "variants": []}), "utf-8")
    assert load_report(tmp_path).error == f"{path}: report schema 7; this kas-tui reads 1"
    path.write_text(json.dumps(["a", "list"]), "utf-8")
    assert "not a kas-tui evaluation report" in (load_report(tmp_path).error or "")
    path.write_text(json.dumps({"kas_tui_eval": 1, "variants": []}), "utf-8")
    assert "holds no variant" in (load_report(tmp_path).error or "")


def test_bad_question_records_are_skipped_with_a_problem(root: Path) -> None:
    _, out = make_evaluation(root, ablations=())
    path = out / "report.json"
    data = json.loads(path.read_text("utf-8"))
    questions = data["variants"][0]["questions"]
    questions[1] = {"question": "no id"}
    questions.append("junk")
    data["variants"][0]["blame"].append({"kind": "left-path"})
    path.write_text(json.dumps(data), "utf-8")
    stored = load_report(out)
    assert stored.error is None
    assert [r.id for r in stored.rows] == ["escalation", "webhook", "access"]
    assert stored.problems == [
        "blame 2: not an object naming its question",
        "question 2 of report.json: no id",
        "question 5 of report.json: not an object",
    ]


def test_a_moved_evaluation_folder_still_finds_its_trajectories(root: Path, tmp_path: Path) -> None:
    import shutil

    _, out = make_evaluation(root, ablations=())
    moved = tmp_path / "moved"
    shutil.move(out, moved)
    stored = load_report(moved)
    assert all(r.trajectory is not None and r.trajectory.is_file() for r in stored.rows)
    assert stored.rows[0].trajectory.is_relative_to(moved)
