"""How long the TUI takes to open the bundled demo in-process, and how many widgets its
first screen holds.

    python benchmarks/bench_tui_open.py [--runs 7] [--size 80x24]

Each run opens a fresh ``KasApp`` on a copy of the demo under Textual's ``run_test`` at
the given size and waits until the body pane has drawn SKILL.md (what every Pilot test
of the TUI does first, and what a user sees first): the median of the runs after one
warm-up, then the widgets on the screen and those of the page's Markdown.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kas_tui.core.package import Package  # noqa: E402
from kas_tui.tui.app import KasApp  # noqa: E402
from kas_tui.tui.widgets.body_pane import BodyPane  # noqa: E402


async def _open(root: Path, size: tuple[int, int]) -> tuple[float, int, int]:
    start = time.perf_counter()
    app = KasApp(Package.open(root), today=dt.date(2026, 11, 30), watch=False)
    async with app.run_test(size=size) as pilot:
        while not app.screen.query("BodyPane"):
            await pilot.pause()
        body = app.query_one(BodyPane)
        while body.rendering or not body.source:
            await pilot.pause()
        await pilot.pause()
        took = time.perf_counter() - start
        widgets = len(list(app.screen.walk_children()))
        page = len(list(body.markdown.walk_children()))
    return took, widgets, page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--size", default="80x24")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "demo_kb", Path(tmp) / "demo_kb")
        root = Path(tmp) / "demo_kb" / "orbit-handbook"
        asyncio.run(_open(root, (width, height)))  # imports, caches: not timed
        runs = [asyncio.run(_open(root, (width, height))) for _ in range(args.runs)]
    median = statistics.median(t for t, _w, _p in runs)
    _t, widgets, page = runs[-1]
    print(
        f"open the demo at {args.size}: {median:.2f} s (median of {args.runs}); "
        f"{widgets} widgets on the screen, {page} in the page's Markdown"
    )


if __name__ == "__main__":
    main()
