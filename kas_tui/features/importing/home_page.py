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

from collections.abc import Mapping
from typing import Any

from kas_tui.text import prose


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
