"""The review queue's core (kas_tui.features.review.queue, kas_tui.features.review.source_changes): one test per reason,
on small packages written in ``tmp_path`` with real-shaped frontmatter, ``today`` frozen."""

# ruff: noqa: E501  (descriptions are one long line each, as in real packages)

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.review.queue import (
    BROKEN_LINK_RULES,
    GROUPS,
    Queue,
    Row,
    group_ids,
    review_queue,
)
from kas_tui.features.review.source_changes import changed_sources, source_view
from tests.helpers.check import INDEX, doc, write_package

TODAY = dt.date(2026, 12, 1)
HUMAN = "verified:\n  - { by: human:maria.chen, at: 2026-11-02T09:00:00Z }"


def queue_of(root: Path, **options) -> Queue:
    return review_queue(Package.open(root), TODAY, **options)


def rows(queue: Queue, group: str) -> list[tuple[str, str]]:
    return [(row.path, row.detail) for row in queue.groups[group]]


def verified_doc(extra: str = "", body: str = "Read this first.\n", **fields) -> str:
    """A document verified by a human (so it is in no trust group), plus ``extra``."""
    return doc(extra=f"{HUMAN}\n{extra}".rstrip("\n"), body=body, **fields)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- lifecycle -------------------------------------------------------------------------


def test_a_clean_verified_package_has_nothing_to_review(tmp_path: Path) -> None:
    root = write_package(tmp_path, {"guide.md": verified_doc("stale_after: 2027-06-01")})
    queue = queue_of(root)
    assert queue.total == 0 and queue.rows() == []
    assert [g.id for g in GROUPS] == list(queue.groups)  # every group, empty ones too
    assert queue.documents == 1


def test_stale_since_a_date_with_its_days(tmp_path: Path) -> None:
    root = write_package(
        tmp_path,
        {
            "guide.md": verified_doc("stale_after: 2026-10-01T00:00:00Z"),
            "today.md": verified_doc("stale_after: 2026-12-01", title="Today"),
        },
    )
    queue = queue_of(root)
    assert rows(queue, "stale") == [
        ("guide.md", "stale since 2026-10-01 (61 days)"),
        ("today.md", "stale since 2026-12-01 (today)"),
    ]
    assert rows(queue, "going-stale") == []


def test_going_stale_within_the_days_asked(tmp_path: Path) -> None:
    root = write_package(
        tmp_path,
        {
            "guide.md": verified_doc("stale_after: 2026-12-20T00:00:00Z"),
            "later.md": verified_doc("stale_after: 2027-01-01", title="Later"),
        },
    )
    assert rows(queue_of(root), "going-stale") == [("guide.md", "stale on 2026-12-20 (in 19 days)")]
    assert rows(queue_of(root, soon_days=10), "going-stale") == []
    assert [p for p, _ in rows(queue_of(root, soon_days=31), "going-stale")] == [
        "guide.md",
        "later.md",
    ]
    assert rows(queue_of(root), "stale") == []


def test_never_verified_and_only_machine_verified(tmp_path: Path) -> None:
    root = write_package(
        tmp_path,
        {
            "empty.md": doc(extra="verified: []", title="Empty"),
            "machine.md": doc(
                extra="verified:\n  - { by: process:docs-sync, at: 2026-09-23T02:00:00Z }\n"
                "  - { by: kas-tui/0.3.0, at: 2026-09-24T02:00:00Z }",
                title="Machine",
            ),
            "bare.md": doc(extra="verified:\n  by: process:lint\n  at: 2026-09-23", title="Bare"),
            "human.md": verified_doc(title="Human"),
        },
    )
    queue = queue_of(root)
    assert rows(queue, "never-verified") == [
        ("empty.md", "no verified entry"),
        ("guide.md", "no verified entry"),
    ]
    assert rows(queue, "machine-verified") == [
        ("bare.md", "verified only by process:lint"),
        ("machine.md", "verified only by kas-tui/0.3.0, process:docs-sync"),
    ]


