"""``kas-tui review`` on the command line: the three formats, exit codes, --fail-on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.cli.verbs import BY_NAME
from kas_tui.features.review.queue import GROUPS
from tests.helpers.check import doc, write_package

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo_kb" / "orbit-handbook"


def cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main(["review", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def stale_package(tmp_path: Path) -> Path:
    """One stale document verified by a human, and the base guide (never verified)."""
    stale = doc(
        title="Old",
        extra="verified:\n  - { by: human:maria.chen, at: 2026-02-01T09:00:00Z }\n"
        "stale_after: 2026-10-01T00:00:00Z",
    )
    return write_package(tmp_path, {"old.md": stale})


def test_review_is_a_command() -> None:
    assert "review" in BY_NAME


def test_text_groups_and_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, stale_package(tmp_path), "--today", "2026-12-01")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "Review queue of kb on 2026-12-01: 2 rows to review",
        "2 documents · trust: 1 human-reviewed · 0 machine-confirmed · 1 unverified",
        "status: 0 draft · 2 stable · 0 deprecated",
        "groups: stale 1 · changed-source 0 · broken-link 0 · deprecated-listed 0 · "
        "house-rules 0 · going-stale 0 · old-draft 0 · never-verified 1 · machine-verified 0",
        "",
        "Stale (1)",
        "  old.md  stale since 2026-10-01 (61 days)",
        "",
        "Never verified (1)",
        "  guide.md  no verified entry",
    ]


def test_json_is_the_documented_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = stale_package(tmp_path)
    code, out, _ = cli(capsys, root, "--today", "2026-12-01", "--format", "json", "--soon", "7")
    assert code == 0
    data = json.loads(out)
    assert data["format"] == "kas-tui review" and data["version"] == 1
    assert data["root"] == str(root) and data["package"] == "kb"
    assert (data["today"], data["soon_days"], data["draft_days"]) == ("2026-12-01", 7, 30)
    assert data["documents"] == 2 and data["unreadable"] == 0 and data["total"] == 2
    assert data["trust"] == {"human-reviewed": 1, "machine-confirmed": 0, "unverified": 1}
    assert data["status"] == {"draft": 0, "stable": 2, "deprecated": 0}
    assert [g["id"] for g in data["groups"]] == [g.id for g in GROUPS]
    stale = data["groups"][0]
    assert stale == {
        "id": "stale",
        "title": "Stale",
        "count": 1,
        "rows": [{"path": "old.md", "detail": "stale since 2026-10-01 (61 days)"}],
    }
    going = next(g for g in data["groups"] if g["id"] == "going-stale")
    assert going["title"] == "Going stale within 7 days" and going["rows"] == []


def test_json_rows_say_where_and_which_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "See [gone](gone.md).\n"
    record = "sources:\n  - resource: /notes.txt\n    sha256: " + "ab" * 32
    root = write_package(tmp_path, {"guide.md": doc(extra=record, body=body)})
    (root / "notes.txt").write_text("now\n")
    code, out, _ = cli(capsys, root, "--format", "json")
    groups = {g["id"]: g["rows"] for g in json.loads(out)["groups"]}
    assert groups["broken-link"] == [
        {
            "path": "guide.md",
            "detail": "line 10: link to 'gone.md': gone.md does not exist",
            "at": {"path": "guide.md", "line": 10},
        }
    ]
    [changed] = groups["changed-source"]
    assert changed["source"] == {"resource": "/notes.txt", "kind": "sha256"}


def test_markdown_for_a_ticket(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys, stale_package(tmp_path), "--today", "2026-12-01", "--format", "markdown"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "## Review queue: kb (2026-12-01)"
    assert "| Stale | 1 |" in lines and "| Never verified | 1 |" in lines
    assert "| Drafts older than 30 days | 0 |" in lines
    assert "### Stale (1)" in lines
    assert "- [ ] `old.md`: stale since 2026-10-01 (61 days)" in lines
    assert "### Changed sources" not in out  # an empty group has its count, no section


def test_fail_on_exits_1_only_for_groups_with_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = stale_package(tmp_path)
    code, _, err = cli(capsys, root, "--today", "2026-12-01", "--fail-on", "stale,changed-source")
    assert code == 1 and err == "kas-tui review: rows in --fail-on groups: stale 1\n"
    code, _, err = cli(capsys, root, "--today", "2026-12-01", "--fail-on", "changed-source")
    assert code == 0 and err == ""
    code, _, _ = cli(capsys, root, "--today", "2026-09-01", "--fail-on", "stale")
    assert code == 0  # not stale yet on that day
    assert cli(capsys, root, "--fail-on", "all")[0] == 1


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = stale_package(tmp_path)
    code, out, err = cli(capsys, root, "--fail-on", "stale,bogus,nope")
    assert code == 2 and out == ""
    assert err.startswith("kas-tui review: --fail-on: unknown group bogus, nope; the groups are ")
    assert "changed-source" in err
    code, _, err = cli(capsys, root, "--today", "tomorrow")
    assert code == 2 and "'tomorrow' is not a date (YYYY-MM-DD)" in err
    code, _, err = cli(capsys, root, "--soon", "-3")
    assert code == 2 and "'-3' must be at least 0 days" in err
    code, _, err = cli(capsys, root, "--format", "yaml")
    assert code == 2 and "invalid choice" in err


def test_a_bad_package_path_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, tmp_path / "nowhere")
    assert code == 2 and out == ""
    assert err.startswith("kas-tui review: ") and "nowhere" in err and "Traceback" not in err
    (tmp_path / "file.md").write_text("x\n")
    code, _, err = cli(capsys, tmp_path / "file.md")
    assert code == 2 and "a file, not a folder" in err


def test_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, DEMO, "--today", "2026-11-30", "--format", "json")
    data = json.loads(out)
    counts = {g["id"]: g["count"] for g in data["groups"]}
    assert counts == {
        "stale": 1,
        "changed-source": 0,
        "broken-link": 0,
        "deprecated-listed": 0,
        "house-rules": 0,
        "going-stale": 0,
        "old-draft": 1,
        "never-verified": 3,
        "machine-verified": 4,
    }
    assert data["documents"] == 39
