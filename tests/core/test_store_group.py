"""Store.apply_group: renames and writes as one change, all or nothing, undone as one.

"Nothing half-written" is tested by making the Nth write (or rename) fail and checking
that every byte of the package, and the folders, are what they were."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from kas_tui.core import store as store_module
from kas_tui.core.edit_session import EditSession
from kas_tui.core.package import Package
from kas_tui.core.store import ConflictError, Store, StoreError, Write
from kas_tui.features.moves.planner import apply_plan, plan_move, plan_split
from tests.helpers.acme import files
from tests.helpers.moves import TODAY


def folders(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir()}


def failing_on(monkeypatch: pytest.MonkeyPatch, target, name: str, n: int, *, once: bool = True):
    """Make the ``n``-th call of ``target.name`` raise ENOSPC (every call from then on
    when not ``once``); returns the list of calls made."""
    real = getattr(target, name)
    calls: list[object] = []

    def wrapped(*args, **kwargs):
        calls.append(args[0])
        if len(calls) == n or (not once and len(calls) >= n):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, wrapped)
    return calls


def test_a_group_renames_writes_creates_and_removes_then_undoes(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a/one.md").write_bytes(b"one\n")
    (tmp_path / "a/two.md").write_bytes(b"two\n")
    (tmp_path / "gone.md").write_bytes(b"gone\n")
    os.chmod(tmp_path / "a/two.md", 0o640)
    before = files(tmp_path)
    store = Store()
    changes = store.apply_group(
        [(tmp_path / "a", tmp_path / "b/c/a")],
        [
            Write(tmp_path / "b/c/a/one.md", b"one\n", b"ONE\n"),
            Write(tmp_path / "new/made.md", None, b"made\n"),
            Write(tmp_path / "gone.md", b"gone\n", None),
        ],
        label="group",
    )
    assert [c.moved_from for c in changes] == [tmp_path / "a", None, None, None]
    assert files(tmp_path) == {
        "b/c/a/one.md": b"ONE\n",
        "b/c/a/two.md": b"two\n",
        "new/made.md": b"made\n",
    }
    assert os.stat(tmp_path / "b/c/a/two.md").st_mode & 0o777 == 0o640, "a rename keeps the mode"
    for _ in changes:
        store.undo()
    assert files(tmp_path) == before
    assert folders(tmp_path) == {"a"}, "the folders made for the group are gone again"
    for _ in changes:
        store.redo()
    assert (tmp_path / "b/c/a/one.md").read_bytes() == b"ONE\n"
    assert not (tmp_path / "a").exists()


def test_a_group_is_refused_whole_when_a_file_changed_since_the_plan(root: Path) -> None:
    pkg = Package.open(root)
    plan = plan_move(pkg, "incidents/severity-levels.md", "oncall/severity-levels.md")
    touched = next(f.path for f in plan.files if f.path.endswith("oncall-faq.md"))
    with open(root / touched, "a") as handle:
        handle.write("\nAdded by another editor.\n")
    before = files(root)
    with pytest.raises(ConflictError, match="changed on disk since this change was planned"):
        apply_plan(pkg, plan)
    assert files(root) == before
    assert pkg.store.undo_stack == []


def test_a_group_touching_a_read_only_file_writes_none_of_its_files(root: Path) -> None:
    pkg = Package.open(root)
    plan = plan_move(pkg, "incidents/severity-levels.md", "oncall/severity-levels.md")
    touched = sorted(f.path for f in plan.files if f.path.endswith(".md"))[-1]
    (root / touched).chmod(0o444)
    before = files(root)
    with pytest.raises(StoreError, match="is read-only"):
        apply_plan(pkg, plan)
    assert files(root) == before
    assert pkg.store.undo_stack == []


def test_a_group_is_refused_when_its_target_appeared(root: Path) -> None:
    pkg = Package.open(root)
    plan = plan_move(pkg, "incidents/severity-levels.md", "oncall/severity-levels.md")
    (root / "oncall/severity-levels.md").write_text("someone else's\n")
    before = files(root)
    with pytest.raises(ConflictError, match="exists on disk now"):
        apply_plan(pkg, plan)
    assert files(root) == before


@pytest.mark.parametrize(
    ("step", "n"),
    [("commit", 1), ("commit", 2), ("commit", 9), ("commit", 14), ("stage", 1), ("stage", 7)],
)
def test_a_write_failing_half_way_leaves_the_package_as_it_was(
    root: Path, monkeypatch: pytest.MonkeyPatch, step: str, n: int
) -> None:
    """The Nth file put in place (``commit``) or written beside it (``stage``) fails."""
    before, made = files(root), folders(root)
    pkg = Package.open(root)
    plan = plan_move(pkg, "incidents", "oncall/incidents", today=TODAY)
    assert len(plan.files) >= 14
    calls = failing_on(monkeypatch, store_module, step, n)
    with pytest.raises(StoreError, match="the disk is full"):
        apply_plan(pkg, plan)
    assert len(calls) > n - 1, "it failed on the write asked for"
    assert files(root) == before, "every byte is back; no temporary file is left"
    assert folders(root) == made
    assert pkg.store.undo_stack == []


def test_a_rename_failing_half_way_leaves_the_package_as_it_was(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, made = files(root), folders(root)
    pkg = Package.open(root)
    docs = ["oncall/pagerduty-runbook.md", "oncall/opsgenie-runbook.md", "oncall/oncall-faq.md"]
    plan = plan_split(pkg, "oncall", docs, "tools", description="Tools.", today=TODAY)
    failing_on(monkeypatch, os, "rename", 3)
    with pytest.raises(StoreError, match="cannot move"):
        apply_plan(pkg, plan)
    assert files(root) == before
    assert folders(root) == made, "the new bundle's folder is removed again"


def test_when_putting_back_fails_too_the_error_says_so(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pkg = Package.open(root)
    plan = plan_move(pkg, "incidents/severity-levels.md", "oncall/severity-levels.md")
    failing_on(monkeypatch, store_module, "commit", 3, once=False)
    failing_on(monkeypatch, store_module, "atomic_write", 1, once=False)  # undo's writes
    with pytest.raises(StoreError, match="could not be put back"):
        apply_plan(pkg, plan)


def test_undo_of_a_move_is_refused_whole_when_a_moved_file_changed(root: Path) -> None:
    pkg = Package.open(root)
    session = EditSession(pkg, today=TODAY)
    plan = plan_move(pkg, "incidents/severity-levels.md", "oncall/severity-levels.md")
    session.run(plan.label, lambda p: apply_plan(p, plan))
    with open(root / "oncall/oncall-faq.md", "a") as handle:
        handle.write("\nAdded after the move.\n")
    after = files(root)
    with pytest.raises(ConflictError, match="oncall-faq.md"):
        session.undo()
    assert files(root) == after, "a refused undo puts back what it had undone"
    assert session.can_undo
