"""An AsciiDoc page's lines as Asciidoctor's preprocessor hands them to its parser
(pure: files are read through a resolver, never the disk).

- ``include::target[...]`` is replaced by the lines of the file it names (an Antora
  resource ID ``partial$x.adoc``, ``example$y.yaml``, ``module:partial$z.adoc``, or a
  path relative to the including file; the resolver says which file of the source that
  is, never one outside it), with ``tag=``/``tags=`` (the lines between ``tag::name[]``
  and ``end::name[]``), ``lines=`` ranges and ``leveloffset=`` applied; ``opts=optional``
  makes a missing file no problem. An include that names no file of the source, a URL,
  a loop or nesting deeper than :data:`MAX_DEPTH` is a problem (file, line, what, how to
  fix) and the directive stays as written.
- ``ifdef::``/``ifndef::`` (``a,b`` any of them, ``a+b`` all), ``ifeval::[...]`` (a
  comparison of two values) and ``endif::`` keep or drop the lines between them, by the
  attributes known at that point (the component's, then the page's entries above).
- Attribute entries (``:name: value``, ``:name!:``) are tracked as they come, so a
  condition below one sees it; the parser reads them again (:mod:`.asciidoc`).

Each line keeps the file and line it came from, for the problems the parser finds.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

#: How deep includes nest before the next one is refused (Asciidoctor's default).
MAX_DEPTH = 64
#: Lines a page may grow to through its includes (an include of an include of ... ten
#: times over each is a bomb, not a page).
MAX_LINES = 200_000

ATTRIBUTE_ENTRY = re.compile(r"^:(!?)([\w][\w-]*)(!?):(?:[ \t]+(.*))?$")
_INCLUDE = re.compile(r"^(\\?)include::([^\[\s][^\[]*)\[(.*)\]\s*$")
_CONDITION = re.compile(r"^(\\?)(ifdef|ifndef|ifeval|endif)::([^\[]*)\[(.*)\]\s*$")
_REFERENCE = re.compile(r"(\\?)\{([\w][\w-]*)\}")
_VERBATIM = re.compile(r"^(?:-{4,}|\.{4,}|\+{4,}|/{4,})$")
_TAG = re.compile(r"\b(tag|end)::([\w.-]+)\[\]")
_COMPARE = re.compile(r"^\s*(.+?)\s*(==|!=|<=|>=|<|>)\s*(.+?)\s*$")


@dataclass(frozen=True)
class Line:
    text: str
    file: str  # source-relative path of the file it was read from
    number: int  # 1-based line in that file


@dataclass
class Problem:
    file: str
    line: int
    message: str


class Resolver(Protocol):
    """What a page's directives name, in the source (:mod:`.antora` for a component's
    pages, :class:`Plain` for any other)."""

    def include(self, target: str, at: str) -> str | None:
        """The source-relative file ``include::target[]`` in the file ``at`` names."""

    def read(self, rel: str) -> str | None:
        """The text of the source file ``rel``; ``None`` when it cannot be read."""


@dataclass
class Source:
    lines: list[Line] = field(default_factory=list)
    included: list[str] = field(default_factory=list)  # source-relative, in order, once
    problems: list[Problem] = field(default_factory=list)


def substitute(text: str, attributes: dict[str, str], missing: list[str] | None = None) -> str:
    """``text`` with each ``{name}`` an attribute defines replaced by its value; ``\\{x}``
    is ``{x}`` as written. The names no attribute defines stay, and go to ``missing``."""
    if "{" not in text:
        return text

    def value(match: re.Match[str]) -> str:
        name = match.group(2).lower()
        if match.group(1):
            return match.group(0)[1:]
        if name in attributes:
            return attributes[name]
        if missing is not None:
            missing.append(name)
        return match.group(0)

    return _REFERENCE.sub(value, text)


def entry(text: str) -> tuple[str, str | None] | None:
    """An attribute entry line as (name, value), the value ``None`` when it unsets the
    attribute; ``None`` when the line is no entry."""
    match = ATTRIBUTE_ENTRY.match(text)
    if match is None:
        return None
    unset = bool(match.group(1) or match.group(3))
    return match.group(2).lower(), None if unset else (match.group(4) or "").strip()


def apply_entry(
    attributes: dict[str, str], locked: frozenset[str], name: str, value: str | None
) -> None:
    """Set (or unset) the page's attribute ``name``; one the component sets for good
    (``locked``) stays as the component sets it, as Antora passes it."""
    if name in locked:
        return
    if value is None:
        attributes.pop(name, None)
    else:
        attributes[name] = substitute(value, attributes)


def _joined(lines: list[str], start: int) -> tuple[str, int]:
    """The line at ``start`` with the lines its trailing `` \\`` continues it over."""
    text, at = lines[start], start
    while text.endswith(" \\") and at + 1 < len(lines):
        at += 1
        text = text[:-2].rstrip() + " " + lines[at].strip()
    return text, at


class _Reader:
    def __init__(
        self, resolver: Resolver, attributes: dict[str, str], locked: frozenset[str]
    ) -> None:
        self.resolver = resolver
        self.attributes = attributes
        self.locked = locked
        self.out = Source()
        self.stack: list[str] = []
        self.conditions: list[tuple[str, bool]] = []  # (what opened it, lines kept)

    def problem(self, file: str, line: int, message: str) -> None:
        self.out.problems.append(Problem(file, line, message))

    def skipping(self) -> bool:
        return any(not kept for _what, kept in self.conditions)

    def read(self, text: str, rel: str, offset: int = 0) -> None:
        if len(self.stack) > MAX_DEPTH:
            return
        self.stack.append(rel)
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        verbatim: str | None = None  # the delimiter of the verbatim block the line is in
        i = 0
        while i < len(lines):
            raw = lines[i].rstrip()
            number = i + 1
            i += 1
            if len(self.out.lines) >= MAX_LINES:
                self.problem(
                    rel,
                    number,
                    f"the page grows past {MAX_LINES:,} lines through its includes: the "
                    "rest is left out; include fewer or smaller files",
                )
                break
            if verbatim is not None and verbatim.startswith("////"):  # a comment block:
                if raw == verbatim:  # its lines are no directives (Asciidoctor skips them)
                    verbatim = None
                self.out.lines.append(Line(raw, rel, number))
                continue
            condition = _CONDITION.match(raw) if "::" in raw else None
            if condition is not None and not condition.group(1):
                self._condition(condition, rel, number)
                continue
            if self.skipping():
                continue
            if condition is not None:  # escaped: shown as written, without the backslash
                raw = raw[1:]
            elif verbatim is None and raw.startswith(":"):
                found = entry(raw)
                if found is not None:
                    text_, end = _joined(lines, i - 1)
                    found = entry(text_) or found
                    apply_entry(self.attributes, self.locked, *found)
                    for k in range(i - 1, end + 1):
                        self.out.lines.append(Line(lines[k].rstrip(), rel, k + 1))
                    i = end + 1
                    continue
            include = _INCLUDE.match(raw) if raw.startswith(("include::", "\\include::")) else None
            if include is not None:
                if include.group(1):
                    raw = raw[1:]
                elif self._include(include, rel, number):
                    continue
            if _VERBATIM.match(raw):
                verbatim = None if verbatim == raw else (raw if verbatim is None else verbatim)
            self.out.lines.append(Line(raw, rel, number + offset))
        self.stack.pop()

    # -- conditionals ------------------------------------------------------------------

    def _condition(self, match: re.Match[str], rel: str, number: int) -> None:
        kind, names, content = match.group(2), match.group(3).strip(), match.group(4)
        if kind == "endif":
            if not self.conditions:
                self.problem(
                    rel,
                    number,
                    f"endif::{names}[] closes no ifdef, ifndef or ifeval: ignored; remove it",
                )
                return
            self.conditions.pop()
            return
        if self.skipping():  # inside lines left out: only counted, for its endif
            if not (kind != "ifeval" and content):
                self.conditions.append((kind, False))
            return
        if kind == "ifeval":
            kept = self._evaluate(content, rel, number)
        else:
            kept = self._defined(names)
            kept = kept if kind == "ifdef" else not kept
        if kind != "ifeval" and content:  # ifdef::name[the line's text]
            if kept:
                self.out.lines.append(Line(content, rel, number))
            return
        self.conditions.append((kind, kept))

    def _defined(self, names: str) -> bool:
        if "+" in names:
            return all(n.strip().lower() in self.attributes for n in names.split("+"))
        return any(n.strip().lower() in self.attributes for n in names.split(","))

    def _evaluate(self, expression: str, rel: str, number: int) -> bool:
        match = _COMPARE.match(substitute(expression, self.attributes))
        if match is None:
            self.problem(
                rel,
                number,
                f"ifeval::[{expression}] compares nothing kas-tui reads (two values and "
                "==, !=, <, <=, > or >=): its lines are left out",
            )
            return False
        left, op, right = _value(match.group(1)), match.group(2), _value(match.group(3))
        if type(left) is not type(right):
            return op == "!="
        return {
            "==": left == right,
            "!=": left != right,
            "<": left < right,  # type: ignore[operator]
            "<=": left <= right,  # type: ignore[operator]
            ">": left > right,  # type: ignore[operator]
            ">=": left >= right,  # type: ignore[operator]
        }[op]

    # -- includes ----------------------------------------------------------------------

    def _include(self, match: re.Match[str], rel: str, number: int) -> bool:
        """Read the file ``match`` names in its place; ``False`` when it stays as written."""
        written = match.group(2).strip()
        options = _options(match.group(3))
        optional = "optional" in options.get("opts", "") or "optional" in options.get("%", "")
        missing: list[str] = []
        target = substitute(written, self.attributes, missing)
        if missing:
            self.problem(
                rel,
                number,
                f"include::{written}[] names the attribute {{{missing[0]}}}, which nothing "
                "defines: left as written; define it in antora.yml or the page",
            )
            return False
        if re.match(r"^[a-z][\w+.-]*://", target, re.I):
            self.problem(
                rel,
                number,
                f"include::{target}[] names an address: not fetched, left as written; "
                "copy the file into the source and include it from there",
            )
            return False
        found = self.resolver.include(target, rel)
        text = self.resolver.read(found) if found is not None else None
        if found is None or text is None:
            if not optional:
                where = "no file of the source" if found is None else f"{found}, unreadable"
                self.problem(
                    rel,
                    number,
                    f"include::{target}[] names {where}: left as written; fix the path or "
                    "add the file",
                )
            return optional
        if found in self.stack:
            chain = " -> ".join([*self.stack[self.stack.index(found) :], found])
            self.problem(rel, number, f"include::{target}[] is a loop ({chain}): left as written")
            return False
        if len(self.stack) >= MAX_DEPTH:
            self.problem(
                rel,
                number,
                f"include::{target}[] nests includes deeper than {MAX_DEPTH}: left as "
                "written; include the files from fewer levels",
            )
            return False
        if found not in self.out.included:
            self.out.included.append(found)
        text = _selected(text, options)
        offset = options.get("leveloffset", "").strip()
        if offset:
            before = self.attributes.get("leveloffset")
            self.out.lines.append(Line(f":leveloffset: {offset}", rel, number))
        self.read(text, found)
        if offset:
            restore = f":leveloffset: {before}" if before is not None else ":leveloffset!:"
            self.out.lines.append(Line(restore, rel, number))
        return True


def _value(text: str) -> object:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    try:
        return float(text)
    except ValueError:
        return text


def _options(text: str) -> dict[str, str]:
    """An include's attribute list: ``tag=x,lines="1..3;5"`` -> {tag: x, lines: 1..3;5}."""
    found: dict[str, str] = {}
    for match in re.finditer(r'([\w%-]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|([^,]*))', text):
        value = match.group(2) if match.group(2) is not None else match.group(3)
        found[match.group(1).lower()] = value if value is not None else match.group(4).strip()
    return found


