"""What a path is, said the same way by every face; folders that cannot be read.

Unreadable folders are made with ``chmod 000``. Root reads them anyway, so as root the
commands run in a subprocess without the capabilities that override file permissions
(``setpriv``, keeping uid 0 so the test's own folders stay reachable).
"""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from kas_tui.cli import main as cli
from kas_tui.core.disk import PackageError, locate
from kas_tui.tui import app as tui_app
from tests.helpers.acme import make_package
from tests.helpers.unprivileged import needs_unprivileged, run_unprivileged


def kas_tui(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_unprivileged("-m", "kas_tui", *args)


@pytest.fixture
def locked(tmp_path: Path):
    """A package whose ``incidents`` folder cannot be read; permissions restored after."""
    root = make_package(tmp_path / "skills")
    locked = root / "incidents"
    locked.chmod(0)
    probe = run_unprivileged("-c", f"import os; os.listdir({str(locked)!r})")
    if probe.returncode == 0:  # pragma: no cover - depends on the machine
        locked.chmod(0o755)
        pytest.skip("cannot drop the capability to read any folder here")
    yield root
    locked.chmod(0o755)


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@needs_unprivileged
@pytest.mark.parametrize(
    "args",
    [
        ("check", "{locked}"),
        ("check", "{locked}/postmortems"),
        ("{locked}",),  # the TUI: refused before the app starts
        ("import", "{source}", "--into", "{locked}"),
        ("import", "{source}", "--into", "{locked}/new-bundle"),
        ("build", "{locked}", "{out}"),
    ],
    ids=["check", "check-inside", "tui", "import", "import-below", "build"],
)
def test_an_unreadable_folder_is_one_line_and_exit_2(
    locked: Path, tmp_path: Path, args: tuple[str, ...]
) -> None:
    source = tmp_path / "note.txt"
    source.write_text("A short note about pagers.\n")
    values = {"locked": locked / "incidents", "source": source, "out": tmp_path / "out-kb"}
    result = kas_tui(*(a.format(**values) for a in args))
    line = one_line(result)
    assert result.returncode == 2, result.stderr
    assert str(locked / "incidents") in line and "permission denied" in line
    assert not (tmp_path / "out-kb").exists()


@needs_unprivileged
def test_an_unreadable_package_root_is_one_line_and_exit_2(tmp_path: Path) -> None:
    root = make_package(tmp_path / "skills")
    root.chmod(0o111)  # reachable, not listable: SKILL.md is found, nothing else
    try:
        for args in (("check", root), (root,)):
            result = kas_tui(*args)
            assert result.returncode == 2
            assert one_line(result).endswith(
                f"{root}: cannot list the folder (permission denied); fix its permissions"
            )
    finally:
        root.chmod(0o755)


@needs_unprivileged
def test_an_unreadable_sub_folder_is_a_finding_of_check(locked: Path) -> None:
    result = kas_tui("check", locked)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1
    assert "incidents: OKF003 error cannot list folder: permission denied" in result.stdout


@needs_unprivileged
def test_the_tui_opens_a_package_with_an_unreadable_sub_folder(locked: Path) -> None:
    """``kas-tui PATH``'s own opening (locate, then open_app), in a Pilot run."""
    script = textwrap.dedent(
        f"""
        import asyncio
        from kas_tui.tui.app import open_app
        from kas_tui.core.disk import locate

        async def main():
            app = open_app(locate({str(locked)!r}), watch=False)
            async with app.run_test() as pilot:
                await pilot.press("down", "enter", "right", "f")
                await pilot.pause()
                print([m for _, m in app.messages])

        asyncio.run(main())
        """
    )
    result = run_unprivileged("-c", script)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "'incidents: cannot list folder: permission denied'" in result.stdout


def test_building_from_an_empty_folder_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "empty").mkdir()
    assert cli.main(["build", str(tmp_path / "empty"), str(tmp_path / "out-kb")]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err == f"kas-tui build: {tmp_path / 'empty'}: no files to convert in it; nothing was built"
    )
    assert not (tmp_path / "out-kb").exists()


