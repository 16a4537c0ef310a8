"""reStructuredText's include directives, read as Sphinx reads them, from the source only.

``.. include:: snippet.rst`` shows another file's reStructuredText where it is written
(parsed as part of the page), ``.. literalinclude:: example.py`` a file's text as a code
block. A path is read from the folder of the file the directive is in (an included
file's own includes from its folder), ``/path`` from the Sphinx source folder (the
nearest folder above holding ``conf.py``). Their options pick lines as Sphinx's do:
``:start-line:``/``:end-line:``, ``:start-after:``/``:end-before:``, and for
``literalinclude`` ``:lines: 1,3,5-10,20-``, ``:start-at:``/``:end-at:`` and
``:language:``.

Only files inside the build's source are read (a symbolic link out of it is not
followed), regular files (a named pipe is never waited on), text of at most the build's
size limit; an include going round in a loop, deeper than :data:`MAX_DEPTH` or past
:data:`MAX_INCLUDES` in one page is not read. What is not read is said in the page
("Includes snippet.rst.") and by the build, by line (:func:`include_targets`).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from kas_tui.core.fileio import read_regular
from kas_tui.features.importing.convert_model import ONLY_RST, Refused, RstPages, decode_text
from kas_tui.features.importing.python_objects import python_paths

#: Includes nested deeper than this are not read (an include in an include ...).
MAX_DEPTH = 8
#: Files one page may include in all.
MAX_INCLUDES = 200

_DIRECTIVE = re.compile(
    r"^[ \t]*\.\.[ \t]+(?P<kind>include|literalinclude)::[ \t]*(?P<arg>\S[^\n]*?)[ \t]*$",
    re.M | re.I,
)


def target_of(argument: str, current: str, srcdir: str) -> str | None:
    """The source-relative file ``argument`` names, written in the file ``current``
    (source-relative) of a Sphinx source folder ``srcdir``; ``None`` for docutils'
    standard files (``<isonum.txt>``) and a path leading out of the source."""
    argument = argument.strip()
    if not argument or (argument.startswith("<") and argument.endswith(">")):
        return None
    if argument.startswith("/"):
        joined = posixpath.join(srcdir, argument.lstrip("/"))
    else:
        joined = posixpath.join(posixpath.dirname(current), argument)
    target = posixpath.normpath(joined)
    if target == ".." or target.startswith(("../", "/")):
        return None
    return target


def srcdir_of(page: str, is_file: Callable[[str], bool]) -> str:
    """The Sphinx source folder of ``page``: the nearest folder above it with a
    ``conf.py`` (source-relative), the source's root when none has one."""
    folder = posixpath.dirname(page)
    while True:
        if is_file(posixpath.join(folder, "conf.py") if folder else "conf.py"):
            return folder
        if not folder:
            return ""
        folder = posixpath.dirname(folder)


@dataclass(frozen=True)
class Named:
    """An include directive of a page: its line, what it names as written, and the
    source-relative file (``None``: docutils' own or outside the source)."""

    line: int
    written: str
    target: str | None


def include_targets(text: str, page: str, is_file: Callable[[str], bool]) -> list[Named]:
    """The include directives of the reStructuredText ``text`` (the page ``page``)."""
    if "include::" not in text.lower():
        return []
    srcdir = srcdir_of(page, is_file)
    return [
        Named(
            text.count("\n", 0, m.start()) + 1,
            m.group("arg"),
            target_of(m.group("arg"), page, srcdir),
        )
        for m in _DIRECTIVE.finditer(text)
    ]


_DOC_ROLE = re.compile(r":doc:`([^`]+)`")


