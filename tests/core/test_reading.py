"""Reading many documents: the reads made by worker processes are the reads one process
makes, and a check that writes nothing hashes no file."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from kas_tui.core import loader
from kas_tui.core.disk import walk
from kas_tui.core.package import Package
from kas_tui.features.check.run import CheckOptions, check_folder
from tests.helpers.check import TODAY, doc, write_package

#: Bodies of every kind the readers tell apart: flat paragraphs of plain links (the
#: fast path), footnotes, lists, code, a link leaving the package, bad frontmatter.
BODIES = [
    "# Title\n\nSee [related](/d/doc-{next}.md) and [the policy](../index.md).\n",
    "Text with a footnote[^src1] and ![a picture](p.png).\n\n[^src1]: a note\n",
    "- a list item with [a link](doc-{next}.md)\n- and `code [x](y.md)`\n",
    "```\n[not a link](x.md)\n```\n\nA [link out](../../../outside.md).\n",
    "Setext heading\n===\n\n<https://example.com> and [ref][r]\n\n[r]: /d/doc-{next}.md\n",
]


def varied_package(tmp_path: Path, count: int) -> Path:
    files: dict[str, str | bytes | None] = {}
    for i in range(count):
        body = BODIES[i % len(BODIES)].format(next=f"{i + 1:04d}")
        if i % 97 == 13:
            files[f"d/doc-{i:04d}.md"] = "---\ntitle: [unclosed\n---\n\n" + body
        elif i % 89 == 7:
            files[f"d/doc-{i:04d}.md"] = b"\xff\xfe not UTF-8"
        else:
            extra = "sources:\n  - id: src1\n    resource: https://example.com/a"
            files[f"d/doc-{i:04d}.md"] = doc(
                title=f"Document {i}",
                description=f"What document {i} says, for test {i % 7}.",
                extra=extra,
                body=body,
            )
    return write_package(tmp_path, files)


@pytest.mark.parametrize("digests", [True, False])
def test_reads_made_by_workers_are_the_reads_of_one_process(tmp_path, digests):
    root = varied_package(tmp_path, loader.PARALLEL_MIN + 150)
    paths = walk(root).documents
    alone = loader.read_documents(root, paths, scan=True, digests=digests, workers=1)
    shared = loader.read_documents(root, paths, scan=True, digests=digests, workers=2)
    assert [read.pack() for read in shared] == [read.pack() for read in alone]
    assert [read.path for read in shared] == paths
    assert any(read.scan and read.scan.links for read in alone)
    assert any(read.problems for read in alone)


def test_reads_without_digests_differ_only_by_the_digest(tmp_path):
    root = varied_package(tmp_path, 60)
    paths = walk(root).documents
    hashed = loader.read_documents(root, paths, scan=True)
    plain = loader.read_documents(root, paths, scan=True, digests=False)
    assert all(read.fingerprint.digest for read in hashed if read.fingerprint)
    assert all(read.fingerprint.digest is None for read in plain if read.fingerprint)
    for a, b in zip(hashed, plain, strict=True):
        a.fingerprint = b.fingerprint = None
    assert hashed == plain


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of what the document reader hashes."""
    sizes: list[int] = []

    class Counting:
        @staticmethod
        def sha256(data: bytes):
            sizes.append(len(data))
            return hashlib.sha256(data)

    monkeypatch.setattr(loader, "hashlib", Counting)
    monkeypatch.setattr(loader, "PARALLEL_MIN", 10**9)  # in this process, to be counted
    return sizes


def test_a_check_that_writes_nothing_hashes_no_document(tmp_path, hashed):
    root = varied_package(tmp_path, 20)
    options = CheckOptions(agent_ready=True, today=TODAY)
    plain = check_folder(root, options, use_cache=False)
    assert hashed == []
    assert plain.package is not None and len(plain.package.documents) == 21  # guide.md too
    with_cache = check_folder(root, options, use_cache=True)  # cache entries match by content
    assert len(hashed) >= 20
    assert plain.report.findings == with_cache.report.findings
    hashed.clear()
    check_folder(root, options, use_cache=False, fix=True, dry_run=True)  # writes check contents
    assert len(hashed) >= 20


def test_a_package_opened_to_edit_keeps_its_digests(tmp_path):
    root = varied_package(tmp_path, 5)
    pkg = Package.open(root)
    assert all(d.fingerprint.digest for d in pkg.documents.values() if d.fingerprint)
