"""Snapshot of full-text search at 80×24 (ctrl+f, a query, results with their lines).

After an intended change of the look: ``pytest tests/test_snapshots_fulltext.py
--snapshot-update``, then look at the new SVG before committing it.
"""

from __future__ import annotations

import datetime as dt
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from tests.helpers.waiting import pilot_wait_until

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"


@pytest.fixture
def app() -> Iterator[KasApp]:
    folder = Path(tempfile.mkdtemp(prefix="kas-snap-", dir="/tmp"))
    shutil.copytree(DEMO, folder / "demo_kb")
    yield KasApp(Package.open(folder / "demo_kb"), today=dt.date(2026, 11, 30), watch=False)
    shutil.rmtree(folder, ignore_errors=True)


def test_fulltext_results_at_80x24(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await pilot.press("ctrl+f", *"rotate key")
        await pilot_wait_until(
            pilot,
            lambda: (
                not app.screen.query_one("#find-count").content.plain.startswith("indexing")
                and app.screen.found
            ),
        )

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
