"""Live reload: the watcher's news of other programs' changes applied to the package
(one file re-read, or the whole package when folders changed or many files did); the
views redrawn keeping the place shown, after those changes and after the app's own
writes.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from kas_tui.core.package import Package
from kas_tui.core.watch import Watcher
from kas_tui.text.wording import counted
from kas_tui.tui.edit_outcome import PackageWritten
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.nav_tree import NavTree

if TYPE_CHECKING:
    from collections.abc import Collection

    from kas_tui.core.watch import Changes
    from kas_tui.tui.controllers.find_index import FindIndex
    from kas_tui.tui.controllers.host import Host
    from kas_tui.tui.controllers.navigation import Navigation
    from kas_tui.tui.controllers.text_search import FullTextController
    from kas_tui.tui.controllers.validation import ValidationController


class Reloader:
    """The watcher of the package's folder, and what every change brings up to date."""

    def __init__(
        self,
        app: Host,
        nav: Navigation,
        find_index: FindIndex,
        full_text: FullTextController,
        validation: ValidationController,
    ) -> None:
        self.app = app
        self.nav = nav
        self.find_index = find_index
        self.full_text = full_text
        self.validation = validation
        self.watcher: Watcher | None = None

    # -- the watcher ----------------------------------------------------------------

    def watch(self) -> None:
        """Start watching the package's folder (polled by :meth:`poll`)."""
        self.watcher = Watcher(self.app.package.root)

    def settle(self) -> None:
        """What is on disk now is the baseline: the app's own writes, or what it just
        read, are no news from another program."""
        if self.watcher is not None:
            self.watcher.settle()

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.close()

    def poll(self) -> None:
        """Look at the disk in a thread worker; apply what changed there."""
        self.app.run_worker(
            self._poll, name="_poll_disk", group="watch", exclusive=True, thread=True
        )

    def _poll(self) -> None:
        if self.watcher is None:
            return
        changes = self.watcher.poll()
        if not changes:
            return
        fresh = None
        if changes.layout_changed or len(changes.modified) > 50:
            fresh = Package(self.app.package.root)
            fresh.load(cache=True)
        self.app.call_from_thread(self._apply_changes, changes, fresh)

    def _apply_changes(self, changes: Changes, fresh: Package | None) -> None:
        if fresh is not None:
            self.app.replace_package(fresh)
        else:
            for rel in sorted(changes.modified):
                self.app.package.reload_file(rel)
            self.refresh_views(changes.modified)
        names = sorted(changes.added | changes.removed | changes.modified)
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        self.app.notify(f"Changed on disk: {shown}", timeout=3)

    # -- the views ------------------------------------------------------------------

    def after_write(self) -> None:
        """Bring every view up to date with the package after a write of the app."""
        self.settle()  # our own writes are not news from another program
        self.refresh_views()
        for screen in self.app.screen_stack[1:]:
            screen.post_message(PackageWritten())

    def refresh_views(self, changed: Collection[str] | None = None) -> None:
        """Redraw tree, files view and panes from the package, keeping the place shown
        (and the findings, when they are shown); ``changed``: only these files changed."""
        app = self.app
        package = app.package
        self.find_index.prepare()
        self.full_text.changed(changed)
        self.validation.refresh()
        app.sub_title = f"{package.name} · {counted(len(package.documents), 'document')}"
        tree = app.query_one(NavTree)
        cursor = tree.cursor_node.data if tree.cursor_node else None
        tree.rebuild()
        files = app.query_one(FilesView)
        if files.display:
            files.rebuild()
        place = self.nav.location
        if place is not None:
            exists = (
                place == "SKILL.md"
                or place in package.documents
                or posixpath.dirname(place) in package.indexes
            )
            self.nav.show(place if exists else "SKILL.md")
        if cursor is not None and cursor.path:
            tree.select_path(cursor.path)
