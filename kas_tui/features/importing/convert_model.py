"""What a conversion works with: its limits, what it makes of a file (a
:class:`Converted` document or a :class:`ConversionError`), the file kinds it tells
apart, and the reading of text every converter shares (:mod:`.convert` converts,
:mod:`.convert_markitdown` hands a file to MarkItDown)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kas_tui.features.importing import charsets

#: Default limits; ``kas-tui import``/``build`` take ``--timeout`` and ``--max-size``.
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_OUTPUT = 8 * 1024 * 1024
DEFAULT_MAX_MEMORY = 4 * 1024**3

#: Markdown sources (MDX is Markdown with JSX and ``import`` lines: its frontmatter and
#: text are read as Markdown's; what is JSX stays as written).
#: Markdown, and the Markdown of Quarto (``.qmd``) and R Markdown (``.Rmd``): front matter,
#: pages and links as Markdown's, code chunks fenced.
MARKDOWN_EXTS = frozenset({".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdx", ".qmd", ".rmd"})
TEXT_EXTS = frozenset({".txt", ".text"})
#: What the author wrote as Markdown, links and all (a notebook's cells are Markdown):
#: its links are rewritten to the package's paths, never dropped.
LINKED_KINDS = frozenset({"markdown", "ipynb"})
#: reStructuredText, a Sphinx site's pages (:mod:`.rst`), wherever they are; a Sphinx
#: project may name more suffixes for its own folder (:class:`RstPages`).
RST_EXTS = frozenset({".rst"})


@dataclass(frozen=True)
class RstPages:
    """Which files of a source are reStructuredText pages: every ``.rst``, and below a
    Sphinx project's folder the other suffixes its ``conf.py`` reads as reStructuredText
    (Django's ``source_suffix = {".txt": "restructuredtext"}``: its ``ref/settings.txt``
    is a page, a ``notes.txt`` elsewhere is text). Paths are relative to the source, as
    ``/`` writes them; :func:`.sphinx_conf.rst_pages` finds the projects' suffixes.
    Every question "is this a reStructuredText page?" is asked of this, nowhere else."""

    #: (the project's folder, "" at the source's root; a suffix, lower case, with its dot)
    more: tuple[tuple[str, str], ...] = ()

    def holds(self, rel: str) -> bool:
        """Whether the file ``rel`` is a reStructuredText page."""
        low = rel.lower()
        if low.endswith(".rst"):
            return True
        return any(
            low.endswith(suffix) and (not folder or rel.startswith(folder + "/"))
            for folder, suffix in self.more
        )

    def suffixes(self, rel: str = "") -> tuple[str, ...]:
        """The suffixes a page at ``rel`` names another without (``:doc:`x```, a toctree
        entry), in the order looked for: its project's own first, then ``.rst``."""
        own = [
            suffix
            for folder, suffix in self.more
            if not rel or not folder or rel == folder or rel.startswith(folder + "/")
        ]
        return (*dict.fromkeys(own), ".rst")


#: A source with no Sphinx project naming suffixes of its own: ``.rst`` only.
ONLY_RST = RstPages()


#: Sphinx's own object types, a target directive and the role naming it:
#: ``.. envvar:: HOME`` and ``:envvar:`HOME```, ``.. confval:: language``.
STD_OBJECTS = (("envvar", "envvar"), ("confval", "confval"))


