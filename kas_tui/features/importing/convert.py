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
import textwrap
import time
from pathlib import Path
from typing import Any

from kas_tui.core.fileio import open_regular, read_regular, special_kind
from kas_tui.core.okf.text import body_controls, dropped_controls
from kas_tui.features.importing.convert_markitdown import (
    from_markitdown,
    markitdown_converter,
    no_text_reason,
)
from kas_tui.features.importing.convert_model import (
    ASCIIDOC_EXTS,
    AUDIO_EXTS,
    CODE_EXTS,
    CONVERTERS,
    FEED_ROOT,
    MARKDOWN_EXTS,
    ORG_EXTS,
    RST_EXTS,
    SHOWS_NOTHING,
    TEXT_EXTS,
    TIDDLER_EXTS,
    ConversionError,
    Converted,
    Limits,
    Refused,
    Result,
    decode_text,
    is_text,
    normalise,
    os_reason_of,
    refuse_armor,
)
from kas_tui.features.importing.front_matter import toml_front_matter
from kas_tui.features.importing.home_page import home_body
from kas_tui.features.importing.hugo_shortcodes import PARAM
from kas_tui.features.importing.logseq import as_frontmatter, page_name, page_properties
from kas_tui.features.importing.mdx_components import component_imports
from kas_tui.text.mdx import (
    imports_modules,
    without_component_tags,
    without_module_code,
    without_page_code,
)
from kas_tui.text.wording import size_text


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
    if ext in CONVERTERS or (not ext and _is_html(path, _head(path))):
        return True
    return not _looks_like_text(path)


def _head(path: Path) -> bytes:
    """The first 8 KB of ``path`` (nothing when it cannot be read: reading says why)."""
    try:
        return read_regular(path, limit=8192)
    except OSError:
        return b""


#: A web page saved without an extension (an exported wiki's pages named by a hash).
_HTML_START = re.compile(
    rb"(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)[\s>]", re.I | re.S
)


def _is_html(path: Path, data: bytes) -> bool:
    """Whether ``data``, a file without an extension, is a web page."""
    return not path.suffix and _HTML_START.match(data[:8192]) is not None


def _is_feed(data: bytes) -> bool:
    """Whether XML ``data`` is an RSS or Atom feed (by its root element)."""
    return FEED_ROOT.match(data[:8192]) is not None


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
        return ConversionError(
            path, "unreadable", f"{path.name}: cannot be read ({os_reason_of(exc)})"
        )
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
        return ConversionError(
            path, "unreadable", f"{path.name}: cannot be read ({os_reason_of(exc)})"
        )
    digest = hashlib.sha256(data).hexdigest()
    try:
        rst = ext in RST_EXTS or _rst_here(path, limits)
        if ext in MARKDOWN_EXTS:
            result = _from_markdown(path, data)
        elif rst:
            result = _from_rst(path, data, limits)
        elif ext in ASCIIDOC_EXTS:
            result = _from_asciidoc(path, data)
        elif ext in TIDDLER_EXTS:  # TiddlyWiki's
            result = _from_tiddler(path, data)
        elif ext in ORG_EXTS:  # Emacs' Org-mode
            result = _from_org(path, data)
        elif _is_html(path, data):  # a web page saved without its .html
            result = from_markitdown(path, data, CONVERTERS[".html"])
        elif ext == ".xml" and _is_feed(data):
            result = from_markitdown(path, data, CONVERTERS[".rss"])
        elif ext in (".yml", ".yaml") and data.lstrip(b"\xef\xbb\xbf").startswith(b"###"):
            result = _from_docfx_yaml(path, data) or _from_text(path, data)
        elif ext in (".html", ".htm") and data.lstrip(b"\xef\xbb\xbf").startswith(_FRONT):
            result = _from_html_page(path, data)
        elif ext in TEXT_EXTS or ext in CODE_EXTS or (ext not in CONVERTERS and is_text(data)):
            result = _from_text(path, data)
        else:
            result = from_markitdown(path, data)
    except Refused as exc:
        return ConversionError(path, exc.reason, f"{path.name}: {exc.message}")
    except MemoryError:
        raise  # a worker's memory cap: the pool says so
    except Exception as exc:  # a reader's own bug: this file fails, never the whole run
        return ConversionError(
            path, "crashed", f"{path.name}: the converter failed ({type(exc).__name__}: {exc})"
        )
    if isinstance(result, ConversionError):
        return result
    without_control_characters(result)
    result.sha256, result.size, result.mtime = digest, st.st_size, st.st_mtime
    if len(result.markdown) > limits.max_output:
        return ConversionError(
            path,
            "too-large",
            f"{path.name}: the conversion gave {len(result.markdown):,} characters of Markdown, "
            f"over the {limits.max_output:,} limit",
        )
    if not result.markdown.strip() and not result.frontmatter:
        why = no_text_reason(".html" if _is_html(path, data) else ext, data)
        if ext in MARKDOWN_EXTS and data.strip():  # frontmatter alone (a note's template)
            why = "no text beyond its frontmatter, which says nothing"
        elif rst and data.strip():  # sqlalchemy's `:orphan:` page of doctest comments
            return ConversionError(
                path,
                SHOWS_NOTHING,
                f"{path.name}: its reStructuredText shows no text (comments, fields such as "
                "`:orphan:`, directives that show nothing): an empty page on its site; skipped",
            )
        return ConversionError(path, "no-text", f"{path.name}: {why}")
    result.seconds = time.perf_counter() - started
    return result


