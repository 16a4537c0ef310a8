"""Benchmark: the fuzzy finder's index build time and per-keystroke latency.

Generates packages of 1,000 and 10,000 documents (benchmarks/generate.py), and uses the
real help-centre corpus under ../shared/corpora/ when present, builds a ``Finder`` on
each, then types a few realistic queries one character at a time, as a
user does in the find box, timing every ``search`` call (the finder keeps its per-word
cache between keystrokes, as it would in the app). Reports the median and p95 latency
per query and over all keystrokes; each query is typed ``--runs`` times on a fresh
finder.

    python benchmarks/bench_find.py [--sizes 1000 10000] [--runs 5] [--limit 50]
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
from kas_tui.core.package import Package  # noqa: E402
from kas_tui.features.find.fuzzy import Finder  # noqa: E402

QUERIES = [
    "incident review",  # two title words
    "rollbak",  # a typo
    "#refund",  # a tag
    "bundle-007/doc-0070",  # a path
    "canary deploy checklist",  # three words, a description-heavy tail
    "ion",  # inside words
    "webhook quota escalation",  # three words
]


CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora"
CORPUS_QUERIES = ["outlook calendar", "sharepont", "onedrive sync", "exchange/mail", "licens"]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def type_query(finder: Finder, query: str, limit: int) -> list[float]:
    """Milliseconds of each keystroke while ``query`` is typed."""
    times = []
    for end in range(1, len(query) + 1):
        started = time.perf_counter()
        finder.search(query[:end], limit)
        times.append((time.perf_counter() - started) * 1000)
    return times


def report(label: str, root: Path, queries: list[str], runs: int, limit: int) -> None:
    package = Package.open(root)
    builds = []
    for _ in range(runs):
        started = time.perf_counter()
        Finder(package)
        builds.append(time.perf_counter() - started)
    median = statistics.median(builds) * 1000
    print(f"\n{label}, {len(package.documents):,} documents: index build {median:.0f} ms (median)")
    print(f"  {'query':<28} {'keys':>4} {'median':>8} {'p95':>8} {'max':>8}  hits")
    every: list[float] = []
    for query in queries:
        times: list[float] = []
        for _ in range(runs):
            times += type_query(Finder(package), query, limit)
        every += times
        hits = len(Finder(package).search(query, limit))
        print(
            f"  {query!r:<28} {len(query):>4} {statistics.median(times):6.2f}ms "
            f"{p95(times):6.2f}ms {max(times):6.2f}ms  {hits}"
        )
    print(
        f"  {'all keystrokes':<28} {len(every):>4} {statistics.median(every):6.2f}ms "
        f"{p95(every):6.2f}ms {max(every):6.2f}ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            root = generate_package(Path(tmp) / f"bench-{size}", size)
            report("generated", root, QUERIES, args.runs, args.limit)
    if CORPUS.is_dir():
        for corpus in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
            report(f"corpus {corpus.name}", corpus, CORPUS_QUERIES, args.runs, args.limit)
    else:
        print(f"(no corpus at {CORPUS}; skipped)")


if __name__ == "__main__":
    main()
