"""An AsciiDoc page as Markdown, read at the minimum a reader needs (pure: files are
read through a resolver, never the disk).

No maintained pure-Python library reads the AsciiDoc Antora sites write (Asciidoctor's
dialect) at a page's speed under a licence kas-tui can take (asciidoc-py is GPL and
reads the older dialect, asciidoc3 AGPL, asciidoctrine an alpha taking seconds a page
and stopping at the first sentence it cannot parse): this module reads the common part.

- The document title ``= Title`` (the page's title), section titles ``==`` to
  ``======`` (and ``[discrete]`` ones) as headings; the header's ``:description:``,
  ``:keywords:`` and ``:_content-type:`` as the page's own metadata.
- Attributes: the component's (``antora.yml``), then the page's entries, substituted in
  ``{name}`` (:mod:`.asciidoc_source` reads includes and conditionals first).
- Paragraphs, lists (``*``, ``-``, ``.``, ``1.``, ``term::``, callouts ``<1>``; nesting
  by marker, ``+`` attaching a block to an item), listing and literal blocks
  (``----``, ``....``, ``[source,lang]``) as fenced code, admonitions (``NOTE:``,
  ``[NOTE]`` + ``====``) as quoted callouts, example, sidebar, quote and open blocks,
  tables (``|===``, ``,===``) as Markdown tables, ``image::`` as images, block titles
  (``.Procedure``) in bold, ``'''`` as a rule; comments (``//``, ``////``) dropped.
- Inline markup (:mod:`.asciidoc_inline`); cross-references become links to the
  source file they name, which the build rewrites to the package's document.

Whatever it does not read stays as text: nothing here raises on a page.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Protocol

from kas_tui.features.importing.asciidoc_inline import (
    _PASS_MACRO,
    Inline,
    list_bullet,
    list_key,
    plain_text,
    strip_quotes,
    words_of,
)
from kas_tui.features.importing.asciidoc_source import (
    Line,
    Problem,
    Resolver,
    apply_entry,
    entry,
    read_source,
    substitute,
)
from kas_tui.features.importing.asciidoc_tables import table
from kas_tui.text.anchors import anchor

_SECTION = re.compile(r"^(={1,6}|#{1,6})[ \t]+(\S.*?)(?:[ \t]+\1)?$")
_DELIMITER = re.compile(r"^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|--|[|,:!]={3,}|```.*)$")
_BLOCK_ATTRS = re.compile(r"^\[(?:\[([\w:.-]+)(?:,[^\]]*)?\]|([^\[\]].*?|))\]$")
_TITLE = re.compile(r"^\.([^.\s].*)$")
_ADMONITION = re.compile(r"^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):\s+(.*)$")
_ADMONITIONS = {"NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION"}
_UNORDERED = re.compile(r"^\s*(\*{1,5}|-)\s+(.*)$")
_ORDERED = re.compile(r"^\s*(\.{1,5}|\d{1,3}\.|[a-zA-Z]\.|[ivxIVX]{1,5}\))\s+(.*)$")
_DEFINITION = re.compile(r"^(?!\s)(?!//)(.*?[^:;\s])(:{2,4}|;;)(?:\s+(.*))?$")
_CALLOUT = re.compile(r"^<(\d+|\.)>\s+(.*)$")
_BLOCK_MACRO = re.compile(r"^(image|video|audio|toc)::([^\[]*)\[(.*)\]$")
_LEVELS = {"*": 1, "-": 1}


@dataclass
class AdocPage:
    title: str | None
    markdown: str
    attributes: dict[str, str]
    included: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    missing: list[tuple[str, int, str]] = field(default_factory=list)  # file, line, name
    unresolved: list[tuple[str, int, str]] = field(default_factory=list)  # xrefs to nothing

    def metadata(self) -> tuple[dict[str, str], str]:
        """The page's own frontmatter (its header's ``:description:``, ``:_content-type:``)
        and ``:keywords:``, as the page shows them (entities read)."""

        def said(name: str) -> str:
            return " ".join(words_of(self.attributes.get(name, "")).split())

        front = {"description": said("description"), "content_type": said("_content-type")}
        return {k: v for k, v in front.items() if v}, said("keywords")


class Site(Resolver, Protocol):
    """What a page's cross-references and images name (:mod:`.antora`, :class:`Loose`)."""

    def page(self, target: str, at: str) -> str | None:
        """The source page ``xref:target`` (no fragment) in the file ``at`` names."""

    def title(self, rel: str) -> str | None:
        """The title of the source page ``rel``, as a link to it shows it."""

    def image(self, target: str, at: str, page: str) -> str | None:
        """The source file ``image::target[]`` in ``at`` (on the page ``page``) shows."""