@dataclass(frozen=True)
class RstReading:
    """The roles a source's Sphinx projects add that make links, read from their files
    (:func:`.sphinx_conf.rst_reading`): ``extlinks`` in ``conf.py`` (Django's
    ``"ticket": ("https://code.djangoproject.com/ticket/%s", "#%s")``: ``:ticket:`123```
    is a link to that address, shown "#123") and the object types an extension adds
    (``app.add_crossref_type(directivename="setting", rolename="setting")``:
    ``.. setting:: DEBUG`` is a target, ``:setting:`DEBUG``` a link to it), Sphinx's
    own object types always, and the text its ``conf.py`` reads every page with."""

    #: (role, address with ``%s`` for the role's text, caption with ``%s`` or None)
    extlinks: tuple[tuple[str, str, str | None], ...] = ()
    #: (directive, role, whether the directive shows its argument: an object type's
    #: signature, where a cross-reference type's target shows nothing)
    objects: tuple[tuple[str, str, bool], ...] = tuple((d, r, True) for d, r in STD_OBJECTS)
    #: reStructuredText a project's pages are read with, by the folder of its
    #: ``conf.py``: before each (``rst_prolog``), after each (``rst_epilog``:
    #: ansible's ``|br|``), as Sphinx reads them
    texts: tuple[tuple[str, str, str], ...] = ()
    #: autodoc, as ``conf.py`` sets it: the folders it puts on ``sys.path``
    #: (source-relative), ``autodoc_member_order``, ``autodoc_default_options``
    python_paths: tuple[str, ...] = ()
    autodoc_order: str = "alphabetical"
    autodoc_defaults: tuple[tuple[str, str], ...] = ()

    @property
    def autodoc_options(self) -> dict[str, str]:
        """``autodoc_default_options`` as a directive's options."""
        return dict(self.autodoc_defaults)

    def texts_for(self, page: str) -> tuple[str, str]:
        """(before, after): the text the page ``page`` (source-relative) is read with,
        its own project's (the nearest ``conf.py`` above it): the Sphinx repository's
        test projects' ``rst_prolog`` ("*Hello world*.") is none of its docs' pages'."""
        found = [
            (folder, before, after)
            for folder, before, after in self.texts
            if not folder or page.startswith(folder + "/")
        ]
        if not found:
            return "", ""
        _folder, before, after = max(found, key=lambda t: len(t[0]))
        return before, after

    def extlink(self, role: str) -> tuple[str, str | None] | None:
        """(address, caption) of the extlink role ``role``; ``None`` when it is none."""
        return next(((url, caption) for r, url, caption in self.extlinks if r == role), None)

    def target_role(self, directive: str) -> str | None:
        """The role naming what the directive ``directive`` defines; ``None`` when it
        defines no object."""
        return next((r for d, r, _shown in self.objects if d == directive), None)

    def shows(self, directive: str) -> bool:
        """Whether the object directive ``directive`` shows its argument."""
        return any(d == directive and shown for d, _r, shown in self.objects)

    @property
    def object_roles(self) -> frozenset[str]:
        """The roles that name an object a directive defines."""
        return frozenset(r for _d, r, _shown in self.objects)


