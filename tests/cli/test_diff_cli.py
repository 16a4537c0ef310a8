"""``kas-tui diff``: text within 80 columns, JSON, Markdown for a pull request, and
``--fail-on new-errors`` for CI; bad usage and unreadable revisions are one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from tests.helpers.acme import make_package
from tests.helpers.diff import edit, pair, repository

TODAY = ["--today", "2026-12-05"]


def test_json_reports_every_part(tmp_path: Path, capsys) -> None:
    before, after = pair(tmp_path)
    assert main(["diff", str(before), str(after), "--format", "json", *TODAY]) == 0
    data = json.loads(capsys.readouterr().out)
    s = data["summary"]
    assert (s["documents_added"], s["documents_removed"], s["documents_moved"]) == (1, 1, 1)
    assert (s["entries_added"], s["entries_reworded"], s["entries_moved"]) == (1, 1, 1)
    assert s["links_broken"] == 1 and s["new_warnings"] == 1 and s["new_errors"] == 0
    assert data["documents"]["moved"][0]["old"] == "billing/invoice-disputes.md"
    tokens = data["tokens"]
    assert tokens["catalog_entry"]["after"] > tokens["catalog_entry"]["before"]
    assert s["index_tokens_delta"] == sum(i["delta"] for i in tokens["indexes"])
    assert data["findings"]["new"][0]["code"] == "OKF120"
    assert data["catalog_entry"]["changed"] is True


def test_text_is_within_80_columns(tmp_path: Path, capsys) -> None:
    before, after = pair(tmp_path)
    assert main(["diff", str(before), str(after), *TODAY]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines()), out
    assert "→ billing/invoice-disputes.md → billing/invoices.md (same body)" in out
    assert "\x1b" not in out, "no colour when not a terminal"


def test_markdown_for_a_pull_request(tmp_path: Path, capsys) -> None:
    before, after = pair(tmp_path)
    assert main(["diff", str(before), str(after), "--format", "markdown", *TODAY]) == 0
    out = capsys.readouterr().out
    assert out.startswith("### kas-tui diff: acme-kb\n")
    assert "| what the agent reads (estimated tokens) | before | after | change |" in out
    assert "<details><summary>Documents (4)</summary>" in out


def test_fail_on_new_errors(tmp_path: Path, capsys) -> None:
    before, after = pair(tmp_path)  # new warnings only
    assert main(["diff", str(before), str(after), "--fail-on", "new-errors", *TODAY]) == 0
    assert main(["diff", str(before), str(after), "--fail-on", "new-warnings", *TODAY]) == 1
    edit(after, "type: Policy", "type: [Policy]", "billing/sla-credits.md")  # an error
    assert main(["diff", str(before), str(after), *TODAY]) == 0, "no --fail-on: exit 0"
    assert main(["diff", str(before), str(after), "--fail-on", "new-errors", *TODAY]) == 1
    assert main(["diff", str(after), str(before), "--fail-on", "new-errors", *TODAY]) == 0
    capsys.readouterr()


def test_since_on_a_repository(tmp_path: Path, capsys) -> None:
    root = repository(tmp_path)
    assert main(["diff", str(root), "--since", "HEAD", "--format", "json", *TODAY]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["after"] == "working tree" and data["summary"]["documents_moved"] == 1


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["A"], "give two package folders (kas-tui diff A B) or one and a revision"),
        (["A", "A", "--since", "HEAD"], "give two package folders"),
        (["A", "--since", "HEAD"], "is not in a git repository; --since needs one"),
        (["A", "--since=-x"], "'-x' is not a revision"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(argv, said, tmp_path: Path, capsys) -> None:
    root = make_package(tmp_path)
    args = [str(root) if a == "A" else a for a in argv]
    assert main(["diff", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kas-tui diff: ") and said in err


def test_no_git_is_one_line(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_package(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert main(["diff", str(root), "--since", "HEAD"]) == 2
    assert capsys.readouterr().err == (
        "kas-tui diff: git is not installed; --since needs it (or give two folders)\n"
    )


def test_a_hostile_file_name_is_written_out(tmp_path: Path, capsys) -> None:
    before = make_package(tmp_path / "a")
    after = make_package(tmp_path / "b")
    (after / "evil\x1b]0;owned\x07.md").write_text("---\ntype: FAQ\n---\n\nHello.\n")
    for fmt in ("text", "markdown", "json"):
        main(["diff", str(before), str(after), "--format", fmt, *TODAY])
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out, fmt
