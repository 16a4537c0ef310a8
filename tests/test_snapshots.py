"""Snapshot tests of the main screens on demo_kb (pytest-textual-snapshot).

After an intended change of the look: ``pytest tests/test_snapshots.py --snapshot-update``,
then look at the new SVGs under ``tests/__snapshots__/`` before committing them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
from pathlib import Path

import pytest

from kas_tui.package import Package
from kas_tui.tui.app import KasApp

DEMO = Path(__file__).resolve().parents[1] / "demo_kb"
SIZE = (160, 44)


@pytest.fixture
def app(tmp_path: Path) -> KasApp:
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    package = Package.open(tmp_path / "demo_kb")
    return KasApp(package, today=dt.date(2026, 11, 30), watch=False)


def test_curator_view_discovery(snap_compare, app: KasApp) -> None:
    assert snap_compare(app, terminal_size=SIZE)


def test_curator_view_document(snap_compare, app: KasApp) -> None:
    assert snap_compare(app, terminal_size=SIZE, press=["down", "down", "enter", "down", "down"])


def test_files_view(snap_compare, app: KasApp) -> None:
    assert snap_compare(app, terminal_size=SIZE, press=["f", "down", "enter"])


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
