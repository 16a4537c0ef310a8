"""A bookdown book's table of contents: its ``_bookdown.yml`` lists the chapters in order
(``rmd_files``: a list, or one per output format, the HTML one read), else every ``.Rmd``
file of its folder (``index.Rmd`` first, then by name, none whose name starts with
``_``). A chapter opening with a part's heading (``# (PART) Basics {-}``, ``# (APPENDIX)
Appendix {-}``) starts that part: it and the chapters after it are the part's. The files
a listing leaves out are no chapters of the book (adv-r comments out
``Connections.Rmd``)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.toc_formats import load_lined
from kas_tui.text.bookdown_syntax import part_title

CONFIG_NAME = "_bookdown.yml"
#: A chapter's first-level headings, where a part's opens.
_H1 = re.compile(r"^#[ \t]+(.+)$", re.M)


def is_bookdown_config(path: str) -> bool:
    return posixpath.basename(path).lower() == CONFIG_NAME


def bookdown_toc(
    path: str,
    text: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> tuple[list[Any], frozenset[str]]:
    """(the book's chapters as nodes made by ``node(title, path, children, line)``, its
    parts as sections; the ``.Rmd`` files of its folder it leaves out)."""
    home = posixpath.dirname(path)
    inside = home + "/" if home else ""
    own = sorted(
        f
        for f in files
        if f.startswith(inside)
        and "/" not in f[len(inside) :]
        and f.lower().endswith(".rmd")
        and not posixpath.basename(f).startswith("_")
    )
    data, error = load_lined(text)
    if error is not None:
        problems.append(
            f"{path}:{error[0]}: not valid YAML ({error[1]}): its chapters' order was not read"
        )
    listed = data.get("rmd_files") if isinstance(data, dict) else None
    if isinstance(listed, dict):
        listed = listed.get("html") or next(iter(listed.values()), None)
    if isinstance(listed, list):
        chapters = []
        for name in listed:
            page = posixpath.normpath(posixpath.join(home, str(name).strip()))
            if page in files:
                chapters.append(page)
            else:
                problems.append(f"{path}:1: rmd_files names {name}, which is not in the source")
        left_out = frozenset(set(own) - set(chapters))
    else:
        index = [f for f in own if posixpath.basename(f).lower() == "index.rmd"]
        chapters, left_out = index + [f for f in own if f not in index], frozenset()
    roots: list[Any] = []
    part: Any = None
    for chapter in chapters:
        head = (read(chapter) or "")[:20000]
        title = next((t for h in _H1.finditer(head) if (t := part_title(h.group(1)))), None)
        if title is not None:
            part = node(title, None, [], None)
            roots.append(part)
        leaf = node(None, chapter, [], None)
        (part.children if part is not None else roots).append(leaf)
    return roots, left_out
