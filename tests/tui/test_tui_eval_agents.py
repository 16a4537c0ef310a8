"""The evaluation screen (g) on a STAND-IN Claude Code's walks: Enter replays one.

``claude`` here is a stand-in (tests/helpers/standin_agents), not the real CLI: it prints
Claude Code's stream-json for a run reading SKILL.md, the root index and the gold page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.evaluation import EvalScreen
from kas_tui.tui.screens.replay import ReplayScreen
from tests.helpers.evaluate import QUESTIONS, standins_first_on_path, write_questions
from tests.helpers.waiting import pilot_wait_until


async def test_enter_replays_a_standin_claude_walk(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    standins_first_on_path(monkeypatch)
    questions = write_questions(tmp_path / "q.jsonl")
    # saved where the screen looks: a new folder under the user data folder
    assert (
        main(["eval", str(root), "--questions", str(questions), "--agent", "claude", "--yes"]) == 0
    )
    capsys.readouterr()
    app = KasApp(Package.open(root), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, EvalScreen))
        screen = app.screen
        assert screen.stored.navigator == "claude-code"
        for _ in range(len(screen.rows)):
            if screen.highlighted == QUESTIONS[0].id:
                break
            await pilot.press("down")
        assert screen.highlighted == QUESTIONS[0].id
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        steps = app.screen.steps
        assert [s.path for s in steps] == ["SKILL.md", "index.md", QUESTIONS[0].gold[0], None]
        assert app.screen.replayed.question == QUESTIONS[0].question
