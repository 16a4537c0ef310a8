"""``kas-tui`` without a package (issue 32, item 10): the packages opened lately, the
demo, a typed folder; the first run still opens the demo."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from kas_tui.cli import main as cli
from kas_tui.core.recent import recent_packages, remember
from kas_tui.tui.start import DEMO, StartApp
from tests.helpers.waiting import pilot_wait_until

NOW = dt.datetime(2026, 12, 5, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("KAS_TUI_DATA_DIR", str(folder))
    return folder


def test_opening_a_package_remembers_it_newest_first(tmp_path: Path) -> None:
    first, second = tmp_path / "kb-a", tmp_path / "kb-b"
    first.mkdir()
    second.mkdir()
    remember(first, NOW - dt.timedelta(days=3))
    remember(second, NOW)
    remember(first, NOW)
    assert [r.path for r in recent_packages()] == [str(first), str(second)]


async def test_the_start_screen_at_80x24_lists_recent_packages_and_opens_one(
    tmp_path: Path,
) -> None:
    kept, gone = tmp_path / "orbit-handbook", tmp_path / "old-kb"
    kept.mkdir()
    remember(gone, NOW - dt.timedelta(days=40))
    remember(kept, NOW - dt.timedelta(days=1))
    app = StartApp(recent_packages(), now=NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        options = app.query_one(OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert shown[0].startswith("orbit-handbook") and shown[0].endswith("yesterday")
        assert "(gone)" in shown[1] and options.get_option_at_index(1).disabled
        assert shown[-1].startswith("The bundled demo")
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: app.return_value is not None)
    assert app.return_value == str(kept)


async def test_a_typed_folder_is_opened_and_a_wrong_one_said(tmp_path: Path) -> None:
    remember(tmp_path, NOW)
    app = StartApp(recent_packages(), now=NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.press(*str(tmp_path / "nope"), "enter")
        await pilot.pause()
        assert "no such folder" in str(app.query_one("#start-note").render())
        app.query_one(Input).value = str(tmp_path)
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: app.return_value is not None)
    assert app.return_value == str(tmp_path)


def test_kas_tui_without_a_path_shows_the_start_screen_once_something_was_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Path] = []
    monkeypatch.setattr(cli, "open_tui", lambda path: opened.append(path) or 0)
    monkeypatch.setattr(StartApp, "run", lambda self: str(tmp_path))
    remember(tmp_path, NOW)
    assert cli.main([]) == 0
    assert opened == [tmp_path]
    monkeypatch.setattr(StartApp, "run", lambda self: DEMO)
    opened.clear()
    assert cli.main([]) == 0
    assert opened and opened[0].name == "orbit-handbook"
