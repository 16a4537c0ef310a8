"""MyST cross-references resolved as the site resolves them, into Markdown links the
build rewrites as it rewrites every other (:meth:`.build_layout.LayoutMixin._rewrite_links`).

A Sphinx + MyST site or a Jupyter Book links its pages by the targets they define
(:mod:`.myst_pages`):

- ``[text](#label)``, ``[text](label)``, ``[](label)``: a link to a label (an empty
  text shows the target's title); ``[](page.md)`` shows the page's title;
- ``{ref}`label```, ``{ref}`text <label>```, ``{numref}``, ``{any}``, ``{term}``
  (a glossary's term), ``{doc}`path``` and ``{doc}`text <path>``` (a page, relative to
  the page or ``/``-rooted at the project), ``{download}`` (a file);
- ``<project:path.md#anchor>`` and ``[text](project:path.md)``.

Each becomes ``[text](relative/page.md#anchor)``, the path relative to the page's
source, the anchor the heading's (none for a page's title). A reference whose target no
page defines is its text (Sphinx shows it so, and warns), and is counted for one note
(:class:`Unresolved`). Any other role shows its text as the site does (:func:`role_text`,
the same rule :mod:`.rst` follows): ``{kbd}`Ctrl``` as code, ``{abbr}`` as its words,
``{math}`` between ``$``. The ``(label)=`` lines go: they are no words of the page.

Nothing in code (a fence, a code span) changes: what markdown-it reads as a link or a
code span is what is rewritten (:mod:`kas_tui.core.okf.links`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection
from dataclasses import dataclass
from urllib.parse import unquote

from kas_tui.core.okf.links import (
    SCHEME,
    code_spans,
    destination_spans,
    format_destination,
    link_bounds,
)
from kas_tui.features.importing.convert_model import ONLY_RST, STD_READING, RstPages, RstReading
from kas_tui.features.importing.includes import IncludeProblem
from kas_tui.features.importing.myst_pages import (
    LABEL,
    ROLE_CALL,
    MystIndex,
    Target,
    lines_of,
    notebook_markdown,
)
from kas_tui.features.importing.toc_sphinx import TITLED

#: Roles that name a target: shown as a link to it, or as their text when none is.
XREF_ROLES = frozenset({"ref", "numref", "any", "doc", "term", "download"})
#: Roles whose text is words of the sentence (not code): Sphinx shows them plain.
WORD_ROLES = frozenset({"abbr", "sub", "sup", "index", "eq", "keyword", "dfn", "title-reference"})
#: The Markdown pages a reference may name without their extension, in the order looked
#: for, before the reStructuredText pages (:class:`.RstPages`).
_PAGES = (".md", ".ipynb")
_PROJECT = "project:"
_AUTOLINK = re.compile(r"<project:([^<>\s]*)>")
#: A link's destination as written, roughly (for :meth:`References.named`).
_WRITTEN_LINK = re.compile(
    r"\]\(\s*<?([^()\s<>]+)|<(project:[^<>\s]*)>|^ {0,3}\[[^\]]+\]:\s*<?([^\s<>]+)", re.MULTILINE
)
_ROLE_BEFORE = re.compile(r"(?<!\\)\{([A-Za-z][\w.:+-]*)\}$")
_NUMBER = re.compile(r"\s*(?:%s|\{number\})\s*")
#: Written like a file (an extension a page or asset has): a path, never a label.
_FILE_LIKE = re.compile(
    r"\.(?:md|markdown|ipynb|rst|txt|html?|pdf|png|jpe?g|gif|svg|webp|py|ya?ml|json|toml|csv|zip)$",
    re.IGNORECASE,
)


class Unresolved(IncludeProblem):
    """A cross-reference that names no target of the source: counted, not a note each."""


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    text: str


def shown(text: str) -> str:
    """A cross-reference's words: ``~flask.Flask`` shows ``Flask``, ``!x`` ``x``."""
    text = text.strip().lstrip("!")
    if text.startswith("~"):
        return text[1:].rsplit(".", 1)[-1]
    return text


def split_titled(content: str) -> tuple[str | None, str]:
    """A role's ``text <target>`` as (text, target); (None, content) without text."""
    titled = TITLED.match(content)
    if titled and titled.group(1).strip():
        return titled.group(1).strip(), titled.group(2).strip()
    return None, (titled.group(2) if titled else content).strip()


