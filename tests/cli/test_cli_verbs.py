"""The verb table: ``kas-tui --help`` lists every verb with its line, by group; every verb
parses its own ``--help``; every verb that takes a package says the same one line, and
exits 2, for a path that is no package."""

from __future__ import annotations

from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.cli.verbs import GROUPS, VERBS


def test_help_lists_every_verb_with_its_line_by_group(capsys) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for verb in VERBS:
        line = next(line for line in out.splitlines() if line.startswith(f"  {verb.name} "))
        assert verb.summary in line
    positions = [out.index(f"{group}:") for group in GROUPS]
    assert positions == sorted(positions), "the groups in their order"
    for verb in VERBS:  # each verb under its own group's heading
        above = out[: out.index(f"\n  {verb.name} ")].splitlines()
        assert next(h for h in reversed(above) if not h.startswith(" ")) == f"{verb.group}:"


def test_every_verb_has_one_group_and_a_short_line() -> None:
    assert len({v.name for v in VERBS}) == len(VERBS)
    for verb in VERBS:
        assert verb.group in GROUPS
        assert 10 < len(verb.summary) <= 72, verb.name


@pytest.mark.parametrize("verb", VERBS, ids=lambda v: v.name)
def test_every_verb_has_its_own_help(verb, capsys) -> None:
    assert main([verb.name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: kas-tui {verb.name}")
    assert len(out.splitlines()) > 2, "a description and the options, not only a usage line"


#: A verb and its arguments with PATH where the package goes.
TAKES_A_PACKAGE = [
    ["check", "PATH"],
    ["review", "PATH"],
    ["search", "PATH", "word"],
    ["graph", "PATH"],
    ["diff", "PATH", "PATH"],
    ["questions", "PATH", "--out", "OUT"],
    ["eval", "PATH", "--questions", "OUT"],
    ["serve", "PATH"],
    ["install", "PATH", "--for", "claude", "--project", "OUT"],
    ["new", "doc", "PATH/x.md", "--title", "X", "--description", "Y.", "--type", "FAQ"],
]


@pytest.mark.parametrize("argv", TAKES_A_PACKAGE, ids=lambda a: a[0])
def test_a_path_that_is_no_package_is_one_line_and_exit_2(argv, tmp_path: Path, capsys) -> None:
    empty = tmp_path / "not-a-package"
    empty.mkdir()
    args = [a.replace("PATH", str(empty)).replace("OUT", str(tmp_path / "out.jsonl")) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"kas-tui {argv[0]}: ")
    assert "SKILL.md" in lines[0] or "package" in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("word", "said"),
    [
        ("checkk", "unknown command 'checkk'; did you mean check?"),
        ("instal", "unknown command 'instal'; did you mean install?"),
        ("frobnicate", "unknown command 'frobnicate'; kas-tui --help lists the commands"),
    ],
)
def test_a_mistyped_verb_is_not_read_as_a_path(
    word: str, said: str, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, item 11: 'kas-tui checkk' said '/…/checkk: no such file or folder'."""
    monkeypatch.chdir(tmp_path)
    assert main([word]) == 2
    assert capsys.readouterr().err == f"kas-tui: {said}\n"


def test_a_folder_named_like_a_verb_typo_still_opens_as_a_path(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "checkk").mkdir()
    assert main(["checkk"]) == 2  # an empty folder: it was taken as the package path
    assert "an empty folder, not a package" in capsys.readouterr().err
