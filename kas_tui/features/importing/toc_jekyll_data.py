"""A Jekyll site's navigation kept in its data files, as its theme's sidebar reads it.

Jekyll has no navigation of its own: a site's templates loop over a list in ``_data/``.
jekyllrb.com's ``_data/docs_nav.yml`` heads its sidebar's sections (``- title: Build``)
and lists their pages by the address the site serves them at (``docs: [link:
/docs/usage/]``); its ``tutorials.yml`` names pages of the ``tutorials`` collection
(``tutorials: [home, navigation]``); Minimal Mistakes' ``navigation.yml`` writes
``title:``/``url:``/``children:``; the Documentation Theme's ``sidebars/*.yml``
``folders:``/``folderitems:``/``url:``. Read alike: an entry is a mapping with a
title (``title``, ``name``, ``text``, ``label``), maybe the page it opens (``url``,
``link``, ``href``, ``path``, ``permalink``, ``page``), and the lists under its other
keys are its entries; a bare name in a list under a collection's key is that
collection's page.

A data file is a navigation when it names pages of the site: three or more and most of
what it names, or two and nothing else (``showcase.yml``'s addresses of other sites, ``permalinks.yml``'s
placeholders are not). A page's address is its ``permalink:``, else its collection's
permalink pattern (``/:collection/:path/``, a post's ``/:year/:month/:day/:title``),
else its path (``.html`` or a folder's ``index``), as Jekyll makes them; links are
compared without the slashes, ``.html`` or ``index`` that only spell one.

When one navigation has an entry every page of another sits under (the top bar's
"Docs" at ``/docs/``, ``docs_nav.yml``'s pages at ``/docs/...``), the other is the
sidebar of that entry and is read below it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.toc_formats import SITE_PAGES, URL, line_of, load_lined
from kas_tui.text.year_runs import post_date

_PAGES = SITE_PAGES["jekyll"]
_DATA = (".yml", ".yaml")
_TITLE_KEYS = ("title", "name", "text", "label")
_LINK_KEYS = ("url", "link", "href", "path", "permalink", "page")
#: Jekyll's named permalink styles, for posts (``permalink: pretty`` in ``_config.yml``).
_STYLES = {
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "pretty": "/:categories/:year/:month/:day/:title/",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "none": "/:categories/:title:output_ext",
}
#: A data file longer than any sidebar (jekyllrb.com's docs_nav.yml is 1.5 KB): a data
#: set the site prints (a list of thousands of plugins), never read as navigation.
_LARGEST = 256 * 1024
#: Nesting no sidebar reaches: a data file deeper is no navigation.
_DEEPEST = 12
#: Liquid around an address: ``{{ site.baseurl }}/docs/x``, ``{{ '/docs/x' | relative_url }}``.
_LIQUID_QUOTED = re.compile(r"""\{\{\s*['"]([^'"]*)['"]\s*\|[^}]*\}\}""")
_LIQUID = re.compile(r"\{\{[^}]*\}\}|\{%[^%]*%\}")


def address(url: str) -> str:
    """A site address compared as Jekyll serves it: ``/docs/usage/``, ``docs/usage``,
    ``/docs/usage.html`` and ``/docs/usage/index.html`` alike (``docs/usage``); the
    home page is ``""``."""
    url = _LIQUID_QUOTED.sub(r"\1", url)
    url = _LIQUID.sub("", url).split("#", 1)[0].split("?", 1)[0].strip().strip("/")
    url = url.removesuffix(".html").removesuffix(".htm")
    if url == "index" or url.endswith("/index"):
        url = url[: -len("index")].rstrip("/")
    return url


@dataclass
class DataNav:
    roots: list[Any]
    #: a page's address (``docs/usage``) -> its source file, where they differ
    served_as: dict[str, str] = field(default_factory=dict)
    also_read: frozenset[str] = frozenset()


def data_nav(
    config_path: str,
    config: dict[str, Any],
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> DataNav | None:
    """The navigation the data files of the Jekyll site ``config_path`` configures (see
    the module docstring), as nodes made by ``node(title, path, children, line)``;
    ``None`` when none of its data files lists its pages."""
    site = posixpath.dirname(config_path)
    inside = f"{site}/" if site else ""
    data_dir = posixpath.join(site, str(config.get("data_dir") or "_data").strip("/"))
    navs = sorted(f for f in files if f.startswith(f"{data_dir}/") and f.lower().endswith(_DATA))
    if not navs:
        return None
    collections = _collections(config)
    pages = _addresses(site, config, collections, read, files)
    found: list[_Tree] = []
    for path in navs:
        text = read(path) or ""
        if len(text) > _LARGEST:
            continue  # a data set, no sidebar: not parsed for nothing
        data, error = load_lined(text)
        if error is not None or not isinstance(data, (list, dict)):
            continue
        lists = [(None, data)] if isinstance(data, list) else list(data.items())
        for key, value in lists:
            if not isinstance(value, list):
                continue
            tree = _Tree(path, pages, collections, inside, files, node)
            roots = tree.entries(value, str(key) if key is not None else None)
            named = len(tree.named)
            if (named >= 3 and named >= 0.6 * (named + tree.missed)) or (
                named >= 2 and not tree.missed
            ):
                tree.roots = roots
                found.append(tree)
    if not found:
        return None
    for tree in found:
        problems.extend(tree.problems)
    roots = _nested(found, {p: a for a, p in pages.items()})
    # a post keeps the date its name opens with (the site serves it by its title alone)
    served = {
        a: p
        for a, p in pages.items()
        if a
        and posixpath.splitext(p)[1] != ".html"
        and post_date(posixpath.splitext(posixpath.basename(p))[0]) is None
    }
    return DataNav(roots, served, frozenset(t.file for t in found))


class _Tree:
    """One list of one data file read as navigation: what it names, what it misses."""

    def __init__(
        self,
        file: str,
        pages: dict[str, str],
        collections: dict[str, dict[str, Any]],
        inside: str,
        files: Collection[str],
        node: Callable[..., Any],
    ) -> None:
        self.file, self.pages, self.collections = file, pages, collections
        self.inside, self.files, self.node = inside, files, node
        self.named: list[str] = []
        self.missed = 0
        self.problems: list[str] = []
        self.roots: list[Any] = []
        self._seen: set[int] = set()  # a list an alias repeats is read once

    def entries(self, items: list[Any], key: str | None, depth: int = 0) -> list[Any]:
        if id(items) in self._seen or depth > _DEEPEST:
            return []
        self._seen.add(id(items))
        out = []
        for index, item in enumerate(items):
            line = line_of(items, index)
            if isinstance(item, str):
                page = self._page(item, key, line)
                if page is not None:
                    out.append(self.node(None, page, [], line))
            elif isinstance(item, dict):
                title = next(
                    (str(item[k]) for k in _TITLE_KEYS if isinstance(item.get(k), str)), None
                )
                link = next((item[k] for k in _LINK_KEYS if isinstance(item.get(k), str)), None)
                page = self._page(link, None, line) if link is not None else None
                children = []
                for k, v in item.items():
                    if isinstance(v, list):
                        children += self.entries(v, str(k), depth + 1)
                if page is not None or children:
                    out.append(self.node(title.strip() if title else None, page, children, line))
        return out

    def _page(self, target: str, key: str | None, line: int | None) -> str | None:
        target = target.strip()
        if not target or URL.match(target) or target.startswith("#"):
            self.missed += bool(target) and not target.startswith("#")
            return None
        at = address(target)
        found = self.pages.get(at)
        if found is None and key in self.collections and "/" not in at:
            # a name in a collection's list: its page served at /tutorials/home/, or its file
            found = self.pages.get(f"{key}/{at}") or next(
                (f for ext in _PAGES if (f := f"{self.inside}_{key}/{at}{ext}") in self.files),
                None,
            )
        if found is None:
            self.missed += 1
            self.problems.append(
                f"{self.file}:{line or 1}: names {target}, which no page of the site is served "
                "at: not listed; fix the link or add the page"
            )
            return None
        self.named.append(found)
        return found


def _collections(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The site's collections (``posts`` always) -> their settings."""
    raw = config.get("collections")
    found: dict[str, dict[str, Any]] = {"posts": {}}
    if isinstance(raw, dict):
        found.update({str(k): v if isinstance(v, dict) else {} for k, v in raw.items()})
    elif isinstance(raw, list):
        found.update({str(k): {} for k in raw})
    return found


