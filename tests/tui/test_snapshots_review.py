"""Snapshot test of the review screen (``t``) at 80×24 (pytest-textual-snapshot).

The demo on a fixed day: a stale page, an old draft, three documents never verified and
four only machine-verified. After an intended change of the look:
``pytest tests/test_snapshots_review.py --snapshot-update``, then look at the new SVG
under ``tests/__snapshots__/`` before committing it.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.review import ReviewScreen
from tests.helpers.waiting import pilot_wait_until

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"


def test_review_queue_of_the_demo(snap_compare, tmp_path: Path) -> None:
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    root = tmp_path / "demo_kb" / "orbit-handbook"
    app = KasApp(Package.open(root), today=dt.date(2026, 11, 30), watch=False)

    async def run_before(pilot) -> None:
        await pilot.press("t")
        await pilot_wait_until(
            pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.queue is not None
        )
        await pilot.press("down")  # the old draft: its whole detail below

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
