"""What driving every key at 80×24 in tmux found cut or wrong (docs/tui-walkthrough.md):
the SKILL.md editor's body note, the import wizard's labels and the evaluation's
"draft 10 questions" promise. Each asserts the text a user reads, whole, at 80×24."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import Label, Static

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.bursts import send_burst
from tests.helpers.screen import rows_of, screen_text
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
SMALL = (80, 24)
FIRST = "oncall/oncall-overview.md"  # the first page of oncall/; the FAQ follows it


def _app(root: Path) -> KasApp:
    return KasApp(Package.open(root), today=TODAY, watch=False)


#: The demo's stale page (S extends its freshness, then asks about its entry's note).
STALE = "billing-support/plans-and-pricing.md"


async def _tree_on(pilot, app: KasApp, page: str) -> NavTree:
    """``page`` shown, the tree focused with its cursor on it."""
    tree = app.query_one(NavTree)
    app.go(page, reveal=True)
    await pilot_wait_until(pilot, lambda: app.location == page)
    tree.focus()
    await pilot_wait_until(pilot, lambda: tree.cursor_node.data.path == page)
    return tree


async def test_the_skill_editors_body_note_is_shown_whole_at_80x24(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("T", "home", "e")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "SkillEditor")
        await pilot.pause()
        note = app.screen.query_one("#skill-body-note")
        shown = " ".join(row.strip() for row in rows_of(app, note))
        # it was cut after "(recommended: under 500 lines," at 80 columns
        assert "lines · ~" in shown and "500 lines" in shown and "5,000 tokens)" in shown


async def test_the_import_wizards_labels_are_shown_whole_at_80x24(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("i")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "ImportWizard")
        await pilot.pause()
        labels = list(app.screen.query_one("#iw-files").query(Label))
        assert len(labels) >= 3
        for label in labels:
            text = str(label.render()).strip()
            field = label.parent.content_region
            # "Paths (comma or line separated; enter" and "Type (optional" were cut: the
            # label ran past its field's right edge, on one row
            assert label.region.right <= field.right, f"{text!r} runs past its field"
            assert label.region.width * label.region.height >= cell_len(text), text


async def test_the_evaluation_promises_no_more_questions_than_it_drafts(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("g")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "EvalScreen")
        empty = app.screen.query_one("#eval-empty", Static)
        await pilot_wait_until(pilot, lambda: "No evaluation" in str(empty.render()))
        # the demo drafts 3 of the 10 asked for: "press d to draft 10 questions" was wrong
        assert "press d to draft up to 10 questions" in str(empty.render())
        assert "draft up to 10" in screen_text(app).replace("\n", " ")


async def test_v_right_after_an_arrow_key_verifies_the_page_under_the_trees_cursor(
    root: Path,
) -> None:
    """In tmux, ``Down Down V`` sent at once verified the page shown before the last
    move: the key came before the tree's highlight message. It now acts on the page
    under the focused tree's cursor, the one the screen goes on to show."""
    app = _app(root)
    app.settings.reviewer = "sam.lee"
    async with app.run_test(size=SMALL) as pilot:
        tree = await _tree_on(pilot, app, FIRST)
        before = {p: len(d.meta.get("verified") or []) for p, d in app.package.documents.items()}
        tree.action_cursor_down()  # the highlight message is queued, not yet handled
        under = tree.cursor_node.data.path
        assert under != FIRST and app.location == FIRST
        app.action_mark_verified()
        await pilot.pause()
        after = {p: len(d.meta.get("verified") or []) for p, d in app.package.documents.items()}
        assert after[under] == before[under] + 1
        assert after[FIRST] == before[FIRST]
        assert app.location == under


