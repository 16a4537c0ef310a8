"""Huge pages never hold a key (issue 30, item 2): a page is read and cut in a thread,
only its start is shown (the rest opens in $EDITOR), and a long paragraph is mounted in
parts. At 80×24, as a small terminal shows it."""

from __future__ import annotations

import datetime as dt
import re
import threading
from pathlib import Path

import pytest
from textual.widgets import Markdown

from kas_tui.core import page_start
from kas_tui.core.package import Package
from kas_tui.text.wording import size_text
from kas_tui.tui.app import KasApp
from kas_tui.tui.controllers import navigation
from kas_tui.tui.screens.help import HelpScreen
from kas_tui.tui.widgets.body_pages import PART_CHARS, pieces
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 12, 1)
WORDS = [
    "the",
    "rota",
    "names",
    "who",
    "answers",
    "a",
    "page",
    "and",
    "when",
    "the",
    "next",
    "one",
    "takes",
    "over",
]


def _paragraph(size: int) -> str:
    words = (WORDS * (size // 40 + 1))[: size // 4]
    return " ".join(words)[:size].rsplit(" ", 1)[0]


def _sections(size: int) -> str:
    out, n, total = [], 0, 0
    while total < size:
        n += 1
        part = f"## Section {n}\n\n{_paragraph(300)}.\n\n- one\n- two\n\n"
        out.append(part)
        total += len(part)
    return "".join(out)


def _package(tmp_path: Path, huge: str, skill_body: str = "Start at index.md.\n") -> Package:
    root = tmp_path / "huge-kb"
    root.mkdir()
    (root / "SKILL.md").write_text(
        f"---\nname: huge-kb\ndescription: A huge page. Use in tests.\n---\n\n{skill_body}"
    )
    (root / "index.md").write_text(
        "# Pages\n\n* [Huge](huge.md) - A huge page.\n* [Small](small.md) - A small one.\n"
    )
    head = "---\ntype: Reference\ntitle: {}\ndescription: A page.\n---\n\n"
    (root / "huge.md").write_text(head.format("Huge") + "# Huge\n\n" + huge)
    (root / "small.md").write_text(head.format("Small") + "# Small\n\nHello.\n")
    return Package.open(root, cache=False)


def _pane_text(app: KasApp, widget) -> str:
    """What the screen shows inside ``widget``, its lines joined by single spaces."""
    region = widget.region
    strips = app.screen._compositor.render_strips()
    rows = [s.text[region.x : region.right] for s in strips[region.y : region.bottom]]
    return re.sub(r"[\s│╭╮╰╯─]+", " ", " ".join(rows))


async def _shown(pilot, body: BodyPane) -> None:
    await pilot_wait_until(pilot, lambda: not body.rendering)
    await pilot.pause()


async def test_a_huge_page_shows_its_start_and_says_how_much(tmp_path: Path) -> None:
    package = _package(tmp_path, _sections(3_000_000))
    app = KasApp(package, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        app.go("huge.md")
        await _shown(pilot, body)
        text = _pane_text(app, body)
        assert "Showing the first 256 KB of 2.9 MB: E opens it in $EDITOR" in text, text
        assert body.cut is not None and body.cut.shown <= page_start.SHOWN_BYTES
        assert len(body.source) <= page_start.SHOWN_BYTES
        app.go("small.md")  # a page shown whole says nothing of the kind
        await _shown(pilot, body)
        assert body.cut is None and "Showing the first" not in _pane_text(app, body)


async def test_the_end_of_a_cut_page_says_the_rest_opens_in_the_editor(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(page_start, "SHOWN_BYTES", 4096)
    package = _package(tmp_path, _sections(40_000))
    app = KasApp(package, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        app.go("huge.md")
        await _shown(pilot, body)
        assert "Showing the first 4 KB of 39 KB" in _pane_text(app, body)
        scroll = app.query_one("#body-scroll")
        for _ in range(10):  # the reader scrolls to the end of what is shown
            scroll.scroll_end(animate=False)
            await _shown(pilot, body)
            if body.complete:
                break
        more = str(app.query_one("#body-more").render())
        assert body.complete and "is not shown: E opens it in $EDITOR" in more


async def test_a_line_past_the_start_shown_says_so_and_mounts_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    """A finding's line or a full-text hit past the start shown: said, not searched for."""
    monkeypatch.setattr(page_start, "SHOWN_BYTES", 20_000)  # pieces: not all mounted at once
    package = _package(tmp_path, _sections(100_000))
    app = KasApp(package, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        app.go_to_line("huge.md", 5000)
        await pilot_wait_until(pilot, lambda: any("past the first" in t for _, t in app.messages))
        await _shown(pilot, body)
        assert not body.complete  # the pieces shown were not all mounted to look for it
        assert body.cut is not None
        assert app.messages[-1][1] == (
            f"That line is past the first {size_text(body.cut.shown)} shown: "
            "E opens the whole page in $EDITOR"
        )


async def test_a_key_is_answered_while_a_huge_page_is_read(tmp_path: Path, monkeypatch) -> None:
    """The page's read is held until the test says: `?` is answered meanwhile."""
    package = _package(tmp_path, _sections(3_000_000))
    gate = threading.Event()
    read = page_start.read_start

    def held(*args, **kwargs):
        gate.wait(60)
        return read(*args, **kwargs)

    monkeypatch.setattr(navigation, "read_start", held, raising=False)
    app = KasApp(package, today=TODAY, watch=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            body = app.query_one(BodyPane)
            await pilot_wait_until(pilot, lambda: app.location == "SKILL.md" and body.complete)
            app.go("huge.md")
            await pilot.press("question_mark")
            await pilot_wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert body.rendering and "Section 1" not in body.source  # still being read
            gate.set()
            await pilot.press("escape")
            await _shown(pilot, body)
            assert "## Section 1" in body.source and body.cut is not None
    finally:
        gate.set()


async def test_a_huge_skill_md_is_shown_in_parts_and_the_tree_keys_answer(
    tmp_path: Path,
) -> None:
    package = _package(tmp_path, "Small.\n", skill_body=_paragraph(2_000_000) + "\n")
    app = KasApp(package, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        await pilot_wait_until(pilot, lambda: app.location == "SKILL.md")
        await _shown(pilot, body)
        assert "Showing the first 256 KB of 1.9 MB" in _pane_text(app, body)
        mounted = list(app.query_one("#body-scroll").query(Markdown))
        assert all(len(m.source) <= PART_CHARS for m in mounted)  # one paragraph, in parts
        tree = app.query_one(NavTree)
        tree.focus()
        await pilot.press("down")
        await pilot_wait_until(pilot, lambda: app.location == "huge.md")


# -- where a long paragraph is cut --------------------------------------------------------


def test_a_long_paragraph_is_cut_between_words_into_parts() -> None:
    text = "# Title\n\n" + _paragraph(60_000) + "\n\n## After\n\nThe end.\n"
    cut = pieces(text)
    assert "".join(p.text for p in cut) == text
    assert len(cut) > 3 and all(len(p.text) <= PART_CHARS + 20 for p in cut)
    for piece in cut[1:]:
        assert piece.text[0].isalpha()  # never starts as a list item, heading or code
    assert [p.first_line for p in cut][:2] == [0, 2]  # the paragraph's line


@pytest.mark.parametrize("size", [100, PART_CHARS - 10])
def test_a_short_page_with_no_long_paragraph_stays_whole(size: int) -> None:
    text = "# Title\n\n" + _paragraph(size) + "\n"
    assert len(pieces(text)) == 1
