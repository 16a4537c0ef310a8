"""The main screen: the navigation tree, the files view, the frontmatter and body panes,
the findings panel, and the keys that act on them.

The keys live here, not on the app, so a full-screen view pushed over this screen (the
agent walk, bulk edit, the import wizard) never runs them on the panes it hides. The
actions themselves run on the app (``app.<action>``), where the palette runs them too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header

from kas_tui.tui.commands import bindings
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.findings import FindingsPanel
from kas_tui.tui.widgets.footer import KasFooter
from kas_tui.tui.widgets.meta_pane import MetaPane
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
        min-width: 30;
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

    #main.-files #nav {
        width: 34%;
    }

    #files {
        width: 26%;
        min-width: 24;
        scrollbar-size-horizontal: 0;
        border: round $primary 50%;
    }

    #files:focus-within {
        border: round $accent;
    }

    #findings {
        height: 35%;
        border: round $primary 50%;
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
            with Vertical(id="detail"):
                with VerticalScroll(id="meta"):
                    yield MetaPane(id="meta-text")
                yield BodyPane(id="body")
        yield FindingsPanel(id="findings")
        yield KasFooter()

    def on_mount(self) -> None:
        for selector, title in _TITLES.items():
            self.query_one(selector).border_title = title
        for selector in ("#files", "#findings", "#outline"):
            self.query_one(selector).display = False
        self.query_one(NavTree).focus()
        self.post_message(self.Ready())
