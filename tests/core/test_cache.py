"""The metadata cache: written as the workers read, without forking, never half-written.

The cache file is a header and segments (pickled lists of packed reads); these tests
check what a load finds in it, what a rewrite copies, and what a killed or concurrent
writer leaves behind.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from benchmarks.generate import generate_package
from kas_tui.core import loader
from kas_tui.core.disk import walk
from kas_tui.core.load_cache import MetadataCache
from kas_tui.core.loader import ReadAhead, read_document
from kas_tui.core.package import Package

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = loader.PARALLEL_MIN + 100  # enough for the worker processes


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(folder))
    return folder


def _age(root: Path, seconds: float = 3600) -> None:
    """Files older than the racy-git window (a file changed in the last two seconds is
    never trusted from the cache)."""
    old = time.time() - seconds
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (old, old))


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = generate_package(tmp_path / "kb", DOCUMENTS, per_bundle=100)
    _age(root)
    return root


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The documents read from disk (not served by the cache)."""
    seen: list[str] = []
    real = loader.read_document

    def counting(root, rel, *how):
        seen.append(rel)
        return real(root, rel, *how)

    monkeypatch.setattr(loader, "read_document", counting)
    monkeypatch.setattr(loader, "PARALLEL_MIN", 10**9)  # in this process, to be counted
    return seen


def _make_old(path: Path) -> None:
    """Give one changed file an old mtime (the others keep theirs)."""
    old = time.time() - 1800
    os.utime(path, (old, old))


def _segments(path: Path) -> tuple[dict, list[bytes]]:
    """The header and the raw bytes of each segment of a cache file."""
    data = path.read_bytes()
    with open(path, "rb") as handle:
        header = pickle.load(handle)
        spans = []
        while handle.peek(1):
            start = handle.tell()
            pickle.load(handle)
            spans.append(data[start : handle.tell()])
    return header, spans


