"""R lists the sessions agents had with ``kas-tui serve`` and replays one (issue 15.3)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from textual.widgets import OptionList

from kas_tui.core.package import Package
from kas_tui.features.serve.client_session import ServedPackage, Session
from kas_tui.features.serve.session_logs import remember_log_dir, sessions_dir
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.pick import PickScreen
from kas_tui.tui.screens.replay import ReplayScreen
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
CALLS = [("listdir", ""), ("readfile", "index.md"), ("readfile", "../secret"), ("peek", "log.md")]


def _serve_a_session(demo: Package, client: str, log_dir: Path | None = None) -> None:
    session = Session(ServedPackage(demo), client=client, log_dir=log_dir)  # default: user data
    for tool, path in CALLS:
        session.call(tool, {"path": path})
    session.close()


async def test_r_offers_served_sessions_then_replays_the_one_picked(demo: Package) -> None:
    _serve_a_session(demo, "claude-code 2.1")
    other = ServedPackage(demo)  # a session of another package of the same name: left out
    stray = sessions_dir() / "orbit-handbook-20990101T000000Z-1-1.jsonl"
    stray.write_text('{"kind": "header", "root": "/elsewhere/orbit-handbook"}\n')
    assert other.name == "orbit-handbook"
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("R")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        options = app.screen.query_one("#pick-list", OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert len(shown) == 2, shown  # the session, and "another file"
        assert "claude-code 2.1" in shown[0] and "4 calls" in shown[0]
        assert "Another trajectory file" in shown[1]
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replayed = app.screen
        assert [(s.tool, s.args["path"]) for s in replayed.steps] == CALLS
        assert [s.status for s in replayed.steps] == ["ok", "ok", "outside", "ok"]
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: not isinstance(app.screen, ReplayScreen))
        await pilot.press("R")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot.press(*"another", "enter")  # typing filters to the file row
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, AskScreen))


async def test_without_sessions_r_asks_for_a_file(demo: Package) -> None:
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("R")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, AskScreen))


async def test_r_lists_the_sessions_of_every_folder_serve_logged_to(
    demo: Package, tmp_path: Path
) -> None:
    """Issue 31, item 12: ``serve --log-dir`` remembers its folder; R lists its sessions
    beside those of the default folder, newest first."""
    elsewhere = tmp_path / "elsewhere"
    _serve_a_session(demo, "claude-code 2.1")
    assert remember_log_dir(elsewhere) == ""  # what serve --log-dir does
    _serve_a_session(demo, "codex 0.9", elsewhere)
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("R")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        options = app.screen.query_one("#pick-list", OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert len(shown) == 3, shown
        assert any("codex 0.9" in row for row in shown[:2])
        assert any("claude-code 2.1" in row for row in shown[:2])
        await pilot.press(*"codex", "enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert [(s.tool, s.args["path"]) for s in app.screen.steps] == CALLS
