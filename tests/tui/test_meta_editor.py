"""Pilot tests of the frontmatter editor on a copy of demo_kb."""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

import pytest
import yaml
from textual import events
from textual.widgets import Button, Input, Select, Static, TextArea

from kas_tui.core import store
from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import ChoiceScreen, DiffScreen
from kas_tui.tui.screens.meta_editor import MetaEditor, open_meta_editor
from kas_tui.tui.widgets.fields import FieldRow, RowInfo
from kas_tui.tui.widgets.provenance import SourceRow
from tests.helpers.acme import changed, files
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
DOC = "incidents/incident-response.md"
OWNED = "billing-support/refunds/refund-policy.md"  # has an unknown key: owner


def line_diff(before: bytes, after: bytes) -> tuple[list[str], list[str]]:
    """The lines only in ``before`` and only in ``after`` (order kept)."""
    old, new = before.decode().splitlines(), after.decode().splitlines()
    return [x for x in old if x not in new], [x for x in new if x not in old]


def frontmatter(path: Path) -> dict:
    return yaml.safe_load(path.read_text().split("---\n")[1])


async def open_editor(app: KasApp, pilot, path: str = DOC) -> MetaEditor:
    open_meta_editor(app, path)
    await pilot.pause()
    await pilot.pause()
    assert isinstance(app.screen, MetaEditor)
    return app.screen


def row(editor: MetaEditor, key: str) -> FieldRow:
    found = editor.row(key)
    assert found is not None, key
    return found


def shown(widget: Static) -> str:
    return str(widget.render()) if widget.display else ""


def error_of(editor: MetaEditor, key: str) -> str:
    """The error shown at a field ("" when none)."""
    found = row(editor, key)
    info = shown(found.query_one(RowInfo))
    assert bool(found.error) == info.startswith("✗"), "the error is on screen"
    return found.error or ""


def note_of(editor: MetaEditor, key: str) -> str:
    return shown(row(editor, key).query_one(RowInfo))


def app_on(root: Path) -> KasApp:
    return KasApp(Package.open(root), today=TODAY, watch=False)


