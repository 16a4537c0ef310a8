"""Regenerate the README screenshots from the real app on demo_kb: python screenshots/take.py

Needs ``rsvg-convert`` (Debian: librsvg2-bin) to turn Textual's SVG screenshots into PNG.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from kas_tui.package import Package  # noqa: E402
from kas_tui.tui.app import KasApp  # noqa: E402

SIZE = (160, 44)
LOCATION = "/home/curator/.claude/skills/orbit-handbook/SKILL.md"

Setup = Callable[[object], Awaitable[None]]


async def shoot(name: str, setup: Setup) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(HERE.parent / "demo_kb", Path(tmp) / "demo_kb")
        prepare = getattr(setup, "prepare", None)
        if prepare is not None:
            prepare(Path(tmp) / "demo_kb" / "orbit-handbook")
        package = Package.open(Path(tmp) / "demo_kb")
        app = KasApp(package, today=dt.date(2026, 11, 30), watch=False)
        async with app.run_test(size=SIZE) as pilot:
            await setup(pilot)
            await pilot.pause(0.5)
            svg = app.save_screenshot(filename=f"{name}.svg", path=str(HERE))
    png = HERE / f"{name}.png"
    subprocess.run(["rsvg-convert", svg, "-o", str(png)], check=True)
    Path(svg).unlink()
    print(png)


async def curator(pilot) -> None:
    """The curator view on the discovery layer."""


async def document(pilot) -> None:
    """A document: frontmatter typed and readable, the body rendered."""
    await pilot.press("down", "down", "enter", "down", "down")


async def validation(pilot) -> None:
    """The validation panel after v, with a file that needs attention."""
    from kas_tui.tui.widgets.findings import FindingsPanel

    app = pilot.app
    await pilot.press("down", "down", "down", "down", "down", "enter", "down")
    await pilot.press("v")
    await app.workers.wait_for_complete()
    await pilot.pause()
    report = dataclasses.replace(app.report, seconds=0.31)
    app.query_one(FindingsPanel).show_report(report)


def _untidy(root: Path) -> None:
    """What a week of edits leaves behind: a page nobody listed, with a dead link."""
    (root / "oncall" / "pager-etiquette.md").write_text(
        "---\ntype: Guide\ntitle: Pager etiquette\n---\n"
        "Acknowledge within five minutes; see [the old rota](rota-2025.md).\n"
    )


validation.prepare = _untidy  # type: ignore[attr-defined]


async def agent_walk(pilot) -> None:
    """The agent walk: catalog, SKILL.md, the root index, then a bundle's index."""
    from kas_tui.tui.screens.agent import AgentWalkScreen

    app = pilot.app
    await app.push_screen(AgentWalkScreen(app.package, location=LOCATION))
    await pilot.press("enter", "enter", "down", "down", "down", "down", "enter")


async def edit_form(pilot) -> None:
    """The frontmatter form on a document, a tag being added."""
    from kas_tui.tui.screens.meta_editor import open_meta_editor

    app = pilot.app
    app.go("billing-support/refunds/refund-policy.md", reveal=True)
    await pilot.pause()
    open_meta_editor(app, "billing-support/refunds/refund-policy.md")
    await pilot.pause(0.5)


SHOTS = {
    "main": curator,
    "document": document,
    "validation": validation,
    "agent-walk": agent_walk,
    "edit-form": edit_form,
}

if __name__ == "__main__":
    for shot_name, shot_setup in SHOTS.items():
        if len(sys.argv) == 1 or shot_name in sys.argv[1:]:
            asyncio.run(shoot(shot_name, shot_setup))
