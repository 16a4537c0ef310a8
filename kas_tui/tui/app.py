"""The kas-tui application: navigation tree, frontmatter pane and rendered body."""

from __future__ import annotations

import datetime as dt
import re

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Markdown, Tree

from ..package import Package
from .widgets.meta_pane import MetaPane
from .widgets.nav_tree import NavTree, NodeRef

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~-])")


def escape_markdown(text: str) -> str:
    """``text`` shown literally by a Markdown renderer."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


class KasApp(App[None]):
    """Browse a Knowledge-as-Skill package by its three layers."""

    CSS_PATH = "app.tcss"
    TITLE = "kas-tui"
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("r", "reload", "Reload"),
        Binding("tab", "focus_next", "Next pane", show=False),
    ]

    def __init__(self, package: Package, *, today: dt.date | None = None) -> None:
        super().__init__()
        self.package = package
        self.today = today or dt.date.today()
        self.current: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield NavTree(self.package, self.today, id="nav")
            with Vertical(id="detail"):
                yield MetaPane(id="meta")
                with VerticalScroll(id="body"):
                    yield Markdown(id="markdown", open_links=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.package.name} · {len(self.package.documents):,} documents"
        self.query_one("#nav").border_title = "Navigation"
        self.query_one("#meta").border_title = "Frontmatter"
        self.query_one("#body").border_title = "Body"
        self.query_one(NavTree).focus()
        self.show_root()

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeRef]) -> None:
        ref = event.node.data
        if ref is None or ref.kind == "root":
            self.show_root()
        elif ref.kind == "document":
            self.show_document(ref.path)
        elif ref.kind == "bundle":
            self.show_bundle(ref)
        else:
            self.current = None
            self.query_one(MetaPane).show_message(
                f"{ref.listing.entry.target if ref.listing else ref.path}: {ref.kind}"
            )
            self._set_body(f"This entry points at `{ref.path}`, which is **{ref.kind}**.")

    def show_root(self) -> None:
        self.current = "SKILL.md"
        self.query_one(MetaPane).show_skill(self.package)
        self._set_body(self.package.skill.body if self.package.skill else "")

    def show_bundle(self, ref: NodeRef) -> None:
        self.current = None
        index_file = self.package.indexes.get(ref.path)
        meta = self.query_one(MetaPane)
        meta.show_message(f"Bundle {ref.path}/ · {len(self.package.listings(ref.path))} entries")
        self._set_body(
            index_file.index.render() if index_file else "*This folder has no index.md.*"
        )

    def show_document(self, path: str) -> None:
        self.current = path
        doc = self.package.documents[path]
        self.query_one(MetaPane).show_document(self.package, doc, self.today)
        if doc.broken:
            lines = "\n".join(f"- {escape_markdown(str(p))}" for p in doc.problems)
            self._set_body(f"# This document cannot be read\n\n{lines}\n")
            return
        try:
            body = self.package.body(path)
        except (OSError, ValueError) as exc:
            body = f"*Cannot read the body: {exc}*"
        self._set_body(body)

    def _set_body(self, text: str) -> None:
        self.query_one("#markdown", Markdown).update(text)
        self.query_one("#body", VerticalScroll).scroll_home(animate=False)

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        source = self.current or "index.md"
        target = self.package.resolve(source, event.href)
        if target.kind == "internal" and target.path in self.package.documents:
            self.query_one(NavTree).select_path(target.path)
            self.show_document(target.path)
        elif target.kind == "external":
            self.open_url(target.path)
        else:
            self.notify(f"{event.href}: not a document of this package", severity="warning")

    def action_reload(self) -> None:
        self.package.load(cache=True)
        self.query_one(NavTree).rebuild()
        self.notify(f"Reloaded {len(self.package.documents):,} documents")
