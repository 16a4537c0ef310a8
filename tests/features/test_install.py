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
