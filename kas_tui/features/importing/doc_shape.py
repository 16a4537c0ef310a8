"""What a document is when it has no sentence of its own to describe it: its shape (a
table's rows and columns, a deck's slides, an mkdocstrings page's API, its headings),
else its opening words. :func:`.heuristics.draft_description` falls back on these."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from kas_tui.core.fileio import read_regular
from kas_tui.features.importing.convert import Converted
from kas_tui.text import prose
from kas_tui.text.description_verdicts import norm
from kas_tui.text.title_words import identifier_words
from kas_tui.text.wording import counted

#: Labels of source kinds, as they read in a sentence.
KIND_LABELS = {
    "pdf": "PDF document",
    "docx": "Word document",
    "pptx": "Slide deck",
    "xlsx": "Spreadsheet",
    "xls": "Spreadsheet",
    "csv": "Table",
    "html": "Web page",
    "epub": "E-book",
    "ipynb": "Notebook",
    "msg": "Email message",
    "text": "Text file",
    "code": "Data file",
    "markdown": "Document",
    "file": "Document",
}
#: An mkdocstrings directive: ``::: textual.events.Hide`` (its options indented below).
GENERATED_REFERENCE = re.compile(r"^:::[ \t]+([A-Za-z_][\w.]*)[ \t]*$", re.M)


def shape_sentence(
    converted: Converted,
    title: str,
    parsed: list[prose.Block],
    common: frozenset[str] = frozenset(),
) -> str | None:
    """A description from the document's shape when it has no sentence to offer (a
    table's rows and columns, slides, an API reference, its headings); ``None`` when
    its shape says nothing. ``common``: the headings many pages of the site carry (as
    :func:`~kas_tui.text.description_verdicts.norm` writes them): a page's own come
    first, and a page whose sections the site's others share too is named by its
    title, so that 74 of babel's plugin pages ("Example, Installation, Usage") do not
    read alike."""
    label = KIND_LABELS.get(converted.kind, "Document")
    body = converted.markdown
    headings = _headings(title, parsed)
    if converted.kind in ("xlsx", "xls", "csv"):
        columns = _table_columns(body)
        sheets = [b.text for b in parsed if b.kind == "heading" and b.level == 2]
        rows = sum(1 for line in body.split("\n") if line.startswith("|")) - 2 * max(1, len(sheets))
        parts = [f"{label} of {counted(max(rows, 0), 'row')}"]
        if len(sheets) > 1:
            parts.append(f"in {len(sheets)} sheets ({_join(sheets, 4)})")
        if columns:
            parts.append(f"with columns {_join(columns, 6)}")
        return " ".join(parts)
    if converted.kind == "pptx":
        slides = len(re.findall(r"<!-- Slide number: \d+ -->", body)) or 1
        topics = _join(headings, 4)
        return f"{label} of {slides} slides" + (f" on {topics}" if topics else "")
    if converted.kind == "code" and converted.source.suffix.lower() == ".json":
        keys = _json_keys(converted.source)
        if keys:
            return f"JSON data with the keys {_join(keys, 6)}"
    generated = GENERATED_REFERENCE.findall(body)
    if generated:  # mkdocstrings: the site renders the page from the code's docstrings
        return _api_reference(list(dict.fromkeys(generated)))
    if len(headings) >= 2:
        own = [h for h in headings if norm(h) not in common]
        if len(own) == len(headings):
            return f"{label} covering {_join(headings, 4)}"
        shared = [h for h in headings if norm(h) in common]
        return f"{label} on {title}, covering {_join([*own, *shared], 4)}"
    linked = [prose.inline_text(m.group(1)) for m in _LINK_ITEM.finditer(body)]
    if len(linked) < _LANDING_LINKS:
        linked = [prose.inline_text(m.group(1)) for m in _LINK_LINE.finditer(body)]
    if len(linked) >= _LANDING_LINKS:  # a landing page: a list of the pages it leads to
        return f"Overview linking to {_join(linked, 6)}"
    return None


def _headings(title: str, parsed: list[prose.Block]) -> list[str]:
    """The page's headings that name a section (not its title again, not a number)."""
    return [
        b.text
        for b in parsed
        if b.kind == "heading" and norm(b.text) != norm(title) and _wordy(b.text)
    ]


