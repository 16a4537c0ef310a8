"""TiddlyWiki's tiddler files (``.tid``), as TiddlyWiki on Node.js keeps a wiki in a
folder: lines of fields (``title: HelloThere``, ``tags: [[Getting started]] Intro``),
a blank line, then the tiddler's text.

The fields are the page's frontmatter: ``title`` its title (and a name links use),
``tags`` its tags (a name with spaces in ``[[ ]]``), ``type`` (a MIME type) as
``tiddler-type``, the others under their own names. The text is read by
its ``type``: Markdown and plain text as they are, code (``application/javascript``,
``text/css``, JSON) as a code block, TiddlyWiki's wikitext (the default) as the
Markdown that shows the same: ``! Heading`` a heading, ``# item`` a numbered item,
``''bold''``, ``//italic//``, ``[ext[text|url]]`` and ``[img[url]]`` links and images;
``[[text|Tiddler]]`` stays a wikilink (the build links it as a vault's). Transclusions,
macros and widgets (``{{ }}``, ``<< >>``, ``<$ >``) stay as written. A tiddler titled
``$:/...`` is TiddlyWiki's own (its settings, interface and code): :func:`is_system`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kas_tui.features.importing.convert_model import TIDDLER_EXTS
from kas_tui.text.wording import counted

#: A field line: a name TiddlyWiki allows, a colon, the value.
_FIELD = re.compile(r"([^\s:|]+):[ \t]?(.*)")
#: Tags: ``[[a name with spaces]]`` or a word.
_TAG = re.compile(r"\[\[([^\]]+)\]\]|(\S+)")
#: Code types, as the fence's language.
_CODE_TYPES = {
    "application/javascript": "javascript",
    "text/css": "css",
    "application/json": "json",
    "text/html": "html",
    "image/svg+xml": "xml",
}
_TEXT_TYPES = frozenset({"text/plain", "text/x-markdown", "text/markdown"})
_HEADING = re.compile(r"^(!{1,6})\s*(.*)$")
_LIST = re.compile(r"^([*#;:>]+)\s*(.*)$")
_BOLD = re.compile(r"''(?=\S)(.+?)(?<=\S)''")
_ITALIC = re.compile(r"(?<![:/])//(?=\S)(.+?)(?<=\S)//")
_EXTERNAL = re.compile(r"\[ext\[(?:([^|\]]*)\|)?([^\]]+)\]\]")
_IMAGE = re.compile(r"\[img(?:[^\[\]]*)\[(?:([^|\]]*)\|)?([^\]]+)\]\]")
_FENCE = re.compile(r"^(```|~~~)")


def tiddler_fields(text: str) -> tuple[dict[str, Any], int] | None:
    """A ``.tid`` file's fields, as written, and the line its text starts at, read as
    TiddlyWiki reads them: the lines up to the first blank one after a field, each
    ``name: value`` a field (a line starting ``#``, or without a colon, none); ``None``
    when they hold no ``title`` (no tiddler)."""
    fields: dict[str, Any] = {}
    lines = text.split("\n")
    at = len(lines)
    for n, line in enumerate(lines):
        if not line.strip():
            if fields:
                at = n + 1
                break
            continue  # blank lines above the fields
        found = _FIELD.fullmatch(line.rstrip())
        if found is not None and not line.startswith("#"):
            fields[found.group(1)] = found.group(2).strip()
    if not isinstance(fields.get("title"), str) or not fields["title"]:
        return None
    return fields, at


def read_tiddler(text: str) -> tuple[dict[str, Any], str] | None:
    """The fields and the Markdown of a ``.tid`` file's text; ``None`` when it opens
    with no ``title`` field (no tiddler)."""
    found = tiddler_fields(text)
    if found is None:
        return None
    fields, at = found
    if "tags" in fields:
        fields["tags"] = [a or b for a, b in _TAG.findall(fields["tags"])]
    if "type" in fields:  # a MIME type: OKF's type is the document's kind
        fields["tiddler-type"] = fields.pop("type")
    body = "\n".join(text.split("\n")[at:])
    kind = str(fields.get("tiddler-type") or "text/vnd.tiddlywiki")
    if kind in _CODE_TYPES:
        fence = "````" if "```" in body else "```"
        return fields, f"{fence}{_CODE_TYPES[kind]}\n{body.rstrip()}\n{fence}\n"
    if kind in _TEXT_TYPES or not kind.startswith("text/vnd.tiddlywiki"):
        return fields, body
    return fields, wikitext_as_markdown(body)


def is_system(fields: dict[str, Any]) -> bool:
    """Whether a tiddler is TiddlyWiki's own: titled ``$:/...``."""
    return str(fields.get("title", "")).startswith("$:/")


def wikitext_as_markdown(text: str) -> str:
    """TiddlyWiki wikitext as the Markdown that shows the same (the forms the module
    docstring lists), code blocks as they are."""
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence is not None:
            out.append(line)
            if opened and opened.group(1) == fence:
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            out.append(line)
            continue
        heading = _HEADING.match(line)
        if heading:
            out.append("#" * len(heading.group(1)) + " " + _inline(heading.group(2)))
            continue
        item = _LIST.match(line) if line[:1] in "*#;:>" else None
        if item and not line.startswith(("*/", "**/")):
            marks, rest = item.group(1), _inline(item.group(2))
            depth = "  " * (len(marks) - 1)
            last = marks[-1]
            if last == "#":
                out.append(f"{depth}1. {rest}")
            elif last == "*":
                out.append(f"{depth}- {rest}")
            elif last == ">":
                out.append(f"{'> ' * len(marks)}{rest}")
            else:  # ; a term, : its definition
                out.append(f"{depth}**{rest}**" if last == ";" else f"{depth}{rest}")
            continue
        out.append(_inline(line))
    return "\n".join(out)


def _inline(text: str) -> str:
    if "[img" in text:
        text = _IMAGE.sub(lambda m: f"![{m.group(1) or ''}]({m.group(2).strip()})", text)
    if "[ext[" in text:
        text = _EXTERNAL.sub(lambda m: f"[{m.group(1) or m.group(2)}]({m.group(2).strip()})", text)
    if "''" in text:
        text = _BOLD.sub(r"**\1**", text)
    if "//" in text:
        text = _ITALIC.sub(r"*\1*", text)
    return text


def without_system_tiddlers(
    documents: list[str], assets: list[str], notes: list[str], read: Callable[[str], str | None]
) -> list[str]:
    """``documents`` without TiddlyWiki's own tiddlers (:func:`is_system`: its settings,
    interface and code, ``$:/core/ui/...``) and without the ``.meta`` files that hold
    the fields of a file beside them (``favicon.png.meta``), each kind said in a note."""
    files = {*documents, *assets}
    system, sidecars = [], []
    for doc in documents:
        low = doc.lower()
        if low.endswith(".meta") and doc[:-5] in files:
            sidecars.append(doc)
        elif low.endswith(tuple(TIDDLER_EXTS)):
            found = tiddler_fields((read(doc) or "").replace("\r\n", "\n"))
            if found is not None and is_system(found[0]):
                system.append(doc)
    if system:
        notes.append(
            f"{counted(len(system), 'TiddlyWiki system tiddler')} ({system[0]}, ...: titled "
            "$:/, the wiki's own settings, interface and code) hold no knowledge; left out"
        )
    if sidecars:
        notes.append(
            f"{counted(len(sidecars), 'TiddlyWiki .meta file')} ({sidecars[0]}, ...) hold the "
            "fields of the file beside them, which is copied as an asset; left out"
        )
    gone = {*system, *sidecars}
    return [d for d in documents if d not in gone]
