"""``kas-tui check`` on hostile and unlucky packages: a finding, never a traceback.

Each test names the case of issue 30 it holds ("never hang, never half-write").
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kas_tui.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo_kb" / "orbit-handbook"


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(folder))
    return folder


def check(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main(["check", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def demo_copy(tmp_path: Path) -> Path:
    root = tmp_path / "pkg"
    shutil.copytree(DEMO, root)
    return root


@pytest.mark.parametrize("fix", [False, True])
def test_skill_md_that_is_not_utf8_is_the_finding_any_document_gets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fix: bool
) -> None:
    """Item 3: ``--agent-ready`` (and ``--fix``) raised FormatError from the SKILL.md rules."""
    root = demo_copy(tmp_path)
    skill = root / "SKILL.md"
    skill.write_bytes(skill.read_bytes() + b"\nprix \xe9tudiant\n")
    before = skill.read_bytes()
    code, out, err = check(capsys, root, "--agent-ready", *(["--fix"] if fix else []))
    assert "Traceback" not in err and "FormatError" not in out + err
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("SKILL.md")]
    assert len(lines) == 1, out
    assert "OKF002 error not valid UTF-8: byte 0xe9" in lines[0]
    assert skill.read_bytes() == before


def test_fix_does_not_list_a_document_whose_frontmatter_is_broken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 11: --fix listed it with no description, a new error (KAS033)."""
    root = demo_copy(tmp_path)
    (root / "oncall" / "broken.md").write_text("---\ntitle: [broken\ntype: Reference\n---\nbody\n")
    (root / "oncall" / "stray.md").write_text(
        "---\ntype: Reference\ntitle: Stray\ndescription: A page nobody listed yet.\n---\nbody\n"
    )
    code, out, _ = check(capsys, root, "--agent-ready", "--fix", "--hints")
    index = (root / "oncall" / "index.md").read_text()
    assert "stray.md" in index and "broken.md" not in index
    assert "KAS033" not in out
    at = out.index("KAS031 error broken.md is not listed")
    assert "Give the document a description" in out[at:].splitlines()[1]
    assert code == 1


@pytest.mark.parametrize("what", ["empty", "missing", "file"])
def test_json_output_is_json_even_when_the_check_cannot_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str
) -> None:
    """Item 15: an empty folder gave no JSON, so a pipeline parsing stdout broke."""
    import json

    target = tmp_path / "target"
    if what == "empty":
        target.mkdir()
    elif what == "file":
        target.write_text("not a folder\n")
    try:
        code = main(["check", "--format", "json", "--agent-ready", str(target)])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2
    data = json.loads(out)
    assert data["schema"] == 1 and str(target) in data["error"]
    assert data["error"] in err


def test_an_entry_with_two_sentences_is_what_the_editor_warns_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32, item 13: the entry editor warned "More than one sentence" where check
    --agent-ready reported nothing."""
    root = demo_copy(tmp_path)
    index = root / "oncall" / "index.md"
    text = index.read_text()
    line = next(x for x in text.splitlines() if "(oncall-faq.md)" in x)
    short = (
        line.split(" - ", 1)[0] + " - Answers for new responders. Read it before your first shift."
    )
    index.write_text(text.replace(line, short))
    number = text.splitlines().index(line) + 1
    code, out, _ = check(capsys, root, "--agent-ready")
    assert (
        f"oncall/index.md:{number}: KAS045 info entry description has more than one sentence" in out
    )
