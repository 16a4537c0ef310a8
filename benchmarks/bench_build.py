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

With --one-folder, drafting on sources of one flat folder instead: --pages generated
Markdown pages (``benchmarks/generate.py: generate_source``) and the corpus's articles
copied side by side into one folder. Each row gives a first build's draft stage
(drafting every page and splitting the folder into topical sub-bundles), in-process,
in seconds and per page, and its CPU seconds (the same on a busy machine); with
--before REF the same with that commit's code (a temporary git worktree), interleaved,
into the same path.

    python benchmarks/bench_build.py [--runs 3] [--workers N]
    python benchmarks/bench_build.py --one-folder [--pages 4000] [--before REF]
    python benchmarks/bench_build.py --source DIR [--source DIR] [--runs 3]

With --source, the whole command on each folder given (a docfx repository's flat
folder, ../shared/corpora/textual-docs): first build and rebuild, the stages, and the
draft stage per document. With --source and --before REF, first builds with this code
and REF's, interleaved: wall time, the CPU seconds of all the command's processes and
of its own process (its workers run beside it: on cores left idle, the wall time
follows its own CPU), and the load average meanwhile.

    python benchmarks/bench_build.py --source DIR [--source DIR] --before REF [--runs 5]
"""

from __future__ import annotations

import argparse
import compileall
import json
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


LAST_CPU = [0.0]  # CPU seconds of the last first build timed (its workers included)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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
        started, cpu = time.perf_counter(), _children_cpu()
        first = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        first_seconds = time.perf_counter() - started
        LAST_CPU[0] = _children_cpu() - cpu
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


def one_folder_sources(work: Path, pages: int) -> list[tuple[str, Path]]:
    """The flat sources: generated pages, and the corpus's articles in one folder."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.generate import generate_source

    out = [(f"generated, {pages:,} pages", generate_source(work / "generated", pages))]
    corpus = SHARED / "corpora" / "officedocs-support"
    if corpus.is_dir():
        flat = work / "officedocs-flat"
        flat.mkdir()
        for path in sorted(corpus.rglob("*.md")):
            name = "-".join(path.relative_to(corpus).parts)
            (flat / name).write_bytes(path.read_bytes())
        out.append(("officedocs-support in one folder", flat))
    return out


#: A first build in-process (the code of the working directory), the draft stage's
#: wall and CPU seconds: drafting every page and splitting the folder into sub-bundles.
DRAFT_STAGE = """
import json, sys, time
from pathlib import Path
from kas_tui.features.importing import build as b
cpu = [0.0]
def timed(name):
    inner = getattr(b._Builder, name)
    def run(self, *args, **kwargs):
        started = time.process_time()
        try:
            return inner(self, *args, **kwargs)
        finally:
            cpu[0] += time.process_time() - started
    setattr(b._Builder, name, run)
for name in ("_draft", "_refuse_if_nothing_converted", "_split_large_folders"):
    if hasattr(b._Builder, name):
        timed(name)
result = b.build(Path(sys.argv[1]), Path(sys.argv[2]), validate=False)
print(json.dumps({"draft": result.seconds["draft"], "cpu": cpu[0]}))
"""


def timed_draft(code: Path, source: Path, out: Path) -> tuple[float, float]:
    """(draft stage seconds, its CPU seconds) of one first build with ``code``."""
    result = subprocess.run(
        [sys.executable, "-c", DRAFT_STAGE, str(source), str(out)],
        cwd=code,
        capture_output=True,
        text=True,
        check=True,
    )
    shutil.rmtree(out)
    got = json.loads(result.stdout.strip().splitlines()[-1])
    return got["draft"], got["cpu"]


def one_folder(runs: int, pages: int, before: str | None) -> None:
    work = Path(tempfile.mkdtemp(prefix="kas-build-flat-"))
    codes = {"now": ROOT}
    try:
        if before:
            codes["before"] = work / "before"
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(codes["before"]), before],
                cwd=ROOT,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            compiled(codes["before"])
        print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores, runs {runs}")
        heads = " | ".join(f"{c}: draft s | ms/page | its CPU s | CPU ms/page" for c in codes)
        print(f"| one-folder source | pages | {heads} | load |")
        print("|---|---:|" + "---:|---:|---:|---:|" * len(codes) + "---|")
        for name, source in one_folder_sources(work, pages):
            count = sum(1 for _ in source.iterdir())
            got: dict[str, list[tuple[float, float]]] = {c: [] for c in codes}
            loads = []
            for _ in range(runs):
                loads.append(os.getloadavg()[0])
                for code_name, code in codes.items():
                    got[code_name].append(timed_draft(code, source, work / "out" / "package"))
            cells = []
            for code_name in codes:
                draft = statistics.median(d for d, _ in got[code_name])
                cpu = statistics.median(c for _, c in got[code_name])
                per_page = f"{draft / count * 1000:.2f} | {cpu:.2f} | {cpu / count * 1000:.2f}"
                cells.append(f"{draft:.2f} | {per_page}")
            load = f"load {min(loads):.1f}-{max(loads):.1f}"
            print(f"| {name} | {count:,} | " + " | ".join(cells) + f" | {load} |", flush=True)
    finally:
        if "before" in codes:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(codes["before"])],
                cwd=ROOT,
                check=False,
            )
        shutil.rmtree(work, ignore_errors=True)