@dataclass
class _Attrs:
    positional: list[str] = field(default_factory=list)
    named: dict[str, str] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)
    title: str | None = None

    def style(self) -> str:
        first = self.positional[0] if self.positional else ""
        return first.split("#")[0].split(".")[0].split("%")[0].strip()

    def options(self) -> set[str]:
        found = set(re.findall(r"%([\w-]+)", " ".join(self.positional)))
        for key in ("options", "opts"):
            found.update(o.strip() for o in self.named.get(key, "").split(","))
        return found


def _parse_attrs(text: str, into: _Attrs) -> None:
    for part in re.findall(r'(?:[^,"]|"[^"]*")+', text):
        part = part.strip()
        key, sep, value = part.partition("=")
        if sep and re.fullmatch(r"[\w-]+", key.strip()):
            into.named[key.strip().lower()] = value.strip().strip('"').strip("'")
            if key.strip().lower() == "id":
                into.ids.append(into.named["id"])
        else:
            into.positional.append(part.strip('"'))
            into.ids += re.findall(r"#([\w:.-]+)", part)


class _Page:
    """One page's conversion: its lines, attributes and what it found."""

    def __init__(self, rel: str, site: Site, attributes: dict[str, str], locked: frozenset[str]):
        self.rel = rel
        self.site = site
        self.attributes = attributes
        self.locked = locked
        self.lines: list[Line] = []
        self.title: str | None = None
        self.ids: dict[str, tuple[str, str]] = {}  # id -> its heading's anchor, words
        self.missing: list[str] = []
        self.found_missing: list[tuple[str, int, str]] = []
        self.unresolved: list[tuple[str, int, str]] = []
        self.footnotes: list[str] = []
        self.at: Line = Line("", rel, 1)
        self.inline = Inline(attributes, self, self.missing)

    # -- Links, for the inline converter -----------------------------------------------

    def xref(self, target: str, text: str) -> str:
        path, _sep, fragment = target.partition("#")
        if not path or (not _sep and not path.endswith(".adoc") and ":" not in path):
            fragment, path = fragment or path, ""  # <<id>>, xref:#id[]
        if not path:
            made, title = self.ids.get(fragment, (fragment, ""))
            return f"[{text or title or fragment}](#{made})"
        if not path.endswith(".adoc") and ("$" not in path or "page$" in path):
            path += ".adoc"
        found = self.site.page(path, self.at.file)
        if found is None:
            self.unresolved.append((self.at.file, self.at.number, target))
            return text or _words_of(path)
        words = text or self.site.title(found) or _words_of(found)
        link = posixpath.relpath(found, posixpath.dirname(self.rel) or ".")
        return f"[{words}]({link}{'#' + fragment if fragment else ''})"

    def find_ids(self) -> None:
        """The page's section ids (``[[id]]``, ``[id=...]``, ``[#id]`` above a section
        title, or Asciidoctor's own ``_title_words``) -> (the anchor its heading gets
        here, its words), for ``<<id>>`` above the section too."""
        ids: list[str] = []
        for line in self.lines:
            text = line.text
            above = _BLOCK_ATTRS.match(text)
            if above is not None:
                attrs = _Attrs()
                if above.group(1):
                    attrs.ids.append(above.group(1))
                else:
                    _parse_attrs(above.group(2), attrs)
                ids += attrs.ids
                continue
            section = _SECTION.match(text)
            if section is not None:
                words = plain_text(strip_quotes(substitute(section.group(2), self.attributes)))
                made = anchor(words)
                auto = "_" + re.sub(r"[^\w]+", "_", words.lower()).strip("_")
                for name in [*ids, auto]:
                    self.ids.setdefault(name, (made, words))
            if text.strip() and not text.startswith("//"):
                ids = []

    def image(self, target: str, alt: str) -> str:
        if re.match(r"^[a-z][\w+.-]*:", target) and not re.match(r"^\w+\$|^[\w-]+:", target):
            return f"![{alt}]({target})"
        if "://" in target:
            return f"![{alt}]({target})"
        folder = self.attributes.get("imagesdir", "").strip()
        if folder and "$" not in target and ":" not in target:
            target = posixpath.join(folder, target)
        found = self.site.image(target, self.at.file, self.rel)
        if found is None:
            self.problem_at(
                self.at,
                f"image:{target}[] names no image of the source: left as written; fix the "
                "path or add the image",
            )
            return f"![{alt}]({target})"
        return f"![{alt}]({posixpath.relpath(found, posixpath.dirname(self.rel) or '.')})"

    def footnote(self, text: str) -> str:
        self.footnotes.append(text)
        return f"[^{len(self.footnotes)}]"

    # -- blocks ------------------------------------------------------------------------

    def text(self, line: Line, text: str | None = None) -> str:
        self.at = line
        before = len(self.missing)
        out = self.inline(line.text if text is None else text)
        for name in self.missing[before:]:
            self.found_missing.append((line.file, line.number, name))
        return out

    def blocks(self, lo: int, hi: int) -> list[str]:
        out: list[str] = []
        attrs = _Attrs()
        i = lo
        while i < hi:
            line = self.lines[i]
            text = line.text
            if not text.strip():
                i += 1
                continue
            if text.startswith("//") and not re.match(r"^/{4,}$", text):
                i += 1
                continue
            if text.startswith(":") and (found := entry(text)) is not None:
                if found[0] not in self.locked:
                    apply_entry(self.attributes, self.locked, *found)
                while self.lines[i].text.endswith(" \\") and i + 1 < hi:
                    i += 1
                i += 1
                continue
            block_attrs = _BLOCK_ATTRS.match(text)
            if block_attrs is not None and not text.startswith("[[["):
                if block_attrs.group(1):
                    attrs.ids.append(block_attrs.group(1))
                else:
                    _parse_attrs(substitute(block_attrs.group(2), self.attributes), attrs)
                i += 1
                continue
            title = _TITLE.match(text)
            if title is not None and not _DELIMITER.match(text):
                attrs.title = title.group(1)
                i += 1
                continue
            i, made = self.block(i, hi, attrs)
            out += [m for m in made if m.strip()]
            attrs = _Attrs()
        return out

    def block(self, i: int, hi: int, attrs: _Attrs) -> tuple[int, list[str]]:
        """The block at line ``i`` (its attributes and title read): the line after it,
        and its Markdown."""
        line = self.lines[i]
        text = line.text
        titled = [f"**{self.text(line, attrs.title)}**"] if attrs.title else []
        section = _SECTION.match(text)
        if section is not None and attrs.style() not in ("source", "listing", "literal"):
            return i + 1, [self.heading(line, section, attrs)]
        if _DELIMITER.match(text):
            end = self.closing(i, hi)
            if end is None:  # read to the end of what holds it, as Asciidoctor reads it
                if text != "--" and not text.startswith("```"):
                    self.problem_at(
                        line,
                        f"the block opened by {text} is never closed: read to the end; close "
                        f"it with a line {text}",
                    )
                return hi, self.delimited(i, (i + 1, hi), attrs, titled)
            return end + 1, self.delimited(i, (i + 1, end), attrs, titled)
        macro = _BLOCK_MACRO.match(text)
        if macro is not None:
            return i + 1, [*titled, self.block_macro(line, macro, attrs)]
        if text.strip() in ("'''", "---", "***", "<<<"):
            return i + 1, ["---"] if text.strip() != "<<<" else []
        if self.list_item(text) is not None:
            end, made = self.list(i, hi)
            return end, [*titled, made]
        end = i
        while end < hi and self.lines[end].text.strip() and not self._stops(end, i):
            end += 1
        return end, [*titled, self.paragraph(i, end, attrs)]

    def _stops(self, j: int, start: int) -> bool:
        """Whether the line ``j`` ends the paragraph begun at ``start``."""
        if j == start:
            return False
        text = self.lines[j].text
        return bool(_DELIMITER.match(text) or _BLOCK_ATTRS.match(text))

    def closing(self, i: int, hi: int) -> int | None:
        """The line closing the delimited block opened at ``i``, before ``hi``."""
        opener = self.lines[i].text
        closer = "```" if opener.startswith("```") else opener
        return next((j for j in range(i + 1, hi) if self.lines[j].text == closer), None)

    def heading(self, line: Line, match: re.Match[str], attrs: _Attrs) -> str:
        level = len(match.group(1)) - 1
        offset = self.attributes.get("leveloffset", "0").strip() or "0"
        level += int(offset) if re.fullmatch(r"[+-]?\d{1,2}", offset) else 0
        level = min(max(level, 0), 5)
        words = self.text(line, match.group(2))
        if level == 0 and self.title is None:
            self.title = plain_text(words)
        return f"{'#' * (level + 1)} {words}"

    def delimited(
        self, i: int, inner: tuple[int, int], attrs: _Attrs, titled: list[str]
    ) -> list[str]:
        opener = self.lines[i].text
        kind = opener[0]
        style = attrs.style()
        if opener.startswith("```"):
            lang = opener[3:].strip()
            return [*titled, self.code(inner, lang, set())]
        if kind == "/":
            return []
        if kind in "-." and opener != "--":
            lang = ""
            if style == "source" or (style and style not in ("listing", "literal")):
                lang = attrs.positional[1] if len(attrs.positional) > 1 else ""
                if style not in ("source", "listing", "literal") and len(attrs.positional) == 1:
                    lang = style if style not in _ADMONITIONS else ""
                lang = lang or (
                    self.attributes.get("source-language", "") if style == "source" else ""
                )
            return [*titled, self.code(inner, lang.strip(), self.subs(attrs))]
        if kind == "+":
            return [*titled, "\n".join(ln.text for ln in self.lines[inner[0] : inner[1]])]
        if kind in "|,:!" and opener != "--":
            return [*titled, self.table(inner, attrs, kind)]
        body = "\n\n".join(self.blocks(*inner))
        if style in _ADMONITIONS:
            head = f"**{style.capitalize()}**" + (f": {titled[0]}" if titled else "")
            return [_quoted(f"{head}\n\n{body}")]
        if kind == "_" or style in ("quote", "verse"):
            said = ", ".join(p for p in attrs.positional[1:3] if p)
            quote = body + (f"\n\n— {said}" if said else "")
            return [*titled, _quoted(quote)]
        if kind == "*":
            return [_quoted("\n\n".join([*titled, body]))]
        return [*titled, body]

    def subs(self, attrs: _Attrs) -> set[str]:
        given = attrs.named.get("subs", "")
        return {s.strip().strip("+").rstrip("+") for s in given.split(",") if s.strip()}

    def code(self, inner: tuple[int, int], lang: str, subs: set[str]) -> str:
        lines = [ln.text for ln in self.lines[inner[0] : inner[1]]]
        text = "\n".join(lines)
        if subs & {"macros", "m", "normal"}:
            text = _PASS_MACRO.sub(
                lambda m: (
                    substitute(m.group(2), self.attributes) if "a" in m.group(1) else m.group(2)
                ),
                text,
            )
        if subs & {"attributes", "a", "normal"}:
            text = substitute(text, self.attributes)
        if subs & {"quotes", "q", "normal"}:
            text = strip_quotes(text)
        run = max((len(m) for m in re.findall(r"^\s*(`{3,})", text, re.M)), default=2)
        fence = "`" * (run + 1)
        return f"{fence}{lang}\n{text}\n{fence}"

    def block_macro(self, line: Line, match: re.Match[str], attrs: _Attrs) -> str:
        name, target, given = match.groups()
        if name == "toc":
            return ""
        target = substitute(target, self.attributes)
        given_attrs = _Attrs()
        _parse_attrs(substitute(given, self.attributes), given_attrs)
        words = given_attrs.positional[0] if given_attrs.positional else ""
        words = words or given_attrs.named.get("alt", "") or attrs.named.get("alt", "")
        self.at = line
        if name == "image":
            return self.image(target, words or _words_of(target))
        return f"[{words or target}]({target})"

    def paragraph(self, i: int, end: int, attrs: _Attrs) -> str:
        lines = [ln for ln in self.lines[i:end] if not ln.text.startswith("//")]
        if not lines:
            return ""
        style = attrs.style()
        if style in ("source", "listing", "literal") or (
            lines[0].text.startswith((" ", "\t")) and not style
        ):
            lang = attrs.positional[1] if style == "source" and len(attrs.positional) > 1 else ""
            saved, self.lines = self.lines, lines
            try:
                return self.code((0, len(lines)), lang, self.subs(attrs))
            finally:
                self.lines = saved
        first = lines[0].text
        admonition = _ADMONITION.match(first)
        label = style if style in _ADMONITIONS else None
        if admonition is not None and label is None:
            label, first = admonition.group(1), admonition.group(2)
        joined = "\n".join([first, *(ln.text for ln in lines[1:])])
        text = self.text(lines[0], joined)
        if label:
            return _quoted(f"**{label.capitalize()}:** {text}")
        if style in ("quote", "verse"):
            return _quoted(text)
        return text

    # -- lists -------------------------------------------------------------------------

    def list_item(self, text: str) -> tuple[str, str, str] | None:
        """(kind, marker, text) of a list item line, ``None`` for another line."""
        for kind, pattern in (("ul", _UNORDERED), ("ol", _ORDERED), ("co", _CALLOUT)):
            found = pattern.match(text)
            if found is not None:
                return kind, found.group(1), found.group(2)
        found = _DEFINITION.match(text)
        if found is not None and "://" not in found.group(1) and not _BLOCK_MACRO.match(text):
            return "dl", found.group(2), f"{found.group(1)}\x02{found.group(3) or ''}"
        return None

    def list(self, i: int, hi: int) -> tuple[int, str]:
        markers: list[str] = []  # the marker of each depth, outermost first
        indents: list[int] = []  # where each depth's bullets start
        inside: list[int] = []  # where the last item of each depth has its text
        counters: list[int] = []
        out: list[str] = []
        while i < hi:
            item = self.list_item(self.lines[i].text)
            if item is None:
                break
            kind, marker, first = item
            key = list_key(kind, marker)
            if key in markers:
                depth = markers.index(key)
                del markers[depth + 1 :], indents[depth + 1 :], inside[depth + 1 :]
                del counters[depth + 1 :]
            else:
                depth = len(markers)
                markers.append(key)
                indents.append(inside[-1] if inside else 0)
                inside.append(0)
                counters.append(0)
            counters[depth] += 1
            start = i
            i += 1
            while i < hi and self.lines[i].text.strip() and self.lines[i].text != "+":
                text = self.lines[i].text
                if self.list_item(text) is not None or _DELIMITER.match(text):
                    break
                if _BLOCK_ATTRS.match(text):
                    break
                i += 1
            below = [ln.text.strip() for ln in self.lines[start + 1 : i] if not _comment(ln.text)]
            words = "\n".join([first, *below])
            bullet = list_bullet(kind, marker, counters[depth])
            if kind == "dl":
                term, _sep, said = words.partition("\x02")
                text = f"**{self.text(self.lines[start], term)}**"
                if said.strip():
                    text += ": " + self.text(self.lines[start], said.strip())
            else:
                text = self.text(self.lines[start], words)
            inside[depth] = indents[depth] + len(bullet)
            pad = " " * inside[depth]
            out.append(" " * indents[depth] + bullet + text.replace("\n", "\n" + pad))
            attached = False
            while True:  # blocks attached with "+", and lines right below one
                j = i
                while j < hi and (not self.lines[j].text.strip() or _comment(self.lines[j].text)):
                    j += 1
                if j < hi and self.lines[j].text == "+":
                    j += 1
                    while j < hi and (
                        not self.lines[j].text.strip() or _comment(self.lines[j].text)
                    ):  # "+", a blank, a block
                        j += 1
                elif not (attached and j == i < hi and self.list_item(self.lines[i].text) is None):
                    break
                if j >= hi:  # a "+" ending the page attaches nothing
                    i = j
                    break
                end = max(self._attached_end(j, hi), j + 1)
                attached = True
                made = "\n\n".join(self.blocks(j, end))
                if made.strip():
                    out.append("\n" + _indented(made, pad) + "\n")
                i = end
            j = i  # a list goes on after blank lines
            while j < hi and (not self.lines[j].text.strip() or _comment(self.lines[j].text)):
                j += 1
            if j < hi and self.list_item(self.lines[j].text) is not None:
                i = j
                continue
            break
        return i, "\n".join(out)

    def _attached_end(self, j: int, hi: int) -> int:
        """The line after the block a list continuation (``+``) attaches at ``j``."""
        while j < hi and (
            _BLOCK_ATTRS.match(self.lines[j].text) or _TITLE.match(self.lines[j].text)
        ):
            if _DELIMITER.match(self.lines[j].text):
                break
            j += 1
        if j < hi and _DELIMITER.match(self.lines[j].text):
            end = self.closing(j, hi)
            return hi if end is None else end + 1
        while j < hi and self.lines[j].text.strip() and self.lines[j].text != "+":
            if self.list_item(self.lines[j].text) is not None:
                break
            j += 1
        return j

    # -- tables ------------------------------------------------------------------------

    def table(self, inner: tuple[int, int], attrs: _Attrs, kind: str) -> str:
        return table(self, inner, attrs, kind)

    def problem_at(self, line: Line, message: str) -> None:
        self.problems.append(Problem(line.file, line.number, message))

    problems: list[Problem]


