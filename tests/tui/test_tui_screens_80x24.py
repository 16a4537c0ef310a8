"""Every screen at 80×24 (issue 32): opened as a user opens it, what must be readable
on it (whole phrases, each on one row of the terminal), and the key that closes it,
back where the user was. test_every_screen_has_a_case_here fails when a screen is added
without one; the snapshots are in test_snapshots_80x24.py and beside the other tests.
"""

from __future__ import annotations

import datetime as dt
import importlib
import inspect
import pkgutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.screen import Screen
from textual.widgets import DataTable, Input

import kas_tui.tui.screens as screens_package
from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.screen import screen_rows
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
SMALL = (80, 24)
DOC = "oncall/escalation-policy.md"  # listed, linked both ways, in a bundle of several
TRAJECTORY = (
    '{"tool": "readfile", "args": {"path": "SKILL.md"}}\n'
    '{"tool": "readfile", "args": {"path": "index.md"}}\n'
    '{"tool": "readfile", "args": {"path": "billing-support/index.md"}}\n'
)

Opener = Callable[..., Awaitable[None]]


@dataclass(frozen=True)
class Case:
    screen: str  # the class name of the screen opened
    open: Opener  # (pilot, app, tmp_path): opens it as a user does
    readable: tuple[str, ...]  # phrases each shown whole on one row
    close: tuple[str, ...] = ("escape",)  # the keys that close it


def _rows(app: KasApp) -> list[str]:
    return screen_rows(app)


async def _ready(pilot, app: KasApp) -> None:
    await pilot_wait_until(pilot, lambda: bool(app.screen.query("MetaPane")))


async def _on_page(pilot, app: KasApp, place: str = DOC, node: str | None = None) -> None:
    """The page ``place`` shown, the tree focused with its cursor on ``node`` (the page's)."""
    await _ready(pilot, app)
    app.go(place, reveal=True)
    body = app.query_one(BodyPane)
    await pilot_wait_until(pilot, lambda: app.location == place and not body.rendering)
    tree = app.query_one(NavTree)
    tree.focus()
    await pilot_wait_until(
        pilot,
        lambda: tree.cursor_node is not None and tree.cursor_node.data.path == (node or place),
    )


async def _on_bundle(pilot, app: KasApp, folder: str = "oncall") -> None:
    await _on_page(pilot, app, f"{folder}/index.md", folder)


def on_page(*keys: str, place: str = DOC) -> Opener:
    async def opener(pilot, app: KasApp, tmp_path: Path) -> None:
        await _on_page(pilot, app, place)
        await pilot.press(*keys)

    return opener


def on_bundle(*keys: str, folder: str = "oncall") -> Opener:
    async def opener(pilot, app: KasApp, tmp_path: Path) -> None:
        await _on_bundle(pilot, app, folder)
        await pilot.press(*keys)

    return opener


def at_root(*keys: str) -> Opener:
    async def opener(pilot, app: KasApp, tmp_path: Path) -> None:
        await _ready(pilot, app)
        app.query_one(NavTree).focus()
        await pilot.press("home", *keys)

    return opener


async def _typed_finder(pilot, app: KasApp, tmp_path: Path) -> None:
    await _ready(pilot, app)
    await pilot.press("slash", *"refund")


async def _typed_text_finder(pilot, app: KasApp, tmp_path: Path) -> None:
    await _ready(pilot, app)
    await pilot.press("ctrl+f", *"dual credential")


async def _renaming(pilot, app: KasApp, tmp_path: Path) -> None:
    await _on_page(pilot, app)
    await pilot.press("r")
    await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "AskScreen")
    field = app.screen.query_one(Input)
    field.value = "escalation-rules.md"
    await pilot.press("enter")  # the question: rename, show the diff first, or cancel
    await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "ChoiceScreen")
    await pilot.press("d")  # the diff


