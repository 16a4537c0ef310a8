"""Pilot tests of the bulk editor on a copy of demo_kb."""

from __future__ import annotations

import datetime as dt
import io

from rich.console import Console
from textual.widgets import DataTable, Input, OptionList, Select, Static

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens import bulk as bulk_screen
from kas_tui.tui.screens.bulk import BulkScreen, open_bulk_editor
from kas_tui.tui.screens.bulk_preview import BulkPreviewScreen
from kas_tui.tui.screens.choose import ChoiceScreen
from tests.helpers.acme import files
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
SIZE = (160, 48)


def new_app(package: Package) -> KasApp:
    return KasApp(package, today=TODAY, watch=False)


def rendered(renderable) -> str:
    console = Console(record=True, width=300, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def opened(pilot, paths: list[str] | None = None) -> BulkScreen:
    open_bulk_editor(pilot.app, paths)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, BulkScreen)
    return screen


async def settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def shown_paths(screen: BulkScreen) -> list[str]:
    table = screen.query_one("#bulk-table", DataTable)
    return [row.value for row in table.rows]


async def test_filter_select_tag_preview_write_and_undo_as_one(demo):
    root = demo.root
    before = files(root)
    app = new_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.query_one("#bulk-table", DataTable)
        assert table.row_count == len(demo.documents)
        # filter by type
        screen.query_one("#bulk-type", Select).value = "Runbook"
        await pilot.pause()
        runbooks = sorted(p for p, d in demo.documents.items() if d.type == "Runbook")
        assert shown_paths(screen) == runbooks and len(runbooks) >= 3
        assert "of 39 match" in str(table.border_title)
        # select the first three rows with space (the cursor moves down after each)
        table.focus()
        await pilot.press("space", "space", "space")
        chosen = runbooks[:3]
        assert list(screen.selected) == chosen
        assert rendered(table.get_cell(chosen[0], "mark")).strip() == "●"
        assert "3 selected" in str(table.border_subtitle)
        # the change: add a tag, typed into the value field
        screen.query_one("#bulk-value", Input).focus()
        await pilot.press(*"needs-review")
        summary = rendered(screen.query_one("#bulk-summary", Static).content)
        assert "add tag needs-review in 3 selected documents" in summary
        table.focus()
        await pilot.press("p")
        await settle(pilot)
        preview = app.screen
        assert isinstance(preview, BulkPreviewScreen)
        assert preview.result.changed == chosen
        assert files(root) == before  # a preview writes nothing
        listed = preview.query_one("#bulk-preview-files", OptionList)
        assert listed.option_count == 3
        for number, path in enumerate(chosen):
            section = rendered(preview.query_one(f"#bulk-diff-{number}", Static).content)
            assert path in section and "needs-review" in section
        assert "3 files will change" in rendered(
            preview.query_one("#bulk-preview-summary", Static).content
        )
        await pilot.press("w")
        await pilot.pause()
        await pilot.pause()  # the write runs once "Writing 3 files…" is drawn
        assert app.screen is screen
        after = files(root)
        assert sorted(k for k in after if after[k] != before[k]) == sorted([*chosen, "log.md"])
        for path in chosen:
            assert "needs-review" in demo.documents[path].tags
            assert "needs-review" in rendered(table.get_cell(path, "tags"))
        log = (root / "log.md").read_text()
        assert "Bulk: added tag needs-review to 3 documents." in log
        # one action: one undo puts every byte back
        app.action_undo()
        await pilot.pause()
        assert files(root) == before
        assert all("needs-review" not in demo.documents[p].tags for p in chosen)


