"""What the pages show and the links in them, worked out for all pages at once in two
processes (:mod:`kas_tui.features.importing.build_prepare`), give the package that
working them out one page at a time gives, byte for byte, with the same notes."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.features.importing import build_prepare
from kas_tui.features.importing.build import MANIFEST, build
from tests.helpers.build_sources import article, tree, write_sources
from tests.helpers.forked import helper_first_map

NOW = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)


def _flat_docfx(pages: int) -> dict[str, str | bytes]:
    """A flat docfx folder: every page shows the product-name snippet (whose own link is
    rebased), some a nested note or a snippet that is missing; pages link to each other,
    to headings and to an image; some have a description of their own, some not."""
    files: dict[str, str | bytes] = {
        "includes/product.md": "Contoso [Books](../books-overview.md)\n",
        "includes/note.md": "> [!NOTE]\n> Back up [!INCLUDE[p](product.md)] first.\n",
        "media/flow.png": b"\x89PNG\r\n\x1a\nnot really",
        "books-overview.md": article("Books overview", "What the books do.", "# Books\n"),
    }
    for n in range(pages):
        body = (
            f"# Page {n}\n\nIn [!INCLUDE[prod](includes/product.md)], open page {n}.\n\n"
            f"See [the next page](page-{(n + 1) % pages}.md#steps) and "
            f"[the first][first].\n\n## Steps\n\n![flow](media/flow.png)\n\n"
            "[first]: page-0.md\n"
        )
        if n % 3 == 0:
            body += "\n[!INCLUDE[note](includes/note.md)]\n"
        if n % 7 == 0:
            body += "\n[!INCLUDE[gone](includes/missing.md)]\n"
        if n % 2:
            files[f"page-{n}.md"] = article(f"Page {n}", f"How to do thing {n}.", body)
        else:
            files[f"page-{n}.md"] = body
    return files


def _build(source: Path, out: Path):
    return build(source, out, now=NOW, validate=True)


def test_a_build_with_the_pages_prepared_in_two_processes_is_the_plain_build(
    tmp_path: Path, monkeypatch
) -> None:
    source = write_sources(tmp_path / "src", _flat_docfx(60))
    monkeypatch.setattr(build_prepare, "PARALLEL_MIN", 10**9)
    plain = _build(source, tmp_path / "one" / "pkg")
    assert plain.errors == 0

    monkeypatch.setattr(build_prepare, "PARALLEL_MIN", 1)
    calls: list[int] = []
    monkeypatch.setattr(
        build_prepare,
        "map_chunks_in_two",
        helper_first_map(build_prepare.map_chunks_in_two, calls, chunk=4),
    )
    prepared = _build(source, tmp_path / "two" / "pkg")

    assert calls == [61, 61]  # every page, at once: the files it names, then what it shows
    assert tree(tmp_path / "two" / "pkg") == tree(tmp_path / "one" / "pkg")
    manifests = [(tmp_path / run / "pkg" / MANIFEST).read_bytes() for run in ("one", "two")]
    assert manifests[0] == manifests[1]
    assert prepared.notes == plain.notes
    assert any("missing.md" in note for note in plain.notes)  # the includes' problems
    assert prepared.created == plain.created and prepared.errors == 0


@pytest.mark.parametrize("pages", [5, 40])
def test_below_the_threshold_nothing_is_prepared_ahead(
    tmp_path: Path, monkeypatch, pages: int
) -> None:
    source = write_sources(tmp_path / "src", _flat_docfx(pages))
    monkeypatch.setattr(build_prepare, "PARALLEL_MIN", 50)
    monkeypatch.setattr(
        build_prepare, "map_chunks_in_two", lambda *a, **k: pytest.fail("prepared ahead")
    )
    result = _build(source, tmp_path / "pkg")
    assert result.errors == 0 and len(result.created) == pages + 1
