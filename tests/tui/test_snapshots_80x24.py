"""Every screen at 80×24 (pytest-textual-snapshot): usable at the smallest common terminal.

The main views, the walk and replay, each editor, the import wizard's steps, bulk edit,
the link list, the pickers and the dialogs; the review queue, the create form, the
evaluation and full-text results have their own 80×24 snapshots beside their tests. The
panes whose widths follow the terminal's (the outline, the files view, a zoomed pane)
are taken at 120×40 too; test_tui_80x24.py asserts what of them must be readable.

After an intended change of the look: ``pytest tests/test_snapshots_80x24.py
--snapshot-update``, then look at the new SVGs under ``tests/__snapshots__/``.
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
from tests.helpers.screen import screen_rows
from tests.helpers.waiting import pilot_wait_until

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"
SIZE = (80, 24)
LOCATION = "/home/curator/.claude/skills/orbit-handbook/SKILL.md"
TRAJECTORY = [
    '{"tool": "readfile", "args": {"path": "SKILL.md"}}',
    '{"tool": "readfile", "args": {"path": "index.md"}}',
    '{"tool": "readfile", "args": {"path": "billing-support/index.md"}}',
    '{"tool": "readfile", "args": {"path": "billing-support/billing-faq.md"}}',
    '{"tool": "submit_answer", "args": {"answer": "See the billing FAQ."}}',
]


@pytest.fixture
def folder() -> Iterator[Path]:
    # a folder name of fixed length: the catalog entry (and its token count) names it
    folder = Path(tempfile.mkdtemp(prefix="kas-snap-", dir="/tmp"))
    shutil.copytree(DEMO, folder / "demo_kb")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def app(folder: Path) -> KasApp:
    app = KasApp(Package.open(folder / "demo_kb"), today=dt.date(2026, 11, 30), watch=False)
    app.catalog_location = LOCATION
    return app


def on(screen_name: str):
    return lambda pilot: type(pilot.app.screen).__name__ == screen_name


async def go(pilot, path: str) -> None:
    """Show ``path`` once the main screen is up (its panes are mounted)."""
    await pilot_wait_until(pilot, lambda: bool(pilot.app.screen.query("MetaPane")))
    pilot.app.go(path, reveal=True)
    await pilot_wait_until(pilot, lambda: pilot.app.location == path)
    await pilot.pause()


async def settle(pilot, predicate) -> None:
    await pilot_wait_until(pilot, lambda: predicate(pilot))
    await pilot.pause()


def test_main_discovery(snap_compare, app: KasApp) -> None:
    assert snap_compare(app, terminal_size=SIZE)


def test_main_document(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "billing-support/refunds/refund-policy.md")

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_validation(snap_compare, app: KasApp) -> None:
    import dataclasses

    from kas_tui.tui.widgets.findings import FindingsPanel

    async def run_before(pilot) -> None:
        await pilot.press("v")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        report = dataclasses.replace(pilot.app.report, seconds=0.25)
        pilot.app.query_one(FindingsPanel).show_report(report)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


SIZES = pytest.mark.parametrize("size", [SIZE, (120, 40)], ids=["80x24", "120x40"])


@SIZES
def test_outline(snap_compare, app: KasApp, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "incidents/incident-response.md")
        await pilot.press("o")
        await settle(pilot, lambda p: p.app.query_one("BodyPane").outline_shown)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@SIZES
def test_files_view(snap_compare, app: KasApp, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "oncall/opsgenie-runbook.md")
        await pilot.press("f")
        await settle(pilot, lambda p: p.app.query_one("FilesView").has_focus)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_zoomed_body(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "incidents/incident-response.md")
        pilot.app.query_one("#body-scroll").focus()
        await pilot.press("z")
        await settle(pilot, lambda p: p.app.screen.maximized is not None)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_help(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await pilot.press("question_mark")
        await settle(pilot, on("HelpScreen"))

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_links(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "incidents/incident-response.md")
        await pilot.press("l")
        # the pages citing it arrive once the package's links are read (a thread)
        await settle(pilot, lambda p: on("LinksScreen")(p) and p.app.screen.cited_by is not None)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_agent_walk(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await pilot.press("a")
        await settle(pilot, on("AgentWalkScreen"))
        await pilot.press("enter", "enter", "down", "down", "down", "down", "enter")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_replay(snap_compare, app: KasApp, folder: Path, monkeypatch) -> None:
    (folder / "walk.jsonl").write_text("\n".join(TRAJECTORY) + "\n", "utf-8")
    monkeypatch.chdir(folder)  # typed as a relative path: the snapshot names no tmp folder

    async def run_before(pilot) -> None:
        await pilot.press("R")
        await settle(pilot, on("AskScreen"))
        await pilot.press(*"walk.jsonl", "enter")
        await settle(pilot, on("ReplayScreen"))
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_frontmatter_form(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "billing-support/refunds/refund-policy.md")
        await pilot.press("m")
        await settle(pilot, on("MetaEditor"))

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_frontmatter_raw_yaml(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "billing-support/refunds/refund-policy.md")
        await pilot.press("m")
        await settle(pilot, on("MetaEditor"))
        await pilot.press("ctrl+r")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_entry_editor(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "oncall/escalation-policy.md")
        await pilot.press("T", "e")
        await settle(pilot, on("EntryEditor"))

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_skill_editor(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await pilot.press("T", "home", "e")
        await settle(pilot, on("SkillEditor"))

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_import_wizard_files(snap_compare, app: KasApp, folder: Path, monkeypatch) -> None:
    from kas_tui.tui.screens.import_wizard import open_import_wizard

    monkeypatch.setenv("HOME", str(folder))  # the picker's title says ~/inbox

    inbox = folder / "inbox"
    inbox.mkdir()
    (inbox / "chargebacks.txt").write_text("Chargebacks\n\nRespond within seven days.\n")
    (inbox / "plans.csv").write_text("plan,price\nTeam,49\n")

    async def run_before(pilot) -> None:
        open_import_wizard(pilot.app, start=inbox)
        await settle(pilot, on("ImportWizard"))
        pilot.app.screen.select([inbox / "chargebacks.txt", inbox / "plans.csv"])
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_import_wizard_review(snap_compare, app: KasApp, folder: Path) -> None:
    from kas_tui.tui.screens.import_wizard import open_import_wizard

    inbox = folder / "inbox"
    inbox.mkdir()
    (inbox / "chargebacks.txt").write_text(
        "Chargebacks\n\nA chargeback happens when a customer disputes a card payment.\n"
    )

    async def run_before(pilot) -> None:
        open_import_wizard(pilot.app, start=inbox)
        await settle(pilot, on("ImportWizard"))
        wizard = pilot.app.screen
        wizard.select([inbox / "chargebacks.txt"])
        await pilot.press("ctrl+s")
        await pilot_wait_until(pilot, lambda: wizard.step == "preview")
        button = wizard.query_one("#iw-write")
        # the button's label is set as the preview fills; its width follows a refresh later
        await pilot_wait_until(
            pilot, lambda: button.content_size.width >= len(str(button.label)) > len("Import  ^s")
        )
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_bulk_edit(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await pilot.press("B")
        await settle(pilot, on("BulkScreen"))

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_split_bundle(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "incidents/index.md")
        await pilot.press("T", "X")
        await settle(pilot, on("SplitScreen"))

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_quit_with_unsaved_edits(snap_compare, app: KasApp) -> None:
    async def run_before(pilot) -> None:
        await go(pilot, "billing-support/refunds/refund-policy.md")
        await pilot.press("m")
        await settle(pilot, on("MetaEditor"))
        await pilot.press("tab", *" (draft)", "escape")
        await settle(pilot, lambda p: type(p.app.screen).__name__ in ("ChoiceScreen", "AskScreen"))

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


@SIZES
def test_footer_at_the_body(snap_compare, app: KasApp, size: tuple[int, int]) -> None:
    """The footer with the document's keys first (issue 32, item 5)."""

    async def run_before(pilot) -> None:
        await go(pilot, "billing-support/refunds/refund-policy.md")
        pilot.app.query_one("#body-scroll").focus()
        await settle(pilot, lambda p: "o Outline" in screen_rows(p.app)[-1])

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_freshness_dialog(snap_compare, app: KasApp) -> None:
    """Each button shows its key in brackets (issue 32, item 7)."""

    async def run_before(pilot) -> None:
        await go(pilot, "billing-support/plans-and-pricing.md")
        await pilot.press("S")
        await settle(pilot, on("ChoiceScreen"))

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
