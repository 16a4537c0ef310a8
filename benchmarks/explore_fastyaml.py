"""Exhaustive differential check of the fast frontmatter reader against PyYAML.

``fast_load`` must, for every input, either step aside (``None``) or return exactly
what PyYAML returns: libyaml's ``CSafeLoader`` (what the project parses with) and the
pure-Python ``SafeLoader`` (what it falls back to without libyaml, and what edits use),
the same values of the same types in the same order, and step aside when a key repeats
(so the path that reports it runs). This script enumerates every
string up to a length over a small YAML-ish alphabet, alone and after prefixes that put
it in a value, a list item or a nested mapping, and every frontmatter block under the
given folders, and prints each disagreement. ``tests/test_fastyaml.py`` runs the same
enumeration at lengths that fit the suite; this runs it longer:

    python benchmarks/explore_fastyaml.py [--length 6] [--prefix-length 6] [folder ...]
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kas_tui.core.okf.errors import FormatError  # noqa: E402
from kas_tui.core.okf.fastyaml import fast_load  # noqa: E402
from kas_tui.core.okf.frontmatter import (  # noqa: E402
    FastLoader,
    MarkLoader,
    compose,
    construct,
    duplicate_keys,
    find_block,
)
from kas_tui.core.okf.text import decode  # noqa: E402

#: The characters YAML's structure is made of, plus a letter and a space.
ALPHABET = "k:[]{}?,'\"#- a\n"
#: What a value, a list item and a nested mapping's value are written after.
PREFIXES = ("k: ", "k:\n- ", "k:\n  k: ", "k: [", "k: {k: ")
CORPORA = Path("/work/shared/corpora")


def typed(value: Any) -> Any:
    """Value and type, recursively, so ``1 == True`` and NaN cannot hide a difference."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def _pyyaml(text: str, loader: type) -> Any:
    try:
        node = compose(text, loader=loader)
        value = typed(construct(node, loader=loader))
    except FormatError as exc:
        return f"rejected ({exc})"
    if duplicate_keys(node):  # fast_load must leave those to the path that reports them
        return f"{value} with a repeated key"
    return value


LOADERS = {"CSafeLoader": FastLoader, "SafeLoader": MarkLoader}
if not yaml.__with_libyaml__:  # FastLoader is SafeLoader then: one reference
    del LOADERS["CSafeLoader"]


def disagreement(text: str) -> str | None:
    """Why ``fast_load(text)`` differs from PyYAML, or ``None`` when it does not."""
    fast = fast_load(text)
    if fast is None:
        return None
    mine = typed(fast)
    for name, loader in LOADERS.items():
        theirs = _pyyaml(text, loader)
        if theirs != mine:
            return f"{text!r}: fast_load gives {fast!r}, {name} {theirs}"
    return None


def strings(alphabet: str, length: int, prefix: str = "") -> Iterator[str]:
    """``prefix`` followed by every string of 1 to ``length`` characters of ``alphabet``."""
    for size in range(1, length + 1):
        for chars in itertools.product(alphabet, repeat=size):
            yield prefix + "".join(chars)


def frontmatter_blocks(folder: Path) -> Iterator[tuple[Path, str]]:
    """``(file, YAML text)`` of every frontmatter block in the ``.md`` files under ``folder``."""
    for path in sorted(folder.rglob("*.md")):
        try:
            text = decode(path.read_bytes()).text
            block = find_block(text)
        except FormatError:
            continue
        if block is not None:
            yield path, text[block.yaml_start : block.yaml_end]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--length", type=int, default=6)
    parser.add_argument("--prefix-length", type=int, default=6)
    parser.add_argument("--alphabet", default=ALPHABET)
    parser.add_argument("folders", nargs="*", type=Path)
    args = parser.parse_args()
    runs = [("", args.length)] + [(prefix, args.prefix_length) for prefix in PREFIXES]
    total = 0
    for prefix, length in runs:
        started = time.perf_counter()
        count = found = 0
        for text in strings(args.alphabet, length, prefix):
            count += 1
            problem = disagreement(text)
            if problem:
                found += 1
                print("  " + problem)
        total += found
        took = time.perf_counter() - started
        print(
            f"after {prefix!r}: {count:,} inputs, {found} disagreements, {took:.1f} s", flush=True
        )
    corpora = sorted(p for p in CORPORA.iterdir() if p.is_dir()) if CORPORA.is_dir() else []
    for folder in args.folders or corpora:
        started = time.perf_counter()
        blocks = list(frontmatter_blocks(folder))
        found = 0
        for path, text in blocks:
            problem = disagreement(text)
            if problem:
                found += 1
                print(f"  {path}: {problem}")
        total += found
        took = time.perf_counter() - started
        print(f"{folder}: {len(blocks):,} blocks, {found} disagreements, {took:.1f} s")
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
