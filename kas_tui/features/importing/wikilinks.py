"""Wikilinks, as Obsidian (and Foam, and a GitHub wiki) writes links between notes:
``[[Refund policy]]``, ``[[Obsidian Credit#Add credit|purchase credit]]``,
``[[#Enable early access versions|new versions]]``, ``![[bases-noshadow.png]]``.

Markdown does not read them: built as written, the 1,550 links between the pages of
Obsidian's own help were text an agent could not follow, and no check saw them. Here
each one outside code becomes the Markdown link a reader of the vault follows, to a path
relative to the page, which the build then rewrites as it rewrites every link:

- the name is a note's file name without ``.md`` or ``.tid`` (or a file's with its
  extension), in any folder; as a GitHub wiki names its pages, its spaces may be the
  file name's hyphens (``[[Collector Setup]]``: ``Collector-Setup.md``); a name with folders (``Plugins/Sync``) is the end of a path. Of several
  notes so named, the one nearest the page (most folders shared, then fewest folders)
  is meant, as the same name in another language's or another vault's folder is not;
- ``#Heading`` is the anchor the heading gets; ``#^block`` (a block's id, which no
  Markdown page marks) links to the page; ``|text`` is the link's text (a GitHub wiki
  writes ``[[text|Page]]``: when only the second part names a page, it is the page);
- Dendron names the vault before the note (``[[Commands|dendron://site/dendron.ref.
  commands]]``): the note is found by its name alone;
- ``![[image.png]]`` (``|300`` a width) shows the image; ``![[Note]]``, which Obsidian
  shows inside the page, links to it.

A wikilink that names no file of the source (a note not yet written) stays as written,
and is said.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from kas_tui.features.importing.convert_model import TIDDLER_EXTS
from kas_tui.features.importing.toc_wiki import page_key
from kas_tui.text.anchors import anchor
from kas_tui.text.prose import outside_code_spans, outside_fences
from kas_tui.text.wikilink_syntax import WIKILINK, wikilink_parts

#: Dendron's vault a note is in, before its name: ``dendron://dendron.dendron-site/``.
_VAULT = re.compile(r"^dendron://[^/]*/", re.I)
#: A note's file: a Markdown page, or a TiddlyWiki tiddler (:mod:`.tiddlywiki`).
_NOTES = (".md", *sorted(TIDDLER_EXTS))
#: The text after ``|`` of an image's embed that is its size: ``300``, ``300x200``.
_SIZE = re.compile(r"\d+(?:x\d+)?")


@dataclass
class Resolved:
    """A page's text with its wikilinks made Markdown links, and those that name no
    file of the source, as written."""

    text: str
    unresolved: list[str] = field(default_factory=list)
    linked: int = 0  # how many became links


class WikiLinks:
    """The files of a source by name, to resolve its pages' wikilinks."""

    def __init__(self, files: Collection[str], aliases: Mapping[str, str] | None = None) -> None:
        self._by_name: dict[str, list[str]] = defaultdict(list)
        for path in files:
            self._by_name[posixpath.basename(path).casefold()].append(path)
        self._aliases = {name.casefold(): path for name, path in (aliases or {}).items()}

    def resolve(self, text: str, page: str) -> Resolved:
        """``text`` of the source-relative ``page`` with each wikilink outside code
        made a Markdown link (:mod:`module docs <.wikilinks>`)."""
        if "[[" not in text:
            return Resolved(text)
        done = Resolved(text)

        def swap(match: re.Match[str]) -> str:
            made = self._link(match.group("inner"), bool(match.group("embed")), page)
            if made is None:
                done.unresolved.append(match.group(0))
                return match.group(0)
            done.linked += 1
            return made

        done.text = outside_fences(
            text, lambda lines: outside_code_spans(lines, lambda part: WIKILINK.sub(swap, part))
        )
        return done

    def _link(self, inner: str, embed: bool, page: str) -> str | None:
        target, text = wikilink_parts(inner)
        name, _hash, fragment = target.partition("#")
        name = name.strip()
        path = self._find(name, page) if name else page
        if path is None and text:  # a GitHub wiki's [[text|Page]]
            other, _hash, other_fragment = text.partition("#")
            found = self._find(other.strip(), page)
            if found is not None:
                path, text, name, fragment = found, target, other.strip(), other_fragment
        if path is None:
            return None
        heading = fragment.split("#")[-1].strip()  # [[Note#Part#Section]]: its last
        note = path.lower().endswith(_NOTES)
        where = "" if heading.startswith("^") or not heading or not note else "#" + anchor(heading)
        if path == page:
            destination = where or "#"
        else:
            relative = posixpath.relpath(path, posixpath.dirname(page) or ".")
            destination = quote(relative, safe="/") + where
        if embed and not note:
            alt = text if text and not _SIZE.fullmatch(text) else posixpath.basename(name)
            return f"![{_escaped(alt)}]({destination})"
        if not text:
            shown = name or heading
            text = (
                f"{shown} > {heading}"
                if name and heading and not heading.startswith("^")
                else shown
            )
        return f"[{_escaped(text)}]({destination})"

    def _find(self, name: str, page: str) -> str | None:
        """The file ``name`` means from ``page``: a note (``name.md``) or a file named
        with its extension, the nearest of several; a Logseq namespace's note
        (``[[Whiteboard/Action Bar]]`` in ``Whiteboard___Action Bar.md``); a note that
        answers to that name (an alias); ``None`` when none does."""
        wanted = _VAULT.sub("", name).casefold().strip("/")
        tail = posixpath.basename(wanted)
        for base in (*(tail + ext for ext in _NOTES), tail):
            suffix = "/" + wanted + base[len(tail) :]
            found = [
                p
                for p in self._by_name.get(base, ())
                if "/" not in wanted or ("/" + p.casefold()).endswith(suffix)
            ]
            if found:
                return _nearest(found, page)
        if "/" in wanted:
            for flat in (wanted.replace("/", "___"), wanted.replace("/", "%2f")):
                found = self._by_name.get(flat + ".md", [])
                if found:
                    return _nearest(found, page)
        alias = self._aliases.get(name.strip().casefold())
        if alias is None and " " in tail:  # a GitHub wiki's [[Collector Setup]]: Collector-Setup.md
            found = self._by_name.get(page_key(tail) + ".md", [])
            return _nearest(found, page) if found else None
        return alias


def _nearest(paths: list[str], page: str) -> str:
    """Of ``paths``, the one nearest ``page``: most folders shared, then fewest."""
    return min(paths, key=lambda p: (-_shared(p, page), p.count("/"), p))


def _shared(path: str, page: str) -> int:
    """How many leading folders ``path`` and ``page`` share."""
    shared = 0
    for mine, theirs in zip(path.split("/")[:-1], page.split("/")[:-1], strict=False):
        if mine != theirs:
            break
        shared += 1
    return shared


def _escaped(text: str) -> str:
    """``text`` as a link's text: its brackets escaped."""
    return text.replace("[", "\\[").replace("]", "\\]")


def aliases_of(frontmatter: Mapping[str, Any] | None) -> list[str]:
    """The other names a note answers to: its ``aliases:`` (or ``alias:``)
    frontmatter, as Obsidian reads it (a Logseq page's ``alias::`` property is read as
    its ``aliases``: :mod:`.logseq`)."""
    names: list[str] = []
    for key in ("aliases", "alias"):
        value = (frontmatter or {}).get(key)
        values = value if isinstance(value, list) else [value] if isinstance(value, str) else []
        names += [str(v) for v in values if v is not None]
    return [n for n in (name.strip().strip("[]").strip() for name in names) if n]