def doc_targets(
    text: str, page: str, is_file: Callable[[str], bool], rst: RstPages = ONLY_RST
) -> list[str]:
    """The pages the untitled ``:doc:`` roles of ``text`` (the page ``page``) name,
    whose titles the page shows: a changed title builds the page again. ``rst``: which
    files are reStructuredText pages."""
    if ":doc:`" not in text:
        return []
    srcdir = srcdir_of(page, is_file)
    found = []
    for role in _DOC_ROLE.finditer(text):
        if role.group(1).rstrip().endswith(">"):
            continue  # titled: its own words
        target = target_of(role.group(1), page, srcdir)
        for ext in (*rst.suffixes(page), ".md") if target else ():
            if is_file(f"{target}{ext}"):
                found.append(f"{target}{ext}")
                break
    return list(dict.fromkeys(found))


@dataclass
class IncludeReader:
    """Reads the files one page includes, from ``root`` only (see the module)."""

    root: str
    max_bytes: int
    #: which files are reStructuredText pages (paths relative to ``root``)
    rst: RstPages = ONLY_RST
    read: int = 0
    parents: dict[str, str] = field(default_factory=dict)
    #: what was not shown, and why, by line ("line 12: ...")
    problems: list[str] = field(default_factory=list)
    _srcdirs: dict[str, str] = field(default_factory=dict)
    #: pages of their own another may include (source-relative): linked, not copied in
    own_pages: frozenset[str] = frozenset()
    #: the page read (absolute), and the lines read before it (``rst_prolog``, Sphinx's
    #: ``|version|``), which its lines are counted without
    page: str = ""
    lines_before: int = 0
    #: the module the text read last set as current (``.. currentmodule::``)
    module: str = ""

    def __post_init__(self) -> None:
        self.root = os.path.realpath(self.root)

    def relative(self, path: str) -> str | None:
        """``path`` (absolute) relative to the root, ``None`` when outside it."""
        real = os.path.realpath(path)
        if not real.startswith(self.root + os.sep):
            return None
        return os.path.relpath(real, self.root).replace(os.sep, "/")

    def note(self, line: int, current: str, directive: str, why: str) -> None:
        """Says ``directive`` (line ``line`` of the file ``current``) is not shown."""
        here = self.relative(current)
        if self.page and os.path.realpath(current) == os.path.realpath(self.page):
            line -= self.lines_before
        where = (
            f"line {line}" if here is None or here not in self.parents else f"line {line} of {here}"
        )
        self.problems.append(f"{where}: {directive} is not shown: {why}")

    def _named(self, written: str, current: str) -> tuple[str, str] | None:
        """(the file ``current``, the file ``written`` in it names), source-relative:
        ``None`` when either is outside the source (see :func:`target_of`)."""
        here = self.relative(current)
        if here is None:
            return None
        srcdir = self._srcdirs.get(here)
        if srcdir is None:
            srcdir = self._srcdirs[here] = srcdir_of(
                here, lambda rel: os.path.isfile(os.path.join(self.root, rel))
            )
        target = target_of(written, here, srcdir)
        if target is not None and written.strip().startswith("/") and not self._exists(target):
            # a folder between conf.py and the page may be the one Sphinx builds
            # (readthedocs.org's docs/conf.py builds docs/user/ or docs/dev/, chosen by
            # an environment variable: /shared/x.rst is docs/user/shared/x.rst)
            inner = posixpath.dirname(here)[len(srcdir) :].strip("/").split("/")
            for depth in range(1, len(inner) + 1 if inner != [""] else 0):
                folder = posixpath.join(srcdir, *inner[:depth])
                other = target_of(written, here, folder)
                if other is not None and self._exists(other):
                    return here, other
        return None if target is None else (here, target)

    def python_roots(self, current: str, extra: Iterable[str]) -> list[str]:
        """The source-relative folders the Sphinx project of the file ``current``
        (absolute) imports modules from (:func:`.autodoc.python_paths`)."""
        here = self.relative(current) or ""
        srcdir = srcdir_of(here, lambda rel: os.path.isfile(os.path.join(self.root, rel)))
        return python_paths(
            srcdir, extra, lambda rel: os.path.isdir(os.path.join(self.root, *rel.split("/")))
        )

    def _exists(self, target: str) -> bool:
        """Whether the source holds ``target`` (source-relative), or a page of that
        name (a ``:doc:`` role names one without its extension)."""
        path = os.path.join(self.root, *target.split("/"))
        return any(os.path.isfile(path + ext) for ext in ("", *self._pages(target)))

    def _pages(self, rel: str) -> tuple[str, ...]:
        """The suffixes of the pages a ``:doc:`` role in ``rel`` names, in the order
        looked for."""
        return (*self.rst.suffixes(rel), ".md")

    def doc_link(self, docname: str, current: str) -> str | None:
        """The link from the file ``current`` (absolute) to the page a ``:doc:`` role
        names, when the role's own ``name.rst`` is not it: a page of another suffix
        (Django's ``.txt``, MyST's ``.md``), or a site-rooted name below a folder Sphinx
        builds (see :meth:`_named`); ``None`` otherwise."""
        found = self._named(docname, current)
        if found is None:
            return None
        here, target = found
        own = target == target_of(docname, here, self._srcdirs.get(here, ""))
        for ext in self._pages(here):
            if os.path.isfile(os.path.join(self.root, *(target + ext).split("/"))):
                if own and ext == ".rst":
                    return None
                return posixpath.relpath(target + ext, posixpath.dirname(here) or ".")
        return None

    def doc_found(self, docname: str, current: str) -> bool:
        """Whether the page a ``:doc:`` role in the file ``current`` (absolute) names is
        one of the source's (not another project's, as ``python:library/pdb`` names one
        through intersphinx)."""
        found = self._named(docname, current)
        if found is None:
            return False
        return any(
            os.path.isfile(os.path.join(self.root, *(found[1] + ext).split("/")))
            for ext in self._pages(found[0])
        )

    def without_suffix(self, docname: str) -> str:
        """``docname`` without a page suffix it was written with (a toctree entry
        ``advanced/usecases.rst``, which Sphinx reads as ``advanced/usecases``)."""
        for ext in (*self.rst.suffixes(), ".md"):
            if docname.lower().endswith(ext) and len(docname) > len(ext):
                return docname[: -len(ext)]
        return docname

    def doc_title(self, docname: str, current: str) -> str | None:
        """The title of the page a ``:doc:`` role names from the file ``current``
        (absolute): what Sphinx shows as the link's words; ``None`` when it is not a
        readable page of the source."""
        found = self._named(docname, current)
        if found is None:
            return None
        target = found[1]
        for ext in self._pages(found[0]):
            path = os.path.join(self.root, *(target + ext).split("/"))
            if self.relative(path) is None or not os.path.isfile(path):
                continue
            try:
                data = read_regular(path, listed=True, limit=min(self.max_bytes, 1 << 20))
                text, _encoding = decode_text(path, data)
            except (OSError, Refused):
                return None
            return page_title(text.replace("\r\n", "\n"), markdown=ext == ".md")
        return None

    def own_page(self, argument: str, current: str) -> str | None:
        """The link from the file ``current`` (absolute) to the page of its own that the
        include ``argument`` names (:attr:`own_pages`), ``None`` when it names none."""
        found = self._named(argument, current)
        if found is None or found[1] not in self.own_pages:
            return None
        return posixpath.relpath(found[1], posixpath.dirname(found[0]) or ".")

    def text(self, argument: str, current: str, part: bool = False) -> tuple[str, str] | str:
        """(text, absolute path) of the file ``argument`` names in the file
        ``current`` (absolute), or why it is not read. ``part``: the directive picks a
        part of it (``:start-after:``...), so a file may show a part of itself (scrapy's
        settings page lists its own settings again), as deep as :data:`MAX_DEPTH`."""
        found = self._named(argument, current)
        if found is None:
            return "it names no file of the source"
        here, target = found
        path = os.path.join(self.root, *target.split("/"))
        if self.relative(path) is None:
            return "it leads out of the source"
        chain, at = [here], here
        while at in self.parents and len(chain) <= MAX_DEPTH:
            at = self.parents[at]
            chain.append(at)
        if target in chain and not part:
            return "it includes itself (a loop)"
        if len(chain) > MAX_DEPTH:
            return f"includes are nested more than {MAX_DEPTH} deep"
        if self.read >= MAX_INCLUDES:
            return f"the page includes more than {MAX_INCLUDES} files"
        try:
            data = read_regular(path, listed=True, limit=self.max_bytes + 1)
            if len(data) > self.max_bytes:
                return f"it is over the {self.max_bytes:,}-byte limit"
            text, _encoding = decode_text(path, data)
        except FileNotFoundError:
            return "the source has no such file"
        except OSError as exc:
            return f"it cannot be read ({exc.strerror or exc})"
        except Refused as exc:
            return exc.message
        self.read += 1
        self.parents[target] = here
        return text.replace("\r\n", "\n"), path


