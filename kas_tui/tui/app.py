"""The kas-tui application: navigation tree, frontmatter pane and rendered body.

The app only arranges panes and routes actions; reading, checking, finding and watching
happen in the headless core (``kas_tui.core.package``, ``checks``, ``search``, ``watch``).
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import re
from collections import deque
from typing import TYPE_CHECKING

from textual import work
from textual.app import App, SystemCommand
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Markdown, Tree

from kas_tui.core.assets import asset_markdown, read_asset
from kas_tui.core.disk import Walk, walk
from kas_tui.core.load_cache import MetadataCache
from kas_tui.core.loader import ReadAhead
from kas_tui.core.memory import give_back_free_memory
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.footnotes import footnotes_for_display
from kas_tui.core.package import Package
from kas_tui.core.watch import Watcher
from kas_tui.text.wording import counted
from kas_tui.tui.commands import COMMANDS, KasCommands, bindings
from kas_tui.tui.edits import EditingMixin
from kas_tui.tui.fulltext import FullTextMixin
from kas_tui.tui.history import History
from kas_tui.tui.lifecycle import LifecycleMixin
from kas_tui.tui.linking import LinkingMixin
from kas_tui.tui.moving import MovingMixin
from kas_tui.tui.reloading import ReloadMixin
from kas_tui.tui.screens.agent import open_agent_walk
from kas_tui.tui.screens.choose import ask_unsaved
from kas_tui.tui.screens.find import FindScreen, Found
from kas_tui.tui.screens.help import HelpScreen
from kas_tui.tui.screens.main import MainScreen
from kas_tui.tui.screens.replay_open import open_replay
from kas_tui.tui.validation import ValidationMixin
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.meta_pane import MetaPane
from kas_tui.tui.widgets.nav_tree import NavTree, NodeRef

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from kas_tui.core.disk import Location
    from kas_tui.features.check.model import Report
    from kas_tui.features.find.fuzzy import Finder

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~-])")

#: Seconds the body waits for the tree cursor to stop before it mounts a page: keys
#: repeat every 30-50 ms, so a held or quickly pressed arrow mounts nothing on its way.
BODY_SETTLE = 0.08

#: Seconds between two looks at the disk for changes made by other programs.
WATCH_INTERVAL = 1.0
#: From this many documents the first screen comes before the documents are read.
PREVIEW_MIN = 2000
#: Processes reading ahead on a first start: one core left to draw the first screen.
AHEAD_WORKERS = max(1, (os.cpu_count() or 2) - 1)
#: What works while they are read: moving about, help and quitting.
WHILE_READING = frozenset(
    {"back", "forward", "focus_tree", "outline", "toggle_files", "help", "quit", "reload"}
)


def _without_frontmatter(text: str) -> str:
    block = fm.find_block(text)
    return text[block.end :] if block else text


def escape_markdown(text: str) -> str:
    """``text`` shown literally by a Markdown renderer."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def open_app(location: Location, **options) -> KasApp:
    """The app of ``kas-tui PATH`` for a located package, with what opening it has to say:
    the location's note and each folder that could not be listed (one line each).

    A package of PREVIEW_MIN documents or more opens on a preview (indexes, SKILL.md,
    the root's documents) while the rest is read behind the first screen."""
    cache = options.pop("cache", True)
    found = walk(location.root, stat=cache)
    if len(found.documents) >= PREVIEW_MIN:
        package = Package.preview(location.root, found)
        options["rest"] = found
        if not MetadataCache.exists(location.root) and ReadAhead.possible():
            # the first start: every document to read, by processes forked before Textual
            options["ahead"] = ReadAhead(location.root, found.documents, workers=AHEAD_WORKERS)
        # the workers reading the rest are spawned from a thread of the running app; the
        # helper process multiprocessing starts first needs stderr, which Textual replaces
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    else:
        package = Package.open(location.root, cache=cache, found=found)
    notes = [location.note] if location.note else []
    notes += [str(p) for p in package.problems if p.code in ("unreadable", "special-file")]
    return KasApp(package, notes=notes, **options)


