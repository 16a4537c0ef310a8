"""Memory a burst of short-lived allocations leaves behind is given back to the system."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from kas_tui.core import libc as clib
from kas_tui.core import memory as collector
from kas_tui.core.package import Package
from kas_tui.features.find.fulltext import FullTextIndex
from kas_tui.features.find.fulltext import fts_index as fulltext_index
from kas_tui.tui.app import KasApp
from kas_tui.tui.controllers import text_search as tui_fulltext
from tests.helpers.waiting import pilot_wait_until


def resident_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(collector._malloc_trim() is None, reason="glibc's malloc_trim only")
def test_free_pages_inside_the_heap_are_given_back() -> None:
    """Blocks freed between kept ones (what a full-text build leaves) stay resident
    until given back: 64 MB freed, 3 MB kept."""
    blocks = [bytes(600) + i.to_bytes(4, "little") for i in range(110_000)]
    kept = blocks[::20]
    del blocks
    before = resident_kib()
    collector.give_back_free_memory()
    after = resident_kib()
    assert before - after > 32_000, (before, after)
    assert len(kept) == 5_500


def test_elsewhere_giving_back_does_nothing(monkeypatch) -> None:
    monkeypatch.setattr(clib.sys, "platform", "darwin")
    collector._malloc_trim.cache_clear()
    clib.libc_function.cache_clear()
    try:
        assert collector._malloc_trim() is None
        assert clib.libc_function("prctl") is None  # a worker starts without it there
        collector.give_back_free_memory()
    finally:
        collector._malloc_trim.cache_clear()
        clib.libc_function.cache_clear()


def test_a_sync_leaves_its_connection_with_the_search_page_cache(root: Path) -> None:
    """Writing uses SQLite's small default page cache; the thread's connection searches
    next with the large one, its written pages let go."""
    index = FullTextIndex(root, folder=root.parent / "ft-cache")
    sizes: list[int] = []
    write = index._write

    def spy(reads, gone):
        sizes.append(index._db().execute("PRAGMA cache_size").fetchone()[0])
        return write(reads, gone)

    index._write = spy
    try:
        assert index.sync() > 0
        assert set(sizes) == {-fulltext_index.WRITE_CACHE_KIB}
        db: sqlite3.Connection = index._db()
        assert db.execute("PRAGMA cache_size").fetchone()[0] == -fulltext_index.CACHE_KIB
        assert index.search("rotation")  # and it still finds
    finally:
        index.close()


async def test_the_tui_gives_memory_back_after_a_full_sync(demo: Package, monkeypatch) -> None:
    given: list[bool] = []
    monkeypatch.setattr(tui_fulltext, "give_back_free_memory", lambda: given.append(True))
    monkeypatch.setattr(tui_fulltext, "START_DELAY", 0.01)
    app = KasApp(demo, today=dt.date(2026, 12, 1), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_wait_until(pilot, lambda: bool(given))
        index = app._fulltext
        assert index is not None and index.progress[0] == index.progress[1] > 0
