"""A Sphinx project's table of contents: the ``toctree`` directives of its Markdown
(MyST) pages, from the root document that ``conf.py`` names.

``conf.py`` sets the root document (``root_doc`` or, in older projects, ``master_doc``;
``index`` when neither is set). Each page may hold toctrees, written as MyST
directives in a code fence (```` ```{toctree} ````) or a colon fence
(``:::{toctree}``): option lines (``:caption: Guide``, ``:glob:``, ``:maxdepth: 2``)
then one entry a line, a document name relative to the page (``install/linux``, or
``/usage`` from the project's folder), ``Title <docname>`` to give it a title, a
pattern with ``:glob:``, an address, or ``self``. A toctree's caption is a section of
its entries; the pages an entry names bring their own toctrees below them.

Only what ``conf.py`` says literally is read (a regular expression, never executed).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.sphinx_conf import rst_suffixes
from kas_tui.features.importing.toc_formats import MARKDOWN_PAGES, MD_HEADING, URL

_ROOT_DOC = re.compile(r"^(?:root_doc|master_doc)\s*=\s*['\"]([^'\"]+)['\"]", re.MULTILINE)
_FENCE = re.compile(r"^(`{3,}|:{3,})\s*\{toctree\}\s*$")
#: A reStructuredText toctree: ``.. toctree::``, its options and entries indented below.
_RST_TOCTREE = re.compile(r"^(\s*)\.\.\s+toctree::\s*$")
#: A Sphinx project's pages: Markdown (MyST) or reStructuredText.
PAGES = (*MARKDOWN_PAGES, ".rst")
#: Sphinx's "Title <target>" (a toctree entry, a ``:doc:`` role's text).
TITLED = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)


def root_doc(conf: str) -> str:
    """The root document's name as ``conf.py`` sets it (``index`` when it does not)."""
    found = _ROOT_DOC.search(conf)
    return found.group(1).strip().removesuffix(".md") if found else "index"


#: conf.py's folders of theme templates (``templates_path = ["_templates"]``) and of
#: themes (``html_theme_path``): Jinja HTML the site is drawn with, no pages.
_THEME_PATHS = re.compile(r"^(?:templates_path|html_theme_path)\s*=\s*\[([^\]]*)\]", re.MULTILINE)


def theme_folders(conf_path: str, conf: str) -> tuple[str, ...]:
    """The source folders ``conf.py`` (the file ``conf_path``, its text ``conf``) keeps
    templates and themes in, as written there (strings in a list, read, never run)."""
    base = posixpath.dirname(conf_path)
    found = []
    for listed in _THEME_PATHS.finditer(conf):
        for name in re.findall(r"['\"]([^'\"]+)['\"]", listed.group(1)):
            folder = posixpath.normpath(posixpath.join(base, name.strip()))
            if folder != "." and not folder.startswith(".."):
                found.append(folder)
    return tuple(dict.fromkeys(found))