class KasApp(
    LinkingMixin,
    MovingMixin,
    FullTextMixin,
    EditingMixin,
    LifecycleMixin,
    ValidationMixin,
    ReloadMixin,
    App[None],
):
    """Browse a Knowledge-as-Skill package by its three layers, and edit it."""

    CSS_PATH = "app.tcss"
    TITLE = "kas-tui"
    COMMANDS = App.COMMANDS | {KasCommands}
    BINDINGS = bindings("app")  # help and quit; the rest are the main screen's

    def __init__(
        self,
        package: Package,
        *,
        today: dt.date | None = None,
        watch: bool = True,
        notes: Sequence[str] = (),
        rest: Walk | None = None,
        ahead: ReadAhead | None = None,
    ) -> None:
        """``rest``: ``package`` is a preview; the walk whose documents are read next
        (``ahead``: by processes already reading them)."""
        super().__init__()
        self.package = package
        self._rest = rest
        self._ahead = ahead
        self.notes = list(notes)  # said once the screen is up (see open_app)
        self.today = today or dt.date.today()
        self.location: str | None = None  # the file shown: SKILL.md, a/index.md, a/doc.md
        #: Where a harness finds SKILL.md, as the catalog entry names it (its length is
        #: part of the entry's token cost); ``None``: the package's own path. The
        #: discovery view, the SKILL.md editor and the walk all use this one.
        self.catalog_location: str | None = None
        self.history = History()
        #: The last notifications said, toasts and those an editor showed on its own
        #: message line alike (severity, text), newest last.
        self.messages: deque[tuple[str, str]] = deque(maxlen=100)
        self.report: Report | None = None
        self._finder: Finder | None = None
        self._finder_generation = 0
        self._finding_row: int | None = None
        self._watch = watch
        self._watcher: Watcher | None = None
        self._body_settle = 0.0  # see go(moving=)
        self._init_editing()
        self._init_moving()

    # -- the main screen (its panes and keys: screens/main.py) ----------------------

    def get_default_screen(self) -> MainScreen:
        return MainScreen(self.package, self.today)

    def on_main_screen_ready(self, message: MainScreen.Ready) -> None:
        message.stop()
        self.sub_title = f"{self.package.name} · {counted(len(self.package.documents), 'document')}"
        self.go("SKILL.md", transient=True)
        for note in self.notes:
            self.notify(note, severity="warning", timeout=15, markup=False)
        if self.package.skill is None:
            self.notify(
                "No SKILL.md: agents cannot discover this package. "
                "Press c to create one (name, description and a usage skeleton).",
                title="SKILL.md missing",
                severity="warning",
                timeout=20,
                markup=False,
            )
        if self._rest is not None:
            self.sub_title = (
                f"{self.package.name} · reading {counted(len(self._rest.documents), 'document')}…"
            )
            self._read_rest()
        else:
            self._start_background()

    def _start_background(self, *, finder: bool = True) -> None:
        """What runs once the whole package is read: find, full text, live reload
        (``finder``: build the finder's index, unless a refresh has just started it)."""
        if finder:  # after the first screen is drawn: 0.4 s holding the GIL at 10k docs
            self.set_timer(0.5, self._prepare_finder)
        self._start_fulltext()
        if self._watch:
            self._watcher = Watcher(self.package.root)
            self.set_interval(WATCH_INTERVAL, self._poll_disk)

    @property
    def loading(self) -> bool:
        """Whether the documents are still being read behind the first screen."""
        return self._rest is not None

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def _read_rest(self) -> None:
        # the walk is taken from the app, never passed: a worker's arguments outlive it
        # (50,000 sizes and times, a tenth of what the whole package holds)
        found = self._rest
        if found is None:  # ctrl+r read it all meanwhile
            return
        try:
            whole = Package(self.package.root)
            reader = self._ahead.reader if self._ahead is not None else None
            whole.load(cache=True, found=found, reader=reader)
            # its reads are the package's now: let go of them here, not once the main
            # thread has taken the package (the find index's build starts there, and
            # both at once made a first start's peak 35 MB higher)
            self._ahead = reader = None
        except Exception as exc:  # noqa: BLE001 - said, and the preview stays usable
            self.call_from_thread(self._rest_failed, exc)
            return
        self.call_from_thread(self._rest_read, whole)

    def _rest_failed(self, exc: Exception) -> None:
        self.notify(
            f"Could not read every document: {exc}. Press ctrl+r to try again.",
            severity="error",
            timeout=30,
            markup=False,
        )

    def _rest_read(self, whole: Package) -> None:
        if self._rest is None:  # ctrl+r read it all meanwhile
            return
        self._rest = None
        self._replace_package(whole)  # refreshes the views and starts the finder
        self.refresh_bindings()
        self._start_background(finder=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While documents are read behind the first screen, only moving about works
        (the rest is shown dimmed: it needs every document)."""
        if self._rest is not None and action not in WHILE_READING:
            return None
        return True

    def on_unmount(self) -> None:
        if self._watcher is not None:
            self._watcher.close()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own commands, minus those ours replace (quit, keys)."""
        ours = {c.title.lower() for c in COMMANDS}
        for command in super().get_system_commands(screen):
            if command.title.lower() not in ours and command.title != "Keys":
                yield command

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
            self._show(place)
        finally:
            self._body_settle = 0.0
        if reveal:
            self.reveal(place)

    def _show(self, place: str) -> None:
        self.location = place
        pkg = self.package
        if place == "SKILL.md":
            self.query_one(MetaPane).show_skill(pkg, self.catalog_location)
            self._set_body(pkg.skill.body if pkg.skill else "")
        elif posixpath.basename(place) == "index.md":
            folder = posixpath.dirname(place)
            pkg.read_folder(folder)  # a preview reads it when first shown
            index_file = pkg.indexes.get(folder)
            self.query_one(MetaPane).show_message(
                f"Bundle {folder or '.'}/ · {counted(len(pkg.listings(folder)), 'entry', 'entries')} · {place}"
            )
            self._set_body(
                _without_frontmatter(index_file.index.render())
                if index_file
                else "*This folder has no index.md.*"
            )
        elif place in pkg.documents or pkg.is_unread(place):
            pkg.read_folder(posixpath.dirname(place))
            self._show_document(place)
        else:
            self.query_one(MetaPane).show_message(f"{place}: not a document")
            self._set_body(f"`{escape_markdown(place)}` is not a document of this package.")

    def _show_document(self, path: str) -> None:
        doc = self.package.documents[path]
        self.query_one(MetaPane).show_document(self.package, doc, self.today)
        if doc.broken:
            lines = "\n".join(f"- {escape_markdown(str(p))}" for p in doc.problems)
            self._set_body(f"# This document cannot be read\n\n{lines}\n")
            return
        try:
            body = footnotes_for_display(self.package.body(path), _source_names(doc.meta))
        except (OSError, ValueError) as exc:
            body = f"*Cannot read the body: {escape_markdown(str(exc))}*"
        self._set_body(body)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A toast, unless the screen on top is an editor with a message line of its own:
        then the message shows there, inside its frame, not over its border and buttons."""
        self.messages.append((severity, f"{title}: {message}" if title else message))
        show = getattr(self.screen, "show_notice", None)
        if show is not None and show(f"{title}: {message}" if title else message, severity):
            return
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def _set_body(self, text: str) -> None:
        self.query_one(BodyPane).show(text, settle=self._body_settle)

    def reveal(self, place: str) -> None:
        """Move the tree cursor (and the files view's) to ``place``."""
        path = posixpath.dirname(place) if posixpath.basename(place) == "index.md" else place
        if place == "SKILL.md":
            self.query_one(NavTree).move_cursor(self.query_one(NavTree).root)
        else:
            self.query_one(NavTree).select_path(path)
        files = self.query_one(FilesView)
        if files.display:
            files.select_path(place)

    @staticmethod
    def place_of(ref: NodeRef | None) -> str:
        if ref is None or ref.kind == "root":
            return "SKILL.md"
        if ref.kind == "bundle":
            return f"{ref.path}/index.md" if ref.path else "index.md"
        return ref.path

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeRef]) -> None:
        if not isinstance(event.control, (NavTree, FilesView)) or not event.control.display:
            return
        ref = event.node.data
        place = self.place_of(ref)
        if ref is not None and ref.kind in ("missing", "outside", "external", "asset"):
            self._show_entry(ref)
        elif place != self.location:
            self.go(place, transient=True, moving=True)

    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeRef]) -> None:
        if isinstance(event.control, (NavTree, FilesView)) and event.node.data is not None:
            place = self.place_of(event.node.data)
            if place == self.location:
                self.history.visit(place)  # a deliberate visit: it stays in the history

    def _show_entry(self, ref: NodeRef) -> None:
        self.location = None
        target = ref.listing.entry.target if ref.listing else ref.path
        if ref.kind == "asset":
            self.show_asset(ref.path)
            return
        where = f" (line {ref.listing.entry.line} of its index.md)" if ref.listing else ""
        self.query_one(MetaPane).show_message(f"{target}: {ref.kind}{where}")
        self._set_body(
            f"This entry points at `{escape_markdown(target)}`, which is **{ref.kind}**."
        )

    def show_asset(self, path: str) -> None:
        """Show an asset, read only: its text highlighted, or why it is not shown."""
        view = read_asset(self.package.root, path)
        self.query_one(MetaPane).show_message(f"{path}: an asset (not a document), read only")
        self._set_body(asset_markdown(view))

    # -- links ----------------------------------------------------------------------

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        self.follow(event.href)

    def follow(self, href: str) -> None:
        """Follow a link of the page shown: a document, a bundle, an anchor or a URL."""
        source = self.location or "SKILL.md"
        target = self.package.resolve(source, href)
        if target.kind == "anchor":
            self.query_one(BodyPane).goto_anchor(target.fragment)
        elif target.kind == "external":
            self.open_url(href)
        elif target.kind == "internal" and target.path in self.package.documents:
            self.go(target.path, reveal=True)
            if target.fragment:
                self.query_one(BodyPane).goto_anchor(target.fragment)
        elif target.kind == "internal" and target.path in self.package.indexes:
            folder = target.path
            self.go(f"{folder}/index.md" if folder else "index.md", reveal=True)
        elif target.kind == "internal" and target.path.endswith("index.md"):
            self.go(target.path, reveal=True)
        elif target.kind == "internal" and target.path == "SKILL.md":
            self.go("SKILL.md", reveal=True)
        elif target.kind == "internal" and target.path in self.package.assets:
            self.location = None  # an asset is shown, not visited: no frontmatter, no edits
            self.show_asset(target.path)
        elif target.kind == "outside":
            self.notify(f"{href}: leaves the package; never followed", severity="warning")
        else:
            self.notify(f"{href}: does not exist in this package", severity="error")

    def action_outline(self) -> None:
        self.query_one(BodyPane).toggle_outline()

    # -- history --------------------------------------------------------------------

    def action_back(self) -> None:
        place = self.history.back()
        if place is None:
            self.notify("Nothing further back")
            return
        self._show(place)
        self.reveal(place)

    def action_forward(self) -> None:
        place = self.history.forward()
        if place is None:
            self.notify("Nothing further forward")
            return
        self._show(place)
        self.reveal(place)

    # -- panes ----------------------------------------------------------------------

    def action_toggle_files(self) -> None:
        files = self.query_one(FilesView)
        files.display = not files.display
        self.query_one("#main").set_class(files.display, "-files")
        if files.display:
            files.rebuild()
            if self.location:
                files.select_path(self.location)
            files.focus()
        else:
            self.query_one(NavTree).focus()

    def action_focus_tree(self) -> None:
        self.query_one(NavTree).focus()

    def action_help(self) -> None:
        over = self.screen if self.screen is not self.screen_stack[0] else None
        self.push_screen(HelpScreen(over))

    # -- find -----------------------------------------------------------------------

    @property
    def finder(self) -> Finder:
        if self._finder is None:
            from kas_tui.features.find.fuzzy import Finder

            self._finder = Finder(self.package)
        return self._finder

    def _prepare_finder(self) -> None:
        """Build the finder's index in the background (0.4 s at 10,000 documents)."""
        self._finder = None
        self._finder_generation += 1
        self._build_finder(self._finder_generation)

    @work(thread=True, group="finder")
    def _build_finder(self, generation: int) -> None:
        from kas_tui.features.find.fuzzy import Finder

        try:
            finder = Finder(self.package)
        except RuntimeError:  # the package changed under the build: build on first use
            return
        give_back_free_memory()  # what building the index took: 6 MB at 50,000 documents
        self.call_from_thread(self._finder_ready, generation, finder)

    def _finder_ready(self, generation: int, finder: Finder) -> None:
        """Keep the finder unless the package changed since its build began."""
        if generation == self._finder_generation and self._finder is None:
            self._finder = finder

    def action_find(self) -> None:
        def chosen(found: Found | None) -> None:
            self.open_found(found)  # a ?query (full text) names a line too

        recent = self.history.recent()
        self.push_screen(FindScreen(self.finder, self.package, recent, self.fulltext), chosen)

    # -- editing (the editors live in screens/; safety in edits.py) -----------------

    def action_edit(self) -> None:
        """``e``: in the tree, edit the entry under the cursor (or SKILL.md at the root);
        elsewhere, the frontmatter of the document shown."""
        tree = self.query_one(NavTree)
        if tree.has_focus and tree.cursor_node is not None:
            ref = tree.cursor_node.data
            if ref is None or ref.kind == "root":
                self.action_edit_skill()
                return
            if ref.listing is not None:
                from kas_tui.tui.screens.entry_editor import open_entry_editor

                open_entry_editor(self, ref.listing)
                return
        if self.location == "SKILL.md":
            self.action_edit_skill()
        else:
            self.action_edit_meta()

    def action_edit_meta(self) -> None:
        path = self._document_shown()
        if path is not None:
            from kas_tui.tui.screens.meta_editor import open_meta_editor

            open_meta_editor(self, path)

    def action_edit_skill(self) -> None:
        if self.package.skill is None:  # nothing to edit: offer to create it
            from kas_tui.tui.screens.create import SKILL, open_create

            open_create(self, SKILL)
            return
        from kas_tui.tui.screens.skill_editor import open_skill_editor

        open_skill_editor(self)

    def action_bulk_edit(self) -> None:
        from kas_tui.tui.screens.bulk import open_bulk_editor

        open_bulk_editor(self)

    def action_quit(self) -> None:
        """Quit, asking first when an editor holds unsaved changes."""
        self._end_burst()  # moves just made get their log entry
        dirty = [s for s in self.screen_stack if getattr(s, "dirty", False)]
        if not dirty:
            self.exit()
            return

        ask_unsaved(
            self,
            "An editor holds changes that are not saved. Discard them and quit?",
            discard=self.exit,
        )

    def action_create(self) -> None:
        from kas_tui.tui.screens.create import open_create

        open_create(self)

    def action_import_files(self) -> None:
        from kas_tui.tui.screens.import_wizard import open_import_wizard

        open_import_wizard(self)

    # -- agent ----------------------------------------------------------------------

    def action_agent_walk(self) -> None:
        open_agent_walk(self, self.package)

    def action_replay(self) -> None:
        open_replay(self, self.package)

    def action_evaluation(self) -> None:
        from kas_tui.tui.screens.evaluation import open_evaluation

        open_evaluation(self, self.package)

    def action_review(self) -> None:
        from kas_tui.tui.screens.review import open_review

        open_review(self)


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
