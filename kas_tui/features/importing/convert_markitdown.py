"""A file handed to MarkItDown, imported only when such a file comes along (in the
worker processes of :mod:`.pool`, each conversion under a time limit): a known format
to its own converter only (a ``.pdf`` that is not a PDF is reported as corrupt, not
converted as text), every failure said in words."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from kas_tui.features.importing import charsets
from kas_tui.features.importing.convert_model import (
    _LEGACY,
    _OLE_MAGIC,
    _ZIP_PARTS,
    CONVERTERS,
    ConversionError,
    Converted,
    Refused,
    normalise,
)
from kas_tui.features.importing.properties import document_properties
from kas_tui.text.wording import counted

_INSTANCES: dict[str, Any] = {}


def markitdown_converter(name: str | None) -> Any:
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
    if ext not in (".html", ".htm", ".xhtml", ".csv", ".tsv"):
        return None
    return charsets.encoding_of(data, ext)


def _tsv_as_csv(data: bytes, charset: str) -> bytes:
    """A tab-separated file's rows written as CSV (quotes kept as written: a TSV cell
    is never quoted), for MarkItDown's CSV converter."""
    import csv
    import io

    text = data.decode(charset, errors="replace").lstrip("\ufeff")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for line in text.splitlines():
        writer.writerow(line.split("\t") if line.strip() else [])
    return out.getvalue().encode("utf-8")


def _precheck(path: Path, ext: str, data: bytes) -> None:
    """Refuse files whose bytes are not what their extension says, before converting."""
    if ext in _LEGACY:
        raise Refused(
            "unsupported", f"{_LEGACY[ext]} is not supported; save it as {ext}x and import that"
        )
    if ext in (".docx", ".pptx", ".xlsx") and data.startswith(_OLE_MAGIC):
        raise Refused(
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
            raise Refused("corrupt", f"corrupt: not {what} (not a valid zip archive)") from None
        if part not in names:
            raise Refused("corrupt", f"corrupt: not {what} (it has no {part})")
    if ext == ".pdf" and b"%PDF-" not in data[:1024]:
        raise Refused("corrupt", "corrupt: not a PDF (no %PDF- header)")


def from_markitdown(
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
        raise Refused("missing-dependency", f"MarkItDown cannot be imported ({exc})") from None
    charset = _charset(ext, data) if converter is not None else None
    if ext == ".tsv":  # MarkItDown's table of a CSV, its cells cut at tabs
        data, charset = _tsv_as_csv(data, charset or "utf-8"), "utf-8"
    try:
        if converter is None:
            result = markitdown_converter(None).convert_local(str(path))
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
            result = markitdown_converter(converter).convert(io.BytesIO(data), info)
    except UnsupportedFormatException:
        what = f"{ext} files" if ext else "files without an extension"
        raise Refused(
            "unsupported", f"no converter understands this file ({what}: format not supported)"
        ) from None
    except MissingDependencyException as exc:
        raise Refused("missing-dependency", _dependency_message(str(exc))) from None
    except MemoryError:
        raise  # the worker's memory cap: reported as such by the pool
    except FileConversionException as exc:
        if _out_of_memory(exc):
            raise MemoryError from None
        raise _classify(path, ext, data, exc) from None
    except Exception as exc:  # a converter's own bug: report it, never stop the batch
        raise _classify(path, ext, data, exc) from None
    markdown = normalise(result.markdown or "")
    if converter is None and str(path) in markdown:  # "Content from the zip file /home/..."
        markdown = markdown.replace(str(path), path.name)  # never the machine's own paths
    if "\0" in markdown:  # a binary file read as text (a gettext .mo): never written out
        raise Refused("unsupported", "binary data (NUL bytes), not a document")
    if b"%PDF-" in data[:1024] and markdown.startswith("%PDF-"):
        raise Refused("corrupt", "corrupt: the PDF could not be parsed")
    if markdown.count("\ufffd") > max(20, len(markdown) // 100):
        raise Refused("corrupt", "the conversion gave unreadable text (binary data)")
    markdown, glyphs = without_glyph_placeholders(markdown)
    converted = Converted(
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
    if glyphs:
        converted.notes.append(
            f"{counted(glyphs, 'character')} its fonts map to no letter ((cid:N)) left out; "
            "the text around them may be wrong too: check it against the file"
        )
    return converted


#: pdfminer's placeholder for a glyph with no character: ``(cid:2)``.
_CID = re.compile(r"\(cid:\d+\)")


def without_glyph_placeholders(markdown: str) -> tuple[str, int]:
    """``markdown`` (a PDF's text) without pdfminer's ``(cid:N)`` placeholders for a
    font's glyphs that map to no character, and how many there were."""
    if "(cid:" not in markdown:
        return markdown, 0
    return _CID.subn("", markdown)


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


def _classify(path: Path, ext: str, data: bytes, exc: BaseException) -> Refused:
    cause = _root_cause(exc)
    name = type(cause).__name__
    text = str(cause).strip().splitlines()[0] if str(cause).strip() else name
    from markitdown import MissingDependencyException

    if isinstance(cause, MissingDependencyException):
        return Refused("missing-dependency", _dependency_message(str(cause)))
    lowered = f"{name} {text}".lower()
    if "password" in lowered or "encrypt" in lowered or (ext == ".pdf" and b"/Encrypt" in data):
        return Refused("encrypted", "encrypted (password-protected); remove the password first")
    if len(text) > 160:
        text = text[:157] + "..."
    return Refused("corrupt", f"corrupt or unreadable ({name}: {text})")


def no_text_reason(ext: str, data: bytes) -> str:
    if ext == ".pdf":
        if b"/Encrypt" in data:
            return "encrypted (password-protected); no text could be read"
        return "no text could be extracted: a scanned PDF (images only)? Run OCR on it first"
    if ext in (".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".bmp"):
        return "an image holds no text to import"
    if not data.strip():
        return "the file is empty or only blank"
    if ext == ".ipynb":
        return "a notebook whose cells hold no text"
    if ext in (".html", ".htm", ".xhtml"):
        return "a web page with no text (a template, or a page its scripts fill in)"
    if ext in (".docx", ".pptx", ".xlsx", ".epub", ".csv", ".json", ".xml"):
        return f"its {ext[1:].upper()} content holds no text"
    return "no text could be read from it: a format kas-tui does not convert?"
