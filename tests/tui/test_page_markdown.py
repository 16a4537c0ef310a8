"""The body's Markdown draws a one-paragraph list item as one widget (page_markdown.py):
the same cells, in the same colours, as Textual's own Markdown, with far fewer widgets.

The differential test puts both side by side and compares every cell of the demo's pages
of lists (its SKILL.md, its root index, its nested and numbered lists: at 36 columns,
where their lines wrap most) and of pages shaped to break it (numbers from 7 to 12, nested lists, items
of two paragraphs or of code, wide characters, links and emphasis in a bullet's first
row), at two widths.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Markdown

from kas_tui.core.package import Package
from kas_tui.tui.widgets.page_markdown import ItemParagraph, PageMarkdown
from tests.helpers.acme import DEMO
from tests.helpers.waiting import pilot_wait_until

SHAPES = {
    "numbers": "Steps:\n\n"
    + "\n".join(
        f"{n}. Step {n} of the runbook, long enough to wrap under itself" for n in range(7, 13)
    ),
    "nested": "- **Bold** start and a [link](x.md) in the first row of a long item that wraps\n"
    "  - a nested item\n    - deeper still\n- `code` item\n\n1. one\n   1. inner one\n2. two\n",
    "two paragraphs": "- first paragraph\n\n  second paragraph of the same item\n- plain item\n",
    "code in an item": "1. Run:\n\n   ```sh\n   kas-tui check\n   ```\n2. Read what it says\n",
    "wide": "- 日本語の項目です、折り返すまで長く続く文章をここに書いておきます\n- ✅ done\n",
    "empty item": "- \n- after an empty item\n\n*\n",
    "loose": "- one\n\n- two\n\n- three\n",
}


#: The demo's pages of the most lists, nested lists and numbered steps.
LISTS = [
    "SKILL.md",
    "index.md",
    "billing-support/refunds/issuing-a-refund.md",
    "incidents/incident-commander-checklist.md",
    "oncall/oncall-overview.md",
    "oncall/pagerduty-runbook.md",
]


def _demo_pages() -> dict[str, str]:
    package = Package.open(Path(DEMO) / "orbit-handbook")
    return {rel: package.body(rel) for rel in LISTS}


class SideBySide(App):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.width = width

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Markdown(id="textual")
            yield PageMarkdown(id="page")

    def on_mount(self) -> None:
        for markdown in self.query(Markdown):
            markdown.styles.width = self.width


def _cells(strip, start: int, end: int) -> list[tuple]:
    """Each cell of ``strip`` from ``start`` to ``end``: its character and how it is drawn."""
    cells = []
    for segment in strip.crop(start, end):
        style = segment.style or Style()
        lines = (style.underline, style.strike)
        for char in segment.text:
            ink = style.color if char != " " or any(lines) else None  # a space shows no ink
            cells.append((char, ink, style.bgcolor, style.bold, style.italic, *lines))
    return cells


@pytest.mark.parametrize("width", [80, 36])
async def test_every_cell_is_as_textual_draws_it(width: int) -> None:
    # the demo's pages where lines wrap most; the shapes at both widths
    pages = {**(_demo_pages() if width < 80 else {}), **SHAPES}
    app = SideBySide(width)
    async with app.run_test(size=(2 * width, 400)) as pilot:
        textual, page = app.query_one("#textual", Markdown), app.query_one("#page", Markdown)
        checked = 0
        for name, text in pages.items():
            await textual.update(text)
            await page.update(text)
            await pilot_wait_until(
                pilot, lambda: textual.size.height > 0 and page.size.height == textual.size.height
            )
            await pilot.pause()
            assert textual.size.height < 400, name  # the whole page is on the screen
            strips = app.screen._compositor.render_strips()
            for row, strip in enumerate(strips[: textual.size.height]):
                assert _cells(strip, width, 2 * width) == _cells(strip, 0, width), (name, row)
            checked += 1
        assert checked == len(pages)


async def test_one_paragraph_items_are_one_widget_and_others_keep_textuals_row() -> None:
    app = SideBySide(60)
    async with app.run_test(size=(120, 60)) as pilot:
        page = app.query_one("#page", Markdown)
        await page.update(SHAPES["nested"] + "\n" + SHAPES["two paragraphs"])
        await pilot.pause()
        items = [p for p in page.query(ItemParagraph) if p.bullet]
        # one widget each: "deeper still" (a third level's bullet), "`code` item", "inner
        # one", "two", "plain item"; "long item", "a nested item" and "one" hold a list,
        # "first paragraph" two paragraphs: those keep Textual's row
        assert [p.bullet.strip() for p in items] == ["‣", "•", "1.", "2.", "•"]
        assert len(page.query("Horizontal")) == 4
        textual = app.query_one("#textual", Markdown)
        await textual.update(SHAPES["numbers"])
        await page.update(SHAPES["numbers"])
        await pilot.pause()
        assert len(page.query("*")) < len(textual.query("*")) / 2


class Clicks(App):
    def __init__(self) -> None:
        super().__init__()
        self.clicked: list[str] = []

    def compose(self) -> ComposeResult:
        yield PageMarkdown(
            "- first row [opens here](a.md) of an item\n"
            "- an item long enough to wrap onto a second row, whose "
            "[link wraps](b.md) under the bullet\n"
        )

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        self.clicked.append(event.href)


async def test_a_link_in_a_bullets_row_or_the_rows_under_it_opens_on_a_click() -> None:
    app = Clicks()
    async with app.run_test(size=(50, 10)) as pilot:
        await pilot_wait_until(pilot, lambda: bool(app.query(ItemParagraph)))
        await pilot.pause()
        rows = ["".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()]
        for words, href in (("opens here", "a.md"), ("wraps", "b.md")):
            y = next(n for n, row in enumerate(rows) if words in row)
            await pilot.click(offset=(rows[y].index(words) + 1, y))
            await pilot_wait_until(pilot, lambda href=href: href in app.clicked)
        assert app.clicked == ["a.md", "b.md"]
