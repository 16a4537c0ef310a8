"""``kas-tui eval --agent`` and ``--transcripts`` with STAND-IN agent CLIs.

The programs named ``claude``, ``codex`` and ``gemini`` here are stand-ins
(tests/helpers/standin_agents), not the real CLIs: each prints its tool's documented
transcript format for a run that reads SKILL.md, the root index and the gold page of the
first question, then answers. Nothing here needs the network.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.core.package import Package
from kas_tui.features.agent import replay_file
from kas_tui.features.evaluate.stored import load_report
from tests.helpers.evaluate import QUESTIONS, standins_first_on_path, write_questions

GOLD = QUESTIONS[0].gold[0]  # oncall/escalation-policy.md, which the stand-ins read


@pytest.fixture(autouse=True)
def _standins(monkeypatch: pytest.MonkeyPatch) -> None:
    standins_first_on_path(monkeypatch)


def evaluate_json(root: Path, tmp_path: Path, capsys, *extra: str) -> dict:  # type: ignore[no-untyped-def]
    questions = write_questions(tmp_path / "q.jsonl")
    args = ["eval", str(root), "--questions", str(questions), "--out", str(tmp_path / "out")]
    assert main([*args, "--format", "json", "--yes", *extra]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("agent", "navigator", "tokens", "tokens_to_gold"),
    [
        # usage per response: the three Read responses (1,130 + 2,130 + 3,130)
        ("claude", "claude-code (stand-in)", 10_430, 6_390),
        # usage per turn only: no tokens to gold from usage
        ("codex", "codex", 9_300, None),
        ("gemini", "gemini-cli (stand-in)", 7_400, None),
    ],
)
def test_standin_agent_walk_is_scored_and_replays(
    root: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture,
    agent: str,
    navigator: str,
    tokens: int,
    tokens_to_gold: int | None,
) -> None:
    record = evaluate_json(root, tmp_path, capsys, "--agent", agent)
    variant = record["variants"][0]
    assert record["navigator"] == variant["navigator"] == navigator.split(" (")[0]
    first, second = variant["questions"]
    assert first["read"] == [GOLD] and first["reached"] and first["turn_to_gold"] == 3
    assert first["turns"] == 4  # SKILL.md, index.md, the page, the answer
    assert first["tokens"] == tokens and first["tokens_source"] == "usage"
    assert first["tokens_to_gold"] == tokens_to_gold
    assert first["read_tokens_to_gold"] < first["read_tokens"]
    assert first["navigator"] == navigator and first["ended"] == "answered"
    assert first["answer"].endswith("(stand-in answer).")
    assert not second["reached"]  # the stand-in read the escalation page for it too
    overall = variant["overall"]
    assert overall["reach"] == 0.5 and overall["median_turns_to_gold"] == 3
    assert overall["median_tokens_to_gold"] == tokens_to_gold
    assert overall["tokens_source"] == "usage"
    assert variant["blame"] and variant["blame"][0]["question"] == second["id"]
    out = tmp_path / "out"
    assert (out / "transcripts" / f"{first['id']}.jsonl").is_file()
    # the evaluation screen's replay: the row's trajectory, replayed against the package
    stored = load_report(out)
    row = stored.row(first["id"])
    assert stored.navigator == navigator.split(" (")[0] and row is not None
    replayed = replay_file(Package.open(root), row.trajectory)
    assert [s.path for s in replayed.steps] == ["SKILL.md", "index.md", GOLD, None]
    assert not replayed.problems and replayed.question == QUESTIONS[0].question


def test_transcripts_folder_is_scored_without_running_anything(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    evaluate_json(root, tmp_path, capsys, "--agent", "claude")
    saved = tmp_path / "out" / "transcripts"
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))  # nothing can be run
    questions = write_questions(tmp_path / "q.jsonl")
    args = ["eval", str(root), "--questions", str(questions), "--transcripts", str(saved)]
    assert main([*args, "--format", "json", "--no-save"]) == 0
    record = json.loads(capsys.readouterr().out)
    first = record["variants"][0]["questions"][0]
    assert record["navigator"] == "claude-code (transcripts)"
    assert first["reached"] and first["turn_to_gold"] == 3 and first["tokens_to_gold"] == 6_390
    # one transcript missing: that question fails, saying so; a bad line is a problem
    (saved / f"{QUESTIONS[1].id}.jsonl").unlink()
    with (saved / f"{QUESTIONS[0].id}.jsonl").open("a") as handle:
        handle.write("{broken\n")
    assert main([*args, "--format", "csv", "--no-save"]) == 0
    captured = capsys.readouterr()
    rows = captured.out.splitlines()
    assert rows[0].startswith(
        "variant,navigator,id,reached,reached_within,turns,tokens,turn_to_gold"
    )
    assert rows[1].startswith("full,claude-code (stand-in),escalation,true,true,4,10430,3,6390,")
    assert ",failed,no transcript error-budget.jsonl in " in rows[2]
    assert "escalation.jsonl, line 10: not valid JSON" in captured.err


def test_text_report_names_the_agent_and_what_its_tokens_are(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    questions = write_questions(tmp_path / "q.jsonl")
    args = ["eval", str(root), "--questions", str(questions), "--no-save", "--yes"]
    assert main([*args, "--agent", "codex"]) == 0
    captured = capsys.readouterr()
    assert "navigator codex" in captured.out
    assert "\ncodex  " in captured.out  # the row of figures is named for who made them
    assert "tokens: the agent's usage records, input + output" in captured.out
    assert "(not known: usage came only as a total)" in captured.out
    assert captured.err.startswith("kas-tui eval: 2 runs of codex (")


def test_agent_cli_is_run_headless_with_read_only_tools(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    logged = tmp_path / "argv.txt"
    monkeypatch.setenv("STANDIN_ARGV", str(logged))
    questions = write_questions(tmp_path / "q.jsonl", QUESTIONS[:1])
    args = ["eval", str(root), "--questions", str(questions), "--no-save", "--yes"]
    expected = {
        "claude": [
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--tools",
            "Read,Glob,Grep,Skill",
            "--allowedTools",
            "Read,Glob,Grep,Skill",
        ],
        "codex": ["exec", "--json", "--sandbox", "read-only", "--skip-git-repo-check", "-C"],
        "gemini": ["-p", "--output-format", "stream-json", "--approval-mode", "plan"],
    }
    for agent, flags in expected.items():
        assert main([*args, "--agent", agent]) == 0
        argv = logged.read_text().splitlines()
        assert argv[0] == agent and all(flag in argv for flag in flags)
        assert not {"Bash", "Write", "Edit", "--yolo", "--full-auto"} & set(argv)
        assert QUESTIONS[0].question in "\n".join(argv)
    capsys.readouterr()


def test_missing_cli_and_unconfirmed_runs_are_one_line_each(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    questions = write_questions(tmp_path / "q.jsonl")
    args = ["eval", str(root), "--questions", str(questions), "--no-save"]
    # stdin is not a terminal under pytest: without --yes, refuse and say to pass it
    assert main([*args, "--agent", "claude"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2 runs of claude" in err and "pass --yes" in err
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert main([*args, "--agent", "gemini", "--yes"]) == 2
    err = capsys.readouterr().err
    assert (
        err == "kas-tui eval: no 'gemini' on PATH: install gemini-cli or put its folder on PATH\n"
    )
    assert main([*args, "--agent", "claude", "--transcripts", str(tmp_path)]) == 2
    assert main([*args, "--agent", "claude", "--ablate", "indexes", "--yes"]) == 2
    assert main([*args, "--transcripts", str(tmp_path / "nope")]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and "no such folder of transcripts" in lines[2]


def test_a_run_past_its_timeout_is_stopped_and_scored_as_failed(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STANDIN_HANG", "1")  # prints its first line, then hangs
    questions = write_questions(tmp_path / "q.jsonl", QUESTIONS[:2])
    args = ["eval", str(root), "--questions", str(questions), "--out", str(tmp_path / "out")]
    code = main([*args, "--agent", "claude", "--yes", "--timeout", "0.5", "--workers", "2"])
    assert code == 0
    record = json.loads((tmp_path / "out" / "report.json").read_text())
    runs = record["variants"][0]["questions"]
    assert [r["ended"] for r in runs] == ["failed", "failed"]
    assert all(r["note"].startswith("timed out after 0.5 s") for r in runs)
    assert record["variants"][0]["blame"][0]["kind"] == "navigator-failed"
    capsys.readouterr()


def test_at_a_terminal_eval_asks_before_the_agent_runs(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    questions = write_questions(tmp_path / "q.jsonl")
    args = ["eval", str(root), "--questions", str(questions), "--no-save", "--agent", "gemini"]
    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "2 runs of gemini" in err and "Go on? [y/N]" in err and "nothing run" in err
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    assert main([*args, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["navigator"] == "gemini-cli"
