"""Org-mode files (``.org``, Emacs' notes; an org-roam knowledge base is a folder of
them), read as Markdown showing the same, as Org's HTML export shows them.

- The file's keywords are its frontmatter: ``#+title:`` its title, ``#+filetags:``
  (``:music:theory:``) its tags, ``#+roam_aliases:`` its aliases, ``#+author:``,
  ``#+date:`` and ``#+description:`` as themselves; the file's ``:PROPERTIES:`` drawer
  gives its ``:ID:`` (org-roam links name notes by it), also an alias. Other keywords
  (``#+options:``, ``#+caption:``...), drawers and comment lines (``# ...``) are no text.
- ``* Heading`` is a heading one level below the title; ``#+begin_src python`` a code
  block, ``#+begin_example`` a plain one, ``#+begin_quote`` a quote; ``- `` and ``+ ``
  lists as they are; a table's ``|---+---|`` rule a Markdown one.
- ``*bold*``, ``/italic/``, ``=verbatim=`` and ``~code~`` as Markdown's; links
  ``[[https://...][text]]`` and ``[[file:other.org][text]]`` as Markdown links,
  ``[[id:UUID][text]]`` as a wikilink to the note with that ID (the build links it).
"""

from __future__ import annotations

import re
from typing import Any

_KEYWORD = re.compile(r"^#\+(\w+):\s*(.*)$")
_DRAWER = re.compile(r"^\s*:(\w+):\s*$")
_PROPERTY = re.compile(r"^\s*:([\w-]+):\s*(.*)$")
_HEADING = re.compile(r"^(\*+)\s+(.*)$")
_BLOCK = re.compile(r"^\s*#\+begin_(\w+)\s*(\S*)", re.I)
_END = re.compile(r"^\s*#\+end_(\w+)", re.I)
_COMMENT = re.compile(r"^\s*#(?:\s.*)?$")
_RULE = re.compile(r"^\s*\|[-+|]+\|?\s*$")
_LINK = re.compile(r"\[\[([^\]\[]+)\](?:\[([^\]]+)\])?\]")
#: Org's markup: the mark, text that neither opens nor closes with a space, the mark,
#: between a space, an opening bracket or quote and a space or punctuation.
_MARKUP = re.compile(r"(?<![\w*/=~])([*/=~])(?=\S)([^\n]*?\S)\1(?![\w*/=~])")
_MARKDOWN = {"*": "**{}**", "/": "*{}*", "=": "`{}`", "~": "`{}`"}
_META = {"author": "author", "date": "date", "description": "description"}


def read_org(text: str) -> tuple[dict[str, Any], str]:
    """The frontmatter and the Markdown of an Org file's ``text``."""
    front: dict[str, Any] = {}
    aliases: list[str] = []
    lines = text.split("\n")
    at = 0
    while at < len(lines):  # the file's own drawer and keywords, above its text
        line = lines[at]
        keyword = _KEYWORD.match(line)
        if _DRAWER.match(line) and line.strip().upper() == ":PROPERTIES:":
            end = _drawer_end(lines, at)
            for prop in lines[at + 1 : end]:
                found = _PROPERTY.match(prop)
                if found and found.group(1).upper() == "ID" and found.group(2).strip():
                    front["id"] = found.group(2).strip()
                    aliases.append(found.group(2).strip())
            at = end + 1
        elif keyword:
            key, value = keyword.group(1).lower(), keyword.group(2).strip()
            if key == "title" and value:
                front["title"] = value
            elif key == "filetags" and value:
                front["tags"] = [t for t in re.split(r"[:\s]+", value) if t]
            elif key == "roam_aliases" and value:
                aliases += [a or b for a, b in re.findall(r'"([^"]+)"|(\S+)', value)]
            elif key in _META and value:
                front[_META[key]] = value
            at += 1
        elif not line.strip() or _COMMENT.match(line):
            at += 1
        else:
            break
    if aliases:
        front["aliases"] = aliases
    return front, _body(lines[at:], titled="title" in front)


def _drawer_end(lines: list[str], start: int) -> int:
    for n in range(start + 1, len(lines)):
        if lines[n].strip().upper() == ":END:":
            return n
    return start  # never closed: the line alone


def _body(lines: list[str], *, titled: bool) -> str:
    out: list[str] = []
    block: str | None = None  # the kind of the block open: src, example, quote...
    n = 0
    while n < len(lines):
        line = lines[n]
        n += 1
        if block is not None:
            end = _END.match(line)
            if end and end.group(1).lower() == block:
                out.append("```" if block != "quote" else "")
                block = None
            elif block == "quote":
                out.append("> " + _inline(line.strip()))
            else:
                out.append(line)
            continue
        opened = _BLOCK.match(line)
        if opened:
            block = opened.group(1).lower()
            if block == "src":
                out.append("```" + opened.group(2).lower())
            elif block != "quote":
                out.append("```")
            continue
        if _DRAWER.match(line):  # a heading's properties, a logbook: no text
            n = _drawer_end(lines, n - 1) + 1
            continue
        if _KEYWORD.match(line) or _COMMENT.match(line):
            continue
        heading = _HEADING.match(line)
        if heading:
            level = min(6, len(heading.group(1)) + (1 if titled else 0))
            out.append("#" * level + " " + _inline(heading.group(2).strip()))
            continue
        if _RULE.match(line):
            out.append(line.replace("+", "|"))
            continue
        out.append(_inline(line))
    if block is not None and block != "quote":  # never closed: closed at the end
        out.append("```")
    return "\n".join(out).strip("\n") + "\n"


def _inline(text: str) -> str:
    if "[[" in text:
        text = _LINK.sub(_link, text)
    if any(mark in text for mark in _MARKDOWN):
        text = _MARKUP.sub(lambda m: _MARKDOWN[m.group(1)].format(m.group(2)), text)
    return text


def _link(found: re.Match[str]) -> str:
    target, text = found.group(1).strip(), (found.group(2) or "").strip()
    if target.startswith("id:"):  # org-roam: the note with that :ID:
        return f"[[{target[3:]}|{text}]]" if text else f"[[{target[3:]}]]"
    if target.startswith("file:"):
        target = target[5:].split("::", 1)[0]
    if re.match(r"[a-z][a-z0-9+.-]*:", target) or "/" in target or "." in target:
        return f"[{text or target}]({target.replace(' ', '%20')})"
    return found.group(0)  # an internal target (a heading's name): as written
