"""A Hugo site: its content folder is the pages, its sections the tree.

Hugo publishes what is in its content folder (``contentDir``, ``content`` unless the
config says otherwise; a multilingual site's default language may have a folder of its
own, ``languages.en.contentDir: content/en``, or a folder named by it that the site's
module mounts as its content, ``content/en``), read from ``hugo.toml`` (or ``.yaml``,
``.json``), an older ``config.toml``, or ``config/_default/`` (read, never run). Its
menus are built from that folder: a section is a folder with an ``_index.md`` (its
``linkTitle``, else its ``title``, names it); a folder with an ``index.md`` is a page
(a leaf bundle: the page and its images); pages and sections are ordered by their
front matter's ``weight`` (none last), then by title, as Hugo orders them. Front matter
is YAML (``---``), TOML (``+++``) or JSON. A ``config.*`` with none of Hugo's keys
(``baseURL``, ``languageCode``, ``theme``, ``module``, ``contentDir``, ...) is another
tool's, and no site.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Collection
from typing import Any

import tomllib
import yaml

from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.translations import translated_pages

#: Hugo's config files, at the site's root or in ``config/_default/``.
CONFIG_NAMES = frozenset(
    f"{stem}.{ext}" for stem in ("hugo", "config") for ext in ("toml", "yaml", "yml", "json")
)
#: Keys only a Hugo config has: a ``config.yaml`` without one is another tool's.
_HUGO_KEYS = frozenset(
    {
        "baseurl",
        "languagecode",
        "defaultcontentlanguage",
        "contentdir",
        "theme",
        "module",
        "params",
        "taxonomies",
        "permalinks",
        "markup",
        "enablerobotstxt",
        "languages",
        # Zola's, whose content/ folder and _index.md sections are Hugo's
        "base_url",
        "compile_sass",
        "build_search_index",
        "generate_feeds",
        "generate_feed",
    }
)
_PAGES = (".md", ".markdown")
_SECTION = "_index"
_BUNDLE = "index"


def is_hugo_config(path: str) -> bool:
    """Whether ``path`` may be a Hugo config: by name, at a folder's top or in its
    ``config/_default/``."""
    name = posixpath.basename(path).lower()
    if name not in CONFIG_NAMES:
        return False
    folder = posixpath.dirname(path)
    return not folder or "/" not in folder or folder.endswith("config/_default")


def hugo_site(
    path: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    node: Callable[..., Any],
) -> tuple[list[Any], str, tuple[str, ...], dict[str, list[str]]] | None:
    """The tree of the Hugo site ``path`` configures, as nodes made by ``node(title,
    path, children, line)``, its pages' folder, the folders of its headless bundles
    (files, no pages) and the pages only a section's page shows (each section's page ->
    its pages, the site's order); ``None`` when ``path`` is no Hugo
    config or the folder holds no page."""
    config = _config(path, read(path) or "")
    if config is None:
        return None
    site = posixpath.dirname(path)
    if site.endswith("config/_default"):
        site = posixpath.dirname(posixpath.dirname(site))
    content = str(config.get("contentDir") or "content").strip("/")
    default = str(config.get("defaultContentLanguage") or "en")
    languages = config.get("languages")
    own = languages.get(default) if isinstance(languages, dict) else None
    if isinstance(own, dict) and isinstance(own.get("contentDir"), str):
        content = own["contentDir"].strip("/")
    root = posixpath.normpath(posixpath.join(site, content))
    root = "" if root == "." else root
    if root == ".." or root.startswith("../"):
        return None
    prefix = root + "/" if root else ""
    if any(f.startswith(f"{prefix}{default}/") for f in files):
        # the default language's own folder (content/en), mounted as the content by the
        # site's module config: its pages are the site's
        root, prefix = f"{prefix}{default}", f"{prefix}{default}/"
    pages = sorted(f for f in files if f.startswith(prefix) and f.lower().endswith(_PAGES))
    translated = translated_pages(pages)  # another language's: once, not once a page
    pages = [p for p in pages if p not in translated]
    if not pages:
        return None
    sections = _Sections(read, node)
    roots = sections.tree(prefix, pages)
    return roots, root, tuple(sections.unpublished), sections.shown_on


def hugo_about(path: str, text: str) -> tuple[str | None, str | None] | None:
    """The ``title`` and description (``params.description``, the default language's
    too) a Hugo config gives its site (its title, else the default language's; grpc.io
    names itself only there); ``None`` when it is no Hugo config."""
    config = _config(path, text)
    if config is None:
        return None

    def said(value: Any) -> str | None:
        return " ".join(value.split()) or None if isinstance(value, str) else None

    params = config.get("params") if isinstance(config.get("params"), dict) else {}
    languages = config.get("languages") if isinstance(config.get("languages"), dict) else {}
    own = languages.get(str(config.get("defaultContentLanguage") or "en"))
    own_params = own.get("params") if isinstance(own, dict) else None
    own = own if isinstance(own, dict) else {}
    described = (
        said(params.get("description"))
        or (said(own_params.get("description")) if isinstance(own_params, dict) else None)
        or said(own.get("description"))  # grpc.io: beside the language's own title
    )
    # a language's own title is the site's in that language (grpc.io's only title)
    return said(config.get("title")) or said(own.get("title")), described


def hugo_config(path: str, text: str, *, split: bool = False) -> dict[str, Any] | None:
    """The mapping of the Hugo config ``path`` (``None`` when it is none: another
    tool's, or unreadable); ``split``: one file of a split config (``params.yaml``),
    which holds none of a whole config's keys."""
    if split:
        data = _parse(path.lower().rsplit(".", 1)[-1], text)
        return data if isinstance(data, dict) else None
    return _config(path, text)


def hugo_base_url(path: str, text: str) -> Any:
    """The ``baseURL`` a Hugo config gives its site (``None`` when it is no Hugo
    config or gives none)."""
    config = _config(path, text)
    return config.get("baseURL", config.get("baseurl")) if config is not None else None


def _config(path: str, text: str) -> dict[str, Any] | None:
    """The config's mapping when it is Hugo's (by its name, or by a key only Hugo's
    config has); ``None`` otherwise."""
    data = _parse(path.lower().rsplit(".", 1)[-1], text)
    if not isinstance(data, dict):
        return None
    hugo = posixpath.basename(path).lower().startswith("hugo.")
    if not hugo and not {str(k).lower() for k in data} & _HUGO_KEYS:
        return None
    return data


def _parse(kind: str, text: str) -> Any:
    try:
        if kind == "toml":
            return tomllib.loads(text)
        if kind == "json":
            return json.loads(text)
        return yaml.safe_load(text)
    except (ValueError, yaml.YAMLError):  # tomllib's and json's errors are ValueErrors
        return None


def _unpublished(data: dict[str, Any]) -> bool:
    """Whether a bundle's front matter keeps it off the site: ``headless: true``, or
    ``build`` (``_build``, or cascaded to its pages) with ``render: never`` (Hugo's
    snippets folder, ``_common/``, included by a shortcode into other pages)."""
    if data.get("headless") is True:
        return True
    cascade = data.get("cascade")
    for holder in (data, cascade if isinstance(cascade, dict) else {}):
        if _never(_build(holder), "render"):
            return True
    return False


def _lists_its_pages(data: dict[str, Any]) -> bool:
    """Whether a section's page shows its pages, which the site never renders on their
    own: its ``cascade`` builds them with ``render: never`` but lists them (``list:
    local``; hugoDocs' glossary, 157 terms on one page), and it renders itself, titled
    (an untitled one over snippets, hugoDocs' ``_common/``, is no page to read)."""
    cascade = data.get("cascade")
    below = _build(cascade) if isinstance(cascade, dict) else None
    if data.get("headless") is True or below is None or _never(_build(data), "render"):
        return False
    if not str(data.get("title") or "").strip():
        return False
    return _never(below, "render") and not _never(below, "list")


def _by_title(entry: tuple[float, str, str]) -> tuple[float, str, str]:
    weight, title, path = entry
    return weight, title.casefold(), path


def _build(holder: dict[str, Any]) -> dict[str, Any] | None:
    found = holder.get("build", holder.get("_build"))
    return found if isinstance(found, dict) else None


def _never(build: dict[str, Any] | None, key: str) -> bool:
    return build is not None and str(build.get(key)).lower() in ("never", "false")


class _Sections:
    def __init__(self, read: Callable[[str], str | None], node: Callable[..., Any]) -> None:
        self.read = read
        self.node = node
        self.unpublished: list[str] = []  # folders of bundles the site does not render
        #: a section's page -> its pages, which only it shows (in the site's order)
        self.shown_on: dict[str, list[str]] = {}
        self._listing: set[str] = set()  # the folders of those sections

    def meta(self, path: str) -> tuple[float, str]:
        """A page's place among its siblings (its ``weight``; none last) and title."""
        data = front_matter(self.read(path) or "")
        stem = path.rsplit("/", 1)[-1].split(".")[0].lower()
        if stem == _SECTION and _lists_its_pages(data):
            self._listing.add(posixpath.dirname(path))
        elif stem in (_SECTION, _BUNDLE) and _unpublished(data):
            self.unpublished.append(posixpath.dirname(path))
        weight = data.get("weight")
        place = float(weight) if isinstance(weight, (int, float)) and weight else float("inf")
        title = data.get("linkTitle") or data.get("title") or ""
        return place, str(title)

    def tree(self, prefix: str, pages: list[str]) -> list[Any]:
        own: list[tuple[float, str, str, Any]] = []
        below: dict[str, list[str]] = {}
        for page in pages:
            rest = page[len(prefix) :]
            if "/" in rest:
                below.setdefault(rest.split("/", 1)[0], []).append(page)
            elif posixpath.splitext(rest)[0].lower() != _SECTION:
                place, title = self.meta(page)
                own.append((place, title.lower(), page, self.node(None, page, [], None)))
        for name, inner in below.items():
            folder = prefix + name + "/"
            bundle = _named(inner, folder, _BUNDLE)
            if bundle is not None:  # a leaf bundle: one page and its files
                place, title = self.meta(bundle)
                if folder.rstrip("/") in self.unpublished:
                    continue
                own.append((place, title.lower(), bundle, self.node(None, bundle, [], None)))
                continue
            section = _named(inner, folder, _SECTION)
            place, title = self.meta(section) if section else (float("inf"), "")
            if folder.rstrip("/") in self.unpublished:
                continue  # headless: its pages are snippets, no part of the site
            if section is not None and folder.rstrip("/") in self._listing:
                # its pages are shown on its page alone: read for it, no pages of their own
                shown = [p for p in inner if p != section]
                ordered = sorted(((*self.meta(p), p) for p in shown), key=_by_title)
                self.shown_on[section] = [p for _w, _t, p in ordered]  # weight, then title
                own.append(
                    (
                        place,
                        (title or name).lower(),
                        folder,
                        self.node(title or None, section, [], None),
                    )
                )
                continue
            children = self.tree(folder, inner)
            if section is not None or children:
                entry = self.node(title or None, section, children, None)
                own.append((place, (title or name).lower(), folder, entry))
        own.sort(key=lambda item: item[:3])
        return [entry for *_key, entry in own]


def _named(pages: list[str], folder: str, stem: str) -> str | None:
    """The page ``folder`` holds directly whose name is ``stem`` (``_index.md``)."""
    for page in pages:
        rest = page[len(folder) :]
        if "/" not in rest and posixpath.splitext(rest)[0].lower() == stem:
            return page
    return None
