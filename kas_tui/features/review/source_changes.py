"""Sources that changed under the documents built from them, and what can be shown of it.

A document's ``sources`` entries name what it was written from. Three records tell that a
source changed after the document was written or last verified:

- **in the package** (``kind = "sha256"`` or ``"missing"``): an entry whose ``resource``
  resolves, as a link of the document does (``/``-rooted from the root, else from the
  document's folder), to a file inside the package, and whose ``sha256`` (written by
  ``import`` and ``build``) is no longer that file's SHA-256, or whose file is gone.
  A resource leaving the package is never read (as links are not).
- **since the last build** (``"build"``, ``"build-missing"``): the package's build
  manifest (``.kas-build.json``, :mod:`kas_tui.features.importing.build_manifest`) records, for
  each document ``build`` wrote, its source file under the source folder the build was
  given, and that file's SHA-256 then. A source whose bytes now match neither that hash
  nor a ``sources[].sha256`` of its document changed since the last build (run
  ``kas-tui build`` again). Only files under the manifest's source folder are read. A
  page whose included snippet changed is not seen here (its own bytes are the same).
- **since the last verification** (``"since-verified"``): when ``build`` or ``import``
  writes a changed source into a document again, they record the source's new
  ``last_modified`` in its entry (the body is replaced, or kept when a curator edited
  it; ``verified`` is left alone). An entry whose ``last_modified`` is later than the
  document's newest ``verified[].at`` names a source that changed after the document
  was last verified.

The old text of a source is stored nowhere (an entry keeps its hash, the manifest only
hashes), so :func:`source_view` shows, when both are text, the diff from the document's
body to the source as it is now, and says so; for a source that is not text, or not
readable here, it says what is known (the two hashes) and how to see more.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.core.fileio import read_regular
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.lifecycle import instant
from kas_tui.core.okf.text import decode
from kas_tui.features.importing.convert import sha256_file

if TYPE_CHECKING:
    from kas_tui.core.package import Package

#: Largest source read to be shown as a diff (a bigger one is described, not shown).
DIFF_LIMIT = 2 * 1024 * 1024


@dataclass(frozen=True)
class SourceChange:
    """One changed source of ``document``: its entry's ``resource`` as written, how the
    change is known (``kind``, see the module docstring), a sentence saying it, the file
    it names when that may be read (``file``: absolute), and the hashes (recorded, now)."""

    document: str
    resource: str
    kind: str
    detail: str
    file: Path | None = None
    recorded: str = ""
    current: str = ""


def _short(digest: str) -> str:
    return digest[:12] + "…" if len(digest) > 12 else digest


def _entries(meta: dict[str, Any]) -> list[dict[str, Any]]:
    sources = meta.get("sources")
    return [s for s in sources if isinstance(s, dict)] if isinstance(sources, list) else []


def _day(when: dt.datetime) -> str:
    """The day of ``when`` in UTC, as staleness counts days."""
    return when.astimezone(dt.timezone.utc).date().isoformat()


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def changed_sources(pkg: Package) -> list[SourceChange]:
    """Every changed source of the package's documents, by document then resource."""
    found: list[SourceChange] = []
    hashes = {}  # root-relative path -> its SHA-256 now (None: gone), each file hashed once
    for path in sorted(pkg.documents):
        doc = pkg.documents[path]
        if doc.broken:
            continue
        found += _in_package(pkg, path, _entries(doc.meta), hashes)
        found += _since_verified(path, doc.meta)
    found += _since_build(pkg)
    found.sort(key=lambda c: (c.document, c.resource, c.kind))
    return found


def _in_package(
    pkg: Package, path: str, entries: list[dict[str, Any]], hashes: dict[str, str | None]
) -> list[SourceChange]:
    by_file: dict[str, list[tuple[str, str]]] = {}  # file -> (resource, sha256 recorded)
    for entry in entries:
        resource, recorded = _text(entry.get("resource")), _text(entry.get("sha256"))
        if not resource or not recorded:
            continue
        target = pkg.resolve(path, resource)
        if target.kind != "internal" or not target.path:
            continue  # a URL, or a file outside the package: never read
        by_file.setdefault(target.path, []).append((resource, recorded))
    out = []
    for rel, recorded in by_file.items():
        if rel not in hashes:
            file = pkg.root / rel
            try:
                hashes[rel] = sha256_file(file) if file.is_file() else None
            except OSError:
                hashes[rel] = None
        now = hashes[rel]
        if now is not None and any(sha == now for _, sha in recorded):
            continue  # an entry for this file records its bytes as they are
        resource, sha = recorded[-1]
        if now is None:
            detail = f"{rel} is gone (recorded SHA-256 {_short(sha)})"
            out.append(SourceChange(path, resource, "missing", detail, None, sha, ""))
        else:
            detail = f"{rel} changed: SHA-256 recorded {_short(sha)}, now {_short(now)}"
            out.append(SourceChange(path, resource, "sha256", detail, pkg.root / rel, sha, now))
    return out