def _addresses(
    site: str,
    config: dict[str, Any],
    collections: dict[str, dict[str, Any]],
    read: Callable[[str], str | None],
    files: Collection[str],
) -> dict[str, str]:
    """Each page's address (:func:`address`) -> its source file, as Jekyll makes it."""
    inside = f"{site}/" if site else ""
    folder = str(config.get("collections_dir") or "").strip("/")
    default = str(config.get("permalink") or "date")
    found: dict[str, str] = {}
    for rel in sorted(files):
        if not rel.startswith(inside) or not rel.lower().endswith(_PAGES):
            continue
        local = rel[len(inside) :]
        stem = posixpath.splitext(local)[0]
        parts = local.split("/")
        collection, rest = _in_collection(parts, folder, collections)
        if collection is None and any(p.startswith("_") for p in parts):
            continue  # layouts, includes, data: no pages
        data = front_matter(read(rel) or "")
        permalink = data.get("permalink")
        if isinstance(permalink, str) and permalink.strip():
            at = address(permalink)
        elif collection is None:
            at = address(stem)
        else:
            at = address(_pattern(collection, rest, collections[collection], default, data))
        found.setdefault(at, rel)
    return found


def _in_collection(
    parts: list[str], folder: str, collections: dict[str, dict[str, Any]]
) -> tuple[str | None, str]:
    """The collection a site file is a document of, and its path in it (without
    extension): ``_docs/usage.md`` is ``docs``'s ``usage``."""
    lead = folder.split("/") if folder else []
    if parts[: len(lead)] != lead or len(parts) <= len(lead) + 1:
        return None, ""
    name = parts[len(lead)]
    if name.startswith("_") and name[1:] in collections:
        rest = "/".join(parts[len(lead) + 1 :])
        return name[1:], posixpath.splitext(rest)[0]
    return None, ""


