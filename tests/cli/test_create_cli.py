"""``kas-tui new doc|bundle|skill``: the files, the output, the exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from kas_tui.cli import main as cli
from tests.helpers.acme import changed, files
from tests.helpers.create import DESCRIPTION, RUNBOOK, fixed_clock  # noqa: F401

pytestmark = pytest.mark.usefixtures("fixed_clock")


def new(*args: object) -> int:
    return cli.main(["new", *map(str, args), "--today", "2026-11-30"])


def test_new_doc_writes_the_document_its_entry_and_a_log_entry(root: Path, capsys) -> None:
    before = files(root)
    code = new(
        "doc", root / "incidents", "--title", "Rotate the Stripe key", "--description",
        DESCRIPTION, "--type", "Runbook", "--tags", "stripe, secrets",
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert out == (
        "created incidents/rotate-the-stripe-key.md (Runbook, status: draft)\n"
        "listed in incidents/index.md, section “Runbooks”\n"
        "logged in log.md\n"
    )
    after = files(root)
    assert changed(before, after) == {
        "incidents/rotate-the-stripe-key.md",
        "incidents/index.md",
        "log.md",
    }
    assert after["incidents/rotate-the-stripe-key.md"].decode() == RUNBOOK
    assert cli.main(["check", str(root), "--agent-ready", "--today", "2026-11-30"]) == 0


def test_new_doc_takes_the_bundles_most_used_type_by_default(root: Path, capsys) -> None:
    assert new("doc", root / "incidents/postmortems", "--title", "Q3 outage", "--description",
               "What happened in the Q3 outage.") == 0  # fmt: skip
    assert "(Postmortem, status: draft)" in capsys.readouterr().out
    text = (root / "incidents/postmortems/q3-outage.md").read_text()
    assert "## Root cause" in text


def test_dry_run_prints_the_diff_and_writes_nothing(root: Path, capsys) -> None:
    before = files(root)
    code = new("doc", root / "incidents", "--title", "Rotate the Stripe key",
               "--description", DESCRIPTION, "--dry-run")  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0 and files(root) == before
    assert "--- /dev/null\n+++ b/incidents/rotate-the-stripe-key.md\n" in captured.out
    assert "+* **Creation**: Created the draft [Rotate the Stripe key]" in captured.out
    assert captured.err == "kas-tui new: dry run, nothing written\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--title", "", "--description", "D."], "--title: a title is required"),
        (["--title", "T", "--description", " "], "--description: a description is required"),
        (
            ["--title", "T", "--description", "D.", "--file", "severity-levels"],
            "--file: severity-levels is taken in incidents/",
        ),
        (
            ["--title", "T", "--description", "D.", "--file", "Bad Name"],
            "--file: lower-case letters, digits and single hyphens, as in bad-name",
        ),
    ],
)
def test_refusals_exit_1_with_the_field_and_write_nothing(
    root: Path, capsys, args: list[str], message: str
) -> None:
    before = files(root)
    assert new("doc", root / "incidents", *args) == 1
    assert capsys.readouterr().err.startswith(f"kas-tui new: {message}")
    assert files(root) == before


def test_usage_and_paths_exit_2(root: Path, capsys) -> None:
    assert new("doc", root / "incidents", "--description", "D.") == 2
    assert "the following arguments are required: --title" in capsys.readouterr().err
    assert new("doc", root / "nowhere", "--title", "T", "--description", "D.") == 2
    assert "nowhere: no such file or folder" in capsys.readouterr().err
    assert cli.main(["new"]) == 2


def test_new_bundle_makes_the_folder_its_index_and_the_parent_entry(root: Path, capsys) -> None:
    before = files(root)
    code = new("bundle", root / "incidents/drills", "--title", "Game-day drills",
               "--description", "Failover drills and game days: schedule, scripts and reports.")  # fmt: skip
    assert code == 0
    assert capsys.readouterr().out == (
        "created incidents/drills/ and incidents/drills/index.md\n"
        "listed in incidents/index.md, section “After the incident”\n"
        "logged in log.md\n"
    )
    after = files(root)
    assert after["incidents/drills/index.md"] == b"# Game-day drills\n"
    assert changed(before, after) == {"incidents/drills/index.md", "incidents/index.md", "log.md"}
    assert new("bundle", root / "incidents/drills", "--title", "T", "--description", "D.") == 1
    assert "PATH: incidents/drills already exists" in capsys.readouterr().err


def test_new_skill_for_a_folder_without_one(root: Path, capsys) -> None:
    (root / "SKILL.md").unlink()
    description = "Orbit's handbook. Use when asked how Orbit staff handle incidents."
    assert new("skill", root, "--description", description, "--name", "Orbit") == 1
    assert "--name: Skill name 'Orbit' must be lowercase" in capsys.readouterr().err
    assert not (root / "SKILL.md").exists()
    assert new("skill", root, "--description", description) == 0
    assert capsys.readouterr().out == (
        "created SKILL.md for the skill orbit-handbook\nlogged in log.md\n"
    )
    text = (root / "SKILL.md").read_text()
    assert text.startswith(f"---\nname: orbit-handbook\ndescription: {description}\n---\n\n")
    assert cli.main(["check", str(root), "--agent-ready", "--today", "2026-11-30"]) == 0
    assert new("skill", root, "--description", description) == 1
    assert "has a SKILL.md already" in capsys.readouterr().err
