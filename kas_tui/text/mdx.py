"""MDX read as the page its site renders: without its code-only lines.

An ``.mdx`` page (Docusaurus, Astro Starlight) is Markdown with JavaScript: module
statements at its top level (``import { Steps, Tabs } from '@astrojs/starlight/
components';``, ``export const toc = ...;``) and comments in braces (``{/* TODO */}``)
that the site never shows. Left in, they were the first "sentence" of 21 of Tauri's
pages' descriptions. A component's tags (``<Tabs>``, ``<TabItem label="npm">``,
``<LinkCard title="x" href="/y/" />``) are the theme's drawing of the words between them:
the words stay, the tags go, a tab's label and a card's link read as the site shows them
(:func:`without_component_tags`). Code examples stay as written: only lines outside
fenced blocks are read.
"""

from __future__ import annotations

import re

from kas_tui.text.prose import fenced_lines, outside_fences

#: One ``import``: ``import x from 'y'``, ``import { a,\n b } from "y"``, ``import 'y'``.
_IMPORT = r"import\s+(?:[\w*${},\s]+?\s+from\s+)?['\"][^'\"\n]+['\"]"
#: A top-level module statement: imports, one or more to a line (React Native's
#: ``import Tabs from '@theme/Tabs'; import TabItem from '@theme/TabItem';``), or a
#: one-line ``export ...``.
_MODULE = re.compile(
    rf"^(?:(?:{_IMPORT})[ \t]*;?[ \t]*)+$"
    r"|^export\s+(?:const|let|var|default|function|\{)[^\n]*[ \t]*$",
    re.M,
)
#: A JSX comment, over one line or several.
_COMMENT = re.compile(r"\{/\*.*?\*/\}", re.S)


def imports_modules(markdown: str) -> bool:
    """Whether ``markdown`` holds a top-level ``import`` outside fenced code: a page
    read as MDX (Docusaurus reads its ``.md`` pages so), whose capitalised tags are
    components, never an XML example's elements."""
    if "import" not in markdown:
        return False
    return any(
        not code and line.startswith("import") and _MODULE.match(line.rstrip("\n"))
        for code, line in fenced_lines(markdown)
    )


def without_module_code(markdown: str) -> str:
    """``markdown`` (an MDX page's body) without its top-level ``import``/``export``
    statements and ``{/* */}`` comments, outside fenced code; a line left empty by them
    goes too, so the page's first paragraph is its first words."""

    def cleaned(prose: str) -> str:
        return re.sub(r"\n{3,}", "\n\n", _COMMENT.sub("", _MODULE.sub("", prose)))

    return outside_fences(markdown, cleaned).lstrip("\n")


#: A ``<script>`` or ``<style>`` block opening a line (a VitePress page's ``<script
#: setup>``): code the site runs or styles with, never text it shows.
_SCRIPT_BLOCK = re.compile(r"^<(script|style)\b[^>]*>.*?</\1\s*>[ \t]*$", re.I | re.S | re.M)


def without_page_code(markdown: str) -> str:
    """A Markdown page's body without what its site runs and never shows, outside
    fenced code: top-level module statements (Docusaurus reads every ``.md`` page as
    MDX: redux's 21 pages and React Native's 83 kept their ``import Tabs from
    '@theme/Tabs'`` lines) and ``<script>``/``<style>`` blocks (VitePress' ``<script
    setup>``, vite's 9 pages)."""
    if "import" not in markdown and "export" not in markdown and "<s" not in markdown.lower():
        return markdown

    def cleaned(prose: str) -> str:
        out = _SCRIPT_BLOCK.sub("", _MODULE.sub("", prose))
        return prose if out == prose else re.sub(r"\n{3,}", "\n\n", out)

    shown = outside_fences(markdown, cleaned)
    return markdown if shown == markdown else shown.lstrip("\n")


