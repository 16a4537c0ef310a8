"""Live reload: the watcher's news of other programs' changes applied to the package
(one file re-read, or the whole package when folders changed or many files did), the
views redrawn keeping the place shown, and ctrl+r reading everything again.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from textual import work

from kas_tui.core.package import Package
from kas_tui.text.wording import counted
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.nav_tree import NavTree

if TYPE_CHECKING:
    from collections.abc import Collection


class ReloadMixin:
    """Mixed into :class:`~kas_tui.tui.app.KasApp` (which provides ``package``, ``go``...)."""

    @work(thread=True, exclusive=True, group="watch")
    def _poll_disk(self) -> None:
        if self._watcher is None:
            return
        changes = self._watcher.poll()
        if not changes:
            return
        fresh = None
        if changes.layout_changed or len(changes.modified) > 50:
            fresh = Package(self.package.root)
            fresh.load(cache=True)
        self.call_from_thread(self._apply_changes, changes, fresh)

    def _apply_changes(self, changes, fresh: Package | None) -> None:
        if fresh is not None:
            self._replace_package(fresh)
        else:
            for rel in sorted(changes.modified):
                self.package.reload_file(rel)
            self._refresh_views(changes.modified)
        names = sorted(changes.added | changes.removed | changes.modified)
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        self.notify(f"Changed on disk: {shown}", timeout=3)

    def _replace_package(self, package: Package) -> None:
        package.store = self.package.store  # the undo history outlives a reload
        self.package = package
        self.session.package = package
        for widget in (self.query_one(NavTree), self.query_one(FilesView)):
            widget.package = package
        self._refresh_views()

    def _refresh_views(self, changed: Collection[str] | None = None) -> None:
        """Redraw tree, files view and panes from the package, keeping the place shown
        (and the findings, when they are shown); ``changed``: only these files changed."""
        self._prepare_finder()
        self.fulltext_changed(changed)
        self._refresh_findings()
        self.sub_title = f"{self.package.name} · {counted(len(self.package.documents), 'document')}"
        tree = self.query_one(NavTree)
        cursor = tree.cursor_node.data if tree.cursor_node else None
        tree.rebuild()
        files = self.query_one(FilesView)
        if files.display:
            files.rebuild()
        place = self.location
        if place is not None:
            exists = (
                place == "SKILL.md"
                or place in self.package.documents
                or posixpath.dirname(place) in self.package.indexes
            )
            self._show(place if exists else "SKILL.md")
        if cursor is not None and cursor.path:
            tree.select_path(cursor.path)

    def action_reload(self) -> None:
        self.package.load(cache=True)
        self._replace_package(self.package)
        if self._rest is not None:  # the background read failed, or is overtaken
            self._rest = None
            self.refresh_bindings()
            self._start_background(finder=False)
        if self._watcher is not None:
            self._watcher.settle()  # what we just read is the new baseline
        self.notify(f"Reloaded {counted(len(self.package.documents), 'document')}")
