"""A Dendron workspace's tree: its notes' dotted names, read as Dendron's tree view and
its published site read them (the workspace's own notes on navigation and publishing:
dendronhq/dendron-site's ``dendron.topic.publishing.navigation``).

The workspace is the folder of a ``dendron.yml``. Its vaults are the folders its
``workspace.vaults`` (``vaults`` in older configs) name by ``fsPath``; a self-contained
vault keeps its notes in ``notes/``. A note is a vault's ``*.md`` file, and its name's
dotted parts are its place: ``dendron.topic.publish`` is a child of ``dendron.topic``.
A name part with no note of its own (a stub) is a section titled by that part. Among
siblings, those with a ``nav_order`` come first, lowest first, then the others by title.
A vault's ``root.md`` is the vault itself.

What the site publishes (``publishing``, ``site`` in older configs): the hierarchies
``siteHierarchies`` lists (``root``, the default, is every one, and ``root.md`` the
home), the home (``siteIndex``, else the first of them) first. The notes of other
hierarchies (a journal, templates, scratch notes), and a note whose frontmatter says
``published: false``, are not published.

A note shows the values its frontmatter gives where it writes ``{{fm.desc}}`` (Dendron's
variable substitution), outside code (:func:`with_frontmatter_values`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.heuristics import clean_file_title
from kas_tui.features.importing.toc_formats import load_lined
from kas_tui.text.prose import outside_code_spans, outside_fences

CONFIG_NAME = "dendron.yml"
#: The note a vault's hierarchies hang from (the vault itself).
ROOT_NOTE = "root"
#: A frontmatter variable: ``{{fm.desc}}``, ``{{ fm.custom.shortcuts }}``.
FM_VARIABLE = re.compile(r"\{\{\s*fm\.([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\}\}")


def is_dendron_config(path: str) -> bool:
    return posixpath.basename(path) == CONFIG_NAME


def dendron_about(text: str) -> tuple[str | None, str | None]:
    """The published site's name and description: ``publishing.seo``'s ``title`` and
    ``description`` (``site`` in older configs, ``title`` and ``description`` there)."""
    config, error = load_lined(text)
    if error is not None or not isinstance(config, dict):
        return None, None
    site = config.get("publishing") or config.get("site")
    site = site if isinstance(site, dict) else {}
    seo = site.get("seo") if isinstance(site.get("seo"), dict) else site

    def said(key: str) -> str | None:
        value = seo.get(key)
        return " ".join(value.split()) or None if isinstance(value, str) else None

    return said("title"), said("description")


@dataclass
class DendronSite:
    roots: list[Any]  # nodes made by ``node(title, path, children, line)``
    docs_dir: str  # the vaults' folder (the one vault's, or their common folder)
    unpublished: frozenset[str]  # notes of hierarchies the site does not publish
    own_names: dict[str, str]  # a note -> its last name part (``publish``)


def dendron_site(
    path: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> DendronSite | None:
    """The tree of the workspace ``path`` configures (its ``dendron.yml``); ``None``
    when it is no Dendron config or its vaults hold no notes."""
    config, error = load_lined(read(path) or "")
    if error is not None or not isinstance(config, dict):
        return None
    workspace = config.get("workspace")
    vaults = (workspace if isinstance(workspace, dict) else config).get("vaults")
    if not isinstance(vaults, list):
        return None
    home = posixpath.dirname(path)
    folders = []
    for vault in vaults:
        fs_path = vault.get("fsPath") if isinstance(vault, dict) else None
        if not isinstance(fs_path, str):
            continue
        folder = posixpath.normpath(posixpath.join(home, fs_path))
        if vault.get("selfContained") is True:
            folder = posixpath.join(folder, "notes")
        folder = "" if folder == "." else folder
        if folder != ".." and not folder.startswith("../"):
            folders.append(folder)
    notes = {}  # dotted name -> the note's file, the first vault's first
    for folder in folders:
        prefix = folder + "/" if folder else ""
        for f in sorted(files):
            rest = f[len(prefix) :] if f.startswith(prefix) else None
            if rest and "/" not in rest and rest.lower().endswith(".md"):
                notes.setdefault(rest[:-3], f)
    if not notes:
        return None
    publishing = config.get("publishing") or config.get("site") or {}
    publishing = publishing if isinstance(publishing, dict) else {}
    listed = publishing.get("siteHierarchies")
    wanted = [h for h in listed if isinstance(h, str)] if isinstance(listed, list) else []
    everything = not wanted or ROOT_NOTE in wanted
    index = publishing.get("siteIndex")
    order = [index] if isinstance(index, str) and index else []
    order += [h for h in wanted if h != ROOT_NOTE and h not in order]
    meta = {name: front_matter(read(f) or "") for name, f in notes.items()}
    home_note = everything and not order and ROOT_NOTE in notes  # the site's home
    unpublished = {
        f
        for name, f in notes.items()
        if (name == ROOT_NOTE and not home_note)
        or (not everything and name.split(".")[0] not in order)
        or meta[name].get("published") is False
    }
    tree = _Tree(notes, meta, unpublished, node)
    tops = sorted({name.split(".")[0] for name in notes if name != ROOT_NOTE})
    if not everything:
        tops = [t for t in order if t in tops]
    else:
        tops = [t for t in order if t in tops] + tree.ordered(
            [t for t in tops if t not in order], ""
        )
    roots = [r for r in (tree.node(t) for t in tops) if r is not None]
    if home_note and notes[ROOT_NOTE] not in unpublished:
        roots.insert(0, node(tree.title(ROOT_NOTE), notes[ROOT_NOTE], []))
    docs_dir = folders[0] if len(set(folders)) == 1 else posixpath.commonpath(folders)
    own = {f: name.rsplit(".", 1)[-1] for name, f in notes.items() if "." in name}
    return DendronSite(roots, docs_dir, frozenset(unpublished), own)


class _Tree:
    def __init__(
        self,
        notes: dict[str, str],
        meta: dict[str, dict[str, Any]],
        unpublished: set[str],
        node: Callable[..., Any],
    ) -> None:
        self.notes, self.meta, self.unpublished, self.make = notes, meta, unpublished, node
        self.children: dict[str, set[str]] = {}
        for name in notes:
            parts = name.split(".")
            for n in range(1, len(parts)):
                self.children.setdefault(".".join(parts[:n]), set()).add(".".join(parts[: n + 1]))

    def node(self, name: str) -> Any:
        """The node of ``name`` and those below it; ``None`` when it and they are all
        unpublished."""
        below = self.children.get(name, set())
        kids = [k for k in (self.node(c) for c in self.ordered(sorted(below), name)) if k]
        page = self.notes.get(name)
        if page in self.unpublished:
            page = None
        if page is None and not kids:
            return None
        return self.make(self.title(name), page, kids)

    def title(self, name: str) -> str:
        given = self.meta.get(name, {}).get("title")
        if isinstance(given, str) and given.strip():
            return given.strip()
        return clean_file_title(name.rsplit(".", 1)[-1])

    def ordered(self, names: list[str], parent: str) -> list[str]:
        """Siblings as Dendron lists them: by ``nav_order``, then by title."""

        def key(name: str) -> tuple[int, float, str]:
            order = self.meta.get(name, {}).get("nav_order")
            if isinstance(order, (int, float)) and not isinstance(order, bool):
                return (0, float(order), self.title(name).casefold())
            return (1, 0.0, self.title(name).casefold())

        return sorted(names, key=key)


def with_frontmatter_values(text: str, own: Mapping[str, Any]) -> tuple[str, list[tuple[int, str]]]:
    """``text`` (a note's body) with each ``{{fm.name}}`` outside code replaced by the
    value ``own`` (its frontmatter) gives ``name`` (a dotted name reads into mappings,
    ``custom.`` into the keys Dendron does not define; a list is its items joined by
    commas, as Dendron prints one), and the (line, variable as written) of those it
    gives no printable value: left as written."""
    if "fm." not in text:
        return text, []
    unknown: list[str] = []

    def value(found: re.Match[str]) -> str:
        parts = found.group(1).split(".")
        if parts[0] == "custom" and "custom" not in own:  # Dendron keeps other keys there
            parts = parts[1:]
        current: Any = own
        for part in parts:
            current = current.get(part) if isinstance(current, Mapping) else None
        if isinstance(current, bool):
            return "true" if current else "false"
        if isinstance(current, (str, int, float)):
            return str(current)
        if isinstance(current, list) and all(isinstance(v, (str, int, float)) for v in current):
            return ", ".join(str(v) for v in current)
        unknown.append(found.group(0))
        return found.group(0)

    shown = outside_fences(
        text, lambda run: outside_code_spans(run, lambda t: FM_VARIABLE.sub(value, t))
    )
    lines, after = [], {}
    for written in unknown:
        at = shown.find(written, after.get(written, 0))
        after[written] = at + len(written) if at >= 0 else 0
        lines.append((shown.count("\n", 0, max(0, at)) + 1, written))
    return shown, lines
