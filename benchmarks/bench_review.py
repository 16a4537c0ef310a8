"""Benchmark: `kas-tui review` on a generated package (10,000 documents by default).

"command, cold" times the whole `python -m kas_tui review PKG --format json` process
(interpreter start-up included) with an empty metadata cache; "command, warm" the same
with the cache the first run wrote. "queue, TUI" times `review_queue` on a package
loaded the way the TUI loads it (frontmatter only, from the cache: bodies are read and
scanned by the queue itself, for the broken links and backlinks), first and second
computation (the second is what the review screen does after an edit: the scans and
links of the files not edited are kept). The generated package has 2,000 deprecated
documents, each listed and linked, and 2,000 old drafts: about 5,300 rows. Medians of
--runs runs; the OS file cache is warm throughout.

    python benchmarks/bench_review.py [--runs 3] [--sizes 10000]
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.generate import generate_package  # noqa: E402

TODAY = dt.date(2026, 12, 1)


def command(path: Path, cache_dir: Path, *, cold: bool) -> tuple[float, int]:
    """Seconds of one `kas-tui review` process, and the rows it printed."""
    if cold:
        subprocess.run(["rm", "-rf", str(cache_dir)], check=True)
    env = dict(os.environ, KAS_TUI_CACHE_DIR=str(cache_dir))
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "kas_tui", "review", str(path), "--format", "json"]
        + ["--today", TODAY.isoformat()],
        env=env,
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    seconds = time.perf_counter() - started
    return seconds, json.loads(done.stdout)["total"]


def in_process(path: Path) -> tuple[float, float]:
    """Seconds of the review screen's first and second computation of the queue."""
    from kas_tui.core.package import Package
    from kas_tui.features.review.queue import review_queue

    pkg = Package.open(path, cache=True)
    started = time.perf_counter()
    review_queue(pkg, TODAY)
    first = time.perf_counter() - started
    pkg.reload_file(sorted(pkg.documents)[0])  # what an edit does
    started = time.perf_counter()
    review_queue(pkg, TODAY)
    return first, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10000])
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "kas_tui", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        cache_dir = Path(tmp) / "cache"
        os.environ["KAS_TUI_CACHE_DIR"] = str(cache_dir)
        for size in args.sizes:
            root = generate_package(Path(tmp) / f"bench-{size}", size)
            past = time.time() - 3600  # files an hour old, as in a checkout (see bench_check)
            for folder, _, names in os.walk(root):
                for name in names:
                    os.utime(os.path.join(folder, name), (past, past))
            cold, warm, first, again = [], [], [], []
            rows = 0
            for _ in range(args.runs):
                seconds, rows = command(root, cache_dir, cold=True)
                cold.append(seconds)
                warm.append(command(root, cache_dir, cold=False)[0])
                one, two = in_process(root)
                first.append(one)
                again.append(two)
            print(f"generated ({size:,} docs, {rows:,} rows)")
            print(f"  command, cold          {statistics.median(cold):6.2f} s")
            print(f"  command, warm          {statistics.median(warm):6.2f} s")
            print(f"  queue, TUI, first      {statistics.median(first):6.2f} s")
            print(f"  queue, TUI, after edit {statistics.median(again):6.2f} s")


if __name__ == "__main__":
    main()
