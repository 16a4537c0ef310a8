"""The body pane on long pages: mounted in pieces, never behind the tree cursor (issue 16.1)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from textual.widgets import Markdown

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.body_pages import pieces
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 12, 1)
ENTRIES = 120


# -- where a page may be cut ---------------------------------------------------------------


def _joined(text: str) -> str:
    return "".join(p.text for p in pieces(text, first=3, later=4, whole=7))


def test_a_short_page_stays_whole() -> None:
    text = "# Title\n\nOne.\n\n* a\n* b\n"
    assert pieces(text) == [pieces(text)[0]] and pieces(text)[0].text == text


def test_a_long_list_is_cut_between_its_items_and_nowhere_else() -> None:
    items = "".join(f"* [Doc {n}](doc-{n}.md) - About {n}.\n  continued\n" for n in range(30))
    text = (
        "# Bundle\n\nIntro.\n\n"
        + items
        + "\n```\ncode\n\n* not an item\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    cut = pieces(text, first=3, later=4, whole=7)
    assert len(cut) > 3
    assert "".join(p.text for p in cut) == text
    lines = text.splitlines(keepends=True)
    for piece in cut[1:]:
        assert piece.text.startswith("* [Doc ") or piece.text.startswith("```")
        assert "".join(lines[piece.first_line :]).startswith(piece.text)
    fence = next(p for p in cut if "```" in p.text)
    assert fence.text.count("```") == 2  # the code block is whole
    assert "| 1 | 2 |" in cut[-1].text and "|---|---|" in cut[-1].text


def test_nested_lists_stay_with_their_item() -> None:
    items = "".join(f"1. Step {n}\n   * detail {n}\n   * more {n}\n" for n in range(20))
    cut = pieces(items, first=3, later=4, whole=7)
    for piece in cut:
        assert not piece.text.lstrip().startswith("*")  # never starts inside an item


def test_every_piece_keeps_the_pages_reference_definitions() -> None:
    items = "".join(f"* [Doc {n}][ref] - About {n}.\n" for n in range(30))
    text = items + '\n[ref]: <a b.md> "The \\"title\\""\n'
    for piece in pieces(text, first=3, later=4, whole=7)[1:]:
        # as markdown-it gives every link's destination: normalised, as clicks report it
        assert '[REF]: <A%20B.MD> "THE \\"TITLE\\""' in piece.text.upper()


# -- the pane ----------------------------------------------------------------------------


def _big_package(tmp_path: Path) -> Path:
    root = tmp_path / "big-kb"
    root.mkdir()
    (root / "SKILL.md").write_text(
        "---\nname: big-kb\ndescription: Big bundles. Use in tests.\n---\n\nStart at index.md.\n"
    )
    top = ["# Big\n"]
    for b in ("alpha", "beta", "gamma"):
        (root / b).mkdir()
        lines = [f"# Bundle {b}\n", "\n", "## First half\n", "\n"]
        for n in range(ENTRIES):
            name = f"{b}-{n:03d}.md"
            (root / b / name).write_text(
                f"---\ntype: Reference\ntitle: {b} {n}\ndescription: Entry {n} of {b}.\n---\n\nBody.\n"
            )
            if n == ENTRIES // 2:
                lines += ["\n", f"## Second half of {b}\n", "\n"]
            lines.append(f"* [{b} {n}]({name}) - Entry {n} of {b}, with enough words to wrap.\n")
        (root / b / "index.md").write_text("".join(lines))
        top.append(f"* [{b}]({b}/) - The {b} bundle.\n")
    (root / "index.md").write_text("\n".join(top))
    return root


@pytest.fixture
def big(tmp_path: Path) -> Package:
    return Package.open(_big_package(tmp_path), cache=False)


def _pieces_mounted(app: KasApp) -> int:
    return len(app.query_one("#body-scroll").query(Markdown))


def _shown_text(app: KasApp) -> str:
    return "\n".join(m.source for m in app.query_one("#body-scroll").query(Markdown))


async def test_a_long_bundle_mounts_its_first_piece_then_more_as_the_reader_scrolls(
    big: Package,
) -> None:
    app = KasApp(big, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        app.go("beta/index.md")
        await pilot_wait_until(pilot, lambda: not body.rendering)
        assert body.source == (big.root / "beta" / "index.md").read_text()
        assert _pieces_mounted(app) == 1 and not body.complete
        assert "[beta 0](beta-000.md)" in _shown_text(app)
        assert "beta 119" not in _shown_text(app)
        more = app.query_one("#body-more")
        assert more.display and "below" in str(more.render())
        scroll = app.query_one("#body-scroll")
        for _ in range(40):  # the reader scrolls to the end, and on
            if body.complete:
                break
            scroll.scroll_end(animate=False)
            await pilot_wait_until(pilot, lambda: not body.rendering)
        assert body.complete and not more.display
        assert "beta 119" in _shown_text(app)


async def test_the_body_follows_the_tree_cursor_and_never_lags_behind_it(big: Package) -> None:
    app = KasApp(big, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        tree = app.query_one(NavTree)
        body = app.query_one(BodyPane)
        tree.focus()
        await pilot.press("down", "down", "down", "up", "down", "down")  # quickly, as held
        await pilot_wait_until(pilot, lambda: not body.rendering)
        place = app.location
        assert place == "gamma/index.md"
        assert tree.cursor_node.data.path == "gamma"
        shown = _shown_text(app)
        assert shown.startswith("# Bundle gamma") and "alpha" not in shown and "beta" not in shown


async def test_a_line_or_heading_in_a_later_piece_is_reached(big: Package) -> None:
    app = KasApp(big, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        app.go("alpha/index.md")
        last = (big.root / "alpha" / "index.md").read_text().count("\n")
        body.scroll_to_line(last, 1)  # at once: asked while the page is still being shown
        await pilot_wait_until(pilot, lambda: not body.rendering)
        assert "alpha 119" in _shown_text(app)
        assert app.query_one("#body-scroll").scroll_y > 0
        app.go("beta/index.md")
        body.goto_anchor("second-half-of-beta")
        await pilot_wait_until(pilot, lambda: not body.rendering)
        assert "Second half of beta" in _shown_text(app)
        assert app.query_one("#body-scroll").scroll_y > 0


async def test_the_outline_lists_the_headings_of_every_piece(big: Package) -> None:
    from textual.widgets import Tree
    from textual.widgets.markdown import MarkdownTableOfContents

    app = KasApp(big, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        app.go("gamma/index.md")
        await pilot_wait_until(pilot, lambda: not body.rendering)
        await pilot.press("o")
        await pilot_wait_until(pilot, lambda: body.complete)
        outline = app.query_one(MarkdownTableOfContents)

        def labels() -> list[str]:
            return [str(n.label) for n in outline.query_one(Tree)._tree_nodes.values()]

        await pilot_wait_until(pilot, lambda: any("Second half of gamma" in x for x in labels()))
        assert any("First half" in x for x in labels())


# -- long one-line lists drawn compact (issue 16.1: a bundle's body within 200 ms) ---------


def test_long_one_line_lists_are_drawn_as_one_block_line_for_line() -> None:
    from markdown_it import MarkdownIt

    from kas_tui.tui.widgets.body_pages import BULLET

    entries = [f"* [Doc {n}](doc-{n}.md) - About {n}.\n" for n in range(14)]
    short = ["- [Short](s.md) - Only two.\n", "- [Other](o.md) - Entries.\n"]
    loose = [f"* Loose {n}\n\n" for n in range(14)]
    nested = [f"* Item {n}\n  * nested {n}\n" for n in range(14)]
    ordered = [f"{n + 1}. Step {n}\n" for n in range(14)]
    text = "".join(
        ["# Bundle\n", "\n", *entries, "\n", *short, "\n", *loose, *nested, "\n", *ordered]
    )
    (piece,) = pieces(text)
    got, was = piece.text.splitlines(), text.splitlines()
    assert len(got) == len(was)  # line for line: a finding's line still points at its entry
    changed = [n for n, (a, b) in enumerate(zip(got, was, strict=True)) if a != b]
    assert changed == list(range(2, 16))  # only the long tight list of one-line entries
    assert got[2] == f"{BULLET}[Doc 0](doc-0.md) - About 0.  "  # a hard break after each
    assert got[15] == f"{BULLET}[Doc 13](doc-13.md) - About 13."  # but the last
    tokens = MarkdownIt("gfm-like").parse(piece.text)
    first = next(t for t in tokens if t.type == "paragraph_open")
    assert first.map == [2, 16]  # one block
    inline = tokens[tokens.index(first) + 1]
    assert [c.type for c in inline.children].count("hardbreak") == 13
    assert [c.attrs["href"] for c in inline.children if c.type == "link_open"][:2] == [
        "doc-0.md",
        "doc-1.md",
    ]
    assert pieces(text, compact=0)[0].text == text


async def test_a_line_inside_a_compact_list_scrolls_to_that_entry(big: Package) -> None:
    """At 80×24 the entries wrap: the entry a line names is the top row, not a row
    counted in source lines."""
    app = KasApp(big, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        app.go("alpha/index.md")
        await pilot_wait_until(pilot, lambda: not body.rendering)
        lines = (big.root / "alpha" / "index.md").read_text().splitlines()
        for entry in ("alpha 9", "alpha 15"):
            line = next(n for n, text in enumerate(lines, 1) if f"[{entry}]" in text)
            body.scroll_to_line(line, 1)
            await pilot_wait_until(pilot, lambda: not body.rendering)
            scroll = app.query_one("#body-scroll")
            top = app.screen._compositor.render_strips()[scroll.content_region.y].text
            assert f"{entry} " in top, top
