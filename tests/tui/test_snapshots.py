"""Snapshot tests of the main screens on demo_kb (pytest-textual-snapshot).

After an intended change of the look: ``pytest tests/test_snapshots.py --snapshot-update``,
then look at the new SVGs under ``tests/__snapshots__/`` before committing them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"
SIZE = (160, 44)


@pytest.fixture
def app() -> Iterator[KasApp]:
    # The discovery view counts the catalog entry's tokens, and the entry names the
    # package's path: a folder name of fixed length keeps the count the same on every run
    # (pytest's tmp_path grows a digit now and then).
    folder = Path(tempfile.mkdtemp(prefix="kas-snap-", dir="/tmp"))
    shutil.copytree(DEMO, folder / "demo_kb")
    package = Package.open(folder / "demo_kb")
    yield KasApp(package, today=dt.date(2026, 11, 30), watch=False)
    shutil.rmtree(folder, ignore_errors=True)


def test_curator_view_discovery(snap_compare, app: KasApp) -> None:
    assert snap_compare(app, terminal_size=SIZE)


def test_curator_view_document(snap_compare, app: KasApp) -> None:
    from kas_tui.tui.controllers.navigation import place_of
    from tests.helpers.waiting import pilot_wait_until

    async def run_before(pilot) -> None:  # the page under the cursor shown whole (on a
        # loaded machine the snapshot caught the body still settling on it)
        await pilot.press("down", "down", "enter", "down", "down")
        tree, body = pilot.app.query_one("#nav"), pilot.app.query_one("BodyPane")
        await pilot_wait_until(
            pilot,
            lambda: pilot.app.location == place_of(tree.cursor_node.data) and body.complete,
        )

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_files_view(snap_compare, app: KasApp) -> None:
    from tests.helpers.waiting import pilot_wait_until

    async def run_before(pilot) -> None:  # the keys go to the files view once it has focus
        await pilot.press("f")
        await pilot_wait_until(pilot, lambda: pilot.app.query_one("FilesView").has_focus)
        await pilot.press("down", "enter")

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_find(snap_compare, app: KasApp) -> None:
    assert snap_compare(app, terminal_size=SIZE, press=["slash", *"refund"])


def test_help(snap_compare, app: KasApp) -> None:
    assert snap_compare(app, terminal_size=SIZE, press=["question_mark"])


def test_validation_panel(snap_compare, app: KasApp) -> None:
    from kas_tui.tui.widgets.findings import FindingsPanel

    async def run_before(pilot) -> None:
        await pilot.press("v")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        # the run's duration varies: show the same report with a fixed time
        report = dataclasses.replace(pilot.app.report, seconds=0.25)
        pilot.app.query_one(FindingsPanel).show_report(report)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
