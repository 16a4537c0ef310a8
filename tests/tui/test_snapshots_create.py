"""Snapshot test of the create form at 80×24 (pytest-textual-snapshot).

A new runbook in the demo's incidents bundle, its title and description typed. After an
intended change of the look: ``pytest tests/test_snapshots_create.py --snapshot-update``,
then look at the new SVG under ``tests/__snapshots__/`` before committing it.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.create import CreateScreen

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"


def test_create_form_for_a_new_document(snap_compare, tmp_path: Path) -> None:
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    root = tmp_path / "demo_kb" / "orbit-handbook"
    app = KasApp(Package.open(root), today=dt.date(2026, 11, 30), watch=False)

    async def run_before(pilot) -> None:
        await pilot.pause()
        app.go("incidents/severity-levels.md", reveal=True)
        await pilot.pause()
        await pilot.press("c", "d")
        await pilot.pause()
        assert isinstance(app.screen, CreateScreen)
        await pilot.press("down", "tab", *"Rotate the Stripe key", "tab")
        await pilot.press(*"How to rotate the Stripe API key without downtime.")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