def names_only_shared_sections(
    converted: Converted, title: str, parsed: list[prose.Block], common: frozenset[str]
) -> bool:
    """Whether all :func:`shape_sentence` would say of a page is its title and the
    sections many pages of the site carry ("Document on Frame Element for CustomItem,
    covering Schema, Syntax, Attributes and Elements"): a Markdown page whose two or
    more sections are all the site's common ones, rendered by no directive."""
    if converted.kind not in ("markdown", "file") or GENERATED_REFERENCE.search(converted.markdown):
        return False
    headings = _headings(title, parsed)
    return len(headings) >= 2 and all(norm(h) in common for h in headings)


#: A list item opening with a link (``- [Features](features/features.md)``): what a
#: landing page is made of (AdGuard's knowledge base opens each product so, under a
#: notice every page of the product repeats).
_LINK_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([^\]\n]+)\]\([^)\n]+\)", re.M)
#: A line that is one link alone (``[**Onboarding**](Onboarding%201b47....md)``): how a
#: Notion export's parent page lists its sub-pages, one paragraph each.
_LINK_LINE = re.compile(r"^[ \t]*\[([^\]\n]+)\]\([^)\n]+\)[ \t]*$", re.M)
#: Items of that shape that make a page a landing page.
_LANDING_LINKS = 3


#: A section named by a release: "Version 3.2.0", "v2.1", "1.4.0 (2024-03-01)", "Release 7";
#: not a numbered section, "1.1. Installation" (PostgreSQL's manual: every chapter was
#: "Release notes: 1.1. Installation, 1.2. Architectural Fundamentals ...").
_RELEASE = re.compile(
    r"^(?:version|release|v)?\s*\d+(?:\.\d+)+(?![\d.])|^(?:version|release)\s+\d+\b", re.I
)
#: Sections, and the share of them named by a release, that make a page release notes.
_RELEASES_MIN, _RELEASES_SHARE = 3, 0.6


def changelog_sentence(parsed: list[prose.Block]) -> str | None:
    """What release notes hold, when most of a page's sections are named by a release
    (pallets/flask's changelog was described by one change of its newest release,
    "RequestContext is now a deprecated alias."): the releases it opens with, as the
    page lists them; ``None`` for any other page."""
    sections = [b.text for b in parsed if b.kind == "heading" and b.level >= 2]
    releases = [t for t in sections if _RELEASE.match(t.strip())]
    if len(releases) < _RELEASES_MIN or len(releases) < _RELEASES_SHARE * len(sections):
        return None
    if len(releases) == _RELEASES_MIN:
        return f"Release notes: {_join(releases, _RELEASES_MIN)}"
    # the first three as the page lists them (its sections are read so far: no count)
    return f"Release notes: {', '.join(releases[:_RELEASES_MIN])} and other releases"


def opening_sentence(converted: Converted) -> str:
    """What a document with neither a sentence nor a shape to tell holds: its opening."""
    label = KIND_LABELS.get(converted.kind, "Document")
    opening = _opening(converted.markdown)
    if opening:
        return f"{label} whose text opens with “{opening}”"
    return f"{label} imported from {converted.source.name}"


def _wordy(text: str) -> bool:
    """Whether a heading is words (``Refund rules``), not figures (``TOTAL $821.14``)."""
    letters = sum(c.isalpha() or c.isspace() for c in text)
    return len(text) <= 80 and letters >= 0.8 * len(text)


def _json_keys(path: Path) -> list[str]:

    try:
        data = json.loads(read_regular(path).decode("utf-8"))
    except (OSError, ValueError):
        return []
    if isinstance(data, dict):
        return [str(k) for k in data][:50]
    if isinstance(data, list) and data and isinstance(data[0], dict):
        return [str(k) for k in data[0]][:50]
    return []


def _table_columns(markdown: str) -> list[str]:
    for line in markdown.split("\n"):
        if line.startswith("|"):
            cells = [prose.inline_text(c) for c in line.strip().strip("|").split("|")]
            return [c for c in cells if c and not c.startswith("Unnamed")]
    return []


def _opening(markdown: str) -> str:
    """The page's first words, outside its code blocks (React Native's Text Style Props
    opened "Example, import {useState} from 'react';, import {, FlatList,..." inside its
    example's fence), or with them when only a heading is outside (k3d's Command Tree
    is one code block)."""
    if "<s" in markdown or "<S" in markdown:  # <script setup>, <style>: code, no opening
        markdown = prose.CODE_ELEMENTS.sub("", markdown)
    shown = list(itertools.islice((t for code, t in prose.fenced_lines(markdown) if not code), 40))
    words = _opening_of(shown)
    if "," in words or ("```" not in markdown and "~~~" not in markdown):
        return words
    return _opening_of(markdown.split("\n", 40)[:40])  # a heading and a code block: the
    # code is what it holds


