"""A Jupyter Book's table of contents: ``_toc.yml`` (Jupyter Book 1) or ``myst.yml``
(Jupyter Book 2, MyST-MD).

``_toc.yml`` (read as data, never run): ``format: jb-book`` with a ``root:`` page and
``parts:`` (each a ``caption:`` over its ``chapters:``) or ``chapters:`` alone;
``format: jb-article`` with a ``root:`` and ``sections:``. An entry is a ``file:``
(relative to the file, its extension optional), a ``glob:`` pattern or a ``url:``
(off the site: no entry), titled by its ``title:``, with ``sections:`` (or ``parts:``)
below it. sphinx-external-toc's names (``subtrees:``, ``entries:``) and Jupyter Book's
older list of entries (``- file:``, ``- part:`` with ``chapters:``) read the same.
``numbered``, ``maxdepth`` and the other options change no order: ignored.

``myst.yml``: ``project: toc:``, a list of entries: ``file:`` (with its extension),
``title:`` with ``children:`` (a section, or a page with pages below it), ``pattern:``
(a glob) and ``url:``. Without a ``toc`` the one of a file it ``extends`` (in the
source) is read, else a ``_toc.yml`` beside it; else MyST lists the folder itself, as
the build does. ``project: title`` and ``description`` name the site
(:func:`myst_about`).

A page with pages below it (a chapter) is a section the page opens, named by its
``title:`` or else by the page's own title, as the book's sidebar shows it. An entry naming a file the source does not hold
is a problem (``file:line``, what, how to fix it) and no page.
"""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.config_globs import excluded_by
from kas_tui.features.importing.myst_pages import page_facts
from kas_tui.features.importing.toc_formats import (
    SITE_PAGES,
    URL,
    line_of,
    load_lined,
    short,
)

#: What a Jupyter Book makes pages of, in the order an entry without an extension is
#: looked for (those kas-tui converts); what MyST-MD does.
BOOK_PAGES = SITE_PAGES["jupyter-book"]
MYST_PAGES = SITE_PAGES["myst"]
TOC_NAMES = ("_toc.yml", "_toc.yaml")
MYST_CONFIG = "myst.yml"
#: Keys that hold an entry's entries, in each format (``parts`` hold captioned groups).
_BELOW = ("sections", "chapters", "entries", "children")
_GROUPS = ("parts", "subtrees")
#: Keys that make an entry what it is (one of them a string).
_NAMING = ("file", "glob", "pattern", "url", "title", "part", "caption", "header")
#: Most ``extends`` files followed from one ``myst.yml``.
_MOST_EXTENDS = 10


def is_book_toc(path: str) -> bool:
    return posixpath.basename(path).lower() in TOC_NAMES


def is_myst_config(path: str) -> bool:
    return posixpath.basename(path).lower() == MYST_CONFIG


def myst_about(text: str) -> tuple[str | None, str | None]:
    """The title and description a ``myst.yml`` gives its project (``site: title`` when
    the project has none)."""
    data, _error = load_lined(text)
    if not isinstance(data, dict):
        return None, None
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    site = data.get("site") if isinstance(data.get("site"), dict) else {}

    def said(value: Any) -> str | None:
        return " ".join(value.split()) or None if isinstance(value, str) else None

    return said(project.get("title")) or said(site.get("title")), said(project.get("description"))


