"""A document's ``sources`` entry: where its original file is, by a path that moves with
the package when it can (OKF §6.2), and where such a path may point when read back."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import posixpath
from pathlib import Path
from typing import Any

from kas_tui.core.okf.lifecycle import now_timestamp
from kas_tui.core.okf.timestamp import Timestamp
from kas_tui.features.importing.convert_model import Converted


def _mtime_timestamp(mtime: float) -> Timestamp:
    return now_timestamp(dt.datetime.fromtimestamp(mtime, dt.timezone.utc))


def source_record(converted: Converted, root: Path | None, folder: str = "") -> dict[str, Any]:
    """The ``sources`` entry for the original file: where, name, when, and its SHA-256.

    ``resource`` is, for a file inside the package, its bundle-relative path
    (``/references/report.pdf``); for one that moves with the package (in the same git
    repository, or without one within two folders up, as a build's source folder is), its
    path relative to the document's folder ``folder`` (OKF §6.2 reads relative paths from
    the document, as links are); for any other (``/imp/test.docx`` imported into a
    package under ``~/kb``), or without a root, where it really is: a ``file:`` URL, not
    a climb of seven ``..``.
    """
    path = Path(os.path.abspath(converted.source))
    resource = path.as_uri()
    if root is not None:
        base = Path(os.path.abspath(root))
        try:
            resource = "/" + path.relative_to(base).as_posix()
        except ValueError:  # outside the package
            if path.is_relative_to(_moves_with(base)):
                with contextlib.suppress(ValueError):  # another drive (Windows): the URL
                    resource = Path(os.path.relpath(path, base / folder)).as_posix()
    return {
        "resource": resource,
        "title": path.name,
        "last_modified": _mtime_timestamp(converted.mtime),
        "sha256": converted.sha256,
    }


def _moves_with(root: Path) -> Path:
    """The folder whose files move with the package at ``root``: its git repository's
    root, or without one the folder two levels up (``project/`` of ``project/kb/PKG``,
    so ``project/exports`` is beside it); never the file system's root."""
    for folder in (root, *root.parents):
        if (folder / ".git").exists():
            return folder
    up = root.parent.parent
    return up if up != Path(up.anchor) else root.parent


def source_locations(resource: str, root: Path, document: str) -> list[str]:
    """The absolute paths a ``sources[].resource`` of ``document`` may name, most likely
    first (a relative one is read from the document's folder, as :func:`source_record`
    writes it, then from the root, as kas-tui 0.1 wrote it); URLs other than ``file:``
    name no file."""
    if resource.startswith("file:"):
        from urllib.parse import unquote, urlparse

        return [os.path.normpath(unquote(urlparse(resource).path))]
    if "://" in resource or not resource.strip():
        return []
    if resource.startswith("/"):
        return [os.path.normpath(os.path.join(root, resource.lstrip("/")))]
    folder = os.path.join(root, posixpath.dirname(document))
    return [
        os.path.normpath(os.path.join(folder, resource)),
        os.path.normpath(os.path.join(root, resource)),
    ]