def _rst_here(path: Path, limits: Limits) -> bool:
    """Whether a build reads ``path`` as reStructuredText though its suffix is not
    ``.rst`` (:class:`.RstPages`: Django's ``.txt`` pages below its ``conf.py``)."""
    if not limits.rst_pages.more or not limits.include_root:
        return False
    rel = os.path.relpath(os.path.abspath(path), limits.include_root)
    return not rel.startswith("..") and limits.rst_pages.holds(rel.replace(os.sep, "/"))


def without_control_characters(result: Converted) -> None:
    """``result``'s text without a terminal's control characters (a PDF's form feeds
    are paragraph breaks), those dropped said in its notes."""
    dropped = dropped_controls(result.markdown)
    result.markdown = body_controls(result.markdown)
    if dropped:
        result.notes.append(
            f"its text held control characters ({dropped}): a terminal's codes, no text; those "
            "characters are left out of the page, the rest of it is kept"
        )


def _from_markdown(path: Path, data: bytes) -> Converted:
    from kas_tui.core.okf import frontmatter as fm
    from kas_tui.core.okf.errors import FormatError

    text, encoding = decode_text(path, data)
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # a lone CR ends a line too
    opened = text.lstrip("\n")
    above = 0  # lines above the text read
    if opened is not text and opened.startswith("---\n"):  # blank lines above (Biome's)
        with contextlib.suppress(FormatError):  # frontmatter after them: the site reads it
            if isinstance(getattr(fm.parse(opened), "data", None), dict):
                above, text = len(text) - len(opened), opened
    mdx = path.suffix.lower() == ".mdx"  # its import lines and {/* */} are not shown
    try:
        parsed = fm.parse(text)
    except FormatError as exc:
        # the page is kept, as the site shows it, without what its frontmatter says
        # (PowerShell-Docs' ForEach-Object.md lists the alias "- %", which YAML refuses)
        try:
            block = fm.find_block(text)
        except FormatError:  # never closed: a site shows every line as text, --- a rule
            return Converted(
                path,
                _shown_text(mdx, text),
                "markdown",
                "",
                0,
                0.0,
                encoding=encoding,
                body_line=above + 1,
                notes=[
                    f"line {above + 1}: the --- that opens its frontmatter is never closed: "
                    "converted as text, the --- a rule; add a line holding only --- after the "
                    "last field to keep what the frontmatter says"
                ],
            )
        if block is None:
            where = f" (line {exc.line})" if exc.line else ""
            raise Refused(
                "corrupt", f"its frontmatter cannot be read{where}: {exc.message}; fix it and retry"
            ) from None
        where = f"line {above + exc.line}: " if exc.line else ""
        body = _shown_text(mdx, text[block.end :])
        if not body.strip():  # a note's template ({{date}} fields): nothing else to keep
            raise Refused(
                "no-text",
                f"no text beyond its frontmatter, which cannot be read ({where}{exc.message}); "
                "fix the YAML, or leave the file out",
            ) from None
        line = above + text.count("\n", 0, block.end) + 1
        # its title: line as the site's loader reads it (svelte's "title: {#if ...}")
        titled = _TITLE_LINE.search(text[block.yaml_start : block.yaml_end])
        title = titled.group(1).strip().strip("'\"").strip() if titled else ""
        note = (
            f"its frontmatter cannot be read ({where}{exc.message}): converted without it, so "
            f"its {'description comes' if title else 'title and description come'} from its "
            f"text{f' (its title from its title: line, {title})' if title else ''}; fix the "
            "YAML to keep what it says"
        )
        return Converted(
            path,
            body,
            "markdown",
            "",
            0,
            0.0,
            title=title or None,
            encoding=encoding,
            body_line=line,
            notes=[note],
        )
    if parsed is None:  # no YAML frontmatter: Hugo's TOML (+++), Logseq's properties
        front, start = toml_front_matter(text) or (None, 0)
        properties, after = page_properties(text) if front is None else ({}, 0)
        if properties:
            front, start = as_frontmatter(properties, page_name(path.stem)), after
        body = _shown_text(mdx, text[start:])
        line = above + text.count("\n", 0, start) + 1
        return Converted(
            path, body, "markdown", "", 0, 0.0, frontmatter=front, encoding=encoding, body_line=line
        )
    yaml_text = _flush_left(text[parsed.block.yaml_start : parsed.block.yaml_end], parsed.data)
    body = _shown_text(mdx, text[parsed.block.end :])
    if isinstance(parsed.data, dict):  # a home page the theme draws from its hero alone
        body = home_body(parsed.data, body) or body
    front = {"frontmatter": parsed.data, "frontmatter_text": yaml_text}
    line = above + text.count("\n", 0, parsed.block.end) + 1
    return Converted(path, body, "markdown", "", 0, 0.0, **front, encoding=encoding, body_line=line)


