"""Benchmark: how long loading a package takes.

Loads a generated package of 10,000 documents (and 1,000 for scale), and the real
help-centre corpus under ../shared/corpora/ when it is present. Each figure is the
median of several runs with the OS file cache warm; "sequential" forces one process.

    python benchmarks/bench_load.py [--runs 5] [--sizes 1000 10000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_package  # noqa: E402
from kas_tui.core.loader import read_document  # noqa: E402
from kas_tui.core.package import Package  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def _sequential(root: Path, paths: list[str], scan: bool = False, sink=None):
    return [read_document(root, p, scan) for p in paths]


def measure(path: Path, runs: int, reader=None) -> tuple[float, Package]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        pkg = Package.open(path, reader=reader)
        times.append(time.perf_counter() - started)
    return statistics.median(times), pkg


def report(label: str, path: Path, runs: int) -> None:
    parallel, pkg = measure(path, runs)
    sequential, _ = measure(path, max(1, runs // 2), reader=_sequential)
    problems = len(pkg.all_problems())
    print(
        f"{label:<34} {len(pkg.documents):>7,} docs  parallel {parallel:6.2f} s  "
        f"sequential {sequential:6.2f} s  ({problems:,} problems recorded)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            root = generate_package(Path(tmp) / f"bench-{size}", size)
            report(f"generated package ({size:,})", root, args.runs)
    if CORPUS.is_dir():
        for corpus in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
            report(f"corpus {corpus.name}", corpus, args.runs)
    else:
        print(f"(no corpus at {CORPUS}; skipped)")


if __name__ == "__main__":
    main()
