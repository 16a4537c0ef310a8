"""Benchmark: `kas-tui check --agent-ready`, cold (empty metadata cache) and warm.

For generated packages of 1,000, 10,000 and 50,000 documents, and the real corpus
under ../shared/corpora/ when present. "read+frontmatter" times reading every document and parsing its frontmatter once on
both cores (the floor a cold check is measured against); "in-process" times
Package.open + check;
"command" times the whole `python -m kas_tui check` process (interpreter start-up
included), the way CI and pre-commit hooks run it. Medians of --runs runs; the OS
file cache is warm in both cases, the metadata cache is emptied for "cold".

    python benchmarks/bench_check.py [--runs 3] [--sizes 1000 10000 50000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.generate import generate_package  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora"
TODAY = dt.date(2026, 12, 1)


def in_process(path: Path, cache_dir: Path, *, cold: bool) -> float:
    from kas_tui.checks import check
    from kas_tui.package import Package

    if cold:
        shutil.rmtree(cache_dir, ignore_errors=True)
    started = time.perf_counter()
    pkg = Package.open(path, scan=True, cache=True)
    check(pkg, agent_ready=True, today=TODAY)
    return time.perf_counter() - started


def floor(path: Path) -> float:
    """Reading every document and parsing its frontmatter once, on both cores: the least
    a cold check can cost (what the issue measures a cold check against)."""
    from kas_tui.loader import read_documents
    from kas_tui.walk import walk

    started = time.perf_counter()
    found = walk(path)
    read_documents(path, found.documents, scan=False)
    return time.perf_counter() - started


def command(path: Path, cache_dir: Path, *, cold: bool) -> float:
    if cold:
        shutil.rmtree(cache_dir, ignore_errors=True)
    env = dict(os.environ, KAS_TUI_CACHE_DIR=str(cache_dir))
    started = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "kas_tui",
            "check",
            str(path),
            "--agent-ready",
            "--today",
            "2026-12-01",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - started


def report(label: str, path: Path, runs: int, cache_dir: Path) -> None:
    os.environ["KAS_TUI_CACHE_DIR"] = str(cache_dir)
    least = statistics.median(floor(path) for _ in range(runs))
    cold = statistics.median(in_process(path, cache_dir, cold=True) for _ in range(runs))
    in_process(path, cache_dir, cold=False)
    warm = statistics.median(in_process(path, cache_dir, cold=False) for _ in range(runs))
    cmd_cold = statistics.median(command(path, cache_dir, cold=True) for _ in range(runs))
    command(path, cache_dir, cold=False)
    cmd_warm = statistics.median(command(path, cache_dir, cold=False) for _ in range(runs))
    print(
        f"{label:<30} read+frontmatter {least:5.2f} s   in-process cold {cold:6.2f} s  "
        f"warm {warm:6.2f} s   "
        f"command cold {cmd_cold:6.2f} s  warm {cmd_warm:6.2f} s",
        flush=True,
    )


def _age(root: Path) -> None:
    """Date the generated files an hour back, as files in a real checkout are.

    The cache never trusts a file modified within two seconds of the cache being
    written (a second edit in the same clock tick keeps the same mtime).
    """
    past = time.time() - 3600
    for folder, _, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(folder, name), (past, past))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 50000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache_dir = Path(tmp) / "cache"
        for size in args.sizes:
            root = generate_package(Path(tmp) / f"bench-{size}", size)
            _age(root)
            report(f"generated ({size:,} docs)", root, args.runs, cache_dir)
            shutil.rmtree(root)
        if CORPUS.is_dir():
            for corpus in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
                report(f"corpus {corpus.name}", corpus, args.runs, cache_dir)


if __name__ == "__main__":
    main()
