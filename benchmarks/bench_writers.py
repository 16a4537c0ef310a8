"""Two kas-tui processes writing the same file at the same instant: are edits ever lost?

    python benchmarks/bench_writers.py [--trials 200] [--scenarios frontmatter,index,...]

Each trial resets the bundled demo package, starts two real processes on it (the
harness of ``tests/race.py``), lets them meet at a barrier and make their edit at the
same instant through the editing API (or ``check --fix`` / ``import`` against it), and
then reads the file. A **lost update** is an edit reported as saved that is not in the
file. Required: 0 in every scenario; the loser of a race gets the "changed on disk"
conflict instead (log.md appends both land).

Side by side, the same trials with the folder lock switched off (``--also-unlocked``,
on by default): the check that the file is unchanged and the rename are then two steps,
as before the lock, and edits are lost now and then. That column shows the harness can
see the failure it guards against.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from kas_tui.core import fileio, store  # noqa: E402
from tests.helpers import race  # noqa: E402


@contextlib.contextmanager
def _unlocked():
    saved = fileio.folder_lock, store.folder_lock
    fileio.folder_lock = store.folder_lock = lambda *a, **k: contextlib.nullcontext()
    try:
        yield
    finally:
        fileio.folder_lock, store.folder_lock = saved


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--scenarios", default=",".join(race.SCENARIOS))
    parser.add_argument("--no-unlocked", dest="unlocked", action="store_false")
    args = parser.parse_args()
    scenarios = [s for s in args.scenarios.split(",") if s]
    print(f"{args.trials} trials per scenario, two processes each\n")
    print("| scenario | lost updates | one conflict | both saved | s | lost without the lock |")
    print("|---|---:|---:|---:|---:|---:|")
    failed = False
    for scenario in scenarios:
        trials = args.trials
        with tempfile.TemporaryDirectory() as tmp:
            root = race.copy_demo(Path(tmp))
            started = time.perf_counter()
            tally = race.run(root, scenario, trials)
            seconds = time.perf_counter() - started
            without = "-"
            if args.unlocked:
                with _unlocked():
                    without = str(race.run(root, scenario, trials).lost)
        failed |= bool(tally.lost or tally.errors)
        name = scenario if trials == args.trials else f"{scenario} ({trials} trials)"
        print(
            f"| {name} | {tally.lost} | {tally.one_conflict} | {tally.both_saved} "
            f"| {seconds:.1f} | {without} |"
        )
        for error in tally.errors[:3]:
            print(f"  error: {error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
