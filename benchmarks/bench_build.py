"""Benchmark: `kas-tui build` against MarkItDown alone on the same files.

For the real corpus (../shared/corpora/officedocs-support, ~2,400 Markdown help articles)
and the MarkItDown samples (../shared/fixtures/markitdown-samples: PDF, Word, PowerPoint,
Excel, HTML, EPUB, ...), when present:

- "build" is the whole ``python -m kas_tui build`` command into an empty folder
  (interpreter start, enumerate, convert, draft, index.md per folder, SKILL.md, log.md,
  and the agent-ready check); its stages, as the command reports them, are shown too;
- "rebuild" is the same command run again over the unchanged sources;
- "MarkItDown alone" converts every file of the source folder with
  ``MarkItDown().convert()`` in one process, one file after the other, as the
  ``markitdown`` command does (interpreter start not counted); its import and its
  conversions are timed apart.

Medians of --runs runs; the OS file cache is warm. ``build`` converts Markdown and text
itself and sends the other formats to worker processes (--workers, default one per CPU).

    python benchmarks/bench_build.py [--runs 3] [--workers N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATASETS = [
    (
        "officedocs-support",
        SHARED / "corpora" / "officedocs-support",
        "https://learn.microsoft.com",
    ),
    ("markitdown-samples", SHARED / "fixtures" / "markitdown-samples", None),
]

MARKITDOWN_ALONE = """
import sys, time, json
started = time.perf_counter()
from markitdown import MarkItDown
md = MarkItDown()
imported = time.perf_counter()
failed = 0
for path in sys.argv[1:]:
    try:
        md.convert(path)
    except Exception:
        failed += 1
done = time.perf_counter()
print(json.dumps({"import": imported - started, "convert": done - imported, "failed": failed}))
"""


def source_files(folder: Path) -> list[str]:
    """The files build enumerates: every file not hidden and not under a hidden folder."""
    out = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out += [os.path.join(here, f) for f in sorted(files) if not f.startswith(".")]
    return out


def time_build(
    source: Path, link_base: str | None, workers: int | None
) -> tuple[float, float, dict[str, float], str]:
    """(first build, rebuild, stage seconds, summary lines) of the command."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / source.name
        command = [sys.executable, "-m", "kas_tui", "build", str(source), str(out)]
        if link_base:
            command += ["--link-base", link_base]
        if workers:
            command += ["--workers", str(workers)]
        started = time.perf_counter()
        first = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        first_seconds = time.perf_counter() - started
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        again = time.perf_counter() - started
    stages: dict[str, float] = {}
    summary = []
    for line in first.stderr.splitlines():
        if line.strip().startswith("time:"):
            for part in line.split(":", 1)[1].split(","):
                name, value, _unit = part.split()
                stages[name] = float(value)
        if line.startswith(("Built", "check --agent-ready")):
            summary.append(line.strip())
    return first_seconds, again, stages, "\n  ".join(summary)


def time_markitdown(files: list[str]) -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, "-c", MARKITDOWN_ALONE, *files],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"CPUs available: {cpus}")
    found = False
    for name, folder, link_base in DATASETS:
        if not folder.is_dir():
            print(f"{name}: not found at {folder}; skipped")
            continue
        found = True
        files = source_files(folder)
        builds, rebuilds, stage_runs, alone = [], [], [], []
        summary = ""
        for _ in range(args.runs):
            first, again, stages, summary = time_build(folder, link_base, args.workers)
            builds.append(first)
            rebuilds.append(again)
            stage_runs.append(stages)
            alone.append(time_markitdown(files))
        stages = {k: statistics.median(s.get(k, 0.0) for s in stage_runs) for k in stage_runs[0]}
        md_import = statistics.median(a["import"] for a in alone)
        md_convert = statistics.median(a["convert"] for a in alone)
        print(f"\n{name}: {len(files):,} files")
        print(f"  {summary}")
        print(
            f"  build (first, into an empty folder): {statistics.median(builds):6.2f} s  ("
            + ", ".join(f"{k} {v:.2f}" for k, v in stages.items())
            + ")"
        )
        print(f"  rebuild (sources unchanged):         {statistics.median(rebuilds):6.2f} s")
        print(
            f"  MarkItDown alone, one process:       {md_import + md_convert:6.2f} s  "
            f"(import {md_import:.2f}, convert {md_convert:.2f}; "
            f"{int(alone[0]['failed'])} files raised)"
        )
    if not found:
        print("no data sets found under ../shared; nothing measured")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
