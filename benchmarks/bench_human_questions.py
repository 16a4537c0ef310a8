"""Benchmark: navigation of a built corpus on question sets written by people, beside
questions drafted from the package, in one run.

Builds each shared corpus (``../shared/corpora/officedocs-support`` and ``textual-docs``)
with this checkout (and, with ``--before REF``, with the code of an earlier commit too,
checked out into a temporary git worktree), reads the human-written set in
``benchmarks/questions/<corpus>.human.jsonl`` (gold paths relative to the corpus root,
mapped into each package through its build manifest ``.kas-build.json``), drafts as many
questions from the package as the human set holds, and evaluates both with the lexical
navigator and the flat BM25 baseline. Prints, per corpus and build: questions, reach,
reach within 4 turns, median turns and tokens, and flat recall at 1/3/5.

    python benchmarks/bench_human_questions.py [--corpus textual-docs] [--before REF]
        [--workers 2]

A question whose gold pages the build left out (none of them in the manifest) is
counted as not carried and left out of the figures; the count is printed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.bench_build_eval import _build, _from_sources  # noqa: E402  (one of each)

CORPORA = ROOT.parent / "shared" / "corpora"
QUESTIONS = ROOT / "benchmarks" / "questions"
NAMES = ("officedocs-support", "textual-docs")


def _human(name: str, package: Path) -> tuple[list, int]:
    """The human-written set with gold mapped into ``package``; and how many were not."""
    path = QUESTIONS / f"{name}.human.jsonl"
    carried = _from_sources(path, package)
    asked = sum(1 for line in path.read_text("utf-8").splitlines() if line.strip())
    return carried, asked - len(carried)


def _figures(package: Path, questions: list, workers: int) -> dict[str, float]:
    from kas_tui.core.package import Package
    from kas_tui.features.evaluate.flat_baseline import recall
    from kas_tui.features.evaluate.runner import evaluate

    pkg = Package(package)
    pkg.load(scan=True)
    result = evaluate(pkg, questions, workers=workers, out_dir=None)
    overall = result.main.overall
    return {
        "questions": overall.questions,
        "reach %": 100 * overall.reach,
        "within 4 turns %": 100 * overall.reach_within,
        "median turns": overall.median_turns,
        "median tokens": overall.median_tokens,
        "flat recall@1 %": 100 * recall(result.flat, 1),
        "flat recall@3 %": 100 * recall(result.flat, 3),
        "flat recall@5 %": 100 * recall(result.flat, 5),
    }


def _drafted(package: Path, n: int) -> list:
    from kas_tui.core.package import Package
    from kas_tui.features.evaluate.drafting import draft_questions

    pkg = Package(package)
    pkg.load(scan=True)
    return [replace(q, id=f"d{i:04d}") for i, q in enumerate(draft_questions(pkg, n=n, seed=0))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", choices=NAMES, help="default: both")
    parser.add_argument("--before", help="git ref of an earlier build to measure beside")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        codes = {"this checkout": ROOT}
        if args.before:
            old_code = tmp_path / "before-code"
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(old_code), args.before],
                cwd=ROOT,
                check=True,
                capture_output=True,
            )
            codes = {f"before ({args.before})": old_code, **codes}
        try:
            for name in args.corpus or NAMES:
                corpus = CORPORA / name
                if not corpus.is_dir():
                    print(f"{corpus} is not here: skipped", file=sys.stderr)
                    continue
                columns: dict[str, dict[str, float]] = {}
                for label, code in codes.items():
                    package = tmp_path / label.split()[0] / name
                    seconds = _build(code, corpus, package)
                    human, lost = _human(name, package)
                    drafted = _drafted(package, len(human))
                    columns[f"{label[:14]}: human"] = {
                        **_figures(package, human, args.workers),
                        "not carried": lost,
                        "build s": seconds,
                    }
                    columns[f"{label[:14]}: drafted"] = _figures(package, drafted, args.workers)
                print(f"\n{name}")
                print(f"{'':20}" + "".join(f"{c:>24}" for c in columns))
                keys = next(iter(columns.values())).keys()
                for key in keys:
                    cells = "".join(
                        f"{columns[c][key]:>24,.1f}" if key in columns[c] else f"{'':>24}"
                        for c in columns
                    )
                    print(f"{key:20}{cells}")
        finally:
            if args.before:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(tmp_path / "before-code")],
                    cwd=ROOT,
                    check=False,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
