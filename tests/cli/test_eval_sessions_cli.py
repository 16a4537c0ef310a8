"""``kas-tui eval PKG --sessions DIR --questions FILE``: sessions an MCP client ran
through ``kas-tui serve``, naming their questions, scored against the question set
without running anything: reach, turns, tokens, blame, and whether each log still
replays as it was served (issue 34, item 3)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from kas_tui.cli.main import main
from kas_tui.features.evaluate.stored import load_report
from kas_tui.features.serve.live_sessions import QUESTION_META_KEY
from tests.helpers.serving import serve_env

GOLD = "slos/service-slo-targets.md"
QUESTIONS = [
    {"id": "q1", "question": "What is the availability target of the API?", "gold": [GOLD]},
    {"id": "q2", "question": "How severe is a SEV2?", "gold": ["incidents/severity-levels.md"]},
    {"id": "q3", "question": "Who approves a change freeze?", "gold": [GOLD]},
]
#: What the client does for each question (q9 is not in the set; None names none).
WALKS = [
    (None, ["index.md"]),
    ("q1", ["index.md"]),  # an older session of q1: the newer one is scored
    ("q1", ["index.md", "slos/index.md", GOLD]),
    ("q2", ["index.md", "log.md"]),
    ("q9", ["index.md"]),
]


def _serve_sessions(root: Path, log_dir: Path) -> None:
    """Each walk as the mcp SDK client makes it over stdio, one connection each."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "kas_tui", "serve", str(root), "--log-dir", str(log_dir)],
        env=serve_env(),
    )

    async def walk(question: str | None, paths: list[str]) -> None:
        meta = {QUESTION_META_KEY: question} if question else None
        async with Client(params) as client:
            for path in paths:
                result = await client.call_tool("readfile", {"path": path}, meta=meta)
                assert not result.is_error, path

    for question, paths in WALKS:
        anyio.run(walk, question, paths)


def _eval(root: Path, tmp_path: Path, *extra: str) -> int:
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    return main(
        ["eval", str(root), "--sessions", str(tmp_path / "logs"), "--questions", str(questions)]
        + list(extra)
    )


def test_named_sessions_are_scored_with_blame_and_replay(root: Path, tmp_path: Path, capsys):
    _serve_sessions(root, tmp_path / "logs")
    out_dir = tmp_path / "out"
    assert _eval(root, tmp_path, "--format", "json", "--out", str(out_dir)) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["navigator"].startswith("served-sessions (mcp ")
    rows = {q["id"]: q for q in report["variants"][0]["questions"]}
    assert sorted(rows) == ["q1", "q2"]
    q1, q2 = rows["q1"], rows["q2"]
    assert q1["reached"] and q1["turns"] == 3 and q1["turn_to_gold"] == 3
    assert q1["read"] == [GOLD] and q1["tokens"] > 0  # documents read (indexes are not)
    assert q1["ended"] == "served" and "replays as served" in q1["note"]
    assert not q2["reached"] and q2["turns"] == 2
    assert [b["question"] for b in report["variants"][0]["blame"]] == ["q2"]
    sessions = report["sessions"]
    assert [(s["question"], s["replayable"]) for s in sessions["scored"]] == [
        ("q1", True),
        ("q2", True),
    ]
    assert sessions["without_question"] == 1
    assert sessions["questions_without_session"] == ["q3"]
    skipped = "\n".join(sessions["skipped"])
    assert (
        "an older session of q1" in skipped and "question q9 is not in the question set" in skipped
    )

    stored = load_report(out_dir)  # the evaluation screen reads it, and R replays it
    assert stored.error is None and [r.id for r in stored.rows] == ["q1", "q2"]
    saved = (out_dir / "full" / "q1.jsonl").read_text().splitlines()
    header = json.loads(saved[0])
    assert header["question_id"] == "q1" and header["session_log"].endswith(".jsonl")
    assert len(saved) == 4

    (root / "log.md").unlink()  # the package changed since q2's session
    assert _eval(root, tmp_path, "--no-save") == 0
    text = capsys.readouterr().out
    assert "Sessions in " in text and "2 scored, 1 replay as served, 1 name no question" in text
    assert "q2: turn 2 was ok when served, is missing now" in text
    assert "1 question(s) without a session: q3" in text


def test_a_folder_without_named_sessions_says_how_to_name_them(
    root: Path, tmp_path: Path, capsys
) -> None:
    (tmp_path / "logs").mkdir()
    assert _eval(root, tmp_path, "--no-save") == 2
    err = capsys.readouterr().err
    assert "no session in" in err and "kas-tui/question" in err and "Traceback" not in err
    (tmp_path / "logs").rmdir()
    assert _eval(root, tmp_path, "--no-save") == 2
    assert "no such folder (--sessions)" in capsys.readouterr().err
