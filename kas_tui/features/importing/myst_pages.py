"""A MyST site's pages read for what their cross-references name (pure: text in, facts
out): the targets each page defines, its title, its headings' anchors, its glossary's
terms. :mod:`.myst_refs` resolves the references with them.

- **Labels.** A ``(label)=`` line targets what follows it: the heading below it (its
  anchor as the package writes it, :mod:`kas_tui.text.anchors`), else the page. A
  directive's ``:name:`` option (``:label:`` on ``math``) targets its figure, table,
  code or equation, on the page. A reStructuredText page's ``.. _label:`` targets the
  heading below it.
- **Terms.** The terms a ``{glossary}`` directive defines, case ignored.
- **Code.** Nothing in a code fence defines anything; a MyST directive written as a
  backtick fence (```` ```{figure} ````) is one for CommonMark, so its labels target
  the page, never a heading in it. Fences close as CommonMark closes them (as long a
  run of the same character).

A notebook's (``.ipynb``) text is its Markdown cells (:func:`notebook_markdown`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from kas_tui.features.importing.convert_model import ONLY_RST, STD_READING, RstPages, RstReading
from kas_tui.features.importing.toc_sphinx import TITLED
from kas_tui.text.anchors import Anchors
from kas_tui.text.prose import heading_text

#: A MyST target line: ``(label)=`` before what it names.
LABEL = re.compile(r"^ {0,3}\(([^()\s][^()]*?)\)=\s*$")
#: A reStructuredText target, ``.. _label:``.
_RST_LABEL = re.compile(r"^\.\.\s+_([^:`\s][^:`]*):\s*$")
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'#*+_.`:])\1{2,}\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_COLONS = re.compile(r"^ {0,3}(:{3,})\s*(?:\{([^{}\s]+)\}(.*))?$")
_DIRECTIVE = re.compile(r"^\s*\{([^{}\s]+)\}(.*)$")
_OPTION = re.compile(r"^\s*:([\w-]+):\s*(.*)$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
#: A role written before a code span, ``{ref}`` of ``{ref}`label```.
ROLE_CALL = re.compile(r"\{([A-Za-z][\w.:+-]*)\}(`+)(.+?)\2(?!`)")
_FRONT_TITLE = re.compile(r"^title:\s*['\"]?(.+?)['\"]?\s*$", re.MULTILINE)
#: Directives whose content is code (or another language), never MyST.
CODE_DIRECTIVES = frozenset(
    {"code", "code-block", "code-cell", "sourcecode", "literalinclude", "math", "raw"}
    | {"mermaid", "graphviz", "eval-rst", "jupyter-execute", "ipython", "csv-table"}
)
#: What a directive's ``:name:`` targets, by the directive: the word Sphinx numbers it by.
_NAMED = {
    "figure": "Figure",
    "figure-md": "Figure",
    "table": "Table",
    "list-table": "Table",
    "csv-table": "Table",
    "code-block": "Listing",
    "code": "Listing",
    "code-cell": "Listing",
    "literalinclude": "Listing",
    "math": "Equation",
    "prf:proof": "Proof",
}


@dataclass(frozen=True)
class Target:
    """What a reference leads to: a page (source-relative), the anchor of a heading on
    it (``""`` the page itself), and the words an empty reference shows."""

    page: str
    anchor: str = ""
    title: str = ""


@dataclass
class PageFacts:
    """What one page defines."""

    title: str | None = None
    labels: dict[str, Target] = field(default_factory=dict)
    anchors: dict[str, str] = field(default_factory=dict)  # anchor -> its heading's text
    terms: dict[str, Target] = field(default_factory=dict)  # casefolded term -> target


@dataclass
class MystIndex:
    """What a site's pages define, for :mod:`.myst_refs` (first definition wins, as
    Sphinx keeps it)."""

    labels: dict[str, Target] = field(default_factory=dict)  # lower-cased, as Sphinx's
    titles: dict[str, str] = field(default_factory=dict)  # page -> its title
    anchors: dict[str, dict[str, str]] = field(default_factory=dict)
    terms: dict[str, Target] = field(default_factory=dict)

    def label(self, name: str) -> Target | None:
        """What the label ``name`` targets (case ignored, as Sphinx and MyST ignore it)."""
        return self.labels.get(name.strip().lower())

    def add(self, page: str, facts: PageFacts) -> None:
        self.titles[page] = facts.title or ""
        self.anchors[page] = facts.anchors
        for label, target in facts.labels.items():
            self.labels.setdefault(label.lower(), target)
        for term, target in facts.terms.items():
            self.terms.setdefault(term, target)


def myst_index(
    pages: Iterable[str],
    read: Callable[[str], str | None],
    rst: RstPages = ONLY_RST,
    roles: RstReading = STD_READING,
) -> MystIndex:
    """The targets, titles, anchors and terms of ``pages`` (source-relative paths of
    Markdown, notebook and reStructuredText pages, those ``rst`` holds, whose object
    directives ``roles`` names), each read once."""
    index = MystIndex()
    for page in pages:
        index.add(page, page_facts(page, read(page) or "", rst, roles))
    return index


def page_facts(
    page: str, text: str, rst: RstPages = ONLY_RST, roles: RstReading = STD_READING
) -> PageFacts:
    """What the page ``page`` (its source ``text``) defines; ``rst``: which pages are
    reStructuredText, ``roles`` what object directives they may hold."""
    low = page.lower()
    if low.endswith(".ipynb"):
        return _markdown_facts(page, notebook_markdown(text))
    if rst.holds(page):
        return _rst_facts(page, text, roles)
    return _markdown_facts(page, text)


def notebook_markdown(text: str) -> str:
    """A notebook's Markdown cells, one after the other ("" for no notebook)."""
    try:
        data = json.loads(text)
    except ValueError:
        return ""
    cells = data.get("cells") if isinstance(data, dict) else None
    out = []
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source")
        out.append("".join(source) if isinstance(source, list) else str(source or ""))
    return "\n\n".join(s.strip("\n") for s in out) + "\n"


