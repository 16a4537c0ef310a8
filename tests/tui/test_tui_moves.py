"""Moves from the app at 80×24: rename (r), move to a bundle (M), split (X), merge (U).

Each asserts the bytes on disk: the move as planned, then ctrl+z puts back every byte
(and the page shown follows the item back), ctrl+y moves it again."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.choose import ChoiceScreen, DiffScreen
from kas_tui.tui.screens.moving import BundlePicker, SplitScreen
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.acme import changed, files
from tests.helpers.moves import broken_links
from tests.helpers.waiting import pilot_wait_until

SIZE = (80, 24)
DOC = "incidents/severity-levels.md"


def app_on(root: Path) -> KasApp:
    return KasApp(Package.open(root), today=dt.date(2026, 12, 1), watch=False)


async def select(pilot, path: str) -> None:
    """Put the navigation tree's cursor (and its focus) on ``path``."""
    app = pilot.app
    tree = app.query_one(NavTree)
    app.go(path if path.endswith(".md") else f"{path}/index.md", reveal=True)
    tree.focus()
    await pilot_wait_until(
        pilot, lambda: tree.cursor_node is not None and tree.cursor_node.data.path == path
    )


async def on_screen(pilot, kind: type) -> None:
    await pilot_wait_until(pilot, lambda: isinstance(pilot.app.screen, kind))


async def rename(pilot, path: str, name: str) -> None:
    """r on ``path`` in the tree, ``name`` typed, enter."""
    await select(pilot, path)
    await pilot.press("r")
    await on_screen(pilot, AskScreen)
    pilot.app.screen.query_one("#ask-input").value = name
    await pilot.press("enter")


async def undo_and_redo(pilot, root: Path, before: dict, after: dict, old: str, new: str) -> None:
    """ctrl+z restores every byte and shows ``old`` again; ctrl+y moves it to ``new``."""
    app = pilot.app
    await pilot.press("ctrl+z")
    await pilot_wait_until(pilot, lambda: files(root) == before)
    await pilot_wait_until(pilot, lambda: app.location == old)
    await pilot.press("ctrl+y")
    await pilot_wait_until(pilot, lambda: files(root) == after)
    await pilot_wait_until(pilot, lambda: app.location == new)


async def test_rename_shows_the_count_then_follows_the_document(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        await select(pilot, DOC)
        await pilot.press("r")
        await on_screen(pilot, AskScreen)
        assert app.screen.query_one("#ask-input").value == "severity-levels.md"
        await pilot.press("escape")
        await rename(pilot, DOC, "sev-levels.md")
        await on_screen(pilot, ChoiceScreen)
        message = str(app.screen.query_one("#choice-message").render())
        assert "1 file renamed, 14 other files rewritten (15 files in all)" in message
        assert files(root) == before, "nothing is written before the answer"
        await pilot.press("r")
        new = "incidents/sev-levels.md"
        await pilot_wait_until(pilot, lambda: (root / new).is_file())
        after = files(root)
        assert changed(before, after) >= {DOC, new, "SKILL.md", "incidents/index.md", "log.md"}
        assert broken_links(app.package) == []
        tree = app.query_one(NavTree)
        await pilot_wait_until(pilot, lambda: app.location == new)
        await pilot_wait_until(pilot, lambda: tree.cursor_node.data.path == new)
        await undo_and_redo(pilot, root, before, after, DOC, new)


async def test_a_refused_name_says_why_in_the_dialog(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        await rename(pilot, DOC, "incident-response.md")
        error = app.screen.query_one("#ask-error")
        await pilot_wait_until(pilot, lambda: error.display)
        assert "exists already" in str(error.render())
        assert isinstance(app.screen, AskScreen), "the dialog stays open to correct the name"
        await pilot.press("escape")
    assert files(root) == before


async def test_move_to_a_bundle_picked_from_the_list_with_its_diff(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        await select(pilot, DOC)
        await pilot.press("M")
        await on_screen(pilot, BundlePicker)
        assert "incidents" not in app.screen.shown, "not the bundle it is in"
        await pilot.press(*"oncall", "enter")
        await on_screen(pilot, ChoiceScreen)
        await pilot.press("d")
        await on_screen(pilot, DiffScreen)
        assert "rename incidents/severity-levels.md => oncall/severity-levels.md" in app.screen.diff
        await pilot.press("m")
        new = "oncall/severity-levels.md"
        await pilot_wait_until(pilot, lambda: (root / new).is_file())
        after = files(root)
        assert "severity-levels.md" in (root / "oncall/index.md").read_text()
        await pilot_wait_until(pilot, lambda: app.location == new)
        await undo_and_redo(pilot, root, before, after, DOC, new)


async def test_rename_a_bundle_from_the_tree(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        await rename(pilot, "slos", "service-levels")
        await on_screen(pilot, ChoiceScreen)
        await pilot.press("r")
        await pilot_wait_until(pilot, lambda: (root / "service-levels/index.md").is_file())
        assert not (root / "slos").exists()
        await pilot_wait_until(pilot, lambda: app.location == "service-levels/index.md")
        after = files(root)
        await undo_and_redo(pilot, root, before, after, "slos/index.md", "service-levels/index.md")


async def test_split_from_the_palette_key(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        await select(pilot, "oncall")
        await pilot.press("X")
        await on_screen(pilot, SplitScreen)
        choices = app.screen.query_one("#split-list")
        paths = [choices.get_option_at_index(i).value for i in range(choices.option_count)]
        for path in ("oncall/opsgenie-runbook.md", "oncall/pagerduty-runbook.md"):
            choices.select(path)
        assert len(paths) == 6
        app.screen.query_one("#split-name").value = "paging-tools"
        app.screen.query_one("#split-description").value = "The PagerDuty and Opsgenie runbooks."
        app.screen.query_one("#split-description").focus()
        await pilot.press("enter")
        await on_screen(pilot, ChoiceScreen)
        await pilot.press("s")
        await pilot_wait_until(pilot, lambda: (root / "oncall/paging-tools/index.md").is_file())
        index = (root / "oncall/index.md").read_text()
        assert "* [Paging tools](paging-tools/) - The PagerDuty and Opsgenie runbooks." in index
        await pilot.press("ctrl+z")
        await pilot_wait_until(pilot, lambda: files(root) == before)


async def test_merge_into_a_picked_bundle(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        await select(pilot, "incidents/postmortems")
        await pilot.press("U")
        await on_screen(pilot, BundlePicker)
        assert not any(f.startswith("incidents/postmortems") for f in app.screen.shown)
        app.screen.query_one("#pick-input").value = "incidents"
        await pilot.pause()
        assert app.screen.shown[0] == "incidents"
        await pilot.press("enter")
        await on_screen(pilot, ChoiceScreen)
        await pilot.press("m")
        await pilot_wait_until(pilot, lambda: not (root / "incidents/postmortems").exists())
        assert (root / "incidents/postmortem-process.md").is_file()
        await pilot.press("ctrl+z")
        await pilot_wait_until(pilot, lambda: files(root) == before)