async def test_form_save_is_byte_minimal_undoable_and_raw_yaml_is_checked(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(app, pilot)
        assert not editor.dirty and "●" not in str(editor.query_one("#me-box").border_title)
        editor.query_one("#field-title", Input).value = "Incident response"
        editor.query_one(
            "#field-description", TextArea
        ).text = "The end-to-end procedure for a SEV1 or SEV2, from declaring it to the postmortem."
        editor.query_one("#field-tags", Input).value = "incidents, response, sev1"
        editor.query_one("#field-status", Select).value = "draft"
        await pilot.pause()
        await pilot.click("#days-90")
        await pilot.pause()
        # +90 counts from the document's stale_after (2027-03-18T00:00:00Z), the later date
        assert editor.query_one("#field-stale_after", Input).value == "2027-06-16T00:00:00Z"
        assert editor.dirty and "● modified" in str(editor.query_one("#me-box").border_title)
        assert row(editor, "title").has_class("-changed")
        assert not row(editor, "type").has_class("-changed")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, MetaEditor), "a saved form closes"
        after = files(root)
        assert changed(before, after) == {DOC, "log.md"}
        gone, added = line_diff(before[DOC], after[DOC])
        assert gone == [
            "title: Incident response procedure",
            "description: The end-to-end sequence for a SEV1 or SEV2, from declaring the incident "
            "and assigning roles to mitigation, resolution and hand-off to the postmortem.",
            "  - procedure",
            "status: stable",
            "stale_after: 2027-03-18T00:00:00Z",
        ]
        assert added == [
            "title: Incident response",
            "description: The end-to-end procedure for a SEV1 or SEV2, from declaring it to the "
            "postmortem.",
            "  - sev1",
            "status: draft",
            "stale_after: 2027-06-16T00:00:00Z",
        ]
        assert len(after[DOC].splitlines()) == len(before[DOC].splitlines())
        log = after["log.md"].decode()
        assert f"Edited title, description, tags, status, stale_after of {DOC}." in log
        assert app.package.documents[DOC].status == "draft"
        app.action_undo()
        await pilot.pause()
        assert files(root) == before, "undo puts back every byte, log entry included"
        # the raw YAML: the form's changes show in it; it is checked, with the line
        editor = await open_editor(app, pilot)
        editor.query_one("#field-title", Input).value = "Incident response"
        await pilot.press("ctrl+r")
        await pilot.pause()
        area = editor.query_one("#me-yaml", TextArea)
        assert editor.raw_mode and editor.focused is area
        assert "title: Incident response\n" in area.text, "the form's change shows as YAML"
        area.text = area.text.replace("status: stable", "status: [stable")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is editor
        error = shown(editor.query_one("#me-raw-error", Static))
        # the line the user typed the [ on, not the next one where PyYAML notices (16.12)
        assert "line 17: invalid YAML: a [ list opened on this line is not closed" in error
        assert "(found on line 18)" in error
        assert area.cursor_location == (16, 0)  # on the line of the [
        await pilot.press("ctrl+r")  # the form cannot show invalid YAML either
        await pilot.pause()
        assert editor.raw_mode
        assert files(root) == before
        area.text = area.text.replace("status: [stable", "status: stable  # reviewed")
        await pilot.press("ctrl+r")  # back to the form, which now starts from that YAML
        await pilot.pause()
        assert not editor.raw_mode
        assert editor.query_one("#field-title", Input).value == "Incident response"
        assert row(editor, "title").has_class("-changed")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, MetaEditor)
        # a document whose YAML cannot be read opens in the YAML editor, with the line
        broken = root / "incidents" / "broken.md"
        broken.write_text("---\ntype: Note\ntitle: [unclosed\n---\n\nBody.\n")
        app.package.reload_file("incidents/broken.md")
        editor = await open_editor(app, pilot, "incidents/broken.md")
        assert editor.raw_mode
        error = shown(editor.query_one("#me-raw-error", Static))
        assert "the form cannot show it. line 2: invalid YAML" in error  # the [ line
        area = editor.query_one("#me-yaml", TextArea)
        area.text = area.text.replace("[unclosed", "Fixed")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert not editor.raw_mode and editor.query_one("#field-title", Input).value == "Fixed"
        # a block never closed is not for the form: the app says why and stays
        (root / "incidents" / "open.md").write_text("---\ntype: Note\n\nBody.\n")
        app.package.reload_file("incidents/open.md")
        await pilot.press("escape", "d")  # discard the fixed broken.md
        await pilot.pause()
        screen = app.screen
        assert not isinstance(screen, (MetaEditor, ChoiceScreen))
        open_meta_editor(app, "incidents/open.md")
        await pilot.pause()
        assert app.screen is screen
        assert any(
            "incidents/open.md:1: frontmatter opened on line 1 is never closed" in m
            for _, m in app.messages
        )
    gone, added = line_diff(before[DOC], files(root)[DOC])
    assert gone == ["title: Incident response procedure", "status: stable"]
    assert added == ["title: Incident response", "status: stable  # reviewed"]