def role_text(name: str, content: str) -> str:
    """How a role that names no target of the source reads (Markdown): a word role's
    words, ``{math}`` as ``$math$``, any other (``{kbd}``, ``{class}``, ...) as code."""
    role = name.lower().rsplit(":", 1)[-1]
    text, target = split_titled(content)
    words = shown(text if text is not None else target)
    if role == "math":
        return f"${content.strip()}$"
    if role in XREF_ROLES or role in WORD_ROLES:
        return _escaped(words)
    ticks = "`" * (max((len(r) for r in re.findall(r"`+", words)), default=0) + 1)
    pad = " " if words.startswith("`") or words.endswith("`") else ""
    return f"{ticks}{pad}{words}{pad}{ticks}"


#: A fenced code block's opening or closing line.
_FENCE_LINE = re.compile(r"^\s*(```|~~~)")


def roles_as_text(text: str) -> str:
    """``text`` with the roles left in it outside fenced code shown as their words
    (:func:`role_text`): a reStructuredText page's cross-references the build wrote as
    MyST roles (:mod:`.rst`) where no link could be made of them (in a definition's
    indented paragraphs, which Markdown reads as code)."""
    if "}`" not in text:
        return text
    out, fenced = [], False
    for line in text.split("\n"):
        if _FENCE_LINE.match(line):
            fenced = not fenced
        elif not fenced and "}`" in line:
            line = ROLE_CALL.sub(lambda m: role_text(m.group(1), m.group(3)), line)
        out.append(line)
    return "\n".join(out)


def _escaped(words: str) -> str:
    return re.sub(r"([\[\]\\*_`<])", r"\\\1", words)


