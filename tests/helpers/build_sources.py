"""A docs folder to build from: Markdown with another tool's frontmatter linking across
folders whose names need slugging, a Word document, a web page, a CSV, a text file, an
image asset and two bad files (``SOURCES``), written by :func:`write_sources`."""

# ruff: noqa: E501  (sample documents hold long lines, as real ones do)

from __future__ import annotations

from pathlib import Path
from typing import Any

from kas_tui.features.importing.build import MANIFEST
from tests.helpers.office import docx_bytes


def article(title: str, description: str, body: str, **extra: str) -> str:
    lines = [f"title: {title}", f"description: {description}", "ms.topic: troubleshooting"]
    lines += [f"{k}: {v}" for k, v in extra.items()]
    return "---\n" + "\n".join(lines) + "\n---\n" + body


SOURCES = {
    "Mail Flow/NDR 550 5.1.1.md": article(
        "Bounce 550 5.1.1 when sending to a recipient",
        "Resolves the 550 5.1.1 non-delivery report that appears when a recipient address does not exist.",
        "# Bounce 550 5.1.1\n\n## Symptoms\n\nMessages bounce.\n\n## Cause\n\nA typo.\n\n## Resolution\n\nFix the address; see [delays](../Mail%20Flow/delayed-mail.md#cause) and the [calendar guide](/Calendars/Sharing/shared-calendar.md).\n\n![diagram](media/ndr.png)\n",
    ),
    "Mail Flow/delayed-mail.md": article(
        "Mail is delayed by several hours",
        "Explains why outbound mail queues for hours when the smart host rejects connections, and how to clear the queue.",
        "# Delayed mail\n\n## Symptoms\n\nMail waits.\n\n## Cause\n\nThe smart host.\n\n## Resolution\n\nRestart the transport service.\n",
    ),
    "Mail Flow/media/ndr.png": b"\x89PNG\r\n\x1a\nfake image bytes",
    "Calendars/Sharing/shared-calendar.md": article(
        "Shared calendar does not update",
        "Fixes a shared calendar that shows stale meetings because the delegate's cache is out of date.",
        "# Shared calendar\n\n## Symptoms\n\nOld meetings.\n\n## Resolution\n\nClear the cache. Back to [the bounce article](../../Mail%20Flow/NDR%20550%205.1.1.md).\n",
    ),
    "Calendars/Sharing/permissions.md": article(
        "Calendar permissions are lost after migration",
        "Restores calendar sharing permissions that disappear when a mailbox is migrated to the cloud.",
        "# Permissions\n\n## Cause\n\nMigration.\n\n## Resolution\n\nRe-grant them.\n",
    ),
    "Calendars/room-booking.docx": docx_bytes(
        [
            ("", "Room booking rules"),
            ("Heading1", "Who can book"),
            (
                "",
                "Any employee can book a meeting room up to four weeks ahead through the calendar.",
            ),
        ],
        title="Room booking rules",
    ),
    "Calendars/holidays.csv": "country,holiday,date\nFR,Bastille Day,07-14\nUS,Independence Day,07-04\n",
    "notes.txt": "Support hours\n\nThe messaging team answers tickets from 8:00 to 18:00 on working days.\n",
    "status page.html": "<html><head><title>Service status</title></head><body><h1>Service status</h1><p>The status page lists every ongoing incident that affects mail delivery or calendars.</p></body></html>",
    "broken.pdf": b"%PDF-1.7\n1 0 obj << /Type /Catalog",
    "firmware.bin": bytes(range(256)) * 4,
    ".hidden/ignored.md": "---\ntype: X\n---\nnot part of the package\n",
}


def write_sources(root: Path, files: dict[str, str | bytes] = SOURCES) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != MANIFEST
    }


def drafted(body: str, name: str = "page.md", bundle: str = "") -> Any:
    """The draft (title, description...) of a Markdown page ``name`` of a docs site whose
    text is ``body``: what a build or an import makes of it, without a package."""
    import datetime as dt

    from kas_tui.features.importing.convert import Converted
    from kas_tui.features.importing.draft import draft_document

    converted = Converted(
        source=Path(f"/site/docs/{bundle}/{name}" if bundle else f"/site/docs/{name}"),
        markdown=body,
        kind="markdown",
        sha256="0" * 64,
        size=len(body),
        mtime=1.0,
        frontmatter=None,
        frontmatter_text=None,
    )
    now = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
    return draft_document(converted, None, bundle, root=Path("/site/docs"), now=now)


def source_files(root: Path) -> set[str]:
    """Every file below ``root``, as the build names them (``root``-relative POSIX
    paths): what a table of contents reader is given."""
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def built_clean(tmp_path: Path, files: dict[str, str | bytes]) -> tuple[Any, Any]:
    """(the build's result, the package loaded) of ``files`` written to
    ``tmp_path/src`` and built into ``tmp_path/kb`` in one process at a fixed time;
    the build had no error and no file failed."""
    import datetime as dt

    from kas_tui.core.package import Package
    from kas_tui.features.importing.build import build

    now = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=now, workers=1)
    assert result.errors == 0 and not result.failed, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    return result, pkg