async def test_field_checks_refuse_bad_values_and_leaving_asks(root: Path) -> None:
    doc = root / "incidents" / "severity-levels.md"
    text = doc.read_text()
    text = text.replace("title: ", 'title: "[bold]x[/bold] ', 1).replace(
        "\ndescription", '"\ndescription', 1
    )
    doc.write_text(text.replace("tags: [", "tags: ['[red]t[/red]', ", 1))
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(app, pilot)
        # an invalid stale_after blocks the save, with the reason at the field
        date = editor.query_one("#field-stale_after", Input)
        date.value = "2027-02-30"
        editor.query_one("#field-title", Input).value = "Changed too"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is editor
        assert "not a date: day is out of range for month" in error_of(editor, "stale_after")
        assert editor.focused is date
        assert "Not saved: stale_after" in shown(editor.query_one("#me-status", Static))
        date.value = "2027-01-01T00:00:00"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "add the UTC offset" in error_of(editor, "stale_after")
        date.value = "2027-01-01T00:00:00Z"
        await pilot.pause()
        assert error_of(editor, "stale_after") == "", "a fixed value clears the error"
        assert "fresh for 32 days" in note_of(editor, "stale_after")
        # pasted terminal escapes are stripped, and said so at the field
        title = editor.query_one("#field-title", Input)
        title.value = ""
        title.focus()
        title.post_message(events.Paste("\x1b[31mRed title\x1b[0m\x07"))
        await pilot.pause()
        assert title.value == "Red title"
        note = note_of(editor, "title")
        assert "Removed 2 terminal escape sequences (\\x1b[31m, \\x1b[0m)" in note
        assert "1 control character" in note
        # a control character that did not come by paste is refused at the field
        editor.query_one("#field-type", Input).value = "Proc\x07edure"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is editor
        assert "control characters (\\x07)" in error_of(editor, "type")
        assert editor.focused is editor.query_one("#field-type")
        # tags: a chip's ✕ removes its tag; the last tag is completed from the package's
        row(editor, "tags").query_one(RowInfo).action_remove_tag(1)
        await pilot.pause()
        tags = editor.query_one("#field-tags", Input)
        assert tags.value == "incidents, response"
        tags.focus()
        tags.cursor_position = len(tags.value)
        await pilot.press(",", "space", "s", "e", "v")
        suggestion = tags._suggestion
        assert suggestion.startswith("incidents, response, sev") and suggestion.count(",") == 2
        await pilot.press("right")
        assert tags.value == suggestion
        # leaving with unsaved changes asks; keep editing keeps the text
        assert editor.dirty and "● modified" in str(editor.query_one("#me-box").border_title)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("k")  # Keep editing
        await pilot.pause()
        assert app.screen is editor and title.value == "Red title"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("d")  # Discard
        await pilot.pause()
        assert not isinstance(app.screen, (MetaEditor, ChoiceScreen))
        # a clean editor closes without asking
        await open_editor(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, (MetaEditor, ChoiceScreen))
        assert files(root) == before
        # markup shows literally; a 2,000-character description is flagged and saved
        editor = await open_editor(app, pilot, "incidents/severity-levels.md")
        assert editor.query_one("#field-title", Input).value.startswith("[bold]x[/bold] ")
        assert "\u00a0[red]t[/red]\u00a0✕" in note_of(editor, "tags")
        long = "Word " * 399 + "end."
        assert len(long) == 1999
        editor.query_one("#field-description", TextArea).text = long + " Two."
        await pilot.pause()
        note = note_of(editor, "description")
        assert "2,004 characters" in note and "long: over ~200 characters" in note
        assert "more than one sentence" in note
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, MetaEditor)
    assert frontmatter(doc)["description"] == long + " Two."


