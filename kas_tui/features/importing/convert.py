"""Turn one source file into Markdown: the conversion step of import and build.

Markdown and plain text are read here directly (UTF-8, else the detected charset);
Markdown keeps its frontmatter, whatever keys it holds. Every other format goes to
MarkItDown, imported only when such a file comes along, and only in the worker
processes of :mod:`kas_tui.features.importing.pool`, where each conversion runs under a time limit
and a file that hangs its converter is killed with its process.

A known format goes to its own MarkItDown converter only (a ``.pdf`` that is not a PDF is
reported as corrupt, not converted as text). Every failure is a
:class:`ConversionError` naming the file and saying why in words: no converter for
the format, too large, too slow, encrypted, corrupt, or no text (a scanned PDF).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kas_tui.core.fileio import open_regular, read_regular, special_kind
from kas_tui.features.importing import charsets
from kas_tui.features.importing.front_matter import toml_front_matter
from kas_tui.features.importing.hugo_shortcodes import PARAM
from kas_tui.features.importing.properties import document_properties
from kas_tui.text.mdx import without_module_code
from kas_tui.text.wording import size_text

#: Default limits; ``kas-tui import``/``build`` take ``--timeout`` and ``--max-size``.
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_OUTPUT = 8 * 1024 * 1024
DEFAULT_MAX_MEMORY = 4 * 1024**3

#: Markdown sources (MDX is Markdown with JSX and ``import`` lines: its frontmatter and
#: text are read as Markdown's; what is JSX stays as written).
MARKDOWN_EXTS = frozenset({".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdx"})
TEXT_EXTS = frozenset({".txt", ".text"})
#: What the author wrote as Markdown, links and all (a notebook's cells are Markdown):
#: its links are rewritten to the package's paths, never dropped.
LINKED_KINDS = frozenset({"markdown", "ipynb"})
#: reStructuredText, a Sphinx site's pages (:mod:`.rst`).
RST_EXTS = frozenset({".rst"})
#: AsciiDoc, an Antora site's pages (:mod:`.asciidoc`).
ASCIIDOC_EXTS = frozenset({".adoc", ".asciidoc"})
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
    ".ipynb": ("ipynb", "IpynbConverter"),
    ".msg": ("msg", "OutlookMsgConverter"),
    ".rss": ("feed", "RssConverter"),
    ".atom": ("feed", "RssConverter"),
}
#: An ``.xml`` file whose root element is one of these is a feed: MarkItDown's
#: ``RssConverter`` makes it a document of its entries, not a code block of raw XML.
_FEED_ROOT = re.compile(
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
    take the machine down with it.
    """

    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    max_output: int = DEFAULT_MAX_OUTPUT
    max_memory: int = DEFAULT_MAX_MEMORY


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
    ``timeout``, ``encrypted``, ``corrupt``, ``no-text``, ``unreadable``, ``crashed``;
    ``message`` is one line naming the file.
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