def test_old_drafts_by_generated_at_then_the_oldest_timestamp(tmp_path: Path) -> None:
    root = write_package(
        tmp_path,
        {
            "guide.md": doc(
                extra="status: draft\ngenerated: { by: kas-tui/0.3.0, at: 2026-09-01T10:00:00Z }"
            ),
            "young.md": doc(
                extra="status: draft\ngenerated: { by: human:a, at: 2026-11-20T10:00:00Z }",
                title="Young",
            ),
            "edge.md": doc(
                extra="status: draft\ngenerated: { by: human:a, at: 2026-10-31 }", title="Edge"
            ),
            "legacy.md": doc(extra="status: draft\ntimestamp: 2026-08-01", title="Legacy"),
            "checked.md": doc(
                extra="status: draft\nverified:\n  - { by: process:x, at: 2026-10-20T00:00:00Z }\n"
                "  - { by: process:x, at: 2026-07-01T00:00:00Z }",
                title="Checked",
            ),
            "undated.md": doc(extra="status: draft", title="Undated"),
        },
    )
    queue = queue_of(root)
    assert rows(queue, "old-draft") == [
        ("checked.md", "draft for 153 days (the first verified.at 2026-07-01)"),
        ("edge.md", "draft for 31 days (generated.at 2026-10-31)"),
        ("guide.md", "draft for 91 days (generated.at 2026-09-01)"),
        ("legacy.md", "draft for 122 days (timestamp 2026-08-01)"),
        ("undated.md", "draft, undated: no generated.at to tell its age"),
    ]
    # 31 days old is not older than 31 days
    assert "edge.md" not in [p for p, _ in rows(queue_of(root, draft_days=31), "old-draft")]
    assert "young.md" in [p for p, _ in rows(queue_of(root, draft_days=10), "old-draft")]
    # drafts are verified when they become stable: they are in no trust group
    assert rows(queue, "never-verified") == []
    assert rows(queue, "machine-verified") == []


def test_deprecated_and_unreadable_documents_are_in_no_lifecycle_group(tmp_path: Path) -> None:
    root = write_package(
        tmp_path,
        {
            "guide.md": doc(extra="status: deprecated\nstale_after: 2026-01-01"),
            "broken.md": "no frontmatter at all\n",
        },
    )
    queue = queue_of(root)
    for group in ("stale", "never-verified", "old-draft", "machine-verified", "going-stale"):
        assert rows(queue, group) == [], group
    assert queue.unreadable == 1 and queue.documents == 1


def test_counts_by_trust_tier_and_status(tmp_path: Path) -> None:
    root = write_package(
        tmp_path,
        {
            "a.md": verified_doc(title="A"),
            "b.md": doc(extra="status: draft", title="B"),
            "c.md": doc(
                extra="status: deprecated\nverified: { by: process:x, at: 2026-01-01 }", title="C"
            ),
            "d.md": doc(extra="status: wip", title="D"),
        },
    )
    queue = queue_of(root)
    assert queue.trust == {"human-reviewed": 1, "machine-confirmed": 1, "unverified": 3}
    assert queue.status == {"draft": 1, "stable": 2, "deprecated": 1, "wip": 1}  # guide.md too
    assert queue.trust_line() == "1 human-reviewed · 1 machine-confirmed · 3 unverified"


# --- deprecated, still offered -----------------------------------------------------------


OLD = "old.md"
INDEX_WITH_OLD = INDEX + "* [Old setup](old.md) - The setup before the move to SSO.\n"


def test_deprecated_listed_without_a_note_and_noted(tmp_path: Path) -> None:
    old = verified_doc(
        "status: deprecated", title="Old setup", description="The setup before the move to SSO."
    )
    root = write_package(
        tmp_path, {OLD: old, "index.md": INDEX_WITH_OLD, "guide.md": verified_doc()}
    )
    queue = queue_of(root)
    assert [(r.path, r.detail, r.at) for r in queue.groups["deprecated-listed"]] == [
        (OLD, "listed in index.md:4 without a note", ("index.md", 4))
    ]
    noted = INDEX + "* [Old setup](old.md) - Deprecated: The setup before the move to SSO.\n"
    (root / "index.md").write_text(noted)
    assert rows(queue_of(root), "deprecated-listed") == []


