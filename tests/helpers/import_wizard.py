"""The import wizard driven as a curator drives it: files of each kind in an inbox (a
fixture), then open, convert, show a plan, set a field; and what its panes say."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.import_wizard import ImportWizard, PlanList, open_import_wizard
from kas_tui.tui.widgets.inputs import CleanInput

# --- driving the wizard ----------------------------------------------------------------------


async def open_wizard(app: KasApp, pilot, start: Path) -> ImportWizard:
    open_import_wizard(app, start=start)
    await pilot.pause()
    assert isinstance(app.screen, ImportWizard)
    return app.screen


async def conversion_done(app: KasApp) -> None:
    """Wait for the wizard's worker (not every worker: the picker's loader never ends)."""
    for worker in list(app.workers):
        if worker.group == "import":
            await worker.wait()


async def convert(app: KasApp, pilot, wizard: ImportWizard) -> None:
    await pilot.press("ctrl+s")
    await conversion_done(app)
    for _ in range(3):
        await pilot.pause()
    assert wizard.step == "preview", wizard.query_one("#iw-files-status", Static).content


def plan_number(wizard: ImportWizard, name: str) -> int:
    return next(n for n, p in enumerate(wizard.plans) if p.source.name == name)


async def show(pilot, wizard: ImportWizard, name: str) -> int:
    number = plan_number(wizard, name)
    wizard.query_one(PlanList).highlighted = number
    await pilot.pause()
    await pilot.pause()
    return number


def where(wizard: ImportWizard) -> str:
    return str(wizard.query_one("#iw-where", Static).render())


def summary(wizard: ImportWizard) -> str:
    return str(wizard.query_one("#iw-summary", Static).render())


def prompt(wizard: ImportWizard, number: int) -> str:
    return str(wizard.query_one(PlanList).get_option_at_index(number).prompt)


async def set_field(pilot, wizard: ImportWizard, number: int, key: str, value: str) -> None:
    form = wizard._form(number)
    assert form is not None
    row = form.row(key)
    assert row is not None
    row.query_one(CleanInput).value = value
    await pilot.pause()
    await pilot.pause()
