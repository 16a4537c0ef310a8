"""``index.md``: sections of entries ``* [Title](target) - One-sentence description.``

The file is kept as its lines. Entry lines are held as parts (bullet, title, target,
separator, description) and rendered back from them, so an unedited index renders to
the exact bytes it was read from and an edit rewrites one line. Every other line
(prose, blank lines, code blocks, HTML) belongs to the curator and is kept verbatim.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache

from markdown_it import MarkdownIt

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.text import control_chars, newline_of, split_lines

_ITEM = re.compile(r"(?P<indent>[ \t]*)(?P<bullet>[*+-])(?P<gap>[ \t]+)\[")
_HEADING = re.compile(r"[ \t]{0,3}(?P<hashes>#{1,6})(?:[ \t]+(?P<title>.*?))?[ \t#]*$")
_SEP = re.compile(r"[ \t]+(?:--|-|—|–)[ \t]+|[ \t]*[—–][ \t]*|:[ \t]+")
_ESCAPABLE = re.compile(r"\\([!-/:-@\[-`{-~])")
#: The first character that matters when scanning a link's text, and its destination.
_BRACKET_MARK = re.compile(r"[\\\[\]]")
_PAREN_MARK = re.compile(r"[\\()\"']")
_MAYBE_BLOCK = re.compile(r"^(?: {0,3}(?:```|~~~|<)| {4}|\t)", re.M)
_NEEDS_ANGLE = re.compile(r"[\s()<>]")


@dataclass(frozen=True, slots=True)
class Entry:
    """One index entry. ``line`` is 1-based; ``title`` is unescaped display text."""

    line: int
    section: str | None
    indent: str
    bullet: str
    gap: str
    title_raw: str
    dest_raw: str  # everything between ( and ), destination and optional link title
    sep: str
    description: str
    trailing: str  # trailing spaces and the line break

    @property
    def title(self) -> str:
        return _ESCAPABLE.sub(r"\1", self.title_raw)

    @property
    def target(self) -> str:
        """The link destination as written, without <> and link title."""
        dest = self.dest_raw.strip()
        if dest.startswith("<"):
            end = dest.find(">")
            return dest[1:end] if end != -1 else dest[1:]
        if not dest:
            return ""
        first = dest.split()[0]
        return _ESCAPABLE.sub(r"\1", first) if "\\" in first else first

    def render(self) -> str:
        return (
            f"{self.indent}{self.bullet}{self.gap}[{self.title_raw}]({self.dest_raw})"
            f"{self.sep}{self.description}{self.trailing}"
        )


@dataclass(frozen=True)
class Section:
    """A heading that groups the entries below it."""

    title: str
    level: int
    line: int


@dataclass
class Index:
    """A parsed ``index.md``. ``render()`` gives back the text it was parsed from."""

    #: Each line of the file, but an entry's: ``None`` there, its :class:`Entry` holds
    #: it in parts (a loaded package keeps every index; the line twice was a tenth of
    #: what it held).
    others: list[str | None]
    entries: list[Entry] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    frontmatter: dict | None = None
    body_line: int = 1  # 1-based line where the body starts (after any frontmatter)
    problems: list[FormatError] = field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        """Each line of the file as read, its line break included."""
        return list(self._lines(len(self.others)))

    def _lines(self, count: int) -> Iterator[str]:
        """The first ``count`` lines, each entry's rendered from its parts."""
        entries = iter(self.entries)  # in line order, one for each None
        for text in self.others[:count]:
            yield next(entries).render() if text is None else text

    def render(self) -> str:
        return "".join(self.lines)

    @property
    def newline(self) -> str:
        return newline_of("".join(self._lines(2)))


def parse_index(text: str) -> Index:
    """Parse ``index.md`` text. Frontmatter problems are recorded, never raised."""
    lines = split_lines(text)
    index = Index(lines)
    body_start = 0
    try:
        parsed = fm.parse(text)
    except FormatError as exc:
        index.problems.append(exc)
        parsed = None
    if parsed is not None:
        index.frontmatter = parsed.data
        body_start = text.count("\n", 0, parsed.block.end)
        if parsed.block.end == len(text) and not text.endswith("\n"):
            body_start = len(lines)
    index.body_line = body_start + 1
    skip = _non_entry_lines("".join(lines[body_start:]), body_start)
    section: str | None = None
    for n in range(body_start, len(lines)):
        raw = lines[n]
        if n in skip:
            continue
        content = raw.rstrip("\r\n")
        heading = _HEADING.match(content)
        if heading:
            section = (heading.group("title") or "").strip()
            index.sections.append(Section(section, len(heading.group("hashes")), n + 1))
            continue
        entry = _parse_entry(content, raw[len(content) :], n + 1, section)
        if entry is not None:
            index.entries.append(entry)
            index.others[n] = None
    return index


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    return MarkdownIt("commonmark").disable("inline")


