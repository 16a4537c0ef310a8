"""The body pane: a page rendered as Markdown, with an outline of its headings."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownBlock, MarkdownTableOfContents

from ..commands import bindings


class BodyPane(Horizontal):
    """Rendered Markdown (never the frontmatter) and a toggled outline beside it.

    Link clicks bubble up as :class:`Markdown.LinkClicked`; the app resolves them.
    """

    BINDINGS = bindings("body")

    def compose(self) -> ComposeResult:
        markdown = Markdown(id="markdown", open_links=False)
        yield MarkdownTableOfContents(markdown, id="outline")
        with VerticalScroll(id="body-scroll"):
            yield markdown

    @property
    def markdown(self) -> Markdown:
        return self.query_one("#markdown", Markdown)

    @property
    def source(self) -> str:
        """The Markdown text shown."""
        return self.markdown.source

    def show(self, text: str) -> None:
        """Show ``text`` from its top."""
        self.markdown.update(text)
        self.query_one("#body-scroll", VerticalScroll).scroll_home(animate=False)

    def toggle_outline(self) -> None:
        outline = self.query_one("#outline", MarkdownTableOfContents)
        outline.display = not outline.display
        if outline.display:
            outline.query_one("Tree").focus()

    @property
    def outline_shown(self) -> bool:
        return bool(self.query_one("#outline").display)

    def on_markdown_table_of_contents_updated(
        self, message: Markdown.TableOfContentsUpdated
    ) -> None:
        # Textual 8's Markdown caches its table of contents across updates, so a page shown
        # quickly after another reports the old headings: recompute from the blocks shown.
        self.markdown._table_of_contents = None
        self.query_one(MarkdownTableOfContents).table_of_contents = self.markdown.table_of_contents
        message.stop()

    def on_markdown_table_of_contents_selected(
        self, message: Markdown.TableOfContentsSelected
    ) -> None:
        block = self.query_one(f"#{message.block_id}", MarkdownBlock)
        self.query_one("#body-scroll", VerticalScroll).scroll_to_widget(block, top=True)
        message.stop()

    def scroll_to_line(self, line: int, first_line: int = 1) -> None:
        """Scroll so that source line ``line`` (of a body starting at ``first_line``) is near the top."""
        target = max(0, line - first_line)
        best = None
        for block in self.markdown.query(MarkdownBlock):
            source_range = getattr(block, "source_range", None)
            if source_range and source_range[0] <= target:
                best = block
        if best is not None:
            self.query_one("#body-scroll", VerticalScroll).scroll_to_widget(best, top=True)
