"""Every question about unsaved changes: the same answers, in the same order, same keys.

The form (frontmatter), the entry editor, the SKILL.md editor, the import wizard's
review and quitting the app each ask. Each test opens its question and checks the
answers offered, then that each key does the same thing everywhere: ``k`` (and escape)
keeps editing with the changes kept, ``d`` leaves writing nothing, ``s`` saves and
leaves.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.screen import Screen
from textual.widgets import Button, Input

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import ChoiceScreen
from kas_tui.tui.screens.entry_editor import OneLineArea, open_entry_editor
from kas_tui.tui.screens.meta_editor import open_meta_editor
from kas_tui.tui.screens.skill_editor import open_skill_editor
from tests.helpers.acme import changed, files
from tests.helpers.import_wizard import convert, open_wizard, set_field

TODAY = dt.date(2026, 11, 30)
DOC = "incidents/severity-levels.md"
SIZE = (120, 36)

ANSWERS = [("s", "Save"), ("d", "Discard"), ("k", "Keep editing")]
NO_SAVE = ANSWERS[1:]

#: Opens an editor over the app and changes something in it; returns the editor.
Change = Callable[[KasApp, object], Awaitable[Screen]]


def _offered(question: ChoiceScreen) -> list[tuple[str, str]]:
    """The answers on the question's buttons, in order: (key, label), the key read from
    the label ("[S]ave")."""
    labels = [str(button.label) for button in question.query(Button)]
    keys = [re.search(r"\[(\w)\]", label) for label in labels]
    return [
        (key.group(1).lower(), label.replace("[", "").replace("]", ""))
        for key, label in zip(keys, labels, strict=True)
        if key is not None
    ]


async def _ask(app: KasApp, pilot, key: str = "escape") -> ChoiceScreen:
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(app.screen, ChoiceScreen), app.screen
    return app.screen


async def _answer(pilot, key: str) -> None:
    await pilot.press(key)
    await pilot.pause()
    await pilot.pause()


async def _walk_the_answers(
    app: KasApp, pilot, root: Path, change: Change, offered: list[tuple[str, str]]
) -> set[str]:
    """Ask, keep editing, ask, discard, change again, ask, save: the files saved."""
    before = files(root)
    editor = await change(app, pilot)
    question = await _ask(app, pilot)
    assert _offered(question) == offered
    assert app.focused is not None and app.focused.id == "choice-keep", "enter keeps editing"
    for keep in ("k", "escape"):
        await _answer(pilot, keep)
        assert app.screen is editor and editor.dirty, f"{keep}: the changes are kept"
        await _ask(app, pilot)
    await _answer(pilot, "d")
    assert app.screen is not editor and not isinstance(app.screen, ChoiceScreen)
    assert files(root) == before, "discard writes nothing"

    editor = await change(app, pilot)
    await _ask(app, pilot)
    await _answer(pilot, "s")
    assert app.screen is not editor and not isinstance(app.screen, ChoiceScreen)
    return changed(before, files(root))


async def _form(app: KasApp, pilot) -> Screen:
    open_meta_editor(app, DOC)
    await pilot.pause()
    app.screen.query_one("#field-title", Input).value = "Severity levels, renamed"
    await pilot.pause()
    return app.screen


async def _entry(app: KasApp, pilot) -> Screen:
    listing = next(i for i in app.package.indexes["incidents"].listings if i.path == DOC)
    open_entry_editor(app, listing)
    await pilot.pause()
    area = app.screen.query_one("#entry-desc", OneLineArea)
    area.replace("SEV1 to SEV4, renamed.", area.document.start, area.document.end)
    await pilot.pause()
    return app.screen


async def _skill(app: KasApp, pilot) -> Screen:
    open_skill_editor(app)
    await pilot.pause()
    area = app.screen.query_one("#skill-desc", OneLineArea)
    area.replace("Orbit's handbook. Use when asked.", area.document.start, area.document.end)
    await pilot.pause()
    return app.screen


async def test_the_editors_ask_the_same_question(root: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert await _walk_the_answers(app, pilot, root, _form, ANSWERS) >= {DOC}
        saved = await _walk_the_answers(app, pilot, root, _entry, ANSWERS)
        assert "incidents/index.md" in saved
        assert "SKILL.md" in await _walk_the_answers(app, pilot, root, _skill, ANSWERS)


async def test_the_import_wizard_asks_the_same_question(root: Path, inbox: Path) -> None:  # noqa: F811
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:

        async def drafted(app: KasApp, pilot) -> Screen:
            wizard = await open_wizard(app, pilot, inbox)
            wizard.select([inbox / "chargebacks.txt"])
            await convert(app, pilot, wizard)
            await set_field(pilot, wizard, 0, "title", "Card disputes")
            return wizard

        offered = [*ANSWERS, ("b", "Back to the files")]
        saved = await _walk_the_answers(app, pilot, root, drafted, offered)
        assert "chargebacks.md" in saved


async def test_quitting_asks_the_same_question_without_save(root: Path, monkeypatch) -> None:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    exits: list[bool] = []
    monkeypatch.setattr(app, "exit", lambda *args, **kwargs: exits.append(True))
    async with app.run_test(size=SIZE) as pilot:
        editor = await _form(app, pilot)
        question = await _ask(app, pilot, "ctrl+q")
        assert _offered(question) == NO_SAVE
        assert app.focused is not None and app.focused.id == "choice-keep"
        for keep in ("k", "escape", "s"):  # s: no Save here, so nothing happens...
            await _answer(pilot, keep)
            if keep == "s":
                assert app.screen is question  # ...and the question stays
                await _answer(pilot, "k")
            assert app.screen is editor and editor.dirty and not exits
            question = await _ask(app, pilot, "ctrl+q")
        await _answer(pilot, "d")
        assert exits == [True]
