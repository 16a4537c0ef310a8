"""Textual's Markdown with lighter lists: a list item of one paragraph is one widget.

Textual mounts four widgets for every list item (a row, its bullet, a column and the
paragraph in it), so a page of lists (a package's ``SKILL.md`` is mostly lists: when to
use it, what it covers, its sections) costs three quarters of its widgets in rows and
columns, and every widget costs its share of each layout and style pass: the demo's
``SKILL.md`` was 163 widgets, 125 of them in lists, and mounting it was two thirds of the
time the app takes to open.

An item whose only block is a paragraph (most items of most pages) is drawn here as that
paragraph with its bullet in its left padding: the text wraps under itself as before, the
bullet is drawn in the bullet's colour, and the screen is the same cell for cell. An item
holding more (a second paragraph, a nested list, code) keeps Textual's row and column.
"""

from __future__ import annotations

import contextlib

from rich.segment import Segment
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Markdown
from textual.widgets._markdown import (  # Textual names its list blocks only here
    MarkdownBullet,
    MarkdownBulletList,
    MarkdownListItem,
    MarkdownOrderedList,
    MarkdownOrderedListItem,
    MarkdownParagraph,
)
from textual.widgets.markdown import MarkdownBlock


class ItemParagraph(MarkdownParagraph):
    """A paragraph; as a list item's only block, drawn with the item's bullet before it."""

    COMPONENT_CLASSES = MarkdownParagraph.COMPONENT_CLASSES | {"item-paragraph--bullet"}

    DEFAULT_CSS = """
    ItemParagraph > .item-paragraph--bullet {
        color: $text-primary;
    }
    ItemParagraph:light > .item-paragraph--bullet {
        color: $text-secondary;
    }
    """

    bullet: str = ""
    """The item's bullet with its space ("• ", " 2. "); empty: a paragraph anywhere else."""
    _bullet_cells = 0

    def as_item(self, bullet: str) -> ItemParagraph:
        """This paragraph as a list item drawn after ``bullet`` (its text indented by it)."""
        self.bullet, self._bullet_cells = bullet, Content(bullet).cell_length
        self.styles.padding = (0, 0, 0, self._bullet_cells)
        return self

    def render_lines(self, crop: Region) -> list[Strip]:
        strips = super().render_lines(crop)
        width = self._bullet_cells
        if not width or crop.y > 0 or not strips or crop.x >= width:
            return strips
        first = strips[0]  # the item's first row: its bullet goes over the padding
        padding = next(iter(first), None)
        base = padding.style if padding is not None else None
        style = self.get_component_rich_style("item-paragraph--bullet")
        bullet = Strip([Segment(self.bullet, base + style if base else style)], width)
        bullet = bullet.crop(crop.x, min(width, crop.right))
        strips[0] = Strip.join([bullet, first.crop(bullet.cell_length)])
        return strips

    def get_selection(self, selection):  # noqa: ANN001 - Textual's own signature
        text = super().get_selection(selection)
        if text is None or not self.bullet:
            return text
        return self.bullet + text[0], text[1]


def _items(blocks: list[MarkdownBlock], symbols: list[str]) -> ComposeResult:
    for block, symbol in zip(blocks, symbols, strict=True):
        inner = block._blocks
        if len(inner) == 1 and isinstance(inner[0], ItemParagraph):
            yield inner[0].as_item(symbol)
        else:
            bullet = MarkdownBullet()
            bullet.symbol = symbol
            yield Horizontal(bullet, Vertical(*inner))


class BulletList(MarkdownBulletList):
    """A bullet list whose one-paragraph items are one widget each."""

    def compose(self) -> ComposeResult:
        items = [block for block in self._blocks if isinstance(block, MarkdownListItem)]
        yield from _items(items, [item.bullet for item in items])
        self._blocks.clear()


class OrderedList(MarkdownOrderedList):
    """A numbered list whose one-paragraph items are one widget each (numbers as Textual
    writes them: from the list's first number, right-aligned)."""

    def compose(self) -> ComposeResult:
        suffix = ". "
        start = 1
        if self._blocks and isinstance(self._blocks[0], MarkdownOrderedListItem):
            with contextlib.suppress(ValueError):
                start = int(self._blocks[0].bullet)
        items = [block for block in self._blocks if isinstance(block, MarkdownListItem)]
        numbers = [f"{number}{suffix}" for number in range(start, start + len(items))]
        size = max((len(number) for number in numbers), default=0)
        yield from _items(items, [number.rjust(size + 1) for number in numbers])
        self._blocks.clear()


class PageMarkdown(Markdown):
    """Markdown as Textual renders it, with lists of far fewer widgets."""

    BLOCKS = {
        **Markdown.BLOCKS,
        "paragraph_open": ItemParagraph,
        "bullet_list_open": BulletList,
        "ordered_list_open": OrderedList,
    }