#: A source whose Sphinx projects add no roles: Sphinx's own.
STD_READING = RstReading()
#: AsciiDoc, an Antora site's pages (:mod:`.asciidoc`).
#: AsciiDoc pages; ``.asc`` as Pro Git writes its chapters (an OpenPGP ``.asc`` is refused:
#: :func:`refuse_armor`).
ASCIIDOC_EXTS = frozenset({".adoc", ".asciidoc", ".asc"})
#: Emacs' Org-mode notes (:mod:`.orgmode`) and TiddlyWiki's tiddlers (:mod:`.tiddlywiki`).
ORG_EXTS = frozenset({".org"})
TIDDLER_EXTS = frozenset({".tid"})
#: Plain-text formats wrapped in a fenced code block (the language is the fence's tag).
CODE_EXTS = {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".xml": "xml", ".toml": "toml"}
#: Extensions MarkItDown converts with one converter each: (label, converter class).
CONVERTERS: dict[str, tuple[str, str]] = {
    ".pdf": ("pdf", "PdfConverter"),
    ".docx": ("docx", "DocxConverter"),
    ".pptx": ("pptx", "PptxConverter"),
    ".xlsx": ("xlsx", "XlsxConverter"),
    ".xls": ("xls", "XlsConverter"),
    ".html": ("html", "HtmlConverter"),
    ".htm": ("html", "HtmlConverter"),
    ".xhtml": ("html", "HtmlConverter"),
    ".epub": ("epub", "EpubConverter"),
    ".csv": ("csv", "CsvConverter"),
    ".tsv": ("csv", "CsvConverter"),  # its tabs read as commas first (convert_markitdown)
    ".ipynb": ("ipynb", "IpynbConverter"),
    ".msg": ("msg", "OutlookMsgConverter"),
    ".rss": ("feed", "RssConverter"),
    ".atom": ("feed", "RssConverter"),
}
#: An ``.xml`` file whose root element is one of these is a feed: MarkItDown's
#: ``RssConverter`` makes it a document of its entries, not a code block of raw XML.
FEED_ROOT = re.compile(
    rb"\A(?:\xef\xbb\xbf)?\s*(?:<\?[^>]*\?>\s*|<!--.*?-->\s*|<!DOCTYPE[^>]*>\s*)*<(?:rss|feed)\b",
    re.DOTALL,
)
#: Audio MarkItDown could only transcribe with a speech service kas-tui does not use.
AUDIO_EXTS = frozenset({".mp3", ".wav", ".m4a"})
#: Formats that are zip containers, and the part each must hold.
_ZIP_PARTS = {
    ".docx": ("word/document.xml", "a Word document"),
    ".pptx": ("ppt/presentation.xml", "a PowerPoint deck"),
    ".xlsx": ("xl/workbook.xml", "an Excel workbook"),
    ".epub": ("META-INF/container.xml", "an EPUB book"),
}
_OLE_MAGIC = bytes.fromhex("D0CF11E0A1B11AE1")
#: Old binary Office formats MarkItDown does not read.
_LEGACY = {".doc": "Word 97-2003 (.doc)", ".ppt": "PowerPoint 97-2003 (.ppt)"}


@dataclass(frozen=True)
class Limits:
    """What one conversion may cost.

    ``timeout``: seconds a converter may run on one file before its worker process is
    killed. ``max_bytes``: larger source files are not converted. ``max_output``:
    characters of Markdown a conversion may produce (a 40 MB spreadsheet can become
    half a gigabyte of table). ``max_memory``: bytes of data memory a worker process may
    allocate (0: no cap); a conversion needing more fails with a message, it does not
    take the machine down with it. ``include_root``: where included files may come from.
    """

    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    max_output: int = DEFAULT_MAX_OUTPUT
    max_memory: int = DEFAULT_MAX_MEMORY
    #: The folder whose files a page's include directives may show (a build's source):
    #: none outside it is ever read. Empty (an import of single files): none is read,
    #: the page says what it includes.
    include_root: str = ""
    #: Which files are reStructuredText pages (paths relative to ``include_root``).
    rst_pages: RstPages = ONLY_RST
    #: The roles its Sphinx projects add that make links.
    rst_reading: RstReading = STD_READING
    #: Pages of their own that other pages include (sqlalchemy's changelog_14.rst, in
    #: its toctree and included by changelog_20.rst): linked there, never copied in
    #: (paths relative to ``include_root``).
    own_pages: frozenset[str] = frozenset()