async def test_the_footer_keeps_find_and_help_beside_each_panes_keys_at_80x24(
    root: Path,
) -> None:
    """In tmux the tree's footer read ``e c r M K J del ? q``: no ``/``. Each pane's
    footer starts with its own keys and, at 80 columns, still shows find and help."""
    from kas_tui.tui.widgets.body_pane import BodyPane
    from kas_tui.tui.widgets.files_view import FilesView
    from kas_tui.tui.widgets.findings import FindingsPanel
    from tests.helpers.screen import screen_rows

    def footer() -> str:
        return screen_rows(app)[-1].strip()

    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        tree = await _tree_on(pilot, app, FIRST)
        seen = {}
        await pilot_wait_until(pilot, lambda: footer().startswith("e Edit c New r Rename"))
        seen["tree"] = footer()
        await pilot.press("f")
        files = app.query_one(FilesView)
        await pilot_wait_until(pilot, lambda: files.has_focus)
        await pilot_wait_until(pilot, lambda: footer().startswith("r Rename M Move E"))
        seen["files"] = footer()
        await pilot.press("f")
        await pilot_wait_until(pilot, lambda: tree.has_focus)
        app.query_one(BodyPane).query_one("#body-scroll").focus()
        await pilot_wait_until(pilot, lambda: footer().startswith("e Edit l Links o Outline"))
        seen["document"] = footer()
        await pilot.press("v")
        panel = app.query_one(FindingsPanel)
        await pilot_wait_until(
            pilot, lambda: panel.display and panel.query_one("DataTable").has_focus
        )
        await pilot_wait_until(pilot, lambda: footer().startswith("n Next esc Close"))
        seen["findings"] = footer()
        for pane, line in seen.items():
            assert "/ Find" in line and "? Help" in line and "q Quit" in line, (pane, line)
            assert line.index("/ Find") < line.index("? Help"), (pane, line)


async def _create_form(pilot, app: KasApp):
    from kas_tui.tui.screens.create import CreateScreen

    await pilot.press("T", "home", "down", "c")  # On-call: create in oncall/
    await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "ChoiceScreen")
    await pilot.press("d")
    await pilot_wait_until(pilot, lambda: isinstance(app.screen, CreateScreen))
    form = app.screen
    await pilot_wait_until(pilot, lambda: form.focused is form.query_one("#field-type"))
    await pilot.press("tab")
    await pilot_wait_until(pilot, lambda: form.focused is form.query_one("#field-title"))
    return form


@pytest.mark.parametrize("between", ["\t", "\r"], ids=["tab", "enter"])
async def test_keys_sent_in_one_burst_land_in_the_fields_they_were_typed_for(
    root: Path, between: str
) -> None:
    """In tmux, ``send-keys "Pager tips" Tab "Short tips."`` into the create form put
    "Pager tipsShort tips." in the title: the keys after the Tab reached the title before
    the Tab had moved on (Enter the same)."""
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        form = await _create_form(pilot, app)
        send_burst(app, f"Pager tips{between}Short tips.")
        await pilot_wait_until(pilot, lambda: form.value("description") == "Short tips.")
        assert form.value("title") == "Pager tips"
        assert form.focused is form.query_one("#field-description")
        await pilot_wait_until(pilot, lambda: form.value("file-name") == "pager-tips")
        shown = screen_text(app)
        assert "title           Pager tips  " in shown and "Short tips." in shown


async def test_a_burst_of_tabs_and_shift_tabs_moves_one_field_each(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        form = await _create_form(pilot, app)
        send_burst(app, "A\tB\t")  # title, description, then on to the file name
        name = form.query_one("#field-file-name")
        await pilot_wait_until(pilot, lambda: form.focused is name)
        assert (form.value("title"), form.value("description")) == ("A", "B")
        await pilot.press("shift+tab")
        await pilot_wait_until(pilot, lambda: form.focused is form.query_one("#field-description"))


async def test_tab_still_indents_in_the_raw_yaml(root: Path) -> None:
    """Tab moves between fields as the app reads it, but for the field that takes it."""
    from textual.widgets import TextArea

    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        app.go(FIRST, reveal=True)
        await pilot_wait_until(pilot, lambda: app.location == FIRST)
        await pilot.press("m")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "MetaEditor")
        editor = app.screen
        await pilot_wait_until(pilot, lambda: editor.focused is not None)
        await pilot.press("ctrl+r")
        area = editor.query_one("#me-yaml", TextArea)
        await pilot_wait_until(pilot, lambda: editor.focused is area)
        area.move_cursor((0, 0))
        await pilot.press("tab")
        await pilot_wait_until(pilot, lambda: area.text.startswith("  "))
        assert editor.focused is area


