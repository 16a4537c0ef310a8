"""Pilot tests of the index entry editor, the SKILL.md editor and the drift mark."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from rich.console import Console

from kas_tui.core.package import Package
from kas_tui.core.records import Listing
from kas_tui.features.agent import catalog_entry
from kas_tui.text.description_verdicts import drifted
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import ChoiceScreen
from kas_tui.tui.screens.entry_editor import EntryEditor, OneLineArea, open_entry_editor
from kas_tui.tui.screens.meta_editor import MetaEditor, open_meta_editor
from kas_tui.tui.screens.skill_editor import SkillEditor, open_skill_editor
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
DOC = "incidents/severity-levels.md"


def _files(pkg: Package) -> dict[str, bytes]:
    return {
        p.relative_to(pkg.root).as_posix(): p.read_bytes()
        for p in sorted(pkg.root.rglob("*"))
        if p.is_file()
    }


def _listing(pkg: Package, path: str = DOC) -> Listing:
    return next(item for item in pkg.indexes["incidents"].listings if item.path == path)


def _rendered(widget) -> str:
    console = Console(record=True, width=200)
    console.print(widget.content)
    return console.export_text()


def _set(area: OneLineArea, text: str) -> None:
    area.replace(text, area.document.start, area.document.end)


async def _open_entry(app: KasApp, pilot, path: str = DOC) -> EntryEditor:
    open_entry_editor(app, _listing(app.package, path))
    await pilot.pause()
    assert isinstance(app.screen, EntryEditor)
    return app.screen


# -- drift, headless ----------------------------------------------------------------------


def test_drifted_is_the_checkers_verdict() -> None:
    doc = "Definitions of SEV1 to SEV4 with customer-impact triggers and required roles."
    assert not drifted(doc, doc)
    assert not drifted("definitions of sev1 to sev4 with customer impact triggers", doc)
    assert drifted("How to rotate the database secrets every quarter.", doc)
    assert not drifted("", doc) and not drifted(doc, "")  # missing, not drifted
    assert not drifted(f"Deprecated: {doc}", doc)  # a note in front is not drift


# -- the entry editor -------------------------------------------------------------------
#
# Each test drives one app through several scenarios: starting an app costs more than
# the scenarios do.


def _label(tree: NavTree, path: str) -> str:
    """The label of ``path``'s node (the bundles on the way are opened)."""
    tree.select_path(path)
    stack = [tree.root]
    while stack:
        node = stack.pop()
        if node.data is not None and node.data.path == path and node.data.listing is not None:
            return str(node.label)
        stack.extend(node.children)
    raise AssertionError(f"{path} is not in the tree")


async def test_entry_save_undo_copy_and_drift(demo: Package) -> None:
    before = _files(demo)
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        tree = app.query_one(NavTree)

        # the description: one line of one index.md, logged, undone as one action
        screen = await _open_entry(app, pilot)
        line = screen.listing.entry.line
        assert not screen.dirty
        _set(screen.query_one("#entry-desc", OneLineArea), "Severity levels SEV1-SEV4 [x] *now*.")
        await pilot.pause()
        assert screen.dirty
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, EntryEditor)
        after = _files(demo)
        changed = {rel for rel in after if after[rel] != before.get(rel)}
        assert changed == {"incidents/index.md", "log.md"}
        old = before["incidents/index.md"].splitlines(keepends=True)
        new = after["incidents/index.md"].splitlines(keepends=True)
        assert len(old) == len(new)
        assert [i + 1 for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b] == [line]
        assert new[line - 1].endswith(b" - Severity levels SEV1-SEV4 [x] *now*.\n")
        assert b"incidents/index.md" in after["log.md"]
        app.action_undo()
        await pilot.pause()
        assert _files(demo) == before

        # drift: shown in the editor as typed, marked in the tree once saved
        assert "≠" not in _label(tree, DOC)
        screen = await _open_entry(app, pilot)
        assert "say the same" in _rendered(screen.query_one("#entry-drift"))
        _set(screen.query_one("#entry-doc-desc", OneLineArea), "How to rotate database secrets.")
        await pilot.pause()
        assert "Drifted" in _rendered(screen.query_one("#entry-drift"))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert b"description: How to rotate database secrets." in (demo.root / DOC).read_bytes()
        assert "≠" in _label(tree, DOC)

        # the entry's description into the document, then the document's into the entry
        screen = await _open_entry(app, pilot)
        _set(screen.query_one("#entry-desc", OneLineArea), "Severity levels and who to page.")
        await pilot.press("ctrl+t")
        assert screen.query_one("#entry-doc-desc", OneLineArea).text == (
            "Severity levels and who to page."
        )
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.package.documents[DOC].description == "Severity levels and who to page."
        assert _listing(app.package).entry.description == "Severity levels and who to page."
        assert "≠" not in _label(tree, DOC)

        screen = await _open_entry(app, pilot)
        _set(screen.query_one("#entry-doc-desc", OneLineArea), "SEV1 to SEV4 and their triggers.")
        await pilot.press("ctrl+g")
        assert screen.query_one("#entry-desc", OneLineArea).text == (
            "SEV1 to SEV4 and their triggers."
        )
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert _listing(app.package).entry.description == "SEV1 to SEV4 and their triggers."
        assert app.package.documents[DOC].description == "SEV1 to SEV4 and their triggers."


