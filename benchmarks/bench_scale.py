"""Benchmark: `check` as a package grows, beside the Rust OKF validator, and idle cost.

1. One folder of 5,000 / 10,000 / 20,000 / 50,000 documents (descriptions drawn from a
   Zipf vocabulary of 5,000 words, 1 % templated): `kas-tui check --agent-ready
   --no-cache` beside `okf validate` (section 2 says how okf is found), interleaved;
   time, peak memory and CPU time of the whole process tree (the memory is the sum of
   every process's resident memory, sampled every 10 ms, at least the largest process's
   peak), medians; time per document should stay flat.
2. 10,000 documents in 40 bundles: the same command beside `okf validate` (okf 0.2.1,
   the Rust validator), interleaved, medians of --runs. okf is built from source with
   `cargo build --release` when cargo is present (--okf-source: a git URL or folder,
   default https://github.com/W4G1/okf at v0.2.1); --okf BIN uses a built one.
3. Live reload's watcher at 10,000 and 50,000 documents: one poll with the operating
   system's events and with walking (what every idle second cost before).
4. The metadata cache at 100,000 documents in 400 bundles (--cache-size): a cold
   check that writes the cache beside one with --no-cache, a warm check that reads it
   (no remembered report), and one after a single file changed; time and peak memory
   of the whole process tree (a forked cache writer counts), medians.

With --before REF, the check rows are also measured with the code of an earlier commit
(checked out into a temporary git worktree), interleaved with this checkout's; both
have their bytecode compiled first, as an installed package has. With
--one-process, section 1 also times this checkout's check with every document read in
the one process (the reading workers off), to tell the second core's part from the rest.

    python benchmarks/bench_scale.py [--runs 3] [--sizes 5000 10000 20000 50000]
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.generate import generate_package  # noqa: E402

OKF_SOURCE = "https://github.com/W4G1/okf"
OKF_TAG = "v0.2.1"


def build_okf(source: str, work: Path) -> Path | None:
    if shutil.which("cargo") is None:
        print("cargo is not installed: the okf comparison is left out")
        return None
    checkout = work / "okf"
    subprocess.run(["git", "clone", "-q", source, str(checkout)], check=True)
    subprocess.run(["git", "-C", str(checkout), "checkout", "-q", OKF_TAG], check=True)
    subprocess.run(
        ["cargo", "build", "--release", "--offline", "-q"], cwd=checkout, check=True
    )  # okf has no dependencies: nothing to download
    return checkout / "target" / "release" / "okf"


def timed(command: list[str], env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def kas_check(package: Path) -> list[str]:
    """The check command; run with the code folder as working directory, so ``-m``
    imports that checkout's kas_tui."""
    return [
        sys.executable,
        "-m",
        "kas_tui",
        "check",
        str(package),
        "--agent-ready",
        "--no-cache",
        "--today",
        "2026-12-01",
    ]


#: ``check`` as the command runs it, with the documents read in this one process.
ONE_PROCESS = (
    "import sys\n"
    "import kas_tui.core.loader as loader\n"
    "loader.PARALLEL_MIN = 10**9\n"
    "sys.argv = ['kas-tui', *sys.argv[1:]]\n"
    "from kas_tui.cli.main import main\n"
    "raise SystemExit(main())\n"
)


