"""Snapshot test of the evaluation screen at 80×24 (pytest-textual-snapshot).

The evaluation is real (four questions of the demo, one missed: see eval_helpers) with
its date fixed; the screen shows no path of tmp_path. After an intended change of the
look: ``pytest tests/test_snapshots_evaluation.py --snapshot-update``, then look at the
new SVG under ``tests/__snapshots__/`` before committing it.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from tests.helpers.evaluate import DATE, make_evaluation

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"


def test_evaluation_screen_on_a_missed_question(snap_compare, tmp_path: Path) -> None:
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    root = tmp_path / "demo_kb" / "orbit-handbook"
    make_evaluation(root, date=DATE)
    app = KasApp(Package.open(root), today=dt.date(2026, 11, 30), watch=False)

    async def run_before(pilot) -> None:
        await pilot.press("g")
        await pilot.pause()
        await pilot.press("down", "down")  # the missed question: its blame below
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