def _comment(text: str) -> bool:
    """Whether ``text`` is a line comment, which a list reads past."""
    return text.startswith("//") and not text.startswith("////")


def _quoted(text: str) -> str:
    return "\n".join(f"> {ln}" if ln.strip() else ">" for ln in text.strip("\n").split("\n"))


def _indented(text: str, pad: str) -> str:
    return "\n".join(pad + ln if ln.strip() else "" for ln in text.split("\n"))


def _words_of(path: str) -> str:
    stem = posixpath.splitext(posixpath.basename(path.split("$")[-1].split(":")[-1]))[0]
    return re.sub(r"[-_]+", " ", stem).strip().capitalize()


def to_markdown(
    text: str,
    rel: str,
    site: Site,
    attributes: dict[str, str] | None = None,
    locked: frozenset[str] = frozenset(),
) -> AdocPage:
    """The page ``rel`` (its text ``text``) as Markdown, with the component's
    ``attributes`` (those in ``locked`` not to be changed by the page)."""
    attributes = dict(attributes or {})
    source = read_source(text, rel, site, dict(attributes), locked)
    page = _Page(rel, site, attributes, locked)
    page.problems = list(source.problems)
    page.lines = source.lines
    page.find_ids()
    blocks = page.blocks(0, len(page.lines))
    if page.footnotes:
        blocks.append("\n".join(f"[^{n}]: {t}" for n, t in enumerate(page.footnotes, 1)))
    markdown = "\n\n".join(b.rstrip() for b in blocks if b.strip())
    markdown = re.sub(r"\n{3,}", "\n\n", markdown).strip("\n") + "\n"
    return AdocPage(
        page.title,
        markdown,
        page.attributes,
        source.included,
        page.problems,
        page.found_missing,
        page.unresolved,
    )