def test_importing_a_folder_is_a_usage_error(tmp_path: Path, capsys) -> None:
    root = make_package(tmp_path / "skills")
    assert cli.main(["import", str(tmp_path), "--into", str(root / "billing")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"kas-tui import: {tmp_path}: a folder, not a file;")
    assert "\n" not in err


# --- what a path is: the same answer from check and from the TUI ---------------------------


def _cases(tmp: Path) -> dict[str, tuple[Path, Path | None, str]]:
    """name -> (path given, root opened or None, message: the note or the refusal)."""
    root = make_package(tmp / "skills")
    (tmp / "empty").mkdir()
    (tmp / "plain").mkdir()
    (tmp / "plain" / "notes.md").write_text("---\ntype: Note\n---\nA note.\n")
    (tmp / "no-markdown").mkdir()
    (tmp / "no-markdown" / "data.csv").write_text("a,b\n")
    file = root / "billing" / "refund-policy.md"
    return {
        "package root": (root, root, ""),
        "folder inside": (root / "incidents", root, ""),
        "skills folder": (tmp / "skills", root, ""),
        "no SKILL.md": (
            tmp / "plain",
            tmp / "plain",
            f"{tmp / 'plain'} has no SKILL.md: opened as OKF documents without a skill "
            "(add SKILL.md to make it one; check --agent-ready reports it)",
        ),
        "empty folder": (
            tmp / "empty",
            None,
            f"{tmp / 'empty'}: an empty folder, not a package; build one into it with "
            f"kas-tui build SOURCE_DIR {tmp / 'empty'}",
        ),
        "no Markdown": (
            tmp / "no-markdown",
            None,
            f"{tmp / 'no-markdown'} is not a package: it holds no SKILL.md, index.md or .md document",
        ),
        "file": (file, None, f"{file}: a file, not a folder; give its package's folder, {root}"),
        "nothing": (tmp / "nowhere", None, f"{tmp / 'nowhere'}: no such file or folder"),
    }


NAMES = [
    "package root",
    "folder inside",
    "skills folder",
    "no SKILL.md",
    "empty folder",
    "no Markdown",
    "file",
    "nothing",
]


@pytest.mark.parametrize("name", NAMES)
def test_check_and_the_tui_agree_on_what_a_path_is(
    name: str, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, root, message = _cases(tmp_path)[name]
    opened: list[tuple[Path, list[str]]] = []
    monkeypatch.setattr(
        tui_app.KasApp, "run", lambda app: opened.append((app.package.root, app.notes))
    )

    code = cli.main(["check", str(path)])
    check_err = capsys.readouterr().err.strip().splitlines()
    tui_code = cli.main([str(path)])
    tui_err = capsys.readouterr().err.strip().splitlines()

    if root is None:  # refused: exit 2, one line, the same words
        assert (code, tui_code) == (2, 2)
        assert check_err == [f"kas-tui check: {message}"]
        assert tui_err == [f"kas-tui: {message}"]
        assert not opened
        with pytest.raises(
            PackageError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"
        ):
            locate(path)
    else:  # opened: the same root, the same note (on stderr for check, a notice in the TUI)
        assert locate(path).root == root
        assert opened == [(root, [message] if message else [])]
        assert tui_err == []
        assert check_err[:1] == ([f"kas-tui check: {message}"] if message else check_err[:1])
        if not message:
            assert not any(line.startswith("kas-tui check:") for line in check_err)


def test_the_tree_root_says_when_there_is_no_skill_file(tmp_path: Path) -> None:
    from kas_tui.core.package import Package
    from kas_tui.tui.widgets.nav_tree import NavTree

    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "notes.md").write_text("---\ntype: Note\n---\nA note.\n")
    tree = NavTree(Package.open(tmp_path / "plain"), today=None)  # type: ignore[arg-type]
    assert tree.root.label.plain == "plain  · no SKILL.md"
    root = make_package(tmp_path / "skills")
    tree = NavTree(Package.open(root), today=None)  # type: ignore[arg-type]
    assert tree.root.label.plain == f"{root.name}  · SKILL.md"


@needs_unprivileged
def test_a_link_into_a_folder_that_cannot_be_read_says_so(locked: Path) -> None:
    """Issue 30, item 12: it was reported as "does not exist"."""
    glossary = locked / "glossary.md"
    glossary.write_text(
        glossary.read_text()
        + "\nSee [severity](/incidents/severity-levels.md) and [x](/nope.md).\n"
    )
    result = kas_tui("check", locked, "--no-cache")
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stdout.splitlines() if "OKF120" in line]
    assert any(
        "incidents/severity-levels.md is in incidents/, which cannot be read" in line
        for line in lines
    ), result.stdout
    assert any("nope.md does not exist" in line for line in lines), result.stdout