async def test_unknown_keys_and_sources_edited_byte_minimal(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(app, pilot, OWNED)
        owner = editor.query_one("#field-owner", Input)
        assert owner.value == "team:payments"
        for value, error in (
            ("[team:payments, team:support", "not valid YAML"),
            ("{1: a}", "mapping keys must be strings"),
            ('"\\e[31mred"', "control characters"),
        ):
            owner.value = value
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is editor
            assert error in error_of(editor, "owner")
        owner.value = "[team:payments, team:support]"
        # sources: the first one's extra keys are kept; add one, remove the second
        rows = list(editor.query(SourceRow))
        assert "also kept: author, last_modified" in shown(rows[0].query_one(RowInfo))
        rows[0].query_one(".me-source-title", Input).value = "Orbit refund matrix"
        await pilot.press("ctrl+n")
        await pilot.pause()
        rows = list(editor.query(SourceRow))
        assert len(rows) == 3 and editor.focused is rows[2].query_one(".me-source-resource")
        await pilot.press("ctrl+s")  # a new source without a resource is refused
        await pilot.pause()
        assert app.screen is editor
        assert "a source needs a resource" in (rows[2].error or "")
        rows[2].query_one(".me-source-resource", Input).value = "/references/refund-matrix.txt"
        rows[2].query_one(".me-source-id", Input).value = "refund-matrix"
        await pilot.press("ctrl+s")  # two sources with one id
        await pilot.pause()
        assert "id 'refund-matrix' is already used by source 1" in (rows[2].error or "")
        rows[2].query_one(".me-source-id", Input).value = "matrix-copy"
        rows[1].query_one(".me-remove", Button).press()
        await pilot.pause()
        assert len(editor.query(SourceRow)) == 2
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, MetaEditor)
        after = files(root)
        assert changed(before, after) == {OWNED, "log.md"}
        gone, added = line_diff(before[OWNED], after[OWNED])
        assert gone == [
            "owner: team:payments",
            "    title: Orbit refund matrix (rev. 2026-06-10)",
            "  - id: stripe-refunds",
            "    resource: https://docs.stripe.com/refunds",
            "    title: Stripe documentation, refunds",
        ]
        assert added == [
            "owner:",
            "  - team:payments",
            "  - team:support",
            "    title: Orbit refund matrix",
            "  - resource: /references/refund-matrix.txt",
            "    id: matrix-copy",
        ]
        # remove an unknown key with its ✕, add a new field by name
        editor = await open_editor(app, pilot, OWNED)
        owner_row = row(editor, "owner")
        editor.scroll_to_widget(owner_row, animate=False)
        await pilot.pause()
        await pilot.click(owner_row.query_one(".me-remove"))
        await pilot.pause()
        assert owner_row.has_class("-removed") and editor.dirty
        editor.query_one("#add-field", Button).press()
        await pilot.pause()
        app.screen.query_one(Input).value = "owner"
        await pilot.press("enter")
        await pilot.pause()
        assert "already a field" in str(app.screen.query_one("#ask-error", Static).render())
        app.screen.query_one(Input).value = "review_cycle"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is editor
        editor.query_one("#field-review_cycle", Input).value = "quarterly"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, MetaEditor)
    final = files(root)[OWNED]
    gone, added = line_diff(after[OWNED], final)
    assert gone == ["owner:", "  - team:payments", "  - team:support"]
    assert added == ["review_cycle: quarterly"]


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root writes anywhere")
async def test_read_only_file_is_refused_and_the_text_kept(root: Path) -> None:
    before = files(root)
    (root / DOC).chmod(0o444)
    (root / "incidents").chmod(0o555)
    app = app_on(root)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            editor = await open_editor(app, pilot)
            editor.query_one("#field-title", Input).value = "Mine"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is editor
            assert editor.query_one("#field-title", Input).value == "Mine"
            assert any("permission denied" in m for _, m in app.messages)
            assert "Not saved" in shown(editor.query_one("#me-status", Static))
            assert editor.dirty
    finally:
        (root / "incidents").chmod(0o755)
        (root / DOC).chmod(0o644)
    assert files(root) == before