async def _bulk_preview(pilot, app: KasApp, tmp_path: Path) -> None:
    await _ready(pilot, app)
    await pilot.press("B")
    await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "BulkScreen")
    bulk = app.screen
    table = bulk.query_one("#bulk-table", DataTable)
    await pilot_wait_until(pilot, lambda: table.row_count > 2)
    table.focus()
    await pilot.press("space", "space")
    bulk.query_one("#bulk-value", Input).focus()
    await pilot.press(*"needs-review")
    table.focus()
    await pilot.press("p")


async def _source_diff(pilot, app: KasApp, tmp_path: Path) -> None:
    from kas_tui.tui.screens.review import SourceDiffScreen

    await _ready(pilot, app)
    diff = (
        "--- billing-support/refunds/refund-policy.md (the document's body)\n"
        "+++ https://wiki.orbit.example/finance/refunds (the source now)\n"
        "@@ -1,2 +1,3 @@\n"
        " | Refund channel | Who approves |\n"
        "+| Goodwill credit over 500 USD | Finance |\n"
    )
    note = "The source's earlier text is not kept anywhere: this is the body against it now."
    app.push_screen(SourceDiffScreen("Refund policy: its source changed", note, diff))


async def _confirm(pilot, app: KasApp, tmp_path: Path) -> None:
    from kas_tui.tui.screens.choose import ConfirmScreen

    await _ready(pilot, app)
    question = "The walk has 3 calls. Discard it and start a new one?"
    app.push_screen(ConfirmScreen("New walk", question, yes="Discard it", no="Keep it"))


async def _replay(pilot, app: KasApp, tmp_path: Path) -> None:
    walk = tmp_path / "walk.jsonl"
    walk.write_text(TRAJECTORY, "utf-8")
    await _ready(pilot, app)
    await pilot.press("R")
    await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "AskScreen")
    app.screen.query_one(Input).value = str(walk)
    await pilot.press("enter")


async def _palette(pilot, app: KasApp, tmp_path: Path) -> None:
    await _ready(pilot, app)
    await pilot.press("ctrl+p", *"zoom")