def plain_heading(raw: str) -> str:
    """A heading's words as the package shows them: a role shows its text."""
    return heading_text(ROLE_CALL.sub(lambda m: _role_words(m.group(3)), raw))


def _role_words(content: str) -> str:
    titled = TITLED.match(content)
    words = titled.group(1) if titled and titled.group(1).strip() else content
    return words.strip().lstrip("~!")


@dataclass
class Line:
    """One line of a page: its number (1-based), text, and where it stands: in code
    (a fence, or a MyST directive fenced in backticks: CommonMark's code), in which
    directives (innermost last)."""

    number: int
    text: str
    code: bool
    directives: tuple[str, ...]
    opens: str | None = None  # the directive this line opens
    #: in a backtick (or tilde) fence: the directive it is, "" for code; else None
    fence: str | None = None
    argument: str = ""  # the argument of the directive it opens


def lines_of(text: str) -> Iterator[Line]:
    """Each line of ``text``: whether it is code, in which directives it stands. A
    directive fenced in backticks may hold others in shorter fences (MyST reads its
    text as MyST); a code fence holds only code."""
    fences: list[tuple[str, int, str]] = []  # open backtick fences: char, length, directive
    colons: list[tuple[int, str]] = []  # open colon fences: length, directive
    for number, line in enumerate(text.split("\n"), start=1):
        around = tuple(d for _n, d in colons) + tuple(d for _c, _n, d in fences if d)
        if fences:
            char, length, directive = fences[-1]
            if re.match(rf"^ {{0,3}}{re.escape(char)}{{{length},}}\s*$", line):
                fences.pop()
                yield Line(number, line, True, around, fence=directive)
                continue
        opening = _FENCE.match(line)
        if opening and fences:  # in a fence, only a directive's text holds a shorter one
            _char, length, directive = fences[-1]
            if directive in ("", *CODE_DIRECTIVES) or len(opening.group(1)) >= length:
                opening = None
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            named = _DIRECTIVE.match(opening.group(2))
            directive = named.group(1).lower() if named else ""
            fences.append((opening.group(1)[0], len(opening.group(1)), directive))
            argument = named.group(2).strip() if named else ""
            yield Line(number, line, True, around, directive or None, directive, argument)
            continue
        if fences:
            yield Line(number, line, True, around, fence=fences[-1][2])
            continue
        colon = _COLONS.match(line)
        if colon and colon.group(2):
            colons.append((len(colon.group(1)), colon.group(2).lower()))
            argument = (colon.group(3) or "").strip()
            yield Line(number, line, False, around, colon.group(2).lower(), argument=argument)
            continue
        if colon and colons and len(colon.group(1)) >= colons[-1][0]:
            colons.pop()
        yield Line(number, line, False, around)