async def test_refused_writes_keep_the_editor_and_the_text(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whoever runs the tests (root writes anywhere), a refused write keeps everything."""
    before = files(root)

    def refuse(path, data, **_):
        raise PermissionError(13, "Permission denied", str(path))

    app = app_on(root)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_editor(app, pilot)
        editor.query_one("#field-title", Input).value = "Mine"
        with monkeypatch.context() as patched:
            patched.setattr(store, "atomic_write", refuse)
            await pilot.press("ctrl+s")
            await pilot.pause()
        assert app.screen is editor and editor.dirty
        assert editor.query_one("#field-title", Input).value == "Mine"
        assert any("permission denied" in m for _, m in app.messages)
        assert "Not saved" in shown(editor.query_one("#me-status", Static))
        assert files(root) == before
        # changed on disk meanwhile: the app asks; keep editing keeps the text
        (root / DOC).write_bytes(before[DOC] + b"\nA line from another editor.\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("k")  # Keep editing
        await pilot.pause()
        assert app.screen is editor and editor.dirty
        assert editor.query_one("#field-title", Input).value == "Mine"
        # ... or saves on top after reading the diff; then the editor closes
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("d")  # See the diff of saving on top
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        await pilot.press("s")
        await pilot.pause()
        assert not isinstance(app.screen, (MetaEditor, DiffScreen, ChoiceScreen))
        text = (root / DOC).read_text()
        assert "title: Mine\n" in text and text.endswith("A line from another editor.\n")
        # the file deleted while editing: a clear message, never recreated
        editor = await open_editor(app, pilot)
        editor.query_one("#field-title", Input).value = "Gone"
        (root / DOC).unlink()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is editor
        status = shown(editor.query_one("#me-status", Static))
        assert f"{DOC} was deleted or moved on disk; nothing was saved" in status
        assert editor.query_one("#field-title", Input).value == "Gone"
    assert not (root / DOC).exists()


async def test_raw_yaml_ctrl_end_goes_to_the_end_and_one_esc_leaves(root: Path) -> None:
    """Issue 16.12: ctrl+End and ctrl+Home move through the whole YAML; one Esc closes."""
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(app, pilot)
        await pilot.press("ctrl+r")
        await pilot.pause()
        area = editor.query_one("#me-yaml", TextArea)
        assert editor.raw_mode and editor.focused is area
        await pilot.press("ctrl+end")
        assert area.cursor_location == area.document.end
        await pilot.press("ctrl+home")
        assert area.cursor_location == (0, 0)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, MetaEditor)


async def test_ctrl_g_goes_to_a_field_by_typing_its_name_at_80x24(root: Path) -> None:
    from kas_tui.tui.screens.pick import PickScreen
    from tests.helpers.waiting import pilot_wait_until

    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(app, pilot, OWNED)
        await pilot.press("ctrl+g")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        picker = app.screen
        assert {"title", "owner", "stale_after", "sources"} <= set(picker.shown)
        await pilot.press(*"owner")
        await pilot.pause()
        assert picker.shown == ["owner"]
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: app.screen is editor)
        row = editor.row("owner")
        assert row is not None and app.focused is not None and row in app.focused.ancestors
        assert row.region.y < 24 and row.region.bottom > 0  # scrolled into view
        # nothing matches: escape leaves the focus where it was
        await pilot.press("ctrl+g", *"zzz-no-such-field", "escape")
        await pilot_wait_until(pilot, lambda: app.screen is editor)
        assert row in app.focused.ancestors
        # the raw YAML view has no fields to go to: said, not an error
        await pilot.press("ctrl+r", "ctrl+g")
        await pilot.pause()
        assert app.screen is editor


async def test_the_form_asks_for_what_the_packages_house_rules_require(root: Path) -> None:
    """Issue 35: required fields marked, the allowed types and the tag vocabulary offered."""
    (root / ".kas-tui.yaml").write_text(
        "profile:\n"
        "  fields:\n"
        "    owner: {required: true}\n"
        "    tags: {values: [zebra-tag, incidents]}\n"
        "  types: [Runbook, Procedure]\n"
    )
    before = (root / DOC).read_bytes()
    app = app_on(root)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(app, pilot)
        assert note_of(editor, "owner") == "required by this package (.kas-tui.yaml, line 3)"
        assert "this package allows: Runbook, Procedure" in note_of(editor, "type")
        assert editor.tags[0] == "zebra-tag"  # the vocabulary first, then tags in use
        assert not editor.dirty  # an offered field is written only once filled in
        owner = row(editor, "owner")
        owner.query_one(Input).value = "ops-team"
        await pilot.pause()
        assert editor.dirty
        await pilot.press("ctrl+s")
        await pilot_wait_until(pilot, lambda: (root / DOC).read_bytes() != before)
        assert frontmatter(root / DOC)["owner"] == "ops-team"
