"""The bundled demo: a writable copy in the user data folder, reused, reset; inside the wheel."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from kas_tui.cli import main as cli
from kas_tui.cli.main import main
from kas_tui.core.package import Package
from kas_tui.core.user_dirs import data_dir
from kas_tui.features import demo
from kas_tui.features.check import check
from kas_tui.features.demo import NAME, DemoError, bundled, copy_path, demo_copy
from tests.helpers.check import TODAY, snapshot_bytes

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo_kb" / NAME


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KAS_TUI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_first_use_copies_the_demo(data: Path) -> None:
    root = demo_copy()
    assert root == copy_path() == data / "demo" / NAME
    assert snapshot_bytes(root) == snapshot_bytes(DEMO)
    assert os.listdir(root.parent) == [NAME]  # no temporary folder left behind


def test_later_uses_keep_the_curators_edits(data: Path) -> None:
    root = demo_copy()
    (root / "log.md").write_text("# Update log\n\nmine\n")
    (root / "notes.md").write_text("added\n")
    (root / "slos" / "slo-glossary.md").unlink()
    assert demo_copy() == root
    assert (root / "log.md").read_text() == "# Update log\n\nmine\n"
    assert (root / "notes.md").is_file()
    assert not (root / "slos" / "slo-glossary.md").exists()


def test_reset_restores_the_pristine_demo(data: Path) -> None:
    root = demo_copy()
    (root / "log.md").write_text("edited\n")
    (root / "notes.md").write_text("added\n")
    shutil.rmtree(root / "slos")
    assert demo_copy(reset=True) == root
    assert snapshot_bytes(root) == snapshot_bytes(DEMO)
    assert os.listdir(root.parent) == [NAME]


def test_reset_before_any_copy(data: Path) -> None:
    assert snapshot_bytes(demo_copy(reset=True)) == snapshot_bytes(DEMO)


def test_the_installed_demo_stays_pristine(data: Path) -> None:
    before = snapshot_bytes(DEMO)
    (demo_copy() / "log.md").write_text("edited\n")
    assert snapshot_bytes(DEMO) == before


def test_the_copy_is_an_agent_ready_package(data: Path) -> None:
    package = Package.open(demo_copy(), scan=True)
    assert package.name == NAME == package.skill.name
    assert len(package.documents) == 39 and not package.all_problems()
    report = check(package, agent_ready=True, today=TODAY)
    errors = [f"{f.path}: {f.code} {f.message}" for f in report.findings if f.severity == "error"]
    assert errors == []


def test_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KAS_TUI_DATA_DIR", str(tmp_path))
    assert data_dir() == tmp_path
    monkeypatch.delenv("KAS_TUI_DATA_DIR")
    assert data_dir() == Path(platformdirs.user_data_dir("kas-tui", appauthor=False))


def test_a_checkout_uses_demo_kb() -> None:
    assert Path(str(bundled())) == DEMO


def test_a_missing_bundle_is_reported(data: Path, monkeypatch, tmp_path: Path, capsys) -> None:
    monkeypatch.setattr(demo, "__file__", str(tmp_path / "elsewhere" / "kas_tui" / "demo.py"))
    with pytest.raises(DemoError):
        bundled()
    assert main(["demo"]) == 2
    assert "missing" in capsys.readouterr().err
    assert not copy_path().exists()


# -- the command --------------------------------------------------------------------------


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders the TUI would have opened (it is not started)."""
    paths: list[Path] = []
    monkeypatch.setattr(cli, "open_tui", lambda path: paths.append(path) or 0)
    return paths


def test_no_argument_opens_the_demo_copy(data: Path, opened: list[Path]) -> None:
    assert main([]) == 0
    assert opened == [copy_path()] and copy_path().is_dir()


def test_a_path_still_opens_that_package(data: Path, opened: list[Path]) -> None:
    assert main(["some/package"]) == 0
    assert opened == [Path("some/package")]
    assert not copy_path().exists()


def test_demo_command(data: Path, opened: list[Path], capsys) -> None:
    assert main(["demo", "--print-path"]) == 0
    assert capsys.readouterr().out.strip() == str(copy_path())
    (copy_path() / "log.md").write_text("edited\n")
    assert main(["demo"]) == 0
    assert opened == [copy_path()]
    assert (copy_path() / "log.md").read_text() == "edited\n"
    assert main(["demo", "--reset"]) == 0
    assert snapshot_bytes(copy_path()) == snapshot_bytes(DEMO)
    assert main(["demo", "--help"]) == 0
    assert "--reset" in capsys.readouterr().out
    assert main(["demo", "--bogus"]) == 2


# -- the wheel ----------------------------------------------------------------------------


def test_the_wheel_carries_the_demo(tmp_path: Path) -> None:
    """setuptools' build_py (what a wheel packs) puts demo_kb/ at kas_tui/_demo; an
    installed layout then finds it with importlib.resources and copies it."""
    pytest.importorskip("setuptools")
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("kas_tui", "demo_kb"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    built = tmp_path / "built"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(built)],
        cwd=source,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert snapshot_bytes(built / "kas_tui" / "_demo" / NAME) == snapshot_bytes(DEMO)
    assert (built / "kas_tui" / "tui" / "app.tcss").is_file()

    def modules(root: Path) -> set[str]:  # the demo's own scripts are data, not modules
        found = {p.relative_to(root).as_posix() for p in root.rglob("*.py")}
        return {name for name in found if not name.startswith("_demo/")}

    def styles(root: Path) -> set[str]:  # each screen's CSS beside it, all of it shipped
        return {p.relative_to(root).as_posix() for p in root.rglob("*.tcss")}

    assert modules(built / "kas_tui") == modules(source / "kas_tui")
    assert styles(built / "kas_tui") == styles(source / "kas_tui")

    def data(root: Path) -> set[str]:  # the evaluation's data (the decoy skills)
        return {p.relative_to(root).as_posix() for p in (root / "features").rglob("*.json")}

    assert data(built / "kas_tui") == data(source / "kas_tui") != set()

    env.update(PYTHONPATH=str(built), KAS_TUI_DATA_DIR=str(tmp_path / "data"))
    probe = (
        "from kas_tui.features.demo import bundled, demo_copy; print(bundled()); print(demo_copy())"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, env=env
    )
    assert result.returncode == 0, result.stderr
    found, copy = result.stdout.split()
    assert Path(found) == built / "kas_tui" / "_demo" / NAME
    assert snapshot_bytes(Path(copy)) == snapshot_bytes(DEMO)


def test_demo_imports_no_textual() -> None:
    script = "import sys, kas_tui.features.demo; print(any(m.split('.')[0] == 'textual' for m in sys.modules))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_the_readme_first_command_opens_the_users_copy_not_the_checkout(capsys) -> None:
    """The README's first command must leave the checkout's demo_kb/ alone: it opens the
    copy in the user data folder (issue 16 item 23)."""
    readme = (ROOT / "README.md").read_text("utf-8")
    first = readme.split("```bash\n", 1)[1].split("\n", 1)[0]
    assert first == "pip install . && kas-tui demo"
    assert main(["demo", "--print-path"]) == 0
    opened = Path(capsys.readouterr().out.strip())
    assert opened.is_dir() and not opened.resolve().is_relative_to(ROOT.resolve())