def book_roots(
    path: str,
    text: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> list[Any] | None:
    """The pages a Jupyter Book's ``_toc.yml`` (``text``, the file ``path``) lists, as
    nodes made by ``node(title, path, children, line)``: its root page, then its parts
    (a caption over its chapters) or chapters, each with its sections below it.
    ``None`` when the file is no Jupyter Book TOC (no ``root``, no list of entries)."""
    data, error = load_lined(text)
    if error is not None:
        problems.append(
            f"{path}:{error[0]}: not valid YAML ({error[1]}): the book's table of contents "
            "was not read; fix the YAML"
        )
        return []
    reader = _Entries(path, read, files, problems, node, BOOK_PAGES)
    if isinstance(data, list):  # Jupyter Book's format before 0.11: a list of entries
        return reader.entries(data)
    if not isinstance(data, dict) or not isinstance(data.get("root"), str):
        return None
    root = reader.page(data["root"], line_of(data, "root"), data)
    title = data.get("title") if isinstance(data.get("title"), str) else ""
    nodes = [node(title.strip() or None, root, [], line_of(data, "root"))] if root else []
    reader.seen.update([root] if root else [])
    return nodes + reader.below(data)


def myst_roots(
    path: str,
    text: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> list[Any] | None:
    """The pages a ``myst.yml`` (``text``, the file ``path``) lists in ``project:
    toc:``, as nodes made by ``node(title, path, children, line)``; ``[]`` when it lists
    none (MyST lists the folder); ``None`` when it configures no MyST project."""
    data, error = load_lined(text)
    if error is not None:
        problems.append(
            f"{path}:{error[0]}: not valid YAML ({error[1]}): the project's table of "
            "contents was not read; fix the YAML"
        )
        return []
    if not isinstance(data, dict) or not isinstance(data.get("project", {}), dict):
        return None
    if "project" not in data and "site" not in data:
        return None
    found = _myst_toc(path, data, read, files)
    folder = posixpath.dirname(path)
    if found is None:  # no toc: a Jupyter Book 1 _toc.yml beside it, which MyST reads
        for name in TOC_NAMES:
            beside = posixpath.join(folder, name)
            if beside in files:
                return book_roots(beside, read(beside) or "", read, files, problems, node) or []
        return []
    toc_file, toc = found
    return _Entries(toc_file, read, files, problems, node, MYST_PAGES, folder).entries(toc)


def unpublished(
    path: str, read: Callable[[str], str | None], files: Collection[str], listed: Collection[str]
) -> tuple[frozenset[str], str]:
    """The files of the book ``path`` configures (its ``_toc.yml`` or ``myst.yml``) that
    its config leaves out of its pages, and where it says so: a Jupyter Book's
    ``_config.yml`` ``exclude_patterns`` (and, with ``only_build_toc_files``, the pages
    its TOC does not list, those ``listed`` not), a ``myst.yml``'s ``project: exclude``;
    ``_build/`` is always left out (a book's built site)."""
    folder = posixpath.dirname(path)
    prefix = folder + "/" if folder else ""
    if is_myst_config(path):
        data, _error = load_lined(read(path) or "")
        project = data.get("project") if isinstance(data, dict) else None
        config = project if isinstance(project, dict) else {}
        key, where = "exclude", f"{path} (project: exclude)"
    else:
        where = posixpath.join(folder, "_config.yml")
        data, _error = load_lined(read(where) or "") if where in files else (None, None)
        config = data if isinstance(data, dict) else {}
        key, where = "exclude_patterns", f"{where} (exclude_patterns)"
    patterns = config.get(key) if isinstance(config.get(key), list) else []
    only_listed = config.get("only_build_toc_files") is True
    found = excluded_by(files, folder, [str(p) for p in [*patterns, "_build"]])
    if only_listed:  # and the pages its TOC does not list
        found |= {
            f
            for f in files
            if f.startswith(prefix) and f.lower().endswith(BOOK_PAGES) and f not in listed
        }
    if only_listed:
        where = where.replace("exclude_patterns)", "exclude_patterns, only_build_toc_files)")
    return frozenset(found), f"the book's {where}"


def _myst_toc(
    path: str, data: dict[str, Any], read: Callable[[str], str | None], files: Collection[str]
) -> tuple[str, list[Any]] | None:
    """(the file it is in, ``project: toc:``) of a ``myst.yml``, or of the first file
    of the source it ``extends`` that has one."""
    todo, seen = [(path, data)], {path}
    while todo and len(seen) <= _MOST_EXTENDS:
        file, config = todo.pop(0)
        project = config.get("project")
        if isinstance(project, dict) and isinstance(project.get("toc"), list):
            return file, project["toc"]
        extends = config.get("extends")
        for target in extends if isinstance(extends, list) else [extends]:
            if not isinstance(target, str) or URL.match(target):
                continue  # an address: another site's config, never fetched
            other = posixpath.normpath(posixpath.join(posixpath.dirname(file), target))
            if other in files and other not in seen:
                seen.add(other)
                loaded, _error = load_lined(read(other) or "")
                if isinstance(loaded, dict):
                    todo.append((other, loaded))
    return None


class _Entries:
    """Reads a table of contents' entries: ``problems`` collects the files they name
    that the source lacks; ``base`` is the folder their paths start from (the TOC's)."""

    def __init__(
        self,
        path: str,
        read: Callable[[str], str | None],
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any],
        pages: tuple[str, ...],
        base: str | None = None,
    ) -> None:
        self.path, self.read, self.files = path, read, files
        self.problems, self.node = problems, node
        self.pages = pages
        self.base = posixpath.dirname(path) if base is None else base
        self.seen: set[str] = set()
        self._stems: list[tuple[str, str]] | None = None

    def below(self, entry: dict[str, Any]) -> list[Any]:
        """The nodes under ``entry``: its captioned groups (``parts``), then its
        entries (``chapters``, ``sections``, ``entries``, ``children``)."""
        out: list[Any] = []
        for key in _GROUPS:
            groups = entry.get(key)
            for index, group in enumerate(groups if isinstance(groups, list) else []):
                if not isinstance(group, dict):
                    continue
                inner = self.below(group)
                caption = group.get("caption")
                caption = caption.strip() if isinstance(caption, str) else ""
                if caption and inner:
                    out.append(self.node(caption, None, inner, line_of(groups, index)))
                else:
                    out += inner
        for key in _BELOW:
            items = entry.get(key)
            if isinstance(items, list):
                out += self.entries(items)
        return out

    def entries(self, items: list[Any]) -> list[Any]:
        out: list[Any] = []
        for index, item in enumerate(items):
            line = line_of(items, index)
            if isinstance(item, str):  # a bare name in a list (older books)
                item = {"file": item}
            if (
                not isinstance(item, dict)
                or not any(isinstance(item.get(key), str) for key in _NAMING)
                and not any(isinstance(item.get(key), list) for key in (*_BELOW, *_GROUPS))
            ):
                self.problems.append(
                    f"{self.path}:{line or 1}: the table of contents' entry {short(item)} "
                    "names no file:, glob: or url: (nor entries below it); fix the entry"
                )
                continue
            title = item.get("title") or item.get("part") or item.get("caption")
            title = " ".join(title.split()) if isinstance(title, str) and title.strip() else None
            inner = self.below(item)
            pattern = item.get("glob") or item.get("pattern")
            if isinstance(pattern, str):
                found = [self.node(None, p, [], line) for p in self.matches(pattern, line)]
                out += [self.node(title, None, found, line)] if title and found else found
                continue
            name = item.get("file")
            page = self.page(name, line, item) if isinstance(name, str) else None
            if page is None and not inner:
                continue  # a url:, a header, or a missing file (said)
            if page is not None:
                self.seen.add(page)
            if title is None and page is None:
                out += inner
                continue
            if page is not None and inner:  # a chapter: a section its page opens, so titled
                named = title or page_facts(page, self.read(page) or "").title
                if named:
                    first = self.node(title, page, [], line)
                    out.append(self.node(named, None, [first, *inner], line))
                    continue
            out.append(self.node(title, page, inner, line))
        return out

    def page(self, name: str, line: int | None, entry: Any = None) -> str | None:
        """The file an entry's ``file:`` names (its extension optional), or ``None`` and
        a problem when the source holds none."""
        name = name.strip()
        if not name or URL.match(name):
            return None
        joined = posixpath.normpath(posixpath.join(self.base, name.lstrip("/")))
        for candidate in (joined, *(joined + ext for ext in self.pages)):
            if candidate in self.files and candidate.lower().endswith(self.pages):
                return candidate
        at = line or getattr(entry, "line", None) or 1
        other = next((f for f in self.files if posixpath.splitext(f)[0] == joined), None)
        if other is not None:  # a notebook as R Markdown, a Jupytext script
            self.problems.append(
                f"{self.path}:{at}: the table of contents names {short(name)}, which is "
                f"{other}: no page kas-tui converts (it makes pages of "
                f"{', '.join(self.pages)} files), so it is copied as it is"
            )
            return None
        if joined.lower().endswith(self.pages):
            missing = "which is not in the source"
        else:
            others = ", ".join(self.pages[1:])
            missing = f"which is not in the source (no {joined}{self.pages[0]}, {others})"
        self.problems.append(
            f"{self.path}:{at}: the table of contents names {short(name)}, {missing}; fix "
            "the entry or add the page"
        )
        return None

    def matches(self, pattern: str, line: int | None) -> list[str]:
        """The pages a ``glob:``/``pattern:`` entry names, in order, those listed
        above it left out."""
        if self._stems is None:
            self._stems = sorted(
                (posixpath.splitext(f)[0], f)
                for f in self.files
                if f.lower().endswith(self.pages)
                and f.startswith(self.base + "/" if self.base else "")
            )
        full = posixpath.normpath(posixpath.join(self.base, pattern.strip().lstrip("/")))
        found = [
            f
            for stem, f in self._stems
            if (fnmatch.fnmatchcase(stem, full) or fnmatch.fnmatchcase(f, full))
            and f not in self.seen
        ]
        if not found:
            self.problems.append(
                f"{self.path}:{line or 1}: the table of contents' pattern {short(pattern)} "
                "matches no page of the source; fix the pattern or add the pages"
            )
        self.seen.update(found)
        return found
