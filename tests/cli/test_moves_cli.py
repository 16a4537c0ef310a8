"""kas-tui mv, split and merge: dry runs print the whole diff and write nothing; exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from kas_tui.cli.main import main
from tests.helpers.acme import changed, files


@pytest.fixture
def inside(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(root)
    return root


def test_mv_dry_run_prints_every_change_and_writes_nothing(inside: Path, capsys) -> None:
    before = files(inside)
    assert main(["mv", "incidents/severity-levels.md", "oncall/", "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert files(inside) == before
    assert out.startswith("rename incidents/severity-levels.md => oncall/severity-levels.md\n")
    for path in (
        "SKILL.md",
        "incidents/index.md",
        "oncall/index.md",
        "log.md",
        "slos/burn-rate-alerts.md",
    ):
        assert f"--- a/{path}\n+++ b/{path}\n" in out
    assert "+| How bad is this outage? | `/oncall/severity-levels.md` |" in out
    assert "nothing was written (--dry-run)" in err


def test_mv_writes_what_its_dry_run_showed(inside: Path, capsys) -> None:
    before = files(inside)
    main(["mv", "incidents/severity-levels.md", "oncall/sev.md", "--dry-run"])
    shown = capsys.readouterr().out
    assert main(["mv", "incidents/severity-levels.md", "oncall/sev.md"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("move incidents/severity-levels.md to oncall/sev.md: 1 file renamed")
    after = files(inside)
    written = {line[6:] for line in shown.splitlines() if line.startswith("+++ b/")}
    assert changed(before, after) == written | {"incidents/severity-levels.md", "oncall/sev.md"}


def test_mv_finds_the_package_from_absolute_paths(root: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    src, dst = root / "references/refund-matrix.txt", root / "billing-support/refunds"
    assert main(["mv", str(src), str(dst)]) == 0
    assert (dst / "refund-matrix.txt").is_file()
    policy = (root / "billing-support/refunds/refund-policy.md").read_text()
    assert "resource: /billing-support/refunds/refund-matrix.txt\n" in policy


@pytest.mark.parametrize(
    ("argv", "code", "says"),
    [
        (
            ["mv", "incidents/severity-levels.md", "oncall/escalation-policy.md"],
            1,
            "exists already",
        ),
        (["mv", "incidents/severity-levels.md", "../outside.md"], 1, "outside the package"),
        (["mv", "incidents/nothing.md", "oncall/"], 1, "does not exist"),
        (["mv", "SKILL.md", "x.md"], 1, "stays at the package root"),
        (["mv", "incidents/severity-levels.md"], 2, "required"),
        (["split", "oncall", "tools", "oncall-faq.md"], 2, "--description"),
        (["merge", "oncall", "oncall"], 1, "into itself"),
    ],
)
def test_refusals_and_usage_errors(inside: Path, capsys, argv, code: int, says: str) -> None:
    before = files(inside)
    assert main(argv) == code
    assert says in capsys.readouterr().err
    assert files(inside) == before


def test_a_folder_without_a_skill_needs_package(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / "a.md").write_text("---\ntype: X\n---\n")
    monkeypatch.chdir(tmp_path)
    assert main(["mv", "a.md", "b.md"]) == 2
    assert "--package" in capsys.readouterr().err
    assert main(["mv", "a.md", "b.md", "--package", ".", "--no-log"]) == 0
    assert (tmp_path / "b.md").is_file() and not (tmp_path / "log.md").exists()


def test_split_and_merge_from_the_command_line(inside: Path, capsys) -> None:
    before = files(inside)
    argv = ["split", "oncall", "tools", "pagerduty-runbook.md", "oncall/opsgenie-runbook.md"]
    assert main([*argv, "--description", "The paging tools' runbooks."]) == 0
    assert (inside / "oncall/tools/index.md").is_file()
    assert (
        "* [Tools](tools/) - The paging tools' runbooks."
        in (inside / "oncall/index.md").read_text()
    )
    assert main(["merge", "oncall/tools", "oncall", "--dry-run"]) == 0
    assert "+++ /dev/null" in capsys.readouterr().out
    assert main(["merge", "oncall/tools", "oncall"]) == 0
    assert not (inside / "oncall/tools").exists()
    back = files(inside)
    assert changed(before, back) == {"log.md", "oncall/index.md"}, (
        "only the entries' order and the log differ"
    )