#: A component's tag opening a line (a JSX or Vue component: a capitalised name, never an
#: HTML element's): ``<Tabs>``, ``</TabItem>``, ``<LinkCard title="x" />``, ``<Foo.Bar``.
_TAG_START = re.compile(r"^([ \t]*)<(/?)([A-Z][\w.]*)(?=[\s/>]|$)")
#: One attribute written as a string: ``label="npm"``, ``title='Sessions'``, ``href={"/x"}``;
#: never a Vue binding's (``:members="teamMembers"``, ``@click="go"``): code.
_ATTRIBUTE = re.compile(
    r"""(?<![\w:@.-])([\w-]+)=(?:"([^"]*)"|'([^']*)'|\{\s*["'`]([^"'`]*)["'`]\s*\})"""
)
#: A self-closing component inside a line of text: ``... <br /><Since v="6.0.0" />``.
_INLINE_TAG = re.compile(r"<([A-Z][\w.]*)(?:\s[^<>]*?)?/>")
#: The attributes whose words a reader sees: a tab's label (Astro's ``<Fragment
#: slot="npm">`` names its tab so), a card's title or text.
_SHOWN = ("label", "title", "slot", "text")


def without_component_tags(markdown: str, keep: frozenset[str] = frozenset()) -> str:
    """``markdown`` (a page's body) with its components' tags outside fenced code
    turned into what a reader of the site sees: a container's words stay and its tags
    go (``<Steps>``, ``<ReadMore>``), its words moved left as far as its tag stands (MDX
    reads no code block into JSX's indentation, Markdown would); a tag's label is a line
    in bold (``<TabItem label="npm">`` is **npm**), one with an address a link (``<Card
    title="Sessions" href="/x/">`` is [Sessions](/x/)); a self-closing card with an
    address is a link, one without any goes, as does one inside a line of text.
    Components named in ``keep`` (the Markdown files a page imports, which the build
    shows where their tag stands) stay as written; so does anything not a component."""
    if "<" not in markdown or not re.search(r"<\/?[A-Z]", markdown):
        return markdown
    lines = list(fenced_lines(markdown))
    tags = _tags(lines, keep)
    shifts = _shifts(lines, tags)
    out: list[tuple[str, bool]] = []  # (a line, whether a tag made it)
    n = 0
    while n < len(lines):
        code, line = lines[n]
        if n in tags:
            end, indent, closing, tag = tags[n]
            if _says_more(tag):  # <InstallSnippet pkgs="@trpc/server ..." />: as written
                out += [(_dedented(piece, shifts[n]), False) for _c, piece in lines[n : end + 1]]
                n = end + 1
                continue
            for shown in _shown(indent[: max(0, len(indent) - shifts[n])], closing, tag):
                out.append((shown + "\n", True))
            n = end + 1
            continue
        body = line if code else _INLINE_TAG.sub(lambda m: _inline(m, keep), _wrapped(line, keep))
        out.append((_dedented(body, shifts[n]), False))
        n += 1
    kept: list[tuple[str, bool]] = []
    near = False  # a tag went since the last line with words
    for line, made in out:  # one blank line where a tag was, none opening the text
        blank = not line.strip()
        near = near or made
        if blank and (made and not kept or kept and not kept[-1][0].strip() and near):
            continue
        kept.append((line, made))
        near = near and blank
    while kept and kept[-1][1] and not kept[-1][0].strip():
        kept.pop()  # none closing it either
    text = "".join(line for line, _made in kept)
    return text if text.endswith("\n") or not markdown.endswith("\n") else text + "\n"


def _tags(lines: list[tuple[bool, str]], keep: frozenset[str]) -> dict[int, tuple]:
    """The lines that are a component's tag and nothing else: the first line's number ->
    (its last line's number, its indentation, whether it closes, its text)."""
    found: dict[int, tuple] = {}
    n = 0
    while n < len(lines):
        code, line = lines[n]
        opened = None if code else _TAG_START.match(line)
        if opened is None or opened.group(3) in keep:
            n += 1
            continue
        end = n  # a tag may write its attributes over several lines, up to its ">"
        while end < len(lines) and not lines[end][0] and not _closes(lines[end][1]):
            end += 1
            if end - n >= 20:
                break
        if end < len(lines) and end - n < 20 and not lines[end][0] and _only_tag(lines[end][1]):
            tag = " ".join(piece.strip() for _code, piece in lines[n : end + 1])
            found[n] = (end, opened.group(1), opened.group(2) == "/", tag)
            n = end + 1
        else:
            n += 1
    return found