CASES: dict[str, Case] = {
    "main": Case(
        "MainScreen",
        at_root(),
        ("Navigation", "Frontmatter", "Body", "Orbit handbook", "/ Find", "? Help", "q Quit"),
        close=("q",),
    ),
    "help": Case(
        "HelpScreen",
        at_root("question_mark"),
        ("Keys: Navigation tree", "Here: Navigation tree", "escape closes"),
    ),
    "find": Case("FindScreen", _typed_finder, ("Refund policy", "esc closes")),
    "find text": Case(
        "FindScreen",
        _typed_text_finder,
        ("Find in text", "The dual-credential rule", "enter opens at the line"),
    ),
    "links": Case(
        "LinksScreen",
        on_page("l"),
        ("Links from here (4) · cited by 11", "enter follows or opens · escape closes"),
    ),
    "around": Case(
        "PickScreen",
        on_page("w"),
        ("Around oncall/escalation-policy.md", "→ incidents/severity-levels.md"),
    ),
    "move picker": Case(
        "BundlePicker",
        on_page("M"),
        ("Move oncall/escalation-policy.md into the bundle:", "billing-support/ — Billing support"),
    ),
    "freshness": Case(
        "ChoiceScreen", on_page("S"), ("Extend freshness", "[M]onth: +30 days", "[Y]ear")
    ),
    "yes or no": Case("ConfirmScreen", _confirm, ("New walk", "[D]iscard it", "[K]eep it")),
    "rename diff": Case(
        "DiffScreen",
        _renaming,
        ("`/oncall/escalation-rules.md`", "[R]ename", "[C]ancel", "esc cancels"),
    ),
    "rename": Case(
        "AskScreen",
        on_page("r"),
        ("New name for oncall/escalation-policy.md (every link to it follows):",),
    ),
    "entry editor": Case(
        "EntryEditor",
        on_page("e"),
        ("Title          Production escalation policy", "Description", "ctrl+s save"),
    ),
    "skill editor": Case(
        "SkillEditor", at_root("e"), ("Description", "# Orbit handbook", "Save ^s", "Cancel esc")
    ),
    "frontmatter form": Case("MetaEditor", on_page("m"), ("title", "description", "Save")),
    "create": Case(
        "CreateScreen",
        on_bundle("c", "d"),
        ("New document in oncall/", "title", "ctrl+s save · esc close"),
    ),
    "split": Case(
        "SplitScreen",
        on_bundle("X"),
        ("Split oncall/", "Production escalation policy  (escalation-policy.md)", "escape cancels"),
    ),
    "bulk edit": Case(
        "BulkScreen", at_root("B"), ("Documents · 39 of 39 match", "Staleness", "esc Back")
    ),
    "bulk preview": Case(
        "BulkPreviewScreen",
        _bulk_preview,
        (
            "2 files will change",
            "+tags: [billing, faq, support,",
            "[W]rite 2 files",
            "✎ billing-faq.md ",  # a file's name on one row, its folder dim below
            "+1 −1  billing-support/",
        ),
    ),
    "review": Case(
        "ReviewScreen",
        at_root("t"),
        ("9 rows to review", "billing-support/plans-and-pricing.md  stale since", "esc Close"),
    ),
    "source diff": Case(
        "SourceDiffScreen",
        _source_diff,
        ("+| Goodwill credit over 500 USD | Finance |", "escape closes"),
    ),
    "diff view": Case(
        "DiffScreen", at_root("d"), ("is not in a git repository; --since needs one", "esc Close")
    ),
    "evaluation": Case(
        "EvalScreen",
        at_root("g"),
        ("No evaluation of this package yet.", "press d to draft up to 10 questions", "esc Close"),
    ),
    "agent walk": Case(
        "AgentWalkScreen",
        at_root("a"),
        ("Agent walk   orbit-handbook", "readfile      SKILL.md", "esc Close"),
    ),
    "replay": Case("ReplayScreen", _replay, ("Replay   walk.jsonl   3 calls", "esc Close")),
    "import": Case(
        "ImportWizard", at_root("i"), ("Import files — orbit-handbook", "Convert  ^s", "esc Close")
    ),
    "palette": Case(
        "CommandPalette",
        _palette,
        ("Zoom  (z)", "Zoom the pane with the focus to the whole screen"),
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=list(CASES))
async def test_each_screen_is_readable_and_closes_at_80x24(
    root: Path, tmp_path: Path, case: Case
) -> None:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SMALL) as pilot:
        await case.open(pilot, app, tmp_path)
        try:
            await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == case.screen)
            await pilot_wait_until(
                pilot,
                lambda: all(any(p in row for row in _rows(app)) for p in case.readable),
            )
        except BaseException:  # say what the screen showed instead
            print(type(app.screen).__name__)
            print("\n".join(_rows(app)))
            raise
        if case.screen == "MainScreen":
            await pilot.press(*case.close)
            await pilot_wait_until(pilot, lambda: app.return_code is not None)
            return
        below = app.screen_stack[-2]  # where the user was: the main screen, or bulk edit
        await pilot.press(*case.close)
        await pilot_wait_until(pilot, lambda: app.screen is below)


#: The screens that are bases of others, never shown themselves.
BASES = {"KasScreen", "KasModalScreen", "FormScreen", "ButtonDialog", "AgentView"}
STEPS = {"FilesStep", "ConvertingStep", "PreviewStep"}  # the import wizard's parts


def test_every_screen_has_a_case_here() -> None:
    found = set()
    for info in pkgutil.walk_packages(screens_package.__path__, screens_package.__name__ + "."):
        module = importlib.import_module(info.name)
        for name, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, Screen) and value.__module__ == module.__name__:
                found.add(name)
    assert found - BASES - STEPS - {case.screen for case in CASES.values()} == set()
