"""A large package opens on a preview: the tree first, the documents read behind it."""

from __future__ import annotations

import datetime as dt
import gc
import threading
import weakref
from pathlib import Path

import pytest

from benchmarks.generate import generate_package
from kas_tui.core.disk import locate, walk
from kas_tui.core.loader import read_document, read_documents
from kas_tui.core.package import Package
from kas_tui.tui import app as app_module
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.waiting import pilot_wait_until

DOCUMENTS = 2100  # over PREVIEW_MIN and SPAWN_MIN


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("large") / "big-kb", DOCUMENTS)


def test_threads_running_read_in_spawned_workers_alike(large: Path) -> None:
    """With another thread running (the TUI's), workers are spawned, not forked: the
    reads are the same as one process's."""
    paths = walk(large).documents
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert threading.active_count() > 1
        reads = read_documents(large, paths, workers=2)
    finally:
        stop.set()
        other.join()
    assert [r.pack() for r in reads] == [read_document(large, p).pack() for p in paths]


def _node(tree: NavTree, label: str):
    for node in tree._walk(tree.root):
        if node.data is not None and node.data.path == label:
            return node
    raise AssertionError(f"no node {label}")


async def test_first_screen_before_the_documents_are_read(large: Path, monkeypatch) -> None:
    gate = threading.Event()
    load = Package.load

    def held_load(self, **options):  # the background read waits until the test says
        gate.wait(60)
        return load(self, **options)

    monkeypatch.setattr(Package, "load", held_load)
    app = app_module.open_app(locate(large))
    app.today = dt.date(2026, 12, 1)
    assert app._ahead is not None  # a first start: forked processes read meanwhile
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_wait_until(pilot, lambda: app.location == "SKILL.md")
        assert app.loading and not app.package.complete
        assert len(app.package.documents) == 0  # the root holds bundles only
        assert "reading 2,100 documents" in app.sub_title
        assert app.check_action("validate", ()) is None  # needs every document: dimmed
        assert app.check_action("focus_tree", ()) is True
        await pilot.press("v")
        await pilot.pause()
        assert app.report is None
        # the tree works meanwhile: a bundle opened is read there and then
        tree = app.query_one(NavTree)
        area = _node(tree, "area-00")
        area.expand()
        await pilot.pause()
        bundle = _node(tree, "area-00/bundle-000")
        bundle.expand()
        await pilot_wait_until(pilot, lambda: len(bundle.children) == 100)
        assert len(app.package.documents) == 100
        first = bundle.children[0]
        assert "not in index.md" not in str(first.label)
        tree.select_node(first)
        await pilot_wait_until(pilot, lambda: app.location == first.data.path)
        gate.set()
        await pilot_wait_until(pilot, lambda: not app.loading)
        assert app.package.complete and len(app.package.documents) == DOCUMENTS
        assert app.sub_title.endswith("2,100 documents")
        assert app.check_action("validate", ()) is True
        assert app.location == first.data.path  # the place shown is kept
        assert _node(app.query_one(NavTree), "area-00/bundle-000").is_expanded


def test_small_packages_open_whole(tmp_path: Path) -> None:
    small = generate_package(tmp_path / "small-kb", 50)
    app = app_module.open_app(locate(small))
    assert not app.loading and app.package.complete and len(app.package.documents) == 50


async def test_a_failed_background_read_is_said_and_reload_recovers(
    large: Path, monkeypatch
) -> None:
    load = Package.load
    failing = [True]

    def broken_load(self, **options):
        if failing[0]:
            raise OSError("disk unplugged")
        return load(self, **options)

    monkeypatch.setattr(Package, "load", broken_load)
    app = app_module.open_app(locate(large), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_wait_until(
            pilot, lambda: any("disk unplugged" in text for _, text in app.messages)
        )
        assert app.loading and app.check_action("reload", ()) is True
        failing[0] = False
        await pilot.press("ctrl+r")
        await pilot_wait_until(pilot, lambda: not app.loading)
        assert app.package.complete and len(app.package.documents) == DOCUMENTS


def claim_and_drop():
    """A worker's task that claims every third chunk and hands nothing back for it."""
    from kas_tui.core import loader

    number = loader._claim()
    if number is None or number % 3 == 0:
        return None
    root, chunks, how, _ = loader._JOB
    return number, loader._pickled([read_document(root, rel, *how) for rel in chunks[number]])


def test_a_chunk_no_worker_hands_back_is_read_here(large: Path, monkeypatch) -> None:
    """Whatever a worker loses, every document is read, in order."""
    from kas_tui.core import loader

    monkeypatch.setattr(loader, "_read_claimed", claim_and_drop)
    paths = walk(large).documents
    reads = read_documents(large, paths, workers=2)
    assert [r.path for r in reads] == paths
    assert [r.pack() for r in reads] == [read_document(large, p).pack() for p in paths]


async def test_the_preview_and_the_walk_are_freed_once_the_whole_is_read(large: Path) -> None:
    """Nothing keeps the preview package or the walk it was read from: at 50,000
    documents they held 20 MB the open package did not need."""
    app = app_module.open_app(locate(large), watch=False)
    preview, found = weakref.ref(app.package), weakref.ref(app._rest)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_wait_until(pilot, lambda: not app.loading)
        await pilot_wait_until(pilot, lambda: all(w.is_finished for w in app.workers))
        gc.collect()
        assert app.package.complete and len(app.package.documents) == DOCUMENTS
        assert preview() is None, gc.get_referrers(preview())
        assert found() is None, gc.get_referrers(found())


async def test_the_read_ahead_is_let_go_before_the_package_is_handed_over(
    large: Path, monkeypatch
) -> None:
    """The reads made ahead (every document's, and the pickles they came in) are freed
    in the reading thread, before the main thread takes the package and starts the
    find index's build: held until then, they made a first start's peak 35 MB higher."""
    app = app_module.open_app(locate(large), watch=False)
    assert app._ahead is not None
    ahead = weakref.ref(app._ahead)
    alive_at_handover: list[bool] = []
    rest_read = app_module.KasApp._rest_read

    def spy(self, whole):
        gc.collect()
        alive_at_handover.append(ahead() is not None)
        return rest_read(self, whole)

    monkeypatch.setattr(app_module.KasApp, "_rest_read", spy)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_wait_until(pilot, lambda: not app.loading)
        assert alive_at_handover == [False]
        assert app.package.complete and len(app.package.documents) == DOCUMENTS