def sha256_file(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with os.fdopen(open_regular(path), "rb") as handle:  # a pipe or device: never opened
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def needs_markitdown(path: Path) -> bool:
    """Whether converting ``path`` takes MarkItDown (a worker process) or is read here."""
    ext = path.suffix.lower()
    if ext == ".xml":
        return _is_feed(_head(path))
    if ext in MARKDOWN_EXTS or ext in TEXT_EXTS or ext in CODE_EXTS or ext in AUDIO_EXTS:
        return False
    if ext in ASCIIDOC_EXTS:
        return False
    if ext in CONVERTERS:
        return True
    return not _looks_like_text(path)


def _head(path: Path) -> bytes:
    """The first 8 KB of ``path`` (nothing when it cannot be read: reading says why)."""
    try:
        return read_regular(path, limit=8192)
    except OSError:
        return b""


def _is_feed(data: bytes) -> bool:
    """Whether XML ``data`` is an RSS or Atom feed (by its root element)."""
    return _FEED_ROOT.match(data[:8192]) is not None


def _looks_like_text(path: Path) -> bool:
    head = _head(path)
    if not head:
        return False
    if b"\0" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # a character cut at the end of the sample
    return True


def check_size(path: Path, limits: Limits) -> ConversionError | None:
    """A :class:`ConversionError` when ``path`` is not a regular file or is too large."""
    try:
        st = path.stat()
    except OSError as exc:
        return ConversionError(path, "unreadable", f"{path.name}: cannot be read ({_reason(exc)})")
    kind = special_kind(st.st_mode)
    if kind is not None:
        return ConversionError(
            path,
            "unreadable",
            f"{path.name}: a {kind}, not a regular file: never opened; import regular files",
        )
    if not path.is_file():
        return ConversionError(path, "unreadable", f"{path.name}: not a regular file")
    if st.st_size > limits.max_bytes:
        return ConversionError(
            path,
            "too-large",
            f"{path.name}: {size_text(st.st_size)}, over the {size_text(limits.max_bytes)} "
            "size limit (raise it with --max-size)",
        )
    return None


def convert_here(path: Path, limits: Limits) -> Result:
    """Convert ``path`` in this process (no time limit: the pool provides it).

    Never raises for a bad file; returns a :class:`ConversionError` instead.
    """
    started = time.perf_counter()
    path = Path(path)
    problem = check_size(path, limits)
    if problem is not None:
        return problem
    ext = path.suffix.lower()
    if ext in AUDIO_EXTS:
        return ConversionError(
            path,
            "unsupported",
            f"{path.name}: an audio file, and no transcription is available (kas-tui does not "
            "transcribe audio); import a transcript of it instead",
        )
    try:
        data = read_regular(path)
        st = path.stat()
    except OSError as exc:
        return ConversionError(path, "unreadable", f"{path.name}: cannot be read ({_reason(exc)})")
    digest = hashlib.sha256(data).hexdigest()
    try:
        if ext in MARKDOWN_EXTS:
            result = _from_markdown(path, data)
        elif ext in RST_EXTS:
            result = _from_rst(path, data)
        elif ext in ASCIIDOC_EXTS:
            result = _from_asciidoc(path, data)
        elif ext == ".xml" and _is_feed(data):
            result = _from_markitdown(path, data, CONVERTERS[".rss"])
        elif ext in (".yml", ".yaml") and data.lstrip(b"\xef\xbb\xbf").startswith(b"###"):
            result = _from_docfx_yaml(path, data) or _from_text(path, data)
        elif ext in (".html", ".htm") and data.lstrip(b"\xef\xbb\xbf").startswith(_FRONT):
            result = _from_html_page(path, data)
        elif ext in TEXT_EXTS or ext in CODE_EXTS or (ext not in CONVERTERS and _is_text(data)):
            result = _from_text(path, data)
        else:
            result = _from_markitdown(path, data)
    except _Refused as exc:
        return ConversionError(path, exc.reason, f"{path.name}: {exc.message}")
    if isinstance(result, ConversionError):
        return result
    result.sha256, result.size, result.mtime = digest, st.st_size, st.st_mtime
    if len(result.markdown) > limits.max_output:
        return ConversionError(
            path,
            "too-large",
            f"{path.name}: the conversion gave {len(result.markdown):,} characters of Markdown, "
            f"over the {limits.max_output:,} limit",
        )
    if not result.markdown.strip() and not result.frontmatter:
        return ConversionError(path, "no-text", f"{path.name}: {_no_text_reason(ext, data)}")
    result.seconds = time.perf_counter() - started
    return result


class _Refused(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def _reason(exc: OSError) -> str:
    from kas_tui.core.store import os_reason

    return os_reason(exc)


def _is_text(data: bytes) -> bool:
    if b"\0" in data[:65536]:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _decode_text(path: Path, data: bytes) -> tuple[str, str]:
    """The text and the encoding it was read with (:mod:`.charsets`; a BOM dropped)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\0" in data[:65536] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _Refused("unsupported", "binary data (NUL bytes), not text")
    encoding = charsets.encoding_of(data)
    if encoding is None:
        raise _Refused("unsupported", "not text in any encoding that could be detected")
    return data.decode(encoding, errors="replace"), encoding


def _normalise(text: str) -> str:
    """Line breaks as LF, no trailing spaces, at most one blank line in a row."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def _from_markdown(path: Path, data: bytes) -> Converted:
    from kas_tui.core.okf import frontmatter as fm
    from kas_tui.core.okf.errors import FormatError

    text, encoding = _decode_text(path, data)
    text = text.replace("\r\n", "\n")
    opened = text.lstrip("\n")
    above = 0  # lines above the text read
    if opened is not text and opened.startswith("---\n"):  # blank lines above (Biome's)
        with contextlib.suppress(FormatError):  # frontmatter after them: the site reads it
            if isinstance(getattr(fm.parse(opened), "data", None), dict):
                above, text = len(text) - len(opened), opened
    try:
        parsed = fm.parse(text)
    except FormatError as exc:
        where = f" (line {exc.line})" if exc.line else ""
        raise _Refused(
            "corrupt", f"its frontmatter cannot be read{where}: {exc.message}; fix it and retry"
        ) from None
    mdx = path.suffix.lower() == ".mdx"  # its import lines and {/* */} are not shown
    if parsed is None:  # no YAML frontmatter: Hugo's TOML (+++), else none
        front, start = toml_front_matter(text) or (None, 0)
        body = without_module_code(text[start:]) if mdx else text[start:]
        line = above + text.count("\n", 0, start) + 1
        return Converted(
            path, body, "markdown", "", 0, 0.0, frontmatter=front, encoding=encoding, body_line=line
        )
    yaml_text = text[parsed.block.yaml_start : parsed.block.yaml_end]
    body = without_module_code(text[parsed.block.end :]) if mdx else text[parsed.block.end :]
    front = {"frontmatter": parsed.data, "frontmatter_text": yaml_text}
    line = above + text.count("\n", 0, parsed.block.end) + 1
    return Converted(path, body, "markdown", "", 0, 0.0, **front, encoding=encoding, body_line=line)


#: A Hugo shortcode's tag, ``{{< name ... >}}`` or ``{{% name ... %}}`` (or its close).
_SHORTCODE = re.compile(r"\{\{[<%].*?[%>]\}\}", re.S)
#: How a page's front matter opens (YAML's ``---``, Hugo's TOML ``+++``).
_FRONT = (b"---\n", b"---\r\n", b"+++\n", b"+++\r\n")


def _from_html_page(path: Path, data: bytes) -> Converted | ConversionError:
    """A site generator's HTML page (Hugo's ``content/_index.html``, a Jekyll
    ``index.html``): its front matter read as a Markdown page's is (its ``title``
    names the page), the HTML below it converted as a web page is. A page whose front
    matter cannot be read is converted whole, as any web page."""
    from kas_tui.core.okf import frontmatter as fm
    from kas_tui.core.okf.errors import FormatError

    text, _encoding = _decode_text(path, data)
    text = text.replace("\r\n", "\n")
    front: dict[str, Any] | None = None
    start = 0
    toml = toml_front_matter(text)
    if toml is not None:
        front, start = toml
    else:
        with contextlib.suppress(FormatError):
            parsed = fm.parse(text)
            if parsed is not None and isinstance(parsed.data, dict):
                front, start = parsed.data, parsed.block.end
    if front is None:
        return _from_markitdown(path, data)
    # a shortcode's tags are the site's templates, no words (``{{<blocks/cover ...>}}``
    # read as HTML left "{{}}"); a ``param`` call stays, escaped, for the build to print
    html = _SHORTCODE.sub(
        lambda m: (
            m.group(0).replace("<", "&lt;").replace(">", "&gt;")
            if PARAM.fullmatch(m.group(0))
            else ""
        ),
        text[start:],
    )
    result = _from_markitdown(path, html.encode("utf-8"))
    if isinstance(result, Converted):
        result.frontmatter = front
        given = front.get("title")
        if isinstance(given, str) and given.strip():
            result.title = given.strip()
        result.body_line = text.count("\n", 0, start) + 1
    return result


def _from_rst(path: Path, data: bytes) -> Converted:
    """A reStructuredText page (a Sphinx site's) as Markdown: docutils' HTML of it,
    converted as a web page is (:mod:`.rst`); its links stay links, for the build."""
    import io

    from markitdown import StreamInfo

    from kas_tui.features.importing.rst import to_html

    text, encoding = _decode_text(path, data)
    try:
        title, html = to_html(text.replace("\r\n", "\n"), str(path))
    except Exception as exc:  # docutils' own failure on a broken page: said, never raised
        raise _Refused("corrupt", f"its reStructuredText cannot be read ({exc})") from None
    info = StreamInfo(mimetype="text/html", extension=".html", charset="utf-8")
    body = _converter("HtmlConverter").convert(io.BytesIO(html.encode("utf-8")), info)
    markdown = _normalise(body.markdown or "")
    if title:
        markdown = f"# {title}\n\n{markdown}"
    return Converted(path, markdown, "markdown", "", 0, 0.0, title=title or None, encoding=encoding)


def _from_asciidoc(path: Path, data: bytes) -> Converted:
    """An AsciiDoc page alone (an import's): its includes, cross-references and images
    read beside it, never above its folder (a build reads its site: :mod:`.antora`)."""
    from kas_tui.features.importing.antora import LooseSite
    from kas_tui.features.importing.asciidoc import to_markdown

    text, encoding = _decode_text(path, data)
    site = LooseSite.beside(path.parent)
    page = to_markdown(text, path.name, site, site.attributes_for(path.name))
    return asciidoc_converted(path, page, encoding)


def asciidoc_converted(path: Path, page: Any, encoding: str) -> Converted:
    """The :class:`Converted` of an AsciiDoc page read (:class:`.asciidoc.AdocPage`)."""
    front, keywords = page.metadata()
    result = Converted(path, page.markdown, "markdown", "", 0, 0.0, frontmatter=front or None)
    result.title, result.encoding = page.title, encoding
    result.properties.update({"keywords": keywords} if keywords else {})
    return result


def _from_docfx_yaml(path: Path, data: bytes) -> Converted | None:
    """A docfx structured YAML page (``### YamlMime:FAQ``...) as the Markdown page the
    site renders (:mod:`.docfx_yaml`); ``None`` when it is plain YAML."""
    from kas_tui.features.importing.docfx_yaml import docfx_page

    text, encoding = _decode_text(path, data)
    page = docfx_page(text.replace("\r\n", "\n"))
    if page is None:
        return None
    front, body = page
    return Converted(path, body, "markdown", "", 0, 0.0, frontmatter=front, encoding=encoding)


def _from_text(path: Path, data: bytes) -> Converted:
    import textwrap

    text, encoding = _decode_text(path, data)
    text = _normalise(textwrap.dedent(text.replace("\r\n", "\n")))
    lang = CODE_EXTS.get(path.suffix.lower())
    if lang:
        fence = "````" if "```" in text else "```"
        text = f"{fence}{lang}\n{text}{fence}\n"
    return Converted(path, text, "code" if lang else "text", "", 0, 0.0, encoding=encoding)


# --- MarkItDown ------------------------------------------------------------------------------

_INSTANCES: dict[str, Any] = {}


def _converter(name: str | None) -> Any:
    """MarkItDown's converter class ``name`` (one per worker), or a whole MarkItDown for
    ``None`` (a format known only by its content: MarkItDown guesses with Magika)."""
    key = name or "*"
    if key not in _INSTANCES:
        if name is None:
            from markitdown import MarkItDown

            _INSTANCES[key] = MarkItDown(enable_plugins=False)
        else:
            from markitdown import converters

            _INSTANCES[key] = getattr(converters, name)()
    return _INSTANCES[key]


def _charset(ext: str, data: bytes) -> str | None:
    """The text encoding of a web page or CSV (others: ``None``, the converter's own)."""
    if ext not in (".html", ".htm", ".xhtml", ".csv"):
        return None
    return charsets.encoding_of(data, ext)


def _precheck(path: Path, ext: str, data: bytes) -> None:
    """Refuse files whose bytes are not what their extension says, before converting."""
    if ext in _LEGACY:
        raise _Refused(
            "unsupported", f"{_LEGACY[ext]} is not supported; save it as {ext}x and import that"
        )
    if ext in (".docx", ".pptx", ".xlsx") and data.startswith(_OLE_MAGIC):
        raise _Refused(
            "encrypted",
            "password-protected (encrypted Office files are not zip archives) or saved in the "
            "old binary format; remove the password or re-save it and import again",
        )
    if ext in _ZIP_PARTS:
        part, what = _ZIP_PARTS[ext]
        try:
            import io

            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, OSError, ValueError):
            raise _Refused("corrupt", f"corrupt: not {what} (not a valid zip archive)") from None
        if part not in names:
            raise _Refused("corrupt", f"corrupt: not {what} (it has no {part})")
    if ext == ".pdf" and b"%PDF-" not in data[:1024]:
        raise _Refused("corrupt", "corrupt: not a PDF (no %PDF- header)")


def _from_markitdown(
    path: Path, data: bytes, route: tuple[str, str] | None = None
) -> Converted | ConversionError:
    """Convert with MarkItDown: with ``route`` (kind, converter class), or the extension's."""
    ext = path.suffix.lower()
    _precheck(path, ext, data)
    kind, converter = route or CONVERTERS.get(ext, ("file", None))
    try:
        from markitdown import (
            FileConversionException,
            MissingDependencyException,
            UnsupportedFormatException,
        )
    except ImportError as exc:  # pragma: no cover - markitdown is a dependency
        raise _Refused("missing-dependency", f"MarkItDown cannot be imported ({exc})") from None
    charset = _charset(ext, data) if converter is not None else None
    try:
        if converter is None:
            result = _converter(None).convert_local(str(path))
        else:
            # straight to the format's converter: MarkItDown would otherwise fall back
            # to reading a broken file as plain text, and guess the format with Magika
            # for every file (a tenth of a second each)
            import io
            import mimetypes

            from markitdown import StreamInfo

            info = StreamInfo(
                mimetype=mimetypes.guess_type(path.name)[0],
                extension=ext,
                charset=charset,
                filename=path.name,
                local_path=str(path),
            )
            result = _converter(converter).convert(io.BytesIO(data), info)
    except UnsupportedFormatException:
        what = f"{ext} files" if ext else "files without an extension"
        raise _Refused(
            "unsupported", f"no converter understands this file ({what}: format not supported)"
        ) from None
    except MissingDependencyException as exc:
        raise _Refused("missing-dependency", _dependency_message(str(exc))) from None
    except MemoryError:
        raise  # the worker's memory cap: reported as such by the pool
    except FileConversionException as exc:
        if _out_of_memory(exc):
            raise MemoryError from None
        raise _classify(path, ext, data, exc) from None
    except Exception as exc:  # a converter's own bug: report it, never stop the batch
        raise _classify(path, ext, data, exc) from None
    markdown = _normalise(result.markdown or "")
    if "\0" in markdown:  # a binary file read as text (a gettext .mo): never written out
        raise _Refused("unsupported", "binary data (NUL bytes), not a document")
    if b"%PDF-" in data[:1024] and markdown.startswith("%PDF-"):
        raise _Refused("corrupt", "corrupt: the PDF could not be parsed")
    if markdown.count("\ufffd") > max(20, len(markdown) // 100):
        raise _Refused("corrupt", "the conversion gave unreadable text (binary data)")
    return Converted(
        path,
        markdown,
        kind,
        "",
        0,
        0.0,
        title=(result.title or "").strip() or None,
        properties=document_properties(ext, data),
        encoding=charset,
    )


def _dependency_message(text: str) -> str:
    match = re.search(r"pip install ['\"]?(markitdown\[[\w,-]+\])", text)
    extra = f" (pip install '{match.group(1)}')" if match else ""
    return f"MarkItDown needs an optional dependency for this format that is not installed{extra}"


def _root_cause(exc: BaseException) -> BaseException:
    attempts = getattr(exc, "attempts", None) or []
    for attempt in attempts:
        info = getattr(attempt, "exc_info", None)
        if info and info[1] is not None:
            return info[1]
    return exc


def _out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` (MarkItDown wraps what its converters raise) is a MemoryError."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, MemoryError):
            return True
        seen = seen.__cause__ or seen.__context__
    return "MemoryError" in str(exc)


def _classify(path: Path, ext: str, data: bytes, exc: BaseException) -> _Refused:
    cause = _root_cause(exc)
    name = type(cause).__name__
    text = str(cause).strip().splitlines()[0] if str(cause).strip() else name
    from markitdown import MissingDependencyException

    if isinstance(cause, MissingDependencyException):
        return _Refused("missing-dependency", _dependency_message(str(cause)))
    lowered = f"{name} {text}".lower()
    if "password" in lowered or "encrypt" in lowered or (ext == ".pdf" and b"/Encrypt" in data):
        return _Refused("encrypted", "encrypted (password-protected); remove the password first")
    if len(text) > 160:
        text = text[:157] + "..."
    return _Refused("corrupt", f"corrupt or unreadable ({name}: {text})")


def _no_text_reason(ext: str, data: bytes) -> str:
    if ext == ".pdf":
        if b"/Encrypt" in data:
            return "encrypted (password-protected); no text could be read"
        return "no text could be extracted: a scanned PDF (images only)? Run OCR on it first"
    if ext in (".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".bmp"):
        return "an image holds no text to import"
    if not data.strip():
        return "the file is empty or only blank"
    return "no text could be read from it: a format kas-tui does not convert?"


def default_workers() -> int:
    """Worker processes for conversions: one per CPU this process may use, at most 8."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    return max(1, min(8, count))
