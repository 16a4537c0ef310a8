"""R lists the sessions agents had with ``kas-tui serve`` and replays one (issue 15.3)."""

from __future__ import annotations

import datetime as dt

from textual.widgets import OptionList

from kas_tui.core.package import Package
from kas_tui.features.serve.client_session import ServedPackage, Session
from kas_tui.features.serve.session_logs import sessions_dir
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.pick import PickScreen
from kas_tui.tui.screens.replay import ReplayScreen
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
CALLS = [("listdir", ""), ("readfile", "index.md"), ("readfile", "../secret"), ("peek", "log.md")]


def _serve_a_session(demo: Package, client: str) -> None:
    session = Session(ServedPackage(demo), client=client)  # logs to the user data folder
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
