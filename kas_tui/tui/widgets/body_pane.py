"""The body pane: a page rendered as Markdown, with an outline of its headings.

A long page is mounted in pieces (see :mod:`.body_pages`): the first at once, each next
one as the reader scrolls near the end of what is shown, or when a line, an anchor or the
outline needs it. Showing another page cancels whatever is still being mounted, so keys
never wait behind a page nobody is looking at any more, and the pane never shows one
page's text under another's header.

A page is read and cut into pieces in a thread, so no key waits for a large one either;
one too large to show whole is shown from its start (:mod:`kas_tui.core.page_start`),
under a line saying how much and that ``E`` opens the whole in the user's editor.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import cached_property

from textual import work
from textual._slug import TrackedSlugs
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.timer import Timer
from textual.widget import MountError, Widget
from textual.widgets import Markdown, Static
from textual.widgets._markdown import MarkdownParagraph
from textual.widgets.markdown import MarkdownBlock, MarkdownTableOfContents
from textual.worker import Worker

from kas_tui.core.page_start import PageStart
from kas_tui.text.wording import counted, size_text
from kas_tui.tui.commands import bindings
from kas_tui.tui.widgets.body_pages import BULLET, Piece, pieces
from kas_tui.tui.widgets.page_markdown import PageMarkdown
from kas_tui.tui.widgets.source_blocks import block_at

#: What the pane still has to do once the pieces it needs are mounted.
Want = tuple[str, object] | None
#: A page to show: its Markdown, perhaps only the start of a page too large to show
#: whole, or what makes it (called in a thread).
Page = str | PageStart | Callable[[], str | PageStart]
#: Characters of a page cut into pieces at once, as a key expects (a few milliseconds);
#: a longer page is cut in a thread.
AT_ONCE = 16 * 1024


class BodyPane(Horizontal):
    """Rendered Markdown (never the frontmatter) and a toggled outline beside it.

    Link clicks bubble up as :class:`Markdown.LinkClicked`; the app resolves them.
    """

    DEFAULT_CSS = """
    #body-scroll {
        height: 1fr;
    }

    #outline {
        width: 32;
        dock: left;
    }

    #body-cut, #body-more {
        color: $text-warning;
        padding: 0 1;
    }
    """

    BINDINGS = bindings("body")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._page: Page = ""
        self._text = ""
        self._cut: PageStart | None = None  # the page shown is only this start of it
        self._pieces: list[Piece] = [Piece(0, "")]
        self._loaded = 1  # pieces mounted (the first is the #markdown widget itself)
        self._want: Want = None
        self._job: Worker | None = None
        self._settling: Timer | None = None

    def compose(self) -> ComposeResult:
        yield MarkdownTableOfContents(self.markdown, id="outline")
        with self._scroll:
            yield self._cut_note
            yield self.markdown
            yield self._more_note

    def on_mount(self) -> None:
        self._more_note.display = False
        self._cut_note.display = False
        self.watch(self._scroll, "scroll_y", self._check_more, init=False)

    @cached_property
    def _scroll(self) -> VerticalScroll:
        # Held, not queried: a worker still finishing while the app shuts down (and the
        # pane's children are already gone) must not fail looking for them.
        return VerticalScroll(id="body-scroll")

    @cached_property
    def _more_note(self) -> Static:
        return Static("", id="body-more", markup=False)

    @cached_property
    def _cut_note(self) -> Static:
        return Static("", id="body-cut", markup=False)

    @cached_property
    def markdown(self) -> Markdown:
        """The widget of the first piece (the whole page, unless the page is long)."""
        return PageMarkdown(id="markdown", open_links=False)

    @property
    def source(self) -> str:
        """The Markdown text shown."""
        return self._text

    @property
    def cut(self) -> PageStart | None:
        """The start shown of a page too large to show whole (``None``: shown whole)."""
        return self._cut

    @property
    def rendering(self) -> bool:
        """Whether pieces of the page are being mounted."""
        return self._settling is not None or (self._job is not None and not self._job.is_finished)

    @property
    def complete(self) -> bool:
        """Whether every piece of the page is mounted."""
        return self._loaded == len(self._pieces) and not self.rendering

    def _markdowns(self) -> list[Markdown]:
        """The mounted pieces, in page order."""
        return list(self._scroll.query(Markdown))

    # -- showing a page ---------------------------------------------------------------

    def show(self, page: Page, *, settle: float = 0.0) -> None:
        """Show ``page`` from its top (mounting its first piece; the rest as needed).

        ``page``: the Markdown, or what reads it (a document's body), called in a thread
        so that no key waits for a large page; a :class:`PageStart` that is ``cut`` is
        shown with a line saying so.

        ``settle``: wait that many seconds first, and show only the last of several
        pages given meanwhile (the tree cursor moving key after key reads nothing until
        it stops).
        """
        self._page = page
        self._loaded = 0
        self._want = None
        if self._settling is not None:
            self._settling.stop()
            self._settling = None
        if self._job is not None:
            self._job.cancel()  # nobody looks at the page it is mounting any more
        if settle > 0:
            self._settling = self.set_timer(settle, self._start)
        else:
            self._start()

    def _start(self) -> None:
        self._settling = None
        page = self._page
        ready = None
        if not callable(page) and len(page if isinstance(page, str) else page.text) <= AT_ONCE:
            ready = _prepared(page)
            self._text, self._pieces = ready[0].text, ready[1]
        self._job = self._show_first(page, ready)

    @work(exclusive=True, group="body")
    async def _show_first(
        self, page: Page, ready: tuple[PageStart, list[Piece]] | None = None
    ) -> None:
        if ready is None:  # reading and parsing a long page takes a while: not per key
            ready = await asyncio.to_thread(_prepared, page)
        start, self._pieces = ready
        self._text = start.text
        self._cut = start if start.cut else None
        scroll = self._scroll
        later = [m for m in self._markdowns() if m.id != "markdown"]
        if later:
            await _whole(scroll.remove_children(later))
        self._say_cut()
        await _whole(self.markdown.update(self._pieces[0].text))
        self._loaded = 1
        scroll.scroll_home(animate=False, immediate=True)
        await self._fulfil()
        self._say_more()
        self.call_after_refresh(self._fill_view)

    async def _mount_next(self) -> None:
        if not self._scroll.is_attached:  # the app is shutting down: nothing to show
            self._loaded = len(self._pieces)
            return
        piece = self._pieces[self._loaded]
        page = PageMarkdown(open_links=False, classes="body-piece")
        try:
            await _whole(self._scroll.mount(page, before=self._more_note))
            await _whole(page.update(piece.text))
        except MountError:
            if page.is_attached:
                raise
            # Another page is being shown and took this piece away before it was filled:
            # this worker's work is obsolete, as if it had been cancelled a moment sooner.
            raise asyncio.CancelledError from None
        self._loaded += 1

    @work(exclusive=True, group="body")
    async def _more(self, count: int = 1) -> None:
        for _ in range(count):
            if self._loaded < len(self._pieces):
                await self._mount_next()
        await self._fulfil()
        self._say_more()
        self.call_after_refresh(self._fill_view)

    def _fill_view(self) -> None:
        """Mount the next piece while what is mounted does not fill the pane."""
        if self._scroll.max_scroll_y == 0:
            self._check_more()

    def _check_more(self, *_: object) -> None:
        """Mount the next piece when the reader has scrolled within a screen of the end."""
        if self.rendering or self._loaded >= len(self._pieces):
            return
        scroll = self._scroll
        if scroll.max_scroll_y - scroll.scroll_y <= scroll.size.height:
            self._job = self._more()

    def _say_more(self) -> None:
        more = self._more_note
        left = len(self._pieces) - self._loaded
        cut = self._cut
        more.display = left > 0 or cut is not None
        if left:
            lines = self._text.count("\n") - self._pieces[self._loaded].first_line
            more.update(f"… {counted(lines, 'more line')} below: scroll down to show them")
        elif cut is not None:
            rest = size_text(cut.size - cut.shown)
            more.update(f"… the rest of this page ({rest}) is not shown: E opens it in $EDITOR")

    def _say_cut(self) -> None:
        note, cut = self._cut_note, self._cut
        note.display = cut is not None
        if cut is not None:
            note.update(
                f"Showing the first {size_text(cut.shown)} of {size_text(cut.size)}: "
                "E opens it in $EDITOR"
            )

    async def _fulfil(self) -> None:
        """Do what :meth:`scroll_to_line`, :meth:`goto_anchor` or the outline asked for,
        mounting the pieces it needs first (asked again meanwhile: the last ask wins)."""
        while self._want is not None:
            (kind, value), self._want = self._want, None
            if kind == "line":
                assert isinstance(value, int)
                cut = self._cut
                if cut is not None and value > self._text.count("\n"):
                    self.app.notify(
                        f"That line is past the first {size_text(cut.shown)} shown: "
                        "E opens the whole page in $EDITOR",
                        severity="warning",
                        markup=False,
                    )
                    continue
                while (
                    self._loaded < len(self._pieces)
                    and self._pieces[self._loaded].first_line <= value
                ):
                    await self._mount_next()
                await self._laid_out()
                self._scroll_to_source(value)
            elif kind == "anchor":
                assert isinstance(value, str)
                heading = self._anchor_block(value)
                while heading is None and self._loaded < len(self._pieces):
                    await self._mount_next()
                    heading = self._anchor_block(value)
                if heading is not None:
                    await self._laid_out()  # scrolled to before layout, it has no place yet
                    self._scroll.scroll_to_widget(heading, top=True, animate=False, immediate=True)
            elif kind == "all":
                while self._loaded < len(self._pieces):
                    await self._mount_next()
                self._update_outline()

    async def _laid_out(self) -> None:
        """Wait for the next refresh: blocks just mounted have their places then."""
        done = asyncio.Event()
        self.call_after_refresh(done.set)
        await done.wait()

    def _ask(self, want: Want) -> None:
        self._want = want  # a page still settling or mounting does it once mounted
        if not self.rendering:
            self._job = self._more(0)

    # -- places in the page -------------------------------------------------------------

    def scroll_to_line(self, line: int, first_line: int = 1) -> None:
        """Scroll so that source line ``line`` (of a body starting at ``first_line``) is near the top."""
        self._ask(("line", max(0, line - first_line)))

    def goto_anchor(self, anchor: str) -> None:
        """Scroll to the heading whose slug is ``anchor``."""
        self._ask(("anchor", anchor))

    def _anchor_block(self, anchor: str) -> Widget | None:
        """The mounted heading whose slug (GitHub's, as Textual makes it) is ``anchor``."""
        slugs = TrackedSlugs()  # one page: "setup" twice is setup, setup-1, across pieces
        for page in self._markdowns():
            page._table_of_contents = None  # see _update_outline
            for _, title, block_id in page.table_of_contents:
                if slugs.slug(title) == anchor and block_id:
                    return page.query_one(f"#{block_id}")
        return None

    def _scroll_to_source(self, target: int) -> None:
        """Scroll to the innermost rendered block made from source line ``target``."""
        blocks: list[MarkdownBlock] = []
        ranges: list[tuple[int, int]] = []
        for piece, page in zip(self._pieces, self._markdowns(), strict=False):
            for block in page.query(MarkdownBlock):
                start, end = getattr(block, "source_range", None) or (0, 0)
                blocks.append(block)
                ranges.append(
                    (piece.first_line + start, piece.first_line + end) if end > start else (0, 0)
                )
        found = block_at(ranges, target)
        if found is None:
            return
        scroll = self._scroll
        block = blocks[found]
        scroll.scroll_to_widget(block, top=True, animate=False, immediate=True)
        start, end = ranges[found]
        if isinstance(block, MarkdownParagraph) and start < target < end:
            # a paragraph of several source lines: a long index list drawn compact
            # (body_pages.compact_lists), its entry further down
            row = _row_of_line(block, target - start)
            scroll.scroll_to(y=scroll.scroll_y + row, animate=False, immediate=True)

    # -- the outline ------------------------------------------------------------------

    def toggle_outline(self) -> None:
        outline = self.query_one("#outline", MarkdownTableOfContents)
        outline.display = not outline.display
        if outline.display:
            outline.query_one("Tree").focus()
            if self._loaded < len(self._pieces):
                self._ask(("all", None))

    @property
    def outline_shown(self) -> bool:
        return bool(self.query_one("#outline").display)

    def _update_outline(self) -> None:
        headings = []
        for page in self._markdowns():
            # Textual 8's Markdown caches its table of contents across updates, so a page
            # shown quickly after another reports the old headings: recompute them.
            page._table_of_contents = None
            headings += page.table_of_contents
        self.query_one(MarkdownTableOfContents).table_of_contents = headings

    def on_markdown_table_of_contents_updated(
        self, message: Markdown.TableOfContentsUpdated
    ) -> None:
        self._update_outline()
        message.stop()

    def on_markdown_table_of_contents_selected(
        self, message: Markdown.TableOfContentsSelected
    ) -> None:
        for page in self._markdowns():
            found = page.query(f"#{message.block_id}")
            if found:
                self._scroll.scroll_to_widget(found.first(), top=True)
                break
        message.stop()


def _prepared(page: Page) -> tuple[PageStart, list[Piece]]:
    """The page made (in a thread, unless short), and cut into pieces."""
    made = page() if callable(page) else page
    start = made if isinstance(made, PageStart) else PageStart(made, len(made), len(made))
    return start, pieces(start.text)


def _row_of_line(block: Widget, line: int) -> int:
    """The row of ``block`` where its ``line``-th source line starts: for a compact list,
    the row of its ``line``-th bullet (entries may wrap); else ``line`` rows down."""
    bullet = BULLET.strip(" \u00a0")
    seen = -1
    for row in range(block.size.height):  # the rows as the screen draws them
        if block.render_line(row).text.lstrip(" \u00a0").startswith(bullet):
            seen += 1
            if seen == line:
                return row
    return line


async def _whole(operation: Awaitable[object]) -> None:
    """Await a Textual DOM operation (a mount, a removal, a Markdown update) to its end.

    Showing another page cancels the worker mounting this one; cancelled in the middle
    of such an operation, the cancellation reached the tasks of the widgets it was
    removing, the app's own removal then raised ``CancelledError`` and the app stopped
    processing messages (a test waited 30 s for it). Shielded, the operation finishes
    on its own and only this worker stops.
    """

    async def run() -> None:
        await operation

    await asyncio.shield(asyncio.ensure_future(run()))
