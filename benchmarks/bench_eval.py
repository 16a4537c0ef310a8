"""Benchmark: `kas-tui eval` on a real corpus, the navigator beside the flat baseline.

Builds ../shared/corpora/officedocs-support (about 2,400 help-centre articles) with
``kas-tui build`` into a temporary folder (not timed), drafts a question set from it
with ``kas-tui questions`` (timed apart), then times, in one process:

- "navigator": every question through the lexical navigator on the package as built,
  in one process and in ``--workers`` forked processes (as ``kas-tui eval`` runs it);
- each ablation (``--ablate descriptions``, ``frontmatter``, ``indexes``), in
  ``--workers`` processes;
- "flat baseline": the BM25 table of every body built once, then every question's
  top five.

It prints the times and the evaluation report itself (what the README shows). Medians
of --runs runs for the times; the report is the same every run (the navigator and the
drafting are deterministic).

    python benchmarks/bench_eval.py [--questions 1000] [--runs 3] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpora" / "officedocs-support"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--package", type=Path, help="an already built package to use")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from kas_tui.core.package import Package
    from kas_tui.features.evaluate.ablation import LAYERS
    from kas_tui.features.evaluate.drafting import draft_questions
    from kas_tui.features.evaluate.flat_baseline import run_flat
    from kas_tui.features.evaluate.report import format_text
    from kas_tui.features.evaluate.runner import evaluate

    with tempfile.TemporaryDirectory() as tmp:
        if args.package:
            root = args.package
        else:
            if not args.corpus.is_dir():
                print(f"{args.corpus} is not here: nothing to measure", file=sys.stderr)
                return 2
            root = Path(tmp) / args.corpus.name
            build = [sys.executable, "-m", "kas_tui", "build", str(args.corpus), str(root)]
            subprocess.run(build, check=False, capture_output=True)
        package = Package.open(root)
        started = time.perf_counter()
        questions = draft_questions(package, n=args.questions, seed=0)
        drafting = time.perf_counter() - started
        print(
            f"{package.name}: {len(package.documents):,} documents, "
            f"{len(questions):,} drafted questions in {drafting:.2f} s\n"
        )
        times: dict[str, list[float]] = {}
        for _ in range(args.runs):
            ev = evaluate(package, questions, workers=1)
            times.setdefault("navigator, 1 process", []).append(ev.main.seconds)
            ev = evaluate(package, questions, ablations=list(LAYERS), workers=args.workers)
            for variant in ev.variants:
                name = (
                    f"navigator, {args.workers} processes"
                    if variant.name == "full"
                    else f"--ablate {variant.name}"
                )
                times.setdefault(name, []).append(variant.seconds)
            started = time.perf_counter()
            run_flat(package, questions)
            times.setdefault("flat baseline", []).append(time.perf_counter() - started)
        report = format_text(ev)
        n = len(questions)
        print(f"{'':24} {'median s':>9} {'ms / question':>14}")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"{name:24} {median:9.2f} {median / n * 1000:14.2f}")
        print()
        print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