def sources(folder: Path, runs: int, workers: int | None) -> None:
    """The whole command on ``folder``: first build and rebuild, medians of ``runs``,
    its stages, and the draft stage per document built."""
    builds, rebuilds, stage_runs, loads, cpus = [], [], [], [], []
    drafts: list[tuple[float, float]] = []
    summary = ""
    for _ in range(runs):
        loads.append(os.getloadavg()[0])
        first, again, stages, summary = time_build(folder, None, workers)
        cpus.append(LAST_CPU[0])
        with tempfile.TemporaryDirectory() as tmp:
            drafts.append(timed_draft(ROOT, folder, Path(tmp) / "package"))
        builds.append(first)
        rebuilds.append(again)
        stage_runs.append(stages)
    stages = {k: statistics.median(s.get(k, 0.0) for s in stage_runs) for k in stage_runs[0]}
    built = [w for w in summary.replace(",", "").split() if w.isdigit()]
    documents = int(built[1]) if len(built) > 1 else 0  # "from N source files ...: M created"
    per_page = (
        f", draft {stages.get('draft', 0) / documents * 1000:.2f} ms a page" if documents else ""
    )
    print(f"\n{folder.name}: load {min(loads):.1f}-{max(loads):.1f}, {os.cpu_count()} cores")
    print(f"  {summary}")
    print(
        f"  build (first, into an empty folder): {statistics.median(builds):6.2f} s  ("
        + ", ".join(f"{k} {v:.2f}" for k, v in stages.items())
        + per_page
        + ")"
    )
    print(f"  its CPU (all processes):             {statistics.median(cpus):6.2f} s")
    if documents:
        cpu = statistics.median(c for _d, c in drafts)
        print(
            f"  draft stage in-process, its CPU:     {cpu:6.2f} s  ({cpu / documents * 1000:.2f} ms a page)"
        )
    print(f"  rebuild (sources unchanged):         {statistics.median(rebuilds):6.2f} s")


#: The whole command, run so that its own process's CPU seconds are told apart from
#: its workers' (printed last on stderr).
WHOLE_COMMAND = """
import resource, runpy, sys
sys.argv = ["kas_tui", *sys.argv[1:]]
try:
    runpy.run_module("kas_tui", run_name="__main__")
finally:
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(f"own-cpu {own.ru_utime + own.ru_stime:.3f}", file=sys.stderr)
"""


def whole_command(code: Path, source: Path) -> tuple[float, float, float, str]:
    """(wall, CPU of all its processes, CPU of its own process, its stage line) of one
    first build of ``source`` with ``code`` into an empty folder."""
    with tempfile.TemporaryDirectory() as tmp:
        before = _children_cpu()
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", WHOLE_COMMAND, "build", str(source), f"{tmp}/{source.name}"],
            cwd=code,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(code)},
        )
        wall = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: built, with failed files or check errors
        raise SystemExit(f"build of {source} with {code} failed:\n{done.stderr[-2000:]}")
    lines = done.stderr.splitlines()
    own = float(next(line for line in lines if line.startswith("own-cpu")).split()[1])
    stages = next((line.strip() for line in lines if line.strip().startswith("time:")), "")
    return wall, _children_cpu() - before, own, stages


def sources_against(folders: list[Path], runs: int, before: str) -> None:
    """The whole command on each of ``folders`` with this code and ``before``'s,
    interleaved (same machine, same load): medians of ``runs`` first builds."""
    work = Path(tempfile.mkdtemp(prefix="kas-build-before-"))
    codes = {before: work / "before", "now": ROOT}
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(codes[before]), before],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    compiled(codes[before])
    try:
        print(f"{os.cpu_count()} cores, medians of {runs} first builds, interleaved")
        print("| source | code | build (wall) | CPU, all processes | CPU, its own process | load |")
        print("|---|---|---:|---:|---:|---|")
        for folder in folders:
            got: dict[str, list[tuple[float, float, float, str]]] = {c: [] for c in codes}
            loads = []
            for _ in range(runs):
                for name, code in codes.items():
                    loads.append(os.getloadavg()[0])
                    got[name].append(whole_command(code, folder))
            for name in codes:
                wall, cpu, own = (statistics.median(r[i] for r in got[name]) for i in range(3))
                print(
                    f"| {folder.name} | {name} | {wall:.2f} s | {cpu:.2f} s | {own:.2f} s "
                    f"| {min(loads):.1f}-{max(loads):.1f} |",
                    flush=True,
                )
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(codes[before])], cwd=ROOT, check=False
        )
        shutil.rmtree(work, ignore_errors=True)


def time_markitdown(files: list[str]) -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, "-c", MARKITDOWN_ALONE, *files],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def compiled(code: Path) -> None:
    """An installed kas-tui has its bytecode compiled (pip does it); a checkout run with
    PYTHONDONTWRITEBYTECODE would otherwise compile every module in every process."""
    compileall.compile_dir(code / "kas_tui", quiet=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--one-folder", action="store_true", help="drafting on flat sources")
    parser.add_argument("--pages", type=int, default=4000)
    parser.add_argument(
        "--before", help="with --one-folder or --source: also this commit's code, interleaved"
    )
    parser.add_argument(
        "--source",
        type=Path,
        action="append",
        help="time the whole command on this source folder instead (repeatable)",
    )
    args = parser.parse_args()
    compiled(ROOT)
    if args.one_folder:
        one_folder(args.runs, args.pages, args.before)
        return 0
    if args.source and args.before:
        sources_against([f.resolve() for f in args.source], args.runs, args.before)
        return 0
    if args.source:
        for folder in args.source:
            sources(folder, args.runs, args.workers)
        return 0
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
