"""Benchmark: YAML parsers with Python bindings on real frontmatter, and what they read.

Speed: every frontmatter block of a generated 10,000-document package and of the shared
corpora (when present), parsed by each parser in one process, best of --runs.
Values: the scalars where YAML 1.1 (PyYAML's resolver) and the YAML 1.2 core schema
differ, as each parser types them. Parsers missing from this machine are skipped:

    pip install ryaml yaml-rs     # Rust (serde_yaml / saphyr) bindings, for comparison
    python benchmarks/bench_yaml.py [--runs 5]
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.generate import generate_package  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"

#: (YAML text, the value the YAML 1.2 core schema gives it)
CORE_SCHEMA = [
    ("yes", "yes"),
    ("on", "on"),
    ("NO", "NO"),
    ("0o17", 15),
    ("012", 12),
    ("0x1F", 31),
    ("1_000", "1_000"),
    ("1:20", "1:20"),
    ("1e3", 1000.0),
    (".inf", math.inf),
    ("~", None),
    ("True", True),
    ("2026-01-02", "2026-01-02"),
    ("2026-01-02T10:00:00Z", "2026-01-02T10:00:00Z"),
]


def parsers() -> dict:
    import yaml

    from kas_tui.core.okf import fastyaml

    found = {
        "PyYAML (libyaml)": lambda text: yaml.load(text, Loader=yaml.CSafeLoader),
        "PyYAML (pure Python)": lambda text: yaml.load(text, Loader=yaml.SafeLoader),
        "kas-tui fastyaml": lambda text: _fast(fastyaml, yaml, text),
    }
    for name, module, call in (
        ("ryaml (Rust, serde_yaml)", "ryaml", "loads"),
        ("yaml_rs (Rust)", "yaml_rs", "loads"),
    ):
        try:
            found[name] = getattr(importlib.import_module(module), call)
        except ImportError:
            print(f"{name}: not installed, left out")
    return found


def _fast(fastyaml, yaml, text):
    got = fastyaml.fast_load(text)
    return got if got is not None else yaml.load(text, Loader=yaml.CSafeLoader)


def blocks(root: Path) -> list[str]:
    from kas_tui.core.okf.frontmatter import find_block

    out = []
    for path in sorted(root.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        block = find_block(text)
        if block is not None:
            out.append(text[block.yaml_start : block.yaml_end])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    candidates = parsers()
    sets = {}
    with tempfile.TemporaryDirectory() as work:
        sets["generated, 10,000"] = blocks(generate_package(Path(work) / "gen", 10000))
    for corpus in ("officedocs-support", "textual-docs"):
        if (CORPORA / corpus).is_dir():
            sets[corpus] = blocks(CORPORA / corpus)
    print("| parser | " + " | ".join(f"{k} ({len(v):,} blocks)" for k, v in sets.items()) + " |")
    for name, load in candidates.items():
        cells = []
        for texts in sets.values():
            best = math.inf
            for _ in range(args.runs):
                started = time.perf_counter()
                failed = 0
                for text in texts:
                    try:
                        load(text)
                    except Exception:  # noqa: BLE001 - counted: a parser refusing a block
                        failed += 1
                best = min(best, time.perf_counter() - started)
            per = best / len(texts) * 1e6
            cells.append(f"{per:.0f} us" + (f" ({failed} refused)" if failed else ""))
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nValues where YAML 1.1 and the 1.2 core schema differ (ok: as the core schema):")
    print("| text | core schema | " + " | ".join(candidates) + " |")
    for text, want in CORE_SCHEMA:
        cells = []
        for load in candidates.values():
            try:
                got = load(f"v: {text}\n")["v"]
            except Exception as exc:  # noqa: BLE001
                got = f"error: {type(exc).__name__}"
            ok = type(got) is type(want) and got == want
            cells.append(("ok " if ok else "") + repr(got))
        print(f"| `{text}` | {want!r} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
