"""What the full-text index stores of one document: its title, description, tags and
body, and the lines they start on (read from disk; the frontmatter parsed here unless the
loaded package read the same bytes). Of a very large document (over
:data:`~kas_tui.core.loader.LARGE_DOCUMENT_BYTES`, which ``check`` warns about) the
index holds the start, up to that many bytes: a 200 MB page would cost a gigabyte to
index and hold every search that found it."""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.core.fileio import open_regular
from kas_tui.core.loader import LARGE_DOCUMENT_BYTES, decode_lenient
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError

if TYPE_CHECKING:
    from kas_tui.core.package import Package

#: Where a match can be: the body, or a frontmatter field.
FIELDS = ("body", "title", "description", "tags")
_FIELD_LINE = re.compile(r"^(title|description|tags)[ \t]*:", re.MULTILINE)


@dataclass
class Read:
    """What indexing one document stores."""

    path: str
    size: int
    mtime_ns: int
    read_ns: int
    fields: tuple[str, str, str, str] = ("", "", "", "")  # title, description, tags, body
    lines: tuple[int, int, int, int] = (1, 1, 1, 1)  # the line each of them starts on


def read(root: Path, rel: str, package: Package | None) -> Read:
    """What the index stores of ``rel`` (an unreadable file: nothing but its stat)."""
    read_ns = time.time_ns()
    path = root / rel
    try:
        with os.fdopen(open_regular(path, listed=True), "rb") as handle:
            st = os.fstat(handle.fileno())
            data = handle.read(LARGE_DOCUMENT_BYTES + 1)
    except OSError:
        return Read(rel, -1, -1, read_ns)  # never matches a stat: tried again next sync
    out = Read(rel, st.st_size, st.st_mtime_ns, read_ns)
    if b"\0" in data:
        return out  # binary, not Markdown: nothing to search
    if len(data) > LARGE_DOCUMENT_BYTES:  # its start, up to the last whole line
        data = data[: data.rfind(b"\n", 0, LARGE_DOCUMENT_BYTES) + 1] or data[:LARGE_DOCUMENT_BYTES]
    text = decode_lenient(data).replace("\r\n", "\n")
    start = fm.body_start(text)
    meta = _meta(text, rel, package, (st.st_size, st.st_mtime_ns))
    from kas_tui.core.records import Document  # the one rule for a title, description and tags

    doc = Document(rel, meta, True, 1, None)
    head = {m.group(1): m.start() for m in _FIELD_LINE.finditer(text, 0, start)}
    out.fields = (doc.title, doc.description, " ".join(doc.tags), text[start:])
    out.lines = (
        text.count("\n", 0, start) + 1,
        *(text.count("\n", 0, head[name]) + 1 if name in head else 1 for name in FIELDS[1:]),
    )
    return out


def _meta(text: str, rel: str, package: Package | None, stat: tuple[int, int]) -> dict[str, Any]:
    """The document's frontmatter: the package's parse when it read these bytes, else
    parsed here (a broken frontmatter indexes as none)."""
    if package is not None:
        doc = package.documents.get(rel)
        fingerprint = doc.fingerprint if doc is not None else None
        if fingerprint is not None and (fingerprint.size, fingerprint.mtime_ns) == stat:
            return doc.meta  # type: ignore[union-attr]
    try:
        parsed = fm.parse(text)
    except FormatError:
        return {}
    return parsed.data if parsed is not None else {}
