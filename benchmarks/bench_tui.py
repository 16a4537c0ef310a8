"""Benchmark: the TUI on big packages, headless (Textual's ``run_test``).

Reports, for generated packages of 1,000 and 10,000 documents (and the real corpus under
../shared/corpora/ when present):

- *cold start*: a whole new process opening the package with an empty metadata cache,
  from launch to the first screen drawn (median of 3), and its resident memory once
  every document is read and the find index and full-text sync are done (peak in
  brackets);
- *first screen*: from ``Package.open`` (metadata cache warm, as on every start after
  the first) to Textual's ``Ready`` event: the first screen drawn and taking keys;
- *expand*: opening a bundle of 250 entries in the tree, from ``expand()`` to its entries
  on screen (the screen's next refresh; median over 10 bundles): right after the first
  screen, while the find and full-text indexes are built behind it, and once they are
  built. Not Pilot's ``pause()``: it waits until the process looks idle, up to a second
  while any thread of it works (it took that second for the time of an expand);
- *tree key*: Down pressed on the tree over bundles of 250 entries, each after the body
  caught up: from the key event to the cursor on the next line and the screen redrawn
  (median and worst), once the background indexing after the first screen is done;
- *bundle body*: from the tree cursor stopping on such a bundle to its index shown in the
  body pane, drawn (median);
- *keystroke*: typing a few realistic queries one character at a time into the find
  screen: *results* is the work one keystroke triggers (find, fill the result list),
  *on screen* adds Textual's redraw (median and 95th percentile).

With ``--pages`` (sizes in MB), a package holding one huge page (sections of an exported
manual, or one paragraph), each in its own process at 80×24: from ``go`` to ``?``
answered (the help screen drawn, the key sent at once), to the page's first piece on
screen, and the process's peak memory.

The app is styled as ``kas-tui`` styles it: every file of ``CSS_FILES``.

    python benchmarks/bench_tui.py [--sizes 1000 10000] [--pages 2 20 50 200]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.generate import generate_package  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora"
QUERIES = ("incident", "billing refund", "#security", "rel/roll")
#: Bundles opened in each of two folders of bundles, for *expand*.
BUNDLES = 5


def real_css() -> list[Path]:
    """The app's style files, as paths: a subclass defined here would look for the
    names of ``CSS_FILES`` beside this script."""
    from kas_tui.tui import app

    return [Path(app.__file__).parent / name for name in app.CSS_FILES]


async def drawn(app) -> None:
    """Until the screen's next refresh: what was just changed is on screen."""
    done = asyncio.Event()
    app.call_after_refresh(done.set)
    await done.wait()


async def expand_bundles(app, areas, skip: int = 0) -> float:
    """Open each folder of ``areas``, then ``BUNDLES`` of its bundles (after the first
    ``skip``), each for the first time: the median of the seconds from a bundle's
    ``expand()`` to its entries drawn (each closed again after, unmeasured, so every
    bundle opens in the same tree); 0 when there are none."""
    took = []
    for area in areas:
        area.expand()
        await drawn(app)
        for bundle in list(area.children)[skip : skip + BUNDLES]:
            t0 = time.perf_counter()
            bundle.expand()
            await drawn(app)
            took.append(time.perf_counter() - t0)
            bundle.collapse()
            await drawn(app)
        area.collapse()
        await drawn(app)
    return statistics.median(took) if took else 0.0


async def measure(root: Path) -> dict[str, float]:
    from kas_tui.core.package import Package
    from kas_tui.tui.app import KasApp
    from kas_tui.tui.screens.find import FindScreen
    from kas_tui.tui.widgets.nav_tree import NavTree

    class Timed(KasApp):
        CSS_PATH = real_css()
        ready_at = 0.0

        def on_ready(self) -> None:  # Textual's Ready: the first screen is drawn
            self.ready_at = time.perf_counter()

    Package.open(root, cache=True)  # warm the metadata cache, as any earlier start did
    started = time.perf_counter()
    package = Package.open(root, cache=True)
    app = Timed(package, today=dt.date(2026, 12, 1), watch=False)
    out: dict[str, float] = {}
    async with app.run_test(size=(160, 48)) as pilot:
        while not app.ready_at:
            await pilot.pause(0.01)
        out["first screen"] = app.ready_at - started
        await pilot.pause()
        tree = app.query_one(NavTree)
        areas = [n for n in tree.root.children if n.allow_expand][-2:]
        out["expand indexing"] = await expand_bundles(app, areas)  # the find index, full text
        out.update(await tree_and_body(app, pilot))
        out["expand"] = await expand_bundles(app, areas, BUNDLES)  # the next ones, all built
        await pilot.press("slash")
        screen = app.screen
        assert isinstance(screen, FindScreen)
        await pilot.pause()
        searched, shown = [], []
        for query in QUERIES:
            for end in range(1, len(query) + 1):
                event = SimpleNamespace(value=query[:end])
                t0 = time.perf_counter()
                screen.search(event)  # what one keystroke runs: find, then fill the list
                t1 = time.perf_counter()
                await pilot.pause()  # and the screen redrawn
                searched.append(t1 - t0)
                shown.append(time.perf_counter() - t0)
        for name, values in (("find", searched), ("shown", shown)):
            values.sort()
            out[f"{name} median"] = statistics.median(values)
            out[f"{name} p95"] = values[int(len(values) * 0.95) - 1]
    return out


