"""Benchmark: full-text search (kas_tui.features.find.fulltext) beside ``rg``/``grep`` over the same files.

On a generated package of 10,000 documents (benchmarks/generate.py: about 2.5 KB of
body each, from a 30-word vocabulary, so every query word is in nearly every document:
the worst case for ranking), and on the real help-centre corpus under
../shared/corpora/ when present, as it is and copied four times over (about 10,000
documents of real prose), measures:

- the first index build (as ``kas-tui search`` does it, parsing frontmatter; and as the
  TUI does it, with the loaded package's frontmatter), and the database's size;
- opening again with nothing changed, and with one file changed (a walk and a stat
  compare, then one file read);
- per-keystroke latency: realistic queries typed one character at a time, each prefix
  searched as the TUI's finder does (30 documents, each with its matching line);
- the peer: ``rg -n -i -F`` (else ``grep -rn -i -F``) run for each prefix over the same
  files (it neither ranks nor ANDs the words: it is the floor of "search the files").

The files are dated a minute back first: a file modified within two seconds of being
indexed is read again on the next open (the racy-git rule), which a real package's
files are not.

    python benchmarks/bench_fulltext.py [--size 10000] [--runs 3] [--limit 30]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_package  # noqa: E402
from kas_tui.core.package import Package  # noqa: E402
from kas_tui.features.find.fulltext import FullTextIndex  # noqa: E402

QUERIES = ["rotation secret", "canary deploy checklist", "webhook quota", '"database failover"']
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora"
CORPUS_QUERIES = {
    "officedocs-support": ["outlook calendar sharing", "onedrive sync", "mailbox retention policy"],
    "textual-docs": ["reactive attribute", "css selector specificity", "worker thread"],
}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def age(root: Path, seconds: float = 60.0) -> None:
    then = time.time() - seconds
    for folder, _, names in os.walk(root):
        for name in names:
            os.utime(os.path.join(folder, name), (then, then))


def timed(action) -> tuple[float, object]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def peer() -> list[str] | None:
    if shutil.which("rg"):
        return ["rg", "-n", "-i", "-F", "--no-messages", "--"]
    if shutil.which("grep"):
        return ["grep", "-rn", "-i", "-F", "--include=*.md", "--"]
    return None


def keystrokes(search, query: str) -> list[float]:
    """Milliseconds of each keystroke's search while ``query`` is typed."""
    times = []
    for end in range(1, len(query) + 1):
        seconds, _ = timed(lambda end=end: search(query[:end]))
        times.append(seconds * 1000)
    return times


def report(label: str, root: Path, queries: list[str], runs: int, limit: int) -> None:
    with tempfile.TemporaryDirectory() as cache:
        folder = Path(cache)
        shutil.rmtree(folder, ignore_errors=True)
        cli_build, _ = timed(lambda: FullTextIndex(root, folder=folder / "cli").sync())
        package = Package.open(root, cache=True)
        index = FullTextIndex(root, folder=folder)
        tui_build, count = timed(lambda: index.sync(package))
        size = os.path.getsize(index.file) + sum(
            os.path.getsize(index.file + s) for s in ("-wal",) if os.path.exists(index.file + s)
        )
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"\n{label}: {count:,} documents, index {size / 1e6:.0f} MB "
            f"(load average {load:.1f} on {os.cpu_count()} cores)"
        )
        print(f"  first build, frontmatter parsed (kas-tui search): {cli_build:6.2f} s")
        print(f"  first build, the package's frontmatter (the TUI): {tui_build:6.2f} s")
        again = []
        for _ in range(runs):
            seconds, changed = timed(lambda: FullTextIndex(root, folder=folder).sync())
            assert changed == 0, changed
            again.append(seconds)
        doc = next(iter(sorted(package.documents)))
        path = root / doc
        original = path.read_bytes()
        one = []
        for i in range(runs):
            path.write_bytes(original + f"\nedited {i}\n".encode())
            seconds, changed = timed(lambda: FullTextIndex(root, folder=folder).sync())
            one.append(seconds)
        path.write_bytes(original)
        age(root)
        index.sync()
        print(f"  open again, nothing changed:   {statistics.median(again) * 1000:6.0f} ms")
        print(f"  open again, one file changed:  {statistics.median(one) * 1000:6.0f} ms")
        command = peer()
        name = command[0] if command else "peer"
        print(
            f"  per keystroke, {limit} results with lines   |  {name} over the files\n"
            f"  {'query':<27} {'keys':>4} {'p50':>7} {'p95':>7}  hits |  {'p50':>7} {'p95':>7}"
        )
        every, every_peer = [], []
        for query in queries:
            times: list[float] = []
            for _ in range(runs):
                times += keystrokes(lambda text: index.search(text, limit), query)
            every += times
            hits = len(index.search(query, limit).hits)
            peer_times: list[float] = []
            if command:

                def run_peer(text: str) -> None:
                    subprocess.run(
                        [*command, text.replace('"', ""), str(root)],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        check=False,
                    )

                peer_times = keystrokes(run_peer, query)
                every_peer += peer_times
            print(
                f"  {query!r:<27} {len(query):>4} {statistics.median(times):5.1f}ms "
                f"{p95(times):5.1f}ms {hits:>5} |  " + _pair(peer_times)
            )
        print(
            f"  {'every keystroke':<27} {len(every):>4} {statistics.median(every):5.1f}ms "
            f"{p95(every):5.1f}ms       |  " + _pair(every_peer)
        )
        index.close()


def _pair(times: list[float]) -> str:
    if not times:
        return "(no rg or grep)"
    return f"{statistics.median(times):5.0f}ms {p95(times):5.0f}ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=int, default=30, help="results per search (the TUI's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = generate_package(Path(tmp) / f"bench-{args.size}", args.size)
        age(root)
        report("generated", root, QUERIES, args.runs, args.limit)
    if CORPUS.is_dir():
        for corpus in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
            for copies in (1, 4):
                with tempfile.TemporaryDirectory() as tmp:
                    root = Path(tmp) / corpus.name
                    for n in range(copies):  # dated back without touching the original
                        shutil.copytree(corpus, root / f"copy-{n}" if copies > 1 else root)
                    age(root)
                    label = f"corpus {corpus.name}" + (f" x{copies}" if copies > 1 else "")
                    queries = CORPUS_QUERIES.get(corpus.name, ["search"])
                    report(label, root, queries, args.runs, args.limit)
    else:
        print(f"(no corpus at {CORPUS}; skipped)")


if __name__ == "__main__":
    main()
