"""Full-text search in the TUI at 80×24: ctrl+f, the ``?`` prefix and the toggle in the
finder, results as literal text, Enter opening the document scrolled to the line, and
the index following changes on disk."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Input, OptionList
from textual.widgets.markdown import MarkdownBlock

from kas_tui.core.package import Package
from kas_tui.features.find.fulltext import FullTextIndex
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens import find_text
from kas_tui.tui.screens.find import FindScreen, Found
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.source_blocks import block_at
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
SIZE = (80, 24)
RUNBOOK = "security/secrets-rotation-runbook.md"


def file_line(root: Path, rel: str, number: int) -> str:
    return (root / rel).read_text(encoding="utf-8").split("\n")[number - 1]


def prompts(app: KasApp) -> list[str]:
    results = app.screen.query_one("#find-results", OptionList)
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


def indexed(app: KasApp) -> bool:
    index = app._fulltext
    return index is not None and index.progress[1] > 0 and index.progress[0] == index.progress[1]


def shows_line(app: KasApp, needle: str) -> bool:
    """Whether the body is scrolled (not at its top) with the block holding ``needle`` at
    the top of the visible part (below its margin), or ``needle`` on one of its top rows
    as the screen draws them (a line inside a long list drawn compact is its own row
    there, not the top of its block)."""
    pane = app.query_one(BodyPane)
    scroll = pane.query_one("#body-scroll", VerticalScroll)
    if scroll.scroll_y == 0:
        return False
    top = scroll.content_region.y
    blocks = [b for b in pane.query(MarkdownBlock) if needle in (b.source or "")]
    if any(0 <= b.region.y - top <= 2 for b in blocks):
        return True  # the block holding it starts the view
    rows = app.screen._compositor.render_strips()[top : top + 3]
    return any(needle in row.text for row in rows)


async def test_ctrl_f_finds_words_in_bodies_and_enter_opens_at_the_line(
    root: Path, demo: Package
) -> None:
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+f")
        screen = app.screen
        assert isinstance(screen, FindScreen) and screen.text_mode
        assert screen.query_one("#find-box").border_title == "Find in text"
        await pilot.press(*"dual credential")
        await pilot_wait_until(pilot, lambda: indexed(app) and screen.found)
        assert screen.found[0].path == RUNBOOK
        line = screen.found[0].line
        assert file_line(root, RUNBOOK, line) == "## The dual-credential rule"
        first = prompts(app)[0]
        assert "Secrets rotation runbook" in first and f"{RUNBOOK}:{line}" in first
        assert "## The dual-credential rule" in first
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: shows_line(app, "dual-credential rule"))
        assert app.location == RUNBOOK
        assert app.query_one("#nav").cursor_node.data.path == RUNBOOK


async def test_a_question_mark_in_the_fuzzy_finder_searches_the_text(demo: Package) -> None:
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        screen = app.screen
        assert isinstance(screen, FindScreen) and not screen.text_mode
        await pilot.press(*"rotate stripe")
        await pilot.pause()
        assert RUNBOOK not in screen.paths  # the fuzzy finder: titles, not bodies
        screen.query_one(Input).value = ""
        await pilot.press(*"?JWT signing")
        await pilot_wait_until(pilot, lambda: indexed(app) and screen.found)
        assert screen.found[0].path == RUNBOOK
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: shows_line(app, "JWT signing key"))


async def test_ctrl_f_in_the_finder_toggles_full_text(demo: Package) -> None:
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"rotate stripe")
        screen = app.screen
        await pilot.press("ctrl+f")
        assert screen.text_mode and screen.query_one("#find-box").border_title == "Find in text"
        await pilot_wait_until(pilot, lambda: indexed(app) and screen.found)
        assert [f.path for f in screen.found] == [RUNBOOK]
        await pilot.press("ctrl+f")
        assert not screen.text_mode and screen.query_one("#find-box").border_title == "Find"
        assert RUNBOOK not in screen.paths
        await pilot.press("escape")
        assert app.screen is app.screen_stack[0]


async def test_file_text_is_shown_as_written_never_as_markup(root: Path) -> None:
    doc = root / "security" / "markup-trap.md"
    doc.write_text(
        '---\ntype: Note\ntitle: "[draft] Refunds [/]"\ndescription: A trap.\n---\n\n'
        "Press [bold]quokka[/bold] then [link](x.md) and [/] too.\n",
        encoding="utf-8",
    )
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+f", *"quokka")
        await pilot_wait_until(pilot, lambda: indexed(app) and app.screen.found)
        (prompt,) = prompts(app)
        assert "[draft] Refunds [/]" in prompt
        assert "Press [bold]quokka[/bold] then [link](x.md) and [/] too." in prompt


async def test_the_index_follows_files_changed_on_disk(root: Path, demo: Package) -> None:
    app = KasApp(demo, today=TODAY)  # watching the disk
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+f")
        await pilot_wait_until(pilot, lambda: indexed(app))
        faq = root / "oncall" / "oncall-faq.md"
        faq.write_bytes(faq.read_bytes() + b"\nAsk the axolotl desk.\n")
        (root / "oncall" / "handoff-checklist.md").unlink()

        def found(word: str) -> list[str]:
            return [hit.path for hit in app.fulltext.search(word).hits]

        await pilot_wait_until(pilot, lambda: found("axolotl") == ["oncall/oncall-faq.md"])
        await pilot_wait_until(pilot, lambda: "oncall/handoff-checklist.md" not in found("handoff"))
        await pilot.press(*"axolotl")
        await pilot_wait_until(pilot, lambda: app.screen.found)
        hit = app.screen.found[0]
        assert file_line(root, hit.path, hit.line) == "Ask the axolotl desk."


async def test_open_found_scrolls_to_a_line_inside_a_list(root: Path) -> None:
    doc = root / "oncall" / "long-list.md"
    items = "\n".join(f"- item {i} of the list" for i in range(60))
    doc.write_text(
        "---\ntype: Note\ntitle: Long list\ndescription: A list.\n---\n\n# Long list\n\n"
        f"{items}\n- the wombat item\n- and one more\n\n" + "A closing paragraph.\n\n" * 40,
        encoding="utf-8",
    )
    package = Package.open(root)
    app = KasApp(package, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        line = doc.read_text().split("\n").index("- the wombat item") + 1
        app.open_found(Found("oncall/long-list.md", line))
        await pilot_wait_until(pilot, lambda: shows_line(app, "the wombat item"))
        # another page shown before the scroll could happen is never scrolled
        app.open_found(Found("oncall/long-list.md", line))
        app.go(RUNBOOK)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.query_one(BodyPane).query_one("#body-scroll").scroll_y == 0


def test_block_at_picks_the_innermost_block_holding_the_line() -> None:
    # heading [0,1); list [2,6) holding items [2,3) [3,5) with a paragraph [3,4); para [7,9)
    ranges = [(0, 1), (2, 6), (2, 3), (3, 5), (3, 4), (7, 9), (0, 0)]
    assert block_at(ranges, 0) == 0
    assert block_at(ranges, 3) == 4
    assert block_at(ranges, 4) == 3
    assert block_at(ranges, 6) == 5  # a blank line: the block after it
    assert block_at(ranges, 8) == 5
    assert block_at(ranges, 20) == 5  # past the end: the last block
    assert block_at([], 3) is None
    assert block_at([(0, 0)], 3) is None


def test_rows_say_how_far_the_index_is_built(root: Path) -> None:
    index = FullTextIndex(root)
    index.sync()
    index.progress = (12, 37)  # as while a build is under way
    rows, count = find_text.rows(index.search("stripe"), index)
    assert count.startswith("indexing 12/37 · ") and count.endswith("so far")
    assert rows and all(hit.path for hit, _, _ in rows)
    assert find_text.rows(None, index)[1].startswith("indexing 12/37")
    index.progress = (37, 37)
    assert find_text.rows(index.search("stripe"), index)[1].endswith("documents")
    index.close()


async def test_no_index_can_be_made_is_said_and_find_still_works(
    demo: Package, monkeypatch
) -> None:
    from kas_tui.features.find.fulltext import fts_index as index_module

    def refuse(self, root, *, folder=None) -> None:
        raise index_module.IndexDamaged("no room anywhere")

    monkeypatch.setattr(index_module.FullTextIndex, "__init__", refuse)
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]
        assert any("no room anywhere" in m for _, m in app.messages)
        await pilot.press("slash", *"?sev lev")
        await pilot.pause()
        assert app.screen.paths[0] == "incidents/severity-levels.md"  # fuzzy after all


@pytest.mark.background_indexes
async def test_both_indexes_are_built_in_the_background_after_the_first_screen(
    demo: Package,
) -> None:
    # outside the tests, no search waits for them: both are ready before a key is typed
    app = KasApp(demo, today=dt.date(2026, 11, 30), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_wait_until(pilot, lambda: app._finder is not None)
        await pilot_wait_until(pilot, lambda: indexed(app))