def _non_entry_lines(body: str, offset: int) -> set[int]:
    """0-based file lines inside code blocks and HTML blocks: never entries or headings."""
    skip: set[int] = set()
    if not _MAYBE_BLOCK.search(body):
        return skip  # no line can open a code or HTML block: skip the Markdown parser
    for token in _md().parse(body):
        if token.type in ("fence", "code_block", "html_block") and token.map:
            skip.update(range(offset + token.map[0], offset + token.map[1]))
    return skip


def _parse_entry(content: str, eol: str, line: int, section: str | None) -> Entry | None:
    match = _ITEM.match(content)
    if not match:
        return None
    i = match.end()
    title_end = _scan_brackets(content, i)
    if title_end is None or content[title_end + 1 : title_end + 2] != "(":
        return None
    dest_end = _scan_parens(content, title_end + 2)
    if dest_end is None:
        return None
    tail = content[dest_end + 1 :]
    stripped = tail.rstrip(" \t")
    trailing = tail[len(stripped) :] + eol
    sep_match = _SEP.match(stripped)
    if not stripped:
        sep, description = "", ""
    elif sep_match:
        sep, description = sep_match.group(0), stripped[sep_match.end() :]
    else:
        body = stripped.lstrip(" \t")
        sep, description = stripped[: len(stripped) - len(body)], body
    intern = sys.intern  # the spacing and bullets repeat on every line: kept once
    return Entry(
        line=line,
        section=section,
        indent=intern(match.group("indent")),
        bullet=intern(match.group("bullet")),
        gap=intern(match.group("gap")),
        title_raw=content[i:title_end],
        dest_raw=content[title_end + 2 : dest_end],
        sep=intern(sep),
        description=description,
        trailing=intern(trailing),
    )


def _scan_brackets(text: str, i: int) -> int | None:
    """Index of the ``]`` closing link text that starts at ``i`` (nesting and escapes)."""
    first = _BRACKET_MARK.search(text, i)
    if first is not None and text[first.start()] == "]":
        return first.start()  # no nesting or escape before it: the usual title
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return None


def _scan_parens(text: str, i: int) -> int | None:
    """Index of the ``)`` closing a link destination that starts at ``i``."""
    first = _PAREN_MARK.search(text, i)
    if first is not None and text[first.start()] == ")" and not text.startswith("<", i):
        return first.start()  # a plain destination: no nesting, escape or title before it
    depth = 0
    quote: str | None = None
    angle = i < len(text) and text[i] == "<"
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if angle:
            if c == ">":
                angle = False
        elif quote:
            if c == quote:
                quote = None
        elif c in "\"'" and text[i - 1] in " \t":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return None


# --- writing ---------------------------------------------------------------------------


def escape_title(title: str) -> str:
    """Link text for ``title``: backslashes and brackets escaped, one line."""
    check_entry_text(title, "title")
    return re.sub(r"([\\\[\]])", r"\\\1", title.strip())


def format_target(target: str) -> str:
    """A link destination, in ``<...>`` when it holds spaces or parentheses."""
    if "\n" in target or "<" in target or ">" in target:
        raise EditError(f"link target {target!r} cannot be written in a Markdown link")
    return f"<{target}>" if _NEEDS_ANGLE.search(target) else target


def check_entry_text(value: str, what: str) -> None:
    if "\n" in value or "\r" in value:
        raise EditError(f"the {what} must be one line; remove the line breaks")
    bad = control_chars(value)
    if bad:
        raise EditError(f"the {what} contains control characters ({bad[0]!r}); remove them")


def set_entry(
    text: str, line: int, *, title: str | None = None, description: str | None = None
) -> str:
    """Change the title and/or description of the entry on ``line`` (1-based)."""
    index = parse_index(text)
    entry = _entry_at(index, line)
    changed = entry
    if title is not None and title != entry.title:
        changed = replace(changed, title_raw=escape_title(title))
    if description is not None and description.strip() != entry.description:
        check_entry_text(description, "description")
        desc = description.strip()
        sep = changed.sep if changed.sep.strip() else (_house_sep(index) if desc else "")
        changed = replace(changed, sep=sep if desc else "", description=desc)
    if changed == entry:
        return text
    index.entries[index.entries.index(entry)] = changed
    return _verified(index.render(), line, changed)


