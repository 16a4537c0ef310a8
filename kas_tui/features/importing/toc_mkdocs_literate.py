"""An MkDocs site's navigation written in Markdown: the literate-nav plugin.

With ``plugins: [literate-nav: {nav_file: README.md}]`` (``SUMMARY.md`` unless said),
a folder's nav file lists its pages as a Markdown list of links, nested by
indentation: ``- [Installation](installation.md)``, a line of text over the entries
below it a section, a link to a folder (``[API](api/)``) that folder's own list (or,
without a nav file, its pages as MkDocs lists them; a folder is listed once, where it
is first linked, so a link to itself or above leads nowhere new), and ``*`` patterns the pages no
other entry names (``- [*.md](*.md)``, ``- *``). The last list of the file is the
navigation: the prose and lists above it are the page's (mkdocs/mkdocs' ``user-guide/
README.md`` opens with a paragraph). ``mkdocs.yml``'s nav may name such a folder
(``- User Guide: user-guide/``); without a ``nav`` the pages folder's own nav file is
the whole. With ``implicit_index: true`` a folder's index page (``index.md``, else
``README.md``) opens its section.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any
from urllib.parse import unquote

from kas_tui.features.importing.toc_formats import SITE_PAGES, URL
from kas_tui.features.importing.toc_mkdocs_pages import INDEX_STEMS, folder_nav

_ITEM = re.compile(r"^([ \t]*)[-*+][ \t]+(.*?)[ \t]*$")
_LINK = re.compile(r"^\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)$")
_PAGES = SITE_PAGES["mkdocs"]
#: A folder's pages nested no deeper than this: a nav file naming its own folder stops.
_DEEPEST = 12


def literate_options(plugins: Any) -> tuple[str, bool] | None:
    """The literate-nav plugin's nav file name and ``implicit_index``, when a site's
    ``plugins`` (its config's list or mapping) load it; else ``None``."""
    entries = plugins.items() if isinstance(plugins, dict) else []
    if isinstance(plugins, list):
        entries = [
            next(iter(p.items())) if isinstance(p, dict) and len(p) == 1 else (p, None)
            for p in plugins
        ]
    for name, options in entries:
        if str(name).split("/")[-1] in ("literate-nav", "mkdocs-literate-nav"):
            options = options if isinstance(options, dict) else {}
            nav_file = options.get("nav_file")
            nav_file = (
                nav_file.strip() if isinstance(nav_file, str) and nav_file.strip() else "SUMMARY.md"
            )
            return nav_file, options.get("implicit_index") is True
    return None


class LiterateNav:
    """The literate navigation of one site: folders read into nodes made by
    ``node(title, path, children, line)``; links to nothing go to ``problems``."""

    def __init__(
        self,
        nav_file: str,
        implicit_index: bool,
        files: Collection[str],
        read: Callable[[str], str | None],
        problems: list[str],
        node: Callable[..., Any],
    ) -> None:
        self.nav_file, self.implicit_index = nav_file, implicit_index
        self.files, self.read, self.problems, self.node = files, read, problems, node
        self.read_files: set[str] = set()  # the nav files: read, no pages
        self._listed: set[str] = set()  # folders listed already: each once, and no loop
        self._lower = {f.lower(): f for f in sorted(files, reverse=True)}
        self._folders = {posixpath.dirname(f) for f in files}
        for folder in list(self._folders):
            while folder:
                folder = posixpath.dirname(folder)
                self._folders.add(folder)

    def holds(self, folder: str) -> bool:
        """Whether ``folder`` is a folder of the source (with files below it)."""
        return folder in self._folders

    def folder(self, folder: str, depth: int = 0) -> list[Any]:
        """The entries of ``folder``: its nav file's last list, else its pages as MkDocs
        lists them; its index page first with ``implicit_index``."""
        if folder in self._listed:
            return []  # linked twice, or from inside itself: listed where first linked
        self._listed.add(folder)
        nav = self._lower.get(posixpath.join(folder, self.nav_file).lower())
        if nav is None or depth > _DEEPEST:
            return folder_nav(
                folder, self.files, self.read, self.problems, self.node, awesome=False
            )
        nodes = self._list(nav, folder, depth)
        index = self._index(folder) if self.implicit_index else None
        if index and not _names(nodes, index):
            nodes.insert(0, self.node(None, index, [], None))
        if index != nav:  # a nav file the section does not open with is no page
            self.read_files.add(nav)
        return nodes

    def _index(self, folder: str) -> str | None:
        """The folder's own page, as MkDocs takes it (``index.md``, else ``README.md``)."""
        for stem in INDEX_STEMS:
            for ext in _PAGES:
                found = self._lower.get(posixpath.join(folder, stem + ext).lower())
                if found:
                    return found
        return None

    def _list(self, nav: str, folder: str, depth: int) -> list[Any]:
        lines = (self.read(nav) or "").splitlines()
        start = _last_list(lines)
        roots: list[Any] = []
        stack: list[tuple[int, Any]] = []
        named: set[str] = set()
        patterns: list[tuple[Any, str]] = []  # (entry, the paths it stands for)
        for number in range(start, len(lines)):
            item = _ITEM.match(lines[number])
            if item is None:
                continue
            indent = len(item.group(1).expandtabs(4))
            label = item.group(2)
            link = _LINK.match(label)
            title, target = (link.group(1).strip(), link.group(2)) if link else (label, None)
            if link is None and "*" in label:
                title, target = None, label
            entry = self.node(title or None, None, [], number + 1)
            while stack and stack[-1][0] >= indent:
                stack.pop()
            (stack[-1][1].children if stack else roots).append(entry)
            stack.append((indent, entry))
            if target is None or not target.strip() or URL.match(target.strip()):
                continue
            path = posixpath.normpath(posixpath.join(folder, unquote(target.split("#", 1)[0])))
            if "*" in target:
                patterns.append((entry, path))
            elif self._lower.get(path.lower()) and path.lower().endswith(_PAGES):
                entry.path = self._lower[path.lower()]
                named.add(entry.path)
            elif self.holds(path):  # a folder: its own list below the entry
                entry.children += self.folder(path, depth + 1)
            else:
                self.problems.append(
                    f"{nav}:{number + 1}: names {target}, which is not in the source "
                    f"({path}); fix the link or add the page"
                )
        for entry, pattern in patterns:  # what no other entry names
            entry.title = None
            matched = sorted(
                f
                for f in self.files
                if posixpath.dirname(f) == posixpath.dirname(pattern)
                and fnmatch.fnmatch(f, pattern)
                and f.lower().endswith(_PAGES)
                and f not in named
                and f != nav
            )
            entry.children += [self.node(None, f, [], None) for f in matched]
        return _without_empty(roots)


def _last_list(lines: list[str]) -> int:
    """Where the file's last list starts: after the text that follows it (a reference
    definition, a closing paragraph), its first item after the last line above it that
    is neither an item, nor inside one, nor blank."""
    start = len(lines)
    for number in range(len(lines) - 1, -1, -1):
        line = lines[number]
        if _ITEM.match(line) and not line[:1].isspace():
            start = number
        elif start < len(lines) and line.strip() and not line[:1].isspace():
            break  # above the list
    return start


def _names(nodes: list[Any], page: str) -> bool:
    return any(n.path == page or _names(n.children, page) for n in nodes)


def _without_empty(nodes: list[Any]) -> list[Any]:
    """The entries leading to a page; a pattern's entry stands for the pages it
    matched, in its place."""
    out: list[Any] = []
    for n in nodes:
        n.children = _without_empty(n.children)
        if n.path is None and n.title is None:
            out += n.children
        elif n.path or n.children:
            out.append(n)
    return out
