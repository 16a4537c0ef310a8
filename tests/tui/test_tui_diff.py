"""The diff view (``d``) at 80×24: the working package against a git revision made in the
test, the changes listed by group, Enter opening a row's document; without a repository
or with a revision that names nothing, one line says why."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from textual.widgets import Input, OptionList, Static

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.diff_view import DiffScreen
from kas_tui.tui.screens.main_screen import MainScreen
from tests.helpers.acme import make_package
from tests.helpers.diff import repository
from tests.helpers.screen import screen_text
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 12, 5)
SIZE = (80, 24)


def _app(root: Path) -> KasApp:
    return KasApp(Package.open(root), today=TODAY, watch=False)


async def open_view(pilot) -> DiffScreen:
    await pilot.press("d")
    await pilot_wait_until(pilot, lambda: isinstance(pilot.app.screen, DiffScreen))
    screen = pilot.app.screen
    await pilot_wait_until(pilot, lambda: "Reading" not in str(_counts(screen)))
    return screen


def _counts(screen: DiffScreen) -> str:
    return str(screen.query_one("#diff-counts", Static).content)


async def highlight(pilot, screen: DiffScreen, group: str, path: str) -> None:
    index = next(n for n, r in enumerate(screen.rows) if (r.group, r.path) == (group, path))
    options = screen.query_one("#diff-list", OptionList)
    options.highlighted = next(
        i for i in range(options.option_count) if options.get_option_at_index(i).id == str(index)
    )
    await pilot.pause()


async def test_the_changes_since_head_at_80x24_and_enter_opens_one(tmp_path: Path) -> None:
    root = repository(tmp_path)
    app = _app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_view(pilot)
        assert screen.diff is not None and screen.diff.before.startswith("HEAD (")
        assert "documents: 1 added, 1 removed, 1 moved, 1 changed" in _counts(screen)
        groups = [r.group for r in screen.rows]
        assert groups == sorted(
            groups, key=["findings", "documents", "entries", "catalog", "links", "tokens"].index
        )
        text = screen_text(app)
        assert "Findings · 2" in text and "billing/sla-credits.md:9" in text
        moved = next(r for r in screen.rows if r.mark == "→")
        assert (moved.path, moved.summary) == (
            "billing/invoices.md",
            "moved from billing/invoice-disputes.md (same body)",
        )
        await highlight(pilot, screen, "documents", "billing/invoices.md")
        assert "moved from billing/invoice-disputes.md" in str(
            screen.query_one("#diff-detail", Static).content
        )
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.location == "billing/invoices.md"


async def test_a_removed_document_is_not_opened(tmp_path: Path) -> None:
    root = repository(tmp_path)
    app = _app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_view(pilot)
        await highlight(pilot, screen, "documents", "billing/chargebacks.md")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, MainScreen))


async def test_another_revision_and_one_that_names_nothing(tmp_path: Path) -> None:
    root = repository(tmp_path)
    app = _app(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_view(pilot)
        await pilot.press("r")
        field = screen.query_one("#diff-rev", Input)
        assert field.has_focus
        field.value = ""
        await pilot.press(*"nope", "enter")
        await pilot_wait_until(pilot, lambda: "names no commit" in _counts(screen))
        assert screen.rows == [] and screen.diff is None
        await pilot.press("r")
        field.value = "main"
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: screen.diff is not None)
        assert screen.diff.before.startswith("main (") and screen.rows


async def test_outside_a_repository_one_line_says_so(tmp_path: Path) -> None:
    app = _app(make_package(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_view(pilot)
        assert "is not in a git repository; --since needs one" in _counts(screen)
        assert not screen.rows