def sphinx_roots(
    conf_path: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> list[Any] | None:
    """The pages of the Sphinx project configured by ``conf_path`` as ``node(title,
    path, children, line, file)`` trees: the root document, then what its toctrees
    list; ``None`` when the root document is no Markdown page of the source."""
    base = posixpath.dirname(conf_path)
    conf = read(conf_path) or ""
    pages = (*rst_suffixes(conf), *PAGES)
    root = _page(posixpath.join(base, root_doc(conf)), files, pages)
    if root is None:
        return None
    reader = _Toctrees(read, files, problems, node, base, pages)
    return [node(None, root, [], None, None), *reader.below(root, {root}, sections=True)]


def _page(docname: str, files: Collection[str], pages: tuple[str, ...] = PAGES) -> str | None:
    for ext in pages:
        if docname + ext in files:
            return docname + ext
    return None


class _Toctrees:
    """Reads toctrees page by page: ``problems`` collects what they name that is
    missing, ``node`` makes the tree's nodes, ``base`` is the project's folder."""

    def __init__(
        self,
        read: Callable[[str], str | None],
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any] | None,
        base: str,
        pages: tuple[str, ...] = PAGES,
    ) -> None:
        self.pages = pages
        self.read, self.files, self.problems, self.node, self.base = (
            read,
            files,
            problems,
            node,
            base,
        )
        self.docnames = sorted(posixpath.splitext(f)[0] for f in files if f.lower().endswith(pages))

    def below(self, page: str, seen: set[str], *, sections: bool = False) -> list[Any]:
        """The entries of ``page``'s toctrees, each with what its own page lists; with
        ``sections`` (the root document), an uncaptioned toctree's are the section's
        it sits in."""
        text = self.read(page)
        if not text:
            return []
        nodes: list[Any] = []
        for caption, line, entries in _toctrees(text, sections):
            found = []
            for number, title, target, glob in entries:
                for path in self.targets(page, number, target, glob):
                    if path in seen:
                        continue  # listed above it already (or itself): no loop
                    child = self.node(title, path, [], number, page)
                    child.children = self.below(path, seen | {path})
                    found.append(child)
            if caption and found:
                nodes.append(self.node(caption, None, found, line, page))
            else:
                nodes += found
        return nodes

    def targets(self, page: str, number: int, target: str, glob: bool) -> list[str]:
        """The pages a toctree entry of ``page`` (on line ``number``) names."""
        folder = posixpath.dirname(page)
        name = next((target[: -len(e)] for e in self.pages if target.endswith(e)), target)
        docname = posixpath.normpath(
            posixpath.join(self.base, name.lstrip("/"))
            if name.startswith("/")
            else posixpath.join(folder, name)
        )
        if glob and any(c in target for c in "*?["):
            found = (
                _page(d, self.files, self.pages)
                for d in self.docnames
                if fnmatch.fnmatchcase(d, docname)
            )
            return [p for p in found if p]
        path = _page(docname, self.files, self.pages)
        if path is None:
            self.problems.append(
                f"{page}:{number}: the toctree names {target}, which is not in the source "
                f"(no {docname}.md); fix the entry or add the page"
            )
            return []
        return [path]


Entry = tuple[int, "str | None", str, bool]  # line, title, target, a glob pattern


#: A directive's first line (``.. note::``, ``.. toctree::``): its own ``::`` opens no
#: literal block; a code directive's content is one.
_DIRECTIVE = re.compile(r"^\s*\.\.\s+([\w:-]+)::")
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "parsed-literal", "highlight"})


def _literal_lines(lines: list[str]) -> frozenset[int]:
    """The lines of reStructuredText literal blocks, which show text as written: the
    lines indented below one ending with ``::`` (a paragraph's "this example::", or a
    lone ``::``) and a code directive's content. A toctree written there is an example
    of one (the devguide's and Sphinx's own docs show ``intro``, ``strings``,
    ``numeric``...): no entries of the site's, and no missing pages to report."""
    found: set[int] = set()
    at = 0
    while at < len(lines):
        line = lines[at]
        directive = _DIRECTIVE.match(line)
        opens = (
            directive.group(1).lower() in _CODE_DIRECTIVES
            if directive
            else line.rstrip().endswith("::")
        )
        at += 1
        if not opens:
            continue
        indent = len(line) - len(line.lstrip())
        while at < len(lines) and (
            not lines[at].strip() or len(lines[at]) - len(lines[at].lstrip()) > indent
        ):
            found.add(at)
            at += 1
    return frozenset(found)


def _toctrees(text: str, sections: bool = False) -> list[tuple[str | None, int, list[Entry]]]:
    """Each toctree of a page: its caption (else, with ``sections``, the heading of the
    section it sits in), its line, its entries (line, title, target, glob pattern?).
    A page that puts its toctrees under two headings or more names them by those too
    (Django's release notes: "6.0 release", "5.2 release", ... over 389 pages)."""
    found = _blocks(text, sections)
    if not sections and sum(caption is None for caption, *_rest in found) >= 2:
        lines = text.splitlines()
        above = [c or _section_above(lines, line - 1) for c, line, _end, _entries in found]
        if len({a for a, (c, *_rest) in zip(above, found, strict=True) if c is None and a}) >= 2:
            found = [(a, *rest) for a, (_c, *rest) in zip(above, found, strict=True)]
    return [(caption, line, entries) for caption, line, _end, entries in found]


