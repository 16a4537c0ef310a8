"""The main screen: the navigation tree, the files view, the frontmatter and body panes,
the findings panel, and the keys that act on them.

The side panes' widths follow the terminal's (:mod:`kas_tui.tui.pane_widths`): when the
tree, the files view and the outline do not all fit beside a readable page, the one
opened longest ago gives way. ``z`` zooms the pane holding the focus to the whole screen.

The keys live here, not on the app, so a full-screen view pushed over this screen (the
agent walk, bulk edit, the import wizard) never runs them on the panes it hides. The
actions themselves run on the app (``app.<action>``), where the palette runs them too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header

from kas_tui.tui.commands import PANE_TITLES, bindings, pane_bindings
from kas_tui.tui.pane_widths import PANES, pane_widths
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.findings import FindingsPanel
from kas_tui.tui.widgets.footer import KasFooter
from kas_tui.tui.widgets.meta_pane import MetaFrame, MetaPane
from kas_tui.tui.widgets.nav_tree import NavTree

if TYPE_CHECKING:
    import datetime as dt

    from kas_tui.core.package import Package

_TITLES = {
    "#nav": "Navigation",
    "#files": "Files on disk",
    "#meta": "Frontmatter",
    "#body": "Body",
    "#findings": "Findings",
}


#: The panes ``z`` zooms, by id.
_PANE_IDS = frozenset(selector.removeprefix("#") for selector in _TITLES)
#: The pane (commands.PANE_KEYS) whose keys the footer and ``?`` show first, by pane id.
_KEYS_OF = {
    "nav": "tree",
    "files": "files",
    "meta": "document",
    "body": "document",
    "findings": "findings",
}


class DocumentPanes(Vertical):
    """The frontmatter and body panes: their keys, shown in the footer while either has
    the focus (commands.PANE_KEYS)."""

    BINDINGS = pane_bindings("document")


class MainScreen(Screen[None]):
    """The curator's view of the package: the app's first screen, always at the bottom."""

    # in DEFAULT_CSS, not a CSS_PATH file: Textual loads no CSS_PATH of the app's default
    # screen (it is never pushed)
    DEFAULT_CSS = """
    #main {
        height: 1fr;
    }

    #nav {
        width: 45%;
        scrollbar-size-horizontal: 0;
        border: round $primary 50%;
        border-title-color: $text;
    }

    #nav:focus-within {
        border: round $accent;
    }

    #detail {
        width: 1fr;
    }

    #meta {
        height: auto;
        max-height: 45%;
        border: round $primary 50%;
        padding: 0 1;
    }

    #meta:focus {
        border: round $accent;
    }

    #meta-text {
        height: auto;
    }

    #body {
        height: 1fr;
        border: round $primary 50%;
        padding: 0 1;
    }

    #body:focus-within {
        border: round $accent;
    }

    #files {
        width: 26%;
        scrollbar-size-horizontal: 0;
        border: round $primary 50%;
    }

    #files:focus-within {
        border: round $accent;
    }

    #findings {
        height: auto;
        max-height: 35%;
        border: round $primary 50%;
        border-subtitle-color: $text-muted;
    }

    /* z: the pane holding the focus takes the whole screen (its widths are inline) */
    MainScreen.-maximized-view .-maximized {
        width: 1fr !important;
        height: 1fr !important;
        max-height: 100% !important;
    }

    #findings:focus-within {
        border: round $accent;
    }
    """

    BINDINGS = bindings("main")

    class Ready(Message):
        """The panes are mounted: the app may show its first place (it hears this)."""

    def __init__(self, package: Package, today: dt.date) -> None:
        super().__init__()
        #: The side panes shown or asked for (of pane_widths.PANES), the one opened
        #: longest ago first: it gives way first when they do not all fit.
        self.opened: list[str] = ["tree"]
        # the package the panes first show, handed to them and let go: the app's may
        # change (a large package's preview is replaced by the whole, and must be freed)
        self._package: Package | None = package
        self.today = today

    def compose(self) -> ComposeResult:
        package, self._package = self._package, None
        if package is None:  # composed again: what the app shows now
            package = self.app.package  # type: ignore[attr-defined]
        yield Header()
        with Horizontal(id="main"):
            yield NavTree(package, self.today, id="nav")
            yield FilesView(package, id="files")
            with DocumentPanes(id="detail"):
                with MetaFrame(id="meta"):
                    yield MetaPane(id="meta-text")
                yield BodyPane(id="body")
        yield FindingsPanel(id="findings")
        yield KasFooter()

    def on_mount(self) -> None:
        for selector, title in _TITLES.items():
            self.query_one(selector).border_title = title
        for selector in ("#files", "#findings", "#outline"):
            self.query_one(selector).display = False
        self.lay_out()
        self.query_one(NavTree).focus()
        self.post_message(self.Ready())

    # -- the side panes' widths -------------------------------------------------------

    def pane_shown(self, pane: str, shown: bool) -> None:
        """``pane`` (tree, files or outline) was just shown (or asked for, as ``T`` asks
        for the tree) or hidden: lay the panes out again, the newest kept."""
        assert pane in PANES, pane
        if pane in self.opened:
            self.opened.remove(pane)
        if shown:
            self.opened.append(pane)
        self.lay_out()

    def lay_out(self) -> None:
        """Size the side panes for the screen's width; hide what gives way (the files
        view or the outline closes, the tree waits until there is room again)."""
        width = self.size.width or self.app.size.width
        widths = pane_widths(width, self.opened)
        nav, files, body = self.query_one(NavTree), self.query_one(FilesView), self.body
        if "files" in self.opened and not widths.files:
            self.opened.remove("files")
            files.display = False
        if "outline" in self.opened and not widths.outline:
            self.opened.remove("outline")
            if body.outline_shown:
                body.toggle_outline()
        nav.display = bool(widths.tree)
        for pane, width in ((nav, widths.tree), (files, widths.files)):
            if pane is self.maximized:  # zoomed: the whole width (the CSS's -maximized)
                pane.styles.width = None
            elif width:
                pane.styles.width = width
        if not on_screen(self.focused):
            self.call_after_refresh(self._focus_newest)

    def _focus_newest(self) -> None:
        """Focus the side pane opened last (the focus was in a pane that gave way)."""
        if on_screen(self.focused):
            return
        newest = self.opened[-1] if self.opened else "tree"
        if newest == "files":
            self.query_one(FilesView).focus()
        elif newest == "outline":
            self.body.query_one("#outline Tree").focus()
        else:
            self.query_one(NavTree).focus()

    @property
    def body(self) -> BodyPane:
        return self.query_one(BodyPane)

    def on_resize(self) -> None:
        self.lay_out()

    # -- zoom -------------------------------------------------------------------------

    def watch_maximized(self) -> None:
        self.lay_out()  # a zoomed side pane loses its width, and gets it back after

    def toggle_zoom(self) -> None:
        """``z``: the pane holding the focus takes the whole screen; again gives the
        others back (so does escape, as Textual's maximize does)."""
        if self.maximized is not None:
            self.minimize()
            return
        pane = self._pane_of(self.focused) or self.query_one(NavTree)
        self.maximized = pane

    def pane_here(self) -> str | None:
        """The name (of commands.PANE_KEYS) of the pane holding the focus, if any."""
        pane = self._pane_of(self.focused)
        return _KEYS_OF.get(pane.id or "") if pane is not None else None

    def pane_title(self) -> str:
        """What ``?`` calls the pane holding the focus."""
        return PANE_TITLES.get(self.pane_here() or "", "")

    def _pane_of(self, widget: Widget | None) -> Widget | None:
        """The pane (tree, files, frontmatter, body, findings) holding ``widget``."""
        for node in (widget, *(widget.ancestors if widget is not None else ())):
            if isinstance(node, Widget) and node.id in _PANE_IDS:
                return node
        return None


def on_screen(widget: Widget | None) -> bool:
    """Whether ``widget`` is on screen: neither it nor a pane holding it is hidden."""
    if widget is None:
        return False
    return all(node.display for node in (widget, *widget.ancestors) if isinstance(node, Widget))