async def test_refusals_select_all_none_and_the_selection_outliving_the_filter(demo, monkeypatch):
    monkeypatch.setattr(bulk_screen, "ROW_LIMIT", 10)
    app = new_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.query_one("#bulk-table", DataTable)
        assert table.row_count == 10
        assert "showing the first 10" in str(table.border_title)
        table.focus()
        await pilot.press("a")  # every match, not only the rows shown
        assert len(screen.selected) == len(demo.documents)
        await pilot.press("n")
        assert not screen.selected
        # select two, then filter them out: they stay selected, and the title says so
        await pilot.press("space", "space")
        picked = list(screen.selected)
        screen.query_one("#bulk-text", Input).value = "refund"
        await pilot_wait_until(pilot, lambda: all(p not in shown_paths(screen) for p in picked))
        assert "2 hidden by the filter" in str(table.border_subtitle)
        assert all("refund" in p for p in shown_paths(screen))
        # what the change still needs, and what is refused, is said under it
        summary = screen.query_one("#bulk-summary", Static)
        assert "Type the tag to add" in rendered(summary.content)
        screen.query_one("#bulk-op", Select).value = "set_field"
        screen.query_one("#bulk-key", Input).value = "status"
        screen.query_one("#bulk-value", Input).value = "retired"
        await pilot.pause()
        assert "status must be one of draft, stable, deprecated" in rendered(summary.content)
        screen.query_one("#bulk-value", Input).value = "draft"
        await pilot.pause()
        assert "set status to draft in 2 selected documents" in rendered(summary.content)
        await pilot.press("n")
        assert "Select documents" in rendered(summary.content)
        screen.query_one("#bulk-table").focus()
        await pilot.press("p")  # nothing selected: no preview
        await settle(pilot)
        assert app.screen is screen
        screen.query_one("#bulk-op", Select).value = "remove_field"
        screen.query_one("#bulk-key", Input).value = "type"
        await pilot.pause()
        assert not screen.query_one("#bulk-value").parent.display
        assert "type is required by OKF" in rendered(summary.content)
        screen.query_one("#bulk-op", Select).value = "add_tag"
        screen.query_one("#bulk-value", Input).value = "x\x1b[31m"
        await pilot.pause()
        assert "control characters" in rendered(summary.content)


async def test_literal_titles_a_cancelled_preview_and_a_file_changed_before_the_write(demo):
    root = demo.root
    path = "billing-support/billing-faq.md"
    text = (root / path).read_text()
    title = demo.documents[path].title
    (root / path).write_text(text.replace(f"title: {title}", 'title: "[bold]FAQ[/bold] [draft]"'))
    demo.reload_file(path)
    before = files(root)
    app = new_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        picked = sorted(demo.documents)[:4]
        assert path in picked
        screen = await opened(pilot, picked)
        assert list(screen.selected) == picked
        table = screen.query_one("#bulk-table", DataTable)
        assert table.get_cell(path, "title").plain == "[bold]FAQ[/bold] [draft]"
        # set a field; enter in the value previews; n cancels: nothing written
        screen.query_one("#bulk-op", Select).value = "set_field"
        await pilot.pause()
        assert screen.query_one("#bulk-key").parent.display
        screen.query_one("#bulk-key", Input).value = "review_cycle"
        screen.query_one("#bulk-value", Input).value = "90"
        await pilot.pause()
        screen.query_one("#bulk-value", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, BulkPreviewScreen)
        assert app.screen.result.changed == picked
        assert "+review_cycle: 90" in app.screen.diff
        await pilot.press("c")
        await pilot.pause()
        assert app.screen is screen
        assert files(root) == before
        # preview again, then another program changes a file before y
        screen.query_one("#bulk-op", Select).value = "add_tag"
        screen.query_one("#bulk-value", Input).value = "faq-[x]"
        table.focus()
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, BulkPreviewScreen)
        (root / path).write_text((root / path).read_text() + "\nEdited elsewhere.\n")
        changed = (root / path).read_bytes()
        await pilot.press("w")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)  # the app's conflict decision
        assert (root / path).read_bytes() == changed
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, BulkScreen)


async def test_at_80_columns_every_column_shown_fits_and_wider_tags_and_path_come_back(demo):
    """The walkthrough found the Staleness column cut at 80 columns: the table scrolled
    sideways. Narrow, tags and path give way to the title; wide, all eight are there."""
    from tests.helpers.screen import rows_of

    app = new_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        table = screen.query_one("#bulk-table", DataTable)
        header = rows_of(app, table)[1]
        assert "Staleness" in header and "Tags" not in header
        assert [c.label.plain for c in table.columns.values()][-1] == "Staleness"
        assert table.virtual_size.width <= table.size.width  # nothing beyond the edge
    app = new_app(Package.open(demo.root))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.query_one("#bulk-table", DataTable)
        labels = [c.label.plain for c in table.columns.values()]
        assert labels[-2:] == ["Tags", "Path"]
        assert table.virtual_size.width <= table.size.width
