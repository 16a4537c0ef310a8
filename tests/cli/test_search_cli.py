"""``kas-tui search PKG QUERY``: output formats, exit codes, and the index it keeps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.core.user_dirs import cache_dir, package_cache_file
from kas_tui.features.find.fulltext import FullTextIndex

RUNBOOK = "security/secrets-rotation-runbook.md"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main(["search", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_names_path_line_title_and_the_line(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, root, "rotate", "stripe")
    assert code == 0, err
    first, shown = out.splitlines()[:2]
    path, rest = first.split(":", 1)
    number, title = rest.split("  ", 1)
    assert path == RUNBOOK and title == "Secrets rotation runbook"
    line = (root / path).read_text(encoding="utf-8").split("\n")[int(number) - 1]
    assert shown.startswith("    ") and shown.strip() == line.strip()
    assert "\x1b[" not in out  # no colour when not a terminal


def test_results_are_the_index_s_best_first(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, root, "refund", "--limit", "4")
    assert code == 0
    paths = [line.split(":", 1)[0] for line in out.splitlines() if not line.startswith("    ")]
    index = FullTextIndex(root)
    assert paths == [hit.path for hit in index.search("refund", limit=4).hits]
    assert len(paths) == 4
    index.close()


def test_json_output(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, root, '"dual credential"', "--format", "json", "--limit", "3")
    assert code == 0
    data = json.loads(out)
    assert data["query"] == '"dual credential"' and data["indexed"] == 39
    (hit,) = data["results"]
    assert hit["path"] == RUNBOOK and hit["field"] == "body"
    assert [hit["text"][a:b] for a, b in hit["spans"]] == ["dual", "credential"]
    line = (root / RUNBOOK).read_text(encoding="utf-8").split("\n")[hit["line"] - 1]
    assert line == "## The dual-credential rule" == hit["text"]
    assert set(hit) == {"path", "line", "title", "field", "text", "spans", "score"}


def test_exit_1_when_nothing_matches(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, root, "zzyzx")
    assert (code, out) == (1, "") and "zzyzx" in err
    code, out, _ = run(capsys, root, "zzyzx", "--format", "json")
    assert code == 1 and json.loads(out)["results"] == []


@pytest.mark.parametrize("query", ['"', "AND", "((", "-", "*", "NEAR(", "title:x"])
def test_hostile_queries_exit_0_or_1_never_2(
    root: Path, capsys: pytest.CaptureFixture[str], query: str
) -> None:
    code, _, err = run(capsys, root, query)
    assert code in (0, 1) and "Traceback" not in err


def test_exit_2_on_usage_and_io_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, tmp_path / "missing", "x")
    assert code == 2 and "kas-tui search:" in err
    assert run(capsys, tmp_path)[0] == 2  # no query
    assert run(capsys, tmp_path, "x", "--limit", "0")[0] == 2
    assert run(capsys, tmp_path, "x", "--format", "xml")[0] == 2


def test_the_index_is_kept_in_the_cache_folder_and_follows_edits(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, root, "stripe")[0] == 0
    (found,) = list(cache_dir().glob("fulltext-*.sqlite3"))
    assert found == package_cache_file(root, "fulltext", ".sqlite3")
    doc = root / "oncall/oncall-faq.md"
    doc.write_bytes(doc.read_bytes() + b"\nThe capybara protocol applies.\n")
    code, out, _ = run(capsys, root, "capybara")
    assert code == 0 and out.startswith("oncall/oncall-faq.md:")
    doc.unlink()
    assert run(capsys, root, "capybara")[0] == 1


def test_a_damaged_index_is_rebuilt_and_said_so(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, root, "stripe")[0] == 0
    path = package_cache_file(root, "fulltext", ".sqlite3")
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"garbage" * 1000)
    code, out, err = run(capsys, root, "rotate", "stripe")
    assert code == 0 and out.startswith(RUNBOOK)
    assert "unreadable" in err and "rebuilt" in err
