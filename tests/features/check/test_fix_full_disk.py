"""``check --fix`` is one transaction: on a disk that fills part-way through its files,
none of them is written, the package stays byte for byte as it was, and the one-line
message says so (exit 2, no traceback).

The disk is a small tmpfs (root only; skipped with the reason elsewhere), left with one
block free: room for each file to be replaced in turn, not for the two it creates. A
read-only index.md met after other files refuses the run the same way.
"""

# ruff: noqa: E501  (descriptions are one long line each, as in real packages)

from __future__ import annotations

from pathlib import Path

import pytest

from kas_tui.cli.main import main
from tests.helpers.check import doc, write_package
from tests.helpers.full_disk import fill, free_bytes, hashes, small_disk

BLOCK = 4096

RELEASES_INDEX = """\
# Releases

* [Version 1](v1.md) - What changed in version 1 of the API and how to upgrade to it.
"""

FILES: dict[str, str | None] = {
    "log.md": None,  # created by the fix (KAS035)
    # the root index lacks releases/ and ops/ (KAS032); releases/index.md lacks v2.md (KAS031)
    "releases/index.md": RELEASES_INDEX,
    "releases/v1.md": doc(
        type="Release",
        title="Version 1",
        description="What changed in version 1 of the API and how to upgrade to it.",
    ),
    "releases/v2.md": doc(
        type="Release",
        title="Version 2",
        description="What changed in version 2 of the API and how to upgrade to it.",
    ),
    # a bundle with no index.md: created by the fix (KAS030)
    "ops/restart-api.md": doc(
        type="Runbook",
        title="Restart the API",
        description="Steps to restart the public API without dropping in-flight requests.",
    ),
}


def fix(capsys: pytest.CaptureFixture[str], root: Path) -> tuple[int, str]:
    code = main(["check", str(root), "--agent-ready", "--fix", "--today", "2026-12-01"])
    return code, capsys.readouterr().err


def test_a_fix_run_on_a_full_disk_writes_none_of_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with small_disk(tmp_path) as disk:
        root = write_package(disk, FILES)
        before = hashes(root)
        filler = fill(disk, leave=BLOCK)
        code, err = fix(capsys, root)
        assert hashes(root) == before, "releases/index.md and the rest are as they were"
        assert code == 2
        assert "Traceback" not in err
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("kas-tui check --fix: nothing was changed: "), lines
        assert "the disk is full" in lines[0]
        # with room, the same run writes every file
        filler.unlink()
        assert free_bytes(disk) > 100 * BLOCK
        code, err = fix(capsys, root)
        assert code == 0, err
        assert "v2.md" in (root / "releases/index.md").read_text()
        assert (root / "ops/index.md").is_file() and (root / "log.md").is_file()


def test_a_read_only_index_refuses_the_whole_fix_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """releases/index.md is fixed after index.md and ops/index.md: they stay as they were."""
    root = write_package(tmp_path, FILES)
    (root / "releases/index.md").chmod(0o444)
    before = hashes(root)
    code, err = fix(capsys, root)
    assert hashes(root) == before
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("kas-tui check --fix: nothing was changed: releases/index.md: "), (
        lines
    )
    assert "is read-only" in lines[0]