def test_a_cold_load_caches_every_read_the_workers_made(package: Path, cache_dir: Path) -> None:
    pkg = Package.open(package, scan=True, cache=True)
    store = MetadataCache(package)
    assert sorted(store.entries) == sorted(pkg.documents)
    for rel in pkg.documents:
        assert store.entries[rel] == read_document(package, rel, True).pack()
    header, segments = _segments(store.path)
    assert header["root"] == str(package.resolve())
    assert len(segments) == -(-DOCUMENTS // loader.CHUNK), "one segment per chunk read"
    store.close()


def test_the_cache_is_written_without_forking(
    package: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``check`` (which wrote its cache from a forked copy of itself) writes it in this
    process: no fork once the reading workers are left out."""
    from kas_tui.cli import main as cli

    forks: list[str] = []
    real_fork = os.fork

    def counted_fork():
        forks.append("fork")
        return real_fork()

    monkeypatch.setattr(loader, "PARALLEL_MIN", 10**9)  # no reading workers either
    monkeypatch.setattr(os, "fork", counted_fork)
    assert cli.main(["check", str(package), "--format", "json"]) in (0, 1)
    assert forks == []
    assert len(MetadataCache(package).entries) == DOCUMENTS


def test_a_second_load_reads_nothing(package: Path, cache_dir: Path, reads: list[str]) -> None:
    first = Package.open(package, scan=True, cache=True)
    assert len(reads) == DOCUMENTS
    reads.clear()
    second = Package.open(package, scan=True, cache=True)
    assert reads == []
    assert {r: d.meta for r, d in second.documents.items()} == {
        r: d.meta for r, d in first.documents.items()
    }
    assert second.scans == first.scans


def test_after_one_change_untouched_segments_are_copied_byte_for_byte(
    package: Path, cache_dir: Path, reads: list[str]
) -> None:
    Package.open(package, scan=True, cache=True)
    path = MetadataCache(package).path
    _, before = _segments(path)
    changed = sorted(walk(package).documents)[5]
    target = package / changed
    target.write_text(target.read_text().replace("title: ", "title: Renamed "))
    _make_old(target)
    reads.clear()
    pkg = Package.open(package, scan=True, cache=True)
    assert reads == [changed]
    assert pkg.documents[changed].title.startswith("Renamed ")
    _, after = _segments(path)
    old_segment = next(s for s in before if changed.encode() in s)
    kept = [s for s in before if s is not old_segment]
    assert all(s in after for s in kept), "every untouched segment is in the new file as it was"
    store = MetadataCache(package)
    assert store.entries[changed] == read_document(package, changed, True).pack()
    assert len(store.entries) == DOCUMENTS
    reads.clear()
    Package.open(package, scan=True, cache=True)
    assert reads == []


def test_removed_files_leave_the_cache(package: Path, cache_dir: Path) -> None:
    Package.open(package, cache=True)
    gone = sorted(walk(package).documents)[:3]
    for rel in gone:
        (package / rel).unlink()
    Package.open(package, cache=True)
    entries = MetadataCache(package).entries
    assert len(entries) == DOCUMENTS - 3
    assert not set(gone) & set(entries)


def test_a_file_that_could_not_be_read_is_not_remembered(
    package: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unreadable file is read again next time: making it readable (``chmod``)
    keeps its size and mtime, so a remembered failure would outlive the cause."""
    victim = sorted(walk(package).documents)[0]
    real_open = loader.os.open

    def refusing(path, *args, **kwargs):
        if str(path).endswith(victim):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(loader, "PARALLEL_MIN", 10**9)
    monkeypatch.setattr(loader.os, "open", refusing)
    first = Package.open(package, cache=True)
    assert [p.code for p in first.problems_of(victim)] == ["unreadable"]
    monkeypatch.setattr(loader.os, "open", real_open)
    second = Package.open(package, cache=True)
    assert second.problems_of(victim) == []
    assert second.documents[victim].title
    _, segments = _segments(MetadataCache(package).path)
    kept = [packed for segment in segments for packed in pickle.loads(segment)]
    assert len(kept) == DOCUMENTS, "the failed read is not carried on in a copied segment"


@pytest.mark.parametrize(
    "damage", ["cut in a segment", "garbage after the header", "another schema"]
)
def test_a_damaged_cache_is_ignored_whole(
    package: Path, cache_dir: Path, reads: list[str], damage: str
) -> None:
    Package.open(package, cache=True)
    path = MetadataCache(package).path
    data = path.read_bytes()
    header, segments = _segments(path)
    if damage == "cut in a segment":
        path.write_bytes(data[: len(data) - len(segments[-1]) // 2])
    elif damage == "garbage after the header":
        path.write_bytes(pickle.dumps(header) + b"\x80\x05garbage")
    else:
        path.write_bytes(pickle.dumps({**header, "schema": 1}) + b"".join(segments))
    reads.clear()
    Package.open(package, cache=True)
    assert len(reads) == DOCUMENTS, "nothing is trusted from a damaged cache"
    reads.clear()
    Package.open(package, cache=True)
    assert reads == [], "and the next load wrote it whole again"


def test_an_unwritable_cache_folder_is_no_error(
    package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(blocker / "cache"))
    pkg = Package.open(package, scan=True, cache=True)
    assert len(pkg.documents) == DOCUMENTS


def test_the_read_ahead_hands_its_reads_to_the_cache(package: Path, cache_dir: Path) -> None:
    """The TUI's first start: the documents read by processes forked before the app
    started go to the cache as those processes sent them."""
    found = walk(package, stat=True)
    ahead = ReadAhead(package, found.documents, workers=2)
    pkg = Package(package)
    pkg.load(cache=True, found=found, reader=ahead.reader)
    entries = MetadataCache(package).entries
    assert sorted(entries) == sorted(found.documents) == sorted(pkg.documents)
    assert all(entries[r] == read_document(package, r).pack() for r in found.documents)


# -- a writer killed, and two at once ----------------------------------------------------

WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from kas_tui.core import load_cache as cache, loader
    from kas_tui.core.package import Package

    marker = Path(sys.argv[2])
    real_add = cache.CacheWriter.add

    def add_then_hang(self, segment):
        real_add(self, segment)
        marker.write_text("written")
        sys.stdin.read()  # held here, mid-write, until killed

    if __name__ == "__main__":
        loader.PARALLEL_MIN = 10**9
        cache.CacheWriter.add = add_then_hang
        Package.open(sys.argv[1], cache=True)
    """
)


def test_a_writer_killed_mid_write_leaves_the_old_cache(
    package: Path, cache_dir: Path, tmp_path: Path, reads: list[str]
) -> None:
    Package.open(package, cache=True)
    path = MetadataCache(package).path
    before = path.read_bytes()
    for rel in sorted(walk(package).documents)[:2]:  # so the next load rewrites the cache
        (package / rel).write_text((package / rel).read_text() + "\nMore.\n")
        _make_old(package / rel)
    marker = tmp_path / "marker"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    env = {**os.environ, "KAS_TUI_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(REPO)}
    writer = subprocess.Popen(
        [sys.executable, str(script), str(package), str(marker)], env=env, stdin=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert writer.poll() is None, "the writer ended before writing"
            assert time.monotonic() < deadline, "the writer never wrote"
            time.sleep(0.02)  # not a wait: polling for the marker file
        os.kill(writer.pid, signal.SIGKILL)
    finally:
        writer.wait()
    assert path.read_bytes() == before, "the cache in place is the old one, whole"
    reads.clear()
    Package.open(package, cache=True)
    assert sorted(reads) == sorted(walk(package).documents)[:2]
    leftovers = [p.name for p in cache_dir.iterdir() if p.name.startswith(".")]
    assert leftovers == [], "the killed writer's temporary file is swept by the next"


CHECKER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from kas_tui.core import load_cache as cache
    from kas_tui.core.package import Package

    go = Path(sys.argv[2])
    real_start = cache.CacheWriter.start.__func__

    def start_together(cls, store):
        writer = real_start(cls, store)
        Path(sys.argv[3]).write_text("ready")
        while not go.exists():
            pass
        return writer

    if __name__ == "__main__":
        cache.CacheWriter.start = classmethod(start_together)
        Package.open(sys.argv[1], scan=True, cache=True)
    """
)


def test_two_processes_writing_at_once_leave_one_whole_cache(
    package: Path, cache_dir: Path, tmp_path: Path, reads: list[str]
) -> None:
    script = tmp_path / "checker.py"
    script.write_text(CHECKER)
    go = tmp_path / "go"
    env = {**os.environ, "KAS_TUI_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(REPO)}
    ready = [tmp_path / f"ready-{n}" for n in range(2)]
    procs = [
        subprocess.Popen([sys.executable, str(script), str(package), str(go), str(r)], env=env)
        for r in ready
    ]
    deadline = time.monotonic() + 60
    while not all(r.exists() for r in ready):
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs)
        time.sleep(0.02)  # not a wait: polling for both writers to have started
    go.write_text("go")  # both write their caches at the same instant
    assert [p.wait() for p in procs] == [0, 0]
    store = MetadataCache(package)
    assert len(store.entries) == DOCUMENTS
    store.close()
    reads.clear()
    Package.open(package, scan=True, cache=True)
    assert reads == []


# -- the collector after a load -------------------------------------------------------


def test_the_tui_process_keeps_loaded_packages_out_of_the_collectors_walks(
    package: Path, cache_dir: Path
) -> None:
    """With freeze_after_loads (the kas-tui command turns it on), what a load built is
    frozen: a full collection afterwards does not walk the package."""
    import gc

    from kas_tui.core.memory import freeze_after_loads

    gc.collect()
    before = gc.get_freeze_count()
    Package.open(package, cache=True)
    assert gc.get_freeze_count() == before, "off by default: nothing is frozen"
    freeze_after_loads()
    try:
        pkg = Package.open(package, cache=True)
        frozen = gc.get_freeze_count()
        assert frozen - before > 10 * DOCUMENTS, "every document's objects are frozen"
        assert len(pkg.documents) == DOCUMENTS
    finally:
        freeze_after_loads(False)
        gc.unfreeze()