def add_entry(
    text: str | None,
    title: str,
    target: str,
    description: str,
    *,
    section: str | None = None,
    heading: str | None = None,
) -> str:
    """Add an entry to ``section`` (created at the end when missing), after its last entry.

    ``text=None`` creates the file, headed ``# {heading or section}``. The new line
    follows the style of the file's existing entries (bullet, separator, indent).
    """
    text = text or ""
    check_entry_text(description, "description")
    index = parse_index(text)
    nl = newline_of(text) if text else "\n"
    want = (
        section if section is not None else (index.entries[-1].section if index.entries else None)
    )
    in_section = [e for e in index.entries if e.section == want]
    proto = (in_section or index.entries or [None])[-1]
    entry_text = (
        f"{proto.indent if proto else ''}{proto.bullet if proto else '*'}{proto.gap if proto else ' '}"
        f"[{escape_title(title)}]({format_target(target)})"
        f"{(_house_sep(index) + description.strip()) if description.strip() else ''}{nl}"
    )
    lines = list(index.lines)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += nl
    if in_section:
        at = in_section[-1].line  # insert after this 1-based line == 0-based index line
    else:
        sec = next((s for s in index.sections if s.title == want), None)
        if sec is not None:
            at = sec.line
            following = lines[at] if at < len(lines) else ""
            if not following.strip():
                at += 1
            lines.insert(at, entry_text)
            return _verified("".join(lines), at + 1, None)
        block = []
        if lines and lines[-1].strip():
            block.append(nl)
        title_line = want or heading
        level = _new_section_level(index) if want else 1
        if title_line:
            block += [f"{'#' * level} {title_line}{nl}", nl]
        elif not lines and heading:
            block += [f"# {heading}{nl}", nl]
        at = len(lines) + len(block)
        lines += block
    lines.insert(at, entry_text)
    return _verified("".join(lines), at + 1, None)


def _new_section_level(index: Index) -> int:
    """The heading level of a section added to ``index``: its sections' level (the one
    heading of a file that has only a title is the title: a section goes below it)."""
    if not index.sections:
        return 1
    if len(index.sections) == 1:
        return min(index.sections[0].level + 1, 6)
    return index.sections[-1].level


def remove_entry(text: str, line: int) -> str:
    """Remove the entry on ``line``; the document it names is left alone."""
    index = parse_index(text)
    _entry_at(index, line)
    lines = list(index.lines)
    del lines[line - 1]
    return "".join(lines)


def move_entry(text: str, line: int, offset: int) -> str:
    """Swap the entry on ``line`` with its neighbour ``offset`` (+1/-1) in the same section."""
    index = parse_index(text)
    entry = _entry_at(index, line)
    peers = [e for e in index.entries if e.section == entry.section]
    pos = peers.index(entry) + offset
    if not 0 <= pos < len(peers):
        return text
    other = peers[pos]
    lines = list(index.lines)
    a, b = entry.line - 1, other.line - 1
    ea, eb = lines[a][len(lines[a].rstrip("\r\n")) :], lines[b][len(lines[b].rstrip("\r\n")) :]
    lines[a], lines[b] = lines[b].rstrip("\r\n") + ea, lines[a].rstrip("\r\n") + eb
    return "".join(lines)


def _entry_at(index: Index, line: int) -> Entry:
    for entry in index.entries:
        if entry.line == line:
            return entry
    raise EditError(f"there is no index entry on line {line}; the file may have changed")


def _house_sep(index: Index) -> str:
    """The separator most entries of this file use (`` - `` for a new file)."""
    seps = [e.sep for e in index.entries if e.sep.strip()]
    return max(set(seps), key=seps.count) if seps else " - "


def _verified(new_text: str, line: int, expected: Entry | None) -> str:
    """Check that the written line parses back as one entry (and the intended one)."""
    index = parse_index(new_text)
    got = next((e for e in index.entries if e.line == line), None)
    if got is None or (expected is not None and got.render() != expected.render()):
        raise EditError("refused: the entry would not read back as an index entry")
    return new_text