async def tree_and_body(app, pilot) -> dict[str, float]:
    """Keys in the tree over big bundles, and the time a bundle's body takes to show."""
    from kas_tui.tui.widgets.body_pane import BodyPane
    from kas_tui.tui.widgets.nav_tree import NavTree

    tree = app.query_one(NavTree)
    body = app.query_one(BodyPane)
    tree.focus()
    areas = [n for n in tree.root.children if n.children or n.allow_expand]
    if not areas:
        return {}
    areas[0].expand()
    await pilot.pause()
    tree.move_cursor(areas[0])
    await pilot.pause()
    # the background work after the first screen (find index, full-text sync) is done:
    # a key during it is measured by the find benchmarks, not here
    while app._finder is None or any(not w.is_finished for w in app.workers):
        await pilot.pause(0.01)
    keys = []
    for _ in range(min(12, len(areas[0].children))):
        keys.append(await key_latency(app, pilot, tree))
    bodies = []
    for node in list(areas[0].children)[:5]:
        tree.move_cursor(areas[0])
        while body.rendering:
            await pilot.pause(0.005)
        await pilot.pause()
        t0 = time.perf_counter()
        tree.move_cursor(node)
        await pilot.pause()
        while body.rendering:
            await pilot.pause(0.005)
        await pilot.pause()  # and drawn
        bodies.append(time.perf_counter() - t0)
    return {
        "key median": statistics.median(keys),
        "key worst": max(keys),
        "body median": statistics.median(bodies),
    }


async def key_latency(app, pilot, tree) -> float:
    """One Down, as a terminal sends it: from the key event posted to the tree's cursor on
    the next line and that drawn (the screen's next refresh), without waiting for the
    body, which shows the selection only once the cursor rests."""
    from textual import events

    line = tree.cursor_line
    drawn = asyncio.Event()
    t0 = time.perf_counter()
    app.post_message(events.Key("down", None))
    while tree.cursor_line == line:
        await asyncio.sleep(0)
    app.call_after_refresh(drawn.set)
    await drawn.wait()
    took = time.perf_counter() - t0
    body = app.query_one("BodyPane")
    while body.rendering:  # let the body catch up before the next key: a key after a rest
        await pilot.pause(0.005)
    await pilot.pause()
    return took


def cold_start(root: Path) -> tuple[float, float]:
    """A whole ``kas-tui PATH`` process, as on the first start after install: a new
    interpreter, an empty metadata cache; seconds from launch to the first screen drawn,
    and to every document read."""
    with tempfile.TemporaryDirectory() as cache:
        return _start(root, cache)


def warm_start(root: Path) -> tuple[float, float]:
    """:func:`cold_start` with the metadata cache of an earlier start kept (median of 3)."""
    with tempfile.TemporaryDirectory() as cache:
        runs = [_start(root, cache) for _ in range(4)][1:]
    return sorted(runs)[1]


def memory() -> tuple[int, int]:
    """This process's resident and peak resident memory, MB (Linux; 0 elsewhere)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0, 0
    kb = {
        line.split(":")[0]: int(line.split()[1])
        for line in status.splitlines()
        if line.startswith(("VmRSS", "VmHWM"))
    }
    return kb.get("VmRSS", 0) // 1024, kb.get("VmHWM", 0) // 1024


LAST_MEMORY: list[tuple[int, int]] = []  # (resident, peak) of each start, in order


def _start(root: Path, cache: str) -> tuple[float, float]:
    env = dict(os.environ, KAS_TUI_CACHE_DIR=cache)
    started = time.time()
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(root)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    first, whole, resident, peak = out.split()[-4:]
    LAST_MEMORY.append((int(resident), int(peak)))
    return float(first) - started, float(whole) - started


def child(root: Path) -> None:
    """In the child process: open ``root`` as ``kas-tui`` does and print when Ready."""
    from kas_tui.core.disk import locate
    from kas_tui.core.memory import freeze_after_loads
    from kas_tui.core.records import compact_frontmatter
    from kas_tui.tui.app import KasApp, open_app

    freeze_after_loads()  # as the kas-tui command does
    compact_frontmatter()

    class Timed(KasApp):
        CSS_PATH = real_css()

        def on_ready(self) -> None:
            print(time.time(), flush=True)  # the first screen
            self.set_interval(0.005, self._read_yet)

        def _read_yet(self) -> None:
            if self.loading:  # a large package reads its documents after the first screen
                return
            if not self.read_at:
                self.read_at = time.time()
            index = self._fulltext
            synced = index is not None and 0 < index.progress[1] == index.progress[0]
            if self._finder is None or not synced or any(not w.is_finished for w in self.workers):
                return  # the find index and the full-text sync: part of what it holds
            resident, peak = memory()
            print(self.read_at, resident, peak, flush=True)
            self.exit()

        read_at = 0.0

    KasApp_init = open_app.__globals__["KasApp"]
    open_app.__globals__["KasApp"] = Timed
    try:
        app = open_app(locate(root), watch=False)
    finally:
        open_app.__globals__["KasApp"] = KasApp_init
    asyncio.run(run_headless(app))


async def run_headless(app) -> None:
    async with app.run_test(size=(160, 48)) as pilot:
        while app.is_running:
            await pilot.pause(0.01)


def huge_page_child(root: Path) -> None:
    """In the child process: open ``root`` (its huge page at once), print the seconds to
    ``?`` answered and to the page's first piece drawn, and the peak memory in MB."""
    asyncio.run(_huge_page(root))


