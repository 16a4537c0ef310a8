"""docfx's structured YAML pages as the Markdown pages they render as.

A docfx site writes some pages as YAML, not Markdown: a file opening with
``### YamlMime:FAQ`` is a page of questions and answers, ``### YamlMime:Hub`` and
``### YamlMime:Landing`` are the site's landing pages of link cards. Imported as text
they became a code block titled from the file's name ("Faq copy paste") and described
as "Data file whose text opens with ...": an agent could neither find nor read them.
Here each becomes the page the site shows: its title and description from the page's
own ``title`` and ``metadata``, its ``summary`` as the opening, every section a heading,
every question a heading with its answer below, every card's links a list.

The structure is walked generically (any mapping with a ``title``/``name``/``question``
is a heading; ``text``/``title`` with ``url`` a link; ``summary``/``answer``/``content``
prose), so the other YamlMime kinds docfx sites use read as well as these three.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

#: The first line docfx reads a structured YAML page by.
_MARK = re.compile(r"\A\ufeff?###\s*YamlMime:([A-Za-z]+)")
#: Keys holding prose, in the order a page shows them.
_PROSE = ("summary", "answer", "content", "description")
#: Keys naming a part of the page (a heading).
_NAMES = ("question", "title", "name")
#: Keys that are the page's machinery, never shown.
_HIDDEN = frozenset({"metadata", "brand", "itemType", "linkListType", "imageSrc", "image", "uid"})
#: Deepest heading level used (deeper parts stay at this level).
_DEEPEST = 4


def yamlmime_kind(text: str) -> str | None:
    """The ``YamlMime`` kind ``text`` declares on its first line (``FAQ``, ``Hub``,
    ``Landing``...), or ``None`` when it is plain YAML."""
    match = _MARK.match(text)
    return match.group(1) if match else None


def docfx_page(text: str) -> tuple[dict[str, Any], str] | None:
    """``text`` (a docfx structured YAML page) as (frontmatter, Markdown body);
    ``None`` when it is not one or its YAML cannot be read (it is then imported as
    text, as before)."""
    kind = yamlmime_kind(text)
    if kind is None:
        return None
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    title = _plain(data.get("title")) or _plain(meta.get("title"))
    description = _plain(meta.get("description")) or _first_line(_plain(data.get("summary")))
    front: dict[str, Any] = {}
    if title:
        front["title"] = title
    if description:
        front["description"] = description
    for key, value in meta.items():
        if key not in ("title", "description") and isinstance(value, str | int | float | bool):
            front.setdefault(str(key), value)
    if kind.lower() == "faq":
        front.setdefault("ms.topic", "faq")
    lines: list[str] = [f"# {title}", ""] if title else []
    try:
        _render(data, 1, lines, top=True, budget=[_MOST_LINES], depth=0)
    except _TooMuch:
        return None  # an alias bomb or a nesting no page has: imported as text
    body = "\n".join(lines).strip("\n") + "\n"
    return front, re.sub(r"\n{3,}", "\n\n", body)


#: Most lines a page renders to, and deepest nesting walked: YAML aliases can make a
#: small file a structure of billions of nodes (`&a [*b, *b, ...]`), which no page is.
_MOST_LINES = 200_000
_DEEPEST_NESTING = 40


class _TooMuch(Exception):
    pass


def _render(
    node: Any, level: int, out: list[str], *, budget: list[int], depth: int, top: bool = False
) -> None:
    budget[0] -= 1
    if budget[0] < 0 or depth > _DEEPEST_NESTING:
        raise _TooMuch
    if isinstance(node, list):
        for item in node:
            _render(item, level, out, budget=budget, depth=depth + 1)
        return
    if not isinstance(node, dict):
        text = _plain(node)
        if text:
            out += [text, ""]
        return
    link = _link(node)
    if link:
        out.append(link)
        return
    name = "" if top else next((_plain(node[k]) for k in _NAMES if _plain(node.get(k))), "")
    inner = level
    if name:
        inner = min(level + 1, _DEEPEST)
        out += ["", f"{'#' * inner} {name}", ""]
    for key in _PROSE:
        text = _plain(node.get(key))
        if text and not (top and key == "description"):
            out += [text, ""]
    links_before = len(out)
    for key, value in node.items():
        if key in _HIDDEN or key in _PROSE or key in _NAMES or not isinstance(value, list | dict):
            continue
        _render(value, inner, out, budget=budget, depth=depth + 1)
    if len(out) > links_before and out[-1] != "":
        out.append("")


def _link(node: dict[str, Any]) -> str | None:
    url = _plain(node.get("url") or node.get("href"))
    text = _plain(node.get("text") or node.get("title"))
    if not url or not text:
        return None
    return f"- [{text}]({url})"


def _plain(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def _first_line(text: str) -> str:
    """The first paragraph of ``text`` as one line."""
    return " ".join(text.split("\n\n", 1)[0].split())
