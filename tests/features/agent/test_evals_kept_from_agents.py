"""The package's own question set (``evals/``, with gold pages and answers) is the
curator's: an agent being measured never lists, reads, is served or installed it."""

from __future__ import annotations

import json
from pathlib import Path

from kas_tui.cli import main as cli
from kas_tui.core.package import Package
from kas_tui.features.agent.sandbox import MISSING, Sandbox, unseen
from kas_tui.features.agent.tools import run_tool
from kas_tui.features.agent.walk import Walk


def with_evals(root: Path) -> Path:
    (root / "evals").mkdir(exist_ok=True)
    record = {
        "skill_name": "orbit-handbook",
        "evals": [{"id": 1, "prompt": "q?", "gold": ["a.md"]}],
    }
    (root / "evals" / "evals.json").write_text(json.dumps(record))
    return root


def test_the_sandbox_neither_lists_nor_reads_evals(root: Path) -> None:
    sandbox = Sandbox(with_evals(root))
    assert "evals/" not in sandbox.listdir("")
    assert sandbox.kind_of("evals") == MISSING and sandbox.kind_of("evals/evals.json") == MISSING
    files, left = sandbox.walk()
    assert not any(unseen(f) for f in files) and "SKILL.md" in files
    (gone,) = [item for item in left if item.path == "evals/"]
    assert gone.never == "given to an agent" and "eval reads it" in gone.fix
    # only the root's: a bundle's folder of that name is knowledge like any other
    assert not unseen("slos/evals/x.md") and unseen("evals/x") and unseen(".git/x")


def test_a_walk_finds_no_evals(root: Path) -> None:
    walk = Walk(Package.open(with_evals(root)))
    assert "evals/" not in walk.listdir("").text
    outcome = run_tool(Sandbox(root), "readfile", {"path": "evals/evals.json"})  # guessed
    assert outcome.status == "missing" and "gold" not in outcome.text


def test_install_leaves_evals_out_and_says_why(root: Path, tmp_path: Path, capsys) -> None:
    with_evals(root)
    project = tmp_path / "project"
    project.mkdir()
    assert cli.main(["install", str(root), "--for", "claude", "--project", str(project)]) == 0
    installed = project / ".claude" / "skills" / "orbit-handbook"
    assert (installed / "SKILL.md").is_file() and not (installed / "evals").exists()
    err = capsys.readouterr().err
    assert "skipped evals/: the package's question set, with its answers: never given to" in err
    assert "remove it" not in err
