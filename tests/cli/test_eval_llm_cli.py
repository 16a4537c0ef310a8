"""``kas-tui eval --llm-base-url``: progress per question and per turn on stderr (a log
gets a line a turn), and a walk stopped for repeating a call said in the report
(issue 34, item 7). The endpoint is the strict stand-in (no network)."""

from __future__ import annotations

import json
from pathlib import Path

from kas_tui.cli.main import main
from tests.helpers.llm_stub import assistant, call
from tests.helpers.strict_openai_standin import StrictStandIn

DOC = "slos/service-slo-targets.md"


def _reply(body: dict) -> dict:
    """q-walk reads the gold page and answers; q-loop reads the root index again and again."""
    question = next(m["content"] for m in body["messages"] if m["role"] == "user")
    turn = sum(m["role"] == "assistant" for m in body["messages"])
    if "availability" in question:
        calls = [("readfile", {"path": DOC}), ("submit_answer", {"answer": "99.95%"})]
        name, args = calls[min(turn, 1)]
        return assistant(call(name, args, f"w{turn}"))
    return assistant(call("readfile", {"path": "index.md"}, f"l{turn}"))


def test_a_run_reports_each_turn_on_stderr_and_names_the_stopped_walk(
    root: Path, tmp_path: Path, capsys
) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps({"id": "q-walk", "question": "What is the availability target?", "gold": [DOC]})
        + "\n"
        + json.dumps({"id": "q-loop", "question": "Who is on call?", "gold": [DOC]})
        + "\n"
    )
    with StrictStandIn([_reply]) as server:
        code = main(
            ["eval", str(root), "--questions", str(questions), "--no-save"]
            + ["--llm-base-url", server.base_url, "--llm-model", "standin"]
        )
    assert code == 0 and server.refused == []
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert "questions: 0/2 (0%)  q-walk asking the model" in lines
    assert f"questions: 0/2 (0%)  q-walk turn 1/15: readfile {DOC} (ok)" in lines
    assert "questions: 0/2 (0%)  q-walk turn 2/15: submit_answer (answered)" in lines
    assert any(line.startswith("questions: 1/2 (50%)") for line in lines)
    loop = [line for line in lines if "q-loop turn" in line]
    assert [line.split("q-loop ")[1] for line in loop] == [
        "turn 1/15: readfile index.md (ok)",
        "turn 2/15: readfile index.md (ok)",
        "turn 3/15: readfile index.md (ok)",
        "turn 3/15: stopped: the same call made 3 times",
    ]
    assert lines[-1].startswith("questions: 2/2 (100%) in ")
    assert "Stopped: repeated call (1):" in out
    assert 'q-loop: stopped: repeated call: readfile({"path": "index.md"}) made 3 times' in out
