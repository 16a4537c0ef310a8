"""Snapshot test of the agent walk screen mid-walk (pytest-textual-snapshot).

After an intended change of the look: ``pytest tests/test_snapshots_agent.py
--snapshot-update``, then look at the new SVG under ``tests/__snapshots__/`` before
committing it.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.agent import AgentWalkScreen

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"
SIZE = (160, 48)
#: A fixed catalog location, so the entry (and its token count) does not name tmp_path.
LOCATION = "/home/curator/.claude/skills/orbit-handbook/SKILL.md"


def test_agent_walk_mid_walk(snap_compare, tmp_path: Path) -> None:
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    package = Package.open(tmp_path / "demo_kb")
    app = KasApp(package, today=dt.date(2026, 11, 30), watch=False)

    async def run_before(pilot) -> None:
        await pilot.app.push_screen(AgentWalkScreen(package, location=LOCATION))
        # activate the skill, read the root index, then the billing-support index
        await pilot.press("enter", "enter", "down", "down", "down", "down", "enter")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
