"""Where the user is: the place shown in the panes, the places visited (back and
forward, as a browser does), links followed, and the panes moved between.

:class:`Navigation` owns the place shown (``location``) and the :class:`History`; it
fills the frontmatter and body panes for a place and moves the trees' cursors to it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from kas_tui.core.assets import asset_markdown, read_asset
from kas_tui.core.fileio import os_reason
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.footnotes import footnotes_for_display
from kas_tui.core.page_start import PageStart, read_start, start_of
from kas_tui.text.wording import counted
from kas_tui.tui.history import History
from kas_tui.tui.widgets.body_pane import AT_ONCE, BodyPane, Page
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.meta_pane import MetaPane
from kas_tui.tui.widgets.nav_tree import NavTree, NodeRef

if TYPE_CHECKING:
    from textual.widgets import Tree

    from kas_tui.tui.controllers.host import Host
    from kas_tui.tui.screens.find import Found
    from kas_tui.tui.screens.main_screen import MainScreen

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~-])")

#: Seconds the body waits for the tree cursor to stop before it mounts a page: keys
#: repeat every 30-50 ms, so a held or quickly pressed arrow mounts nothing on its way.
BODY_SETTLE = 0.08


def escape_markdown(text: str) -> str:
    """``text`` shown literally by a Markdown renderer."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def place_of(ref: NodeRef | None) -> str:
    """The place a tree node stands for: SKILL.md at the root, a bundle's index.md."""
    if ref is None or ref.kind == "root":
        return "SKILL.md"
    if ref.kind == "bundle":
        return f"{ref.path}/index.md" if ref.path else "index.md"
    return ref.path


