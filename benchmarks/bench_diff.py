"""Benchmark: `kas-tui diff` on a generated package, two folders and `--since` a commit.

A generated package of --size documents (10,000 by default) is changed as a pull request
changes one: a **small** change (10 documents edited, 10 moved to another bundle, 10
removed and 10 added, 10 index entries reworded) and a **large** one (1,000 documents
renamed, 1,000 edited). Each is timed as the whole `python -m kas_tui diff --format json`
process (interpreter start-up included), the way a CI job runs it: `diff A B` on two
folders, and `diff PKG --since HEAD` in a git repository whose commit holds the package
before the change. "cold" empties the metadata cache before each run; "warm" keeps it.
Each is given as wall time and CPU time (user and system, the reading processes
included): on a machine shared with other work the CPU time is the fairer figure.
With --okf BIN, `okf diff A B` (the Rust okf CLI) is timed on the same folders.
Medians of --runs runs; the OS file cache is warm throughout.

    python benchmarks/bench_diff.py [--size 10000] [--runs 3] [--okf PATH]
"""

from __future__ import annotations

import argparse
import os
import resource
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


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    path.write_text(text.replace(old, new, 1))


def change(root: Path, size: str) -> None:
    """Change the generated package at ``root`` as a small or a large pull request does."""
    docs = sorted(root.glob("area-*/bundle-*/doc-*.md"))
    step = 10 if size == "small" else 1000
    for doc in docs[0 : 10 * step : 10][:step]:  # frontmatter and body edited
        _edit(doc, "status: ", "owner: team:docs\nstatus: ")
        doc.write_text(doc.read_text() + "\nOne more paragraph, added in review.\n")
    for doc in docs[1 : 10 * step : 10][:step]:  # moved (small: to another bundle)
        if size == "small":
            target = docs[-1].parent / f"moved-{doc.name}"
            index = doc.parent / "index.md"
            _edit(index, f"]({doc.name})", f"](../{target.parent.name}/{target.name})")
        else:
            target = doc.with_name(f"renamed-{doc.name}")
            _edit(doc.parent / "index.md", f"]({doc.name})", f"]({target.name})")
        doc.rename(target)
    if size == "small":
        for doc in docs[2:100:10]:  # removed, with their entries
            index = doc.parent / "index.md"
            lines = index.read_text().splitlines(keepends=True)
            index.write_text("".join(x for x in lines if f"]({doc.name})" not in x))
            doc.unlink()
        bundle = docs[-1].parent
        for n in range(10):  # added, with entries
            (bundle / f"new-{n}.md").write_text(
                f"---\ntype: FAQ\ntitle: New answer {n}\ndescription: A new answer, "
                f"number {n}, to a question support keeps getting.\n---\n\nThe answer {n}.\n"
            )
            with (bundle / "index.md").open("a") as index:
                index.write(f"* [New answer {n}](new-{n}.md) - A new answer, number {n}.\n")
        for doc in docs[3:100:10]:  # entries reworded
            index = doc.parent / "index.md"
            lines = index.read_text().splitlines(keepends=True)
            index.write_text(
                "".join(
                    x.replace(" - ", " - Reworded: ", 1) if f"]({doc.name})" in x else x
                    for x in lines
                )
            )


def git(repo: Path, *args: str) -> None:
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    env |= {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.org"}
    env |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.org"}
    subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True)


def timed(argv: list[str], cache: Path, *, cold: bool, runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system, worker processes included)."""
    times, cpus = [], []
    for _ in range(runs):
        if cold:
            shutil.rmtree(cache, ignore_errors=True)
        env = dict(os.environ, KAS_TUI_CACHE_DIR=str(cache))
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr.decode()}")
    return statistics.median(times), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--okf", type=Path, help="the okf binary, to time okf diff too")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    kas = [sys.executable, "-m", "kas_tui", "diff", "--format", "json", "--today", "2026-12-01"]
    print(f"{'change':<8} {'how':<24} {'cold':>8} {'CPU':>8} {'warm':>8} {'CPU':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        base = generate_package(Path(tmp) / "base" / "pkg", args.size)
        for size in ("small", "large"):
            before = Path(tmp) / size / "before" / "pkg"
            after = Path(tmp) / size / "after" / "pkg"
            shutil.copytree(base, before)
            shutil.copytree(base, after)
            change(after, size)
            repo = Path(tmp) / size / "repo"
            shutil.copytree(base, repo / "pkg")
            git(repo, "init", "-q")
            git(repo, "add", ".")
            git(repo, "commit", "-q", "-m", "before")
            change(repo / "pkg", size)
            cache = Path(tmp) / "cache"
            for how, argv in (
                ("diff A B", [*kas, str(before), str(after)]),
                ("diff PKG --since HEAD", [*kas, str(repo / "pkg"), "--since", "HEAD"]),
            ):
                cold, cold_cpu = timed(argv, cache, cold=True, runs=args.runs)
                warm, warm_cpu = timed(argv, cache, cold=False, runs=args.runs)
                print(
                    f"{size:<8} {how:<24} {cold:>7.2f}s {cold_cpu:>7.2f}s "
                    f"{warm:>7.2f}s {warm_cpu:>7.2f}s",
                    flush=True,
                )
            print(f"load average: {os.getloadavg()[0]:.1f}", flush=True)
            if args.okf:
                okf_argv = [str(args.okf), "diff", str(before), str(after)]
                okf, okf_cpu = timed(okf_argv, cache, cold=False, runs=args.runs)
                print(f"{size:<8} {'okf diff A B':<24} {'':>17} {okf:>7.2f}s {okf_cpu:>7.2f}s")


if __name__ == "__main__":
    main()
