"""The body pane: a page rendered as Markdown, with an outline of its headings."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownBlock, MarkdownTableOfContents

from ..commands import bindings
from .source_blocks import block_at


class BodyPane(Horizontal):
    """Rendered Markdown (never the frontmatter) and a toggled outline beside it.

    Link clicks bubble up as :class:`Markdown.LinkClicked`; the app resolves them.
    """

    BINDINGS = bindings("body")

    _shown: AwaitComplete | None = None  # the update of the page shown (mounting its blocks)

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
        self._shown = self.markdown.update(text)
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
        """Scroll so that source line ``line`` (of a body starting at ``first_line``) is
        at the top: the rendered block made from it, once the page shown is mounted."""
        target = max(0, line - first_line)
        shown = self._shown
        if shown is None or shown.is_done:
            self._scroll_to_source_line(target)
            return

        async def when_shown() -> None:
            await shown
            if self._shown is shown:  # still the page asked about
                self.call_after_refresh(self._scroll_to_source_line, target)

        self.run_worker(when_shown(), group="scroll-to-line", exclusive=True)

    def _scroll_to_source_line(self, target: int) -> None:
        blocks = list(self.markdown.query(MarkdownBlock))
        found = block_at([b.source_range for b in blocks], target)
        if found is not None:
            scroll = self.query_one("#body-scroll", VerticalScroll)
            scroll.scroll_to_widget(blocks[found], top=True, animate=False)