def timed_peak(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int]:
    """Seconds and peak resident MB of ``command`` and every process it waited for."""
    started = time.perf_counter()
    child = subprocess.Popen(
        command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped here; keep Popen from waiting again
    return time.perf_counter() - started, usage.ru_maxrss // 1024


def _tree_resident_kb(pid: int) -> int:
    """Resident KB of ``pid`` and every process below it (Linux /proc; 0 elsewhere)."""
    total, stack = 0, [pid]
    while stack:
        here = stack.pop()
        try:
            with open(f"/proc/{here}/statm", "rb") as handle:
                total += int(handle.read().split()[1]) * (os.sysconf("SC_PAGESIZE") // 1024)
            for task in os.listdir(f"/proc/{here}/task"):
                with open(f"/proc/{here}/task/{task}/children", "rb") as handle:
                    stack.extend(int(child) for child in handle.read().split())
        except OSError:  # gone in between, or not Linux
            continue
    return total


def timed_tree_peak(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int, float]:
    """Seconds, peak resident MB and CPU seconds of ``command``'s whole process tree: the
    memory summed over every live process, sampled every 10 ms, never below the largest
    one's peak; the CPU of the process and every process it waited for."""
    started = time.perf_counter()
    child = subprocess.Popen(
        command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    peak, done = [0], threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            peak[0] = max(peak[0], _tree_resident_kb(child.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, _, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = 0  # reaped here; keep Popen from waiting again
    done.set()
    sampler.join()
    return seconds, max(peak[0], usage.ru_maxrss) // 1024, usage.ru_utime + usage.ru_stime


def one_folder_rows(
    codes: dict[str, Path],
    okf: Path | None,
    sizes: list[int],
    runs: int,
    work: Path,
    env: dict,
    one_process: bool = False,
) -> None:
    """Section 1: one folder of each size, every command once per round, rounds
    interleaved; medians of time and of peak memory."""
    extra = ["now, one process"] if one_process else []
    names = [*codes, *extra, *(["okf validate"] if okf else [])]
    heads = " | ".join(f"{c}: s | ms/doc | peak MB | CPU s" for c in names)
    print(f"| documents | {heads} | load |")
    print("|---:|" + "---:|---:|---:|---:|" * len(names) + "---|")
    for size in sizes:
        package = generate_package(work / f"one-{size}", size, per_bundle=size, vocabulary=5000)
        rows = {c: (kas_check(package), code) for c, code in codes.items()}
        if one_process:
            command = [sys.executable, "-c", ONE_PROCESS, *kas_check(package)[3:]]
            rows["now, one process"] = (command, ROOT)
        if okf is not None:
            rows["okf validate"] = ([str(okf), "validate", str(package)], work)
        got: dict[str, list[tuple[float, int, float]]] = {name: [] for name in rows}
        loads = []
        for _ in range(runs):
            loads.append(os.getloadavg()[0])
            for name, (command, cwd) in rows.items():
                got[name].append(timed_tree_peak(command, env, cwd))
        cells = []
        for name in rows:
            seconds = statistics.median(t for t, _, _ in got[name])
            peak = statistics.median(m for _, m, _ in got[name])
            cpu = statistics.median(c for _, _, c in got[name])
            cells.append(f"{seconds:.2f} | {seconds / size * 1000:.3f} | {peak:,.0f} | {cpu:.2f}")
        load = f"load {min(loads):.1f}-{max(loads):.1f}"
        print(f"| {size:,} | " + " | ".join(cells) + f" | {load} |", flush=True)
        shutil.rmtree(package)


def cache_rows(codes: dict[str, Path], size: int, runs: int, work: Path) -> None:
    """Section 4: what the metadata cache costs and saves at ``size`` documents."""
    package = generate_package(work / f"cache-{size}", size, per_bundle=250)
    old = time.time() - 3600  # older than the racy-git window, as a real package is
    for path in package.rglob("*.md"):
        os.utime(path, (old, old))
    changed = next(package.rglob("doc-*.md"))
    cells: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for _ in range(runs):
        for code_name, code in codes.items():
            cache = work / f"cache-of-{code_name}"
            env = dict(os.environ, KAS_TUI_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
            command = kas_check(package)
            cached = [c for c in command if c != "--no-cache"]
            shutil.rmtree(cache, ignore_errors=True)
            cells.setdefault((code_name, "no cache"), []).append(timed_peak(command, env, code))
            shutil.rmtree(cache, ignore_errors=True)
            cells.setdefault((code_name, "cold, writing the cache"), []).append(
                timed_peak(cached, env, code)
            )
            for memo in cache.glob("report-*"):
                memo.unlink()  # the metadata cache answers, not the remembered report
            cells.setdefault((code_name, "warm"), []).append(timed_peak(cached, env, code))
            with open(changed, "a", encoding="utf-8") as handle:
                handle.write("\nOne more line.\n")
            os.utime(changed, (old, old + len(cells)))
            cells.setdefault((code_name, "warm, one file changed"), []).append(
                timed_peak(cached, env, code)
            )
    print("| code | run | seconds | peak MB |")
    print("|---|---|---:|---:|")
    for (code_name, run), got in cells.items():
        seconds = statistics.median(t for t, _ in got)
        peak = statistics.median(m for _, m in got)
        print(f"| {code_name} | {run} | {seconds:.2f} | {peak:.0f} |", flush=True)
    shutil.rmtree(package)


def run_rows(rows: dict[str, tuple[list[str], Path]], runs: int, env: dict[str, str]) -> dict:
    """Each command once per round, rounds interleaved; medians."""
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(runs):
        for name, (command, cwd) in rows.items():
            times[name].append(timed(command, env, cwd))
    return {name: statistics.median(t) for name, t in times.items()}


def watcher_costs(package: Path) -> tuple[float, float]:
    from kas_tui.core.watch import Watcher

    with_events = Watcher(package)
    polls = 200
    started = time.perf_counter()
    for _ in range(polls):
        with_events.poll()
    events = (time.perf_counter() - started) / polls
    with_events.close()
    walking = Watcher(package, events=False)
    started = time.perf_counter()
    for _ in range(5):
        walking.poll()
    return events, (time.perf_counter() - started) / 5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5000, 10000, 20000, 50000])
    parser.add_argument("--okf", type=Path, help="a built okf binary")
    parser.add_argument("--okf-source", default=OKF_SOURCE)
    parser.add_argument("--before", help="also time the check with this commit's code")
    parser.add_argument("--cache-size", type=int, default=100000)
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="section 1: also time the check reading every document in one process",
    )
    parser.add_argument(
        "--sections", type=int, nargs="+", default=[1, 2, 3, 4], help="which to run"
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kas-scale-"))
    env = dict(os.environ, KAS_TUI_CACHE_DIR=str(work / "cache"), PYTHONDONTWRITEBYTECODE="1")
    codes = {"now": ROOT}
    try:
        if args.before:
            codes["before"] = work / "before"
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(codes["before"]), args.before],
                cwd=ROOT,
                check=True,
                stdout=subprocess.DEVNULL,
            )
        # An installed kas-tui has its bytecode compiled (pip does it); a checkout run with
        # PYTHONDONTWRITEBYTECODE would otherwise compile every module on every command.
        for code in codes.values():
            compileall.compile_dir(code / "kas_tui", quiet=1)
        print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores, runs {args.runs}")
        okf = None
        if {1, 2} & set(args.sections):
            okf = args.okf or build_okf(args.okf_source, work)
        if 1 in args.sections:
            print("\n1. one folder: check --agent-ready --no-cache, whole process tree")
            one_folder_rows(codes, okf, args.sizes, args.runs, work, env, args.one_process)

        if 2 in args.sections:
            print("\n2. 10,000 documents in 40 bundles, beside okf validate")
            package = generate_package(work / "bundles-10000", 10000, per_bundle=250)
            rows = {c: (kas_check(package), code) for c, code in codes.items()}
            if okf is not None:
                rows["okf validate"] = ([str(okf), "validate", str(package)], work)
            got = run_rows(rows, args.runs, env)
            for name, seconds in got.items():
                print(f"| {name} | {seconds:.2f} s |")

        if 3 in args.sections:
            print("\n3. live reload, one poll while nothing changes")
            for size in (10000, 50000):
                package = generate_package(work / f"bundles-{size}", size, per_bundle=250)
                events, walking = watcher_costs(package)
                print(
                    f"| {size:,} | events {events * 1e6:.0f} us | walking {walking * 1000:.0f} ms |"
                )

        if 4 in args.sections:
            print(f"\n4. the metadata cache at {args.cache_size:,} documents, whole process")
            cache_rows(codes, args.cache_size, args.runs, work)
    finally:
        if "before" in codes:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(codes["before"])],
                cwd=ROOT,
                check=False,
            )
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