def _markdown_facts(page: str, text: str) -> PageFacts:
    facts = PageFacts()
    body = _without_front_matter(text)
    if len(body) != len(text):
        found = _FRONT_TITLE.search(text[: len(text) - len(body)])
        facts.title = found.group(1).strip() if found else None
    anchors = Anchors()
    pending: list[tuple[str, bool]] = []  # labels waiting for what they name; in code?
    first_heading = True
    opened: str | None = None  # the directive whose options are read
    in_yaml = first_option = False  # in its options written as YAML between --- lines
    glossary_prev_blank = True
    for line in lines_of(body):
        raw = line.text
        label = LABEL.match(raw)
        if label and line.fence != "":  # a label in code is the code's
            pending.append((label.group(1).strip(), line.code))
            continue
        if line.opens is not None:
            opened, in_yaml, first_option = line.opens, False, True
            glossary_prev_blank = True
            if opened == "figure-md":  # its argument is its name
                _named(facts, page, opened, "name", line.argument.split(" ", 1)[0])
            _name_pending(facts, page, pending)
            pending = []
            continue
        if opened is not None and (in_yaml or (first_option and raw.strip() == "---")):
            in_yaml = raw.strip() != "---" or not in_yaml
            first_option = False
            key, _colon, value = raw.partition(":")
            if in_yaml and _colon:
                _named(facts, page, opened, key.strip().lower(), value.strip().strip("'\""))
            continue
        option = _OPTION.match(raw) if opened is not None else None
        if option and opened is not None:
            first_option = False
            _named(facts, page, opened, option.group(1).lower(), option.group(2).strip())
            continue
        opened = None
        if "glossary" in line.directives:
            term = _glossary_term(raw, glossary_prev_blank)
            if term:
                facts.terms.setdefault(term.casefold(), Target(page, "", term))
            glossary_prev_blank = not raw.strip() or bool(term)
        if not raw.strip():
            continue
        heading = None if line.code else _HEADING.match(raw)
        if heading and heading.group(2):
            title = plain_heading(heading.group(2))
            made = anchors.next(title)
            facts.anchors.setdefault(made, title)
            top = first_heading and len(heading.group(1)) == 1
            if facts.title is None and len(heading.group(1)) == 1:
                facts.title = title
            first_heading = False
            for name, in_code in pending:
                target = Target(page, "" if top or in_code else made, title)
                facts.labels.setdefault(name, target)
            pending = []
            continue
        _name_pending(facts, page, pending)
        pending = []
    _name_pending(facts, page, pending)
    if facts.title is None:
        facts.title = next(iter(facts.anchors.values()), None)
    return facts


def _named(facts: PageFacts, page: str, directive: str, key: str, value: str) -> None:
    """A directive's option: its ``name`` (Sphinx's) or ``label`` (MyST-MD's) is a
    target."""
    if value and key in ("name", "label"):
        facts.labels.setdefault(value, Target(page, "", _NAMED.get(directive) or value))


#: A directive with an argument, ``.. setting:: DEBUG`` (its name, its argument).
_RST_OBJECT = re.compile(r"^\.\.\s+(?:std:)?([\w-]+)::[ \t]+(\S[^\n]*?)\s*$")


def object_labels(role: str, name: str) -> list[str]:
    """The labels under which an object a directive defines is found by ``role``: its
    name, and the first word of a signature (``.. django-admin:: migrate [app_label]``
    is named ``migrate``)."""
    name = name.strip()
    first = name.split()[0] if name.split() else name
    return list(dict.fromkeys([f"{role}:{name}", f"{role}:{first}"]))


