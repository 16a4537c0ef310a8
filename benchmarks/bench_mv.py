"""Benchmark: `kas-tui mv` renaming a document linked from 500 files of a large package.

A generated package of --documents documents (10,000 by default) gets 500 links to one
document, written from 500 other documents in every bundle: half `/`-rooted, half
relative (`../../area-03/bundle-031/doc-03105.md`), some with an anchor. Then the whole
`python -m kas_tui mv SRC DST` process is timed (interpreter start-up included, as a
user runs it), renaming the document into another bundle:

* "dry-run": `--dry-run`, which plans every rewrite and prints the whole diff (the issue
  asks for under 2 s on 2 cores);
* "write": the move itself, every file checked and written atomically (under 5 s).

Each on a fresh copy of the package, with the metadata cache warm (the package was
opened before, as by `kas-tui check` or the TUI) and cold (an empty cache). Medians of
--runs runs; the OS file cache is warm throughout. A last line splits one warm write
into its parts (load, plan, diff, write) in-process, and checks the result: every one
of the 500 links leads to the renamed document.

    python benchmarks/bench_mv.py [--runs 3] [--documents 10000] [--links 500]
"""

from __future__ import annotations

import argparse
import os
import random
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

TARGET = "area-03/bundle-031/doc-03105.md"
NEW = "area-07/bundle-072/renamed-doc.md"


def add_links(root: Path, count: int, seed: int = 11) -> list[str]:
    """Make ``count`` documents (not the target) link to the target; returns them."""
    rng = random.Random(seed)
    docs = sorted(p.relative_to(root).as_posix() for p in root.glob("area-*/bundle-*/doc-*.md"))
    chosen = rng.sample([d for d in docs if d != TARGET], count)
    for n, rel in enumerate(chosen):
        depth = rel.count("/")
        target = "/" + TARGET if n % 2 else "../" * depth + TARGET
        anchor = "#details" if n % 5 == 0 else ""
        with open(root / rel, "a") as handle:
            handle.write(f"\nSee also [the linked document]({target}{anchor}).\n")
    return chosen


def _env(cache: Path) -> dict[str, str]:
    return dict(os.environ, KAS_TUI_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))


def warm(root: Path, cache: Path) -> None:
    """Open the package once (a check), as a user has before, so its cache is warm."""
    argv = [sys.executable, "-m", "kas_tui", "check", str(root)]
    subprocess.run(argv, env=_env(cache), capture_output=True, check=False)


def run(root: Path, cache: Path, *, dry_run: bool, cold: bool) -> tuple[float, int]:
    if cold:
        shutil.rmtree(cache, ignore_errors=True)
    env = _env(cache)
    argv = [sys.executable, "-m", "kas_tui", "mv", TARGET, NEW, *(["--dry-run"] if dry_run else [])]
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=root, capture_output=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"kas-tui mv failed: {done.stderr.decode()}")
    return seconds, len(done.stdout)


def parts(root: Path, cache: Path, linked: list[str]) -> str:
    """One warm write, in-process, split into its parts; the result checked."""
    os.environ["KAS_TUI_CACHE_DIR"] = str(cache)
    from kas_tui.core.package import Package
    from kas_tui.features.moves.planner import apply_plan, plan_move

    t0 = time.perf_counter()
    pkg = Package.open(root, cache=True)
    t1 = time.perf_counter()
    plan = plan_move(pkg, TARGET, NEW)
    t2 = time.perf_counter()
    diff = plan.diff()
    t3 = time.perf_counter()
    apply_plan(pkg, plan, reload=False)
    t4 = time.perf_counter()
    pkg.load(cache=True)
    t5 = time.perf_counter()
    wrong = [rel for rel in linked if not any(t.path == NEW for _, t in pkg.links(rel))]
    if wrong or (root / TARGET).exists():
        raise SystemExit(f"links not rewritten in {len(wrong)} files, e.g. {wrong[:3]}")
    return (
        f"load {t1 - t0:.2f} s · plan {t2 - t1:.2f} s ({plan.touched} files) · diff "
        f"{t3 - t2:.2f} s ({len(diff) / 1e6:.1f} MB) · write {t4 - t3:.2f} s · reload "
        f"{t5 - t4:.2f} s; all {len(linked)} links lead to the renamed document"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--links", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "big-kb"
        generate_package(base, args.documents)
        linked = add_links(base, args.links)
        cache = Path(tmp) / "cache"
        copy = Path(tmp) / "copy" / "big-kb"
        print(
            f"{args.documents:,} documents, {args.links} of them link to {TARGET}; "
            f"kas-tui mv {TARGET} {NEW}\n"
        )
        print("| run | metadata cache | median s | min s | output |")
        print("|---|---|---:|---:|---:|")
        for dry_run in (True, False):
            for cold in (False, True):
                times, size = [], 0
                for _ in range(args.runs):
                    shutil.rmtree(copy.parent, ignore_errors=True)
                    shutil.copytree(base, copy)
                    if not cold:
                        warm(copy, cache)
                    seconds, size = run(copy, cache, dry_run=dry_run, cold=cold)
                    times.append(seconds)
                what = "dry-run (diff)" if dry_run else "write"
                shown = f"{size / 1e6:.1f} MB diff" if dry_run else "-"
                print(
                    f"| {what} | {'cold' if cold else 'warm'} | {statistics.median(times):.2f} "
                    f"| {min(times):.2f} | {shown} |"
                )
        shutil.rmtree(copy.parent, ignore_errors=True)
        shutil.copytree(base, copy)
        warm(copy, cache)
        print("\nparts of one warm write: " + parts(copy, cache, linked))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
