"""A site's home page written as front matter alone, as VuePress' and VitePress' default
themes lay it out: VuePress' ``home: true`` with ``heroText``, ``tagline``, ``actions``
(VuePress 1: ``actionText``/``actionLink``) and ``features: [{title, details}]``;
VitePress' ``layout: home`` with ``hero: {name, text, tagline, actions}`` and
``features``. The theme draws the page from them; a page with no words of its own
(``README.md`` of ``---`` lines alone, or a component) reads as what the theme shows:
its hero's name as its heading, its tagline, its actions' links, each feature a
section.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.include_syntax import frontmatter_end
from kas_tui.text import prose
from kas_tui.text.wording import counted


def is_home_layout(front: Mapping[str, Any]) -> bool:
    """Whether a page's front matter lays it out as a site's home (``home: true``,
    ``layout: home``)."""
    return front.get("home") is True or front.get("layout") == "home"


def home_body(front: Mapping[str, Any], body: str) -> str | None:
    """The Markdown the theme shows for a home page (front matter ``front``) whose
    ``body`` has no words of its own; ``None`` when it has words, is no home page, or
    its front matter gives nothing to show."""
    if not is_home_layout(front) or _has_words(body):
        return None
    hero = front.get("hero") if isinstance(front.get("hero"), Mapping) else {}
    name = _text(front.get("heroText")) or _text(hero.get("name"))
    lines = [f"# {name}"] if name else []
    said = [_text(hero.get("text")), _text(front.get("tagline")) or _text(hero.get("tagline"))]
    lines += [s for s in said if s and s != name]
    links = [
        f"- [{_text(a.get('text'))}]({_text(a.get('link'))})"
        for a in _list(front.get("actions")) + _list(hero.get("actions"))
        if isinstance(a, Mapping) and _text(a.get("text")) and _text(a.get("link"))
    ]
    if _text(front.get("actionText")) and _text(front.get("actionLink")):
        links.append(f"- [{_text(front['actionText'])}]({_text(front['actionLink'])})")
    lines += ["\n".join(links)] if links else []
    for feature in _list(front.get("features")):
        title = _text(feature.get("title")) if isinstance(feature, Mapping) else None
        if title:
            details = _text(feature.get("details"))
            lines.append(f"## {title}\n\n{details}" if details else f"## {title}")
    if not any(not line.startswith("- [") for line in lines):
        return None  # links alone say nothing the pages they lead to do not
    return "\n\n".join(lines) + "\n" + ("\n" + body.strip() + "\n" if body.strip() else "")


def _has_words(body: str) -> bool:
    return any(
        prose.letter_count(block.text) for block in prose.blocks(body) if block.kind != "code"
    )


def _text(value: Any) -> str | None:
    return " ".join(value.split()) or None if isinstance(value, str) else None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


#: The most bytes of a page the theme draws from its front matter alone: a few lines.
THEME_PAGE_MAX = 2048


def theme_drawn(text: str) -> str | None:
    """The layout a page names when its theme draws it from data or code and it says
    nothing itself (Hugo's ``layout: search``, a Hexo site's ``layout: plugins``, a
    VitePress home that is a component, ``<Home />``): front matter with a ``layout``,
    no words of its own, no home the theme writes out of it (:func:`home_body`);
    ``None`` for any other page."""
    end = frontmatter_end(text)
    if not end:
        return None
    front = front_matter(text)
    layout = front.get("layout")
    if not isinstance(layout, str) or not layout.strip() or _has_words(text[end:]):
        return None
    if home_body(front, text[end:]) is not None or _text(front.get("description")):
        return None
    return layout.strip()


def without_theme_drawn(
    documents: list[str],
    read: Callable[[str], str | None],
    root: Path,
    notes: list[str],
    names_folder: Callable[[str], bool],
) -> list[str]:
    """``documents`` (of the folder ``root``) without the pages the site's theme draws
    (:func:`theme_drawn`), said in ``notes``; a section's own page (Hugo's ``_index.md``:
    ``names_folder``) stays, as it names its folder."""
    drawn: dict[str, str] = {}
    for rel, text in _small_pages(documents, root, read, lambda r: not names_folder(r)):
        layout = theme_drawn(text)
        if layout is not None:
            drawn[rel] = layout
    if drawn:
        first, n = min(drawn), len(drawn)
        notes.append(
            f"{first}: {counted(n, 'page')} the site's theme draws from its data or code "
            f"(layout: {drawn[first]}), no text of {'its' if n == 1 else 'their'} own; left out"
        )
    return [d for d in documents if d not in drawn]


def _small_pages(
    documents: list[str],
    root: Path,
    read: Callable[[str], str | None],
    wanted: Callable[[str], bool],
    *more: str,
) -> Iterator[tuple[str, str]]:
    """(path, text) of the Markdown pages of ``documents`` (``.md``, ``.markdown`` and
    the suffixes ``more``) that ``wanted`` asks about, small enough to be front matter
    alone (:func:`_small`)."""
    for rel in documents:
        page = rel.lower().endswith((".md", ".markdown", *more))
        if page and wanted(rel) and _small(root / rel):
            yield rel, read(rel) or ""


def _small(path: Path) -> bool:
    """Whether ``path`` is small enough to be a page of front matter alone."""
    try:
        return path.stat().st_size <= THEME_PAGE_MAX
    except OSError:
        return False


def name_only(text: str) -> str | None:
    """The title a section's landing page gives its folder when that is all it holds:
    front matter with a ``title`` (and no ``description``, no home the theme draws), no
    words of its own (react-router's ``start/index.md``: ``title: Getting Started``,
    svelte's ``03-template-syntax/index.md``). The site lists the section's pages under
    that name; as a document it was "Document imported from index.md". ``None`` for
    any other page."""
    end = frontmatter_end(text)
    if not end or _has_words(text[end:]) or "<" in text[end:]:
        return None
    front = front_matter(text)
    title = _text(front.get("title"))
    if not title or _text(front.get("description")) or home_body(front, text[end:]):
        return None
    return title


def without_name_only(
    documents: list[str],
    read: Callable[[str], str | None],
    root: Path,
    notes: list[str],
    is_section_page: Callable[[str], bool],
) -> tuple[list[str], dict[str, str]]:
    """``documents`` (of the folder ``root``) without the section pages that only name
    their folder (:func:`name_only`), said in ``notes``; and folder -> the name each
    gives it."""
    named: dict[str, str] = {}
    for rel, text in _small_pages(documents, root, read, is_section_page, ".mdx"):
        title = name_only(text)
        if title is not None:
            named[rel] = title
    if named:
        first, n = min(named), len(named)
        notes.append(
            f"{first}: {counted(n, 'section page')} only name{'s' if n == 1 else ''} "
            f"{'its folder' if n == 1 else 'their folders'} (title: {named[first]}), no text "
            "of their own: the folders take those names; no documents"
        )
    folders = {rel.rsplit("/", 1)[0] if "/" in rel else "": t for rel, t in named.items()}
    return [d for d in documents if d not in named], folders
