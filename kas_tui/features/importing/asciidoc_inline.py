"""AsciiDoc's inline markup as Markdown (pure): what one paragraph, list item, cell or
title says, as the site shows it.

In the order Asciidoctor substitutes: passthroughs (``+x+``, ``pass:[x]``) are kept as
written; ``{attribute}`` references take their values (``pass:a[...]`` and code spans
too; an unknown one stays as written and is counted); code spans; macros (``link:``,
URLs with ``[text]``, ``xref:``, ``<<id,text>>``, ``image:``, ``kbd:``, ``btn:``,
``menu:``, ``footnote:``; anchors and icons show nothing); bold, italic and marks;
the typographic replacements (``->`` is an arrow, `` -- `` a dash). Cross-references
and images are made links by the page's :class:`Links` (:mod:`.asciidoc`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Protocol

from kas_tui.features.importing.asciidoc_source import substitute


class Links(Protocol):
    def xref(self, target: str, text: str) -> str:
        """A cross-reference (``page.adoc#id``, ``module:page.adoc``, ``#id``, ``id``)
        as Markdown: a link, or its words when it names nothing of the source."""

    def image(self, target: str, alt: str) -> str:
        """An image's Markdown."""

    def footnote(self, text: str) -> str:
        """A footnote's mark in the text (its text goes to the page's end)."""


_PASS = re.compile(
    r"\+\+\+(.+?)\+\+\+|\$\$(.+?)\$\$|\+\+(.+?)\+\+|(?<![\w+])\+(?![\s+])(.+?)(?<!\s)\+(?![\w+])"
    r"|\bpass:([a-z,]*)\[((?:[^\]\\]|\\.)*)\]"
)
_CODE = re.compile(r"(?<![\w`\\])`(?!\s)((?:[^`\n]|`(?=\w))+?)(?<!\s)`(?![\w`])|``(.+?)``")
_URL_MACRO = re.compile(
    r"(?<![\w\"'(=/])(link:|mailto:)?((?:https?|ftp|irc|file)://[^\s\[\]<>\"]+|"
    r"(?<=link:)[^\s\[\]]+|(?<=mailto:)[^\s\[\]]+)\[((?:[^\]\\]|\\.)*)\]"
)
_XREF = re.compile(r"\bxref:([^\s\[\]]+)\[((?:[^\]\\]|\\.)*)\]")
_ANGLE_XREF = re.compile(r"<<([^\s<>,][^<>,]*?)(?:,\s*([^<>]*?))?>>")
_IMAGE = re.compile(r"\bimage:(?!:)([^\s\[\]]+)\[([^\]]*)\]")
_KBD = re.compile(r"\bkbd:\[((?:[^\]\\]|\\.)*)\]")
_BTN = re.compile(r"\bbtn:\[((?:[^\]\\]|\\.)*)\]")
_MENU = re.compile(r"\bmenu:([^\s\[\]]+)\[((?:[^\]\\]|\\.)*)\]")
_FOOTNOTE = re.compile(r"\bfootnote(?:ref)?:([\w-]*)\[((?:[^\]\\]|\\.)*)\]")
_NOTHING = re.compile(
    r"\b(?:anchor|icon|indexterm):[^\s\[\]]*\[[^\]]*\]|\[\[[\w:.-]+(?:,[^\]]*)?\]\]|\(\(\(.*?\)\)\)"
)
_INDEX_TERM = re.compile(r"\(\((.+?)\)\)")
_ROLE_SPAN = re.compile(r"\[[.#][\w.#-]*\]#(.+?)#")
_STRONG = re.compile(r"\*\*(.+?)\*\*|(?<![\w*\\])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_EMPHASIS = re.compile(r"__(.+?)__|(?<![\w_\\])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_MARK = re.compile(r"##(.+?)##|(?<![\w#\\&])#(?=\S)([^#\n]+?)(?<=\S)#(?![\w#])")
_QUOTED = re.compile(r"\"`(.+?)`\"|'`(.+?)`'")
_REPLACEMENTS = [
    (re.compile(r"\(C\)"), "©"),
    (re.compile(r"\(R\)"), "®"),
    (re.compile(r"\(TM\)"), "™"),
    (re.compile(r"(?<=\s)--(?=\s)|(?<=\w)--(?=\w)"), "—"),
    (re.compile(r"(?<![-<=])->(?!>)"), "→"),
    (re.compile(r"(?<![=<])=>(?![=>])"), "⇒"),
    (re.compile(r"(?<!<)<-(?![-<])"), "←"),
    (re.compile(r"(?<!<)<=(?![=<>])"), "⇐"),
]
_HTML_START = re.compile(r"<(?=[A-Za-z/!?])")
_HARD_BREAK = re.compile(r" \+$", re.M)
_HOLE = re.compile(r"\x00(\d+)\x00")


def _unescaped(text: str) -> str:
    return text.replace("\\]", "]")


def _link_text(text: str) -> str:
    """A macro's text without its attributes (``text^``, ``"text",window=_blank``)."""
    text = _unescaped(text).strip()
    if "=" in text:
        first = re.split(r",\s*(?=[\w-]+=)", text)[0]
        text = "" if re.match(r"^[\w-]+=", first) else first
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return text.removesuffix("^")


def code_span(text: str) -> str:
    """``text`` as a Markdown code span (backticks in it fenced by more)."""
    run = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (run + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


class Inline:
    """Converts a page's inline text; ``missing`` collects attribute names no attribute
    defines."""

    def __init__(self, attributes: dict[str, str], links: Links, missing: list[str]) -> None:
        self.attributes = attributes
        self.links = links
        self.missing = missing

    def __call__(self, text: str) -> str:
        holes: list[str] = []

        def hold(markdown: str) -> str:
            holes.append(markdown)
            return f"\x00{len(holes) - 1}\x00"

        def passthrough(match: re.Match[str]) -> str:
            if match.group(5) is not None:  # pass:subs[text]
                subs, kept = match.group(5), _unescaped(match.group(6))
                if "a" in subs.split(",") or "attributes" in subs:
                    kept = substitute(kept, self.attributes, self.missing)
                return hold(_escaped(kept) if "q" not in subs else self._quotes(kept, hold))
            kept = next(g for g in match.groups()[:4] if g is not None)
            return hold(_escaped(kept))

        text = _HARD_BREAK.sub("\x01", text)
        if "`" in text:  # code first: what is in it is shown as written, attributes read
            text = _CODE.sub(lambda m: hold(code_span(self.code(m.group(1) or m.group(2)))), text)
        if "+" in text or "pass:" in text or "$$" in text:
            text = _PASS.sub(passthrough, text)
        text = substitute(text, self.attributes, self.missing)
        text = self._macros(text, hold)
        text = self._quotes(text, hold)
        text = _restore(text, holes)
        return text.replace("\x01", "\\\n")

    def code(self, text: str) -> str:
        return plain_code(text, self.attributes, self.missing)

    def plain(self, text: str) -> str:
        """``text`` with its markup read and left out (a title, a link's words)."""
        return plain_text(self(text))

    def _macros(self, text: str, hold: Callable[[str], str]) -> str:
        if "image:" in text:
            text = _IMAGE.sub(
                lambda m: hold(self.links.image(m.group(1), _link_text(m.group(2).split(",")[0]))),
                text,
            )
        if "xref:" in text:
            text = _XREF.sub(
                lambda m: hold(self.links.xref(m.group(1), self._words(_link_text(m.group(2))))),
                text,
            )
        if "<<" in text:
            text = _ANGLE_XREF.sub(
                lambda m: hold(self.links.xref(m.group(1).strip(), self._words(m.group(2) or ""))),
                text,
            )

        def url(match: re.Match[str]) -> str:
            prefix, target, words = match.group(1) or "", match.group(2), match.group(3)
            words = self._words(_link_text(words))
            if prefix == "mailto:":
                target = "mailto:" + target
            if not words:
                return hold(f"<{target}>" if "://" in target or prefix else target)
            return hold(f"[{words}]({_destination(target)})")

        if "[" in text:
            text = _URL_MACRO.sub(url, text)
        if ":[" in text or "menu:" in text:
            text = _KBD.sub(lambda m: hold(code_span(_unescaped(m.group(1)))), text)
            text = _BTN.sub(lambda m: hold(f"**{_escaped(_unescaped(m.group(1)))}**"), text)
            text = _MENU.sub(
                lambda m: hold(
                    "**"
                    + " > ".join(
                        _escaped(p.strip())
                        for p in [m.group(1), *_unescaped(m.group(2)).split(">")]
                        if p.strip()
                    )
                    + "**"
                ),
                text,
            )
            text = _FOOTNOTE.sub(lambda m: hold(self.links.footnote(self._words(m.group(2)))), text)
        text = _NOTHING.sub("", text)
        return _INDEX_TERM.sub(r"\1", text)

    def _words(self, text: str) -> str:
        """A link's text, its markup read (it is inside the link's brackets)."""
        if not text:
            return ""
        words = self._quotes(text, lambda s: s)
        return words.replace("[", "\\[").replace("]", "\\]")

    def _quotes(self, text: str, hold: Callable[[str], str]) -> str:
        text = _ROLE_SPAN.sub(r"\1", text)
        text = _QUOTED.sub(lambda m: f"“{m.group(1)}”" if m.group(1) else f"‘{m.group(2)}’", text)
        text = _STRONG.sub(lambda m: f"**{(m.group(1) or m.group(2)).strip()}**", text)
        text = _EMPHASIS.sub(lambda m: f"*{(m.group(1) or m.group(2)).strip()}*", text)
        text = _MARK.sub(lambda m: m.group(1) or m.group(2), text)
        for pattern, replacement in _REPLACEMENTS:
            text = pattern.sub(replacement, text)
        return _escaped(text)


def words_of(text: str) -> str:
    """Header text as words (a ``:description:``): macros their text, no emphasis marks."""
    text = _XREF.sub(lambda m: _link_text(m.group(2)) or m.group(1), text)
    text = _URL_MACRO.sub(lambda m: _link_text(m.group(3)) or m.group(2), text)
    return strip_quotes(html.unescape(text))


def plain_code(text: str, attributes: dict[str, str], missing: list[str] | None) -> str:
    """Code's text as a reader sees it: ``pass:a[{x}]`` its value, ``+x+`` its text,
    the attributes it names their values, emphasis marks (which code cannot show) left
    out."""
    if text.startswith("+") and text.endswith("+") and len(text) > 1:
        return text.strip("+")
    text = _PASS_MACRO.sub(
        lambda m: substitute(m.group(2), attributes) if "a" in m.group(1) else m.group(2), text
    )
    return strip_quotes(substitute(text, attributes, missing))


_PASS_MACRO = re.compile(r"\bpass:([a-z,]*)\[((?:[^\]\\]|\\.)*)\]")


def strip_quotes(text: str) -> str:
    """``text`` without AsciiDoc's bold and italic marks (``__<name>__`` is ``<name>``)."""
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])\*(\S(?:.*?\S)?)\*(?![\w*])", r"\1", text)
    return re.sub(r"(?<![\w_])_(\S(?:.*?\S)?)_(?![\w_])", r"\1", text)


def _escaped(text: str) -> str:
    """Text as Markdown shows it as written: entities read, ``<tag`` not taken for
    HTML (held parts, ``\\x00n\\x00``, untouched)."""
    if "&" in text:
        text = html.unescape(text)
    text = text.replace("\u00a0", " ")
    text = re.sub(r"\\([*_`#\[\]{}+])", r"\1", text)  # AsciiDoc's escapes, read
    return _HTML_START.sub(r"\\<", text)


def _destination(target: str) -> str:
    return f"<{target}>" if " " in target or ")" in target else target


def _restore(text: str, holes: list[str]) -> str:
    for _ in range(8):  # held parts may hold others
        if "\x00" not in text:
            break
        text = _HOLE.sub(lambda m: holes[int(m.group(1))], text)
    return text


_MD_LINK = re.compile(r"!?\[((?:[^\]\\]|\\.)*)\]\([^)]*\)")


def plain_text(markdown: str) -> str:
    """Inline Markdown's words: links their text, emphasis and code marks left out."""
    text = _MD_LINK.sub(r"\1", markdown)
    text = re.sub(r"(\*\*|\*|`+)", "", text)
    text = text.replace("\\<", "<").replace("\\[", "[").replace("\\]", "]").replace("\\\n", " ")
    return " ".join(text.split())


def list_bullet(kind: str, marker: str, n: int) -> str:
    """The Markdown marker of the ``n``-th item of an AsciiDoc list of ``kind`` (``ul``,
    ``ol``, ``co`` for callouts) written with ``marker``."""
    if kind == "ol":
        return f"{marker} " if marker[0].isdigit() else f"{n}. "
    if kind == "co":
        return f"{n}. " if marker == "." else f"{marker}. "
    return "- "


def list_key(kind: str, marker: str) -> str:
    """Which list an item belongs to: items of one marker style nest as one list."""
    if kind == "ol" and marker[0].isdigit():
        return "ol:1."
    if kind == "ol" and marker[0].isalpha() and marker.endswith("."):
        return "ol:a."
    if kind == "ol" and marker.endswith(")"):
        return "ol:i)"
    return f"{kind}:{'*' if marker == '-' else marker}" if kind != "co" else "co"
