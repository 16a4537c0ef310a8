"""The two packages a diff compares, loaded as ``check`` loads one (bodies scanned).

:func:`load` reads a package whose root is known (never looked for above it: a
revision's temporary folder has no SKILL.md above it). :func:`load_old_side` reads the
old side of ``--since`` without reading again what the new side already read: a
document whose bytes at the revision are the bytes of the same path in the working
package (its sha256, known from writing it out) takes the new side's read, frontmatter,
body scan and one-document findings alike, which are a function of the path and the
bytes alone (the metadata cache relies on the same). Only the documents the change
touched are read. At 10,000 documents and a small change that is most of the old
side's load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kas_tui.core.loader import DocumentRead, read_documents
from kas_tui.core.package import Package


def load(root: Path, *, cache: bool) -> Package:
    """The package whose root is ``root``, its bodies scanned (``cache``: use and keep
    the metadata cache, as ``check`` does)."""
    package = Package(root)
    package.load(scan=True, cache=cache)
    return package


def _read_of(new: Package, rel: str) -> DocumentRead | None:
    """The read ``new`` made of ``rel``, rebuilt, or ``None`` when it kept no scan of it."""
    doc = new.documents[rel]
    scan = new.scans.get(rel)
    if doc.has_frontmatter and scan is None:
        return None
    findings = new.document_findings.get(rel)
    return DocumentRead(
        rel, doc.meta, doc.has_frontmatter, doc.body_line, doc.fingerprint, list(doc.problems),
        scan, findings,
    )  # fmt: skip


def load_old_side(folder: Path, digests: dict[str, str], new: Package) -> Package:
    """The package in ``folder`` (a revision written out; ``digests``: the sha256 of each
    file written, by path), reusing ``new``'s reads of the documents with the same bytes."""

    def reader(root: Path, paths: list[str], scan: bool, sink: Any) -> list[DocumentRead]:
        kept: dict[str, DocumentRead] = {}
        for rel in paths:
            doc = new.documents.get(rel)
            digest = doc.fingerprint.digest if doc and doc.fingerprint else None
            if scan and digest is not None and digest == digests.get(rel):
                read = _read_of(new, rel)
                if read is not None:
                    kept[rel] = read
        missing = [rel for rel in paths if rel not in kept]
        fresh = {r.path: r for r in read_documents(root, missing, scan=scan)} if missing else {}
        return [kept.get(rel) or fresh[rel] for rel in paths]

    package = Package(folder)
    package.load(scan=True, reader=reader)
    return package
