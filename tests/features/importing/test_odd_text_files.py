"""Text files as real repositories hold them (found by building sixteen of them): a
line break alone, NUL bytes in a note, UTF-32, old Mac line ends, a notebook or a web
page with no text. Each is read as a reader would read it, or said for what it is."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.features.importing.build import build
from kas_tui.features.importing.convert import convert_here
from kas_tui.features.importing.convert_model import ConversionError, Limits
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.timezone.utc)


def _convert(tmp_path: Path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return convert_here(path, Limits())


def test_a_file_of_blank_lines_is_skipped_as_an_empty_one_is(tmp_path: Path) -> None:
    """DokuWiki's ``inc/lang/bg/onceexisted.txt`` is one line break: it failed the
    build (exit 1) where an empty file is a note."""
    source = write_sources(
        tmp_path / "src",
        {"a.md": "# A\n\nText.\n", "blank.txt": "\n", "blank.md": "\ufeff \n\t\n", "empty.md": ""},
    )
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    assert result.failed == []
    assert "blank.txt: only blank lines, nothing to convert; skipped" in result.notes
    assert "blank.md: only blank lines, nothing to convert; skipped" in result.notes
    assert "empty.md: an empty file, nothing to convert; skipped" in result.notes


def test_a_few_nul_bytes_in_utf8_text_are_dropped_and_said(tmp_path: Path) -> None:
    """A note on a malware sample holds five NUL bytes in its UTF-8: it failed whole
    as "binary data". A few are dropped; a binary file is still refused."""
    text = "# Pretty devilish file\n\nThe header reads `%PDF\0\0\0-1.7` then garbage.\n"
    result = _convert(tmp_path, "note.md", text.encode())
    assert not isinstance(result, ConversionError), result
    assert "`%PDF-1.7`" in result.markdown
    assert result.encoding_note == (
        "its UTF-8 text holds NUL bytes (a pasted binary's?): read without them"
    )
    binary = _convert(tmp_path, "image.md", b"\x89PNG\r\n\x1a\n" + bytes(64) + b"\xff\xd8")
    assert isinstance(binary, ConversionError)
    assert binary.message == "image.md: binary data (NUL bytes), not text"


def test_utf32_and_old_mac_line_ends(tmp_path: Path) -> None:
    utf32 = _convert(tmp_path, "u.md", "# Über uns\n\nWir.\n".encode("utf-32"))
    assert not isinstance(utf32, ConversionError)
    assert utf32.markdown.startswith("# Über uns\n")  # the byte-order mark is no text
    mac = _convert(tmp_path, "m.md", b"# Old Mac note\r\rIts lines end in CR alone.\r")
    assert not isinstance(mac, ConversionError)
    assert mac.markdown.startswith("# Old Mac note\n\nIts lines")


def test_a_notebook_or_web_page_without_text_says_so(tmp_path: Path) -> None:
    """They said "a format kas-tui does not convert?" of formats it converts."""
    notebook = _convert(tmp_path, "Untitled.ipynb", b'{"cells": [], "nbformat": 4}')
    assert isinstance(notebook, ConversionError)
    assert notebook.message == "Untitled.ipynb: a notebook whose cells hold no text"
    page = _convert(tmp_path, "chips.html", b"<html><body><div id='app'></div></body></html>")
    assert isinstance(page, ConversionError)
    assert page.message == (
        "chips.html: a web page with no text (a template, or a page its scripts fill in)"
    )


def test_terminal_controls_leave_no_trace_in_the_package(tmp_path: Path) -> None:
    """A page holding a terminal's colour codes, a bell and a backspace, and a title
    with a right-to-left override: the package kept them raw (``[Ctrl \\[31mred``, the
    override turning the title's text around on screen)."""
    source = write_sources(
        tmp_path / "src",
        {
            "ctrl.md": "# Ctrl \x1b[31mred\x1b[0m title\x07\n\nBody with \x1b[1mANSI\x1b[0m, a "
            "\x08backspace.\x0cNext page.\x0bNext line.\n",
            "bidi.md": "# Title \u202eevil\u202c text\n\nBody.\n",
        },
    )
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    for path in (tmp_path / "kb").rglob("*.md"):
        text = path.read_text(encoding="utf-8")
        assert not [c for c in text if ord(c) < 32 and c not in "\n"], path
        assert "\u202e" not in text or path.name == "bidi.md", path
    index = (tmp_path / "kb" / "index.md").read_text(encoding="utf-8")
    assert "[Ctrl red title](ctrl.md)" in index and "[Title evil text](bidi.md)" in index
    body = (tmp_path / "kb" / "ctrl.md").read_text(encoding="utf-8")
    assert "Body with ANSI, a backspace.\n\nNext page.\nNext line." in body
    assert (
        "ctrl.md: its text held control characters (BEL, BS, ESC x 4): a terminal's codes, "
        "no text; those characters are left out of the page, the rest of it is kept"
    ) in result.notes


def test_a_symlink_to_a_page_of_the_source_is_that_page_once(tmp_path: Path) -> None:
    """``README.md -> docs/index.md``: the page was built twice, two documents alike."""
    import os

    source = write_sources(tmp_path / "src", {"docs/index.md": "# Home\n\nStart here.\n"})
    os.symlink("docs/index.md", source / "README.md")
    os.symlink("nowhere.md", source / "dangling.md")
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    assert len(result.created) == 1, result.created
    assert "README.md: a symlink to docs/index.md, built once there" in result.notes
    assert any(n.startswith("dangling.md: a symlink leaving") for n in result.notes)


def test_a_web_page_saved_without_an_extension_is_read_as_a_web_page(tmp_path: Path) -> None:
    """An exported wiki's pages named by a hash, no ``.html``: read as text, their body
    was the raw ``<!DOCTYPE html>...`` and their title the hash."""
    page = (
        b"<!DOCTYPE html><html><head><title>Beginner 1v1 Guide</title></head><body>"
        b"<h1>Beginner 1v1 Guide</h1><p>Scout early, and build a second factory before "
        b"the tenth minute.</p></body></html>"
    )
    result = _convert(tmp_path, "ad_4nxc9llhdlmkcbyiabrqxs5ygv5ys8k", page)
    assert not isinstance(result, ConversionError), result
    assert "# Beginner 1v1 Guide" in result.markdown and "<!DOCTYPE" not in result.markdown
    shell = _convert(tmp_path, "ad_5xx", b"<!DOCTYPE html><html><body><div id=app></div></html>")
    assert isinstance(shell, ConversionError)
    assert "a web page with no text" in shell.message


def test_a_table_of_contents_heading_is_no_title(tmp_path: Path) -> None:
    """A note opening with "# Table of Contents" and its list of links was titled
    "Table of Contents"; its title is the heading below it."""
    page = (
        "# Table of Contents\n- [NodeJS Tutorial](#nodejs-tutorial)\n\n# NodeJS Tutorial\n\n"
        "Node runs JavaScript outside the browser.\n"
    )
    source = write_sources(
        tmp_path / "src", {"NodeJS.md": page, "Other.md": "# Contents of the box\n\nA lid.\n"}
    )
    build(source, tmp_path / "kb", now=NOW, workers=1)
    index = (tmp_path / "kb" / "index.md").read_text(encoding="utf-8")
    assert "[NodeJS Tutorial](nodejs.md)" in index and "[Table of Contents]" not in index
    assert "[Contents of the box](other.md)" in index


def test_a_pdfs_glyph_placeholders_are_no_text() -> None:
    """pdfminer writes ``(cid:2)`` for a glyph its font maps to no character: a lecture's
    figure read "Hi2:00Figure 1.2 (cid:2)A human protocol"."""
    from kas_tui.features.importing.convert_markitdown import without_glyph_placeholders

    assert without_glyph_placeholders("Figure 1.2 (cid:2)A human (cid:17)protocol") == (
        "Figure 1.2 A human protocol",
        2,
    )
    assert without_glyph_placeholders("no placeholders") == ("no placeholders", 0)


def test_asciidoc_chapters_named_asc_are_asciidoc(tmp_path: Path) -> None:
    """Pro Git writes its chapters as ``.asc``: read as text, they were titled
    "ch01-getting-started == Getting Started"; an OpenPGP ``.asc`` is no page."""
    source = write_sources(
        tmp_path / "src",
        {
            "ch01-getting-started.asc": "[[ch01-getting-started]]\n== Getting Started\n\n"
            "This chapter will be about getting started with Git.\n",
            "release.tar.gz.asc": "-----BEGIN PGP SIGNATURE-----\n\niQIzBAABCAAdFiEE\n"
            "-----END PGP SIGNATURE-----\n",
        },
    )
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    index = (tmp_path / "kb" / "index.md").read_text(encoding="utf-8")
    assert "[Getting Started](ch01-getting-started.md)" in index, index
    assert [f.message for f in result.failed] == [
        "release.tar.gz.asc: an OpenPGP signature or key (ASCII armor), no document"
    ]


def test_an_english_folder_beside_one_file_is_not_its_translation(tmp_path: Path) -> None:
    """mozilla/policy-templates: ``windows/firefox.admx`` beside ``en-US/firefox.adml``
    and ``de-DE/firefox.adml``; en-US/ was left out as a translation of the one file."""
    adml = '<policyDefinitionResources revision="1.0"><resources><stringTable>{}</stringTable></resources></policyDefinitionResources>\n'
    source = write_sources(
        tmp_path / "src",
        {
            "windows/firefox.admx": "<policyDefinitions revision='1.0'><policies/></policyDefinitions>\n",
            "windows/en-US/firefox.adml": adml.format("<string id='A'>Block about:config</string>"),
            "windows/de-DE/firefox.adml": adml.format(
                "<string id='A'>about:config sperren</string>"
            ),
        },
    )
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    built = {c for c in result.created}
    assert any("en-us" in c.lower() for c in built), built
    assert not any("de-de" in c.lower() for c in built), built


def test_a_joplin_exports_images_without_extension_are_images(tmp_path: Path) -> None:
    """Joplin exports a note's images as ``_resources/1619864916511``: all 225 of one
    export failed as documents and the notes' images were lost."""
    png = b"\x89PNG\r\n\x1a\n" + bytes(16)
    source = write_sources(
        tmp_path / "src",
        {
            "Web/Arrays.md": "# Arrays\n\n![diagram](../_resources/1619864916511)\n",
            "_resources/1619864916511": png,
        },
    )
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    assert result.failed == [] and result.assets == 1
    body = next((tmp_path / "kb").rglob("arrays.md")).read_text(encoding="utf-8")
    target = body.split("![diagram](", 1)[1].split(")", 1)[0]
    assert (next((tmp_path / "kb").rglob("arrays.md")).parent / target).read_bytes() == png


def test_titles_and_descriptions_read_as_the_site_shows_them(tmp_path: Path) -> None:
    """18F's handbook (Eleventy): titles "TTS <em>before</em> GSA onboarding" and
    "Logging in &amp; Networks", a description "A resource for TTS employees,
    {{ site.description }}, ..."."""
    source = write_sources(
        tmp_path / "src",
        {
            "first.md": "---\ntitle: Travel for TTS <em>before</em> GSA onboarding\n---\n\n"
            "Travel setup steps for new staff before onboarding.\n",
            "login.md": "---\ntitle: Logging in &amp; Networks\n---\n\nBest practices for "
            "logging in {{ site.name }} to your government accounts.\n",
            "widget.md": "---\ntitle: The <Button> widget\n---\n\nA button you press.\n",
        },
    )
    build(source, tmp_path / "kb", now=NOW, workers=1)
    index = (tmp_path / "kb" / "index.md").read_text(encoding="utf-8")
    assert "[Travel for TTS before GSA onboarding](first.md)" in index, index
    assert "[Logging in & Networks](login.md)" in index
    assert "{{" not in index and "logging in to your government accounts" in index.lower()
    assert "[The <Button> widget](widget.md)" in index  # a component's name stays