#: A reStructuredText section title's underline (or overline): one punctuation
#: character repeated.
_ADORNMENT = re.compile(r"^([=\-~^\"'`*+#<>:._])\1+\s*$")
#: Where a Markdown page's title is: its front matter's ``title``, else its first heading.
_MD_TITLE = re.compile(
    r"\A---\n(?:.*\n)*?title:\s*['\"]?(.+?)['\"]?\s*\n(?:.*\n)*?---|^#\s+(.+)$", re.M
)


def page_title(text: str, markdown: bool = False) -> str | None:
    """The title a page shows: a reStructuredText page's first section title (a line
    over an underline at least as long), a Markdown page's ``title`` or first heading."""
    if markdown:
        found = _MD_TITLE.search(text)
        return (found.group(1) or found.group(2)).strip() if found else None
    lines = text.split("\n", 300)[:300]
    for above, line in zip(lines, lines[1:], strict=False):
        words = above.strip()
        underlined = _ADORNMENT.match(line) and len(line.rstrip()) >= len(above.rstrip())
        if words and underlined and not _ADORNMENT.match(words):
            return re.sub(r"[`*]|\\(?=.)", "", words).strip() or None
    return None


#: The options that pick a part of an included file.
PART_OPTIONS = (
    "start-line",
    "end-line",
    "lines",
    "start-after",
    "start-at",
    "end-before",
    "end-at",
)


