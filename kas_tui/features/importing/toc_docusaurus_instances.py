"""A Docusaurus site's other docs: the instances of its docs plugin beside the main one,
and the released version it serves in place of its working docs.

A site may publish several sets of docs, each an instance of the docs plugin with its
own folder, address and sidebars (React Native's ``architecture``, ``contributing`` and
``community``; pnpm's ``pnpr-docs``):

    plugins: [
      ['content-docs', {id: 'community', path: 'community',
                        routeBasePath: '/community',
                        sidebarPath: require.resolve('./sidebarsCommunity')}],
    ]

Read as text, never run: each instance's ``id``, ``path`` (its folder, from the
config's), ``routeBasePath`` (where the site serves it; its ``path`` when not said) and
``sidebarPath`` (a string, ``require.resolve('./x')`` or ``path.join(__dirname, 'x')``,
the file with or without its extension), named as the navbar names the item linking to it (``docsPluginId: 'community',
label: 'Community'``), else by its id in words. An instance whose options are code
(spread, computed) or whose folder leaves the source is not read.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from kas_tui.core.okf.index_layout import folder_title
from kas_tui.features.importing.js_literals import blank_js, js_option, string_option
from kas_tui.features.importing.toc_formats import DOCUSAURUS_CONFIGS, docs_option
from kas_tui.text.title_words import identifier_words

#: Where an instance's options open: ``['content-docs', {`` (or the package's name).
_INSTANCE = re.compile(r"""['"](?:@docusaurus/plugin-)?content-docs['"]\s*,\s*\{""")
#: ``require.resolve('./sidebarsCommunity')``, ``path.join(__dirname, 'sidebars-pnpr.json')``:
#: the file a sidebars option names, by a call.
_REQUIRE = re.compile(
    r"""(?:require\.resolve\(|path\.(?:join|resolve)\(\s*__dirname\s*,)\s*(['"])([^'"]+)\1\s*\)"""
)
_SIDEBAR_EXTS = ("", ".js", ".ts", ".json", ".mjs", ".cjs")


@dataclass(frozen=True)
class ServedVersion:
    """The released version of the docs a site serves at its docs' address."""

    name: str  # as versions.json names it ("stable", "3.1")
    folder: str  # source-relative: website/versioned_docs/version-stable
    sidebars: str | None  # its versioned_sidebars file, when the source holds it


def docusaurus_route(
    sidebars: str, read: Callable[[str], str | None], files: Collection[str]
) -> str:
    """The path a Docusaurus site serves its docs at: its config's docs
    ``routeBasePath`` ("docs" when it names none; "" for the site's root)."""
    site = posixpath.dirname(sidebars)
    for name in (n for n in DOCUSAURUS_CONFIGS if posixpath.join(site, n) in files):
        route = docs_option(read(posixpath.join(site, name)) or "", "routeBasePath")
        return "docs" if route is None else route.strip("/")
    return "docs"


def served_version(
    sidebars: str,
    read: Callable[[str], str | None],
    files: Collection[str],
) -> ServedVersion | None:
    """The version a Docusaurus site that keeps versions serves as its docs: with a
    ``versions.json`` beside its sidebars (newest first), its config's ``lastVersion``
    when a plain string naming one of them, else the newest; the docs folder (its
    working copy, served as "next") is the unreleased one. Prettier's ``docs/`` writes
    ``prettier@%PRETTIER_VERSION%`` where the served ``version-stable`` says 3.9.6.
    ``None`` when it keeps no versions, its ``lastVersion`` is ``'current'`` (code
    deciding it, as Prettier's ``PULL_REQUEST ? 'current' : undefined``, is read as
    the default), or the source lacks that version's folder."""
    site = posixpath.dirname(sidebars)
    listed = posixpath.join(site, "versions.json")
    if listed not in files:
        return None
    try:
        versions = json.loads(read(listed) or "null")
    except ValueError:
        return None
    if (
        not isinstance(versions, list)
        or not versions
        or not all(isinstance(v, str) for v in versions)
    ):
        return None
    last = None
    for name in (n for n in DOCUSAURUS_CONFIGS if posixpath.join(site, n) in files):
        last = docs_option(read(posixpath.join(site, name)) or "", "lastVersion")
        break
    if last == "current":
        return None
    name = last if last in versions else versions[0]
    folder = posixpath.join(site, "versioned_docs", f"version-{name}")
    if not any(f.startswith(f"{folder}/") for f in files):
        return None
    bars = posixpath.join(site, "versioned_sidebars", f"version-{name}-sidebars.json")
    return ServedVersion(name, folder, bars if bars in files else None)


@dataclass(frozen=True)
class DocsInstance:
    """One more set of the site's docs."""

    id: str
    folder: str  # source-relative, where its pages are
    route: str  # the path the site serves it at, no slashes around it
    sidebars: str | None  # source-relative sidebars file, None when autogenerated
    label: str  # its name in the navbar


def docs_instances(config: str, text: str, files: Collection[str]) -> list[DocsInstance]:
    """The docs plugin instances the Docusaurus config ``config`` (its ``text``)
    declares with an ``id`` and a ``path`` (the preset's own docs have neither)."""
    code = blank_js(text)
    bare = blank_js(text, strings=True)
    site = posixpath.dirname(config)
    found: list[DocsInstance] = []
    for match in _INSTANCE.finditer(code):
        opened = match.end() - 1
        ident = string_option(code, opened, "id")
        path = string_option(code, opened, "path")
        if not ident or not path:
            continue
        folder = posixpath.normpath(posixpath.join(site, path))
        if folder == ".." or folder.startswith("../"):
            continue
        route = (string_option(code, opened, "routeBasePath") or path).strip("/")
        found.append(
            DocsInstance(
                ident,
                "" if folder == "." else folder,
                route,
                _sidebars(code, bare, opened, site, files),
                _navbar_label(code, bare, ident) or _words(ident),
            )
        )
    return found


def _sidebars(code: str, bare: str, opened: int, site: str, files: Collection[str]) -> str | None:
    at = js_option(bare, opened, "sidebarPath", code)
    if at is None:
        return None
    written = string_option(code, opened, "sidebarPath")
    if written is None:
        required = _REQUIRE.match(code, at)
        written = required.group(2) if required else None
    if not written:
        return None
    stem = posixpath.normpath(posixpath.join(site, written))
    return next((stem + e for e in _SIDEBAR_EXTS if stem + e in files), None)


def _navbar_label(code: str, bare: str, ident: str) -> str | None:
    """The ``label`` of the navbar item linking to the instance ``ident``
    (``{type: 'doc', docId: 'overview', label: 'Community', docsPluginId: 'community'}``)."""
    for found in re.finditer(rf"""\bdocsPluginId\s*:\s*(['"]){re.escape(ident)}\1""", code):
        start = _enclosing(bare, found.start())
        if start is not None:
            label = string_option(code, start, "label")
            if label:
                return label
    return None


def _enclosing(bare: str, at: int) -> int | None:
    """Where the object around offset ``at`` of ``bare`` opens."""
    depth = 0
    for index in range(at - 1, -1, -1):
        char = bare[index]
        if char in "}])":
            depth += 1
        elif char in "{[(":
            if depth == 0:
                return index if char == "{" else None
            depth -= 1
    return None


def _words(ident: str) -> str:
    """An instance id as words: ``community`` is "Community", ``pnpr-docs`` "Pnpr docs"."""
    return folder_title(identifier_words(ident)) or ident