#: A front matter's ``title:`` line, read alone where the YAML around it cannot be.
_TITLE_LINE = re.compile(r"^title:[ \t]*(\S[^\n]*?)[ \t]*$", re.MULTILINE)


def _shown_text(mdx: bool, body: str) -> str:
    """A Markdown page's ``body`` as its site shows it: without the code it runs
    (:func:`.without_module_code` of an MDX page, :func:`.without_page_code` of another)
    and, in MDX (an ``.mdx`` page, or one importing modules, as Docusaurus reads every
    page), with its components' tags as what they draw (:func:`.without_component_tags`),
    but the tags of the Markdown files it imports, which the build shows there."""
    shown = without_module_code(body) if mdx else without_page_code(body)
    if not mdx and not imports_modules(body):  # Markdown, not JSX: a capitalised tag is
        return shown  # an XML example's (<AutoDiscoverSMTPAddress>), in code or not
    return without_component_tags(shown, frozenset(component_imports(body)))


def _flush_left(yaml_text: str, data: object) -> str:
    """Frontmatter whose every line is indented alike (Prometheus' blog writes
    `` title: ...`` under ``---``) as the same mapping at the margin, where the keys a
    build adds go: beside indented keys they made YAML no parser reads, and the page
    failed. Any other ``yaml_text`` as it is."""
    from kas_tui.core.okf import frontmatter as fm
    from kas_tui.core.okf.errors import FormatError

    lines = [line for line in yaml_text.splitlines() if line.strip()]
    if not isinstance(data, dict) or not lines or not all(line[:1] == " " for line in lines):
        return yaml_text  # at the margin already: kept to the byte
    flush = textwrap.dedent(yaml_text)
    try:
        again = fm.parse(f"---\n{flush}---\n")
    except FormatError:
        return yaml_text
    return flush if again is not None and again.data == data else yaml_text


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

    text, _encoding = decode_text(path, data)
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
        return from_markitdown(path, data)
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
    if html.strip():
        result = from_markitdown(path, html.encode("utf-8"))
    else:  # front matter alone (a redirect): nothing for MarkItDown, whose HTML reader
        # logged "Some characters could not be decoded" to the terminal for no bytes
        result = Converted(path, "", CONVERTERS[path.suffix.lower()][0], "", 0, 0.0)
    if isinstance(result, Converted):
        result.frontmatter = front
        given = front.get("title")
        if isinstance(given, str) and given.strip():
            result.title = given.strip()
        result.body_line = text.count("\n", 0, start) + 1
    return result


def _from_rst(path: Path, data: bytes, limits: Limits) -> Converted:
    """A reStructuredText page (a Sphinx site's) as Markdown: docutils' HTML of it,
    converted as a web page is (:mod:`.rst`); its links stay links, for the build; the
    files it includes read from ``limits.include_root`` (none without one)."""
    text, encoding = decode_text(path, data)
    try:
        title, markdown, notes, _module = _rst_markdown(text, path, limits, fragment=False)
    except Exception as exc:  # docutils' own failure on a broken page: said, never raised
        raise Refused("corrupt", f"its reStructuredText cannot be read ({exc})") from None
    if title:
        markdown = f"# {title}\n\n{markdown}"
    return Converted(
        path, markdown, "markdown", "", 0, 0.0, title=title or None, encoding=encoding, notes=notes
    )


def rst_fragment(
    text: str, path: Path, limits: Limits, module: str = ""
) -> tuple[str, list[str], str]:
    """A Markdown page's reStructuredText (MyST's ```` ```{eval-rst} ```` block) as
    Markdown, read as a Sphinx page's is (autodoc from the source's code, its roles),
    its notes ("line 2: .. autoclass:: X is not shown: ..."), by the block's line, and
    the current module it leaves (``module``: the one it starts in). Raises what
    docutils raises on text it cannot read."""
    before = f".. currentmodule:: {module}\n\n" if module else ""
    _title, markdown, notes, left = _rst_markdown(before + text, path, limits, fragment=True)
    if before:  # its lines are the block's own
        notes = [
            _LINE.sub(lambda m: f"line {max(1, int(m.group(1)) - 2)}", n, count=1) for n in notes
        ]
    return markdown, notes, left if left else module


