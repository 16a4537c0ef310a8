"""Benchmark: what one ``readfile`` of a 5 MB page costs a served session.

A copy of the demo package gets ``references/huge.md``: --megabytes of Markdown prose,
one paragraph of about 600 characters after another, each naming a document of the
package with a link (as a long exported page does). Each run opens a fresh served
session (:class:`kas_tui.features.serve.client_session.Session`, logging to a temporary
folder) and times the CPU of one ``readfile`` of the page: reading it, cutting it to
the 200,000 characters a client receives, finding what it names, counting its tokens
and logging the call. Medians of --runs runs.

``--code DIR`` times the kas-tui of another checkout instead (e.g. ``git archive`` of
an older commit unpacked in DIR), for a before/after figure from one script.

    python benchmarks/bench_serve.py [--runs 5] [--megabytes 5] [--code DIR]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PARAGRAPH = (
    "When a page is reopened after the incident review, the on-call engineer checks the "
    "[severity levels](../incidents/severity-levels.md) first, then the escalation "
    "contacts and the customer messages that went out, and writes down what was decided "
    "and by whom, so the next person reading this page knows where the decision came "
    "from and which runbook applied at the time. The notes below keep the same order as "
    "the timeline, one entry per change, with the time in UTC and the person who made "
    "it; nothing here replaces the runbook itself.\n\n"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--megabytes", type=float, default=5.0)
    parser.add_argument("--code", type=Path, help="time the kas-tui of this checkout")
    args = parser.parse_args()
    sys.path.insert(0, str((args.code or ROOT).resolve()))
    from kas_tui.core.package import Package
    from kas_tui.features.serve.client_session import ServedPackage, Session

    demo = ROOT / "demo_kb"
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(demo, Path(tmp) / "kb")
        root = Path(tmp) / "kb" / "orbit-handbook"
        page = root / "references" / "huge.md"
        count = int(args.megabytes * 1_000_000) // len(PARAGRAPH)
        page.write_text("# A long page\n\n" + PARAGRAPH * count, encoding="utf-8")
        served = ServedPackage(Package.open(root))
        times = []
        for run in range(args.runs):
            session = Session(served, log_dir=Path(tmp) / f"logs-{run}")
            started = time.process_time()
            answer = session.call("readfile", {"path": "references/huge.md"})
            times.append(time.process_time() - started)
            session.close()
        size = page.stat().st_size
    print(f"code: {args.code or ROOT}")
    print(f"page: {size / 1e6:.1f} MB, answer: {len(answer.text):,} characters")
    print(f"CPU per readfile, median of {args.runs}: {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
