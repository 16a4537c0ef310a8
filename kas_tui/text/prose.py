"""Read converted Markdown as an author would: headings, paragraphs and their sentences.

A line-based reader, not a full Markdown parser: drafting needs the first headings and
the first real paragraphs of a document, fast, for thousands of documents. Code blocks,
tables, images, HTML comments, callout markers and link syntax are dropped; what stays
is plain text a description can be made from.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from kas_tui.text.bookdown_syntax import is_part_heading, without_bookdown_marks
from kas_tui.text.sentences import (  # noqa: F401  (prose's words, written once there)
    clip,
    lower_first,
    sentence_start,
    sentences,
    words,
)
from kas_tui.text.wikilink_syntax import wikilink_words

#: A fenced code block's opening (or closing) line; the block ends at the same fence.
FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
#: A line whose text (after any white space but a line break, as ``str.lstrip`` reads
#: it) opens with a fence or a ``#``.
_FENCE_OR_HASH = re.compile(r"^[^\S\n]*(```|~~~|#)", re.MULTILINE)
#: A heading's attribute list (Python-Markdown's attr_list, kramdown's ``{: }``), as
#: MkDocs sites write them: ``## Sponsors { #sponsors }``, ``## Setup {: .note }``.
#: An attribute: ``#id``, ``.class``, ``key=value``, pandoc's ``-`` (``.unnumbered``).
_ATTR = r"(?:#[\w:.-]+|\.[\w:-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|\S+)|-)"
_ATTR_LIST = re.compile(rf"\s*\{{:?\s*{_ATTR}(?:\s+{_ATTR})*\s*\}}\s*$")
#: A heading's own id as Nextra and Fumadocs write it: ``## Installation [#install]``.
_CUSTOM_ID = re.compile(r"\s*\[#[\w:.-]+\]\s*$")
#: An emoji's shortcode, as GitHub and pymdownx.emoji write it (``:link:``, ``:+1:``),
#: a word between colons standing alone (``std::vector`` and ``12:30:00`` are none).
_EMOJI = re.compile(r"[ \t]*(?<![\w:/]):[a-z0-9_+-]*[a-z+][a-z0-9_+-]*:(?![\w:/])")
_ICON = re.compile(r":(?:octicons|material|fontawesome|simple|twemoji)-[\w-]+:")
#: An element whose content is code (``<script setup>``, ``<style scoped>``): its
#: opening tag, and the whole element.
_CODE_ELEMENT = re.compile(r"<(script|style)\b[^>]*>", re.IGNORECASE)
CODE_ELEMENTS = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
#: A link reference definition (``[LF-Japan]: <https://...>``): where a link leads.
_REF_DEFINITION = re.compile(r"\[[^\]]+\]:\s*\S")
#: A Hugo shortcode: a template call the site renders (``{{% param title %}}``,
#: ``{{< figure src="x.png" >}}``), or a Liquid tag, as GitBook and Jekyll write them
#: (``{% hint style="info" %}``, ``{% endtabs %}``): no words of the page.
_SHORTCODE = re.compile(
    r"\{\{[<%].*?[%>]\}\}|\{%-?\s*[A-Za-z][\w-]*\b.*?-?%\}"
    # a template's value, Liquid's or Nunjucks': "{{ site.description }}", "{{ x | url }}"
    # (a bare "{{ version }}", VitePress' value in a sentence, stays)
    r"|\{\{-?\s*[A-Za-z_]\w*(?:\.\w+)+(?:\s*\|[^{}\n]*)?\s*-?\}\}"
    r"|\{\{-?\s*[A-Za-z_][\w.]*\s*\|[^{}\n]*-?\}\}"
)
_INLINE_ATTRS = re.compile(rf"\{{:?\s*{_ATTR}(?:\s+{_ATTR})*\s*\}}")
#: A pymdownx.blocks line, ``/// note | Title`` or ``//// tab | Python 3.10+``, and its
#: closing ``///``: a callout's body is no description, as ``!!! note``'s is not; a
#: tab's or a ``details``' body is the page's own text.
_BLOCK = re.compile(r"^(/{3,})[ \t]*([\w-]*)")
_TEXT_BLOCKS = frozenset({"tab", "html", "details", "define", ""})
#: A GitBook (Liquid) block's opening or closing line, ``{% hint style="info" %}``,
#: ``{% endhint %}``: a hint's body is a callout's, no description; a tab's, a
#: step's, a column's are the page's own text.
_LIQUID_BLOCK = re.compile(r"^\{%-?\s*(end)?([A-Za-z][\w-]*)\b.*?-?%\}$")
_LIQUID_PAIRED = frozenset(
    {"hint", "tabs", "tab", "stepper", "step", "columns", "column", "content-ref", "code"}
    | {"comment", "openapi", "openapi-operation", "swagger", "updates", "update"}
)
_LIQUID_CALLOUTS = frozenset({"hint", "comment", "openapi", "openapi-operation", "swagger"})
#: A container of Docusaurus' or VitePress' (``:::info``, ``::: tip Title``,
#: ``::::details[More]``) and its closing ``:::``: an admonition's body is a callout's,
#: no description; a ``details``' or a tab group's is the page's own text. Only these
#: kinds open one: ``::: pydantic.fields`` is mkdocstrings', a line of its own.
_CONTAINER = re.compile(r"^(:{3,})[ \t]*(?:\{([A-Za-z][\w-]*)\}|([A-Za-z][\w-]*))?(?=[\s\[{]|$)")
#: MyST's directives whose content is Markdown, written as colon fences (``:::{note}``):
#: its admonitions, a page's asides, and those holding the page's own text.
MYST_ASIDES = frozenset(
    {"note", "warning", "tip", "caution", "attention", "danger", "error", "hint"}
    | {"important", "seealso", "admonition", "todo", "margin", "sidebar"}
)
MYST_TEXT = frozenset(
    {"topic", "dropdown", "card", "tab-item", "tab-set", "grid", "grid-item", "grid-item-card"}
    | {"div", "container", "epigraph", "pull-quote", "glossary", "list-table", "tabbed"}
)
_CONTAINER_CALLOUTS = frozenset(
    {"note", "tip", "info", "warning", "danger", "caution", "important", "success"}
    | {"secondary", "warn", "error", "attention"}
    | MYST_ASIDES
)
_CONTAINER_TEXT = frozenset({"details", "tabs", "code-group", "raw"} | MYST_TEXT)


def container_title(line: str) -> str | None:
    """A Docusaurus or VitePress container line's own title (``:::danger[Removed]`` and
    ``::: tip Remember`` say "Removed", "Remember"; a bare ``:::info`` or closing
    ``:::`` says ""), ``None`` when ``line`` opens no container."""
    found = _CONTAINER.match(line.strip())
    kind = (found.group(2) or found.group(3) or "").lower() if found else ""
    rest = line.strip()[found.end() :].strip() if found else ""
    if found is None or not (kind in _CONTAINER_CALLOUTS or kind in _CONTAINER_TEXT or not rest):
        return None  # mkdocstrings' ::: pydantic.fields names no container
    if rest.startswith("[") and "]" in rest:
        rest = rest[1 : rest.index("]")]
    return inline_text(rest.strip("{} "))


def heading_text(raw: str) -> str:
    """A heading's text as a reader sees it: inline markup and a trailing attribute
    list (``{ #id .class key=value }``) or id (``[#id]``) left out. A bookdown part's
    heading (``# (PART) Basics {-}``) opens a part of the book, no section of the page:
    no text."""
    if is_part_heading(raw):
        return ""
    return inline_text(_CUSTOM_ID.sub("", _ATTR_LIST.sub("", raw)))


#: A block directive's line: an admonition's first line (Python-Markdown ``!!! note
#: "Title"``, a collapsible ``??? api "API Documentation"``, Docusaurus' ``:::tip Title``
#: and closing ``:::``) or an mkdocstrings ``::: pydantic.fields``: its kind, title or
#: name, no sentence; an indented body or options below it are read as an indented
#: block is (an mkdocstrings page's ``options:`` are no description).
_ADMONITION = re.compile(r"^(?:(?:!!!|\?\?\?\+?)[ \t]+[\w-]|:::)")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
#: A table's delimiter row ("--- | :---:", "|---|---|"): what makes the line above a header.
_DELIMITER_ROW = re.compile(r"^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?$")
_LIST = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_AUTOLINK = re.compile(r"<(?:https?|mailto):[^>]+>")
_URL = re.compile(r"https?://\S+")
_HTML = re.compile(r"<[^>]+>")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
#: A docfx include directive, ``[!INCLUDE[label](path)]``: expanded by the build
#: (``importing.includes``); one left unexpanded (its file missing) is no prose.
DOCFX_INCLUDE = re.compile(
    r"\[!INCLUDE\s*\[[^\]\n]*\]\(\s*(?P<target><[^>\n]*>|[^)\n]*?)\s*\)\s*\]", re.IGNORECASE
)
_CALLOUT = re.compile(r"\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION|INCLUDE)[^\]]*\]", re.I)
_EMPHASIS = re.compile(r"(\*\*|__|\*|~~)(?=\S)(.+?)(?<=\S)\1")
#: Emphasis by one underscore, which opens and closes only outside a word
#: ("_The Core Team's responsibility..._"; never ``snake_case_names``).
_UNDERSCORED = re.compile(r"(?<![\w\\])_(?=\S)(.+?)(?<=\S)_(?!\w)")
#: A character reference ("&mdash;", "&#8212;", "&#x2014;"), read only with its ";" as
#: Markdown reads one: "&copy" in an address is no character, and a name that is no
#: character's ("&nosuch;") stays as written.
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: A code span's text, without the language mark pymdownx.inlinehilite reads at its
#: start (`` `#!bash k3d cluster create` `` shows "k3d cluster create").
_CODE = re.compile(r"`+(?:#!\w[\w+-]*\s+)?([^`]*)`+")
#: A footnote's mark (``text[^1]``, ``word [^note-2]``): a label of word characters;
#: ``[^\s]`` and ``[^a-z]`` in a regex's title are no footnote.
_FOOTNOTE = re.compile(r" ?\[\^(?!\w-\w\])[\w.-]+\]")
_SPACES = re.compile(r"\s+")
#: Keys as MkDocs' pymdownx.keys writes them: ``++ctrl+alt+delete++``.
_KEYS = re.compile(r"\+\+([A-Za-z0-9][\w-]*(?:\+[A-Za-z0-9][\w-]*)*)\+\+")


def _key_names(match: re.Match[str]) -> str:
    """``++ctrl+return++`` as the site shows it: Ctrl+Return."""
    return "+".join(part[:1].upper() + part[1:] for part in match.group(1).split("+"))


@dataclass(frozen=True)
class Block:
    """A heading (``level`` 1-6) or a paragraph or list item (``level`` 0), as plain text."""

    kind: str  # heading, paragraph, item
    text: str
    level: int = 0


_NOT_ASCII_LETTERS = bytes(c for c in range(128) if not chr(c).isalpha())


def letter_count(text: str) -> int:
    """How many characters of ``text`` are letters (``str.isalpha``); ASCII text is
    counted in one pass in C."""
    if text.isascii():
        return len(text.encode("ascii").translate(None, _NOT_ASCII_LETTERS))
    return sum(c.isalpha() for c in text)


def inline_text(text: str) -> str:
    """One line of Markdown as plain text: links keep their words, markup goes.

    Each pattern needs a character of its own (``<``, ``[``, a backtick, ``*``, ``_``
    or ``~``, ``++``, a backslash, ``&``); one whose character the line lacks is not run
    (most lines of prose have none of them). Keys written ``++ctrl+c++`` read "Ctrl+C".
    A character escaped with a backslash is that character, never markup: ``\\<script
    setup>`` is no tag, ``PropType\\<T>`` keeps its ``<T>``, ``\\*\\*`` two stars."""
    held = "\\" in text
    if held:  # bookdown's \@ref(zeta) reads as its name, \index{term} as nothing
        text = outside_code_spans(
            without_bookdown_marks(text), lambda part: _ESCAPED.sub(_hold, part)
        )
    if "<" in text:
        text = _COMMENT.sub(" ", text)
    if "[" in text:
        text = DOCFX_INCLUDE.sub(" ", text)
        text = _CALLOUT.sub(" ", text)
        text = _IMAGE.sub(" ", text)
        if "[[" in text:  # a wikilink: its text, or the note it names (not in code)
            text = outside_code_spans(text, wikilink_words)
        text = _LINK.sub(r"\1", text)
        text = _REF_LINK.sub(r"\1", text)
    if "<" in text:
        text = _AUTOLINK.sub(" ", text)
    if "[" in text:
        text = _FOOTNOTE.sub("", text)
    if "{" in text:  # an attribute list: "[get help](help.md){.internal-link target=_blank}"
        text = _SHORTCODE.sub(" ", _INLINE_ATTRS.sub("", text))
    if ":" in text:  # an icon's or emoji's shortcode (pymdownx.emoji, GitHub): ":link:"
        text = outside_code_spans(text, lambda part: _EMOJI.sub("", _ICON.sub(" ", part)))
    if "<" in text:  # a tag is no words, but "loadConfig(<options>)" in code is
        text = outside_code_spans(text, lambda part: _HTML.sub(_tag_gap, part))
    if "`" in text:
        text = _CODE.sub(r"\1", text)
    if "*" in text or "_" in text or "~" in text:
        for _ in range(2):
            text = _EMPHASIS.sub(r"\2", text)
    if "_" in text:
        text = _UNDERSCORED.sub(r"\1", text)
    if "++" in text:
        text = _KEYS.sub(_key_names, text)
    if "&" in text:
        text = _ENTITY.sub(_character, text)
    if held:  # a wikilink's "\\|" (a table's) was read by its reader
        text = text.translate(_RELEASED).replace("\\|", "|")
    return _SPACES.sub(" ", text).strip()


#: A backslash escape: any ASCII punctuation character, as CommonMark reads one, but
#: ``\\|``, which a wikilink in a table writes for its ``|`` (``[[Note\\|alias]]``).
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{}~])")
#: Where an escaped character waits while markup is read (a private-use code point).
_HELD = 0xF0000
_RELEASED = {_HELD + c: c for c in range(128)}


def _hold(found: re.Match[str]) -> str:
    return chr(_HELD + ord(found.group(1)))


def _character(match: re.Match[str]) -> str:
    """The character a reference names; itself when it names none ("&nosuch;")."""
    return html.unescape(match.group())


#: Tags that mark words up inside a line: gone without a trace, so words and markup
#: around them join as the page shows them.
_INLINE_TAGS = frozenset(
    [
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "cite",
        "code",
        "data",
        "del",
        "dfn",
        "em",
        "font",
        "i",
        "ins",
        "kbd",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "time",
        "u",
        "var",
    ]
)
_TAG_NAME = re.compile(r"</?\s*([A-Za-z][\w-]*)")


def _tag_gap(tag: re.Match[str]) -> str:
    """What an HTML tag leaves in a line's words: nothing for one that marks words up
    inside the line (``<abbr>``, ``<kbd>``, ``</b>``), so markup around it still closes
    ("**FastAPI <abbr title="...">CLI</abbr>** is" reads "FastAPI CLI is", not
    "*FastAPI CLI * is") and keys join ("Ctrl+C"); a space for any other (``<br>``,
    ``<p>``), which parts words."""
    name = _TAG_NAME.match(tag.group(0))
    return "" if name and name.group(1).lower() in _INLINE_TAGS else " "


def markup_read(text: str) -> str:
    """``text`` (a title a site writes into its HTML) as the page shows it: the tags
    that mark words up inside a line (:data:`_INLINE_TAGS`: ``<em>``, ``</b>``) gone,
    character references read (``&amp;`` is "&"); any other tag (a component's
    ``<Button>``) as written."""
    if "<" in text:
        text = _HTML.sub(lambda tag: "" if _tag_gap(tag) == "" else tag.group(0), text)
        text = _SPACES.sub(" ", text).strip()
    if "&" in text:
        text = _ENTITY.sub(_character, text)
    return text


def fenced_lines(text: str) -> Iterator[tuple[bool, str]]:
    """Each line of ``text``, its line break kept, and whether it belongs to a fenced
    code block (its fences too): what a page shows as code, not as its words."""
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            yield True, line
            continue
        opening = FENCE.match(line)
        if opening:
            fence = opening.group(1)[:3]
            yield True, line
            continue
        yield False, line


def outside_fences(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` made to each run of lines outside fenced code blocks."""
    out = []
    for code, run in itertools.groupby(fenced_lines(text), key=lambda pair: pair[0]):
        lines = "".join(line for _code, line in run)
        out.append(lines if code else change(lines))
    return "".join(out)


def outside_code_spans(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` made to what is outside its code spans."""
    if "`" not in text:
        return change(text)
    out, at = [], 0
    for span in _CODE.finditer(text):
        out += [change(text[at : span.start()]), span.group()]
        at = span.end()
    return "".join([*out, change(text[at:])])


def _later_headings(rest: str, fence: str | None) -> Iterator[Block]:
    """The ATX headings of ``rest`` (a long page's lines after those read whole: an API
    page's sections, each a class's description long), ``fence`` the code block it
    opens in, if any."""
    for line in rest.split("\n"):
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        fenced = FENCE.match(line)
        if fenced:
            fence = fenced.group(1)[:3]
        elif "#" in line[:4]:
            heading = _HEADING.match(line.rstrip())
            text = heading_text(heading.group(2)) if heading else ""
            if heading and text:
                yield Block("heading", text, len(heading.group(1)))


def blocks(markdown: str, *, max_lines: int = 600) -> Iterator[Block]:
    """The headings, paragraphs and list items of ``markdown``, in order (the first
    ``max_lines`` lines; the rest for its headings only)."""
    fence: str | None = None
    para: list[str] = []
    para_kind = "paragraph"
    in_comment = False
    table = False  # in a table written without outer pipes ("a | b" over "--- | ---")
    in_element: str | None = None  # the closing tag of a <script> or <style> being read
    blocks_open: list[tuple[str, bool]] = []  # pymdownx.blocks: (its slashes, read it)

    def flush() -> Iterator[Block]:
        nonlocal para
        if para:
            text = inline_text(" ".join(para))
            if text:
                yield Block(para_kind, text)
        para = []

    for n, raw in enumerate(markdown.split("\n", max_lines)):
        if n >= max_lines:  # the rest is read for its headings alone
            yield from flush()
            yield from _later_headings(raw, fence)
            break
        line = raw.rstrip()
        if in_comment:
            if "-->" in line:
                in_comment = False
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        fenced = FENCE.match(line)
        if fenced:
            yield from flush()
            fence = fenced.group(1)[:3]
            continue
        stripped = line.strip()
        block = _BLOCK.match(stripped) if stripped.startswith("///") else None
        if block:
            yield from flush()
            slashes, kind = block.group(1), block.group(2).lower()
            if blocks_open and blocks_open[-1][0] == slashes and not kind:
                blocks_open.pop()  # its closing line
            else:
                blocks_open.append((slashes, kind in _TEXT_BLOCKS))
            continue
        container = _CONTAINER.match(stripped) if stripped.startswith(":::") else None
        if container:
            colons = container.group(1)
            kind = (container.group(2) or container.group(3) or "").lower()
            key = ":" * len(colons)
            if not kind and any(k == key for k, _text in blocks_open):
                yield from flush()
                while blocks_open and blocks_open.pop()[0] != key:
                    pass  # its closing line, and any left open in it
                continue
            if kind in _CONTAINER_CALLOUTS or kind in _CONTAINER_TEXT:
                yield from flush()
                blocks_open.append((key, kind in _CONTAINER_TEXT))
                continue
        liquid = _LIQUID_BLOCK.match(stripped) if stripped.startswith("{%") else None
        if liquid and liquid.group(2).lower() in _LIQUID_PAIRED:
            yield from flush()
            key = "{%" + liquid.group(2).lower()
            if liquid.group(1):  # {% endhint %}: the block it closes, and any left open in it
                if any(k == key for k, _text in blocks_open):
                    while blocks_open and blocks_open.pop()[0] != key:
                        pass
            else:
                blocks_open.append((key, liquid.group(2).lower() not in _LIQUID_CALLOUTS))
            continue
        if blocks_open and not blocks_open[-1][1]:
            continue  # a callout's body
        if stripped.startswith("<!--") and "-->" not in stripped:
            yield from flush()
            in_comment = True
            continue
        element = _CODE_ELEMENT.match(stripped)
        if element:  # <script setup> of a VitePress page: code, no words
            yield from flush()
            closing = f"</{element.group(1).lower()}>"
            in_element = None if closing in stripped.lower() else closing
            continue
        if in_element is not None:
            in_element = None if in_element in stripped.lower() else in_element
            continue
        if table:
            if "|" in stripped:
                continue  # a row of a table without outer pipes
            table = False
        if "|" in stripped and _DELIMITER_ROW.match(stripped) and len(para) == 1 and "|" in para[0]:
            para, table = [], True  # that paragraph was the table's header row
            continue
        if not stripped or stripped.startswith("|") or not stripped.strip("-=*_ |:"):
            if para and _SETEXT.match(line) and stripped[0] in "=-" and len(para) == 1:
                level = 1 if stripped[0] == "=" else 2
                text = inline_text(para[0])
                para = []
                if text:
                    yield Block("heading", text, level)
                continue
            yield from flush()
            continue
        heading = _HEADING.match(line)
        if heading:
            yield from flush()
            text = heading_text(heading.group(2))
            if text:
                yield Block("heading", text, len(heading.group(1)))
            continue
        if _ADMONITION.match(stripped):
            yield from flush()
            continue
        if not para and stripped.startswith("[") and _REF_DEFINITION.match(stripped):
            yield from flush()  # a link reference definition ("[blog]: /blog/"): no text
            continue
        if line.startswith(("    ", "\t")) and not para:
            continue  # an indented code block
        body = stripped.lstrip(">").strip() if stripped.startswith(">") else stripped
        item = _LIST.match(body)
        if item:
            yield from flush()
            para, para_kind = [body[item.end() :]], "item"
            continue
        if body.startswith(": ") and para:  # a definition, under its term (kramdown,
            para_kind = "item"  # Python-Markdown's def_list, Hugo): term and definition
            yield from flush()  # are items, as a list's are: no paragraph of the page
            para, para_kind = [body[2:]], "item"
            continue
        if not para:
            para_kind = "paragraph"
        elif len(para) == 1 and _heading_line(para[0]) and body[:1].isupper():
            yield from flush()  # a title line glued to its text (PDF, plain text)
            para_kind = "paragraph"
        para.append(body)
    yield from flush()


def headings(markdown: str, *, max_lines: int = 2000) -> list[Block]:
    """Only the headings of ``markdown`` (ATX ``#`` headings outside code fences): fast."""
    return [block for block, _start, _end in _headings(markdown, max_lines)]


def sections(markdown: str, *, max_lines: int = 2000) -> list[tuple[Block, str]]:
    """Each heading of ``markdown`` (as :func:`headings` reads them) with the text
    written under it up to the next heading, as written (tables, code and all),
    stripped; the last one's text ends where the reading does (``max_lines``)."""
    found = list(_headings(markdown, max_lines))
    ends = [start for _block, start, _end in found[1:]]
    if found:
        ends.append(_reading_end(markdown, max_lines))
    return [
        (block, markdown[end:stop].strip())
        for (block, _s, end), stop in zip(found, ends, strict=True)
    ]


def first_heading(markdown: str, level: int = 1, *, max_lines: int = 2000) -> str:
    """The text of the first heading of ``level`` (as :func:`headings` reads them), read
    no further than it; empty when there is none."""
    return next((b.text for b, _s, _e in _headings(markdown, max_lines) if b.level == level), "")


def _headings(markdown: str, max_lines: int) -> Iterator[tuple[Block, int, int]]:
    """Each heading with where its line starts and ends in ``markdown``: the lines
    that may open or close a fence or be a heading are found by one expression, not
    a line at a time."""
    fence: str | None = None
    for found in _FENCE_OR_HASH.finditer(markdown, 0, _reading_end(markdown, max_lines)):
        marker = found.group(1)
        if marker != "#":
            fence = None if fence == marker else (fence or marker)
            continue
        if fence is None:
            line_start = found.start()
            end = markdown.find("\n", line_start)
            if end < 0:
                end = len(markdown)
            match = _HEADING.match(markdown[line_start:end])
            if match:
                text = heading_text(match.group(2))
                if text:
                    yield Block("heading", text, len(match.group(1))), line_start, end


def _reading_end(markdown: str, max_lines: int) -> int:
    """Where the first ``max_lines`` lines of ``markdown`` end."""
    if markdown.count("\n") < max_lines:
        return len(markdown)
    end = -1
    for _ in range(max_lines):
        end = markdown.find("\n", end + 1)
    return end


def _heading_line(line: str) -> bool:
    """A short line that does not end a sentence: a title when text follows on the next.
    A line that leaves a link, a parenthesis or a code span open goes on on the next."""
    line = line.strip()
    return (
        len(line) <= 60
        and len(line.split()) <= 8
        and line[-1:] not in ".,;:!?"
        and line.count("[") <= line.count("]")
        and line.count("(") <= line.count(")")
        and line.count("`") % 2 == 0
    )
