"""The review screen (``t``) at 80×24: the queue shown, and each row acted on in place
(V, S, D through the main screen's own code), the bytes on disk checked, the row leaving
its group, undo putting back every byte."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

from textual.widgets import OptionList, Static

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import ChoiceScreen
from kas_tui.tui.screens.main_screen import MainScreen
from kas_tui.tui.screens.review import ReviewScreen, SourceDiffScreen
from tests.helpers.acme import changed, files
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
SIZE = (80, 24)
STALE = "billing-support/plans-and-pricing.md"
UNVERIFIED = "billing-support/billing-faq.md"
FAQ = "oncall/oncall-faq.md"


def app_on(root: Path) -> KasApp:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    app.settings.reviewer = "sam.lee"  # V asks for the id only the first time
    return app


async def open_queue(pilot) -> ReviewScreen:
    await pilot.press("t")
    await pilot_wait_until(
        pilot, lambda: isinstance(pilot.app.screen, ReviewScreen) and pilot.app.screen.queue
    )
    return pilot.app.screen


def groups_of(screen: ReviewScreen, path: str) -> set[str]:
    return {row.group for row in screen.rows if row.path == path}


async def highlight(pilot, screen: ReviewScreen, group: str, path: str) -> None:
    """Move the list's highlight to the row of ``path`` in ``group``."""
    index = next(n for n, r in enumerate(screen.rows) if (r.group, r.path) == (group, path))
    options = screen.query_one("#review-list", OptionList)
    options.highlighted = next(
        i for i in range(options.option_count) if options.get_option_at_index(i).id == str(index)
    )
    await pilot.pause()
    assert screen.current() is not None and screen.current().path == path


async def test_the_queue_at_80x24_with_its_counts_and_escape_closes(root: Path) -> None:
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_queue(pilot)
        counts = str(screen.query_one("#review-counts", Static).content)
        assert "39 documents · 30 human-reviewed · 4 machine-confirmed · 5 unverified" in counts
        assert "2 draft · 36 stable · 1 deprecated · 9 rows to review" in counts
        options = screen.query_one("#review-list", OptionList)
        headings = [
            str(options.get_option_at_index(i).prompt)
            for i in range(options.option_count)
            if options.get_option_at_index(i).disabled
        ]
        assert headings == [
            "Stale · 1",
            "Drafts older than 30 days · 1",
            "Never verified · 3",
            "Only machine-verified · 4",
        ]
        assert screen.current().path == STALE  # the first row, not its heading
        assert options.region.height >= 10 and options.region.right <= SIZE[0]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)


async def test_verify_in_place_the_row_leaves_and_undo_restores_every_byte(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_queue(pilot)
        await highlight(pilot, screen, "never-verified", UNVERIFIED)
        await pilot.press("V")
        await pilot_wait_until(pilot, lambda: "never-verified" not in groups_of(screen, UNVERIFIED))
        after = files(root)
        assert changed(before, after) == {UNVERIFIED, "log.md"}
        # lines were only added: the new verified key and its one entry, by sam.lee
        lines, old = after[UNVERIFIED].splitlines(True), before[UNVERIFIED].splitlines(True)
        new = [line for line in lines if line not in old]
        assert [line for line in lines if line not in new] == old
        assert new[0] == b"verified:\n" and b"by: human:sam.lee" in b"".join(new)
        assert len(new) == 3, new  # 'verified:', '- by: ...', '  at: ...'
        assert app.package.documents[UNVERIFIED].trust_tier == "human-reviewed"
        assert f"Verified {UNVERIFIED} (human:sam.lee)." in after["log.md"].decode()
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("ctrl+z")
        await pilot_wait_until(pilot, lambda: "never-verified" in groups_of(screen, UNVERIFIED))
        assert files(root) == before, "undo puts back every byte, log entry included"


async def test_extend_moves_a_stale_row_to_going_stale(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_queue(pilot)
        await highlight(pilot, screen, "stale", STALE)
        await pilot.press("S")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("m")  # +30 days from today (later than the stale_after)
        # its entry still says "(Stale: ...)": asked whether to drop the note; keep it here
        await pilot_wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, ChoiceScreen)
                and "still call it stale" in str(app.screen.message)
            ),
        )
        await pilot.press("o")
        await pilot_wait_until(pilot, lambda: groups_of(screen, STALE) == {"going-stale"})
        after = files(root)
        assert changed(before, after) == {STALE, "log.md"}
        diff = set(after[STALE].splitlines()) ^ set(before[STALE].splitlines())
        assert {line.split(b":")[0] for line in diff} == {b"stale_after"}
        assert b"stale_after: 2026-12-30T00:00:00Z" in after[STALE]
        [row] = [r for r in screen.rows if r.path == STALE]
        assert row.detail == "stale on 2026-12-30 (in 30 days)"
        await pilot.press("ctrl+z")
        await pilot_wait_until(pilot, lambda: groups_of(screen, STALE) == {"stale"})
        assert files(root) == before


