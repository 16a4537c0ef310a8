"""An MkDocs site without a ``nav``: its navigation as MkDocs makes it from the pages
folder, or as the awesome-pages plugin arranges it with a ``.pages`` file per folder.

MkDocs alone lists every page of ``docs_dir``: a folder's pages, its ``index.md`` (or
``README.md``) first, then the rest by name, then its folders by name, each a section
named by its name.
With the ``awesome-pages`` plugin, a folder's ``.pages`` (YAML) says more: ``title``
names its section; ``nav`` (or the older ``arrange``) lists its entries in order, a
page or folder by name (``setup.md``, ``api``), under a title of its own (``- Home:
index.md``), or ``...`` for every entry it does not name (by name, ``order: desc``
reversing them); a link off the site is no page; an entry it names that the folder does
not hold is a problem (``file:line``). Entries a ``nav`` without ``...`` leaves out
are out of the site's navigation (the build lists them under "Other pages").
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.core.okf.index_layout import folder_title
from kas_tui.features.importing.toc_formats import SITE_PAGES, URL, load_lined, short

#: The awesome-pages plugin's file, one in each folder it arranges.
PAGES_FILE = ".pages"
#: What MkDocs makes pages of.
_PAGES = SITE_PAGES["mkdocs"]
#: A folder's own page, first in its section: ``index.md``, else ``README.md``.
INDEX_STEMS = ("index", "readme")


def folder_nav(
    base: str,
    files: Collection[str],
    read: Callable[[str], str | None],
    problems: list[str],
    node: Callable[..., Any],
    *,
    awesome: bool,
) -> list[Any]:
    """The navigation MkDocs makes of the pages folder ``base`` (``awesome``: as the
    awesome-pages plugin arranges it), as nodes made by ``node(title, path, children,
    line)``."""
    prefix = base + "/" if base else ""
    pages = sorted(f for f in files if f.startswith(prefix) and f.lower().endswith(_PAGES))
    children: dict[str, set[str]] = {}
    for page in pages:
        parts = page[len(prefix) :].split("/")
        for depth in range(len(parts)):
            folder = prefix + "/".join(parts[:depth])
            children.setdefault(folder.rstrip("/"), set()).add(parts[depth])
    return _Folder(files, read, problems, node, children, awesome).entries(base)


class _Folder:
    def __init__(
        self,
        files: Collection[str],
        read: Callable[[str], str | None],
        problems: list[str],
        node: Callable[..., Any],
        children: dict[str, set[str]],
        awesome: bool,
    ) -> None:
        self.files, self.read, self.problems, self.node = files, read, problems, node
        self.children, self.awesome = children, awesome

    def entries(self, folder: str) -> list[Any]:
        names = self.children.get(folder, set())
        meta_path = posixpath.join(folder, PAGES_FILE)
        meta = self.meta(meta_path) if self.awesome else {}
        arranged = meta.get("nav", meta.get("arrange"))
        order: list[Any] = arranged if isinstance(arranged, list) else ["..."]
        lines = getattr(arranged, "lines", [])
        named = {self.name_of(item) for item in order} - {None}
        here = folder + "/" if folder else ""
        rest = sorted(  # as MkDocs sorts: the folder's pages, its index first, then folders
            (n for n in names if n not in named),
            key=lambda n: (
                here + n not in self.files,
                posixpath.splitext(n)[0].lower() not in INDEX_STEMS,
                n.lower(),
            ),
        )
        if meta.get("order") == "desc":
            rest = [
                *[n for n in rest if posixpath.splitext(n)[0].lower() in INDEX_STEMS],
                *reversed([n for n in rest if posixpath.splitext(n)[0].lower() not in INDEX_STEMS]),
            ]
        out: list[Any] = []
        for index, item in enumerate(order):
            line = lines[index] if index < len(lines) else None
            if isinstance(item, str) and item.strip().startswith("..."):
                out += [n for name in rest for n in self.entry(folder, name, None, None)]
                continue
            title: str | None = None
            target = item
            if isinstance(item, dict) and len(item) == 1:
                title, target = (str(x) for x in next(iter(item.items())))
            if not isinstance(target, str) or URL.match(target.strip()):
                continue
            name = target.strip().strip("/")
            if name not in names:
                where = folder or "the pages folder"
                self.problems.append(
                    f"{meta_path}:{line or 1}: its nav names {short(target)}, which {where} "
                    "does not hold; fix the entry or add the page"
                )
                continue
            out += self.entry(folder, name, title, line)
        return out

    def entry(self, folder: str, name: str, title: str | None, line: int | None) -> list[Any]:
        path = posixpath.join(folder, name) if folder else name
        if path in self.files:
            return [self.node(title, path, [], line)]
        inner = self.entries(path)  # a folder: its section
        if not inner:
            return []
        own = self.meta(posixpath.join(path, PAGES_FILE)).get("title") if self.awesome else None
        named = title or (str(own) if isinstance(own, str) and own.strip() else folder_title(name))
        return [self.node(named, None, inner, line)]

    @staticmethod
    def name_of(item: Any) -> str | None:
        if isinstance(item, dict) and len(item) == 1:
            item = next(iter(item.values()))
        return item.strip().strip("/") if isinstance(item, str) else None

    def meta(self, path: str) -> dict[str, Any]:
        if path not in self.files:
            return {}
        data, error = load_lined(self.read(path) or "")
        if error is not None:
            self.problems.append(
                f"{path}:{error[0]}: not valid YAML ({error[1]}): its folder's order was not "
                "read; fix the YAML"
            )
            return {}
        return data if isinstance(data, dict) else {}
