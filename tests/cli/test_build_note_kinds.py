"""A build's notes are counted by what they say, not by the file they name."""

from __future__ import annotations

from kas_tui.cli.importing import note_kind


def test_notes_naming_different_files_are_one_kind() -> None:
    """NAV's TOC names 1,447 pages the source lacks ("CALCDATE-Function--Date-.md",
    file names with digits, dashes and spaces): each was a kind of its own, 490 lines
    of summary; they are one."""
    missing = [
        "onprem/TOC.md:4: names terms/legal.md, which is not in the source",
        "onprem/TOC.md:9: names CALCDATE-Function--Date-.md, which is not in the source",
        "onprem/TOC.md:12: names DATE2DMY-Function--Date-.md, which is not in the source",
    ]
    assert {note_kind(n) for n in missing} == {"names …, which is not in the source"}
    spaced = [
        "onprem/Integrating Dynamics NAV and Office.md:1: onprem/includes/a.md does not exist",
        "onprem/ADCS-Overview.md:2: onprem/includes/navnow_md.md does not exist",
    ]
    assert {note_kind(n) for n in spaced} == {"does not exist"}
    assert note_kind("docs/a.md:12: docs/x.svg is an image: kept as an asset") == "is an image"
    # a digit inside a word is the word's: the kind was "not UTF-" (12 Latin-1 notes)
    encodings = [
        "cp1252.md: not UTF-8: read as Windows-1252; check its accented letters",
        "latin1-1.md: not UTF-8: read as ISO-8859-1; check its accented letters",
    ]
    assert {note_kind(n) for n in encodings} == {"not UTF-8"}
    assert note_kind("a.md: 3,120 links name 12 pages") == "links name … pages"
    # a page's directives not shown, by the directive (werkzeug's 54 were "line")
    autodoc = [
        "docs/http.rst: line 46: .. autofunction:: parse_set_header is not shown: "
        "src/werkzeug/http.py does not define parse_set_header where kas-tui reads it",
        "docs/api.rst: line 3 of _api.rst: .. autoclass:: flask.Flask is not shown: the "
        "module of flask.Flask is not in the source (build the folder that holds its code)",
    ]
    assert {note_kind(n) for n in autodoc} == {
        ".. autofunction:: not shown",
        ".. autoclass:: not shown",
    }


def test_a_kind_of_one_note_is_shown_whole(capsys) -> None:
    """A note alone of its kind is its own example: clipped to 110 characters, the
    site-rooted links' note lost the fix it names at its end (--link-base)."""
    from kas_tui.cli.importing import _notes_summary

    long = (
        "about.md: 2,637 site-rooted links name 417 paths the source holds no file at "
        "(e.g. /training/x): left as written, so check counts them broken; --link-base "
        "https://SITE makes them links to the site"
    )
    missing = [f"TOC.md:{n}: names p{n}.md, which is not in the source" for n in range(6)]
    _notes_summary([*missing, long], None)
    out = capsys.readouterr().out
    assert f"    {long}\n" in out
    assert "    6 x names …, which is not in the source (e.g. TOC.md:0: names p0.md" in out
