"""A Logseq page's properties: the ``key:: value`` lines at its top, which Logseq shows
as the page's properties block (``alias:: term/block reference``, ``description::
Clickable link to a particular Logseq block``, ``type:: [[Feature]]``).

Built as text, they were the page's first paragraph, and its description read "Type::
Feature platforms:: All Platforms alias:: term/block reference description:: ...". They
are the page's frontmatter: ``title::`` its title, and one of its ``aliases`` (links name
the page by it, not by its file's name; without one, the title is the page name, the
file's name with a namespace's ``___`` as ``/``, as Logseq names it), ``description::`` its
description, ``alias::`` its ``aliases``, ``tags::`` its ``tags``, and every other
property a key of its own, its ``[[links]]`` as their names; a property named as a key
OKF keeps for itself (``type``, ``status``, ...) is kept as ``logseq-type``.
"""

from __future__ import annotations

import re
from typing import Any

#: One property line: ``key:: value`` (an older page writes ``- key:: value``).
_PROPERTY = re.compile(r"^(?:- )?(?P<key>[A-Za-z][\w-]*):: ?(?P<value>.*)$")
#: Properties whose values are lists of names.
_LISTS = {"alias": "aliases", "tags": "tags"}
#: Keys OKF gives a meaning of its own: a Logseq property so named keeps its own.
_RESERVED = frozenset({"type", "status", "sources", "generated", "verified", "stale_after"})


def page_properties(text: str) -> tuple[dict[str, str], int]:
    """The ``key:: value`` properties on the first lines of ``text``, and where the text
    after them (and the blank lines below them) starts; ``({}, 0)`` when the page opens
    otherwise."""
    found: dict[str, str] = {}
    at = len(text) - len(text.lstrip("\r\n"))  # blank lines above them
    for line in text[at:].splitlines(keepends=True):
        match = _PROPERTY.match(line.rstrip("\r\n").strip())
        if match is None:
            break
        found.setdefault(match.group("key").lower(), match.group("value").strip())
        at += len(line)
    if not found:
        return {}, 0
    while at < len(text) and text[at] in "\r\n":
        at += 1
    return found, at


def as_frontmatter(properties: dict[str, str], page_name: str) -> dict[str, Any]:
    """``properties`` as frontmatter (:mod:`module docs <.logseq>`)."""
    titled = _plain(properties.get("title", ""))
    front: dict[str, Any] = {"title": titled or page_name}
    for key, value in properties.items():
        if key == "title":
            continue
        if key in _LISTS:
            front[_LISTS[key]] = _names(value)
        elif key == "description":
            front["description"] = _plain(value)
        else:
            front[f"logseq-{key}" if key in _RESERVED else key] = _plain(value)
    if titled and titled != page_name:  # links name it so, not by its file's name
        front["aliases"] = [*front.get("aliases", []), titled]
    return front


def page_name(stem: str) -> str:
    """The page a Logseq file holds, by its name: ``Whiteboard___Action Bar`` is
    "Whiteboard/Action Bar"."""
    return stem.replace("___", "/").replace("%2F", "/").replace("%2f", "/")


def _names(value: str) -> list[str]:
    """A list property's names: ``[[a]], b`` -> ["a", "b"]."""
    return [n for n in (_plain(part) for part in value.split(",")) if n]


def _plain(value: str) -> str:
    """A value with its ``[[links]]`` as their names."""
    return re.sub(r"\[\[([^\[\]]*)\]\]", r"\1", value).strip()
