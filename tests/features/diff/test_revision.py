"""``kas-tui diff PKG --since REV``: the old side read from a git repository made in the
test, the work tree untouched; what cannot be read is one line."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from kas_tui.features.check.run import CheckOptions
from kas_tui.features.diff.compare import diff_since
from kas_tui.features.diff.revision import RevisionError, package_at
from tests.helpers.acme import FILES, make_package, snapshot
from tests.helpers.diff import git, repository

OPTIONS = CheckOptions(today=dt.date(2026, 12, 5))


def test_since_head_reports_the_work_tree_change(tmp_path: Path) -> None:
    root = repository(tmp_path)
    status = git(root, "status", "--porcelain")
    files = snapshot(root.parent.parent)
    diff = diff_since(root, "HEAD", OPTIONS)
    assert diff.before.startswith("HEAD (") and diff.after == "working tree"
    d = diff.documents
    assert (d.added, d.removed) == (["billing/sla-credits.md"], ["billing/chargebacks.md"])
    assert [(m.old, m.new) for m in d.moved] == [
        ("billing/invoice-disputes.md", "billing/invoices.md")
    ]
    assert {e.target for e in diff.indexes.entries if e.reworded} == {
        "incidents/severity-levels.md"
    }
    assert any(c.delta for c in diff.indexes.costs) and diff.catalog_changed
    assert {(x.source, x.target) for x in diff.links.broken} == {
        ("billing/sla-credits.md", "billing/calculator.md")
    }
    assert snapshot(root.parent.parent) == files, "the work tree and .git untouched"
    assert git(root, "status", "--porcelain") == status


def test_the_old_side_holds_the_committed_bytes_in_a_folder_removed_after(tmp_path: Path) -> None:
    root = repository(tmp_path)
    with package_at(root, "main") as revision:
        folder = revision.folder
        assert folder.name == "acme-kb"
        got = {
            p.relative_to(folder).as_posix(): p.read_text()
            for p in folder.rglob("*")
            if p.is_file()
        }
        assert got == {rel: text.replace("{name}", "acme-kb") for rel, text in FILES.items()}
    assert not folder.exists()


def test_a_package_at_the_top_of_its_repository(tmp_path: Path) -> None:
    repo = make_package(tmp_path)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "one")
    (repo / "glossary.md").unlink()
    git(repo, "commit", "-q", "-am", "two")
    diff = diff_since(repo, "HEAD~1", OPTIONS)
    assert diff.documents.removed == ["glossary.md"]
    assert any(x.target == "glossary.md" for x in diff.links.broken)


@pytest.mark.parametrize(
    ("rev", "said"),
    [
        ("nope", "'nope' names no commit of the repository"),
        ("--output=x", "'--output=x' is not a revision"),
    ],
)
def test_a_revision_that_names_no_commit_is_one_line(tmp_path: Path, rev: str, said: str) -> None:
    root = repository(tmp_path)
    with pytest.raises(RevisionError, match=said) as caught:
        diff_since(root, rev, OPTIONS)
    assert "\n" not in str(caught.value)


def test_a_package_the_revision_did_not_hold(tmp_path: Path) -> None:
    root = repository(tmp_path)
    moved = root.parent.parent / "new-place" / "acme-kb"
    shutil.copytree(root, moved)
    with pytest.raises(RevisionError, match="new-place/acme-kb was not in HEAD"):
        diff_since(moved, "HEAD", OPTIONS)


def test_a_folder_outside_any_repository(tmp_path: Path) -> None:
    root = make_package(tmp_path)
    with pytest.raises(RevisionError, match="is not in a git repository; --since needs one"):
        diff_since(root, "HEAD", OPTIONS)


def test_no_git_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_package(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(RevisionError, match="^git is not installed; --since needs it"):
        diff_since(root, "HEAD", OPTIONS)


def test_the_old_side_reuses_the_reads_of_unchanged_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kas_tui.features.check.run import check_loaded
    from kas_tui.features.diff import sides

    root = repository(tmp_path)
    new = sides.load(root, cache=False)
    read: list[str] = []
    real = sides.read_documents
    monkeypatch.setattr(
        sides, "read_documents", lambda r, paths, **k: read.extend(paths) or real(r, paths, **k)
    )
    with package_at(root, "HEAD") as revision:
        old = sides.load_old_side(revision.folder, revision.digests, new)
        fresh = sides.load(revision.folder, cache=False)
        # read again: what the change touched (moved, removed, changed), nothing else
        assert sorted(read) == [
            "billing/chargebacks.md",
            "billing/invoice-disputes.md",
            "incidents/severity-levels.md",
        ]
        assert old.documents.keys() == fresh.documents.keys()
        for rel, doc in fresh.documents.items():
            mine = old.documents[rel]
            assert (mine.meta, mine.body_line, mine.problems) == (
                doc.meta,
                doc.body_line,
                doc.problems,
            )
            assert old.scans.get(rel) == fresh.scans.get(rel)
            assert old.document_findings.get(rel) == fresh.document_findings.get(rel)
        options = CheckOptions(today=dt.date(2026, 12, 5), agent_ready=True)
        assert (
            check_loaded(old, options).report.findings
            == check_loaded(fresh, options).report.findings
        )
