"""Keys you can find, at 80×24 (issue 32, items 5 and 7).

The footer shows the keys of the pane holding the focus first (the tree's at the tree,
the document's at the frontmatter or the body, the findings' in the findings), and ``?``
lists that pane's keys first. Every dialog answers the same way: each button shows its
key in brackets, one letter of its label, no two alike; enter presses the highlighted
button, escape cancels. Each test reads what the terminal shows, then presses the keys
it shows.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Button, Static

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import (
    ChoiceScreen,
    ConfirmScreen,
    DiffScreen,
    button_keys,
    keyed_label,
)
from kas_tui.tui.screens.help import HelpScreen
from kas_tui.tui.screens.meta_editor import MetaEditor, open_meta_editor
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.findings import FindingsPanel
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.screen import screen_rows, screen_text
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
SMALL = (80, 24)
DOC = "billing-support/plans-and-pricing.md"  # listed in billing-support/index.md, stale
INDEX = "billing-support/index.md"


def _app(root: Path) -> KasApp:
    return KasApp(Package.open(root), today=TODAY, watch=False)


async def _at(pilot, app: KasApp, place: str) -> None:
    await pilot_wait_until(pilot, lambda: bool(app.screen.query("MetaPane")))
    app.go(place, reveal=True)
    body = app.query_one(BodyPane)
    await pilot_wait_until(pilot, lambda: app.location == place and not body.rendering)
    await pilot.pause()


def _footer(app: KasApp) -> str:
    """The footer as the terminal shows it: the main screen's last row."""
    return screen_rows(app)[-1]


async def _footer_says(pilot, app: KasApp, *words: str) -> str:
    await pilot_wait_until(pilot, lambda: all(word in _footer(app) for word in words))
    return _footer(app)


# -- item 5: the focused pane's keys first ---------------------------------------------


