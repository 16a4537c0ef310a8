"""Benchmark: is the package `build` makes easier for agents to navigate than before?

Builds the shared corpus (../shared/corpora/officedocs-support by default) twice, in
one run: with the code of an earlier commit (``--before``, checked out into a temporary
git worktree) and with this checkout. One question set is drafted from the earlier
package; each question's gold documents are carried over to the new package through
the two build manifests (by source file), so both packages answer the same questions.
Both are then evaluated with this checkout's navigator and flat baseline, and the
script prints, side by side: documents, indexes, the largest index and the root index
in tokens, reach, reach within 4 turns, median turns and tokens, recall of the flat
baseline at 1/3/5, and the build times.

    python benchmarks/bench_build_eval.py [--before 13608fb] [--questions 1000]
        [--corpus DIR] [--workers 2] [--question-file FILE]

``--question-file`` takes questions written by people instead of drafted ones
(``benchmarks/questions/*.human.jsonl``: JSON lines whose gold paths are relative to the
corpus), mapped into each package through its build manifest.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "officedocs-support"


def _build(code: Path, corpus: Path, out: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(code))
    clock = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kas_tui", "build", str(corpus), str(out), "--no-check"],
        cwd=code,
        env=env,
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - clock


def _shape(package: Path) -> dict[str, float]:
    from kas_tui.text.tokens import estimate_tokens

    sizes = [estimate_tokens(p.read_text("utf-8")) for p in package.rglob("index.md")]
    documents = sum(
        1 for p in package.rglob("*.md") if p.name not in ("index.md", "log.md", "SKILL.md")
    )
    return {
        "documents": documents,
        "indexes": len(sizes),
        "largest index": max(sizes),
        "root index": estimate_tokens((package / "index.md").read_text("utf-8")),
    }


def _carry(questions: list, before: Path, after: Path) -> list:
    """The questions with gold paths of ``before`` mapped to ``after`` by source file."""
    from dataclasses import replace

    old = json.loads((before / ".kas-build.json").read_text("utf-8"))["documents"]
    new = json.loads((after / ".kas-build.json").read_text("utf-8"))["documents"]
    source_of = {entry["path"]: src for src, entry in old.items()}
    carried = []
    for q in questions:
        gold = tuple(new[source_of[g]]["path"] for g in q.gold if source_of.get(g) in new)
        if gold:
            carried.append(replace(q, gold=gold))
    return carried


def _from_sources(path: Path, package: Path) -> list:
    """The questions of ``path`` (JSON lines whose ``gold`` are source-relative paths,
    as ``benchmarks/questions/*.human.jsonl`` write them), their gold mapped to
    ``package``'s documents through its build manifest; gold the build did not make a
    document of is dropped, a question left with none is left out."""
    from kas_tui.features.evaluate.runs import Question

    built = json.loads((package / ".kas-build.json").read_text("utf-8"))["documents"]
    out = []
    for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        record = json.loads(line)
        gold = tuple(built[g]["path"] for g in record.get("gold", ()) if g in built)
        if gold:
            tags = tuple(str(t) for t in record.get("tags", ()))
            out.append(Question(str(record["id"]), record["question"], gold, tags=tags, line=n))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="13608fb", help="git ref of the earlier build")
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--question-file",
        type=Path,
        help="questions written by people, gold relative to the corpus (instead of drafted)",
    )
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"{args.corpus} is not here: nothing to measure", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    from kas_tui.core.package import Package
    from kas_tui.features.evaluate.drafting import draft_questions
    from kas_tui.features.evaluate.flat_baseline import recall
    from kas_tui.features.evaluate.runner import evaluate

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        old_code = tmp_path / "before-code"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(old_code), args.before],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        try:
            name = args.corpus.name.lower()
            before, after = tmp_path / "before" / name, tmp_path / "after" / name
            seconds = {
                "before": _build(old_code, args.corpus, before),
                "after": _build(ROOT, args.corpus, after),
            }
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(old_code)], cwd=ROOT, check=False
            )
        if args.question_file:
            sets = {
                "before": _from_sources(args.question_file, before),
                "after": _from_sources(args.question_file, after),
            }
        else:
            first = Package(before)
            first.load(scan=True)
            questions = draft_questions(first, n=args.questions, seed=0)
            sets = {"before": questions, "after": _carry(questions, before, after)}
        rows = {}
        for label, package in (("before", before), ("after", after)):
            pkg = Package(package)
            pkg.load(scan=True)
            result = evaluate(pkg, sets[label], workers=args.workers, out_dir=None)
            flat = result.flat
            overall = result.main.overall
            rows[label] = {
                **_shape(package),
                "questions": overall.questions,
                "reach %": 100 * overall.reach,
                "within 4 turns %": 100 * overall.reach_within,
                "median turns": overall.median_turns,
                "median tokens": overall.median_tokens,
                "flat recall@1 %": 100 * recall(flat, 1),
                "flat recall@3 %": 100 * recall(flat, 3),
                "flat recall@5 %": 100 * recall(flat, 5),
                "build s": seconds[label],
            }
    print(f"{args.corpus.name}: before = {args.before}, after = this checkout")
    print(f"{'':22}{'before':>12}{'after':>12}")
    for key in rows["before"]:
        b, a = rows["before"][key], rows["after"][key]
        print(f"{key:22}{b:>12,.1f}{a:>12,.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
