"""The kas-tui application: navigation tree, frontmatter pane and rendered body.

The app opens the package, arranges the main screen and routes actions. What it does
is held by its controllers (``controllers/``), each owning its state: where the user
is (:class:`Navigation`), edits and undo (:class:`EditController`), live reload
(:class:`Reloader`), validation, the finder's indexes, links, moves and the lifecycle
keys. Reading, checking, finding and watching happen in the headless layers
(``kas_tui.core``, ``kas_tui.features``).
"""

from __future__ import annotations

import datetime as dt
import os
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import App, SystemCommand
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Markdown, Tree

from kas_tui.core.disk import Walk, walk
from kas_tui.core.foreground import Foreground
from kas_tui.core.load_cache import MetadataCache
from kas_tui.core.loader import ReadAhead
from kas_tui.core.package import Package
from kas_tui.text.wording import counted
from kas_tui.tui.commands import COMMANDS, KasCommands, bindings
from kas_tui.tui.control_codes import show_control_codes
from kas_tui.tui.controllers.edit_keys import edit_meta, edit_selected, edit_skill
from kas_tui.tui.controllers.edits import BURST_KEYS, EditController
from kas_tui.tui.controllers.external_editor import ExternalEditor
from kas_tui.tui.controllers.find_index import FindIndex
from kas_tui.tui.controllers.lifecycle_actions import LifecycleActions
from kas_tui.tui.controllers.link_views import LinkController
from kas_tui.tui.controllers.live_reload import Reloader
from kas_tui.tui.controllers.move_actions import MoveController
from kas_tui.tui.controllers.navigation import Navigation
from kas_tui.tui.controllers.text_search import FullTextController
from kas_tui.tui.controllers.toasts import Toasts
from kas_tui.tui.controllers.validation import ValidationController
from kas_tui.tui.late_keys import LateKeys
from kas_tui.tui.screens.agent import open_agent_walk
from kas_tui.tui.screens.choose import ask_unsaved
from kas_tui.tui.screens.find import FindScreen
from kas_tui.tui.screens.help import HelpScreen
from kas_tui.tui.screens.main_screen import MainScreen
from kas_tui.tui.screens.replay_open import open_replay
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.findings import FindingsPanel
from kas_tui.tui.widgets.nav_tree import NavTree, NodeRef

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from kas_tui.core.disk import Location
    from kas_tui.core.edit_session import Edit, EditSession
    from kas_tui.core.settings import Settings
    from kas_tui.core.store import Fingerprint
    from kas_tui.features.check.findings import Report
    from kas_tui.features.find.fulltext.fts_index import FullTextIndex
    from kas_tui.features.find.fuzzy import Finder
    from kas_tui.tui.edit_outcome import EditOutcome
    from kas_tui.tui.history import History
    from kas_tui.tui.screens.find import Found

_HERE = Path(__file__).parent
#: The app's CSS: app.tcss, then every screen's file (each beside its screen, which names
#: it by its own CSS_PATH too). All read at start, as one file was: Textual reads a
#: screen's file when the screen is first pushed, and restyles the whole app then.
CSS_FILES = [
    "app.tcss",
    *sorted(p.relative_to(_HERE).as_posix() for p in (_HERE / "screens").rglob("*.tcss")),
]

#: Seconds between two looks at the disk for changes made by other programs.
WATCH_INTERVAL = 1.0
#: From this many documents the first screen comes before the documents are read.
PREVIEW_MIN = 2000
#: Processes reading ahead on a first start: one core left to draw the first screen.
AHEAD_WORKERS = max(1, (os.cpu_count() or 2) - 1)
#: What works while they are read: moving about, help and quitting.
WHILE_READING = frozenset(
    {"back", "forward", "focus_tree", "outline", "toggle_files", "zoom", "help", "quit", "reload"}
)


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


show_control_codes()  # before any text is shown: see tui/control_codes.py

#: Seconds after the first screen before the finder's index is built in the background
#: (it is built on first use when asked for sooner).
FINDER_DELAY = 0.5