async def test_entry_fields_refuse_flag_and_ask(demo: Package) -> None:
    from textual.events import Paste

    before = _files(demo)
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()

        # pasted escape sequences: refused at the field; the line break became a space
        screen = await _open_entry(app, pilot)
        area = screen.query_one("#entry-desc", OneLineArea)
        area.focus()
        area.post_message(Paste("pasted \x1b[31mred\x1b[0m\nsecond line"))
        await pilot.pause()
        assert area.text.endswith("pasted \x1b[31mred\x1b[0m second line")
        assert "control characters" in _rendered(screen.query_one("#entry-desc-note"))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen and screen.dirty
        assert _files(demo) == before

        # unsaved changes: escape asks; keep editing, then the app's quit asks too
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("k")  # keep editing
        await pilot.pause()
        assert app.screen is screen and "second line" in area.text
        app.action_quit()
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("k")  # keep editing
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("d")  # discard
        await pilot.pause()
        assert not isinstance(app.screen, (EntryEditor, ChoiceScreen))
        assert _files(demo) == before

        # a 2,000-character description is saved, and flagged while typed
        long_text = ("Severity levels with triggers and roles for every incident " * 40)[:2000]
        screen = await _open_entry(app, pilot)
        _set(screen.query_one("#entry-desc", OneLineArea), long_text)
        await pilot.pause()
        note = _rendered(screen.query_one("#entry-desc-note"))
        assert "2,000 characters" in note and "Long" in note
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert _listing(app.package).entry.description == long_text.strip()

        # markup characters in a title are text, in the field and in the tree
        screen = await _open_entry(app, pilot)
        screen.query_one("#entry-title").value = "[bold]x[/] [red"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert _listing(app.package).entry.title == "[bold]x[/] [red"
        assert "[bold]x[/] [red" in _label(app.query_one(NavTree), DOC)
        screen = await _open_entry(app, pilot)
        assert screen.query_one("#entry-title").value == "[bold]x[/] [red"
        screen.query_one("#entry-title").value = "  "
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        assert "cannot be empty" in _rendered(screen.query_one("#entry-title-note"))


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anyway")
async def test_read_only_index_keeps_the_screen_and_the_text(demo: Package) -> None:
    folder = demo.root / "incidents"
    index = folder / "index.md"
    before = index.read_bytes()
    index.chmod(0o444)
    folder.chmod(0o555)
    try:
        app = KasApp(demo, today=TODAY, watch=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = await _open_entry(app, pilot)
            _set(screen.query_one("#entry-desc", OneLineArea), "Kept after a refusal, please.")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is screen
            assert screen.query_one("#entry-desc", OneLineArea).text == (
                "Kept after a refusal, please."
            )
            error = screen.query_one("#entry-error")
            assert error.display and "Not saved" in _rendered(error)
            assert "incidents/index.md" in _rendered(error)
    finally:
        folder.chmod(0o755)
        index.chmod(0o644)
    assert index.read_bytes() == before


# -- the SKILL.md editor ------------------------------------------------------------------


async def _open_skill(app: KasApp, pilot) -> SkillEditor:
    open_skill_editor(app)
    await pilot.pause()
    assert isinstance(app.screen, SkillEditor)
    return app.screen


async def test_skill_description_and_body(demo: Package) -> None:
    skill = demo.root / "SKILL.md"
    before = _files(demo)
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()

        # the count and the catalog cost follow the typing, computed on a copy
        screen = await _open_skill(app, pilot)
        saved = catalog_entry(app.package)
        note = _rendered(screen.query_one("#skill-desc-note"))
        assert f"{len(saved.description)} / 1,024 characters" in note
        assert f"~{saved.tokens} tokens" in note
        area = screen.query_one("#skill-desc", OneLineArea)
        area.insert(" Also covers the holiday change freeze & <on-call> swaps.")
        await pilot.pause()
        note = _rendered(screen.query_one("#skill-desc-note"))
        assert f"{len(area.text.strip()):,} / 1,024 characters" in note
        tokens = screen.catalog_tokens()
        assert tokens > saved.tokens and f"~{tokens} tokens" in note
        assert f"+{tokens - saved.tokens} from ~{saved.tokens}" in note
        assert "&amp; &lt;on-call&gt;" in _rendered(screen.query_one("#skill-catalog"))
        assert catalog_entry(app.package) == saved  # nothing saved yet

        # over the limit, or empty: refused with the validator's message at the field
        _set(area, "Use when " + "x" * 1091)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        note = _rendered(screen.query_one("#skill-desc-note"))
        assert "Description exceeds 1024 character limit (1100 chars)" in note
        _set(area, "   ")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        assert "must be a non-empty string" in _rendered(screen.query_one("#skill-desc-note"))
        assert _files(demo) == before

        # escape with changes asks; "save" saves the description
        _set(area, "Orbit's handbook. Use when asked.")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("s")  # save
        await pilot.pause()
        assert not isinstance(app.screen, (SkillEditor, ChoiceScreen))
        assert app.package.skill.description == "Orbit's handbook. Use when asked."

        # the body: saved after the frontmatter, whose bytes stay as they are
        text = skill.read_bytes()
        head = text[: text.index(b"\n---\n", 4) + 5]
        screen = await _open_skill(app, pilot)
        screen.query_one("#skill-body").load_text("\n# Orbit handbook\n\nStart at `/index.md`.\n")
        await pilot.pause()
        assert screen.dirty
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, SkillEditor)
    assert skill.read_bytes() == head + b"\n# Orbit handbook\n\nStart at `/index.md`.\n"


