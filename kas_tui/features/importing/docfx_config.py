"""A docfx site's ``docfx.json``: read as docfx reads it, and where it serves its pages.

docfx reads its config with a lenient JSON reader: PowerShell-Docs' ``reference/docfx.json``
ends objects with a trailing comma, which :func:`json.loads` refuses. JSON is YAML but
for that comma, so what JSON cannot read, YAML's reader is asked.

Its ``build.content`` entries map a folder of pages (``src``) to the path the site serves
them under (``dest``): PowerShell-Docs serves ``docs-conceptual/learn/ps101/01-getting-started.md``
at ``/powershell/scripting/learn/ps101/01-getting-started``. :func:`served_pages` is that
map, so the site's own links, written with those paths, find their pages.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any, NamedTuple

import yaml

from kas_tui.features.importing.config_globs import glob_regex

#: The pages a docfx site serves (its YAML pages too: FAQ, landing and hub pages).
_PAGES = (".md", ".yml")


def is_docfx_redirects(name: str) -> bool:
    """Whether the file ``name`` is a docfx site's map of moved pages
    (``.openpublishing.redirection.json``, ``.openpublishing.redirection.sdk.json``)."""
    low = name.lower()
    return low.startswith(".openpublishing.redirection") and low.endswith(".json")


def read_docfx_json(text: str | None) -> dict[str, Any] | None:
    """The config in ``text`` (JSON, or JSON with trailing commas), ``None`` when it
    reads as no mapping."""
    if not text:
        return None
    text = text.lstrip("\ufeff")
    try:
        data = json.loads(text)
    except ValueError:
        try:
            data = yaml.safe_load(text)
        except (yaml.YAMLError, RecursionError):  # lists hundreds deep
            return None
    return data if isinstance(data, dict) else None


def content_folders(config: str, read: Callable[[str], str | None]) -> list[tuple[str, str]]:
    """(source folder, the path the site serves it under) of each ``build.content``
    entry of the ``docfx.json`` at ``config`` that moves its pages (a ``src`` and a
    ``dest``, neither the root), in the config's order."""
    out: list[tuple[str, str]] = []
    for folder, dest, _moniker in _content(config, read):
        if (folder, dest) not in out:
            out.append((folder, dest))
    return out


def _content(config: str, read: Callable[[str], str | None]) -> list[tuple[str, str, str]]:
    """(source folder, served path, moniker) of the ``build.content`` entries that
    move their pages; the moniker is the one version the entry's ``group`` serves
    (its ``moniker_range`` when that names one moniker: ``powershell-7.4``), else ""."""
    data = read_docfx_json(read(config))
    build = data.get("build") if data else None
    content = build.get("content") if isinstance(build, dict) else None
    groups = build.get("groups") if isinstance(build, dict) else None
    groups = groups if isinstance(groups, dict) else {}
    home = posixpath.dirname(config)
    out: list[tuple[str, str, str]] = []
    for entry in content if isinstance(content, list) else []:
        if not isinstance(entry, dict):
            continue
        src, dest = entry.get("src"), entry.get("dest")
        if not isinstance(src, str) or not isinstance(dest, str):
            continue
        if not src.strip("/") or not dest.strip("/"):
            continue  # the site's root as the source's: nothing moves
        folder = posixpath.normpath(posixpath.join(home, src.strip("/")))
        group = groups.get(entry.get("group")) if isinstance(entry.get("group"), str) else None
        moniker = group.get("moniker_range") if isinstance(group, dict) else None
        moniker = (
            moniker.strip()
            if isinstance(moniker, str) and _MONIKER.fullmatch(moniker.strip())
            else ""
        )
        if not folder.startswith("../"):
            out.append((folder, dest.strip("/"), moniker))
    return out


#: A moniker range naming one version (``powershell-7.4``), not a range (``>=x``, ``x || y``).
_MONIKER = re.compile(r"[\w.-]+")


def served_path(page: str, folders: list[tuple[str, str]]) -> str | None:
    """Where the site serves the source file ``page`` (lower case, no extension, a
    folder's ``index`` as the folder), by the first of ``folders`` holding it
    (:func:`content_folders`); ``None`` when none does."""
    for folder, dest in folders:
        if page.startswith(folder + "/"):
            stem = posixpath.splitext(page[len(folder) + 1 :])[0]
            key = posixpath.join(dest, stem).lower()
            return key[: -len("/index")] if key.endswith("/index") else key
    return None


class Served(NamedTuple):
    """Where a docfx site serves its pages (:func:`served_pages`)."""

    #: served path -> the one page there
    pages: dict[str, str]
    #: served path -> {moniker: page}, for a path served in several versions
    versions: dict[str, dict[str, str]]
    #: each version's folder -> its moniker
    version_folders: dict[str, str]


def served_pages(config: str, read: Callable[[str], str | None], files: Collection[str]) -> Served:
    """Where the ``docfx.json`` at ``config`` serves the pages it moves: served path
    (:func:`served_path`) -> page. A path two entries serve names no one page; when
    each is a ``group`` of one moniker (PowerShell-Docs' ``5.1/``, ``7.4/``... all at
    ``module/``) it is a page in several versions, which a link picks with
    ``?view=powershell-7.4``."""
    entries = _content(config, read)
    found: dict[str, str | None] = {}
    versions: dict[str, dict[str, str]] = {}
    for page in files if entries else ():
        if not page.lower().endswith(_PAGES):
            continue
        for folder, dest, moniker in entries:
            key = served_path(page, [(folder, dest)])
            if key is None:
                continue
            found[key] = page if found.get(key, page) == page else None
            if moniker:
                versions.setdefault(key, {}).setdefault(moniker, page)
    return Served(
        {k: v for k, v in found.items() if v is not None},
        {k: v for k, v in versions.items() if len(v) > 1},
        {f: m for f, _d, m in entries if m},
    )


def resource_files(
    config: str, read: Callable[[str], str | None], files: Collection[str]
) -> frozenset[str]:
    """Those of ``files`` the ``docfx.json`` at ``config`` serves as they are, not as
    pages: what its ``build.resource`` globs name (Business Central's ``**/*.pdf``: a
    cheat sheet to download, a declaration kept for the record), less its pages."""
    data = read_docfx_json(read(config))
    build = data.get("build") if data else None
    resource = build.get("resource") if isinstance(build, dict) else None
    home = posixpath.dirname(config)
    found: set[str] = set()
    for entry in resource if isinstance(resource, list) else []:
        if not isinstance(entry, dict):
            continue
        src = entry.get("src")
        folder = (
            posixpath.normpath(posixpath.join(home, src.strip("/")))
            if isinstance(src, str) and src.strip("/")
            else home
        )
        if folder.startswith("../"):
            continue
        inside = folder + "/" if folder not in ("", ".") else ""
        wanted, unwanted = _globs(entry.get("files")), _globs(entry.get("exclude"))
        for path in files:
            if not path.startswith(inside) or path.lower().endswith(_PAGES):
                continue
            inner = path[len(inside) :]
            if any(g.fullmatch(inner) for g in wanted) and not any(
                g.fullmatch(inner) for g in unwanted
            ):
                found.add(path)
    return frozenset(found)


def _globs(value: Any) -> list[re.Pattern[str]]:
    """The globs of a ``files`` or ``exclude`` list (or one string), as docfx matches
    them: ``**/`` any folders or none, letters in either case."""
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [
        re.compile(glob_regex(n.strip().lstrip("/"), folders_or_none=True).pattern, re.I)
        for n in names
        if isinstance(n, str) and n.strip()
    ]