class KasApp(App[None]):
    """Browse a Knowledge-as-Skill package by its three layers, and edit it."""

    CSS_PATH = CSS_FILES
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
        #: Where a harness finds SKILL.md, as the catalog entry names it (its length is
        #: part of the entry's token cost); ``None``: the package's own path. The
        #: discovery view, the SKILL.md editor and the walk all use this one.
        self.catalog_location: str | None = None
        #: The last notifications said, toasts and those an editor showed on its own
        #: message line alike (severity, text), newest last.
        self.messages: deque[tuple[str, str]] = deque(maxlen=100)
        self._watch = watch
        #: Background indexing waits while the user waits on the screen (a key, a click).
        self.foreground = Foreground()
        # what the app does, each part owning its state (controllers/)
        self.nav = Navigation(self)
        self.find_index = FindIndex(self)
        self.full_text = FullTextController(self)
        self.validation = ValidationController(self, self.nav)
        self.reloader = Reloader(self, self.nav, self.find_index, self.full_text, self.validation)
        self.edits = EditController(self, self.reloader)
        self.lifecycle = LifecycleActions(self, self.nav, self.edits)
        self.links = LinkController(self, self.nav, self.edits)
        self.moves = MoveController(self, self.nav, self.edits, self.reloader)
        self.external_editor = ExternalEditor(self, self.nav, self.reloader)
        self.toasts = Toasts(self)
        self.late_keys = LateKeys(self)

    # -- the main screen (its panes and keys: screens/main.py) ----------------------

    def get_default_screen(self) -> MainScreen:
        return MainScreen(self.package, self.today)

    def on_main_screen_ready(self, message: MainScreen.Ready) -> None:
        message.stop()
        self.toasts.watch()
        self.sub_title = f"{self.package.name} · {counted(len(self.package.documents), 'document')}"
        self.nav.go("SKILL.md", transient=True)
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
            self.set_timer(FINDER_DELAY, self.find_index.prepare)
        self.full_text.start()
        if self._watch:
            self.reloader.watch()
            self.set_interval(WATCH_INTERVAL, self.reloader.poll)

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
        self.replace_package(whole)  # refreshes the views and starts the finder
        self.refresh_bindings()
        self._start_background(finder=False)

    def replace_package(self, package: Package) -> None:
        """Show ``package`` (read again, or read whole) instead of the app's."""
        package.store = self.package.store  # the undo history outlives a reload
        self.package = package
        self.edits.session.package = package
        for widget in (self.query_one(NavTree), self.query_one(FilesView)):
            widget.package = package
        self.reloader.refresh_views()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While documents are read behind the first screen, only moving about works
        (the rest is shown dimmed: it needs every document)."""
        if self._rest is not None and action not in WHILE_READING:
            return None
        if action == "close_findings":  # escape: only while the findings show
            return self.validation.shown
        return True

    def on_unmount(self) -> None:
        self.reloader.close()
        self.full_text.close()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own commands, minus those ours replace (quit, keys)."""
        ours = {c.title.lower() for c in COMMANDS}
        for command in super().get_system_commands(screen):
            if command.title.lower() not in ours and command.title != "Keys":
                yield command

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
        then the message shows there, inside its frame, not over its border and buttons.
        Over another dialog a toast is brief (controllers/toasts.py)."""
        self.messages.append((severity, f"{title}: {message}" if title else message))
        show = getattr(self.screen, "show_notice", None)
        if show is not None and show(f"{title}: {message}" if title else message, severity):
            return
        timeout = self.toasts.timeout(timeout, self.NOTIFICATION_TIMEOUT)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # -- what the panes say happened ------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            self.foreground.busy()  # what it causes is drawn before indexing goes on
        # A run of K/J presses on one entry is one action: any other key or a click ends
        # it (a pause to look does not), so up then down leaves no trace.
        if self.edits.burst is not None and (
            (isinstance(event, events.Key) and event.key not in BURST_KEYS)
            or isinstance(event, events.MouseDown)
        ):
            self.call_next(self.edits.end_burst)  # after this message, not inside it
        self.late_keys.read(event)
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:  # before App's own
        if self.late_keys.came_back(event):
            event.prevent_default()  # typed for the screen now on top: sent to it

    def action_elsewhere(self, action: str) -> None:
        """A tree key pressed away from the tree: say where it works, and go there."""
        from kas_tui.tui.commands import command

        found = command(action)
        if self.query(NavTree):
            self.nav.focus_tree()  # shown again first, if it gave way (pane_widths.py)
        self.notify(
            f"{found.key_display} ({found.title}) works on the navigation tree's selected "
            f"entry: the tree has the focus now, press {found.key_display} again",
            timeout=5,
        )

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeRef]) -> None:
        self.nav.highlighted(event)

    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeRef]) -> None:
        self.nav.selected(event)

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        self.nav.follow(event.href)

    def on_findings_panel_jump(self, message: FindingsPanel.Jump) -> None:
        self.validation.jump_to(message.finding)

    # -- what screens use of the app (screens/kas_screen.py's Workbench) ------------

    @property
    def location(self) -> str | None:
        """The file shown: SKILL.md, a/index.md, a/doc.md (``None``: none is)."""
        return self.nav.location

    @property
    def history(self) -> History:
        return self.nav.history

    def go(self, place: str, *, transient: bool = False, reveal: bool = False) -> None:
        """Show ``place`` (a root-relative file) and remember the visit."""
        self.nav.go(place, transient=transient, reveal=reveal)

    def go_to_line(self, place: str, line: int | None) -> None:
        self.nav.go_to_line(place, line)

    def follow(self, href: str) -> None:
        self.nav.follow(href)

    def open_found(self, found: Found | None) -> None:
        self.nav.open_found(found)

    @property
    def session(self) -> EditSession:
        return self.edits.session

    @property
    def settings(self) -> Settings:
        return self.edits.settings

    def run_edit(
        self,
        label: str,
        edit: Edit,
        *,
        log: str | None = None,
        based_on: Mapping[str, Fingerprint] | None = None,
    ) -> EditOutcome:
        return self.edits.run_edit(label, edit, log=log, based_on=based_on)

    def deprecate(self, path: str) -> None:
        self.lifecycle.deprecate(path)

    def extend_freshness(self, path: str) -> None:
        self.lifecycle.extend_freshness(path)

    def mark_verified(self, path: str) -> None:
        self.lifecycle.mark_verified(path)

    @property
    def report(self) -> Report | None:
        """The last validation report (``None`` before the first ``v``)."""
        return self.validation.report

    @property
    def finder(self) -> Finder:
        return self.find_index.finder

    @property
    def fulltext(self) -> FullTextIndex | None:
        """The full-text index, opened on first use (``None``: none can be made)."""
        return self.full_text.index

    @property
    def _finder(self) -> Finder | None:
        """The finder if built, never building it (the TUI benchmark waits for it)."""
        return self.find_index.ready

    @property
    def _fulltext(self) -> FullTextIndex | None:
        """The full-text index if open, never opening it (tests and the TUI benchmark
        wait for its sync)."""
        return self.full_text.opened

    # -- the keys (commands.py): each runs on the part of the app it concerns -------

    def action_back(self) -> None:
        self.nav.back()

    def action_forward(self) -> None:
        self.nav.forward()

    def action_toggle_files(self) -> None:
        self.nav.toggle_files()

    def action_focus_tree(self) -> None:
        self.nav.focus_tree()

    def action_outline(self) -> None:
        self.nav.outline()

    def action_find(self) -> None:
        recent = self.history.recent()
        self.push_screen(
            FindScreen(self.finder, self.package, recent, self.fulltext), self.nav.open_found
        )

    def action_find_text(self) -> None:
        """``ctrl+f``: the finder in full-text mode."""
        index = self.fulltext
        if index is not None:
            screen = FindScreen(self.finder, self.package, self.history.recent(), index, text=True)
            self.push_screen(screen, self.nav.open_found)

    def action_links(self) -> None:
        self.links.links()

    def action_broken_links(self) -> None:
        self.links.broken_links()

    def action_neighbourhood(self) -> None:
        self.links.neighbourhood()

    def action_help(self) -> None:
        """``?``: the keys of the screen on top; on the main screen, those of the pane
        holding the focus first."""
        main = self.screen_stack[0]
        if self.screen is not main:
            self.push_screen(HelpScreen(self.screen))
            return
        here = main.pane_here() if isinstance(main, MainScreen) else None
        self.push_screen(HelpScreen(here=here))

    def action_validate(self) -> None:
        self.validation.validate()

    def action_close_findings(self) -> None:
        self.validation.close()

    def action_zoom(self) -> None:
        self.screen_stack[0].toggle_zoom()  # type: ignore[attr-defined]

    def action_next_finding(self) -> None:
        self.validation.next_finding()

    def action_reload(self) -> None:
        """``ctrl+r``: read the whole package again."""
        self.package.load(cache=True)
        self.replace_package(self.package)
        if self._rest is not None:  # the background read failed, or is overtaken
            self._rest = None
            self.refresh_bindings()
            self._start_background(finder=False)
        self.reloader.settle()  # what we just read is the new baseline
        self.notify(f"Reloaded {counted(len(self.package.documents), 'document')}")

    # editing: the editors live in screens/, running edits in controllers/edits.py

    def action_edit(self) -> None:
        edit_selected(self)

    def action_edit_meta(self) -> None:
        edit_meta(self)

    def action_edit_skill(self) -> None:
        edit_skill(self)

    def action_edit_external(self) -> None:
        self.external_editor.edit()

    def action_move_entry_up(self) -> None:
        self.edits.move_entry(-1)

    def action_move_entry_down(self) -> None:
        self.edits.move_entry(1)

    def action_remove_entry(self) -> None:
        self.edits.remove_entry()

    def action_add_missing_entries(self) -> None:
        self.edits.add_missing_entries()

    def action_mark_verified(self) -> None:
        self.lifecycle.mark_verified_shown()

    def action_mark_deprecated(self) -> None:
        self.lifecycle.mark_deprecated_shown()

    def action_extend_freshness(self) -> None:
        self.lifecycle.extend_freshness_shown()

    def action_bulk_edit(self) -> None:
        from kas_tui.tui.screens.bulk import open_bulk_editor

        open_bulk_editor(self)

    def action_undo(self) -> None:
        """Undo the last action; a move undone takes the tree and the page back with it."""
        self.moves.stepped(self.edits.undo(), back=True)

    def action_redo(self) -> None:
        self.moves.stepped(self.edits.redo(), back=False)

    def action_toggle_log(self) -> None:
        self.edits.toggle_log()

    def action_rename(self) -> None:
        self.moves.rename()

    def action_move_to_bundle(self) -> None:
        self.moves.move_to_bundle()

    def action_split_bundle(self) -> None:
        self.moves.split_bundle()

    def action_merge_bundle(self) -> None:
        self.moves.merge_bundle()

    def action_create(self) -> None:
        from kas_tui.tui.screens.create import open_create

        open_create(self)

    def action_import_files(self) -> None:
        from kas_tui.tui.screens.import_wizard import open_import_wizard

        open_import_wizard(self)

    def action_review(self) -> None:
        from kas_tui.tui.screens.review import open_review

        open_review(self)

    def action_diff_view(self) -> None:
        from kas_tui.tui.screens.diff_view import open_diff_view

        open_diff_view(self)

    def action_agent_walk(self) -> None:
        open_agent_walk(self, self.package)

    def action_replay(self) -> None:
        open_replay(self, self.package)

    def action_evaluation(self) -> None:
        from kas_tui.tui.screens.evaluation import open_evaluation

        open_evaluation(self, self.package)

    def action_quit(self) -> None:
        """Quit, asking first when an editor holds unsaved changes."""
        self.edits.end_burst()  # moves just made get their log entry
        dirty = [s for s in self.screen_stack if getattr(s, "dirty", False)]
        if not dirty:
            self.exit()
            return

        ask_unsaved(
            self,
            "An editor holds changes that are not saved. Discard them and quit?",
            discard=self.exit,
        )