def _pattern(
    collection: str, rest: str, settings: dict[str, Any], default: str, data: dict[str, Any]
) -> str:
    """A collection document's address by its collection's permalink pattern."""
    post = collection == "posts"
    pattern = settings.get("permalink")
    if not isinstance(pattern, str) or not pattern.strip():
        pattern = default if post else "/:collection/:path:output_ext"
    pattern = _STYLES.get(pattern.strip(), pattern)
    name = posixpath.basename(rest)
    year, month, day, title = post_date(name) or ("", "", "", name)
    slug = str(data.get("slug") or title)
    values = {
        "collection": collection,
        "path": rest,
        "name": name,
        "title": slug,
        "slug": slug,
        "categories": "",
        "output_ext": ".html",
        "year": year,
        "month": month.zfill(2) if month else "",
        "i_month": str(int(month)) if month else "",
        "day": day.zfill(2) if day else "",
        "i_day": str(int(day)) if day else "",
        "short_year": year[2:],
    }
    out = re.sub(r":([a-z_]+)", lambda m: values.get(m.group(1), m.group(0)), pattern)
    return re.sub(r"/{2,}", "/", out)


def _nested(trees: list[_Tree], address_of: dict[str, str]) -> list[Any]:
    """The trees' roots, each tree every page of which sits under one entry of another
    (its address a folder of theirs) read below that entry; the rest in file order, the
    trees holding others first."""
    attached: set[int] = set()
    holders: list[int] = []
    for i, tree in enumerate(trees):
        below = [address_of.get(p, "") for p in tree.named]
        best: tuple[int, Any, int] | None = None
        for j, other in enumerate(trees):
            if j == i or j in attached:
                continue
            for entry in other.roots:
                at = address_of.get(entry.path, "") if entry.path else ""
                holds = at and all(b == at or b.startswith(f"{at}/") for b in below)
                if holds and (best is None or len(at) > best[0]):
                    best = (len(at), entry, j)
        if best is not None:
            _length, entry, j = best
            entry.children.extend(tree.roots)
            attached.add(i)
            holders.append(j)
    order = [*dict.fromkeys(holders), *range(len(trees))]
    return [r for i in dict.fromkeys(order) if i not in attached for r in trees[i].roots]
