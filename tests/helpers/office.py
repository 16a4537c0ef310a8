"""Files made for import tests: a Word document from its parts (in memory or on disk),
and an inbox holding one file of each kind."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def docx_bytes(paragraphs: list[tuple[str, str]], *, title: str = "", keywords: str = "") -> bytes:
    """A Word document: (style, text) paragraphs, style '' or 'Heading1'/'Heading2'."""

    def paragraph(style: str, text: str) -> str:
        props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
        return f'<w:p>{props}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'

    body = "".join(paragraph(style, text) for style, text in paragraphs)
    styles = "".join(
        f'<w:style w:type="paragraph" w:styleId="Heading{n}"><w:name w:val="heading {n}"/></w:style>'
        for n in (1, 2)
    )
    parts = {
        "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>',
        "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>',
        "word/_rels/document.xml.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
        "word/styles.xml": f'<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="{_W}">{styles}</w:styles>',
        "word/document.xml": f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{_W}"><w:body>{body}</w:body></w:document>',
        "docProps/core.xml": '<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f"<dc:title>{title}</dc:title><cp:keywords>{keywords}</cp:keywords><dc:creator>Maria Chen</dc:creator></cp:coreProperties>",
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return buffer.getvalue()


# --- files of each kind ------------------------------------------------------------------------

HTML = """<html><head><title>Refund FAQ for enterprise customers</title></head><body>
<h1>Refund FAQ</h1>
<p>Enterprise customers can request a prorated refund within 30 days of renewal when the
service level was missed.</p>
<h2>How to ask</h2>
<p>Open a ticket with the billing team and attach the invoice number.</p>
</body></html>
"""
CSV = "plan,price,seats\nStarter,10,5\nTeam,49,25\nEnterprise,199,500\n"
TXT = (
    "Chargebacks\n\nA chargeback happens when a customer disputes a card payment with their "
    "bank. Respond within seven days with the invoice and the usage logs.\n"
)


def make_docx(path: Path, paragraphs: list[str]) -> Path:
    """A minimal Word document: the three parts a DOCX reader needs."""
    types = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
    )
    rels = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/officeDocument" Target="word/document.xml"/></Relationships>'
    )
    body = "".join(
        f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>' for text in paragraphs
    )
    document = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:document xmlns:w="{_W}"><w:body>{body}</w:body></w:document>'
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", types)
        archive.writestr("_rels/.rels", rels)
        archive.writestr("word/document.xml", document)
    return path


def make_inbox(tmp_path: Path) -> Path:
    """``tmp_path/inbox`` holding one file of each kind the import wizard meets: a web
    page, a CSV, a text, a PDF that is none, a Word document, a binary."""
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "refund-faq.html").write_text(HTML)
    (folder / "plans.csv").write_text(CSV)
    (folder / "chargebacks.txt").write_text(TXT)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not a PDF at all\n")
    make_docx(
        folder / "dunning.docx",
        [
            "Dunning schedule",
            "Failed card payments are retried on days 1, 3 and 7 before the account is suspended.",
            "Support can pause dunning for 14 days at the customer's request.",
        ],
    )
    (folder / "photo.bin").write_bytes(b"\x00\x01\x02")
    return folder