async def test_keys_sent_with_ctrl_f_go_to_the_finder_it_opens(root: Path) -> None:
    """In tmux, ``send-keys C-f "collections agency" Enter`` opened the finder empty:
    the words had been handed to the tree before ctrl+f opened it, and were lost."""
    from kas_tui.tui.widgets.body_pane import BodyPane

    page = "billing-support/invoice-disputes.md"
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await pilot_wait_until(pilot, lambda: bool(app.screen.query("MetaPane")))
        app.query_one(NavTree).focus()
        await pilot.pause()
        send_burst(app, "\x06collections agency\r")
        body = app.query_one(BodyPane)
        await pilot_wait_until(pilot, lambda: app.location == page and not body.rendering)
        scroll = body.query_one("#body-scroll")
        await pilot_wait_until(pilot, lambda: scroll.scroll_y > 0)  # at the line, not the top
        assert "collections agency." in screen_text(app)


async def test_a_dialogs_answer_sent_with_the_key_that_opens_it_answers_it(root: Path) -> None:
    """``S`` then ``q`` in one burst: +90 days, as typed a moment apart (the ``q`` was
    handed to the tree before ``S`` opened the dialog, and lost)."""
    page = root / STALE
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _tree_on(pilot, app, STALE)
        send_burst(app, "Sq")  # a quarter, answered as the dialog opens
        await pilot_wait_until(
            pilot,
            lambda: (
                type(app.screen).__name__ == "ChoiceScreen"
                and "still call it stale" in str(app.screen.message)
            ),
        )
        await pilot.press("o")  # only the date (its entry's stale note stays)
        await pilot_wait_until(pilot, lambda: "stale_after: 2027-02-28" in page.read_text())


async def test_a_key_sent_with_the_answer_that_opens_the_next_question_answers_it(
    root: Path,
) -> None:
    """``S q o`` in one burst: a quarter, then "only the date" in the question the
    quarter opens (the ``o`` reached the first dialog while it closed, and was lost)."""
    page = root / STALE
    index = (root / "billing-support" / "index.md").read_bytes()
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _tree_on(pilot, app, STALE)
        send_burst(app, "Sqo")
        await pilot_wait_until(pilot, lambda: "stale_after: 2027-02-28" in page.read_text())
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "MainScreen")
        assert (root / "billing-support" / "index.md").read_bytes() == index  # note kept


async def test_s_right_after_an_arrow_key_onto_a_bundle_acts_on_no_page(root: Path) -> None:
    """In tmux, ``Down Down S q`` from a page went on to a bundle and extended the page
    it had left: the key came before the tree's highlight message, and only a page under
    the cursor was caught up with. Now the bundle is, and S has no page to act on."""
    page = "billing-support/failed-payments-dunning.md"  # the bundle "Refunds" follows it
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        tree = await _tree_on(pilot, app, page)
        before = (root / page).read_bytes()
        tree.action_cursor_down()  # the highlight message is queued, not yet handled
        assert tree.cursor_node.data.kind == "bundle" and app.location == page
        app.action_extend_freshness()
        await pilot.pause()
        assert type(app.screen).__name__ == "MainScreen"  # no dialog: no page is meant
        assert app.location == "billing-support/refunds/index.md"
        assert any("Select a document first" in m for _, m in app.messages)
        assert (root / page).read_bytes() == before
