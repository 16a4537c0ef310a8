"""The app's full-text search: the index's life beside the package (ctrl+f searches it).

The index (:class:`kas_tui.features.find.fulltext.fts_index.FullTextIndex`, in the user cache
folder) is opened shortly after the first screen is drawn and brought up to date in a
thread worker, so the first screen never waits; searches during a first build list what
is indexed so far (the finder says "indexing N/M"). Every change the app learns of (its
own writes, undo, a reload, the watcher's news from other programs) updates it in the
background: the files the watcher names when only they changed, else a walk that
re-reads what changed.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from kas_tui.core.memory import give_back_free_memory

if TYPE_CHECKING:
    from kas_tui.features.find.fulltext.fts_index import FullTextIndex
    from kas_tui.tui.controllers.host import Host

#: Seconds after the first screen before the index is opened and brought up to date.
START_DELAY = 1.0
#: Seconds the app waits, when it quits, for a batch of the index being written.
CLOSE_WAIT = 2.0


class FullTextController:
    """The package's full-text index: opened once, kept in sync, closed on quitting."""

    def __init__(self, app: Host) -> None:
        self.app = app
        #: The index once opened (``None`` before, or when none can be made).
        self.opened: FullTextIndex | None = None
        self._failed = False

    def start(self) -> None:
        """Open the index and bring it up to date, once the first screen is drawn."""
        self.app.set_timer(START_DELAY, lambda: self.index)

    @property
    def index(self) -> FullTextIndex | None:
        """The package's full-text index (opened, and a sync started, on first use);
        ``None`` when no index can be made (said once)."""
        if self.opened is None and not self._failed:
            from kas_tui.features.find.fulltext.fts_index import FullTextIndex, IndexDamaged

            try:
                self.opened = FullTextIndex(self.app.package.root)
            except (IndexDamaged, OSError) as exc:
                self._failed = True
                self.app.notify(f"No full-text search: {exc}", severity="error", markup=False)
                return None
            self._say_notes()
            self._sync(None)
        return self.opened

    def changed(self, paths: Collection[str] | None = None) -> None:
        """The package changed on disk: update the index (``paths``: only these files
        changed, none came or went; ``None``: anything may have)."""
        if self.opened is not None:
            self._sync(None if paths is None else sorted(paths))

    def close(self) -> None:
        """The app quits: a build stops at its next batch (its worker is cancelled)."""
        if self.opened is not None:
            self.opened.close(timeout=CLOSE_WAIT)

    def _sync(self, paths: list[str] | None) -> None:
        self.app.run_worker(
            lambda: self._update(paths), name="_sync_fulltext", group="fulltext", thread=True
        )

    def _update(self, paths: list[str] | None) -> None:
        """In a thread worker: a whole sync (``paths`` ``None``), or these files."""
        from kas_tui.features.find.fulltext.fts_index import IndexDamaged

        app = self.app
        index = self.opened
        if index is None:
            return
        worker = get_current_worker()
        try:
            if paths is None:
                index.sync(
                    app.package,
                    cancelled=lambda: worker.is_cancelled,
                    give_way=app.foreground.give_way,
                )
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
        index = self.opened
        while index is not None and index.notes:
            self.app.notify(index.notes.pop(0), severity="warning", timeout=10, markup=False)
