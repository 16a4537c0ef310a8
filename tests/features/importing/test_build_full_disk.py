"""A rebuild is all or nothing: on a disk that fills part-way, the package stays byte for
byte as it was, the command says so in one line (exit 2, no traceback), and the next
build, with room again, is the build the failed one would have been: none of its
writes is taken for a curator's edit.

The disk is a small tmpfs (root only; skipped with the reason elsewhere). The rebuild
writes more files than the store stages at once, so part of it is in place when the
disk fills and must be put back.
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import sys
from pathlib import Path

from kas_tui.features.importing.build import build
from tests.helpers.build_sources import tree, write_sources
from tests.helpers.full_disk import fill, free_bytes, hashes, small_disk

NOW = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.timezone.utc)
LATER = dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.timezone.utc)
REPO = Path(__file__).resolve().parents[3]
#: New pages of the second build: more than the store stages in one batch (64).
NEW = 80
BLOCK = 4096


def page(title: str, words: str) -> str:
    """A page of one block at most once drafted (its frontmatter added)."""
    sentence = f"This page explains {words} to the helpdesk team in plain words. "
    return f"# {title}\n\n" + sentence * 30 + "\n"


def first_build(source: Path, out: Path) -> None:
    write_sources(
        source,
        {
            "a-routing.md": page("Routing", "how tickets are routed"),
            "a-shifts.md": page("Shifts", "how shifts are planned"),
            "faq.md": page("FAQ", "the questions asked most often"),
            "media/logo.png": b"\x89PNG\r\n\x1a\nfake image bytes",
        },
    )
    build(source, out, now=NOW, workers=1)


def change_sources(source: Path) -> None:
    """Two pages rewritten (written first: their names sort first) and ``NEW`` added in
    a new folder (made with the first batch, so it must go again)."""
    (source / "a-routing.md").write_text(page("Routing", "how tickets are routed now"))
    (source / "a-shifts.md").write_text(page("Shifts", "how shifts are planned now"))
    (source / "media/logo.png").write_bytes(b"\x89PNG\r\n\x1a\na new logo")
    (source / "topics").mkdir()
    for n in range(NEW):
        (source / f"topics/p-{n:02}.md").write_text(page(f"Topic {n}", f"topic number {n}"))


def run_build(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kas_tui", "build", str(source), str(out), "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )


def test_a_rebuild_on_a_full_disk_changes_nothing_and_says_so(tmp_path: Path) -> None:
    with small_disk(tmp_path) as disk:
        source, out = tmp_path / "src", disk / "desk-kb"
        first_build(source, out)
        change_sources(source)
        before = hashes(out)
        # room for the first batch of files, not for the rest
        fill(disk, leave=72 * BLOCK)
        done = run_build(source, out)
        assert hashes(out) == before, "every byte of the package is as it was"
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        said = [line for line in done.stderr.splitlines() if line.startswith("kas-tui build:")]
        assert len(said) == 1, done.stderr
        assert "nothing was changed" in said[0] and "the disk is full" in said[0], said
        assert str(out) in said[0]
        assert [p.name for p in disk.iterdir() if p.name != "filler"] == ["desk-kb"]


def test_the_build_after_a_failed_one_takes_none_of_its_writes_for_a_curators(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path) as disk:
        source, out = tmp_path / "src", disk / "desk-kb"
        first_build(source, out)
        # the same package beside it (links to the sources alike), rebuilt with room
        untouched = tmp_path / "room" / "desk-kb"
        shutil.copytree(out, untouched)
        change_sources(source)
        filler = fill(disk, leave=72 * BLOCK)
        assert run_build(source, out).returncode != 0
        filler.unlink()
        assert free_bytes(disk) > 1_000_000
        result = build(source, out, now=LATER, workers=1)
        expected = build(source, untouched, now=LATER, workers=1)
        assert result.kept == [], "its own writes are never a curator's edits"
        assert result.notes == expected.notes == []
        assert sorted(result.updated) == ["a-routing.md", "a-shifts.md"]
        assert len(result.created) == NEW
        assert result.assets == 1
        assert tree(out) == tree(untouched)
        assert result.errors == 0
