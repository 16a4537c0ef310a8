"""The TUI at 80×24, what must be readable (issue 32, items 1-4, 8 and 9): the page beside
the outline and the files view, the SKILL.md editor's body, the findings panel closable
and no taller than it needs, lifecycle flags in a narrow tree, zooming a pane, toasts
over dialogs, j/k in the tree, and form fields that keep their value when tabbed into.

Each asserts what the screen shows (text, widths in cells, heights in rows), not only a
snapshot; the snapshots are in test_snapshots_80x24.py.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from textual.widgets import DataTable, TextArea

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.findings import FindingsPanel
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.screen import rows_of, screen_text
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
SMALL = (80, 24)
LARGE = (120, 40)
#: Cells of text a line the page keeps whatever is open beside it: its width at 80 columns
#: beside the tree alone (pane_widths.BODY_LEAST); with the outline open it was 2 to 5,
#: beside the files view about 20.
READABLE = 34


def _app(root: Path) -> KasApp:
    return KasApp(Package.open(root), today=TODAY, watch=False)


async def _at(pilot, app: KasApp, place: str) -> None:
    await pilot_wait_until(pilot, lambda: bool(app.screen.query("MetaPane")))
    app.go(place, reveal=True)
    body = app.query_one(BodyPane)
    await pilot_wait_until(pilot, lambda: app.location == place and not body.rendering)
    await pilot.pause()


def _footer_keys(app: KasApp) -> list[str]:
    return [key.key for key in app.screen.query("FooterKey")]


def _page_width(app: KasApp) -> int:
    """Cells a line of the page's text has: the Markdown's own width in the body pane."""
    return app.query_one(BodyPane).query_one("#markdown").content_region.width


# -- 1: the outline -----------------------------------------------------------------------


async def test_the_page_stays_readable_beside_the_outline_at_80x24(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, "incidents/incident-response.md")
        await pilot.press("o")
        body = app.query_one(BodyPane)
        await pilot_wait_until(pilot, lambda: body.outline_shown)
        await pilot.pause()
        assert _page_width(app) >= READABLE  # it was 2 to 5 cells
        shown = screen_text(app)
        assert "Use this for every SEV1 and SEV2." in shown  # a sentence on one line
        assert "2. Assign roles" in shown and "6. Learn" in shown  # the outline beside it
        assert not app.query_one(NavTree).display  # the tree gave way to the outline
        await pilot.press("o")  # closed: the tree is back, and has the focus
        await pilot_wait_until(pilot, lambda: app.query_one(NavTree).has_focus)
        assert app.query_one(NavTree).display and not body.outline_shown


async def test_at_120x40_the_tree_narrows_beside_the_outline_and_stays(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=LARGE) as pilot:
        await _at(pilot, app, "incidents/incident-response.md")
        await pilot.press("o")
        await pilot_wait_until(pilot, lambda: app.query_one(BodyPane).outline_shown)
        await pilot.pause()
        tree = app.query_one(NavTree)
        assert tree.display and tree.region.width >= 30
        assert _page_width(app) >= READABLE


# -- 4: the files view, widths, zoom --------------------------------------------------------


async def test_the_files_view_takes_the_trees_place_at_80x24_and_not_at_120x40(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, "oncall/escalation-policy.md")
        await pilot.press("f")
        files = app.query_one(FilesView)
        await pilot_wait_until(pilot, lambda: files.display and files.has_focus)
        await pilot.pause()
        assert _page_width(app) >= READABLE  # it was about 22
        assert files.region.width >= 30
        assert "escalation-policy.md" in "\n".join(rows_of(app, files))
        assert not app.query_one(NavTree).display
        # at 120×40 the tree comes back beside the files view, the page as wide
        await pilot.resize_terminal(*LARGE)
        tree = app.query_one(NavTree)
        await pilot_wait_until(pilot, lambda: tree.display and tree.region.width >= 30)
        await pilot.pause()
        assert files.region.width >= 24 and _page_width(app) >= READABLE
        await pilot.resize_terminal(*SMALL)
        await pilot_wait_until(pilot, lambda: not tree.display)
        await pilot.press("f")
        await pilot_wait_until(pilot, lambda: tree.has_focus)
        assert not files.display


async def test_lifecycle_flags_show_in_the_tree_at_80x24(root: Path) -> None:
    """A title too long for the narrow tree gives way to its flags (they were cut off)."""
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, "oncall/opsgenie-runbook.md")
        await _at(pilot, app, "billing-support/plans-and-pricing.md")
        rows = rows_of(app, app.query_one(NavTree))
        opsgenie = next(row for row in rows if "● Opsgenie" in row)
        assert "… [deprecated]" in opsgenie  # "Opsgenie runbook (legacy)" gave way
        assert any("Plans and pricing [stale]" in row for row in rows)


async def test_z_zooms_the_focused_pane_and_gives_the_others_back(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, "incidents/incident-response.md")
        body = app.query_one(BodyPane)
        body.query_one("#body-scroll").focus()
        await pilot.press("z")
        await pilot_wait_until(pilot, lambda: app.screen.maximized is body)
        await pilot.pause()
        assert body.region.width == 80 and body.region.height >= 20
        assert _page_width(app) >= 70
        assert "Anyone can declare an incident." in screen_text(app)
        await pilot.press("z")
        await pilot_wait_until(pilot, lambda: app.screen.maximized is None)
        tree = app.query_one(NavTree)
        await pilot.press("T", "z")  # the tree, and escape gives the others back too
        await pilot_wait_until(pilot, lambda: app.screen.maximized is tree)
        await pilot_wait_until(pilot, lambda: tree.region.width == 80)  # not its 36 columns
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: app.screen.maximized is None)
        await pilot_wait_until(pilot, lambda: tree.region.width == 36)


async def test_finding_messages_wrap_and_end_at_a_word_at_80x24(root: Path) -> None:
    """A message wraps onto up to three lines beside a file column that gives way (it was
    cut off); a longer one ends after a whole word with an ellipsis (issue 16.19)."""
    from kas_tui.tui.widgets.findings import MESSAGE_LINES

    (root / "oncall" / "stray.md").write_text(
        "---\ntype: Note\ntitle: Stray\n---\nSee [x](nope.md).\n"
    )
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("v")
        panel = app.query_one(FindingsPanel)
        await pilot_wait_until(pilot, lambda: bool(panel.findings))
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = panel.query_one(DataTable)
        width = table.columns["message"].width  # type: ignore[index]
        assert width > table.columns["file"].width  # type: ignore[index]
        assert width >= 28  # three lines of it hold most messages
        whole = cut = 0
        for number, finding in enumerate(panel.findings):
            lines = table.get_cell(str(number), "message").plain.split("\n")
            assert len(lines) <= MESSAGE_LINES and all(len(line) <= width for line in lines)
            shown = " ".join(lines)
            if shown == " ".join(finding.message.split()):
                whole += 1
                continue
            cut += 1
            assert shown.endswith("…")
            kept, message = shown[:-1].rstrip(), " ".join(finding.message.split())
            assert message.startswith(kept) and message[len(kept)] in " ,;:"  # at a word
        assert whole > cut  # most are read whole at 80 columns
        await pilot.resize_terminal(200, 48)  # wider: a message on one line
        await pilot_wait_until(
            pilot,
            lambda: all(
                table.get_cell(str(n), "message").plain == f.message
                for n, f in enumerate(panel.findings)
                if len(f.message) < 80
            ),
        )


# -- 3: the findings panel --------------------------------------------------------------------


async def test_escape_closes_the_findings_and_the_focus_goes_back(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, "incidents/index.md")
        tree = app.query_one(NavTree)
        tree.focus()
        await pilot.press("v")
        panel = app.query_one(FindingsPanel)
        table = panel.query_one(DataTable)
        await pilot_wait_until(pilot, lambda: table.has_focus)
        await pilot_wait_until(pilot, lambda: "escape" in _footer_keys(app))  # "esc Close"
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: not panel.display)
        assert tree.has_focus
        await pilot_wait_until(pilot, lambda: "escape" not in _footer_keys(app))
        # Tab elsewhere, then escape: closed all the same
        await pilot.press("v")
        await pilot_wait_until(pilot, lambda: table.has_focus)
        await pilot.press("tab")
        assert not table.has_focus
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: not panel.display)
        await pilot_wait_until(pilot, lambda: "escape" not in _footer_keys(app))
        # v opens it, v again closes it
        await pilot.press("v")
        await pilot_wait_until(pilot, lambda: table.has_focus)
        await pilot.press("v")
        await pilot_wait_until(pilot, lambda: not panel.display)
        assert tree.has_focus
        assert app.report is not None  # n still goes from finding to finding
        await pilot.press("n")
        await pilot_wait_until(pilot, lambda: app.location == app.report.findings[0].path)


async def test_a_clean_check_takes_three_rows_and_one_finding_five(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("v")
        panel = app.query_one(FindingsPanel)
        await pilot_wait_until(pilot, lambda: len(panel.findings) == 1)
        await pilot.pause()
        # the frame, the counts, the column heads and the finding's two lines: not 7 rows
        assert panel.region.height <= 6
        assert "stale since 46 days" in "\n".join(rows_of(app, panel))
        await pilot.press("escape")
    # the same package with nothing to find
    index = root / "billing-support" / "index.md"
    index.write_text(index.read_text().replace("(Stale: quarterly price review overdue.) ", ""))
    doc = root / "billing-support" / "plans-and-pricing.md"
    doc.write_text(doc.read_text().replace("stale_after: 2026-10-15", "stale_after: 2027-10-15"))
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("v")
        await pilot_wait_until(pilot, lambda: app.report is not None)
        await pilot.pause()
        panel = app.query_one(FindingsPanel)
        assert not panel.findings
        assert panel.region.height == 3  # the frame and "0 errors · 0 warnings · 0 infos"
        assert "0 errors" in "\n".join(rows_of(app, panel))
        assert app.query_one(NavTree).has_focus  # nothing to go through: the focus stays


# -- 2: the SKILL.md editor ---------------------------------------------------------------------


async def test_the_skill_editor_shows_the_description_whole_and_six_body_lines(
    root: Path,
) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("T", "home", "e")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "SkillEditor")
        await pilot.pause()
        body = app.screen.query_one("#skill-body", TextArea)
        desc = app.screen.query_one("#skill-desc", TextArea)
        assert body.content_region.height >= 6  # it was 1 line of 98
        assert desc.max_scroll_y == 0 and desc.scroll_y == 0  # its top is not cut
        shown = screen_text(app)
        assert "Engineering and support handbook of Orbit" in shown
        assert "# Orbit handbook" in shown  # the body's heading
        assert "Save ^s" in shown and "Cancel esc" in shown


# -- 8: toasts and j/k ---------------------------------------------------------------------------


async def test_a_dialog_opening_takes_the_toasts_away(root: Path) -> None:
    from textual.widgets._toast import Toast

    app = _app(root)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await _at(pilot, app, "billing-support/plans-and-pricing.md")
        app.notify("A note said before the dialog opens", timeout=30)
        await pilot_wait_until(pilot, lambda: bool(app.screen.query(Toast)))
        await pilot.press("S")  # the freshness dialog
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "ChoiceScreen")
        await pilot.pause()
        assert not list(app._notifications)
        shown = screen_text(app)
        assert "+365 days" in shown  # its last button is not covered
        assert "A note said" not in shown  # not over the dialog, nor beside it


async def test_a_toast_over_a_dialog_is_brief_and_shown_whole(root: Path) -> None:
    from textual.widgets._toast import Toast

    from kas_tui.tui.controllers.toasts import OVER_DIALOG

    app = _app(root)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await _at(pilot, app, "billing-support/plans-and-pricing.md")
        await pilot.press("S")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "ChoiceScreen")
        message = (
            "billing-support/plans-and-pricing.md changed on disk since the dialog opened; "
            "nothing was written, so choose again once you have looked at it"
        )
        app.notify(message, title="Not saved", severity="error", timeout=10)
        await pilot_wait_until(pilot, lambda: bool(app.screen.query(Toast)))
        await pilot.pause()
        assert all(n.timeout <= OVER_DIALOG for n in app._notifications)
        toast = app.screen.query_one(Toast)
        rows = screen_text(app).split("\n")
        assert toast.region.bottom <= len(rows)
        region = toast.region
        shown = [row[region.x : region.right] for row in rows[region.y : region.bottom]]
        assert "Not saved" in shown[1] and "billing-support/" in shown[2]
        assert shown[-2].split()[-1] == "it"  # its last line too, above its bottom padding


async def test_j_and_k_move_in_the_tree_and_the_files_view(root: Path) -> None:
    app = _app(root)
    before = {p: p.read_bytes() for p in root.rglob("*.md")}
    async with app.run_test(size=SMALL) as pilot:
        await pilot_wait_until(pilot, lambda: app.location == "SKILL.md")
        tree = app.query_one(NavTree)
        tree.focus()
        await pilot.press("j", "j")
        await pilot_wait_until(pilot, lambda: tree.cursor_line == 2)
        await pilot.press("k")
        await pilot_wait_until(pilot, lambda: tree.cursor_line == 1)
        await pilot_wait_until(pilot, lambda: app.location == "oncall/index.md")
        await pilot.press("f")
        files = app.query_one(FilesView)
        await pilot_wait_until(pilot, lambda: files.has_focus)
        line = files.cursor_line
        await pilot.press("j")
        await pilot_wait_until(pilot, lambda: files.cursor_line == line + 1)
        await pilot.press("k")
        await pilot_wait_until(pilot, lambda: files.cursor_line == line)
    assert {p: p.read_bytes() for p in root.rglob("*.md")} == before  # J and K's work, not j's


# -- 9: tabbing into a field -----------------------------------------------------------------------


async def test_tabbing_into_a_field_keeps_its_value_and_types_at_the_end(root: Path) -> None:
    from textual.widgets import Input

    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, "oncall/escalation-policy.md")
        await pilot.press("T", "e")  # the entry editor: its description has the focus
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "EntryEditor")
        title = app.screen.query_one("#entry-title", Input)
        before = title.value
        await pilot.press("shift+tab")
        await pilot_wait_until(pilot, lambda: title.has_focus)
        assert title.selection.is_empty and title.cursor_position == len(before)
        await pilot.press("Z")
        assert title.value == before + "Z"  # it became "Z"
        await pilot.press("tab")  # the description: typed at its end, too
        desc = app.screen.query_one("#entry-desc", TextArea)
        await pilot_wait_until(pilot, lambda: desc.has_focus)
        await pilot.press("Q")
        assert desc.text.endswith("Q") and len(desc.text) > 1


async def test_the_frontmatter_form_and_a_dialog_keep_their_values_too(root: Path) -> None:
    from textual.widgets import Input

    from kas_tui.tui.screens.ask import AskScreen

    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, "oncall/escalation-policy.md")
        await pilot.press("m")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "MetaEditor")
        title = app.screen.query_one("#field-title", Input)
        before = title.value
        for _ in range(10):
            if title.has_focus:
                break
            await pilot.press("tab")
        assert title.has_focus
        await pilot.press("Z")
        assert title.value == before + "Z"
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ != "MetaEditor")
        if type(app.screen).__name__ != "MainScreen":  # asked about the change: discard it
            await pilot.press("d")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "MainScreen")
        app.push_screen(AskScreen("Who is verifying?", "Your reviewer id", value="maria.chen"))
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, AskScreen))
        field = app.screen.query_one(Input)
        await pilot_wait_until(pilot, lambda: field.has_focus)
        await pilot.press("S")
        assert field.value == "maria.chenS"  # the dialog's prefilled answer stays