def lines_picked(text: str, options: dict[str, str]) -> str | None:
    """The part of an included file its directive's options pick, ``None`` when a
    ``:start-after:``/``:end-before:`` text is not in it."""
    lines = text.split("\n")
    if "start-line" in options or "end-line" in options:
        lines = lines[_int(options.get("start-line")) : _int(options.get("end-line"), None)]
    if "lines" in options:
        lines = _ranges(lines, options["lines"])
    text = "\n".join(lines)
    for key, after in (("start-after", True), ("start-at", False)):
        if key in options:
            at = text.find(options[key])
            if at < 0:
                return None
            if after:  # the lines after the one holding it
                rest = text[at:]
                text = rest.split("\n", 1)[1] if "\n" in rest else ""
            else:  # from the start of the line holding it
                text = text[text.rfind("\n", 0, at) + 1 :]
    for key, before in (("end-before", True), ("end-at", False)):
        if key in options:
            at = text.find(options[key])
            if at < 0:
                return None
            if before:  # the lines before the one holding it
                text = text[:at].rsplit("\n", 1)[0] if "\n" in text[:at] else ""
            else:  # to the end of the line holding it
                end = text.find("\n", at)
                text = text if end < 0 else text[:end]
    return text


def _int(value: str | None, default: int | None = 0) -> int | None:
    try:
        return int(str(value).strip()) if value is not None else default
    except ValueError:
        return default


def _ranges(lines: list[str], spec: str) -> list[str]:
    """``1,3,5-10,20-`` of ``lines`` (counted from 1)."""
    picked: list[str] = []
    for part in spec.split(","):
        first, dash, last = part.strip().partition("-")
        start = _int(first, 1) or 1
        end = (_int(last, len(lines)) or len(lines)) if dash else start
        picked += lines[start - 1 : end]
    return picked
