"""The headless core never imports Textual, and only the conversion workers import MarkItDown.

The modules are found by walking the package (``pkgutil.walk_packages``), so a new
module is covered the day it is added; the probe imports them in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import kas_tui

ROOT = Path(__file__).resolve().parents[1]

#: The modules that convert files in worker processes: the only ones allowed MarkItDown.
CONVERSION_WORKERS = {"kas_tui.features.importing.convert", "kas_tui.features.importing.pool"}

#: Imports each module named on the command line in turn and prints, per module, the
#: Textual and MarkItDown modules that importing it brought in.
SCRIPT = """
import importlib, json, sys
def banned():
    return {m for m in sys.modules if m.split(".")[0] in ("textual", "markitdown")}
seen, brought = banned(), {}
for name in sys.argv[1:]:
    importlib.import_module(name)
    now = banned()
    if now - seen:
        brought[name] = sorted({m.split(".")[0] for m in now - seen})
    seen = now
print(json.dumps(brought))
"""


def core_modules() -> list[str]:
    """Every module of kas_tui outside kas_tui.tui, the conversion workers last.

    ``kas_tui.__main__`` runs the program when imported; it only calls ``cli.main``.
    """
    names = ["kas_tui"] + [
        m.name
        for m in pkgutil.walk_packages(kas_tui.__path__, "kas_tui.")
        if m.name.split(".")[1] != "tui" and m.name != "kas_tui.__main__"
    ]
    return sorted(names, key=lambda n: (n in CONVERSION_WORKERS, n))


def probe(names: list[str]) -> dict[str, list[str]]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, *names],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_walk_finds_every_core_module():
    names = core_modules()
    on_disk = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "kas_tui").rglob("*.py")
        if p.relative_to(ROOT / "kas_tui").parts[0] not in ("tui", "__main__.py")
    }
    assert set(names) == on_disk


def test_core_modules_import_neither_textual_nor_markitdown():
    brought = probe(core_modules())
    textual = [name for name, mods in brought.items() if "textual" in mods]
    markitdown = [
        name
        for name, mods in brought.items()
        if "markitdown" in mods and name not in CONVERSION_WORKERS
    ]
    assert textual == [], f"importing these core modules loads Textual: {textual}"
    assert markitdown == [], f"only the conversion workers may load MarkItDown: {markitdown}"


def test_the_probe_would_see_textual_and_markitdown():
    """The check above is meaningful: importing either shows up, on the module that did."""
    assert probe(["kas_tui.core.okf", "textual", "markitdown"]) == {
        "textual": ["textual"],
        "markitdown": ["markitdown"],
    }