def _since_verified(path: str, meta: dict[str, Any]) -> list[SourceChange]:
    verified = meta.get("verified")
    if isinstance(verified, dict):
        verified = [verified]
    if not isinstance(verified, list):
        return []
    times = [instant(v.get("at")) for v in verified if isinstance(v, dict)]
    last = max((t for t in times if t is not None), default=None)
    if last is None:
        return []
    out = []
    for entry in _entries(meta):
        modified = instant(entry.get("last_modified"))
        if modified is None or modified <= last:
            continue
        resource = _text(entry.get("resource")) or _text(entry.get("title")) or "a source"
        detail = f"{resource} changed {_day(modified)}, after the last verification on {_day(last)}"
        out.append(SourceChange(path, resource, "since-verified", detail))
    return out


def _since_build(pkg: Package) -> list[SourceChange]:
    from kas_tui.features.importing.build_manifest import MANIFEST, BuildError, load_manifest

    if not (pkg.root / MANIFEST).is_file():
        return []
    try:
        manifest = load_manifest(pkg.root)
    except BuildError:
        return []  # build itself says what is wrong with it; the queue has no build to judge
    source = Path(str((manifest or {}).get("source") or ""))
    documents = (manifest or {}).get("documents")
    if not source.is_absolute() or not source.is_dir() or not isinstance(documents, dict):
        return []
    base = os.path.realpath(source)
    out = []
    for rel, record in sorted(documents.items()):
        if not isinstance(record, dict) or record.get("path") not in pkg.documents:
            continue
        file = Path(os.path.realpath(source / rel))
        if not str(file).startswith(base + os.sep):
            continue  # the manifest names a file outside its own source folder: not read
        doc = record["path"]
        recorded = _text(record.get("sha256"))
        known = {recorded, *(_text(s.get("sha256")) for s in _entries(pkg.documents[doc].meta))}
        try:
            now = sha256_file(file) if file.is_file() else None
        except OSError:
            now = None
        shown = posixpath.join(source.name, rel)
        if now is None:
            detail = f"{shown} is gone since the last build"
            out.append(SourceChange(doc, rel, "build-missing", detail, None, recorded, ""))
        elif now not in known:
            detail = f"{shown} changed since the last build (kas-tui build again to take it)"
            out.append(SourceChange(doc, rel, "build", detail, file, recorded, now))
    return out


# --- what can be shown -------------------------------------------------------------------


@dataclass(frozen=True)
class SourceView:
    """What :func:`source_view` can show: a ``note`` always, and a unified ``diff``
    from the document's body to the source now when both are text (else empty)."""

    title: str
    note: str
    diff: str = ""


def source_view(pkg: Package, change: SourceChange) -> SourceView:
    """The diff from ``change.document``'s body to its source as it is now, when both are
    text, with a note saying what the diff is; else a note saying what is known."""
    title = f"{change.document} · source {change.resource}"
    hashes = (
        f"SHA-256 recorded {_short(change.recorded)}, now {_short(change.current)}."
        if change.recorded and change.current
        else ""
    )
    if change.file is None:
        if change.kind == "since-verified":
            return SourceView(
                title,
                f"{change.detail}. The document records when its source changed, not its "
                "text: read the source and the document, then mark it verified (V).",
            )
        return SourceView(title, f"{change.detail}. There is no source text to show.")
    try:
        if change.file.stat().st_size > DIFF_LIMIT:
            return SourceView(title, f"{change.detail}. The source is too large to show here.")
        data = read_regular(change.file)
        source_text = decode(data).text
    except FormatError as exc:
        return SourceView(
            title,
            f"{change.detail}. The source is not text ({exc.message}), so no diff can be "
            f"shown. {hashes} Import it again (kas-tui import FILE --into BUNDLE --yes) to "
            "see the document it makes now.",
        )
    except OSError as exc:
        return SourceView(title, f"{change.detail}. The source cannot be read: {exc}.")
    try:
        body = pkg.body(change.document)
    except (OSError, FormatError, PermissionError) as exc:
        return SourceView(title, f"{change.detail}. The document cannot be read: {exc}.")
    block = fm.find_block(source_text)
    source_body = source_text[block.end :] if block else source_text
    name = posixpath.basename(str(change.file))
    diff = "".join(
        difflib.unified_diff(
            body.splitlines(keepends=True),
            source_body.splitlines(keepends=True),
            f"{change.document} (body)",
            f"{name} (now)",
        )
    )
    note = (
        f"{change.detail}. The source's earlier text is not kept anywhere (only its hash "
        "is), so this is the document's body against the source as it is now: '-' lines "
        "are only in the document, '+' lines only in the source."
    )
    return SourceView(title, note, diff or "(the body and the source say the same)\n")
