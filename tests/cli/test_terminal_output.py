"""No verb lets a file name or a line of a document act on the terminal (issue 30,
items 4 and 8): escape sequences and carriage returns are written out, the log stays
one line per entry, and check's own colours still pass."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kas_tui.cli import check as check_cli
from kas_tui.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo_kb" / "orbit-handbook"
#: a file name that sets the terminal's title, turns it red and overwrites the line
HOSTILE = "bad\rname\x1b]0;pwned\x07\x1b[31m"


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(tmp_path / "cache"))


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    code = main([*map(str, argv)])
    out, err = capsys.readouterr()
    return code, out + err


def assert_inert(text: str) -> None:
    assert "\x1b" not in text and "\r" not in text and "\x07" not in text, repr(text)


@pytest.mark.parametrize("dry_run", [True, False])
def test_import_of_a_hostile_file_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dry_run: bool
) -> None:
    root = tmp_path / "pkg"
    shutil.copytree(DEMO, root)
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / f"{HOSTILE}.md").write_text("# Hello\n\nText about the hello procedure.\n")
    (inbox / "fine.md").write_text("# Fine\n\nA fine text.\n")
    argv = ["import", "--into", root / "newb", *sorted(inbox.iterdir())]
    code, shown = run(capsys, *argv, *(["--dry-run"] if dry_run else []))
    assert code == 0, shown
    assert_inert(shown)
    assert "bad\\rname\\x1b]0;pwned\\x07\\x1b[31m.md" in shown
    log = (root / "log.md").read_text()
    if dry_run:
        assert "newb" not in log
    else:
        entry = next(line for line in log.splitlines() if "bad-name" in line)
        assert entry.endswith("from bad\\rname\\x1b]0;pwned\\x07\\x1b[31m.md.")
        code, shown = run(capsys, "check", root)
        assert code == 0, shown


def test_an_imported_file_named_with_a_line_break_is_one_line_of_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "pkg"
    shutil.copytree(DEMO, root)
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "new\nline.md").write_text("# NL\n\nText about the new line procedure.\n")
    code, shown = run(capsys, "import", "--into", root / "newb", *inbox.iterdir())
    assert code == 0, shown
    assert any(
        line.startswith("imported: ") and "new\\nline.md -> " in line for line in shown.splitlines()
    ), shown


@pytest.mark.parametrize("verb", [["review"], ["search", "pages about the thing"]])
def test_review_and_search_show_a_name_with_a_line_break_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], verb: list[str]
) -> None:
    root = tmp_path / "pkg"
    shutil.copytree(DEMO, root)
    (root / "billing-support" / "bad\nname.md").write_text(
        "---\ntype: FAQ\ntitle: Thing\ndescription: Pages about the thing, in words.\n---\n"
        "# Thing\n\nPages about the thing.\n"
    )
    code, shown = run(capsys, verb[0], root, *verb[1:])
    assert "billing-support/bad\\nname.md" in shown, shown
    assert not [line for line in shown.splitlines() if line.startswith("name.md")]


def test_check_writes_out_a_hostile_name_and_keeps_its_own_colours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "pkg"
    shutil.copytree(DEMO, root)
    (root / "oncall" / f"{HOSTILE}.md").write_text("no frontmatter\n")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(check_cli.sys.stdout, "isatty", lambda: True, raising=False)
    code, shown = run(capsys, "check", root)
    assert code == 1
    line = next(x for x in shown.splitlines() if "pwned" in x)
    assert "oncall/bad\\rname\\x1b]0;pwned\\x07\\x1b[31m.md" in line
    assert "\x1b[33mwarning\x1b[0m" in line  # the severity, coloured by check itself
    assert "\x07" not in shown and "\r" not in shown and "\x1b]" not in shown


def test_a_verb_that_does_not_escape_its_own_output_is_still_written_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``info`` prints the package's folder as it is: the one filter every verb writes
    through (cli/terminal.py) is what keeps it from acting on the terminal."""
    root = tmp_path / HOSTILE / "orbit-handbook"
    shutil.copytree(DEMO, root)
    code, shown = run(capsys, "info", root)
    assert code == 0
    assert_inert(shown)
    assert "\\x1b]0;pwned\\x07" in shown


def test_a_hostile_file_name_can_be_renamed_and_the_log_names_it_written_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "pkg"
    shutil.copytree(DEMO, root)
    name = "evil\x1b]0;pwned\x07.md"
    (root / "oncall" / name).write_text(
        "---\ntype: Reference\ntitle: Evil\ndescription: A page with a hostile name.\n---\nbody\n"
    )
    code, shown = run(capsys, "mv", root / "oncall" / name, root / "oncall" / "good.md")
    assert code == 0, shown
    assert_inert(shown)
    assert "oncall/evil\\x1b]0;pwned\\x07.md to oncall/good.md" in shown
    log = (root / "log.md").read_text()
    assert "from `oncall/evil\\x1b]0;pwned\\x07.md`." in log
    assert "\x1b" not in log