class Navigation:
    """The place shown and the places visited; the panes that show them."""

    def __init__(self, app: Host) -> None:
        self.app = app
        #: The file shown: SKILL.md, a/index.md, a/doc.md; ``None`` for an index entry's
        #: message or an asset (shown, not visited: no frontmatter, no edits).
        self.location: str | None = None
        self.history = History()
        self._body_settle = 0.0  # see go(moving=)
        #: The place the trees' cursors were last moved to by the app (see reveal())
        self._revealed: str | None = None

    # -- showing a place ------------------------------------------------------------

    def go(
        self, place: str, *, transient: bool = False, reveal: bool = False, moving: bool = False
    ) -> None:
        """Show ``place`` (a root-relative file) and remember the visit.

        ``moving``: the tree cursor is passing by; the body waits until it stops.
        """
        self.history.visit(place, transient=transient)
        self._body_settle = BODY_SETTLE if moving else 0.0
        try:
            self.show(place)
        finally:
            self._body_settle = 0.0
        if reveal:
            self.reveal(place)

    def show(self, place: str) -> None:
        """Fill the frontmatter and body panes for ``place`` (not remembered as a visit)."""
        self.location = place
        app = self.app
        pkg = app.package
        if place == "SKILL.md":
            app.query_one(MetaPane).show_skill(pkg, app.catalog_location)
            self._set_body(start_of(pkg.skill.body if pkg.skill else ""))  # 2 MB: its start
        elif posixpath.basename(place) == "index.md":
            folder = posixpath.dirname(place)
            pkg.read_folder(folder)  # a preview reads it when first shown
            index_file = pkg.indexes.get(folder)
            app.query_one(MetaPane).show_message(
                f"Bundle {folder or '.'}/ · {counted(len(pkg.listings(folder)), 'entry', 'entries')} · {place}"
            )
            if index_file is None:
                self._set_body("*This folder has no index.md.*")
            else:
                self._set_body(start_of(_without_frontmatter(index_file.index.render())))
        elif place in pkg.documents or pkg.is_unread(place):
            pkg.read_folder(posixpath.dirname(place))
            self._show_document(place)
        else:
            app.query_one(MetaPane).show_message(f"{place}: not a document")
            self._set_body(f"`{escape_markdown(place)}` is not a document of this package.")

    def _show_document(self, path: str) -> None:
        app = self.app
        doc = app.package.documents[path]
        app.query_one(MetaPane).show_document(app.package, doc, app.today)
        if doc.broken:
            lines = "\n".join(f"- {escape_markdown(str(p))}" for p in doc.problems)
            self._set_body(f"# This document cannot be read\n\n{lines}\n")
            return
        try:
            file = app.package.root / app.package.resolve_path(path)
        except OSError as exc:
            self._set_body(_unreadable(exc))
            return
        names = _source_names(doc.meta)

        def body() -> PageStart | str:  # in the body pane's thread: a 200 MB page too
            try:
                start = read_start(file)
            except (OSError, FormatError) as exc:
                return _unreadable(exc)
            return replace(start, text=footnotes_for_display(start.text, names))

        small = doc.fingerprint is not None and doc.fingerprint.size <= AT_ONCE
        self._set_body(body() if small else body)  # a small page at once, as before

    def _set_body(self, page: Page) -> None:
        self.app.query_one(BodyPane).show(page, settle=self._body_settle)

    def reveal(self, place: str) -> None:
        """Move the tree cursor (and the files view's) to ``place``."""
        app = self.app
        path = posixpath.dirname(place) if posixpath.basename(place) == "index.md" else place
        self._revealed = place  # the cursors' highlights it causes show nothing new
        if place == "SKILL.md":
            app.query_one(NavTree).move_cursor(app.query_one(NavTree).root)
        else:
            app.query_one(NavTree).select_path(path)
        files = app.query_one(FilesView)
        if files.display:
            files.select_path(place)

    def show_entry(self, ref: NodeRef) -> None:
        """An index entry that is no document of the package: what it points at."""
        self.location = None
        target = ref.listing.entry.target if ref.listing else ref.path
        if ref.kind == "asset":
            self.show_asset(ref.path)
            return
        where = f" (line {ref.listing.entry.line} of its index.md)" if ref.listing else ""
        self.app.query_one(MetaPane).show_message(f"{target}: {ref.kind}{where}")
        self._set_body(
            f"This entry points at `{escape_markdown(target)}`, which is **{ref.kind}**."
        )

    def show_asset(self, path: str) -> None:
        """Show an asset, read only: its text highlighted, or why it is not shown."""
        view = read_asset(self.app.package.root, path)
        self.app.query_one(MetaPane).show_message(f"{path}: an asset (not a document), read only")
        self._set_body(asset_markdown(view))

    def go_to_line(self, place: str, line: int | None) -> None:
        """Show ``place``, revealed in the tree, its body scrolled to file line ``line``."""
        self.go(place, reveal=True)
        documents = self.app.package.documents
        if line and place in documents:
            self.app.query_one(BodyPane).scroll_to_line(line, documents[place].body_line)
        elif line:
            self.app.query_one(BodyPane).scroll_to_line(line)

    def open_found(self, found: Found | None) -> None:
        """Show what the finder chose, scrolled to its line when it names one."""
        if found is None:
            return
        self.go(found.path, reveal=True)
        doc = self.app.package.documents.get(found.path)
        if found.line and doc is not None:
            self.app.query_one(BodyPane).scroll_to_line(found.line, doc.body_line)

    def document_shown(self) -> str | None:
        """The document shown, or ``None`` with a message when none is.

        A key typed right after an arrow key in the tree comes before the tree's
        highlight message: the page under the focused tree's cursor is shown first, so
        that ``V``, ``D`` or ``S`` never act on the page the cursor just left."""
        tree = self.app.focused
        if isinstance(tree, (NavTree, FilesView)) and tree.cursor_node is not None:
            self._show_node(tree.cursor_node.data)  # a bundle too: no page is meant then
        if self.location in self.app.package.documents:
            return self.location
        self.app.notify("Select a document first", severity="warning")
        return None

    def renamed(self, place: Callable[[str], str]) -> None:
        """After a move (or its undo or redo): every place visited and the place shown,
        named as ``place`` says."""
        self.history.places = [place(p) for p in self.history.places]
        if self.location is not None:
            self.location = place(self.location)

    # -- the trees' cursors ---------------------------------------------------------

    def highlighted(self, event: Tree.NodeHighlighted[NodeRef]) -> None:
        """The cursor of the tree or the files view moved: show what it is on."""
        if not isinstance(event.control, (NavTree, FilesView)) or not event.control.display:
            return
        if self._revealed is not None and place_of(event.node.data) == self._revealed:
            return  # the app moved the cursor to what it showed: an asset followed since
            # stays shown (it came after, and the page came back over it)
        self._revealed = None
        self._show_node(event.node.data)

    def _show_node(self, ref: NodeRef | None) -> None:
        """Show what a tree node stands for, unless it is shown already."""
        place = place_of(ref)
        if ref is not None and ref.kind in ("missing", "outside", "external", "asset"):
            self.show_entry(ref)
        elif place != self.location:
            self.go(place, transient=True, moving=True)

    def selected(self, event: Tree.NodeSelected[NodeRef]) -> None:
        if isinstance(event.control, (NavTree, FilesView)) and event.node.data is not None:
            place = place_of(event.node.data)
            if place == self.location:
                self.history.visit(place)  # a deliberate visit: it stays in the history

    # -- links ----------------------------------------------------------------------

    def follow(self, href: str) -> None:
        """Follow a link of the page shown: a document, a bundle, an anchor or a URL."""
        app = self.app
        package = app.package
        source = self.location or "SKILL.md"
        target = package.resolve(source, href)
        if target.kind == "anchor":
            app.query_one(BodyPane).goto_anchor(target.fragment)
        elif target.kind == "external":
            app.open_url(href)
        elif target.kind == "internal" and target.path in package.documents:
            self.go(target.path, reveal=True)
            if target.fragment:
                app.query_one(BodyPane).goto_anchor(target.fragment)
        elif target.kind == "internal" and target.path in package.indexes:
            folder = target.path
            self.go(f"{folder}/index.md" if folder else "index.md", reveal=True)
        elif target.kind == "internal" and target.path.endswith("index.md"):
            self.go(target.path, reveal=True)
        elif target.kind == "internal" and target.path == "SKILL.md":
            self.go("SKILL.md", reveal=True)
        elif target.kind == "internal" and target.path in package.assets:
            self.location = None  # an asset is shown, not visited: no frontmatter, no edits
            self.show_asset(target.path)
        elif target.kind == "outside":
            app.notify(f"{href}: leaves the package; never followed", severity="warning")
        elif target.kind == "internal" and package.unreadable_folder_of(target.path):
            folder = package.unreadable_folder_of(target.path)
            app.notify(f"{href}: in {folder}/, which cannot be read", severity="error")
        else:
            app.notify(f"{href}: does not exist in this package", severity="error")

    # -- the keys -------------------------------------------------------------------

    def back(self) -> None:
        place = self.history.back()
        if place is None:
            self.app.notify("Nothing further back")
            return
        self.show(place)
        self.reveal(place)

    def forward(self) -> None:
        place = self.history.forward()
        if place is None:
            self.app.notify("Nothing further forward")
            return
        self.show(place)
        self.reveal(place)

    def outline(self) -> None:
        """``o``: the outline beside the page, or not; where the terminal is too narrow
        for it, the tree or the files view beside it gives way (pane_widths.py)."""
        body = self.app.query_one(BodyPane)
        body.toggle_outline()
        self._main().pane_shown("outline", body.outline_shown)

    def toggle_files(self) -> None:
        app = self.app
        files = app.query_one(FilesView)
        files.display = not files.display
        self._main().pane_shown("files", files.display)
        if files.display:
            files.rebuild()
            if self.location:
                files.select_path(self.location)
            files.focus()
        else:
            app.query_one(NavTree).focus()

    def focus_tree(self) -> None:
        """``T``: to the tree, shown again if it had given way to the outline or the
        files view."""
        self._main().pane_shown("tree", True)
        self.app.query_one(NavTree).focus()

    def _main(self) -> MainScreen:
        return cast("MainScreen", self.app.screen_stack[0])


def _unreadable(exc: OSError | FormatError) -> str:
    reason = exc.message if isinstance(exc, FormatError) else os_reason(exc)
    return f"*Cannot read the body: {escape_markdown(reason)}*"


def _without_frontmatter(text: str) -> str:
    block = fm.find_block(text)
    return text[block.end :] if block else text


def _source_names(meta: dict) -> dict[str, str]:
    """A document's ``sources`` by id, named by title (else resource): what a footnote
    naming a source id shows when the body defines no note for it."""
    names = {}
    sources = meta.get("sources")
    for source in sources if isinstance(sources, list) else ():
        if isinstance(source, dict) and isinstance(source.get("id"), str):
            name = source.get("title") or source.get("resource") or ""
            names[source["id"]] = str(name)
    return names
