"""Creating a document, a bundle and a SKILL.md in a big package: how long each step takes.

    python benchmarks/bench_create.py [--documents 10000] [--repeat 20]

On a generated package (``benchmarks/generate.py``): the form's live work per keystroke
(where the index entry goes, the file name drafted from the title), the whole plan made
on save (house style learnt from the package, the text, the placement), the write (file,
index entry, log entry, as one session action) and its undo; then a bundle and a
SKILL.md. Medians and worst of ``--repeat`` runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.generate import generate_package  # noqa: E402
from kas_tui.core.edit_session import EditSession  # noqa: E402
from kas_tui.core.okf.index_layout import NewEntry  # noqa: E402
from kas_tui.core.package import Package  # noqa: E402
from kas_tui.features import create as creating  # noqa: E402

TODAY = dt.date(2026, 11, 30)


def timed(step: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and worst of ``repeat`` runs of ``step``, in milliseconds."""
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        step()
        runs.append((time.perf_counter() - started) * 1000)
    return statistics.median(runs), max(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = generate_package(Path(tmp) / "pkg", args.documents)
        pkg = Package.open(root)
        bundle = sorted(f for f in pkg.folders if f and pkg.documents_in(f))[0]
        session = EditSession(pkg, today=TODAY)
        title = "Rotate the payment provider keys"
        description = "How to rotate the payment provider's API keys without downtime."
        rows: list[tuple[str, float, float]] = []

        def placement() -> None:
            entry = NewEntry(f"{bundle}/new.md", title, "", "Runbook")
            creating.place_entry(pkg, bundle, entry)

        rows.append(("keystroke: where the entry goes", *timed(placement, args.repeat)))
        rows.append(
            (
                "keystroke: file name from the title",
                *timed(lambda: creating.draft_file_name(pkg, bundle, title), args.repeat),
            )
        )

        def plan() -> creating.DocumentPlan:
            return creating.plan_document(
                pkg, bundle, title=title, description=description, type="Runbook"
            )

        rows.append(("save: plan the document", *timed(plan, args.repeat)))
        writes, undos = [], []
        for _ in range(args.repeat):
            planned = plan()
            started = time.perf_counter()
            session.run("create", lambda p, planned=planned: creating.write_document(p, planned))
            writes.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            session.undo()
            undos.append((time.perf_counter() - started) * 1000)
        rows.append(("save: write file, entry, log", statistics.median(writes), max(writes)))
        rows.append(("ctrl+z: undo all three", statistics.median(undos), max(undos)))

        def bundle_round() -> None:
            made = creating.plan_bundle(
                pkg, f"{bundle}/drills", title="Drills", description="Failover drills."
            )
            session.run("bundle", lambda p: creating.write_bundle(p, made))
            session.undo()

        rows.append(("bundle: plan, write, undo", *timed(bundle_round, max(3, args.repeat // 4))))
        (root / "SKILL.md").unlink()
        pkg.load()

        def skill_round() -> None:
            made = creating.plan_skill(pkg, description="A generated package. Use when testing.")
            session.run("skill", lambda p: creating.write_skill(p, made))
            session.undo()

        rows.append(("SKILL.md: plan, write, undo", *timed(skill_round, max(3, args.repeat // 4))))
    print(f"{args.documents:,} documents, {args.repeat} runs\n")
    print("| step | median ms | worst ms |")
    print("|---|---:|---:|")
    for name, median, worst in rows:
        print(f"| {name} | {median:.1f} | {worst:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
