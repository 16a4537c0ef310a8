"""Document properties a converted file carries: an Office file's or a PDF's title,
subject, keywords and author, a web page's own address. Read in the conversion workers.
"""

from __future__ import annotations

import re
import zipfile

_CORE_FIELDS = {"title": "title", "subject": "subject", "keywords": "keywords", "creator": "author"}


def document_properties(ext: str, data: bytes) -> dict[str, str]:
    """Title, subject, keywords and author from an Office file's or a PDF's metadata."""
    try:
        if ext in (".docx", ".pptx", ".xlsx"):
            return _ooxml_properties(data)
        if ext == ".pdf":
            return _pdf_properties(data)
        if ext in (".html", ".htm", ".xhtml"):
            return _html_properties(data)
    except Exception:  # metadata is a bonus: never fail a conversion over it
        return {}
    return {}


def _ooxml_properties(data: bytes) -> dict[str, str]:
    import io
    from xml.etree import ElementTree

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        if "docProps/core.xml" not in archive.namelist():
            return {}
        root = ElementTree.fromstring(archive.read("docProps/core.xml"))
    out: dict[str, str] = {}
    for element in root:
        local = element.tag.rsplit("}", 1)[-1]
        if local in _CORE_FIELDS and element.text and element.text.strip():
            out[_CORE_FIELDS[local]] = " ".join(element.text.split())
    return out


def _pdf_properties(data: bytes) -> dict[str, str]:
    import io

    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser

    document = PDFDocument(PDFParser(io.BytesIO(data)))
    out: dict[str, str] = {}
    for info in document.info[:1]:
        for key, name in (
            ("Title", "title"),
            ("Subject", "subject"),
            ("Keywords", "keywords"),
            ("Author", "author"),
        ):
            value = info.get(key)
            if hasattr(value, "resolve"):
                value = value.resolve()
            if isinstance(value, bytes):
                value = _pdf_string(value)
            if isinstance(value, str) and value.strip():
                out[name] = " ".join(value.split())
    return out


_HTML_URL = re.compile(
    rb"""<(?:link[^>]*rel=["']canonical["'][^>]*href|meta[^>]*property=["']og:url["'][^>]*content|base[^>]*href)=["'](https?://[^"'<>\s]+)["']""",
    re.I,
)


def _html_properties(data: bytes) -> dict[str, str]:
    """The page's own address (canonical link, og:url or base), for its relative links."""
    match = _HTML_URL.search(data[:200_000])
    return {"url": match.group(1).decode("ascii", "replace")} if match else {}


def _pdf_string(raw: bytes) -> str:
    if raw.startswith((b"\xfe\xff", b"\xff\xfe")):
        return raw.decode("utf-16", "replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")
