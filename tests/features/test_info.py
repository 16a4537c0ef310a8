"""``kas-tui info``: the package on one screen (issue 36, item 3)."""

from __future__ import annotations

import json
from pathlib import Path

from kas_tui.cli.main import main

DEMO = Path(__file__).resolve().parents[2] / "demo_kb" / "orbit-handbook"


def test_info_on_the_demo_counts_what_is_there(capsys) -> None:
    assert main(["info", str(DEMO), "--today", "2026-12-05", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    docs = [p for p in DEMO.rglob("*.md") if p.name not in ("index.md", "log.md", "SKILL.md")]
    assert data["documents"] == len(docs) == sum(data["types"].values())
    assert sum(data["trust"].values()) == sum(data["status"].values()) == len(docs)
    assert data["staleness"]["stale"] == 1  # plans-and-pricing, stale since 2026-10-15
    indexes = {i["path"] for i in data["indexes"]}
    assert indexes == {p.relative_to(DEMO).as_posix() for p in DEMO.rglob("index.md")}
    sizes = [i["tokens"] for i in data["indexes"]]
    assert sizes == sorted(sizes, reverse=True) and data["tokens"]["indexes"] == sum(sizes)
    assert 50 < data["tokens"]["catalog_entry"] < 500 and data["discoverable"]


def test_info_text_is_one_screen(capsys) -> None:
    assert main(["info", str(DEMO), "--today", "2026-12-05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines[1:])  # an 80×24 pane
    assert lines[1] == "39 documents in 9 bundles"
    assert lines[2].startswith("types: 9 Procedure · 8 Policy") and lines[3].startswith("  ")
    assert any("none over the 4,000-token budget" in line for line in lines)
    at = lines.index("largest indexes:")
    assert lines[at + 1].lstrip().startswith("index.md")


def test_info_on_a_folder_that_is_no_package_is_one_line(tmp_path: Path, capsys) -> None:
    assert main(["info", str(tmp_path)]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