class References:
    """Resolves the references of one site's pages: ``index`` what they define,
    ``files`` the source's files, ``base`` the project's folder (where a ``/``-rooted
    ``{doc}`` starts), ``rst`` which of them are reStructuredText pages, ``roles`` the
    object types their project adds (``{setting}`DEBUG``` leads to ``.. setting:: DEBUG``)."""

    def __init__(
        self,
        index: MystIndex,
        files: Collection[str],
        base: str,
        rst: RstPages = ONLY_RST,
        roles: RstReading = STD_READING,
    ) -> None:
        self.index, self.files, self.base, self.rst = index, files, base, rst
        self.objects = roles.object_roles

    def resolve(self, text: str, page: str) -> tuple[str, list[IncludeProblem]]:
        """``text`` (the page ``page``, source-relative) with its references as links
        and its ``(label)=`` lines gone; the references naming nothing, as
        :class:`Unresolved` problems (line, what is written)."""
        if not _worth_reading(text):
            return text, []
        self.page, self.text = page, text
        self.unresolved: list[IncludeProblem] = []
        edits = [*self._roles(), *self._links(), *self._autolinks(), *self._label_lines()]
        out, at = [], 0
        for edit in sorted(edits, key=lambda e: e.start):
            if edit.start < at:
                continue  # inside an edit made already (a role in a removed line)
            out += [text[at : edit.start], edit.text]
            at = edit.end
        out.append(text[at:])
        return "".join(out), self.unresolved

    def named(self, text: str, page: str) -> str:
        """What the references of ``text`` (the source of ``page``) lead to and show,
        in words: folded into the page's hash, so that a page is built again when a
        target it names moves or is titled anew."""
        if page.lower().endswith(".ipynb"):
            text = notebook_markdown(text)
        if self.rst.holds(page):  # :ref:`x`, as the build reads it: {ref}`x`
            text = _RST_ROLE.sub(r"{\1}`", text)
        if not _worth_reading(text):
            return ""
        self.page = page
        names = {split_titled(m.group(3))[1] for m in ROLE_CALL.finditer(text)}
        names |= {unquote(next(g for g in m.groups() if g)) for m in _WRITTEN_LINK.finditer(text)}
        out = []
        for name in sorted(names):
            bare = name.removeprefix(_PROJECT)
            label = self.index.label(bare.lstrip("#")) or self.index.terms.get(bare.casefold())
            page_named = self._page(bare.partition("#")[0]) if bare[:1] != "#" else None
            out.append(f"{name}={label}|{page_named}")
        return "\n".join(out)

    # -- what is written -------------------------------------------------------------

    def _roles(self) -> list[_Edit]:
        edits = []
        for span in code_spans(self.text):
            ticks_end = span.start
            while ticks_end > 0 and self.text[ticks_end - 1] == " ":
                ticks_end -= 1
            opening = ticks_end
            while opening > 0 and self.text[opening - 1] == "`":
                opening -= 1
            role = _ROLE_BEFORE.search(self.text, max(0, opening - 60), opening)
            if role is None or not span.target.strip():
                continue
            ticks = ticks_end - opening
            end = span.end + (ticks_end - span.start) + ticks
            shown_as = self._role(role.group(1), span.target, span.line)
            edits.append(_Edit(role.start(), end, shown_as))
        return edits

    def _role(self, name: str, content: str, line: int) -> str:
        role = name.lower().removeprefix("std:")
        if split_titled(content)[1].startswith("!"):  # Sphinx's "no link": its words
            return role_text(name, content)
        if role in self.objects:
            return self._object(name, role, content, line)
        if role not in XREF_ROLES:
            return role_text(name, content)
        text, target = split_titled(content)
        if role == "doc":
            found = self._page(target)
        elif role == "download":
            file = self._file(target)
            if file is None:
                return self._unknown(line, name, content)
            return f"[{_escaped(text or posixpath.basename(target))}]({file})"
        elif role == "term":
            found = self.index.terms.get(target.casefold())
        else:
            found = self.index.label(target)
            if found is None and role == "any":
                found = self._page(target)
        if found is None:
            return self._unknown(line, name, content)
        # a term shows as written (Sphinx' "the Configuration Directory"), a label its title
        words = text if text is not None else target if role == "term" else found.title or target
        if role == "numref" and text is not None:
            words = _NUMBER.sub(" ", words.replace("{name}", found.title)).strip() or found.title
        return f"[{_escaped(words)}]({self._link(found)})"

    def _object(self, name: str, role: str, content: str, line: int) -> str:
        """An object role (``{setting}`DEBUG```): a link to what its directive defines,
        shown as code, as Sphinx shows it."""
        text, target = split_titled(content)
        found = self.index.label(f"{role}:{target.lstrip('~!')}")
        if found is None:
            return self._unknown(line, name, content)
        words = role_text(name, text if text is not None else target)
        return f"[{words}]({self._link(found)})"

    def _unknown(self, line: int, name: str, content: str) -> str:
        self.unresolved.append(Unresolved(line, f"{{{name}}}`{content}`", ""))
        return role_text(name, content)

    def _links(self) -> list[_Edit]:
        edits = []
        for span in destination_spans(self.text):
            bounds = link_bounds(self.text, span)
            if bounds is None:  # a reference definition: to a label, or as it is
                found = self.index.label(span.target) if _bare(span.target) else None
                if found is not None:
                    written = self.text[span.start : span.end]
                    edits.append(
                        _Edit(span.start, span.end, _destination(self._link(found), written))
                    )
                continue
            if self.text[bounds[0]] == "!":
                continue  # an image
            start, close, end = bounds
            empty = not self.text[start + 1 : close].strip()
            target = span.target
            if target.lower().startswith(_PROJECT):
                target = target[len(_PROJECT) :]
            elif SCHEME.match(target) or target.startswith("//"):
                continue
            found, path = self._destination(target)
            if path is not None:  # a file: the build rewrites it; an empty text is filled
                new = path if path != span.target else None
                title = self._title_of(path, target.partition("#")[2]) if empty else None
            elif found is not None:
                new, title = self._link(found), (found.title if empty else None)
            elif _bare(target):  # a label no page defines: its text, as Sphinx shows it
                self.unresolved.append(Unresolved(span.line, span.target, ""))
                shown_as = self.text[start + 1 : close] if not empty else target
                edits.append(_Edit(start, end, shown_as))
                continue
            else:
                continue
            if title:
                edits.append(_Edit(close, close, _escaped(title)))
            if new is not None:
                written = self.text[span.start : span.end]
                edits.append(_Edit(span.start, span.end, _destination(new, written)))
        return edits

    def _autolinks(self) -> list[_Edit]:
        """``<project:path#anchor>``: a link titled as what it names."""
        if "<project:" not in self.text:
            return []
        code = [(s.start, s.end) for s in code_spans(self.text)]
        fenced = {line.number for line in lines_of(self.text) if line.code}
        edits = []
        for found in _AUTOLINK.finditer(self.text):
            line = self.text.count("\n", 0, found.start()) + 1
            if line in fenced or any(a <= found.start() < b for a, b in code):
                continue
            target, path = self._destination(unquote(found.group(1)))
            if path is not None:
                fragment = found.group(1).partition("#")[2]
                title = self._title_of(path, fragment) or posixpath.basename(path)
                edits.append(_Edit(found.start(), found.end(), f"[{_escaped(title)}]({path})"))
            elif target is not None:
                link = f"[{_escaped(target.title)}]({self._link(target)})"
                edits.append(_Edit(found.start(), found.end(), link))
            else:
                self.unresolved.append(Unresolved(line, found.group(0), ""))
                edits.append(_Edit(found.start(), found.end(), _escaped(found.group(1))))
        return edits

    def _label_lines(self) -> list[_Edit]:
        """The ``(label)=`` lines outside code (and a blank line after one)."""
        edits, at = [], 0
        lines = list(lines_of(self.text))
        for n, line in enumerate(lines):
            start, at = at, at + len(line.text) + 1
            if line.code or not LABEL.match(line.text):
                continue
            end = min(at, len(self.text))
            after = lines[n + 1].text if n + 1 < len(lines) else None
            before = lines[n - 1].text if n else ""
            if after is not None and not after.strip() and not before.strip():
                end = min(end + len(after) + 1, len(self.text))  # no two blank lines
            edits.append(_Edit(start, end, ""))
        return edits

    # -- what it names ---------------------------------------------------------------

    def _destination(self, target: str) -> tuple[Target | None, str | None]:
        """(the label, or else the file of the source) a link's destination names."""
        path, _hash, fragment = target.partition("#")
        if not path:
            name = unquote(fragment)
            here = self.index.anchors.get(self.page, {})
            if name in here:  # a heading of this page, before any label
                return Target(self.page, fragment, here[name]), None
            return self.index.label(name), None
        file = self._file(path)
        if file is not None:
            return None, file + (f"#{fragment}" if _hash else "")
        if not fragment:
            return self.index.label(unquote(path)), None
        return None, None

    def _file(self, path: str) -> str | None:
        """``path`` (as written on the page, relative to it, or ``/``-rooted at the
        project) relative to the page, when the source holds that file or page."""
        name = unquote(path)
        folder = posixpath.dirname(self.page)
        if name.startswith("/"):
            full = posixpath.normpath(posixpath.join(self.base, name.lstrip("/")))
        else:
            full = posixpath.normpath(posixpath.join(folder, name))
        pages = (*_PAGES, *self.rst.suffixes(self.page), ".markdown")
        for candidate in (full, *(full + ext for ext in pages)):
            if candidate in self.files:
                if candidate == full and not name.startswith("/"):
                    return path  # written as it is: the build rewrites it
                return posixpath.relpath(candidate, folder or ".")
        return None

    def _page(self, name: str) -> Target | None:
        """The page a ``{doc}`` names (relative to the page, or ``/``-rooted)."""
        file = self._file(name)
        if file is None:
            return None
        page = posixpath.normpath(posixpath.join(posixpath.dirname(self.page), unquote(file)))
        if page not in self.index.titles:
            return None
        return Target(page, "", self.index.titles[page] or posixpath.basename(page))

    def _title_of(self, file: str, fragment: str) -> str | None:
        """The title a link to ``file`` (relative to the page) shows when it has none:
        the heading its ``#fragment`` names, else the page's."""
        page = posixpath.normpath(
            posixpath.join(posixpath.dirname(self.page), unquote(file.partition("#")[0]))
        )
        anchors = self.index.anchors.get(page, {})
        if fragment and unquote(fragment) in anchors:
            return anchors[unquote(fragment)]
        label = self.index.label(unquote(fragment)) if fragment else None
        if label is not None and label.page == page:
            return label.title
        return self.index.titles.get(page) or None

    def _link(self, target: Target) -> str:
        """``target`` as a link from the page: its path relative to the page's source,
        the anchor after it."""
        anchor = f"#{target.anchor}" if target.anchor else ""
        if target.page == self.page and anchor:
            return anchor
        folder = posixpath.dirname(self.page) or "."
        return posixpath.relpath(target.page, folder) + anchor


#: A reStructuredText cross-reference role the build resolves (:mod:`.rst`).
_RST_ROLE = re.compile(r"(?<![\w`]):(ref|numref|any|term):`")


def _worth_reading(text: str) -> bool:
    return "](" in text or "]:" in text or "}`" in text or ")=" in text or "<project:" in text


def _bare(target: str) -> bool:
    """Whether a link's destination is written as a label is (``oversubscription``,
    ``JupyterHub.db_url``, ``content/cards``), not as a path to a file."""
    if not target or target.startswith(("/", "./", "../", "#")) or "#" in target:
        return False
    return _FILE_LIKE.search(target) is None and not target.endswith("/")


def _destination(new: str, written: str) -> str:
    return format_destination(new, angle=written[:1] == "<")
