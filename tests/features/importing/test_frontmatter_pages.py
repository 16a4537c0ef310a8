"""Pages whose frontmatter is broken in the ways notes are (a vault of people's notes,
cyddgh/obsidian-chinese-help): a ``---`` never closed, a template of ``{{date}}``
fields and nothing else. Each is said, naming the file and the line; none stops the
build, and neither does a reader's own bug on one file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.core.package import Package
from kas_tui.features.importing import convert
from kas_tui.features.importing.build import build
from kas_tui.features.importing.convert_model import ConversionError, Limits
from tests.helpers.build_sources import article, write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.timezone.utc)
#: The closing ``---`` runs into the next line's text, so it closes nothing.
NEVER_CLOSED = "---\nuid: 20220524155613\naliases: []\n---https://www.example.org/video/1\n"
#: A note template: the ``{{date}}`` field is a YAML mapping with a mapping for its key.
TEMPLATE = "---\ntitle: \nuid: {{date:YYYYMMDDHHmm}}\naliases: []\ntags: []\n---\n"


def _vault(tmp_path: Path) -> Path:
    return write_sources(
        tmp_path / "notes",
        {
            "Round table.md": NEVER_CLOSED,
            "Templates/General.md": TEMPLATE,
            "Sync.md": article("Sync", "How notes are kept the same on every device.", "# Sync\n"),
        },
    )


def test_a_frontmatter_never_closed_is_the_page_text_and_said(tmp_path: Path) -> None:
    """It stopped the whole build with a traceback (``FormatError`` out of the
    converter): 1,251 files, nothing built."""
    result = build(_vault(tmp_path), tmp_path / "kb", now=NOW, workers=1)
    pkg = Package(tmp_path / "kb")
    pkg.load()
    page = (tmp_path / "kb" / "round-table.md").read_text(encoding="utf-8")
    assert "https://www.example.org/video/1" in page
    assert "uid: 20220524155613" in page  # the lines a site shows as text
    said = [n for n in result.notes if n.startswith("Round table.md")]
    assert said and "line 1: the --- that opens its frontmatter is never closed" in said[0]


def test_a_template_of_frontmatter_alone_fails_saying_why(tmp_path: Path) -> None:
    result = build(_vault(tmp_path), tmp_path / "kb", now=NOW, workers=1)
    failed = {f.source.name: f.message for f in result.failed}
    assert "General.md" in failed, result.failed
    assert failed["General.md"] == (
        "Templates/General.md: no text beyond its frontmatter, which cannot be read (line 3: "
        "invalid YAML: found unhashable key while constructing a mapping); fix the YAML, or "
        "leave the file out"
    )


def test_frontmatter_alone_that_says_nothing_is_said_so(tmp_path: Path) -> None:
    page = tmp_path / "Empty note.md"
    page.write_text("---\n---\n", encoding="utf-8")
    result = convert.convert_here(page, Limits())
    assert isinstance(result, ConversionError)
    assert result.message == "Empty note.md: no text beyond its frontmatter, which says nothing"


def test_a_reader_failing_on_one_file_fails_that_file_not_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader's own bug (as the never-closed frontmatter was) is that file's failure,
    said with the error; the other pages are built."""
    read_markdown = convert._from_markdown

    def failing_on_sync(path: Path, data: bytes) -> object:
        if path.name == "Sync.md":
            raise KeyError("a reader bug")
        return read_markdown(path, data)

    monkeypatch.setattr(convert, "_from_markdown", failing_on_sync)
    result = build(_vault(tmp_path), tmp_path / "kb", now=NOW, workers=1)
    failed = {f.source.name: f.message for f in result.failed}
    assert failed["Sync.md"] == "Sync.md: the converter failed (KeyError: 'a reader bug')"
    assert (tmp_path / "kb" / "round-table.md").is_file()
