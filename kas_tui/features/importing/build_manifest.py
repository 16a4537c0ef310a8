"""The build's record of what it wrote: ``.kas-build.json`` in the package.

Each source's hash and the values the build wrote (every frontmatter field, the body's
hash, each index entry, the SKILL.md description and body), so a later build converts
only what changed and keeps every value a curator edited since (see
:mod:`kas_tui.features.importing.build`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path
from typing import Any

from kas_tui.core.fileio import read_regular
from kas_tui.core.okf.text import without_controls
from kas_tui.core.store import write_atomic
from kas_tui.features.importing.draft import GENERATOR

MANIFEST = ".kas-build.json"


class BuildError(Exception):
    """The build cannot start (bad name, output folder not made by kas-tui, ...)."""


def _json_value(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, default=str, sort_keys=True) == json.dumps(b, default=str, sort_keys=True)


def _one_line(text: str) -> str:
    """Text as an index entry holds it: one line, single spaces, no control characters."""
    return " ".join(without_controls(text).split())


def _sha(text: str) -> str:
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def load_manifest(out: Path) -> dict[str, Any] | None:
    """The build manifest of package ``out``, or ``None`` when it has none."""
    try:
        data = json.loads(read_regular(out / MANIFEST).decode("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise BuildError(f"{out / MANIFEST} cannot be read ({exc}); remove it to rebuild") from None
    if not isinstance(data, dict) or data.get("version") != 1:
        raise BuildError(f"{out / MANIFEST} is not a kas-tui build manifest of a known version")
    problem = manifest_problem(data)
    if problem:
        raise BuildError(
            f"{out / MANIFEST}: {problem}, which no build writes (edited by hand?); "
            "remove the file to build the package again from scratch"
        )
    return data


def _inside(path: object) -> bool:
    """A package-relative POSIX path that stays inside the package."""
    if not isinstance(path, str) or not path or "\x00" in path or "\\" in path:
        return False
    return not path.startswith("/") and ".." not in path.split("/")


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def manifest_problem(data: dict[str, Any]) -> str | None:
    """What in a build manifest is not shaped as a build writes it (``None``: nothing):
    a later build reads every part, and a path from it is where it writes."""
    mappings = ("folders", "groups", "documents", "assets", "indexes", "skill", "failed")
    for key in mappings:
        if not isinstance(data.get(key, {}), dict):
            return f"'{key}' is not a mapping"
    for key in ("folders", "groups"):
        for name, value in data.get(key, {}).items():
            if not isinstance(value, str) or (key == "folders" and value and not _inside(value)):
                return f"'{key}' gives {name!r} {value!r}"
    for source, entry in data.get("documents", {}).items():
        where = f"the record of {source!r}"
        if not isinstance(entry, dict):
            return f"{where} is not a mapping"
        path = entry.get("path")
        if not (_inside(path) and str(path).endswith(".md")):
            return f"{where} names the path {path!r}, not a page inside the package"
        for key in ("sha256", "kind", "body"):
            if not isinstance(entry.get(key, ""), str):
                return f"{where} has a '{key}' that is not text"
        for key in ("fields", "about"):
            if not isinstance(entry.get(key) or {}, dict):
                return f"{where} has '{key}' that is not a mapping"
        for key in ("links", "sections"):
            if not _strings(entry.get(key) or []):
                return f"{where} has '{key}' that is not a list of text"
    for source, entry in data.get("assets", {}).items():
        if not isinstance(entry, dict) or not _inside(entry.get("path")):
            return f"the asset record of {source!r} names no path inside the package"
    for folder, entries in data.get("indexes", {}).items():
        if not isinstance(entries, dict) or not all(
            _strings(pair) and len(pair) == 2 for pair in entries.values()
        ):
            return f"the index record of {folder!r} is not (title, description) per entry"
    return None


class ManifestMixin:
    """The builder's manifest: written at the end of each build."""

    # (the builder's state: source, out, name, now, manifest, docs, assets, folders, ...)

    def _rel(self, path: Path) -> str:
        try:
            return Path(path).relative_to(self.source).as_posix()
        except ValueError:
            return Path(path).name

    def _save_manifest(
        self,
        root: Path,
        entries: dict[str, dict[str, list[str]]],
        skill_description: str,
        skill_body_sha: str,
    ) -> None:
        """Write the record into the package folder ``root`` (a first build's)."""
        data = self._manifest_bytes(entries, skill_description, skill_body_sha)
        if data is not None:
            write_atomic(root / MANIFEST, data, expect=None, create=True)

    def _manifest_bytes(
        self,
        entries: dict[str, dict[str, list[str]]],
        skill_description: str,
        skill_body_sha: str,
    ) -> bytes | None:
        """The record of this build; ``None`` when it is the last build's record (the
        build changed nothing: the file stays as it was, to the byte)."""
        old = (self.manifest or {}).get("documents", {})
        documents: dict[str, Any] = {}
        links: dict[str, list[str]] = {}
        for source, target in sorted(self.links_between):
            links.setdefault(source, []).append(target)
        for doc in self.docs.values():
            if doc.draft is not None:
                documents[doc.source] = {
                    "path": doc.out,
                    "sha256": doc.sha256,
                    "kind": doc.converted.kind if doc.converted else "",
                    "fields": self.new_manifest.get(doc.source, {}).get("fields")
                    or _json_value(doc.draft.frontmatter),
                    "body": self.new_manifest.get(doc.source, {}).get("body")
                    or _sha(doc.draft.body),
                    # what a later build needs of the source without converting it again
                    "links": links.get(doc.source, []),
                    "about": _json_value(self.about.get(doc.source, {})),
                    # the sections its index entry names (a page with its own description)
                    **({"sections": list(doc.topics)} if doc.topics else {}),
                }
            elif doc.source in old:
                documents[doc.source] = old[doc.source]
        old_assets = (self.manifest or {}).get("assets", {})
        data = {
            "version": 1,
            "generator": GENERATOR,
            "source": str(self.source),
            "name": self.name,
            "built": self.now.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "folders": {k: v for k, v in sorted(self.folders.items()) if k},
            "groups": dict(sorted(self.group_titles.items())),
            "documents": dict(sorted(documents.items())),
            "assets": {
                src: {
                    "path": out,
                    "sha256": self.asset_sha.get(src) or old_assets.get(src, {}).get("sha256", ""),
                }
                for src, out in sorted(self.assets.items())
            },
            "indexes": entries,
            "skill": {"description": skill_description, "body": skill_body_sha},
            "failed": {
                self._rel(e.source): {
                    "sha256": self.failed_sha.get(self._rel(e.source), ""),
                    "reason": e.reason,
                    "message": e.message,
                }
                for e in self.result.failed
            },
        }
        if self.manifest is not None and _same(
            {**data, "built": None}, {**self.manifest, "built": None}
        ):
            return None
        return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