#: A list item's marker ("* ", "- ", "1. "): no words of the item's.
_LIST_MARK = re.compile(r"^(?:[-*+]|\d{1,9}[.)])\s+")


def _opening_of(lines_in: list[str]) -> str:
    lines = []
    for raw in lines_in[:40]:
        line = raw.strip()
        if line.startswith(("```", "~~~")):  # a fence and its language ("bash") are no text
            continue
        titled = prose.container_title(line) if line.startswith(":::") else None
        if titled is not None:  # :::danger[Removed from React Native]: its title alone
            text = titled
        elif line.startswith("#"):  # a heading: without its id ([#install], { #install })
            text = prose.heading_text(line.lstrip("#").rstrip("#").strip())
        else:
            text = prose.inline_text(_LIST_MARK.sub("", line).lstrip("|#>=-").rstrip("|#=-"))
        if text and any(c.isalpha() for c in text) and not text.startswith("<!--"):
            lines.append(text.strip(" |"))
        if sum(len(x) for x in lines) > 110:
            break
    return prose.clip(", ".join(lines), 120).rstrip(".")


def _api_reference(names: list[str]) -> str:
    """What an mkdocstrings page renders, as the only words its source has: the names,
    the last part of one name spelled out ("API reference for `textual.scroll_view`
    (scroll view)", "`textual.events.MouseDown` (mouse down)"). Its source holds nothing else, so its words must tell it from its
    siblings: "Reference of `textual.app`, rendered from its docstrings by the docs site"
    read alike on 66 of Textual's pages (KAS041), this on 3."""
    if len(names) == 1:
        plain = identifier_words(names[0].rsplit(".", 1)[-1])
        return f"API reference for `{names[0]}` ({plain})"
    return f"API reference for {_join([f'`{name}`' for name in names], 3)}"


def _join(items: list[str], limit: int) -> str:
    items = [i for i in dict.fromkeys(items) if i]
    if not items:
        return ""
    shown = items[:limit]
    more = len(items) - len(shown)
    if more:
        return f"{', '.join(shown)} and {more} more"
    if len(shown) == 1:
        return shown[0]
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def usage_line(markdown: str, title: str, *, max_lines: int = 80) -> str:
    """The first line of the page's first code block when it is the page's command
    (starts with the title's words: ``k3d cluster delete [NAME ...] [flags]`` on the
    page "k3d cluster delete"), without a prompt; empty when the page is no command's."""
    command = " ".join(title.split()).casefold()
    if len(command.split()) < 2 or ("```" not in markdown and "~~~" not in markdown):
        return ""  # one word names a page as well as a command; no code, no usage
    if not re.match(r"[\w.]", command):  # "<script setup>" names a tag, no program
        return ""
    opened = False
    for n, (code, line) in enumerate(prose.fenced_lines(markdown)):
        if n >= max_lines or (opened and not code):
            break
        if not code:
            continue
        if prose.FENCE.match(line):
            if opened:  # the first block closes empty
                break
            opened = True
            continue
        first = " ".join(line.split()).removeprefix("$ ")
        if first:
            folded = first.casefold()
            if folded == command or folded.startswith(command + " "):
                return prose.clip(first, 120)
            break
    return ""


def command_sentence(markdown: str, title: str, parsed: list[prose.Block]) -> str | None:
    """A CLI command's reference page (cobra's, click's: its title the command, a
    summary, then the usage in a code block) said as its summary and its usage:
    "Delete cluster(s): `k3d cluster delete [NAME [NAME ...] | --all] [flags]`". Its
    summary alone is often too short to say anything (and its siblings' read alike:
    "Delete node(s)"), often no sentence (no full stop), and the sentence such a page
    offers next is its "See also" list's: another command's. The longest first sentence
    of the paragraphs opening the page is its summary ("The ... command" when it has
    none). ``None`` when the page is no command's."""
    usage = usage_line(markdown, title)
    if not usage:
        return None
    opening = [b.text for b in parsed[:4] if b.kind == "paragraph"]
    firsts = [" ".join(prose.sentences(text)[0].split()) for text in opening if text.strip()]
    summary = max(firsts, key=lambda s: len(prose.words(s)), default="").rstrip(".:")
    if len(summary) > 160:
        return None  # prose of its own: described as any page is
    if not summary or norm(summary) == norm(title):
        return f"The {title} command: `{usage}`"
    return f"{summary}: `{usage}`"