def test_deprecated_linked_without_a_note_one_row_per_linking_document(tmp_path: Path) -> None:
    old = verified_doc(
        "status: deprecated", title="Old setup", description="The setup before the move to SSO."
    )
    body = "See [the old setup](old.md).\n\nAgain [old](old.md) and [here](/old.md).\n"
    noted = "The [old setup](old.md) is deprecated; use the guide.\n"
    before = "This page replaces\nthe [old setup](old.md), kept for history.\n"
    retired = verified_doc("status: deprecated", body="[old](old.md)\n", title="Retired")
    noted_index = INDEX + "* [Old setup](old.md) - Deprecated: the setup before SSO.\n"
    root = write_package(
        tmp_path,
        {
            OLD: old,
            "index.md": noted_index,
            "guide.md": verified_doc(body=body),
            "noted.md": verified_doc(body=noted, title="Noted"),
            "before.md": verified_doc(body=before, title="Before"),
            "retired.md": retired,
        },
    )
    queue = queue_of(root)
    assert [(r.path, r.detail, r.at) for r in queue.groups["deprecated-listed"]] == [
        (OLD, "linked from guide.md:9 without a note (3 links)", ("guide.md", 9))
    ]


# --- broken links ------------------------------------------------------------------------


def test_broken_links_are_what_check_finds(tmp_path: Path) -> None:
    body = "See [gone](gone.md) and [out](../../etc/passwd).\n"
    index = INDEX + "* [Missing](missing.md) - A page that is not there.\n"
    root = write_package(tmp_path, {"guide.md": verified_doc(body=body), "index.md": index})
    pkg = Package.open(root)
    queue = review_queue(pkg, TODAY)
    found = check(Package.open(root), agent_ready=True, today=TODAY, select=BROKEN_LINK_RULES)
    assert sorted((f.path, f.line) for f in found.findings) == sorted(
        r.at for r in queue.groups["broken-link"]
    )
    assert rows(queue, "broken-link") == [
        ("guide.md", "line 9: link to 'gone.md': gone.md does not exist"),
        ("guide.md", "line 9: link to '../../etc/passwd' leaves the package"),
        ("index.md", "line 4: entry 'Missing' points at 'missing.md', which does not exist"),
    ]


# --- changed sources ---------------------------------------------------------------------


def sourced(resource: str, digest: str, *, body: str = "Read this first.\n", **fields) -> str:
    record = f"sources:\n  - resource: {resource}\n    title: the source\n    sha256: {digest}"
    return verified_doc(record, body=body, **fields)


def test_a_source_in_the_package_whose_sha256_changed(tmp_path: Path) -> None:
    old, new = b"step one\nstep two\n", b"step one\nstep 2, now with SSO\n"
    root = write_package(
        tmp_path,
        {
            "guide.md": sourced("/references/setup.txt", sha(old), body="step one\nstep two\n"),
            "notes/same.md": sourced("../references/same.txt", sha(b"same\n"), title="Same"),
        },
    )
    (root / "references").mkdir()
    (root / "references" / "setup.txt").write_bytes(old)
    (root / "references" / "same.txt").write_bytes(b"same\n")
    assert rows(queue_of(root), "changed-source") == []
    (root / "references" / "setup.txt").write_bytes(new)
    queue = queue_of(root)
    [row] = queue.groups["changed-source"]
    assert row.path == "guide.md" and row.source is not None and row.source.kind == "sha256"
    assert row.detail == (
        f"references/setup.txt changed: SHA-256 recorded {sha(old)[:12]}…, now {sha(new)[:12]}…"
    )
    view = source_view(Package.open(root), row.source)
    assert "-step two\n" in view.diff and "+step 2, now with SSO\n" in view.diff
    assert "not kept anywhere" in view.note
    (root / "references" / "setup.txt").unlink()
    [gone] = queue_of(root).groups["changed-source"]
    assert gone.source.kind == "missing"
    assert gone.detail == f"references/setup.txt is gone (recorded SHA-256 {sha(old)[:12]}…)"
    assert "no source text" in source_view(Package.open(root), gone.source).note