async def _huge_page(root: Path) -> None:
    from textual import events

    from kas_tui.core.disk import locate
    from kas_tui.tui.app import open_app
    from kas_tui.tui.screens.help import HelpScreen
    from kas_tui.tui.widgets.body_pane import BodyPane

    app = open_app(locate(root), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        while app.location != "SKILL.md" or body.rendering:
            await pilot.pause(0.01)
        t0 = time.perf_counter()
        app.go("huge.md")
        app.post_message(events.Key("question_mark", "?"))  # at once, as a user would
        while not isinstance(app.screen, HelpScreen):
            await asyncio.sleep(0.001)
        await drawn(app)
        answered = time.perf_counter() - t0
        app.pop_screen()
        while body.rendering:
            await asyncio.sleep(0.001)
        await drawn(app)
        shown = time.perf_counter() - t0
    print(answered, shown, memory()[1], flush=True)


def huge_pages(sizes: list[float], tmp: Path) -> None:
    from benchmarks.generate import generate_huge_page

    for size in sizes:
        for one_paragraph in (False, True):
            kind = "one paragraph" if one_paragraph else "sections"
            root = generate_huge_page(
                tmp / f"page-{size:g}-{kind[0]}", int(size * 1e6), one_paragraph=one_paragraph
            )
            out = subprocess.run(
                [sys.executable, __file__, "--page-child", str(root)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            answered, shown, peak = out.split()[-3:]
            print(
                f"page of {size:g} MB ({kind}): ? answered {float(answered):6.2f} s   "
                f"page shown {float(shown):6.2f} s   peak {peak} MB",
                flush=True,
            )
            shutil.rmtree(root)


def report(label: str, root: Path) -> None:
    colds = sorted(cold_start(root) for _ in range(3))
    cold_memory = sorted(LAST_MEMORY[-3:])[1]
    whole = colds[1][1]
    colds = [first for first, _ in colds]
    warm, warm_whole = warm_start(root)
    warm_memory = sorted(LAST_MEMORY[-3:])[1]
    got = asyncio.run(measure(root))
    print(
        f"{label:<28} cold start {colds[1]:5.2f} s (all read {whole:5.2f} s)   "
        f"warm start {warm:5.2f} s (all read {warm_whole:5.2f} s)   "
        f"resident cold {cold_memory[0]} MB (peak {cold_memory[1]}) "
        f"warm {warm_memory[0]} MB (peak {warm_memory[1]})   first screen {got['first screen']:5.2f} s   "
        f"expand {got['expand'] * 1000:5.0f} ms (indexing {got['expand indexing'] * 1000:4.0f})   "
        f"tree key {got.get('key median', 0) * 1000:3.0f} ms (worst {got.get('key worst', 0) * 1000:3.0f})   "
        f"bundle body {got.get('body median', 0) * 1000:4.0f} ms   "
        f"keystroke: results {got['find median'] * 1000:3.0f} ms (p95 {got['find p95'] * 1000:3.0f})"
        f"  on screen {got['shown median'] * 1000:3.0f} ms (p95 {got['shown p95'] * 1000:3.0f})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000])
    parser.add_argument("--pages", type=float, nargs="*", default=[], help="huge pages, MB")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--page-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if args.page_child:
        huge_page_child(args.page_child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("KAS_TUI_CACHE_DIR", str(Path(tmp) / "cache"))
        huge_pages(args.pages, Path(tmp))
        for size in args.sizes:
            # bundles of 250 entries: a big index for the body pane to show
            root = generate_package(Path(tmp) / f"tui-{size}", size, per_bundle=250)
            past = time.time() - 3600
            for folder, _, files in os.walk(root):
                for name in files:
                    os.utime(os.path.join(folder, name), (past, past))
            report(f"generated ({size:,} docs)", root)
        if CORPUS.is_dir():
            for corpus in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
                report(f"corpus {corpus.name}", corpus)


if __name__ == "__main__":
    main()
