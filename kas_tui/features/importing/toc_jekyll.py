"""A Jekyll site's navigation: in its pages' front matter with the Just the Docs theme,
else in its data files (:mod:`.toc_jekyll_data`).

``_config.yml`` names the theme (``theme: just-the-docs``, or ``remote_theme:
just-the-docs/just-the-docs``; read, never run). Each page says where it sits: a page
with no ``parent`` is at the top, one with ``parent: Navigation`` sits below the page
titled "Navigation" (``grand_parent`` tells two such pages apart), and siblings are
ordered by ``nav_order`` (numbers first, then by title), as the theme orders them. A
page with ``nav_exclude: true`` is in no menu. A ``parent`` no page is titled is said,
and the page stays at the top.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.toc_formats import SITE_PAGES, load_lined
from kas_tui.features.importing.toc_jekyll_data import DataNav, data_nav

_PAGES = SITE_PAGES["jekyll"]
#: What Jekyll publishes of no site (its defaults, beside a config's own ``exclude``).
_JEKYLL_EXCLUDES = ("Gemfile", "Gemfile.lock", "node_modules", "vendor", ".bundle")


def is_jekyll_config(path: str) -> bool:
    """Whether ``path`` is named as a Jekyll site's config, at the root or in the
    folder a repository keeps its site in (jekyll/jekyll's ``docs/_config.yml``)."""
    return posixpath.basename(path).lower() in _CONFIG_NAMES


#: Jekyll's own folders beside its ``_config.yml``: layouts and their includes, styles,
#: data files, plugins, unpublished drafts, the built site and its cache; none holds a
#: page of the site (jekyllrb.com's ``_layouts/news_item.html`` was built as a document
#: "Web page whose text opens with “{{ page.title }} Permalink...”", its ``_data/*.yml``
#: as eleven more).
JEKYLL_OWN = frozenset(
    {"_layouts", "_includes", "_sass", "_data", "_plugins", "_drafts", "_site", ".jekyll-cache"}
)


def in_jekyll_own_folder(rel: str, files: Collection[str]) -> bool:
    """Whether the source file ``rel`` is in one of :data:`JEKYLL_OWN`'s folders of a
    Jekyll site (a folder beside a ``_config.yml`` of ``files``)."""
    parts = rel.split("/")
    for at, part in enumerate(parts[:-1]):
        if part in JEKYLL_OWN:
            home = "/".join(parts[:at])
            if any(posixpath.join(home, name) in files for name in _CONFIG_NAMES):
                return True
    return False


_CONFIG_NAMES = ("_config.yml", "_config.yaml")


def jekyll_site(
    path: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> tuple[list[Any], tuple[str, ...], DataNav | None] | None:
    """The navigation of the Jekyll site whose ``_config.yml`` is ``path``, as nodes
    made by ``node(title, path, children, line)``; what Jekyll does not publish (its
    ``exclude:`` list, its defaults, ``_`` folders but its collections'); and the data
    files' navigation when it is theirs. ``None`` when neither its pages nor its data
    files place its pages."""
    config, _error = load_lined(read(path) or "")
    if not isinstance(config, dict):
        return None
    excluded = config.get("exclude") if isinstance(config.get("exclude"), list) else []
    unpublished = {str(e).strip("/") for e in [*excluded, *_JEKYLL_EXCLUDES] if str(e).strip("/")}
    unpublished |= {f.split("/", 1)[0] for f in files if f.startswith("_") and "/" in f}
    roots = _just_the_docs(path, config, read, files, problems, node, unpublished)
    if roots is not None:
        return roots, tuple(sorted(unpublished)), None
    nav = data_nav(path, config, read, files, problems, node)
    if nav is None:
        return None
    pages = set(nav.served_as.values())  # a collection's folder holds pages
    unpublished = {u for u in unpublished if not any(p.startswith(f"{u}/") for p in pages)}
    return nav.roots, tuple(sorted(unpublished)), nav


def _just_the_docs(
    path: str,
    config: dict[str, Any],
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
    unpublished: set[str],
) -> list[Any] | None:
    """The navigation of a Just the Docs site; ``None`` when it configures another
    theme and no page places itself (``nav_order``, ``parent``)."""
    theme = f"{config.get('theme') or ''} {config.get('remote_theme') or ''}".lower()
    hidden = tuple(f"{u}/" for u in unpublished)
    pages: list[tuple[str, dict[str, Any]]] = []
    for rel in sorted(files):
        parts = rel.split("/")
        if not rel.lower().endswith(_PAGES) or any(p.startswith("_") for p in parts):
            continue
        if rel in unpublished or rel.startswith(hidden):
            continue
        data = front_matter(read(rel) or "")
        if data.get("title") and not data.get("nav_exclude"):
            pages.append((rel, data))
    placed = sum(1 for _rel, d in pages if "nav_order" in d or "parent" in d)
    if "just-the-docs" not in theme and placed < 3:  # the theme's own site names none
        return None
    titled: dict[str, list[str]] = {}
    for rel, data in pages:
        titled.setdefault(str(data["title"]), []).append(rel)
    children: dict[str | None, list[str]] = {}
    meta = dict(pages)
    for rel, data in pages:
        parent = data.get("parent")
        above = None
        if parent:
            candidates = titled.get(str(parent), [])
            grand = data.get("grand_parent")
            if grand and len(candidates) > 1:
                candidates = [c for c in candidates if meta[c].get("parent") == grand]
            above = candidates[0] if candidates else None
            if above is None:
                problems.append(
                    f"{rel}:1: its parent {parent!r} is no page's title: it is listed at "
                    "the top; fix the parent or title that page so"
                )
        children.setdefault(above, []).append(rel)

    def order(rel: str) -> tuple[int, float, str, str]:
        place = meta[rel].get("nav_order")
        number = isinstance(place, (int, float))
        title = str(meta[rel]["title"]).lower()
        return (0 if number else 1, float(place) if number else 0.0, title, rel)

    def tree(above: str | None, seen: frozenset[str]) -> list[Any]:
        out = []
        for rel in sorted(children.get(above, []), key=order):
            if rel in seen:
                continue  # a page its own ancestor: once
            below = tree(rel, seen | {rel})
            out.append(node(str(meta[rel]["title"]), rel, below, None))
        return out

    return tree(None, frozenset())
