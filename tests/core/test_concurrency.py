"""Never losing a byte between processes: two writers at once, kill -9 mid-save, stale temps.

The two-writer trials run real processes (``tests/race.py``); the benchmark
``benchmarks/bench_writers.py`` runs the same trials by the hundred.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from pathlib import Path

import pytest

from kas_tui.core import editing
from kas_tui.core.disk import walk
from kas_tui.core.fileio import TEMP_SUFFIX, _make_temp, atomic_write, remove_stale_temps
from kas_tui.core.package import Package
from kas_tui.core.store import ConflictError
from tests.helpers import race

TRIALS = {"frontmatter": 40, "index": 40, "log": 40, "skill": 40, "fix": 20, "import": 20}


@pytest.mark.parametrize("scenario", race.SCENARIOS)
def test_two_writers_at_the_same_instant_never_lose_an_edit(tmp_path: Path, scenario: str) -> None:
    root = race.copy_demo(tmp_path)
    tally = race.run(root, scenario, TRIALS[scenario])
    assert not tally.errors, tally.errors[:3]
    assert tally.lost == 0, str(tally)
    assert tally.trials == TRIALS[scenario]
    if scenario == "log":  # two appends at once: both land, neither conflicts
        assert tally.both_saved == tally.trials, str(tally)
    else:
        assert tally.one_conflict + tally.both_saved == tally.trials, str(tally)


def test_an_editor_based_on_old_bytes_conflicts_after_the_model_was_reloaded(
    tmp_path: Path,
) -> None:
    """Live reload refreshes the package; a save based on what the editor read still conflicts."""
    root = race.copy_demo(tmp_path)
    pkg = Package.open(root)
    _, base = pkg.read_for_edit(race.DOC)
    doc = root / race.DOC
    outside = doc.read_text().replace("title: ", "title: Changed outside, ", 1)
    doc.write_text(outside)
    pkg.reload_file(race.DOC)  # what live reload does
    store = pkg.store
    with pytest.raises(ConflictError), store.based_on({doc: base}):
        editing.set_field(pkg, race.DOC, "description", "Mine.")
    assert doc.read_text() == outside
    # several fields of one file in one save: the pin moves with our own writes
    _, base = pkg.read_for_edit(race.DOC)
    with store.based_on({doc: base}):
        editing.set_field(pkg, race.DOC, "description", "Mine.")
        editing.set_field(pkg, race.DOC, "title", "Mine too")
    assert "description: Mine." in doc.read_text() and "title: Mine too" in doc.read_text()


# -- kill -9 mid-save ---------------------------------------------------------------------


def _write_forever(path: str, ready) -> None:
    big = [bytes([65 + i]) * (4 << 20) for i in range(2)]  # two 4 MB versions
    n = 0
    ready.set()
    while True:
        atomic_write(path, big[n % 2])
        n += 1


def test_kill_9_mid_save_never_tears_the_file_and_the_temp_is_cleaned(tmp_path: Path) -> None:
    ctx = mp.get_context("fork")
    target = tmp_path / "big.md"
    target.write_bytes(b"A" * (4 << 20))
    leftovers = 0
    for _ in range(8):
        ready = ctx.Event()
        proc = ctx.Process(target=_write_forever, args=(str(target), ready))
        proc.start()
        assert ready.wait(30)
        # kill it while a temporary file exists (mid-write), not between two writes
        while not any(p.name.endswith(TEMP_SUFFIX) for p in tmp_path.iterdir()):
            pass
        os.kill(proc.pid, signal.SIGKILL)
        proc.join()
        data = target.read_bytes()
        assert data in (b"A" * (4 << 20), b"B" * (4 << 20)), "never half a file"
        leftovers += sum(p.name.endswith(TEMP_SUFFIX) for p in tmp_path.iterdir())
    assert leftovers, "the kills landed mid-write (a temporary file was left each time)"
    # the next write in that folder removes what the dead writers left
    atomic_write(tmp_path / "other.md", b"x")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(TEMP_SUFFIX)]


def _hold_a_temp(folder: str, name: str, ready, done) -> None:
    fd, tmp = _make_temp(Path(folder), name)
    os.write(fd, b"half a document")
    ready.put(tmp)
    done.wait(60)  # a live writer, slow to finish


def _orphan_a_temp(folder: str, name: str, ready) -> None:
    fd, tmp = _make_temp(Path(folder), name)
    os.write(fd, b"half a document")
    ready.put(tmp)
    signal.pause()  # killed with -9 here, mid-write


def test_stale_temps_are_never_documents_and_go_on_load_but_a_live_ones_stays(
    tmp_path: Path,
) -> None:
    root = race.copy_demo(tmp_path)
    folder = root / "incidents"
    ctx = mp.get_context("fork")
    # one queue each: a process killed right after a put may leave its queue's lock taken
    dead_said, live_said, done = ctx.Queue(), ctx.Queue(), ctx.Event()
    dead = ctx.Process(target=_orphan_a_temp, args=(str(folder), "severity-levels.md", dead_said))
    dead.start()
    stale = Path(dead_said.get(timeout=30))
    os.kill(dead.pid, signal.SIGKILL)
    dead.join()
    live = ctx.Process(
        target=_hold_a_temp, args=(str(folder), "incident-response.md", live_said, done)
    )
    live.start()
    held = Path(live_said.get(timeout=30))
    try:
        assert stale.exists() and held.exists()
        found = walk(root)
        assert not any(TEMP_SUFFIX in p for p in found.documents + found.assets)
        assert {str(stale), str(held)} <= set(found.temps)
        pkg = Package.open(root)  # loading removes the dead writer's file only
        assert not stale.exists()
        assert held.exists(), "a file a live process is writing is never removed"
        assert not any(TEMP_SUFFIX in rel for rel in pkg.documents)
        # a write in that folder does not take it either
        editing.set_field(pkg, "incidents/severity-levels.md", "title", "Severity levels")
        assert held.exists()
        assert remove_stale_temps([held]) == []
    finally:
        done.set()
        live.join(30)
    assert remove_stale_temps([held]) == [held], "once its writer is gone, it goes"
