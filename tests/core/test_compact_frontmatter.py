"""Compact frontmatter (the TUI's mode): documents read by workers or from the metadata
cache keep their frontmatter as the bytes the worker sent, decoded on each look, and
everything that reads them sees what it saw before."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.generate import generate_package
from kas_tui.core import records
from kas_tui.core.loader import PARALLEL_MIN
from kas_tui.core.package import Package
from kas_tui.features.find.fuzzy import Finder

DOCUMENTS = PARALLEL_MIN + 100  # enough for worker processes


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("compact") / "gen", DOCUMENTS)


@pytest.fixture
def compact():
    records.compact_frontmatter()
    try:
        yield
    finally:
        records.compact_frontmatter(False)


@pytest.mark.parametrize("cache", [False, True])
def test_compact_documents_keep_bytes_and_read_the_same(
    package, compact, cache, tmp_path, monkeypatch
):
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    if cache:
        Package.open(package, cache=True)  # an earlier start wrote the cache
    records.compact_frontmatter(False)
    plain = Package.open(package)
    records.compact_frontmatter()
    small = Package.open(package, cache=cache)
    assert len(small.documents) == DOCUMENTS
    held = [doc._meta for doc in small.documents.values()]
    assert all(isinstance(raw, bytes) for raw in held), "read by workers or from the cache"
    for path, doc in small.documents.items():
        assert doc.meta == plain.documents[path].meta
        assert (doc.title, doc.description, doc.tags, doc.status) == (
            plain.documents[path].title,
            plain.documents[path].description,
            plain.documents[path].tags,
            plain.documents[path].status,
        )
    assert all(isinstance(doc._meta, bytes) for doc in small.documents.values()), (
        "looking decodes, and keeps nothing"
    )
    assert small.documents == plain.documents
    queries = ["incident", "#refund", "rel/roll", "canary deploy", "bundle-001/"]
    for query in queries:
        assert Finder(small).search(query) == Finder(plain).search(query), query


def test_off_the_first_look_decodes_for_good(package, tmp_path, monkeypatch):
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    records.compact_frontmatter(False)
    Package.open(package, cache=True)  # writes the cache
    # every document from the cache, as the workers sent it (a package read afresh
    # has some read by this process, which claims chunks too: which ones is a race)
    pkg = Package.open(package, cache=True)
    doc = next(iter(pkg.documents.values()))
    assert isinstance(doc._meta, bytes)
    meta = doc.meta
    assert doc._meta is meta and doc.meta is meta  # decoded once, kept


def test_compact_edit_reload_and_undo(package, compact, tmp_path, monkeypatch):
    """An edit of a compact document is seen after its reload (compact again), and undo
    restores the exact bytes and the frontmatter."""
    import shutil

    from kas_tui.core import editing

    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    root = Path(shutil.copytree(package, tmp_path / "copy"))
    pkg = Package.open(root)
    rel = sorted(pkg.documents)[7]
    before = (root / rel).read_bytes()
    old_title = pkg.documents[rel].title
    assert editing.set_field(pkg, rel, "title", "A new title") is not None
    doc = pkg.documents[rel]
    assert doc.title == "A new title" and isinstance(doc._meta, bytes)
    assert editing.undo(pkg) is not None
    assert (root / rel).read_bytes() == before
    assert pkg.documents[rel].title == old_title