def _selected(text: str, options: dict[str, str]) -> str:
    """The lines of an included file its ``lines=`` or ``tag(s)=`` keep."""
    lines = text.replace("\r\n", "\n").split("\n")
    if "lines" in options:
        keep: list[str] = []
        for part in re.split(r"[;,]", options["lines"]):
            first, _sep, last = part.strip().partition("..")
            try:
                start = int(first)
                end = int(last) if last else start
            except ValueError:
                continue
            end = len(lines) if end < 0 else end
            keep += lines[max(start, 1) - 1 : end]
        return "\n".join(keep)
    names = options.get("tags", options.get("tag", ""))
    if not names:
        return text
    wanted = [n.strip() for n in re.split(r"[;,]", names) if n.strip()]
    every = any(n.lstrip("!") in ("*", "**") and not n.startswith("!") for n in wanted)
    shown = {n for n in wanted if not n.startswith("!") and n not in ("*", "**")}
    hidden = {n[1:] for n in wanted if n.startswith("!")}
    default = every or not shown  # lines outside every tag
    keep = []
    open_tags: list[str] = []
    for line in lines:
        marker = _TAG.search(line)
        if marker is not None:
            kind, name = marker.groups()
            if kind == "tag":
                open_tags.append(name)
            elif name in open_tags:
                open_tags.remove(name)
            continue
        if any(t in hidden for t in open_tags):
            continue
        if (open_tags and (every or any(t in shown for t in open_tags))) or (
            not open_tags and default
        ):
            keep.append(line)
    return "\n".join(keep)


def read_source(
    text: str,
    rel: str,
    resolver: Resolver,
    attributes: dict[str, str],
    locked: frozenset[str] = frozenset(),
) -> Source:
    """The lines of the page ``rel`` (its text ``text``) as the parser reads them;
    ``attributes`` are those set before the page's own (the component's), updated with
    the page's entries as they come."""
    reader = _Reader(resolver, attributes, locked)
    reader.read(text, rel)
    for what, _kept in reader.conditions:
        reader.problem(rel, 1, f"an {what}:: directive is never closed by endif::[]; add one")
        break
    return reader.out


class Plain:
    """Includes of a page of no Antora component: paths relative to the including file,
    within the source (``files``, source-relative), read with ``read``."""

    def __init__(self, files: set[str] | frozenset[str], read: Callable[[str], str | None]):
        self.files = files
        self._read = read

    def include(self, target: str, at: str) -> str | None:
        if target.startswith("/"):
            return None
        path = posixpath.normpath(posixpath.join(posixpath.dirname(at), target))
        return path if path in self.files and not path.startswith("../") else None

    def read(self, rel: str) -> str | None:
        return self._read(rel)