async def test_the_footer_at_the_tree_shows_the_tree_keys_first(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        app.query_one(NavTree).focus()
        row = await _footer_says(pilot, app, "e Edit", "c New", "r Rename", "M Move")
        # what the old footer never showed, readable at 80 columns, then help and quit
        assert row.startswith("e Edit c New r Rename M Move K Up J Down")
        assert "? Help" in row and "q Quit" in row and "^p palette" in row
        assert "o Outline" not in row and "l Links" not in row  # the document's keys
        # find is kept at any width, after the pane's keys; del gave way (? lists it)
        assert "/ Find" in row and "del Unlist" not in row


async def test_the_footer_at_the_document_shows_its_keys_and_they_work(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        app.query_one("#body-scroll").focus()
        row = await _footer_says(pilot, app, "o Outline", "V Verify", "D Deprecate", "/ Find")
        assert row.startswith("e Edit l Links o Outline V Verify D Deprecate / Find ? Help")
        assert "K Up" not in row and "del Unlist" not in row  # the tree's keys
        # the frontmatter pane is the same document's: the same keys (after its own)
        app.query_one("#meta").focus()
        await _footer_says(pilot, app, "e Edit", "l Links", "o Outline")
        await pilot.press("o")  # a key the footer shows does what it says
        await pilot_wait_until(pilot, lambda: app.query_one(BodyPane).outline_shown)


async def test_the_footer_follows_the_focus_to_the_findings_and_the_files(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        app.query_one(NavTree).focus()
        await pilot.press("v")
        panel = app.query_one(FindingsPanel)
        await pilot_wait_until(pilot, lambda: panel.display and panel.has_focus_within)
        row = await _footer_says(pilot, app, "n Next", "esc Close")
        assert row.startswith("n Next esc Close v Check")
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: app.query_one(NavTree).has_focus)
        row = await _footer_says(pilot, app, "e Edit")
        assert "esc Close" not in row
        await pilot.press("f")  # the files view, in the tree's place at 80 columns
        files = app.query_one(FilesView)
        await pilot_wait_until(pilot, lambda: files.display and files.has_focus)
        row = await _footer_says(pilot, app, "r Rename", "M Move")
        assert row.startswith("r Rename M Move E $EDITOR f Files")


async def test_tree_keys_still_work_from_the_document_and_document_keys_from_the_tree(
    root: Path,
) -> None:
    """The footer shows a pane's keys there; the keys themselves work as before."""
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        app.query_one(NavTree).focus()
        await _footer_says(pilot, app, "c New")
        await pilot.press("S")  # shown at the document, works at the tree
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("escape")
        app.query_one("#body-scroll").focus()
        await _footer_says(pilot, app, "o Outline")
        await pilot.press("K")  # the tree's: it says where it works and goes there
        await pilot_wait_until(pilot, lambda: app.query_one(NavTree).has_focus)


async def test_help_lists_the_keys_of_the_pane_you_are_in_first(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        app.query_one("#body-scroll").focus()
        await _footer_says(pilot, app, "o Outline")
        await pilot.press("question_mark")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        shown = screen_text(app)
        assert "Keys: Document (frontmatter and body)" in shown
        here, rest = _help(app).split("Every other key")
        assert "outline of the page's headings" in here
        assert "Set stale_after" in here  # S, left out of the footer at 80 columns too
        assert "Move the selected index entry up" in rest  # the tree's, after
        assert "outline of the page's headings" not in rest  # each key once
        await pilot.press("escape")
        app.query_one(NavTree).focus()
        await _footer_says(pilot, app, "c New")
        await pilot.press("question_mark")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        here = _help(app).split("Every other key")[0]
        assert "Keys: Navigation tree" in screen_text(app)
        assert "Move the selected index entry up" in here and "outline" not in here


def _help(app: KasApp) -> str:
    """The help screen's whole text (it scrolls at 80×24)."""
    console = Console(record=True, width=120)
    console.print(app.screen.query_one(Static).content)
    return console.export_text()


# -- item 7: one convention for every dialog ------------------------------------------


def _buttons(app: KasApp) -> list[str]:
    """The buttons of the dialog on top, as their labels read."""
    return [str(button.label) for button in app.screen.query(Button)]


def _shown_keys(app: KasApp) -> list[str]:
    """The key each button shows (its letter in brackets), checked readable on screen:
    every button's label is on the terminal, and no two buttons show the same key."""
    shown = screen_text(app)
    keys = []
    for label in _buttons(app):
        assert label in shown, f"{label!r} is not readable at 80×24"
        found = re.findall(r"\[(\w)\]", label)
        assert len(found) == 1, label
        keys.append(found[0].lower())
    assert len(set(keys)) == len(keys), keys
    return keys


async def _dialog(pilot, app: KasApp, kind: type) -> None:
    await pilot_wait_until(pilot, lambda: isinstance(app.screen, kind))
    await pilot.pause()


async def test_unlisting_an_entry_keeps_it_on_k_and_removes_it_on_r(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        app.query_one(NavTree).focus()
        before = (root / INDEX).read_text()
        await pilot.press("delete")
        await _dialog(pilot, app, ChoiceScreen)
        assert _buttons(app) == ["[R]emove the entry", "[K]eep it"]
        assert _shown_keys(app) == ["r", "k"]
        assert "letter in [ ] or enter picks · esc cancels" in screen_text(app)
        await pilot.press("k")
        await pilot_wait_until(pilot, lambda: not isinstance(app.screen, ChoiceScreen))
        assert (root / INDEX).read_text() == before
        await pilot.press("delete")
        await _dialog(pilot, app, ChoiceScreen)
        await pilot.press("escape")  # escape cancels too
        await pilot_wait_until(pilot, lambda: not isinstance(app.screen, ChoiceScreen))
        assert (root / INDEX).read_text() == before
        await pilot.press("delete")
        await _dialog(pilot, app, ChoiceScreen)
        await pilot.press("R")  # upper case works as well
        await pilot_wait_until(pilot, lambda: "plans-and-pricing" not in (root / INDEX).read_text())


async def test_freshness_offers_month_quarter_year_then_the_stale_note(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        await pilot.press("S")
        await _dialog(pilot, app, ChoiceScreen)
        assert _shown_keys(app) == ["m", "q", "y"]
        # 90 days from today (2026-11-30), later than its stale_after
        assert _buttons(app)[1] == "[Q]uarter: +90 days, until 2027-02-28T00:00:00Z"
        await pilot.press("q")
        # its index entry still calls it stale: the second question
        await pilot_wait_until(
            pilot, lambda: isinstance(app.screen, ChoiceScreen) and len(_buttons(app)) == 2
        )
        await pilot.pause()
        assert _buttons(app) == ["[A]lso drop the stale note from them", "[O]nly the date"]
        assert _shown_keys(app) == ["a", "o"]
        await pilot.press("o")
        await pilot_wait_until(pilot, lambda: "2027-02-28" in (root / DOC).read_text())
        assert "(Stale: quarterly price review overdue.)" in (root / INDEX).read_text()


async def test_deprecating_asks_about_the_entries_with_a_and_o(root: Path) -> None:
    page = "oncall/escalation-policy.md"  # listed by two indexes, neither saying so
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, page)
        await pilot.press("D")
        await _dialog(pilot, app, ChoiceScreen)
        assert _shown_keys(app) == ["a", "o"]
        assert _buttons(app)[0].startswith("[A]lso start them with")
        await pilot.press("a")
        await pilot_wait_until(pilot, lambda: "status: deprecated" in (root / page).read_text())
        assert (
            "(escalation-policy.md) - Deprecated: Who gets paged"
            in (root / "oncall/index.md").read_text()
        )


async def test_unsaved_changes_answer_save_discard_keep(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        before = (root / DOC).read_text()
        open_meta_editor(app, DOC)
        await pilot_wait_until(
            pilot, lambda: isinstance(app.screen, MetaEditor) and app.screen.query("#field-title")
        )
        app.screen.query_one("#field-title").value = "Plans, prices"
        await pilot_wait_until(pilot, lambda: getattr(app.screen, "dirty", False))
        await pilot.press("escape")
        await _dialog(pilot, app, ChoiceScreen)
        assert _buttons(app) == ["[S]ave", "[D]iscard", "[K]eep editing"]
        assert _shown_keys(app) == ["s", "d", "k"]
        await pilot.press("enter")  # the default: keep editing
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, MetaEditor))
        await pilot.press("escape")
        await _dialog(pilot, app, ChoiceScreen)
        await pilot.press("d")
        await pilot_wait_until(
            pilot, lambda: not isinstance(app.screen, (MetaEditor, ChoiceScreen))
        )
        assert (root / DOC).read_text() == before


async def test_a_rename_answers_r_d_c_and_its_diff_r_c(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        app.query_one(NavTree).focus()
        await pilot.press("r")
        await pilot_wait_until(pilot, lambda: bool(app.screen.query("#ask-input")))
        app.screen.query_one("#ask-input").value = "pricing.md"
        await pilot.press("enter")
        await _dialog(pilot, app, ChoiceScreen)
        assert _buttons(app) == ["[R]ename", "[D]iff first", "[C]ancel"]
        await pilot.press("d")
        await _dialog(pilot, app, DiffScreen)
        assert _buttons(app) == ["[R]ename", "[C]ancel"]
        assert _shown_keys(app) == ["r", "c"]
        await pilot.press("r")
        await pilot_wait_until(pilot, lambda: (root / "billing-support" / "pricing.md").exists())
        assert not (root / DOC).exists()


async def test_create_shows_its_keys_inside_the_words(root: Path) -> None:
    app = _app(root)
    async with app.run_test(size=SMALL) as pilot:
        await _at(pilot, app, DOC)
        app.query_one(NavTree).focus()
        await pilot.press("c")
        await _dialog(pilot, app, ChoiceScreen)
        assert _shown_keys(app) == ["d", "b"]
        assert _buttons(app)[0].startswith("A [d]ocument in billing-support/")
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: not isinstance(app.screen, ChoiceScreen))


@pytest.mark.parametrize(
    ("press", "answer"), [("k", False), ("d", True), ("enter", True), ("escape", False)]
)
async def test_a_yes_or_no_question_has_buttons_with_keys(
    demo: Package, press: str, answer: bool
) -> None:
    app = KasApp(demo, today=TODAY, watch=False)
    answers: list[bool | None] = []
    async with app.run_test(size=SMALL) as pilot:
        await pilot_wait_until(pilot, lambda: bool(app.screen.query("MetaPane")))
        question = ConfirmScreen("New walk", "Discard the walk?", yes="Discard it", no="Keep it")
        app.push_screen(question, answers.append)
        await _dialog(pilot, app, ConfirmScreen)
        assert _buttons(app) == ["[D]iscard it", "[K]eep it"]
        await pilot.press(press)
        await pilot_wait_until(pilot, lambda: bool(answers))
    assert answers == [answer]


# -- the keys themselves ---------------------------------------------------------------


def test_each_button_gets_its_first_free_letter_and_no_two_share_one() -> None:
    assert button_keys(["Save", "Discard", "Keep editing"]) == ["s", "d", "k"]
    # "Show the diff" starts like "Split": it takes the next word's first letter
    assert button_keys(["Split", "Show the diff", "Cancel"]) == ["s", "t", "c"]
    assert button_keys(["+30 days", "+90 days"]) == ["3", "9"]
    assert button_keys(["A document", "A bundle"], ["d", "b"]) == ["d", "b"]
    with pytest.raises(ValueError):
        button_keys(["Save", "Cancel"], ["x"])  # a key must be a letter of its label
    with pytest.raises(ValueError):
        button_keys(["Save", "Send"], ["s", "s"])  # and no two alike


def test_the_key_is_shown_in_brackets_at_a_word_start() -> None:
    assert keyed_label("Save", "s").plain == "[S]ave"
    assert keyed_label("A document in ops/", "d").plain == "A [d]ocument in ops/"
    assert keyed_label("Keep editing", "k").plain == "[K]eep editing"
    assert keyed_label("Cancel", "a").plain == "C[a]ncel"
