"""Differential check of the fast body scanner against markdown-it on real Markdown.

Usage: ``python benchmarks/check_scan_corpus.py [folder ...]`` (default: every corpus
under /work/shared/corpora, when it exists, and the demo package). For every ``.md``
file it takes the body after the frontmatter, runs ``scan_body_fast`` and
``scan_body_reference``, and prints the mismatches (there must be none), the fraction
of bodies taking the fast path, and the time each takes (best of three runs, caches
cleared before each), next to one ``extract_links`` call (a single markdown-it parse;
the reference parses twice when a body has footnotes).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kas_tui.core.okf import scan as scan_module  # noqa: E402
from kas_tui.core.okf.errors import FormatError  # noqa: E402
from kas_tui.core.okf.frontmatter import find_block  # noqa: E402
from kas_tui.core.okf.links import extract_links  # noqa: E402
from kas_tui.core.okf.scan import common as scan_common  # noqa: E402
from kas_tui.core.okf.scan import scan_body, scan_body_fast, scan_body_reference  # noqa: E402

CORPORA = Path("/work/shared/corpora")
DEMO = ROOT / "demo_kb"


def bodies(folder: Path) -> list[tuple[str, str, int]]:
    """``(path, body, first_line)`` of every ``.md`` file under ``folder``."""
    found = []
    for path in sorted(folder.rglob("*.md")):
        text = path.read_bytes().decode("utf-8", errors="replace")
        text = text.removeprefix("\ufeff")
        try:
            block = find_block(text)
        except FormatError:
            block = None
        if block is None:
            found.append((str(path), text, 1))
        else:
            found.append((str(path), text[block.end :], text.count("\n", 0, block.end) + 1))
    return found


def clear_caches() -> None:
    for module in (scan_module, scan_common):
        for name in dir(module):
            cache_clear = getattr(getattr(module, name), "cache_clear", None)
            if cache_clear is not None and name != "_parser":
                cache_clear()


def check(name: str, docs: list[tuple[str, str, int]], *, show: int = 10) -> int:
    mismatches = 0
    fast = 0
    for path, body, first in docs:
        reference = scan_body_reference(body, first_line=first)
        found = scan_body_fast(body, first_line=first)
        if found is None:
            continue
        fast += 1
        if found != reference:
            mismatches += 1
            if mismatches <= show:
                print(f"MISMATCH {path}")
                for field in ("links", "footnotes", "footnote_definitions", "headings"):
                    a, b = getattr(found, field), getattr(reference, field)
                    if a != b:
                        print(f"  {field}: fast only {sorted(set(a) - set(b), key=str)[:5]}")
                        print(f"  {field}: reference only {sorted(set(b) - set(a), key=str)[:5]}")

    texts = [(body, first) for _, body, first in docs]
    timings = {}
    for label, func in (
        ("extract_links", extract_links),
        ("reference", scan_body_reference),
        ("fast path only", scan_body_fast),
        ("scan_body", scan_body),
    ):
        best = float("inf")
        for _ in range(3):
            clear_caches()  # every run sees each URL for the first time, as a check does
            start = time.perf_counter()
            for body, first in texts:
                func(body, first_line=first)
            best = min(best, time.perf_counter() - start)
        timings[label] = best

    n = len(docs) or 1
    size = sum(len(body) for _, body, _ in docs)
    print(f"{name}: {len(docs)} bodies, {size / 1e6:.1f} MB")
    print(f"  mismatches: {mismatches}")
    print(f"  fast path: {fast}/{len(docs)} = {fast / n:.1%}")
    for label, seconds in timings.items():
        print(f"  {label:15} {seconds:7.3f} s  {seconds / n * 1e6:8.1f} us/body")
    print(
        f"  speed-up of scan_body: {timings['reference'] / timings['scan_body']:.1f}x the "
        f"reference, {timings['extract_links'] / timings['scan_body']:.1f}x extract_links alone"
    )
    return mismatches


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv]
    if not folders:
        if CORPORA.is_dir():
            folders.extend(sorted(p for p in CORPORA.iterdir() if p.is_dir()))
        folders.append(DEMO)
    total = 0
    for folder in folders:
        total += check(str(folder), bodies(folder))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
