"""``kas-tui install / installed / uninstall`` in a temporary home folder (issue 15.1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.features.install import CLIENT_FOLDERS, MARKER


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    return home


@pytest.mark.parametrize("client", sorted(CLIENT_FOLDERS))
def test_install_installed_uninstall_round_trip(
    client: str, root: Path, home: Path, capsys
) -> None:
    assert main(["install", str(root), "--for", client, "--user"]) == 0
    out = capsys.readouterr().out
    target = home / CLIENT_FOLDERS[client] / "orbit-handbook"
    assert f"copied to {target}" in out and "name: orbit-handbook" in out and "tokens" in out
    assert (target / "SKILL.md").read_bytes() == (root / "SKILL.md").read_bytes()
    assert (target / "incidents" / "index.md").read_bytes() == (
        root / "incidents" / "index.md"
    ).read_bytes()
    assert json.loads((target / MARKER).read_text())["source"] == str(root.resolve())
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".orbit")]  # no leftovers
    assert main(["installed"]) == 0
    listed = capsys.readouterr().out
    assert f"orbit-handbook  copy  {target}  (user) from {root.resolve()}" in listed
    assert "behind" not in listed
    (root / "incidents" / "index.md").write_text("# Changed\n")
    assert main(["installed"]) == 0
    assert "behind its source" in capsys.readouterr().out
    assert main(["uninstall", "orbit-handbook", "--for", client, "--user"]) == 0
    assert not target.exists()


def test_project_scope_and_link(root: Path, home: Path, tmp_path: Path, capsys) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    assert main(["install", str(root), "--for", "claude", "--project", str(project), "--link"]) == 0
    target = project / ".claude" / "skills" / "orbit-handbook"
    assert target.is_symlink() and target.resolve() == root.resolve()
    assert main(["installed", "--project", str(project)]) == 0
    assert "orbit-handbook  link" in capsys.readouterr().out
    # the same source again: replaced in place (a copy now), no --replace needed
    assert main(["install", str(root), "--for", "claude", "--project", str(project)]) == 0
    assert target.is_dir() and not target.is_symlink()
    assert main(["uninstall", "orbit-handbook", "--for", "claude", "--project", str(project)]) == 0
    assert not target.exists() and root.is_dir() and (root / "SKILL.md").exists()


def test_a_different_package_of_the_same_name_is_refused_without_replace(
    root: Path, home: Path, tmp_path: Path, capsys
) -> None:
    target = home / ".claude" / "skills" / "orbit-handbook"
    target.mkdir(parents=True)
    (target / "SKILL.md").write_text("---\nname: orbit-handbook\ndescription: Mine.\n---\n")
    assert main(["install", str(root), "--for", "claude", "--user"]) == 1
    err = capsys.readouterr().err
    assert "already holds a package named orbit-handbook" in err and "--replace" in err
    assert (target / "SKILL.md").read_text().endswith("Mine.\n---\n")  # untouched
    assert main(["uninstall", "orbit-handbook", "--for", "claude", "--user"]) == 1
    assert "not installed by kas-tui" in capsys.readouterr().err and target.exists()
    assert main(["install", str(root), "--for", "claude", "--user", "--replace"]) == 0
    assert (target / "SKILL.md").read_bytes() == (root / "SKILL.md").read_bytes()


def test_a_package_with_errors_is_refused_unless_forced(root: Path, home: Path, capsys) -> None:
    (root / "incidents" / "severity-levels.md").unlink()  # listed by its index: an error
    assert main(["install", str(root), "--for", "agents", "--user"]) == 1
    err = capsys.readouterr().err
    assert "under check --agent-ready" in err and "--force" in err
    assert not (home / ".agents" / "skills" / "orbit-handbook").exists()
    assert main(["install", str(root), "--for", "agents", "--user", "--force"]) == 0
    assert "warning:" in capsys.readouterr().err
    assert (home / ".agents" / "skills" / "orbit-handbook" / "SKILL.md").exists()


def test_usage_errors_say_what_is_wrong(root: Path, home: Path, capsys) -> None:
    assert main(["install", str(root), "--for", "emacs", "--user"]) == 2
    assert main(["install", str(root), "--for", "claude"]) == 2  # --user or --project
    assert main(["install", str(root / "nope"), "--for", "claude", "--user"]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_a_copy_never_follows_a_symlink_out_of_the_package(
    root: Path, home: Path, tmp_path: Path, capsys
) -> None:
    """Issue 31, item 1: the copy followed every symlink, /etc/passwd included."""
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0\n")
    (root / "incidents" / "passwd.md").symlink_to(secret)
    (root / "incidents" / "gone.md").symlink_to(root / "incidents" / "nothing-here.md")
    (root / "incidents" / "loop").symlink_to(root / "incidents", target_is_directory=True)
    (root / "incidents" / "same-severity.md").symlink_to(root / "incidents" / "severity-levels.md")
    (root / "oncall-too").symlink_to(root / "oncall", target_is_directory=True)
    code = main(["install", str(root), "--for", "claude", "--user", "--force"])
    out, err = capsys.readouterr()
    assert code == 0, err
    target = home / ".claude" / "skills" / "orbit-handbook"
    copied = {p.relative_to(target).as_posix() for p in target.rglob("*")}
    assert not any("passwd" in p or "gone" in p or p.startswith("incidents/loop") for p in copied)
    assert not any(p.is_symlink() for p in target.rglob("*"))
    assert b"root:x" not in b"".join(p.read_bytes() for p in target.rglob("*") if p.is_file())
    assert (target / "incidents" / "same-severity.md").read_bytes() == (
        root / "incidents" / "severity-levels.md"
    ).read_bytes()
    assert (target / "oncall-too" / "index.md").read_bytes() == (
        root / "oncall" / "index.md"
    ).read_bytes()
    lines = err.splitlines()
    assert (
        "kas-tui install: skipped incidents/passwd.md: a symlink leaving the package: never "
        "followed, not copied; remove it from the package" in lines
    )
    assert any(
        line.startswith("kas-tui install: skipped incidents/gone.md: a symlink to nothing")
        for line in lines
    )
    assert any(
        line.startswith("kas-tui install: skipped incidents/loop: a symlink back into")
        for line in lines
    )
    assert "[" not in err and "Traceback" not in err


def test_the_marker_names_no_ones_home(root: Path, home: Path, tmp_path: Path, capsys) -> None:
    """Issue 31, item 10: a committed project install recorded the absolute source path."""
    project = home / "work" / "proj"
    (project / "kb").mkdir(parents=True)
    inside = project / "kb" / "orbit-handbook"
    root.rename(inside)
    assert main(["install", str(inside), "--for", "claude", "--project", str(project)]) == 0
    target = project / ".claude" / "skills" / "orbit-handbook"
    marker = json.loads((target / MARKER).read_text())
    assert marker["source"] == "../../kb/orbit-handbook"
    assert str(home) not in (target / MARKER).read_text()
    assert main(["install", str(inside), "--for", "claude", "--user"]) == 0
    user_marker = json.loads((home / ".claude" / "skills" / "orbit-handbook" / MARKER).read_text())
    assert user_marker["source"] == "~/work/proj/kb/orbit-handbook"
    capsys.readouterr()
    assert main(["installed", "--project", str(project)]) == 0
    listed = capsys.readouterr().out
    assert listed.count(f"from {inside.resolve()}") == 2 and "behind" not in listed


def test_a_source_folder_named_otherwise_installs_under_the_skills_name(
    root: Path, home: Path, tmp_path: Path, capsys
) -> None:
    """Issue 31, item 11: KAS006 refused it although the copy is always named right."""
    renamed = root.rename(tmp_path / "orbit-kb-main")
    assert main(["install", str(renamed), "--for", "claude", "--user"]) == 0
    out = capsys.readouterr().out
    assert "(named orbit-handbook after SKILL.md's name; the source folder is orbit-kb-main)" in out
    assert (home / ".claude" / "skills" / "orbit-handbook" / "SKILL.md").exists()


def test_a_link_kas_tui_did_not_make_is_not_touched(
    root: Path, home: Path, tmp_path: Path, capsys
) -> None:
    """Issue 31, item 11: uninstall removed another tool's symlink."""
    folder = home / ".claude" / "skills"
    folder.mkdir(parents=True)
    (folder / "orbit-handbook").symlink_to(root, target_is_directory=True)
    assert main(["installed"]) == 0
    assert "orbit-handbook  link" in (listed := capsys.readouterr().out)
    assert "not installed by kas-tui" in listed
    assert main(["uninstall", "orbit-handbook", "--for", "claude", "--user"]) == 1
    assert (folder / "orbit-handbook").is_symlink()
    capsys.readouterr()
    assert main(["install", str(root), "--for", "claude", "--user", "--link", "--replace"]) == 0
    assert main(["installed"]) == 0
    assert f"from {root.resolve()}" in capsys.readouterr().out
    assert main(["uninstall", "orbit-handbook", "--for", "claude", "--user"]) == 0
    assert not (folder / "orbit-handbook").exists() and not list(folder.glob(".orbit*"))
