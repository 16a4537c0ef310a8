"""A Quarto project's table of contents: its ``_quarto.yml`` (or ``_quarto.yaml``) lists a
website's sidebar (``website.sidebar``: one, or several, each ``contents``) or a book's
chapters (``book.chapters``, then ``book.appendices``). An entry is a page's file
(``intro.qmd``), a page with its own label (``{href: x.qmd, text: Label}``), a section
(``{section: Title, contents: [...]}``, with its own page when it has an ``href``) or a
book's part (``{part: Title, chapters: [...]}``, the part's page when it names a file).
Quarto makes a page of every ``.qmd`` of the project; those its TOC does not list are
placed by their links. Globs and ``auto`` are Quarto's listing of a folder: not read."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.toc_formats import load_lined

CONFIG_NAMES = frozenset({"_quarto.yml", "_quarto.yaml"})


def is_quarto_config(path: str) -> bool:
    return posixpath.basename(path).lower() in CONFIG_NAMES


def quarto_toc(
    path: str,
    text: str,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> tuple[list[Any], str] | None:
    """(the nodes of the project's TOC made by ``node(title, path, children, line)``, the
    site's title); ``None`` when ``text`` configures no website or book."""
    data, error = load_lined(text)
    if error is not None:
        problems.append(f"{path}:{error[0]}: not valid YAML ({error[1]}): not read; fix the YAML")
        return None
    if not isinstance(data, dict):
        return None
    reader = _Reader(path, files, problems, node)
    book, site = data.get("book"), data.get("website")
    if isinstance(book, dict):
        items = [*_as_list(book.get("chapters")), *_appendices(book.get("appendices"))]
        return reader.items(items), _title(book) or _title(site)
    if isinstance(site, dict):
        bars = site.get("sidebar")
        roots: list[Any] = []
        for bar in bars if isinstance(bars, list) else [bars]:
            if isinstance(bar, dict):
                inner = reader.items(_as_list(bar.get("contents")))
                label = bar.get("title") if isinstance(bar.get("title"), str) else None
                many = isinstance(bars, list) and len(bars) > 1 and label
                roots += [node(label, None, inner, None)] if many else inner
        return roots, _title(site)
    return None


def quarto_own_files(home: str, files: Collection[str]) -> tuple[str, ...]:
    """The files and folders of the project Quarto renders no page from: those whose
    name begins with ``_`` or ``.`` (``_freeze/``, its computations; ``_extensions/``;
    ``_tools/``; ``_quarto-prerelease.yml``, a profile of its config)."""
    inside = home + "/" if home else ""
    own: set[str] = set()
    for f in files:
        if not f.startswith(inside):
            continue
        parts = f[len(inside) :].split("/")
        for depth, part in enumerate(parts):
            if part.startswith(("_", ".")):
                own.add(inside + "/".join(parts[: depth + 1]))
                break
    return tuple(sorted(own))


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _appendices(value: Any) -> list[Any]:
    items = _as_list(value)
    return [{"part": "Appendices", "chapters": items}] if items else []


def _title(section: Any) -> str:
    title = section.get("title") if isinstance(section, dict) else None
    return title.strip() if isinstance(title, str) else ""


class _Reader:
    def __init__(
        self, path: str, files: Collection[str], problems: list[str], node: Callable[..., Any]
    ) -> None:
        self.path, self.files, self.problems, self.node = path, files, problems, node
        self.home = posixpath.dirname(path)

    def items(self, items: list[Any]) -> list[Any]:
        lines = getattr(items, "lines", [None] * len(items))
        out = []
        for item, line in zip(items, lines, strict=False):
            made = self._item(item, line)
            if made is not None:
                out.append(made)
        return out

    def _item(self, item: Any, line: int | None) -> Any:
        if isinstance(item, str):
            page = self._page(item, line)
            return None if page is None else self.node(None, page, [], line)
        if not isinstance(item, dict):
            return None
        title = next(
            (item[k] for k in ("section", "part", "text") if isinstance(item.get(k), str)), None
        )
        children = self.items(_as_list(item.get("contents") or item.get("chapters")))
        href = item.get("href") or item.get("file")
        part = item.get("part")
        if isinstance(part, str) and part.lower().endswith(_PAGES):
            href, title = part, None  # a part named by its own page's file
        page = self._page(href, line) if isinstance(href, str) else None
        if page is None and not children:
            return None
        return self.node(title, page, children, line)

    def _page(self, target: str, line: int | None) -> str | None:
        target = target.strip()
        if not target or "*" in target or target == "auto" or "://" in target:
            return None  # a folder's listing, or another site's page
        if set(target) <= {"-", " "}:
            return None  # a separator
        page = posixpath.normpath(posixpath.join(self.home, target.lstrip("/")))
        if page in self.files:
            return page
        self.problems.append(
            f"{self.path}:{line or 1}: names {target}, which is not in the source; "
            "left out of the tree"
        )
        return None


#: What a page of a Quarto project is written in.
_PAGES = (".qmd", ".md", ".ipynb", ".rmd")
