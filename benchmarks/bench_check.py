"""Benchmark: `kas-tui check --agent-ready`, cold (empty metadata cache) and warm.

For generated packages of 1,000, 10,000 and 50,000 documents, and the real corpus
under ../shared/corpora/ when present. "read+frontmatter" times reading every document and parsing its frontmatter once on
both cores (the floor a cold check is measured against). The other columns time the
whole `python -m kas_tui check` process (interpreter start-up included), the way CI and
pre-commit hooks run it: "cold" with an empty metadata cache; "one file edited" after
one document changed (the remembered report no longer applies, the metadata cache serves
the rest); "new mtimes" after every file got a new modification time but kept its bytes
(a fresh clone or branch switch, with the cache kept); "unchanged" a second run with
nothing changed. Medians of --runs runs; the OS file cache is warm throughout.

    python benchmarks/bench_check.py [--runs 3] [--sizes 1000 10000 50000]
"""

from __future__ import annotations

import argparse
import compileall
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


def floor(path: Path) -> float:
    """Reading every document and parsing its frontmatter once, on both cores: the least
    a cold check can cost (what the issue measures a cold check against)."""
    from kas_tui.core.disk import walk
    from kas_tui.core.loader import read_documents

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


def command_retimed(path: Path, cache_dir: Path, hours: int) -> float:
    """The command after every file got a new mtime but kept its bytes (a fresh clone
    or a branch switch, with the metadata cache kept, as CI can keep it)."""
    _age(path, hours * 3600)
    return command(path, cache_dir, cold=False)


def command_one_edit(path: Path, cache_dir: Path, number: int) -> float:
    """The command after one document changed (what a pre-commit hook sees): the
    remembered report no longer applies, the metadata cache serves every other file."""
    first = min(p for p in path.rglob("*.md") if p.name not in ("index.md", "log.md", "SKILL.md"))
    with first.open("a", encoding="utf-8") as handle:
        handle.write(f"\nEdited {number}.\n")
    past = time.time() - 60
    os.utime(first, (past, past))  # older than the racy-git window, newer than the cache
    return command(path, cache_dir, cold=False)


def report(label: str, path: Path, runs: int, cache_dir: Path) -> dict[str, float]:
    """Print (and return) the medians for one package."""
    os.environ["KAS_TUI_CACHE_DIR"] = str(cache_dir)
    row = {"floor": statistics.median(floor(path) for _ in range(runs))}
    row["cold"] = statistics.median(command(path, cache_dir, cold=True) for _ in range(runs))
    command(path, cache_dir, cold=False)
    row["edit"] = statistics.median(command_one_edit(path, cache_dir, n) for n in range(runs))
    row["mtimes"] = statistics.median(command_retimed(path, cache_dir, n + 2) for n in range(runs))
    command(path, cache_dir, cold=False)
    row["warm"] = statistics.median(command(path, cache_dir, cold=False) for _ in range(runs))
    print(
        f"{label:<30} read+frontmatter {row['floor']:5.2f} s   cold {row['cold']:5.2f} s   "
        f"one file edited {row['edit']:5.2f} s   new mtimes {row['mtimes']:5.2f} s   "
        f"unchanged {row['warm']:5.2f} s",
        flush=True,
    )
    return row


def _age(root: Path, seconds: float = 3600) -> None:
    """Date the files ``seconds`` back (an hour: as files in a real checkout are).

    The cache never trusts a file modified within two seconds of the cache being
    written (a second edit in the same clock tick keeps the same mtime).
    """
    past = time.time() - seconds
    for folder, _, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(folder, name), (past, past))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 50000])
    args = parser.parse_args()
    # An installed kas-tui has its bytecode compiled (pip does it); a checkout run with
    # PYTHONDONTWRITEBYTECODE would otherwise compile every module on every command.
    compileall.compile_dir(ROOT / "kas_tui", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        cache_dir = Path(tmp) / "cache"
        for size in args.sizes:
            root = generate_package(Path(tmp) / f"bench-{size}", size)
            _age(root)
            report(f"generated ({size:,} docs)", root, args.runs, cache_dir)
            shutil.rmtree(root)
        if CORPUS.is_dir():
            for corpus in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
                copy = shutil.copytree(corpus, Path(tmp) / corpus.name)  # its mtimes change
                _age(copy)
                report(f"corpus {corpus.name}", copy, args.runs, cache_dir)


if __name__ == "__main__":
    main()