#: A note's line number ("line 12: ..."), at its start, when it is the text's own line.
_LINE = re.compile(r"^line (\d+)(?=:)")


def _rst_markdown(
    text: str, path: Path, limits: Limits, *, fragment: bool
) -> tuple[str, str, list[str], str]:
    """(title, Markdown, notes, the current module it leaves) of reStructuredText
    ``text`` read as the file ``path``:
    docutils' HTML of it, converted as a web page is (:mod:`.rst`); the files it
    includes and the code autodoc reads from ``limits.include_root`` (none without one)."""
    import io

    from markitdown import StreamInfo

    from kas_tui.features.importing.rst import to_html
    from kas_tui.features.importing.rst_html import pre_language
    from kas_tui.features.importing.rst_includes import IncludeReader

    root = limits.include_root
    includes = (
        IncludeReader(root, limits.max_bytes, limits.rst_pages, own_pages=limits.own_pages)
        if root
        else None
    )
    title, html = to_html(
        text.replace("\r\n", "\n"),
        os.path.abspath(path),
        includes,
        limits.rst_reading,
        fragment=fragment,
    )
    markdown = ""
    if html.strip():  # a title and a toctree only: no HTML, nothing for MarkItDown (whose
        # HTML reader, handed no bytes, wrote "Some characters could not be decoded")
        info = StreamInfo(mimetype="text/html", extension=".html", charset="utf-8")
        data = io.BytesIO(html.encode("utf-8"))
        converter = markitdown_converter("HtmlConverter")  # code blocks keep their language
        converted = converter.convert(data, info, code_language_callback=pre_language)
        markdown = normalise(converted.markdown or "")
    if includes is None:
        return title, markdown, [], ""
    return title, markdown, includes.problems, includes.module


def _from_asciidoc(path: Path, data: bytes) -> Converted:
    """An AsciiDoc page alone (an import's): its includes, cross-references and images
    read beside it, never above its folder (a build reads its site: :mod:`.antora`)."""
    from kas_tui.features.importing.antora import LooseSite
    from kas_tui.features.importing.asciidoc import to_markdown

    text, encoding = decode_text(path, data)
    refuse_armor(text)
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

    text, encoding = decode_text(path, data)
    page = docfx_page(text.replace("\r\n", "\n"))
    if page is None:
        return None
    front, body = page
    return Converted(path, body, "markdown", "", 0, 0.0, frontmatter=front, encoding=encoding)


def _from_tiddler(path: Path, data: bytes) -> Converted:
    """A TiddlyWiki tiddler (:mod:`.tiddlywiki`): its fields the frontmatter, its
    wikitext as Markdown; a ``.tid`` file with no ``title`` field is text."""
    from kas_tui.features.importing.tiddlywiki import read_tiddler

    text, encoding = decode_text(path, data)
    found = read_tiddler(text.replace("\r\n", "\n"))
    if found is None:
        return _from_text(path, data)
    fields, body = found
    if fields["title"] != path.stem:  # wikilinks name a tiddler by its title
        fields["aliases"] = [fields["title"]]
    return Converted(path, body, "markdown", "", 0, 0.0, frontmatter=fields, encoding=encoding)


def _from_org(path: Path, data: bytes) -> Converted:
    """An Org-mode file (:mod:`.orgmode`): its keywords the frontmatter, as Markdown."""
    from kas_tui.features.importing.orgmode import read_org

    text, encoding = decode_text(path, data)
    front, body = read_org(text.replace("\r\n", "\n"))
    return Converted(
        path, body, "markdown", "", 0, 0.0, frontmatter=front or None, encoding=encoding
    )


def _from_text(path: Path, data: bytes) -> Converted:
    import textwrap

    text, encoding = decode_text(path, data)
    text = normalise(textwrap.dedent(text.replace("\r\n", "\n")))
    lang = CODE_EXTS.get(path.suffix.lower())
    if lang:
        fence = "````" if "```" in text else "```"
        text = f"{fence}{lang}\n{text}{fence}\n"
    return Converted(path, text, "code" if lang else "text", "", 0, 0.0, encoding=encoding)


# --- MarkItDown ------------------------------------------------------------------------------


def default_workers() -> int:
    """Worker processes for conversions: one per CPU this process may use, at most 8."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    return max(1, min(8, count))