@dataclass
class Converted:
    """A source file as Markdown, with what the conversion learned about it.

    ``markdown`` is the body: for a Markdown source, the text after its frontmatter,
    which is in ``frontmatter`` (the parsed mapping) and ``frontmatter_text`` (the YAML
    as written, kept verbatim). ``title`` is a title the converter found (an HTML
    ``<title>``, EPUB or notebook metadata); ``properties`` holds document properties
    (``title``, ``subject``, ``keywords``, ``author`` of an Office file or a PDF).
    ``kind``: ``markdown``, ``text``, ``pdf``, ``docx``, ``pptx``, ``xlsx``, ``html``,
    ``epub``, ``csv``, ``ipynb``, ... or ``file`` (MarkItDown guessed the format).
    """

    source: Path
    markdown: str
    kind: str
    sha256: str
    size: int
    mtime: float
    title: str | None = None
    properties: dict[str, str] = field(default_factory=dict)
    frontmatter: dict[str, Any] | None = None
    frontmatter_text: str | None = None
    seconds: float = 0.0
    #: the encoding a text source was read with (``utf-8``), ``None`` when not text
    encoding: str | None = None
    #: the source's line ``markdown`` starts on (below a Markdown source's frontmatter)
    body_line: int = 1
    #: what the curator should hear of the conversion ("line 12: .. include:: x.rst is
    #: not shown: ..."), one line each
    notes: list[str] = field(default_factory=list)

    @property
    def encoding_note(self) -> str | None:
        """What to tell the curator about how the text was read (``None``: UTF-8)."""
        return charsets.assumed(self.encoding)

    @property
    def name(self) -> str:
        return self.source.name


@dataclass
class ConversionError:
    """A file that produced nothing, and why.

    ``reason`` is one of ``unsupported``, ``missing-dependency``, ``too-large``,
    ``timeout``, ``encrypted``, ``corrupt``, ``no-text``, ``unreadable``, ``crashed``, or
    :data:`SHOWS_NOTHING`; ``message`` is one line naming the file.
    """

    source: Path
    reason: str
    message: str

    @property
    def name(self) -> str:
        return self.source.name

    def __str__(self) -> str:
        return self.message


Result = Converted | ConversionError

#: The reason of a page whose markup shows no text (a reST page of comments and
#: ``:orphan:``): its site shows an empty page, so a build leaves it out with a note, and
#: counts no failure.
SHOWS_NOTHING = "shows-nothing"


class Refused(Exception):
    """A file the conversion turns down: why (``reason``), and what to tell (``message``)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def os_reason_of(exc: OSError) -> str:
    from kas_tui.core.store import os_reason

    return os_reason(exc)


def is_text(data: bytes) -> bool:
    if b"\0" in data[:65536]:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


#: How many NUL bytes a text file's UTF-8 may hold (a pasted binary's debris, as a
#: note on a malware sample writes them), dropped with a note: eight, or one in this
#: many bytes (UTF-16 without its byte-order mark is every other byte).
_NUL_SHARE = 1000
_NULS = 8


def decode_text(path: Path, data: bytes) -> tuple[str, str]:
    """The text and the encoding it was read with (:mod:`.charsets`; a BOM dropped).
    UTF-8 holding a few NUL bytes is read without them (encoding
    :data:`~.charsets.UTF8_WITHOUT_NUL`); more, or in other bytes, is binary."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for bom, codec in ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be")):
        if data.startswith(bom):  # before UTF-16's, which the first opens alike
            return data[4:].decode(codec, errors="replace").removeprefix("\ufeff"), codec
    if b"\0" in data[:65536] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        nuls = data.count(b"\0")
        kept = data.replace(b"\0", b"")
        if nuls > max(_NULS, len(data) // _NUL_SHARE) or not charsets.is_utf8(kept):
            raise Refused("unsupported", "binary data (NUL bytes), not text")
        return kept.decode("utf-8"), charsets.UTF8_WITHOUT_NUL
    encoding = charsets.encoding_of(data)
    if encoding is None:
        raise Refused("unsupported", "not text in any encoding that could be detected")
    return data.decode(encoding, errors="replace"), encoding


def normalise(text: str) -> str:
    """Line breaks as LF, no trailing spaces, at most one blank line in a row."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def refuse_armor(text: str) -> None:
    """Refuse an ``.asc`` file that is an OpenPGP signature or key (ASCII armor), not an
    AsciiDoc page."""
    if text.lstrip("\ufeff \t\r\n").startswith("-----BEGIN PGP "):
        raise Refused("unsupported", "an OpenPGP signature or key (ASCII armor), no document")
