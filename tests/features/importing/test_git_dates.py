"""kas_tui.features.importing.git_dates: a source in a git work tree is dated by its last
commit, not by its checkout."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from kas_tui.core.okf import frontmatter as fm
from kas_tui.features.importing import git_dates
from kas_tui.features.importing.build import build
from kas_tui.features.importing.git_dates import commit_times

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
PAGE = "---\ntitle: {}\n---\n\n{} explains one part of running the service.\n"


def git(repo: Path, *args: str, when: str = "2024-05-06T07:08:09+00:00") -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "GIT_AUTHOR_NAME": "A",
        "GIT_AUTHOR_EMAIL": "a@example.com",
        "GIT_COMMITTER_NAME": "A",
        "GIT_COMMITTER_EMAIL": "a@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(repo.parent),
    }
    subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)


def repository(tmp_path: Path) -> Path:
    """A repository whose docs/ has three pages committed on two days, then one edited
    and one added without a commit."""
    repo = tmp_path / "repo"
    (repo / "docs" / "deep").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "docs" / "old.md").write_text(PAGE.format("Old", "The old page"), "utf-8")
    (repo / "docs" / "edited.md").write_text(PAGE.format("Edited", "The page"), "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "first", when="2023-01-02T03:04:05+00:00")
    (repo / "docs" / "deep" / "new name.md").write_text(PAGE.format("New", "The new"), "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "second", when="2024-05-06T07:08:09+00:00")
    (repo / "docs" / "edited.md").write_text(PAGE.format("Edited", "The edited page"), "utf-8")
    (repo / "docs" / "untracked.md").write_text(PAGE.format("Loose", "The loose"), "utf-8")
    return repo


def stamp(text: str) -> float:
    return dt.datetime.fromisoformat(text).timestamp()


def test_committed_sources_have_their_commit_times_and_changed_ones_none(
    tmp_path: Path,
) -> None:
    repo = repository(tmp_path)
    files = ["old.md", "edited.md", "deep/new name.md", "untracked.md"]
    times, notes = commit_times(repo / "docs", files)
    assert times == {
        "old.md": stamp("2023-01-02T03:04:05+00:00"),
        "deep/new name.md": stamp("2024-05-06T07:08:09+00:00"),  # a space in its name
    }
    assert notes == []
    # a folder in no repository: nothing to say
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.md").write_text("a\n", "utf-8")
    assert commit_times(plain, ["a.md"]) == ({}, [])


def test_a_build_dates_its_sources_by_their_commits(tmp_path: Path) -> None:
    repo = repository(tmp_path)
    result = build(repo / "docs", tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report

    def modified(rel: str) -> str:
        parsed = fm.parse((tmp_path / "kb" / rel).read_text("utf-8"))
        assert parsed is not None
        return str(parsed.data["sources"][0]["last_modified"])

    assert modified("old.md").startswith("2023-01-02T03:04:05")
    assert modified("deep/new-name.md").startswith("2024-05-06T07:08:09")
    # not committed: its file time, which is this run's
    mtime = (repo / "docs" / "edited.md").stat().st_mtime
    day = dt.datetime.fromtimestamp(mtime, dt.UTC).strftime("%Y-%m-%d")
    assert modified("edited.md").startswith(day)


def test_git_is_asked_only_to_read(tmp_path: Path) -> None:
    """A repository's own config may name a program for git to run (``core.fsmonitor``)
    and ``git status`` may write the index: neither happens."""
    repo = repository(tmp_path)
    marker = tmp_path / "ran"
    hook = tmp_path / "monitor.sh"
    hook.write_text(f"#!/bin/sh\ntouch '{marker}'\n", "utf-8")
    hook.chmod(hook.stat().st_mode | stat.S_IEXEC)
    git(repo, "config", "core.fsmonitor", str(hook))
    index = repo / ".git" / "index"
    before = index.read_bytes(), index.stat().st_mtime_ns
    times, _notes = commit_times(repo / "docs", ["old.md"])
    assert "old.md" in times
    assert not marker.exists()
    assert (index.read_bytes(), index.stat().st_mtime_ns) == before


def test_a_history_too_long_to_read_leaves_file_times_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in for git whose ``log`` never answers (``git_whose_log_hangs``): the
    build waits ``timeout`` seconds, no more, and names what it could not date."""
    repo = repository(tmp_path)
    real = shutil.which("git")
    stand_in = tmp_path / "bin" / "git_whose_log_hangs"
    stand_in.parent.mkdir()
    stand_in.write_text(
        f'#!/bin/sh\nfor a in "$@"; do [ "$a" = log ] && exec sleep 60; done\nexec {real} "$@"\n',
        "utf-8",
    )
    stand_in.chmod(stand_in.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(git_dates.shutil, "which", lambda _name: str(stand_in))
    times, notes = commit_times(repo / "docs", ["old.md", "deep/new name.md"], timeout=1.0)
    assert times == {}
    assert len(notes) == 1 and "git's history took over 1 s to read: 2 sources" in notes[0]


def test_an_imported_file_is_dated_by_its_commit_too(tmp_path: Path) -> None:
    """``import`` and ``build`` mean one thing by ``last_modified``."""
    from kas_tui.core.package import Package
    from kas_tui.features.importing.importer import plan_import
    from tests.helpers.acme import make_package

    repo = repository(tmp_path)
    pkg = Package(make_package(tmp_path))
    pkg.load()
    plans = plan_import(pkg, [repo / "docs" / "old.md"], workers=1, now=NOW)
    assert [p.action for p in plans] == ["create"]
    draft = plans[0].draft
    assert draft is not None
    modified = str(draft.frontmatter["sources"][0]["last_modified"])
    assert modified.startswith("2023-01-02T03:04:05"), modified


def test_a_status_too_slow_to_list_leaves_file_times_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in for git whose ``status`` never answers (``git_whose_status_hangs``):
    no source is dated by a commit, and the note says why."""
    repo = repository(tmp_path)
    real = shutil.which("git")
    stand_in = tmp_path / "bin" / "git_whose_status_hangs"
    stand_in.parent.mkdir()
    stand_in.write_text(
        f'#!/bin/sh\nfor a in "$@"; do [ "$a" = status ] && exec sleep 60; done\nexec {real} "$@"\n',
        "utf-8",
    )
    stand_in.chmod(stand_in.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(git_dates.shutil, "which", lambda _name: str(stand_in))
    monkeypatch.setattr(git_dates, "TIMEOUT", 1.0)
    times, notes = commit_times(repo / "docs", ["old.md"])
    assert times == {}
    assert len(notes) == 1 and "git took over 1 s to list the changed files" in notes[0]
