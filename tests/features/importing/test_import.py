"""Import: conversion of every format (and bad files), drafting, `kas-tui import`.

The sample files are made here: a Word document written as the zip of XML it is, a
PowerPoint deck (python-pptx) and a workbook (openpyxl), both installed with
MarkItDown's extras, a PDF with a text layer written by hand, a scanned-like PDF holding
only an image (Pillow), HTML, CSV, text, Markdown with another tool's frontmatter, and
bad files: a corrupt PDF, a password-protected (OLE) .docx, an unknown binary.
Conversions run in worker processes like the real thing; a test module shares one run.
"""

# ruff: noqa: E501  (sample documents hold long lines, as real ones do)

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote

import pytest

from kas_tui.cli.main import main
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.index_layout import plural
from kas_tui.core.okf.log import parse_log
from kas_tui.core.package import Package
from kas_tui.core.store import StoreError
from kas_tui.features.check import check
from kas_tui.features.importing import (
    ConversionError,
    Converted,
    ImportFailed,
    Limits,
    confirm_update,
    convert_file,
    convert_files,
    draft_document,
    plan_import,
    preview_import,
    write_import,
)
from kas_tui.features.importing.pool import ConverterPool
from kas_tui.text.description_verdicts import more_than_one_sentence, says_nothing
from kas_tui.text.slug import MAX_SLUG, slugify, slugify_middle_out, unique_slug
from tests.helpers.office import docx_bytes

ROOT = Path(__file__).resolve().parents[3]
NOW = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.timezone.utc)

# --- sample files ------------------------------------------------------------------------------