async def test_deprecate_in_place_with_the_index_note(root: Path) -> None:
    before = files(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_queue(pilot)
        await highlight(pilot, screen, "never-verified", FAQ)
        await pilot.press("D")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("a")  # also start its index entry with "Deprecated: "
        # deprecated: in no lifecycle group; its entry now says so, but a link does not
        await pilot_wait_until(pilot, lambda: groups_of(screen, FAQ) == {"deprecated-listed"})
        after = files(root)
        assert changed(before, after) == {FAQ, "oncall/index.md", "log.md"}
        assert b"status: deprecated" in after[FAQ]
        [entry] = [
            line
            for line in after["oncall/index.md"].splitlines()
            if line not in before["oncall/index.md"].splitlines()
        ]
        assert b"(oncall-faq.md) - Deprecated: " in entry
        [row] = [r for r in screen.rows if r.path == FAQ]
        assert row.detail.startswith("linked from oncall/oncall-overview.md:")
        await pilot.press("ctrl+z")
        await pilot_wait_until(pilot, lambda: groups_of(screen, FAQ) == {"never-verified"})
        assert files(root) == before


async def test_enter_opens_the_document_in_the_main_view(root: Path) -> None:
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_queue(pilot)
        await highlight(pilot, screen, "never-verified", FAQ)
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.location == FAQ


def _record_old_source(root: Path) -> bytes:
    """The refund policy records the SHA-256 of its matrix; then the matrix changes."""
    matrix = root / "references" / "refund-matrix.txt"
    old = matrix.read_bytes()
    policy = root / "billing-support" / "refunds" / "refund-policy.md"
    text = policy.read_text()
    anchor = "    last_modified: 2026-06-10T00:00:00Z\n"
    digest = hashlib.sha256(old).hexdigest()
    policy.write_text(text.replace(anchor, f"{anchor}    sha256: {digest}\n", 1))
    matrix.write_bytes(old + b"Goodwill credit over 500 USD | Finance | new since December\n")
    return old


async def test_a_changed_source_shows_its_diff(root: Path) -> None:
    _record_old_source(root)
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_queue(pilot)
        policy = "billing-support/refunds/refund-policy.md"
        assert "changed-source" in groups_of(screen, policy)
        await highlight(pilot, screen, "changed-source", policy)
        await pilot.press("d")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, SourceDiffScreen))
        assert "+Goodwill credit over 500 USD | Finance | new since December" in app.screen.diff
        assert "not kept anywhere" in app.screen.note
        await pilot.press("escape")
        await pilot_wait_until(pilot, lambda: app.screen is screen)
        await highlight(pilot, screen, "stale", STALE)
        await pilot.press("d")  # not a changed source: a notice, no screen
        await pilot.pause()
        assert app.screen is screen


async def test_where_opens_the_link_and_enter_a_broken_link_at_its_line(root: Path) -> None:
    page = root / "oncall" / "oncall-overview.md"
    page.write_text(page.read_text() + "\nSee the [old rota](rota-2025.md).\n")
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_queue(pilot)
        await highlight(pilot, screen, "never-verified", FAQ)
        await pilot.press("D")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("o")  # only the status: its index entry still lists it silently
        await pilot_wait_until(pilot, lambda: len(groups_of(screen, FAQ)) == 1)
        offered = [r for r in screen.rows if r.path == FAQ]
        assert [r.detail.split(":")[0] for r in offered] == [
            "listed in oncall/index.md",
            "linked from oncall/oncall-overview.md",
        ]
        await highlight(pilot, screen, "deprecated-listed", FAQ)  # the first: the entry
        await pilot.press("w")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.location == "oncall/index.md"
        screen = await open_queue(pilot)
        [broken] = [r for r in screen.rows if r.group == "broken-link"]
        assert broken.path == "oncall/oncall-overview.md" and "rota-2025.md" in broken.detail
        await highlight(pilot, screen, "broken-link", broken.path)
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.location == "oncall/oncall-overview.md"


async def test_b_sends_a_house_rules_group_to_bulk_edit(root: Path) -> None:
    """Issue 35: set the field the package's rules ask for on every document lacking it."""
    from kas_tui.tui.screens.bulk import BulkScreen

    (root / ".kas-tui.yaml").write_text("profile:\n  fields:\n    owner: {required: true}\n")
    app = app_on(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_queue(pilot)
        lacking = [r.path for r in screen.rows if r.group == "house-rules"]
        assert len(lacking) > 20
        await highlight(pilot, screen, "house-rules", lacking[0])
        await pilot.press("B")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, BulkScreen))
        assert list(app.screen.selected) == list(dict.fromkeys(lacking))