def _heading_follows(lines: list[str], start: int) -> bool:
    """Whether the first line from ``start`` with text is an underlined title."""
    for n in range(start, min(start + 4, len(lines))):
        if lines[n].strip():
            after = lines[n + 1] if n + 1 < len(lines) else ""
            return bool(_RST_UNDERLINE.match(after)) and len(after.strip()) >= len(lines[n].strip())
    return False


def _name_pending(facts: PageFacts, page: str, pending: list[tuple[str, bool]]) -> None:
    """Labels before no heading target their page, shown as their names."""
    for name, _code in pending:
        facts.labels.setdefault(name, Target(page, "", name))


def _glossary_term(line: str, after_blank: bool) -> str | None:
    """The term a line of a glossary defines: a line of its own after a blank one (or
    another term), its definition on the lines below (``: ...`` or indented)."""
    stripped = line.strip()
    if not stripped or not after_blank or line[:1].isspace() or stripped.startswith(":"):
        return None
    if stripped.startswith(("```", ":::", "(")):
        return None
    return heading_text(stripped) or None


def _without_front_matter(text: str) -> str:
    if not text.startswith("---"):
        return text
    end = re.search(r"^(?:---|\.\.\.)\s*$", text[3:], re.MULTILINE)
    return text[3 + end.end() :].lstrip("\n") if end and text[3:4] == "\n" else text


#: A reStructuredText glossary (``.. glossary::``): its terms are the lines of its text
#: at the least indent, their definitions indented below them.
_RST_GLOSSARY = re.compile(r"^\.\.[ \t]+glossary::[ \t]*$")


def _rst_facts(page: str, text: str, roles: RstReading = STD_READING) -> PageFacts:
    """A reStructuredText page's ``.. _label:`` targets, its headings' anchors (as
    its converted page writes them: a heading per underlined title), its glossary's
    terms (Sphinx' own ``doc/glossary.rst``: 50 ``:term:`` references over its pages)
    and the objects its directives define (``.. setting:: DEBUG``: a target the role
    ``:setting:`DEBUG``` names, kept as the label ``setting:DEBUG``; see
    :func:`object_label`)."""
    facts = PageFacts()
    lines = text.split("\n")
    anchors = Anchors()
    pending: list[str] = []
    section = ""  # the anchor of the heading above
    glossary: int | None = None  # the indent of the open glossary's terms, once known
    for n, line in enumerate(lines):
        defined = _RST_OBJECT.match(line)
        role = roles.target_role(defined.group(1).lower()) if defined else None
        if defined and role is not None:
            names = object_labels(role, defined.group(2))
            if _heading_follows(lines, n + 1):  # .. setting:: DEBUG, then its heading
                pending += names
                continue
            for name in names:  # else it is in the section above (.. django-admin::)
                facts.labels.setdefault(name, Target(page, section, defined.group(2).strip()))
            continue
        if _RST_GLOSSARY.match(line):
            glossary = -1
            continue
        if glossary is not None and line.strip():
            indent = len(line) - len(line.lstrip())
            if indent == 0:
                glossary = None  # the directive's text has ended
            elif glossary == -1 and not line.strip().startswith(":"):
                glossary = indent  # its first term (after its options) sets the terms' indent
            if glossary is not None and indent == glossary:
                term = heading_text(line.strip().split(" : ", 1)[0])  # a term, not its classifier
                if term:
                    facts.terms.setdefault(term.casefold(), Target(page, "", term))
                continue
        label = _RST_LABEL.match(line)
        if label:
            pending.append(label.group(1).strip())
            continue
        nxt = lines[n + 1] if n + 1 < len(lines) else ""
        title = line.strip()
        if title and _RST_UNDERLINE.match(nxt) and len(nxt.strip()) >= len(title):
            if _RST_UNDERLINE.match(line):
                continue  # an overline
            plain = heading_text(title)
            made = anchors.next(plain)
            facts.anchors.setdefault(made, plain)
            first = facts.title is None
            section = "" if first else made
            facts.title = facts.title or plain
            for name in pending:
                facts.labels.setdefault(name, Target(page, "" if first else made, plain))
            pending = []
        elif title and not _RST_UNDERLINE.match(line):
            _name_pending(facts, page, [(p, False) for p in pending])
            pending = []
    return facts
