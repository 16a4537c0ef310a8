"""Live reload's watcher: the operating system's events, idle costing nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from kas_tui.core import watch
from kas_tui.core.watch import Changes, Watcher

DEMO = Path(__file__).resolve().parents[2] / "demo_kb" / "orbit-handbook"
DOC = "incidents/severity-levels.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(DEMO, tmp_path / "pkg")
    return tmp_path / "pkg"


@pytest.fixture
def watcher(root: Path):
    made = Watcher(root)
    if not made.uses_events:
        pytest.skip("no file events on this system")
    yield made
    made.close()


def until_changes(watcher: Watcher, limit: float = 10.0) -> Changes:
    """Poll (as the app does, on its timer) until something is reported."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        changes = watcher.poll()
        if changes:
            return changes
        threading.Event().wait(0.02)  # not a wait: the poll interval of a real app
    raise AssertionError("no change reported")


def test_idle_polls_never_walk(watcher: Watcher, monkeypatch: pytest.MonkeyPatch) -> None:
    walks = []
    monkeypatch.setattr(watch, "walk", lambda *a, **k: walks.append(a) or pytest.fail("walked"))
    for _ in range(50):
        assert not watcher.poll()
    assert walks == []


def test_another_process_editing_a_document_is_modified(
    watcher: Watcher, root: Path, monkeypatch
) -> None:
    code = (
        "import sys, pathlib; p = pathlib.Path(sys.argv[1]); "
        "p.write_text(p.read_text().replace('title: ', 'title: Outside ', 1))"
    )
    subprocess.run([sys.executable, "-c", code, str(root / DOC)], check=True)
    monkeypatch.setattr(watch, "walk", lambda *a, **k: pytest.fail("a modification walked"))
    assert until_changes(watcher) == Changes(modified=frozenset({DOC}))
    assert not watcher.poll()


def test_atomic_replace_by_an_editor_is_modified(watcher: Watcher, root: Path) -> None:
    target = root / DOC
    temp = target.with_name(".severity-levels.md.swp")
    temp.write_text(target.read_text() + "\nMore.\n")
    os.replace(temp, target)
    assert until_changes(watcher) == Changes(modified=frozenset({DOC}))


def test_files_coming_and_going(watcher: Watcher, root: Path) -> None:
    (root / "incidents" / "new-page.md").write_text("---\ntype: FAQ\ntitle: New\n---\n")
    assert until_changes(watcher).added == {"incidents/new-page.md"}
    shutil.rmtree(root / "incidents")
    gone: set[str] = set()
    while "incidents/" not in gone:  # a tree can go in several reports
        gone |= until_changes(watcher).removed
    assert {DOC, "incidents/index.md"} <= gone


def test_new_folder_with_files_is_seen(watcher: Watcher, root: Path) -> None:
    made = root / "billing" / "refunds"
    made.mkdir(parents=True)
    (made / "policy.md").write_text("---\ntype: Policy\ntitle: Refunds\n---\n")
    seen: set[str] = set()
    deadline = time.monotonic() + 10
    while "billing/refunds/policy.md" not in seen and time.monotonic() < deadline:
        seen |= until_changes(watcher).added
    assert {"billing/", "billing/refunds/", "billing/refunds/policy.md"} <= seen


def test_hidden_files_are_not_news(watcher: Watcher, root: Path) -> None:
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "index.md").write_text((root / "index.md").read_text() + "\n")
    assert until_changes(watcher) == Changes(modified=frozenset({"index.md"}))


def test_own_writes_settle(watcher: Watcher, root: Path) -> None:
    """After settle(), the events of writes made before it report nothing."""
    (root / DOC).write_text((root / DOC).read_text() + "\nOurs.\n")
    watcher.settle()
    (root / "index.md").write_text((root / "index.md").read_text() + "\n")
    assert until_changes(watcher) == Changes(modified=frozenset({"index.md"}))


def test_without_events_each_poll_walks(root: Path) -> None:
    polling = Watcher(root, events=False)
    assert not polling.uses_events
    assert not polling.poll()
    (root / DOC).write_text((root / DOC).read_text() + "\nMore.\n")
    assert polling.poll() == Changes(modified=frozenset({DOC}))


def test_no_events_to_be_had_falls_back_to_walking(root: Path, monkeypatch) -> None:
    monkeypatch.setattr(watch, "_os_events", lambda root: None)  # no inotify slots left
    fallback = Watcher(root)
    assert not fallback.uses_events
    (root / DOC).write_text((root / DOC).read_text() + "\nMore.\n")
    assert fallback.poll() == Changes(modified=frozenset({DOC}))