def test_a_source_outside_the_package_is_never_read(tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_bytes(b"changed\n")
    root = write_package(tmp_path, {"guide.md": sourced("../secret.txt", sha(b"before\n"))})
    assert rows(queue_of(root), "changed-source") == []


def test_a_binary_source_is_described_not_diffed(tmp_path: Path) -> None:
    root = write_package(tmp_path, {"guide.md": sourced("/references/scan.pdf", sha(b"old"))})
    (root / "references").mkdir()
    (root / "references" / "scan.pdf").write_bytes(b"%PDF-1.4\n\x00\x01binary")
    [row] = queue_of(root).groups["changed-source"]
    view = source_view(Package.open(root), row.source)
    assert view.diff == "" and "not text" in view.note and "kas-tui import" in view.note


def test_a_source_changed_after_the_last_verification(tmp_path: Path) -> None:
    source = (
        "sources:\n  - resource: https://wiki.example/setup\n    title: Setup (wiki)\n"
        "    last_modified: {when}"
    )
    root = write_package(
        tmp_path, {"guide.md": verified_doc(source.format(when="2026-11-20T08:00:00Z"))}
    )
    queue = queue_of(root)
    [row] = queue.groups["changed-source"]
    assert row.source.kind == "since-verified"
    assert row.detail == (
        "https://wiki.example/setup changed 2026-11-20, after the last verification on 2026-11-02"
    )
    assert "mark it verified" in source_view(Package.open(root), row.source).note
    (root / "guide.md").write_text(verified_doc(source.format(when="2026-10-01T00:00:00Z")))
    assert rows(queue_of(root), "changed-source") == []


def test_a_source_changed_since_the_last_build(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "guides").mkdir(parents=True)
    (src / "guides" / "setup.md").write_text("# Setup\n\nInstall the tool and log in.\n")
    (src / "guides" / "deploy.md").write_text("# Deploy\n\nRun the deploy script.\n")
    out = tmp_path / "out" / "help-kb"
    now = dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc)
    build(src, out, now=now, workers=1)
    pkg = Package.open(out)
    assert changed_sources(pkg) == []
    (src / "guides" / "setup.md").write_text("# Setup\n\nInstall the tool, then log in with SSO.\n")
    [change] = changed_sources(Package.open(out))
    assert change.kind == "build" and change.resource == "guides/setup.md"
    assert (
        change.detail
        == "src/guides/setup.md changed since the last build (kas-tui build again to take it)"
    )
    view = source_view(Package.open(out), change)
    assert "-Install the tool and log in.\n" in view.diff
    assert "+Install the tool, then log in with SSO.\n" in view.diff
    (src / "guides" / "deploy.md").unlink()
    kinds = {c.resource: c.kind for c in changed_sources(Package.open(out))}
    assert kinds == {"guides/setup.md": "build", "guides/deploy.md": "build-missing"}


def test_a_manifest_naming_a_file_outside_its_source_folder_is_not_read(tmp_path: Path) -> None:
    root = write_package(tmp_path, {"guide.md": verified_doc()})
    (tmp_path / "src").mkdir()
    (tmp_path / "elsewhere.md").write_text("x\n")
    manifest = {
        "version": 1,
        "source": str(tmp_path / "src"),
        "documents": {"../elsewhere.md": {"path": "guide.md", "sha256": "0" * 64}},
    }
    (root / ".kas-build.json").write_text(json.dumps(manifest))
    assert changed_sources(Package.open(root)) == []


# --- rows and names ----------------------------------------------------------------------


def test_group_names_for_fail_on() -> None:
    assert group_ids("stale, changed-source") == (["stale", "changed-source"], [])
    assert group_ids("stale,bogus,STALE") == (["stale"], ["bogus"])
    assert group_ids("all")[0] == [g.id for g in GROUPS]
    assert group_ids("") == ([], [])


def test_a_row_as_json() -> None:
    row = Row("broken-link", "guide.md", "line 8: link to 'x'", ("guide.md", 8))
    assert row.to_json() == {
        "path": "guide.md",
        "detail": "line 8: link to 'x'",
        "at": {"path": "guide.md", "line": 8},
    }
    assert row.key == ("broken-link", "guide.md", "line 8: link to 'x'")


def test_negative_days_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="0 or more"):
        queue_of(write_package(tmp_path), soon_days=-1)