def _blocks(text: str, sections: bool = False) -> list[tuple[str | None, int, int, list[Entry]]]:
    """:func:`_toctrees` with the line each block ends on (its closing fence, or a
    reStructuredText toctree's last indented line)."""
    found = []
    lines = text.splitlines()
    shown = _literal_lines(lines) if "::" in text else frozenset()
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i].strip())
        rst = None if fence or i in shown else _RST_TOCTREE.match(lines[i])
        i += 1
        if not fence and not rst:
            continue
        start, close = i, fence.group(1) if fence else None
        indent = len(rst.group(1)) if rst else 0
        caption, glob, entries = None, False, []
        while i < len(lines):
            line = lines[i]
            if close is not None and line.strip().startswith(close):
                break
            if rst and line.strip() and len(line) - len(line.lstrip()) <= indent:
                i -= 1  # the directive ends where its indentation does
                break
            raw = line.strip()
            i += 1
            if not raw:
                continue
            if raw.startswith(":") and ":" in raw[1:]:  # an option
                key, _, value = raw[1:].partition(":")
                if key.strip() == "caption":
                    caption = value.strip() or None
                glob = glob or key.strip() == "glob"
                continue
            titled = TITLED.match(raw)
            title, target = (
                (titled.group(1).strip() or None, titled.group(2)) if titled else (None, raw)
            )
            if target == "self" or URL.match(target):
                continue
            entries.append((i, title, target.strip(), glob))
        i += 1
        if caption or sections:
            caption = _caption(caption) if caption else _section_above(lines, start - 1)
        found.append((caption, start, min(i, len(lines)), entries))
    return found


#: A toctree caption that names nothing of its own: sphinx-quickstart's "Contents:".
_NO_CAPTION = frozenset({"contents", "table of contents", "toc"})
#: A reStructuredText heading's underline (or overline): one punctuation character.
_UNDERLINE = re.compile(r"^([=\-~^\"'#*+_.])\1{2,}\s*$")


def _caption(text: str) -> str | None:
    text = text.strip().rstrip(":").strip()
    return None if text.casefold() in _NO_CAPTION else text or None


def _underlined(text: str, line: str) -> bool:
    """Whether ``line`` underlines ``text`` as a reStructuredText heading: as long as
    the text at least, under words."""
    words = text.strip()
    return bool(words) and not _UNDERLINE.match(text) and len(line.strip()) >= len(words)


def _section_above(lines: list[str], at: int) -> str | None:
    """The heading of the section a toctree without a caption sits in ("User's Guide"
    above Flask's first toctree on its root document), unless that is the page's title:
    its entries are that section's."""
    headings = []  # (line, text) of the page's headings, in order
    for n, line in enumerate(lines[:at]):
        markdown = MD_HEADING.match(line)
        if markdown:
            headings.append((n, markdown.group(2).strip()))
        elif n and _UNDERLINE.match(line) and _underlined(lines[n - 1], line):
            headings.append((n - 1, lines[n - 1].strip()))
    if len(headings) < 2:
        return None  # only the page's title above it
    return _caption(headings[-1][1])


def toctree_lists(
    text: str, page: str, read: Callable[[str], str | None], files: Collection[str], base: str
) -> str:
    """``text`` (the page ``page``) with each toctree as a reader of the site sees it: a
    list of links to the pages it names, titled as it titles them (else by their first
    heading), under its caption in bold; what it names that is missing is left out."""
    blocks = _blocks(text)
    if not blocks:
        return text
    lines = text.splitlines()
    reader = _Toctrees(read, files, [], None, base)
    folder = posixpath.dirname(page)
    for caption, start, end, entries in reversed(blocks):
        shown = [f"**{caption}**", ""] if caption else []
        for _number, title, target, glob in entries:
            for path in reader.targets(page, 0, target, glob):
                name = title or _first_heading(read(path) or "") or posixpath.basename(path)[:-3]
                shown.append(f"- [{name}]({posixpath.relpath(path, folder or '.')})")
        lines[start - 1 : end] = shown
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def _first_heading(text: str) -> str | None:
    """The text of a page's first top-level heading, if it has one."""
    for line in text.splitlines():
        heading = MD_HEADING.match(line)
        if heading and len(heading.group(1)) == 1 and heading.group(2).strip():
            return heading.group(2).strip()
    return None