def pdf_bytes(lines: list[str], *, title: str = "") -> bytes:
    """A one-page PDF whose text layer holds ``lines`` (Helvetica), with a Title."""

    def esc(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    content = "BT /F1 11 Tf 72 740 Td 15 TL " + " ".join(f"({esc(t)}) '" for t in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Title ({esc(title)}) /Keywords (billing, refunds) >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def scanned_pdf(path: Path) -> None:
    """A PDF holding one page image and no text layer: what a scanner produces."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (400, 200), "white")
    ImageDraw.Draw(image).text((20, 80), "Scanned refund form", fill="black")
    image.save(path, "PDF")


def pptx_file(path: Path) -> None:
    from pptx import Presentation

    deck = Presentation()
    slides = [
        (
            "Quarterly support review",
            "Ticket volume fell by a fifth after the new refund form went live.",
        ),
        ("Refund backlog", "Most refunds are now approved within two working days of the request."),
        ("Next steps", "Support agents will pilot chat-based dispute handling in January."),
    ]
    for heading, text in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = heading
        slide.placeholders[1].text = text
    deck.core_properties.title = "Quarterly support review"
    deck.save(path)


def xlsx_file(path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Refunds"
    sheet.append(["Plan", "Window (days)", "Approver"])
    sheet.append(["Basic", 14, "Agent"])
    sheet.append(["Pro", 30, "Team lead"])
    other = book.create_sheet("Chargebacks")
    other.append(["Network", "Fee"])
    other.append(["Visa", 15])
    book.save(path)


HTML = """<!DOCTYPE html>
<html><head><title>Password reset | Acme Help Centre</title>
<link rel="canonical" href="https://help.acme.example/account/password-reset"></head>
<body><nav><a href="/">Home</a></nav>
<h1>Reset a customer's password</h1>
<p>Support agents can send a password reset link from the admin console when a customer is locked out.</p>
<h2>Steps</h2><ol><li>Open the customer's profile.</li><li>Choose <b>Send reset link</b>.</li></ol>
<p>See <a href="/account/lockouts">account lockouts</a> for repeated failures.</p>
</body></html>
"""

MARKDOWN_FOREIGN = """---
title: Chargeback handling
description: How support agents answer a card network chargeback, from evidence to the bank's decision.
ms.topic: how-to
ms.date: 10/30/2023
author: dev.patel   # keeps this comment
appliesto:
  - Billing
---
# Chargeback handling

## Steps

1. Collect the order evidence.
2. Submit it to the card network within seven days.
"""

TEXT = """Dunning schedule

Customers whose card payment fails receive three reminder emails over ten days before their plan is paused.
"""

CSV = "region,refunds,disputes\nEMEA,120,14\nAmericas,98,9\n"


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every sample, good and bad, in one folder (made once for the module)."""
    folder = tmp_path_factory.mktemp("samples")
    files = {
        "docx": (
            "Refund Policy.docx",
            docx_bytes(
                [
                    ("", "Refund policy"),
                    ("Heading1", "Who can ask"),
                    (
                        "",
                        "Customers on any paid plan can ask for a refund within 30 days of a charge.",
                    ),
                    ("Heading1", "How to decide"),
                    ("", "Agents approve refunds under 100 euros without a second opinion."),
                ],
                title="Refund policy",
                keywords="billing; refunds",
            ),
        ),
        "pdf": (
            "invoice-disputes.pdf",
            pdf_bytes(
                [
                    "Invoice disputes",
                    "An invoice dispute is opened when a customer contests a charge on their invoice.",
                    "The billing team answers every dispute within five working days.",
                ],
                title="Invoice disputes",
            ),
        ),
        "html": ("password-reset.html", HTML.encode()),
        "md": ("chargebacks.md", MARKDOWN_FOREIGN.encode()),
        "txt": ("dunning.txt", TEXT.encode()),
        "csv": ("refund-stats.csv", CSV.encode()),
        "corrupt_pdf": ("broken.pdf", b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog garbage"),
        "encrypted_docx": ("locked.docx", bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 2048),
        "unknown": ("blob.bin", bytes(range(256)) * 8),
        "empty": ("empty.txt", b""),
    }
    out = {}
    for key, (name, data) in files.items():
        path = folder / name
        path.write_bytes(data)
        out[key] = path
    out["pptx"] = folder / "Quarterly review.pptx"
    pptx_file(out["pptx"])
    out["xlsx"] = folder / "refund-windows.xlsx"
    xlsx_file(out["xlsx"])
    out["scanned_pdf"] = folder / "scanned-form.pdf"
    scanned_pdf(out["scanned_pdf"])
    return out


@pytest.fixture(scope="module")
def converted(samples: dict[str, Path]) -> dict[str, Converted | ConversionError]:
    """Every sample converted once, through the worker pool (2 workers)."""
    keys = list(samples)
    results = {}
    for i, result in convert_files([samples[k] for k in keys], Limits(timeout=60), workers=2):
        results[keys[i]] = result
    return results


# --- conversion ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "kind", "words"),
    [
        ("docx", "docx", ["# Who can ask", "within 30 days"]),
        ("pdf", "pdf", ["Invoice disputes", "five working days"]),
        ("html", "html", ["# Reset a customer's password", "admin console"]),
        ("md", "markdown", ["# Chargeback handling", "seven days"]),
        ("txt", "text", ["three reminder emails"]),
        ("csv", "csv", ["| region | refunds | disputes |", "EMEA"]),
        ("pptx", "pptx", ["Refund backlog", "two working days"]),
        ("xlsx", "xlsx", ["## Refunds", "Team lead", "## Chargebacks"]),
    ],
)
def test_every_format_converts_to_markdown(
    converted: dict, key: str, kind: str, words: list[str]
) -> None:
    result = converted[key]
    assert isinstance(result, Converted), result
    assert result.kind == kind
    for word in words:
        assert word in result.markdown
    assert len(result.sha256) == 64 and result.size > 0


def test_markdown_keeps_its_own_frontmatter(converted: dict) -> None:
    result = converted["md"]
    assert result.frontmatter["ms.topic"] == "how-to"
    assert "author: dev.patel   # keeps this comment" in result.frontmatter_text
    assert not result.markdown.startswith("---")


def test_metadata_of_office_files_and_web_pages(converted: dict) -> None:
    assert converted["docx"].properties["title"] == "Refund policy"
    assert converted["docx"].properties["keywords"] == "billing; refunds"
    assert converted["pptx"].properties["title"] == "Quarterly support review"
    assert converted["pdf"].properties["title"] == "Invoice disputes"
    assert converted["html"].title == "Password reset | Acme Help Centre"
    assert converted["html"].properties["url"] == "https://help.acme.example/account/password-reset"


@pytest.mark.parametrize(
    ("key", "reason", "words"),
    [
        ("corrupt_pdf", "corrupt", "broken.pdf: corrupt"),
        ("scanned_pdf", "no-text", "scanned-form.pdf: no text could be extracted: a scanned PDF"),
        ("encrypted_docx", "encrypted", "locked.docx: password-protected"),
        ("unknown", "unsupported", "blob.bin: no converter understands this file"),
        ("empty", "no-text", "empty.txt: the file is empty or only blank"),
    ],
)
def test_bad_files_get_a_clear_message_and_nothing_else(
    converted: dict, key: str, reason: str, words: str
) -> None:
    result = converted[key]
    assert isinstance(result, ConversionError)
    assert result.reason == reason
    assert result.message.startswith(words)
    assert "\n" not in result.message


def test_size_limit(samples: dict[str, Path]) -> None:
    result = convert_file(samples["docx"], Limits(max_bytes=100))
    assert isinstance(result, ConversionError) and result.reason == "too-large"
    assert "Refund Policy.docx" in result.message and "size limit" in result.message


RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Acme status</title><link>https://status.acme.example/</link>
<description>Incidents and maintenance</description>
<item><title>Login outage resolved</title><link>https://status.acme.example/1</link>
<description>Sign-ins failed for 20 minutes.</description></item>
</channel></rss>
"""
ATOM = """<?xml version="1.0" encoding="utf-8"?>
<!-- exported -->
<feed xmlns="http://www.w3.org/2005/Atom"><title>Acme changelog</title>
<id>urn:acme:changelog</id><updated>2026-11-01T00:00:00Z</updated>
<entry><title>Refunds in two clicks</title><id>urn:acme:1</id>
<updated>2026-11-01T00:00:00Z</updated><summary>Agents can refund from the ticket.</summary></entry>
</feed>
"""


@pytest.mark.parametrize(
    ("name", "text", "title", "entry"),
    [
        ("status.xml", RSS, "Acme status", "Login outage resolved"),
        ("status.rss", RSS, "Acme status", "Sign-ins failed for 20 minutes."),
        ("changelog.xml", ATOM, "Acme changelog", "Refunds in two clicks"),
        ("changelog.atom", ATOM, "Acme changelog", "Agents can refund from the ticket."),
    ],
    ids=["rss-as-xml", "rss", "atom-as-xml", "atom"],
)
def test_feeds_go_through_the_feed_converter(
    tmp_path: Path, name: str, text: str, title: str, entry: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    result = convert_file(path)
    assert isinstance(result, Converted), result
    assert result.kind == "feed" and result.title == title
    assert f"# {title}" in result.markdown and entry in result.markdown
    assert "```" not in result.markdown and "<rss" not in result.markdown


def test_a_tab_separated_file_is_a_table_as_a_csv_is(tmp_path: Path) -> None:
    path = tmp_path / "people.tsv"
    path.write_bytes(
        "\ufeffID\tName\tMotto\tCity\n1\tEvelyn\tBetter done, not perfect.\t"
        'Chicago, "IL"\n\n2\tWilliam\ta | b\tTokyo\n'.encode()
    )
    result = convert_file(path)
    assert isinstance(result, Converted), result
    assert result.kind == "csv"
    assert "| ID | Name | Motto | City |" in result.markdown
    assert '| 1 | Evelyn | Better done, not perfect. | Chicago, "IL" |' in result.markdown
    assert "| 2 | William | a \\| b | Tokyo |" in result.markdown


def test_a_zip_archives_page_never_holds_the_machines_own_path(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "join.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("notes.txt", "Joins match rows of two tables by their keys.")
    result = convert_file(path)
    assert isinstance(result, Converted), result
    assert "join.zip" in result.markdown and str(tmp_path) not in result.markdown


def test_other_xml_stays_a_code_block(tmp_path: Path) -> None:
    path = tmp_path / "config.xml"
    path.write_text('<?xml version="1.0"?>\n<config><feed>off</feed></config>\n')
    result = convert_file(path)
    assert isinstance(result, Converted) and result.kind == "code"
    assert result.markdown.startswith("```xml")


@pytest.mark.parametrize("name", ["call.mp3", "memo.wav", "interview.m4a"])
def test_audio_is_refused_for_its_true_reason(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"ID3\x03\x00\x00\x00\x00\x00\x00" + bytes(range(256)) * 8)
    result = convert_file(path)
    assert isinstance(result, ConversionError) and result.reason == "unsupported"
    assert result.message.startswith(f"{name}: an audio file, and no transcription is available")
    assert "empty" not in result.message and "\n" not in result.message


def _hang(path: Path, limits: Limits) -> Converted | ConversionError:
    if path.name == "hang.bin":
        time.sleep(60)  # not a wait: the converter under test hangs
    if path.name == "crash.bin":
        os._exit(3)
    return ConversionError(path, "unsupported", f"{path.name}: fine")


def test_a_hung_converter_is_killed_and_the_batch_goes_on(tmp_path: Path) -> None:
    names = ["hang.bin", "crash.bin", "after.bin"]
    for name in names:
        (tmp_path / name).write_bytes(b"\1\2")
    started = time.monotonic()
    with ConverterPool(Limits(timeout=1.0), workers=1, convert=_hang) as pool:
        results = dict(pool.imap([tmp_path / n for n in names]))
    assert time.monotonic() - started < 30
    assert results[0].reason == "timeout"
    assert "took longer than 1 s and was stopped" in results[0].message
    assert results[1].reason == "crashed" and "exit code 3" in results[1].message
    assert results[2].message == "after.bin: fine"


def _hog(path: Path, limits: Limits) -> Converted | ConversionError:
    if path.name == "hog.bin":
        bytearray(3 * 2**30)  # far over the cap below
    return ConversionError(path, "unsupported", f"{path.name}: fine")


def test_a_conversion_over_the_memory_cap_fails_alone(tmp_path: Path) -> None:
    names = ["hog.bin", "after.bin"]
    for name in names:
        (tmp_path / name).write_bytes(b"\1\2")
    with ConverterPool(Limits(max_memory=2 * 2**30), workers=1, convert=_hog) as pool:
        results = dict(pool.imap([tmp_path / n for n in names]))
    assert results[0].reason == "memory"
    assert "more than 2048 MB of memory" in results[0].message
    assert "--max-memory" in results[0].message
    assert results[1].message == "after.bin: fine"  # the same worker goes on


def test_importing_the_package_does_not_import_markitdown() -> None:
    script = (
        "import sys, kas_tui.features.importing, kas_tui.features.importing.convert, kas_tui.features.importing.draft, "
        "kas_tui.features.importing.build, kas_tui.features.importing.importer\n"
        "from kas_tui.features.importing import convert_file\n"
        "assert 'markitdown' not in sys.modules\n"
        "assert 'textual' not in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


# --- slugs and drafting -------------------------------------------------------------------------


def test_slugs_are_unique_and_never_reserved() -> None:
    assert slugify("Refund Policy (2026).PDF") == "refund-policy-2026-pdf"
    assert slugify("Café crème") == "cafe-creme"
    assert slugify("日本語") == "ribenyu"  # another script spelled in Latin letters
    assert slugify("Настройка сервера") == "nastroyka-servera"
    assert slugify("Straße, Øresund") == "strasse-oresund"  # letters with nothing to fold
    assert slugify("Don’t panic — 🚀") == "dont-panic"  # signs and pictures dropped
    assert slugify("🚀") == "document"
    assert unique_slug("refunds", {"Refunds"}) == "refunds-2"
    assert unique_slug("refunds", {"refunds", "refunds-2"}) == "refunds-3"
    assert unique_slug("index", set()) == "index-page"
    assert unique_slug("skill", set(), at_root=True) == "skill-page"
    assert unique_slug("skill", set()) == "skill"
    # names Windows refuses (check's OKF130 reports them): a page called "Con" or "Aux"
    assert unique_slug("con", set()) == "con-page"
    assert unique_slug("lpt1", set()) == "lpt1-page"
    assert unique_slug("console", set()) == "console"
    # a name taken: the other names the thing goes by, in order, before a number
    assert unique_slug("overview", {"overview"}, alternatives=["powershell-gallery"]) == (
        "powershell-gallery"
    )
    assert unique_slug("overview", {"overview", "a"}, alternatives=["a", "index", "b"]) == "b"
    assert unique_slug("overview", {"overview"}, alternatives=["overview"]) == "overview-2"
    assert unique_slug("faq", set(), alternatives=iter(())) == "faq"


def test_a_long_name_can_keep_its_ends_where_a_cut_would_make_two_alike() -> None:
    """``slugify`` cuts a long name at its end, where names of one family differ
    ("...-for-wideentry-format", "...-for-listentry-format"): the middle goes instead."""
    family = "selectionsetname-element-for-selectioncondition-for-entryselectedby-for-{}-format"
    cut = {slugify(family.format(k)) for k in ("wideentry", "listentry")}
    assert len(cut) == 1
    kept = [slugify_middle_out(family.format(k)) for k in ("wideentry", "listentry")]
    assert kept == [
        "selectionsetname-element-for-entryselectedby-for-wideentry-format",
        "selectionsetname-element-for-entryselectedby-for-listentry-format",
    ]
    assert all(len(k or "") <= MAX_SLUG for k in kept)
    assert slugify_middle_out("Refund policy") is None  # nothing cut: nothing to keep
    assert slugify_middle_out("x" * 200) is None  # one word: no middle to leave out


def test_a_built_page_or_asset_never_takes_a_name_windows_refuses(tmp_path: Path) -> None:
    from kas_tui.features.importing.build import build
    from tests.helpers.build_sources import write_sources

    files = {
        "con.md": "# Con\n\nA page about the con of it all, in some words.\n",
        "nul.md": "# Nul\n\nA page about nothing, in some more words.\n",
        "aux.png": "png",
    }
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, workers=1).errors == 0
    names = {p.name.lower() for p in out.rglob("*")}
    assert {"con-page.md", "nul-page.md", "aux-file.png"} <= names
    assert not names & {"con.md", "nul.md", "aux.png"}
    pkg = Package(out)
    pkg.load()
    assert not [f for f in check(pkg).findings if f.code == "OKF130"]


def _draft(converted: dict, key: str, **kwargs):
    return draft_document(converted[key], None, "billing", root=Path("/kb"), now=NOW, **kwargs)


@pytest.mark.parametrize(
    ("markdown", "title"),
    [
        (
            "### 1. Single domain\n\nUse webroot mode.\n\n### 2. Many domains\n\nList them.\n",
            "How to issue a cert",
        ),
        (
            "# 1. Copy the files\n\nRun it.\n\n# 2. Configure apache\n\nEdit it.\n",
            "How to issue a cert",
        ),
        ("### Issuing\n\nUse webroot mode.\n", "Issuing"),
        ("# 1. Introduction\n\nA book's first chapter.\n", "1. Introduction"),
    ],
)
def test_a_step_is_no_title(tmp_path: Path, markdown: str, title: str) -> None:
    """An acme.sh wiki page opening with "### 1. Single domain" was titled so; a page
    whose first-level headings are numbered steps is named by its file, as GitHub shows it."""
    path = tmp_path / "How-to-issue-a-cert.md"
    path.write_text(markdown)
    result = convert_file(path)
    assert isinstance(result, Converted)
    assert draft_document(result, None, "", root=Path("/kb"), now=NOW).title == title


@pytest.mark.parametrize(
    ("key", "title", "doc_type"),
    [
        ("docx", "Refund policy", "Policy"),
        ("pdf", "Invoice disputes", "Reference"),
        ("html", "Password reset", "Procedure"),
        ("md", "Chargeback handling", "Procedure"),
        ("txt", "Dunning", "Reference"),
        ("csv", "Refund stats", "Dataset"),
        ("pptx", "Quarterly support review", "Presentation"),
        ("xlsx", "Refund windows", "Dataset"),
    ],
)
def test_drafted_frontmatter(converted: dict, key: str, title: str, doc_type: str) -> None:
    draft = _draft(converted, key)
    meta = draft.frontmatter
    assert meta["title"] == title
    assert meta["type"] == doc_type
    description = meta["description"]
    assert len(description) <= 200
    assert not says_nothing(description, title), description
    assert not more_than_one_sentence(description), description
    assert description.lower() != title.lower()
    assert meta["status"] == "draft"
    assert meta["generated"] == {"by": "kas-tui/0.1.0", "at": "2026-11-30T10:00:00Z"}
    (source,) = [s for s in meta["sources"] if s.get("sha256")]
    assert source["sha256"] == converted[key].sha256
    assert source["resource"].endswith(converted[key].source.name)
    assert source["title"] == converted[key].source.name
    assert fm.parse(draft.render()).data == meta  # the text reads back as the mapping


def test_descriptions_come_from_the_content(converted: dict) -> None:
    assert _draft(converted, "docx").description == (
        "Customers on any paid plan can ask for a refund within 30 days of a charge."
    )
    assert _draft(converted, "pdf").description.startswith("An invoice dispute is opened when")
    assert _draft(converted, "html").description.startswith(
        "Support agents can send a password reset link"
    )
    assert (
        _draft(converted, "csv").description
        == "Table of 2 rows with columns region, refunds and disputes."
    )
    assert "Refunds and Chargebacks" in _draft(converted, "xlsx").description
    assert _draft(converted, "docx").frontmatter["tags"] == ["billing", "refunds"]


def test_sibling_descriptions_are_not_repeated(converted: dict) -> None:
    first = _draft(converted, "docx").description
    second = _draft(converted, "docx", siblings=[first]).description
    assert second != first and second.startswith("Agents approve refunds")


def test_type_follows_the_bundle_and_its_spelling(converted: dict) -> None:
    from collections import Counter

    assert _draft(converted, "pdf", existing_types=Counter({"Runbook": 3})).type == "Runbook"
    assert (
        _draft(converted, "html", existing_types=Counter({"Runbook": 3})).type == "Runbook"
    )  # Procedure
    assert _draft(converted, "docx", existing_types=Counter({"Runbook": 3})).type == "Policy"
    assert _draft(converted, "pdf", type="FAQ").type == "FAQ"


def test_markdown_frontmatter_is_kept_byte_for_byte(converted: dict) -> None:
    draft = _draft(converted, "md")
    text = draft.render()
    assert converted["md"].frontmatter_text in text  # comments, order, quoting: all kept
    meta = fm.parse(text).data
    assert meta["ms.date"] == "10/30/2023" and meta["appliesto"] == ["Billing"]
    assert meta["title"] == "Chargeback handling"  # theirs, not redrafted
    assert list(meta)[0] == "type" and meta["type"] == "Procedure"  # from ms.topic: how-to
    assert text.endswith(converted["md"].markdown)


def test_web_page_links_become_absolute(converted: dict) -> None:
    body = _draft(converted, "html").body
    assert "(https://help.acme.example/account/lockouts)" in body


def test_web_page_links_in_code_stay_as_written() -> None:
    from kas_tui.features.importing.draft import absolute_links

    body = (
        'See [reset](reset "Reset"), ![logo](<../img/a b.png>), [top](#top), [x](mailto:a@b.c).\n'
        "Type `[not a link](reset)` here.\n\n```\n[fenced](reset)\n```\n"
    )
    assert absolute_links(body, "https://help.example/account/lockouts") == (
        'See [reset](https://help.example/account/reset "Reset"), '
        "![logo](<https://help.example/img/a%20b.png>), [top](#top), [x](mailto:a@b.c).\n"
        "Type `[not a link](reset)` here.\n\n```\n[fenced](reset)\n```\n"
    )


# --- kas-tui import ----------------------------------------------------------------------------


def _errors(root: Path) -> list[str]:
    report = check(Package.open(root), agent_ready=True, today=NOW.date())
    return sorted(
        f"{f.code} {f.path}: {f.message}" for f in report.findings if f.severity == "error"
    )


@pytest.fixture
def acme(tmp_path: Path) -> Path:
    from tests.helpers.acme import make_package

    return make_package(tmp_path)


def test_import_writes_documents_index_entries_and_log(acme: Path, samples: dict, capsys) -> None:
    before = _errors(acme)
    files = [samples["docx"], samples["pdf"], samples["csv"], samples["scanned_pdf"]]
    code = main(["import", *map(str, files), "--into", str(acme / "billing" / "imports")])
    out, err = capsys.readouterr()
    assert code == 1  # the scanned PDF failed
    assert "scanned-form.pdf: no text could be extracted" in err
    assert "3 imported, 1 failed." in err
    folder = acme / "billing" / "imports"
    assert sorted(p.name for p in folder.iterdir()) == [
        "index.md",
        "invoice-disputes.md",
        "refund-policy.md",
        "refund-stats.md",
    ]
    meta = fm.parse((folder / "refund-policy.md").read_text()).data
    assert meta["type"] == "Policy" and meta["title"] == "Refund policy"
    assert unquote(meta["sources"][0]["resource"]).endswith("Refund Policy.docx")
    index = parse_index((folder / "index.md").read_text())
    # a new index, laid out as every new index is: grouped by type, sections by name
    types = {
        e.target: fm.parse((folder / e.target).read_text()).data["type"] for e in index.entries
    }
    assert sorted((e.title, e.target) for e in index.entries) == [
        ("Invoice disputes", "invoice-disputes.md"),
        ("Refund policy", "refund-policy.md"),
        ("Refund stats", "refund-stats.md"),
    ]
    assert [s.title for s in index.sections[1:]] == sorted(
        {plural(t) for t in types.values()}, key=str.casefold
    )
    assert all(e.section == plural(types[e.target]) for e in index.entries)
    (policy,) = [e for e in index.entries if e.target == "refund-policy.md"]
    assert policy.description == meta["description"]
    parent = parse_index((acme / "billing" / "index.md").read_text())
    (entry,) = [e for e in parent.entries if e.title == "Imports"]
    assert entry.target == "/billing/imports/"  # the style of the file: /-rooted links
    assert entry.bullet == "-" and "Refund policy" in entry.description
    log = parse_log((acme / "log.md").read_text())
    bullets = [b.text for b in log.groups[0].bullets]
    assert log.groups[0].date == dt.date.today().isoformat()
    assert (
        "**Creation**: Imported [Refund policy](/billing/imports/refund-policy.md) from Refund Policy.docx."
        in bullets
    )
    assert _errors(acme) == before  # nothing new for check --agent-ready to complain about


def test_reimport_is_recognised_and_never_duplicated(acme: Path, samples: dict, capsys) -> None:
    into = str(acme / "finance")
    assert main(["import", str(samples["pdf"]), "--into", into]) == 0
    capsys.readouterr()
    doc = acme / "finance" / "invoice-disputes.md"
    first = doc.read_text()
    # the same file again: recognised by its hash, nothing to do
    assert main(["import", str(samples["pdf"]), "--into", into]) == 0
    assert "already imported as finance/invoice-disputes.md, unchanged" in capsys.readouterr().out
    # a curator edits the title and the body; importing again needs --yes
    edited = first.replace("title: Invoice disputes", "title: Disputed invoices").replace(
        "five working days", "five days"
    )
    doc.write_text(edited)
    assert main(["import", str(samples["pdf"]), "--into", into]) == 1
    err = capsys.readouterr().err
    assert "already in the package as finance/invoice-disputes.md" in err and "--yes" in err
    assert doc.read_text() == edited
    assert main(["import", str(samples["pdf"]), "--into", into, "--yes"]) == 0
    updated = doc.read_text()
    assert "title: Disputed invoices" in updated  # the curator's title is kept
    assert "five working days" in updated  # the body comes from the file again
    assert sorted(p.name for p in (acme / "finance").glob("invoice-disputes*")) == [
        "invoice-disputes.md"
    ]
    log = (acme / "log.md").read_text()
    assert "**Update**: Re-imported [Disputed invoices](/finance/invoice-disputes.md)" in log


def test_source_resource_is_read_from_the_document_like_a_link(
    acme: Path, samples: dict, tmp_path: Path, capsys
) -> None:
    # outside the package: relative to the document's folder (OKF 6.2), so it resolves
    src = tmp_path / "exports" / "dunning.txt"
    src.parent.mkdir()
    src.write_bytes(samples["txt"].read_bytes())
    into = acme / "billing" / "imports"
    assert main(["import", str(src), "--into", str(into)]) == 0
    doc = into / "dunning.md"
    resource = fm.parse(doc.read_text()).data["sources"][0]["resource"]
    assert resource.startswith("../") and (into / resource).resolve() == src.resolve()
    # inside the package: a bundle-relative path
    ref = acme / "references" / "fees.txt"
    ref.parent.mkdir()
    ref.write_text("Late fees\n\nA late fee of 2% applies after 30 days.\n")
    assert main(["import", str(ref), "--into", str(acme / "billing")]) == 0
    meta = fm.parse((acme / "billing" / "fees.md").read_text()).data
    assert meta["sources"][0]["resource"] == "/references/fees.txt"
    # a resource written relative to the root (kas-tui 0.1) still names its file: a
    # changed file is an update of the same document, not a second one
    legacy = os.path.relpath(src, acme)
    doc.write_text(doc.read_text().replace(resource, legacy))
    src.write_text(src.read_text() + "\nReminders go out weekly.\n")
    capsys.readouterr()
    assert main(["import", str(src), "--into", str(into), "--yes"]) == 0
    assert sorted(p.name for p in into.glob("dunning*")) == ["dunning.md"]
    assert "Reminders go out weekly" in doc.read_text()
    assert fm.parse(doc.read_text()).data["sources"][0]["resource"] == resource  # migrated


def test_dry_run_prints_the_diff_and_writes_nothing(acme: Path, samples: dict, capsys) -> None:
    from tests.helpers.acme import snapshot

    before = snapshot(acme)
    code = main(["import", str(samples["txt"]), "--into", str(acme / "notes"), "--dry-run"])
    out, err = capsys.readouterr()
    assert code == 0
    assert snapshot(acme) == before
    assert "+++ b/notes/dunning.md" in out and "+title: Dunning" in out
    assert "+++ b/notes/index.md" in out and "+++ b/index.md" in out and "+++ b/log.md" in out
    assert "1 would be imported; nothing was written." in err


def _contents(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_a_failed_write_leaves_nothing_behind(acme: Path, samples: dict, monkeypatch) -> None:
    pkg = Package.open(acme)
    plans = plan_import(pkg, [samples["txt"], samples["csv"]], "notes/new")
    before = _contents(acme)
    apply = pkg.store.apply

    def failing(path, transform, **kwargs):
        if Path(path).name == "log.md":
            raise StoreError(path, "the disk is full")
        return apply(path, transform, **kwargs)

    monkeypatch.setattr(pkg.store, "apply", failing)
    with pytest.raises(ImportFailed, match="the disk is full; nothing was imported"):
        write_import(pkg, plans)
    assert _contents(acme) == before  # the same bytes (the index written first is put back)
    assert not (acme / "notes").exists()


def test_the_wizard_api(acme: Path, samples: dict) -> None:
    pkg = Package.open(acme)
    seen = []
    plans = plan_import(
        pkg, [samples["md"], samples["unknown"]], "billing", on_result=lambda i, r: seen.append(i)
    )
    assert sorted(seen) == [0, 1]
    assert [p.action for p in plans] == ["create", "failed"]
    assert plans[0].draft.path == "billing/chargebacks-2.md"  # chargebacks.md is taken
    assert plans[1].error.reason == "unsupported"
    preview = preview_import(pkg, plans)
    assert "+++ b/billing/chargebacks-2.md" in preview.diff
    entries = preview.entries_for(plans[0])
    assert [(e.index, e.path) for e in entries] == [
        ("billing/index.md", "billing/chargebacks-2.md")
    ]
    assert entries[0].line.startswith("- [Chargeback handling](/billing/chargebacks-2.md) - ")
    assert entries == preview.entries and preview.entries_for(plans[1]) == []
    result = write_import(pkg, plans)
    assert result.created == ["billing/chargebacks-2.md"]
    assert "billing/chargebacks-2.md" in pkg.documents  # the model follows the disk
    again = plan_import(pkg, [samples["md"]], "incidents")
    assert again[0].action == "unchanged" and again[0].existing == "billing/chargebacks-2.md"
    assert confirm_update(again[0]) is again[0]  # nothing to confirm


def test_planning_again_converts_only_what_changed(
    acme: Path, samples: dict, tmp_path: Path, monkeypatch
) -> None:
    from kas_tui.features.importing import importer

    converted_paths: list[str] = []
    real = importer.convert_files

    def counting(paths, *args, **kwargs):
        converted_paths.extend(Path(p).name for p in paths)
        return real(paths, *args, **kwargs)

    monkeypatch.setattr(importer, "convert_files", counting)
    note = tmp_path / "dunning.txt"
    note.write_bytes(samples["txt"].read_bytes())
    pkg = Package.open(acme)
    kept: dict = {}
    files = [note, samples["csv"]]
    first = plan_import(pkg, files, "billing", converted=kept)
    seen: list[int] = []
    second = plan_import(pkg, files, "notes", converted=kept, on_result=lambda i, r: seen.append(i))
    assert converted_paths == ["dunning.txt", "refund-stats.csv"]  # not converted again
    assert sorted(seen) == [0, 1]  # progress still hears of every file
    assert [p.draft.path for p in second] == ["notes/dunning.md", "notes/refund-stats.md"]
    assert second[0].draft.body == first[0].draft.body
    note.write_text(note.read_text() + "\nA new paragraph.\n")
    third = plan_import(pkg, files, "notes", converted=kept)
    assert converted_paths[2:] == ["dunning.txt"]  # the changed file only
    assert "A new paragraph." in third[0].draft.body


def test_import_usage_errors(tmp_path: Path, samples: dict, capsys) -> None:
    assert main(["import", str(samples["txt"])]) == 2  # no --into
    assert main(["import", str(samples["txt"]), "--into", str(tmp_path)]) == 2  # no package
    assert "is not inside a package" in capsys.readouterr().err


def test_a_new_bundle_is_listed_beside_the_other_bundles(acme: Path, samples: dict) -> None:
    """Not under the root index's last section (external links, "# Elsewhere")."""
    pkg = Package.open(acme)
    write_import(pkg, plan_import(pkg, [samples["txt"]], "notes"))
    entries = {e.target: e for e in parse_index((acme / "index.md").read_text()).entries}
    assert entries["notes/"].section == entries["incidents/"].section == "Acme knowledge base"


def test_the_preview_plans_a_new_bundles_entries_and_file_names_are_checked(
    acme: Path, samples: dict
) -> None:
    from kas_tui.features.importing.importer import rename

    pkg = Package.open(acme)
    plans = plan_import(pkg, [samples["txt"], samples["md"]], "notes/2026")
    entries = preview_import(pkg, plans).entries_for(plans[0])
    # its own entry, and those of the two new bundles it goes into, as the diff orders them
    assert [(e.index, e.path) for e in entries] == [
        ("index.md", "notes"),
        ("notes/2026/index.md", plans[0].draft.path),
        ("notes/index.md", "notes/2026"),
    ]
    assert all(e.line.startswith(("* [", "- [")) for e in entries)
    first, second = plans[0].draft, plans[1].draft
    assert rename(pkg, plans, plans[0], second.slug).startswith("another document of this")
    assert rename(pkg, plans, plans[0], "index") == ""  # checked by the form's parse
    (acme / "notes" / "2026").mkdir(parents=True)
    (acme / "notes" / "2026" / "taken.md").write_text("x\n")
    assert rename(pkg, plans, plans[0], "taken") == "taken is taken in notes/2026/"
    assert rename(pkg, plans, plans[0], "fresh-name") == "" and first.slug == "fresh-name"
    assert rename(pkg, plans[:1], plans[0], second.slug) == ""  # the other is left out
    root_plans = plan_import(pkg, [samples["txt"]], "")
    assert "clash with SKILL.md" in rename(pkg, root_plans, root_plans[0], "skill")


def test_typed_file_and_folder_names() -> None:
    from kas_tui.text.slug import parse_file_name, parse_folder

    assert parse_file_name("refunds.md") == ("refunds", None)
    assert parse_file_name("log")[1] == "log.md is one of the package's own files"
    assert parse_file_name("Refunds")[1].endswith("as in refunds")
    assert parse_folder(" billing/disputes/ ") == ("billing/disputes", None)
    assert parse_folder("Billing")[1] == "'Billing' is not a folder name; as in billing"


def test_a_source_that_does_not_move_with_the_package_is_recorded_where_it_is(
    tmp_path: Path, capsys
) -> None:
    """Issue 32, item 15: '/imp/test.docx' was recorded as '../../../../../../../imp/test.docx'."""
    import shutil

    project = tmp_path / "work" / "kb"
    root = project / "orbit-handbook"
    shutil.copytree(Path(__file__).resolve().parents[3] / "demo_kb" / "orbit-handbook", root)
    beside = project / "exports" / "hi.md"
    beside.parent.mkdir()
    beside.write_text("# Hi\n\nA page about greeting customers.\n")
    away = tmp_path / "elsewhere" / "imp" / "test.md"
    away.parent.mkdir(parents=True)
    away.write_text("# Test\n\nA page about testing imports.\n")
    assert main(["import", str(beside), str(away), "--into", str(root / "news")]) == 0
    capsys.readouterr()
    said = {
        name: fm.parse((root / "news" / name).read_text()).data["sources"][0]["resource"]
        for name in ("hi.md", "test.md")
    }
    assert said["hi.md"] == "../../exports/hi.md"  # it moves with the package: relative
    assert said["test.md"] == away.as_uri()  # it does not: where it really is
    (tmp_path / ".git").mkdir()  # one repository holding both: relative again
    other = away.with_name("other.md")
    other.write_text("# Other\n\nA page about other imports.\n")
    assert main(["import", str(other), "--into", str(root / "more")]) == 0
    meta = fm.parse((root / "more" / "other.md").read_text()).data
    assert meta["sources"][0]["resource"] == "../../../../elsewhere/imp/other.md"


def test_a_format_whose_converter_is_not_installed_is_not_offered(
    tmp_path: Path, monkeypatch
) -> None:
    """Issue 32, item 15: the wizard offered Outlook .msg without olefile installed."""
    from kas_tui.features.importing import files

    files.installed.cache_clear()
    monkeypatch.setitem(files.NEEDS, ".msg", "no_such_module_for_msg")
    monkeypatch.setitem(files.NEEDS, ".pdf", "json")  # an installed module
    try:
        assert not files.supported(tmp_path / "mail.msg")
        assert files.supported(tmp_path / "report.pdf")
        assert "Outlook .msg" not in files.formats() and "PDF" in files.formats()
        (tmp_path / "mail.msg").write_bytes(b"x")
        (tmp_path / "report.pdf").write_bytes(b"x")
        assert [p.name for p in files.files_in(tmp_path)] == ["report.pdf"]
    finally:
        files.installed.cache_clear()
