"""The headless core never imports Textual (the CLI and other tools use it without a TUI)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CORE = [
    "kas_tui.okf",
    "kas_tui.okf.errors",
    "kas_tui.okf.text",
    "kas_tui.okf.frontmatter",
    "kas_tui.okf.yaml_patch",
    "kas_tui.okf.index",
    "kas_tui.okf.log",
    "kas_tui.okf.skill",
    "kas_tui.okf.links",
    "kas_tui.okf.link_parser",
    "kas_tui.loader",
    "kas_tui.package",
    "kas_tui.store",
    "kas_tui.editing",
    "kas_tui.agent",
    "kas_tui.agent.catalog",
    "kas_tui.agent.sandbox",
    "kas_tui.agent.tools",
    "kas_tui.agent.reveal",
    "kas_tui.agent.step",
    "kas_tui.agent.summary",
    "kas_tui.agent.trail",
    "kas_tui.agent.walk",
    "kas_tui.agent.trajectory",
    "kas_tui.agent.replay",
    "kas_tui.search",
    "kas_tui.session",
    "kas_tui.config",
    "kas_tui.demo",
    "kas_tui.watch",
    "kas_tui.walk",
    "kas_tui.cache",
    "kas_tui.checks",
    "kas_tui.checks.engine",
    "kas_tui.checks.memo",
    "kas_tui.checks.fixes",
]

SCRIPT = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))))
"""


def test_core_modules_do_not_import_textual():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, *CORE],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_probe_would_see_textual():
    """The check above is meaningful: importing Textual shows up in sys.modules."""
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, "textual"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "textual" in json.loads(result.stdout)
