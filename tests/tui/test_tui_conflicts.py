"""Live reload never disarms conflict detection (the TUI with another program writing).

Each editor is opened, the user types, another program changes the same file (as
``sed -i`` would), the app's live reload picks the change up and says so, and only then
does the user save: the "changed on disk" decision must come, every time, and the other
program's change must survive.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from textual.widgets import Static, TextArea

import kas_tui.tui.app as app_module
from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import ChoiceScreen, DiffScreen
from kas_tui.tui.screens.entry_editor import EntryEditor, OneLineArea, open_entry_editor
from kas_tui.tui.screens.meta_editor import MetaEditor, open_meta_editor
from kas_tui.tui.screens.skill_editor import SkillEditor, open_skill_editor
from tests.helpers.waiting import pilot_wait_until

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"
TODAY = dt.date(2026, 11, 30)
DOC = "incidents/severity-levels.md"
INDEX = "incidents/index.md"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(app_module, "WATCH_INTERVAL", 0.05)
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    return tmp_path / "demo_kb" / "orbit-handbook"


async def until(pilot, condition, what: str) -> None:
    """Let the app run until ``condition()`` holds (live reload polls every 50 ms here)."""
    condition.__name__ = what  # named when it never holds
    await pilot_wait_until(pilot, condition)


def sed(path: Path, old: str, new: str) -> str:
    """Change ``path`` in place the way another program would; return its new text."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text


def noticed(app: KasApp, rel: str) -> bool:
    return any("Changed on disk" in m and rel in m for _, m in app.messages)


def asked_about(app: KasApp, rel: str) -> bool:
    screen = app.screen
    if not isinstance(screen, ChoiceScreen):
        return False
    return "changed on disk" in str(screen.query_one("#choice-message", Static).render()) and (
        rel in str(screen.query_one("#choice-message", Static).render())
    )


async def save_twice_then_on_top(pilot, app: KasApp, rel: str, editor_type: type) -> None:
    """ctrl+s asks (keep editing), asks again, then the diff's Save writes on top."""
    for _ in range(2):
        await pilot.press("ctrl+s")
        await until(pilot, lambda: asked_about(app, rel), "the changed-on-disk question")
        await pilot.press("k")  # keep editing
        await until(pilot, lambda: isinstance(app.screen, editor_type), "the editor again")
    await pilot.press("ctrl+s")
    await until(pilot, lambda: asked_about(app, rel), "the question, a third time")
    await pilot.press("d")  # the diff of saving on top
    await until(pilot, lambda: isinstance(app.screen, DiffScreen), "the diff")
    await pilot.press("s")
    await until(pilot, lambda: not isinstance(app.screen, (DiffScreen, ChoiceScreen)), "saved")


async def test_frontmatter_form(root: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY)
    async with app.run_test(size=(120, 40)) as pilot:
        open_meta_editor(app, DOC)
        await until(
            pilot,
            lambda: isinstance(app.screen, MetaEditor) and app.screen.query("#field-description"),
            "the form",
        )
        app.screen.query_one("#field-description", TextArea).text = "Mine: SEV1 to SEV4."
        outside = sed(root / DOC, "title: ", "title: Outside ")
        await until(pilot, lambda: noticed(app, DOC), "the changed-on-disk notice")
        assert app.package.documents[DOC].title.startswith("Outside")  # reloaded
        await pilot.press("ctrl+s")
        await until(pilot, lambda: asked_about(app, DOC), "the question")
        assert (root / DOC).read_text() == outside, "the outside change was not overwritten"
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, MetaEditor), "the form again")
        await save_twice_then_on_top(pilot, app, DOC, MetaEditor)
        text = (root / DOC).read_text()
        assert "title: Outside " in text and "description: 'Mine: SEV1 to SEV4.'" in text


async def test_entry_editor(root: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY)
    async with app.run_test(size=(120, 40)) as pilot:
        listing = app.package.indexes["incidents"].listings[0]
        open_entry_editor(app, listing)
        await until(
            pilot,
            lambda: isinstance(app.screen, EntryEditor) and app.screen.query("#entry-desc"),
            "the entry editor",
        )
        area = app.screen.query_one("#entry-desc", OneLineArea)
        area.replace("Mine.", area.document.start, area.document.end)
        sed(root / INDEX, "Start with severity levels", "Start with the severity levels")
        await until(pilot, lambda: noticed(app, INDEX), "the changed-on-disk notice")
        await save_twice_then_on_top(pilot, app, INDEX, EntryEditor)
        text = (root / INDEX).read_text()
        assert "Start with the severity levels" in text and ") - Mine." in text


async def test_skill_editor(root: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY)
    async with app.run_test(size=(120, 40)) as pilot:
        open_skill_editor(app)
        await until(
            pilot,
            lambda: isinstance(app.screen, SkillEditor) and app.screen.query("#skill-desc"),
            "the SKILL.md editor",
        )
        area = app.screen.query_one("#skill-desc", OneLineArea)
        area.replace(area.text + " Mine.", area.document.start, area.document.end)
        body_line = next(
            line for line in (root / "SKILL.md").read_text().splitlines() if line.startswith("# ")
        )
        sed(root / "SKILL.md", body_line, body_line + " (edited outside)")
        await until(pilot, lambda: noticed(app, "SKILL.md"), "the changed-on-disk notice")
        await save_twice_then_on_top(pilot, app, "SKILL.md", SkillEditor)
        text = (root / "SKILL.md").read_text()
        assert "(edited outside)" in text and " Mine." in text


async def test_lifecycle_key_asked_before_the_change(root: Path) -> None:
    """S: the choice is made on the file as shown; a change meanwhile is a conflict."""
    app = KasApp(Package.open(root), today=TODAY)
    async with app.run_test(size=(120, 40)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        await pilot.press("S")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the freshness choice")
        outside = sed(root / DOC, "title: ", "title: Outside ")
        await until(pilot, lambda: noticed(app, DOC), "the changed-on-disk notice")
        await pilot.press("m")
        await until(pilot, lambda: asked_about(app, DOC), "the question")
        assert (root / DOC).read_text() == outside