def _shifts(lines: list[tuple[bool, str]], tags: dict[int, tuple]) -> list[int]:
    """How far each line moves left: the lines inside an outermost container move by
    their least indentation beyond its tag's (a ``<Card>`` inside a ``<CardGroup>``
    writes its words four spaces in: an indented code block, in Markdown)."""
    shifts = [0] * len(lines)
    depth, opened_at = 0, 0
    for n in sorted(tags):
        end, indent, closing, tag = tags[n]
        if tag.rstrip().endswith("/>"):
            continue
        if not closing:
            if depth == 0:
                opened_at = n
            depth += 1
            continue
        depth = max(0, depth - 1)
        if depth:
            continue
        inside = range(tags[opened_at][0] + 1, n)
        base = len(tags[opened_at][1].expandtabs(4))
        least = min((_indent(lines[i][1]) for i in inside if lines[i][1].strip()), default=base)
        for i in range(opened_at, end + 1):
            shifts[i] = max(0, least - base)
    return shifts


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


def _dedented(line: str, shift: int) -> str:
    if not shift:
        return line
    expanded = line.expandtabs(4)
    return expanded[min(shift, _indent(expanded)) :]


#: A component around one line's words: ``<ReadMore>See [x](/y/).</ReadMore>``.
_WRAPPED = re.compile(r"^([ \t]*)<([A-Z][\w.]*)(\s[^<>]*)?>(.*)</\2>[ \t]*$")


def _wrapped(line: str, keep: frozenset[str]) -> str:
    """``line`` as its words when a component wraps them and nothing else (a label
    before them in bold); any other line as it is."""
    found = _WRAPPED.match(line.rstrip("\n"))
    if found is None or found.group(2) in keep or not found.group(4).strip():
        return line
    shown = _shown(found.group(1), False, f"<{found.group(2)}{found.group(3) or ''}>")
    label = shown[1].strip() + " " if len(shown) > 1 and shown[1].strip() else ""
    return f"{found.group(1)}{label}{found.group(4).strip()}\n"


def _inline(found: re.Match[str], keep: frozenset[str]) -> str:
    return found.group(0) if found.group(1) in keep or _says_more(found.group(0)) else ""


#: Attributes that style or place a component: no words of the page.
_PRESENTATION = frozenset(
    {"class", "classname", "style", "width", "height", "id", "key", "icon", "color", "size"}
    | {"variant", "align", "href", *_SHOWN}  # a label's words and a link are shown already
)


def _says_more(tag: str) -> bool:
    """Whether a self-closing component's attributes hold words its tag alone can show
    (``pkgs="@trpc/server @trpc/client"``, ``v="6.0.0"``) and no link or label of it
    says: such a tag stays as written, never dropped with its words."""
    if not tag.rstrip().endswith("/>"):
        return False
    return any(
        m.group(1).lower() not in _PRESENTATION
        and next(g for g in m.groups()[1:] if g is not None).strip()
        for m in _ATTRIBUTE.finditer(tag)
    )


def _closes(line: str) -> bool:
    return line.rstrip().endswith(">")


def _only_tag(line: str) -> bool:
    """Whether ``line`` ends with the tag's ``>`` and holds nothing after it."""
    return line.count("<") <= line.count(">") and not re.search(r">[^<>]*\S[^<>]*<", line)


def _shown(indent: str, closing: bool, tag: str) -> list[str]:
    """What a reader sees of one tag (its text from ``<`` to ``>``)."""
    if closing:
        return [""]
    attributes = {
        m.group(1): next(g for g in m.groups()[1:] if g is not None)
        for m in _ATTRIBUTE.finditer(tag)
    }
    words = next((attributes[k].strip() for k in _SHOWN if attributes.get(k, "").strip()), "")
    address = attributes.get("href", "").strip()
    if address:  # a card: a link to where it leads
        return ["", f"{indent}[{words or address}]({address})", ""]
    if tag.rstrip().endswith("/>"):  # a badge: its words, else nothing
        return ["", f"{indent}{words}", ""] if words and "text" in attributes else [""]
    return ["", f"{indent}**{words}**", ""] if words else [""]
