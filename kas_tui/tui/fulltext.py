"""The app's full-text search: the index's life beside the package, and ctrl+f.

The index (:class:`kas_tui.features.find.fulltext.FullTextIndex`, in the user cache folder) is opened
shortly after the first screen is drawn and brought up to date in a thread worker, so
the first screen never waits; searches during a first build list what is indexed so far
(the finder says "indexing N/M"). Every change the app learns of (its own writes, undo,
a reload, the watcher's news from other programs) updates it in the background: the
files the watcher names when only they changed, else a walk that re-reads what changed.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from textual import work
from textual.worker import get_current_worker

from kas_tui.core.memory import give_back_free_memory
from kas_tui.tui.screens.find import FindScreen, Found
from kas_tui.tui.widgets.body_pane import BodyPane

if TYPE_CHECKING:
    from kas_tui.features.find.fulltext import FullTextIndex

#: Seconds after the first screen before the index is opened and brought up to date.
START_DELAY = 1.0
#: Seconds the app waits, when it quits, for a batch of the index being written.
CLOSE_WAIT = 2.0


class FullTextMixin:
    """Mixed into :class:`~kas_tui.tui.app.KasApp` (which provides ``package``, ``go``...)."""

    _fulltext: FullTextIndex | None = None
    _fulltext_failed = False

    def _start_fulltext(self) -> None:
        """Open the index and bring it up to date, once the first screen is drawn."""
        app: Any = self
        app.set_timer(START_DELAY, lambda: self.fulltext)

    @property
    def fulltext(self) -> FullTextIndex | None:
        """The package's full-text index (opened, and a sync started, on first use);
        ``None`` when no index can be made (said once)."""
        if self._fulltext is None and not self._fulltext_failed:
            from kas_tui.features.find.fulltext.index import FullTextIndex, IndexDamaged

            app: Any = self
            try:
                self._fulltext = FullTextIndex(app.package.root)
            except (IndexDamaged, OSError) as exc:
                self._fulltext_failed = True
                app.notify(f"No full-text search: {exc}", severity="error", markup=False)
                return None
            self._say_notes()
            self._sync_fulltext(None)
        return self._fulltext

    def fulltext_changed(self, paths: Collection[str] | None = None) -> None:
        """The package changed on disk: update the index (``paths``: only these files
        changed, none came or went; ``None``: anything may have)."""
        if self._fulltext is not None:
            self._sync_fulltext(None if paths is None else sorted(paths))

    @work(thread=True, group="fulltext")
    def _sync_fulltext(self, paths: list[str] | None) -> None:
        from kas_tui.features.find.fulltext.index import IndexDamaged

        app: Any = self
        index = self._fulltext
        if index is None:
            return
        worker = get_current_worker()
        try:
            if paths is None:
                index.sync(app.package, cancelled=lambda: worker.is_cancelled)
                # a walk and every stored row compared, perhaps every body read: tens
                # of MB freed at 50,000 documents, kept by the C heap
                give_back_free_memory()
            else:
                index.update(paths, app.package)
        except (IndexDamaged, OSError) as exc:
            if not worker.is_cancelled:
                app.call_from_thread(
                    app.notify, f"Full-text index: {exc}", severity="error", markup=False
                )
            return
        if not worker.is_cancelled:
            app.call_from_thread(self._say_notes)

    def _say_notes(self) -> None:
        app: Any = self
        index = self._fulltext
        while index is not None and index.notes:
            app.notify(index.notes.pop(0), severity="warning", timeout=10, markup=False)

    def on_unmount(self) -> None:
        if self._fulltext is not None:  # a build stops at its next batch (its worker is cancelled)
            self._fulltext.close(timeout=CLOSE_WAIT)

    # -- actions --------------------------------------------------------------------

    def action_find_text(self) -> None:
        """``ctrl+f``: the finder in full-text mode."""
        app: Any = self
        index = self.fulltext
        if index is not None:
            screen = FindScreen(app.finder, app.package, app.history.recent(), index, text=True)
            app.push_screen(screen, self.open_found)

    def open_found(self, found: Found | None) -> None:
        """Show what the finder chose, scrolled to its line when it names one."""
        if found is None:
            return
        app: Any = self
        app.go(found.path, reveal=True)
        doc = app.package.documents.get(found.path)
        if found.line and doc is not None:
            app.query_one(BodyPane).scroll_to_line(found.line, doc.body_line)
