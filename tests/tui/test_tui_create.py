"""``c`` in the app: create a document, a bundle or the missing SKILL.md, at 80×24."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.create import plan_skill
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import ChoiceScreen
from kas_tui.tui.screens.create import CreateScreen
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.acme import changed, files
from tests.helpers.create import DESCRIPTION, RUNBOOK, fixed_clock  # noqa: F401
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
SIZE = (80, 24)
DOC = "incidents/rotate-the-stripe-key.md"


pytestmark = pytest.mark.usefixtures("fixed_clock")


def app_on(root: Path) -> KasApp:
    return KasApp(Package.open(root), today=TODAY, watch=False)


async def open_form(pilot, key: str) -> CreateScreen:
    """``c``, then the answer ``key`` (d: document, b: bundle, s: SKILL.md)."""
    app = pilot.app
    await pilot.press("c")
    await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
    await pilot.press(key)
    await pilot_wait_until(pilot, lambda: isinstance(app.screen, CreateScreen))
    screen = app.screen
    await pilot_wait_until(pilot, lambda: screen.focused is not None)
    return screen


def finding_keys(root: Path) -> set[tuple[str, str, str]]:
    report = check(Package.open(root), agent_ready=True, today=TODAY)
    return {(f.code, f.severity, f.path) for f in report.findings}


async def test_c_creates_a_document_in_the_selected_bundle_and_ctrl_z_removes_it(
    root: Path,
) -> None:
    before = files(root)
    findings_before = finding_keys(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        app.go("incidents/severity-levels.md", reveal=True)  # the bundle: the document's
        await pilot.pause()
        form = await open_form(pilot, "d")
        assert form.bundle == "incidents" and form.value("type") == "Procedure"
        await pilot.press("down")  # the next type: Runbook (the package's own come first)
        assert form.value("type") == "Runbook"
        await pilot.press("tab", *"Rotate the Stripe key", "tab", *DESCRIPTION)
        await pilot_wait_until(pilot, lambda: form.value("file-name") == "rotate-the-stripe-key")
        await pilot.press("tab", "tab", *"stripe, secrets")
        await pilot_wait_until(
            pilot, lambda: ("entry", "incidents/index.md, section “Runbooks”") in form.where()
        )
        await pilot.press("ctrl+s")
        await pilot_wait_until(pilot, lambda: not isinstance(app.screen, CreateScreen))
        after = files(root)
        assert changed(before, after) == {DOC, "incidents/index.md", "log.md"}
        assert after[DOC].decode() == RUNBOOK
        index = after["incidents/index.md"].decode()
        assert (
            "promotion.\n* [Rotate the Stripe key](rotate-the-stripe-key.md) - "
            f"{DESCRIPTION}\n\n# After the incident"
        ) in index
        assert (
            "* **Creation**: Created the draft [Rotate the Stripe key]"
            "(/incidents/rotate-the-stripe-key.md).\n"
        ) in after["log.md"].decode()
        # the tree shows and selects the new document
        assert app.location == DOC
        tree = app.query_one(NavTree)
        assert tree.cursor_node is not None and tree.cursor_node.data.path == DOC
        # a draft adds no finding to the agent-ready check
        assert finding_keys(root) == findings_before
        await pilot.press("ctrl+z")
        await pilot_wait_until(pilot, lambda: files(root) == before)
        assert DOC not in app.package.documents
        await pilot.press("ctrl+y")
        await pilot_wait_until(pilot, lambda: files(root) == after)


async def test_c_creates_a_bundle_in_the_selected_one(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        app.go("incidents/index.md", reveal=True)
        await pilot.pause()
        form = await open_form(pilot, "b")
        await pilot.press(*"Game-day drills", "tab")
        await pilot.press(*"Failover drills and game days: schedule, scripts and reports.")
        await pilot_wait_until(pilot, lambda: form.value("folder") == "game-day-drills")
        await pilot.press("ctrl+s")
        await pilot_wait_until(pilot, lambda: not isinstance(app.screen, CreateScreen))
        after = files(root)
        assert after["incidents/game-day-drills/index.md"] == b"# Game-day drills\n"
        assert changed(before, after) == {
            "incidents/game-day-drills/index.md",
            "incidents/index.md",
            "log.md",
        }
        assert app.location == "incidents/game-day-drills/index.md"
        await pilot.press("ctrl+z")
        await pilot_wait_until(pilot, lambda: files(root) == before)
        assert not (root / "incidents/game-day-drills").exists()


async def test_a_taken_file_name_is_refused_at_its_field(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        app.go("incidents/severity-levels.md", reveal=True)
        await pilot.pause()
        form = await open_form(pilot, "d")
        await pilot.press("tab", *"Severity levels", "tab", *"Definitions of the levels.")
        # tabbed into, the drafted name is kept, the cursor at its end (issue 32, item 9):
        # ctrl+u clears it before typing another
        await pilot.press("tab", "ctrl+u", *"severity-levels")
        row = form.row("file-name")
        await pilot_wait_until(pilot, lambda: row.error == "severity-levels is taken in incidents/")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form and files(root) == before
        assert form.focused is row.editor
        await pilot.press("escape")  # unsaved: asked first
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")
        await pilot_wait_until(
            pilot, lambda: not isinstance(app.screen, (CreateScreen, ChoiceScreen))
        )
    assert files(root) == before


async def test_a_folder_without_skill_md_offers_to_create_one(root: Path) -> None:
    (root / "SKILL.md").unlink()
    before = files(root)
    description = "Orbit's engineering handbook. Use when asked how Orbit staff handle incidents."
    expected = plan_skill(Package.open(root), description=description).text
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any("Press c to create one" in m for _, m in app.messages)
        await pilot.press("e")  # on the tree's root: the SKILL.md it lacks
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, CreateScreen))
        form = app.screen
        assert form.kind == "skill" and form.value("name") == "orbit-handbook"
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: not isinstance(app.screen, CreateScreen))
        form = await open_form(pilot, "s")
        name = form.row("name")
        await pilot.press("shift+tab", "end", "_", "X")  # the rule, enforced as typed
        await pilot_wait_until(pilot, lambda: bool(name.error))
        assert "Skill name 'orbit-handbook_X' must be lowercase" in name.error
        await pilot.press("backspace", "backspace")
        await pilot_wait_until(pilot, lambda: name.error is None)
        await pilot.press("tab", *description)
        await pilot.press("ctrl+s")
        await pilot_wait_until(pilot, lambda: not isinstance(app.screen, CreateScreen))
        assert changed(before, files(root)) == {"SKILL.md", "log.md"}
        assert (root / "SKILL.md").read_text() == expected
        assert app.package.skill is not None and app.location == "SKILL.md"
        await pilot.press("ctrl+z")
        await pilot_wait_until(pilot, lambda: files(root) == before)