async def test_every_view_says_the_same_token_counts(tmp_path) -> None:
    """The discovery view, the SKILL.md editor and the walk count one catalog entry and one
    body the same way, wherever the entry says SKILL.md is (issue 16.20)."""
    import shutil
    from pathlib import Path

    from kas_tui.core.package import Package
    from kas_tui.features.agent.skill_catalog import catalog_entry, skill_body_tokens
    from kas_tui.tui.app import KasApp
    from kas_tui.tui.screens.agent import AgentWalkScreen
    from kas_tui.tui.widgets.meta_pane import MetaPane

    demo = Path(__file__).resolve().parents[2] / "demo_kb"
    shutil.copytree(demo, tmp_path / "demo_kb")
    package = Package.open(tmp_path / "demo_kb")
    app = KasApp(package, today=dt.date(2026, 11, 30), watch=False)
    app.catalog_location = "/home/someone/.claude/skills/orbit-handbook/SKILL.md"
    entry = catalog_entry(package, app.catalog_location)
    body = skill_body_tokens(package.skill.body)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        console = Console(record=True, width=300)
        console.print(app.query_one(MetaPane).content)
        shown = console.export_text()
        assert f"catalog entry ≈ {entry.tokens:,} tokens" in shown
        assert f"body ≈ {body:,} tokens" in shown
        await pilot.press("e")  # on SKILL.md: the SKILL.md editor
        await pilot.pause()
        console.print(app.screen.query_one("#skill-body-note").content)
        note = console.export_text()
        assert f"~{body:,} tokens" in note
        assert app.screen._tokens == entry.tokens
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, AgentWalkScreen)
        assert app.screen.walk.catalog.tokens == entry.tokens


# -- notifications inside a modal (issue 16.21) -----------------------------------------


async def test_notifications_show_inside_an_open_editor_not_over_its_border(
    demo: Package,
) -> None:
    """At 80×24 an editor fills the screen: a toast would cover its border and buttons.
    While an editor with a message line is open, notifications go there; after, toasts."""
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.clear_notifications()
        for opened, notice in (
            (lambda: _open_entry(app, pilot), "#modal-notice"),
            (lambda: _open_skill(app, pilot), "#modal-notice"),
            (lambda: _open_form(app, pilot), "#me-status"),
        ):
            editor = await opened()
            app.notify("incidents/index.md changed on disk", severity="warning")
            await pilot.pause()
            assert not app._notifications, "a toast over the editor"
            line = editor.query_one(notice)
            assert "incidents/index.md changed on disk" in _rendered(line)
            assert line.has_class("-warning") and line.region.bottom <= editor.region.bottom
            assert (severity := app.messages[-1]) == (
                "warning",
                "incidents/index.md changed on disk",
            ), severity
            await pilot.press("escape")
            await pilot.pause()
        assert not isinstance(app.screen, (EntryEditor, SkillEditor))
        app.notify("back on the main screen")
        await pilot.pause()
        assert [n.message for n in app._notifications] == ["back on the main screen"]


async def _open_skill(app: KasApp, pilot) -> SkillEditor:
    open_skill_editor(app)
    await pilot.pause()
    assert isinstance(app.screen, SkillEditor)
    return app.screen


async def _open_form(app: KasApp, pilot) -> MetaEditor:
    open_meta_editor(app, DOC)
    await pilot.pause()
    assert isinstance(app.screen, MetaEditor)
    return app.screen


async def test_an_entry_saved_over_another_programs_change_closes_once_decided(
    demo: Package,
) -> None:
    """Another program changed the index while the entry editor was open: the save asks,
    the diff of saving on top is accepted, and the editor closes (after the diff has
    closed) with both changes in the file."""
    from kas_tui.tui.screens.choose import DiffScreen

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = await _open_entry(app, pilot)
        index = demo.root / "incidents" / "index.md"
        index.write_text(index.read_text() + "\nAdded by another program.\n")
        _set(screen.query_one("#entry-desc", OneLineArea), "Severity levels, decided on top.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("d")  # see the diff of saving on top
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        await pilot.press("s")
        await pilot_wait_until(pilot, lambda: not isinstance(app.screen, (EntryEditor, DiffScreen)))
        saved = index.read_text()
        assert " - Severity levels, decided on top.\n" in saved
        assert saved.endswith("Added by another program.\n")
