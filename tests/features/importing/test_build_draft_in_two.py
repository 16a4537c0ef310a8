"""Drafting a large source's folders in two processes (a folder drafted whole in one,
its pages in order beside their siblings) gives the package drafting them all in one
process gives, byte for byte, with the same notes and the same pages that failed."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.features.importing import build_draft
from kas_tui.features.importing.build import MANIFEST, build
from tests.helpers.build_sources import tree, write_sources
from tests.helpers.forked import helper_first_map

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.timezone.utc)
FOLDERS = ("billing", "incidents", "releases", "security")


def _site() -> dict[str, str | bytes]:
    """Four folders of pages opening alike (so that siblings' descriptions are kept
    apart), linking across folders, to a heading and to an image; the second folder's
    to pages the source does not hold, which a note counts after drafting, here: the
    helper drafts that folder (this process claims the first as it forks the helper,
    and waits for it to start the second), and worked out the site's address alone."""
    files: dict[str, str | bytes] = {"media/flow.png": b"\x89PNG\r\n\x1a\nnot really"}
    for f, folder in enumerate(FOLDERS):
        for n in range(6):
            other = FOLDERS[(f + 1) % len(FOLDERS)]
            gone = f", the [site page](/{folder}/gone-{n}/)" if f == 1 else ""
            files[f"{folder}/page-{n}.md"] = (
                f"# {folder.title()} page {n}\n\n"
                f"This page explains how the {folder} team handles case {n} of many.\n\n"
                f"See [the other team](../{other}/page-{n}.md#steps){gone} and "
                "![flow](../media/flow.png).\n\n## Steps\n\nDo the thing.\n"
            )
    return files


def _build(source: Path, out: Path):
    return build(source, out, now=NOW, validate=True)


@pytest.fixture
def failing_page(monkeypatch):
    """Drafting ``security/page-3.md`` fails, as a page whose frontmatter cannot be
    completed does (in whichever process drafts it)."""
    real = build_draft.draft_document

    def draft(converted, *args, **kwargs):
        if converted.source.as_posix().endswith("security/page-3.md"):
            raise ValueError("the drafted frontmatter does not read back as intended")
        return real(converted, *args, **kwargs)

    monkeypatch.setattr(build_draft, "draft_document", draft)


def test_folders_drafted_in_two_processes_make_the_same_package(
    tmp_path: Path, monkeypatch, failing_page
) -> None:
    source = write_sources(tmp_path / "src", _site())
    monkeypatch.setattr(build_draft, "PARALLEL_MIN", 10**9)
    plain = _build(source, tmp_path / "one" / "pkg")

    monkeypatch.setattr(build_draft, "PARALLEL_MIN", 1)
    calls: list[int] = []
    monkeypatch.setattr(
        build_draft, "map_chunks_in_two", helper_first_map(build_draft.map_chunks_in_two, calls)
    )
    two = _build(source, tmp_path / "two" / "pkg")

    assert calls == [len(FOLDERS)]  # one claim a folder
    assert tree(tmp_path / "two" / "pkg") == tree(tmp_path / "one" / "pkg")
    manifests = [(tmp_path / run / "pkg" / MANIFEST).read_bytes() for run in ("one", "two")]
    assert manifests[0] == manifests[1]  # the links between pages, as drafting found them
    assert two.notes == plain.notes and any("gone-" in note for note in plain.notes)
    failed = [(str(f.source), f.message) for f in two.failed]
    assert failed == [(str(f.source), f.message) for f in plain.failed]
    assert len(failed) == 1 and "security/page-3.md" in failed[0][0]
    assert "cannot be completed" in failed[0][1]
