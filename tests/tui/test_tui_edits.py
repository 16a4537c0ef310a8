"""Editing from the app: lifecycle actions, entry moves, undo/redo, conflicts, quitting."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sys
from pathlib import Path

import pytest

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.choose import ChoiceScreen, DiffScreen
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.acme import changed, files
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
DOC = "oncall/escalation-policy.md"


async def deprecate(pilot, note: bool = False) -> None:
    """D, then the answer to its question about the entries that list the document
    (the escalation policy is listed by two indexes without a deprecation note)."""
    await pilot.press("D")
    await pilot.pause()
    assert isinstance(pilot.app.screen, ChoiceScreen)
    await pilot.press("a" if note else "o")


def app_on(root: Path) -> KasApp:
    return KasApp(Package.open(root), today=TODAY, watch=False)


async def test_deprecate_logs_and_undo_redo_restore_bytes(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        await deprecate(pilot)
        await pilot.pause()
        after = files(root)
        assert changed(before, after) == {DOC, "log.md"}
        assert app.package.documents[DOC].status == "deprecated"
        assert f"Marked {DOC} deprecated." in after["log.md"].decode()
        diff_lines = set(after[DOC].splitlines()) ^ set(before[DOC].splitlines())
        assert {line.decode().split(":")[0] for line in diff_lines} == {"status"}
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert files(root) == before, "undo puts back every byte, log entry included"
        assert app.package.documents[DOC].status != "deprecated"
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert files(root) == after


async def test_mark_verified_asks_the_reviewer_once(root: Path) -> None:
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        count = len(app.package.documents[DOC].meta.get("verified") or [])
        await pilot.press("V")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen)
        await pilot.press(*"bad id", "enter")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen), "an id with a space is refused at the field"
        for _ in "bad id":
            await pilot.press("backspace")
        await pilot.press(*"sam.lee", "enter")
        await pilot.pause()
        verified = app.package.documents[DOC].meta["verified"]
        assert len(verified) == count + 1 and verified[-1]["by"] == "human:sam.lee"
        assert app.settings.reviewer == "sam.lee"
        await pilot.press("V")  # asked once: the second verification goes straight through
        await pilot.pause()
        assert not isinstance(app.screen, AskScreen)
        assert len(app.package.documents[DOC].meta["verified"]) == count + 2


async def test_extend_freshness_offers_the_shortcuts(root: Path) -> None:
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("q")  # +90 days, from stale_after 2027-05-31T00:00:00Z (later than today)
        await pilot.pause()
        assert str(app.package.documents[DOC].meta["stale_after"]) == "2027-08-29T00:00:00Z"
        assert "stale_after: 2027-08-29T00:00:00Z" in (root / DOC).read_text()


async def test_entry_moves_and_removal_touch_only_the_index(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        tree = app.query_one(NavTree)
        assert tree.select_path(DOC)
        tree.focus()

        def on_the_entry() -> bool:
            node = tree.cursor_node
            return node is not None and node.data is not None and node.data.listing is not None

        await pilot_wait_until(pilot, on_the_entry)  # the cursor lands after a refresh
        listing = tree.cursor_node.data.listing
        await pilot.press("J")
        await pilot_wait_until(pilot, lambda: listing.index in changed(before, files(root)))
        assert changed(before, files(root)) == {listing.index}  # the burst goes on
        await pilot.press("escape")  # any other key ends it: log.md gets its entry
        await pilot_wait_until(pilot, lambda: app.edits.burst is None)
        assert changed(before, files(root)) == {listing.index, "log.md"}
        lines = (root / listing.index).read_text().splitlines()
        assert lines[listing.entry.line].startswith(
            before[listing.index].decode().splitlines()[listing.entry.line - 1][:10]
        )
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert files(root) == before
        assert tree.select_path(DOC)
        await pilot.pause()
        await pilot.press("delete")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("r")
        await pilot.pause()
        assert DOC not in [item.path for item in app.package.listings("oncall")]
        assert (root / DOC).exists(), "the document stays"


async def test_add_missing_entries_lists_unlisted_documents(root: Path) -> None:
    (root / "oncall" / "stray.md").write_text(
        "---\ntype: Note\ntitle: Stray note\ndescription: A note nobody listed yet.\n---\n"
    )
    (root / "security" / "lost.md").write_text("---\ntype: Note\ntitle: Lost\n---\n")
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        tree = app.query_one(NavTree)
        tree.focus()
        assert tree.select_path("oncall")
        await pilot.pause()
        await pilot.press("A")
        await pilot.pause()
        assert changed(before, files(root)) == {"oncall/index.md", "log.md"}, "only this bundle"
        assert (
            "[Stray note](stray.md) - A note nobody listed yet."
            in (root / "oncall/index.md").read_text()
        )


async def test_add_missing_entries_leaves_a_document_without_description_and_says_why(
    root: Path,
) -> None:
    """Issue 30, item 11: the entry would have had no description, a new error."""
    (root / "oncall" / "broken.md").write_text("---\ntitle: [broken\ntype: Note\n---\nbody\n")
    (root / "oncall" / "stray.md").write_text(
        "---\ntype: Note\ntitle: Stray note\ndescription: A note nobody listed yet.\n---\n"
    )
    app = app_on(root)
    async with app.run_test(size=(80, 24)) as pilot:
        tree = app.query_one(NavTree)
        tree.focus()
        assert tree.select_path("oncall")
        await pilot.pause()
        await pilot.press("A")
        await pilot_wait_until(
            pilot, lambda: any("broken.md" in n.message for n in app._notifications)
        )
        index = (root / "oncall/index.md").read_text()
        assert "stray.md" in index and "broken.md" not in index
        note = next(n.message for n in app._notifications if "broken.md" in n.message)
        assert note.startswith("Not listed: broken.md: no description")


async def test_a_file_changed_on_disk_is_never_overwritten_silently(root: Path) -> None:
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        text = (root / DOC).read_text()
        (root / DOC).write_text(text + "\nAdded by another editor.\n")
        await deprecate(pilot)
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert (root / DOC).read_text().endswith("Added by another editor.\n")
        assert "status: deprecated" not in (root / DOC).read_text()
        await pilot.press("d")  # see the diff of saving on top
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        assert "+status: deprecated" in app.screen.diff
        await pilot.press("s")
        await pilot.pause()
        saved = (root / DOC).read_text()
        assert "status: deprecated" in saved and saved.endswith("Added by another editor.\n")


async def test_conflict_reload_keeps_their_version(root: Path) -> None:
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        theirs = (root / DOC).read_text().replace("title: ", "title: Theirs ", 1)
        (root / DOC).write_text(theirs)
        await deprecate(pilot)
        await pilot.pause()
        await pilot.press("r")  # reload, drop my change
        await pilot.pause()
        assert (root / DOC).read_text() == theirs
        assert app.package.documents[DOC].title.startswith("Theirs")


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root writes anywhere")
async def test_a_read_only_file_is_refused_with_a_message(root: Path) -> None:
    (root / DOC).chmod(0o444)
    (root / "oncall").chmod(0o555)
    app = app_on(root)
    try:
        async with app.run_test(size=(160, 48)) as pilot:
            app.go(DOC, reveal=True)
            await pilot.pause()
            await deprecate(pilot)
            await pilot.pause()
            assert "status: deprecated" not in (root / DOC).read_text()
            assert any("permission denied" in m for _, m in app.messages)
    finally:
        (root / "oncall").chmod(0o755)


async def test_log_toggle_and_quit_asks_with_unsaved_editor(root: Path) -> None:
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("L")
        assert app.session.log_edits is False and app.settings.log_edits is False
        log = (root / "log.md").read_bytes()
        app.go(DOC, reveal=True)
        await pilot.pause()
        await deprecate(pilot)
        await pilot.pause()
        assert (root / "log.md").read_bytes() == log
        app.screen.dirty = True  # an editor with unsaved text
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("k")  # keep editing
        await pilot.pause()
        assert app.is_running


async def test_external_editor_reads_the_file_again(root: Path, monkeypatch) -> None:
    script = root.parent / "fake-editor.sh"
    script.write_text('#!/bin/sh\nsed -i "s/^title: .*/title: From the editor/" "$1"\n')
    script.chmod(0o755)
    monkeypatch.setenv("VISUAL", str(script))
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        # headless: nothing to hand the terminal over from
        monkeypatch.setattr(type(app), "suspend", lambda self: contextlib.nullcontext())
        await pilot.press("E")
        await pilot.pause()
        assert app.package.documents[DOC].title == "From the editor"


async def test_crlf_and_bom_files_stay_so(root: Path) -> None:
    doc = root / DOC
    index = root / "oncall" / "index.md"
    for path in (doc, index):
        text = path.read_bytes().decode("utf-8").replace("\n", "\r\n")
        path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        await deprecate(pilot)
        await pilot.pause()
        tree = app.query_one(NavTree)
        tree.focus()
        assert tree.select_path(DOC)
        await pilot.pause()
        await pilot.press("J")
        await pilot.pause()
    after = files(root)
    assert changed(before, after) == {DOC, "oncall/index.md", "log.md"}
    for rel in (DOC, "oncall/index.md"):
        data = after[rel]
        assert data.startswith(b"\xef\xbb\xbf"), f"{rel} kept its BOM"
        assert data.count(b"\n") == data.count(b"\r\n"), f"{rel} kept CRLF on every line"
        old, new = before[rel].split(b"\r\n"), data.split(b"\r\n")
        assert len(old) == len(new)
        differ = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
        assert len(differ) == (1 if rel == DOC else 2), f"{rel}: only the intended lines"
    assert b"status: deprecated\r\n" in after[DOC]


async def test_run_edit_says_how_it_ended_once(root: Path) -> None:
    """run_edit returns its outcome; a conflict's decision comes once, as a message to
    the screen that ran the edit (never both a return value and a callback)."""
    from textual.screen import Screen

    from kas_tui.core.editing import set_field
    from kas_tui.core.okf.errors import EditError
    from kas_tui.tui.edit_outcome import EditDecided, EditOutcome
    from tests.helpers.waiting import pilot_wait_until

    class Editor(Screen[None]):
        def __init__(self) -> None:
            super().__init__()
            self.heard: list[EditOutcome] = []

        def on_edit_decided(self, message: EditDecided) -> None:
            self.heard.append(message.outcome)

    def refuse(pkg: Package) -> None:
        raise EditError(f"{DOC}: refused for the test")

    def deprecate(pkg: Package) -> None:
        set_field(pkg, DOC, "status", "deprecated")

    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = Editor()
        await app.push_screen(editor)
        assert app.run_edit("title", lambda pkg: set_field(pkg, DOC, "title", "T")) is (
            EditOutcome.SAVED
        )
        assert app.run_edit("title", lambda pkg: set_field(pkg, DOC, "title", "T")) is (
            EditOutcome.NOTHING
        )
        assert app.run_edit("refused", refuse) is EditOutcome.REFUSED
        for answer, outcome in (("k", EditOutcome.KEPT), ("r", EditOutcome.DROPPED)):
            base = {DOC: app.package.fingerprint(DOC)}
            (root / DOC).write_text((root / DOC).read_text() + f"\nTheirs {answer}.\n")
            assert app.run_edit("deprecate", deprecate, based_on=base) is (
                EditOutcome.CONFLICT_PENDING
            )
            await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.press(answer)
            await pilot_wait_until(pilot, lambda o=outcome: editor.heard[-1:] == [o])
        base = {DOC: app.package.fingerprint(DOC)}
        (root / DOC).write_text((root / DOC).read_text() + "\nTheirs again.\n")
        assert app.run_edit("deprecate", deprecate, based_on=base) is (EditOutcome.CONFLICT_PENDING)
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")  # the diff of saving on top
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        await pilot.press("s")
        await pilot_wait_until(pilot, lambda: len(editor.heard) == 3)
        await pilot.pause()
        assert editor.heard == [EditOutcome.KEPT, EditOutcome.DROPPED, EditOutcome.SAVED]
        assert "status: deprecated" in (root / DOC).read_text()


async def test_deprecate_offers_the_note_its_index_entries_then_need(root: Path) -> None:
    """Issue 16 item 15: D also says so in the entries, which KAS044 would ask for."""
    from kas_tui.features.check import check

    before = files(root)
    app = app_on(root)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        await deprecate(pilot, note=True)
        await pilot.pause()
        after = files(root)
        assert changed(before, after) == {DOC, "log.md", "oncall/index.md", "incidents/index.md"}
        for index in ("oncall/index.md", "incidents/index.md"):
            assert (
                b"(../oncall/escalation-policy.md) - Deprecated: Who gets paged" in after[index]
                or b"(escalation-policy.md) - Deprecated: Who gets paged" in after[index]
            )
        report = check(app.package, agent_ready=True, today=TODAY)
        assert not [
            f for f in report.findings if f.code == "KAS044" and DOC.split("/")[1] in f.message
        ]
        await pilot.press("ctrl+z")  # one action: every file back, byte for byte
        await pilot.pause()
        assert files(root) == before


# -- K/J bursts (issue 16.14) ------------------------------------------------------------

STATUS_PAGE = "incidents/status-page-communication.md"


async def _on_entry(pilot, app: KasApp, path: str) -> None:
    from kas_tui.tui.widgets.nav_tree import NavTree

    tree = app.query_one(NavTree)
    tree.focus()
    assert tree.select_path(path)
    await pilot.pause()


async def test_a_burst_of_moves_is_one_undo_action_and_one_log_entry(root: Path) -> None:
    before = files(root)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_entry(pilot, app, STATUS_PAGE)
        await pilot.press("K", "K")
        index = (root / "incidents" / "index.md").read_text()
        running = index[index.index("# Running") : index.index("# Runbooks")]
        assert running.index("status-page-communication.md") < running.index("incident-response.md")
        assert (root / "log.md").read_bytes() == before["log.md"]  # not yet: the burst goes on
        await pilot.press("down")  # another key ends it
        await pilot_wait_until(pilot, lambda: app.edits.burst is None)
        assert changed(before, files(root)) == {"incidents/index.md", "log.md"}
        log = (root / "log.md").read_text()
        assert log.count("Moved the entry") == 1
        assert "up 2 places in incidents/index.md" in log
        assert len(app.session.done) == 1
        await pilot.press("ctrl+z")
        assert files(root) == before


async def test_up_then_down_changes_nothing_and_logs_nothing(root: Path) -> None:
    before = files(root)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_entry(pilot, app, STATUS_PAGE)
        await pilot.press("K")
        await pilot_wait_until(pilot, lambda: "incidents/index.md" in changed(before, files(root)))
        for _ in range(5):  # the curator looks: time passes, no key is pressed
            await pilot.pause()
        assert app.edits.burst is not None and app.edits.burst.moves == 1
        await pilot.press("J")  # issue 32, item 14: 1.5 s apart this was two log entries
        await pilot.press("down")
        await pilot_wait_until(pilot, lambda: app.edits.burst is None)
        assert files(root) == before
        assert app.session.done == []
        await pilot.press("ctrl+z")
        assert files(root) == before


async def test_k_at_the_top_of_a_section_says_why_nothing_moved(root: Path) -> None:
    before = files(root)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_entry(pilot, app, "incidents/incident-response.md")
        await pilot.press("K")
        await pilot.pause()
        said = [m for _, m in app.messages]
        assert any("first entry of its section 'Running an incident'" in m for m in said)
        assert files(root) == before and app.edits.burst is None


async def _ninety_more_days(pilot, app: KasApp, page: str) -> None:
    """``page`` shown, S pressed and +90 days chosen (q) in the dialog it opens."""
    app.go(page, reveal=True)
    await pilot_wait_until(pilot, lambda: app.location == page)
    await pilot.press("S")
    await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
    await pilot.press("q")


async def test_extend_freshness_offers_to_drop_a_stale_note_that_is_no_longer_true(
    root: Path,
) -> None:
    """Issue 32, item 12: after S the entry still opened with "(Stale: ...)"."""
    from kas_tui.features.check import check

    page, index = "billing-support/plans-and-pricing.md", root / "billing-support" / "index.md"
    before = {p: p.read_bytes() for p in (root / page, index, root / "log.md")}
    app = KasApp(Package.open(root), today=dt.date(2026, 12, 5), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ninety_more_days(pilot, app, page)
        await pilot_wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, ChoiceScreen)
                and "still call it stale" in str(app.screen.message)
            ),
        )
        await pilot.press("a")
        await pilot_wait_until(
            pilot,
            lambda: "Orbit's Free" in index.read_text().split("(plans-and-pricing.md) - ")[1][:20],
        )
        report = check(Package.open(root), agent_ready=True, today=dt.date(2026, 12, 5))
        assert not [f for f in report.findings if f.code == "KAS044"]
        await pilot.press("ctrl+z")  # one action: the date and the note come back together
        await pilot_wait_until(pilot, lambda: all(p.read_bytes() == b for p, b in before.items()))


async def test_extend_freshness_keeps_the_stale_note_of_a_deprecated_page(root: Path) -> None:
    """Issue 32, item 12, one rule with check: on a deprecated page the note is still
    true; S offered to drop it, leaving an entry KAS044 reports as not saying so."""
    from kas_tui.features.check import check

    page, index = "billing-support/plans-and-pricing.md", root / "billing-support" / "index.md"
    (root / page).write_text(
        (root / page).read_text().replace("status: stable", "status: deprecated")
    )
    entries = index.read_bytes()
    app = KasApp(Package.open(root), today=dt.date(2026, 12, 5), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ninety_more_days(pilot, app, page)  # written at once: nothing asked
        await pilot_wait_until(pilot, lambda: "2027-03-05" in (root / page).read_text())
        assert not isinstance(app.screen, ChoiceScreen)
        assert index.read_bytes() == entries
        report = check(Package.open(root), agent_ready=True, today=dt.date(2026, 12, 5))
        assert not [f for f in report.findings if f.code == "KAS044" and "plans" in f.message]


async def test_extend_freshness_offers_the_types_cadence_from_the_house_rules(root: Path) -> None:
    """Issue 35: S uses the type's freshness_days from .kas-tui.yaml."""
    (root / ".kas-tui.yaml").write_text("profile:\n  by_type:\n    Policy: {freshness_days: 45}\n")
    app = app_on(root)
    async with app.run_test(size=(80, 24)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        await pilot.press("S")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        _, answer, label, key = app.screen.answers[0]
        assert (key, answer) == ("4", "45") and label.endswith(
            "(every Policy, by this package's rules)"
        )


@pytest.mark.parametrize("key", ["K", "J", "delete", "A"])
async def test_a_tree_key_away_from_the_tree_says_where_it_works(root: Path, key: str) -> None:
    """Issue 32, item 6: after focus moved (v, a dialog), K/J/del/A did nothing, silently."""
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=(80, 24)) as pilot:
        app.go(DOC, reveal=True)
        await pilot.pause()
        app.set_focus(None)  # as after a closed panel or dialog: the focus is not on the tree
        await pilot.pause()
        await pilot.press(key)
        await pilot_wait_until(pilot, lambda: any("navigation tree" in m for _, m in app.messages))
        assert isinstance(app.focused, NavTree)
        assert files(root) == before  # nothing was done where the user did not look
