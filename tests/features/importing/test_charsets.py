"""Text that is not UTF-8 is read in the right encoding, and the curator is told which
(issue 30, item 9: "procédure à suivre" was imported as "procédure ŕ suivre", silently)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.features.importing.charsets import assumed, encoding_of
from kas_tui.features.importing.convert import Limits, convert_here

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "demo_kb" / "orbit-handbook"

FRENCH = (
    "Procédure à suivre\n\nLe client doit être informé avant la coupure. Réponse sous 24 heures.\n"
)
GERMAN = "Die Rückerstattung muss innerhalb von dreißig Tagen beantragt werden. Größe: über 5 MB.\n"
CZECH = "Žádost o vrácení peněz musí být podána do třiceti dnů; příliš žluťoučký kůň.\n"
RUSSIAN = "Запрос на возврат средств нужно подать в течение тридцати дней.\n"


@pytest.fixture(autouse=True)
def english_user(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guesses below are a user's whose language has Windows-1252 as its legacy one."""
    for variable in ("LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        (FRENCH, "latin-1"),
        (FRENCH, "cp1252"),
        (GERMAN, "latin-1"),
        (CZECH, "cp1250"),
        (RUSSIAN, "cp1251"),
        (RUSSIAN, "koi8-r"),
    ],
)
def test_legacy_text_reads_as_written(text: str, encoding: str) -> None:
    data = text.encode(encoding)
    found = encoding_of(data)
    assert found is not None and data.decode(found) == text


def test_utf8_needs_no_word_and_a_guess_is_named() -> None:
    assert encoding_of(FRENCH.encode()) == "utf-8"
    assert assumed("utf-8") is None
    assert assumed("cp1252") == "not UTF-8: read as Windows-1252; check its accented letters"


def test_a_web_page_declaring_its_encoding_is_read_with_it(tmp_path: Path) -> None:
    page = f'<html><head><meta charset="iso-8859-2"></head><body><p>{CZECH}</p></body></html>'
    path = tmp_path / "zadost.html"
    path.write_bytes(page.encode("iso8859-2"))
    converted = convert_here(path, Limits())
    assert CZECH.strip() in converted.markdown
    assert converted.encoding_note is not None and "ISO8859-2" in converted.encoding_note


@pytest.mark.parametrize("name", ["procedure.txt", "procedure.md", "procedure.html"])
def test_import_reads_latin1_right_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    root = tmp_path / "pkg"
    shutil.copytree(DEMO, root)
    source = tmp_path / name
    text = f"<html><body><p>{FRENCH}</p></body></html>" if name.endswith("html") else FRENCH
    source.write_bytes(text.encode("latin-1"))
    assert main(["import", "--into", str(root / "fr"), str(source)]) == 0
    _, err = capsys.readouterr()
    assert f"{name}: not UTF-8: read as Windows-1252; check its accented letters" in err
    written = (root / "fr" / "procedure.md").read_text(encoding="utf-8")
    assert "Procédure à suivre" in written and "être informé" in written
    assert "ŕ" not in written and "ę" not in written


def test_build_names_each_file_read_in_another_encoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "procedure.txt").write_bytes(FRENCH.encode("latin-1"))
    (source / "ok.md").write_text("# Fine\n\nAll UTF-8.\n", encoding="utf-8")
    assert main(["build", str(source), str(tmp_path / "out"), "--no-check"]) == 0
    out, err = capsys.readouterr()
    notes = [line for line in (out + err).splitlines() if "not UTF-8" in line]
    assert notes == [
        "  note: procedure.txt: not UTF-8: read as Windows-1252; check its accented letters"
    ]
    assert "Procédure à suivre" in (tmp_path / "out" / "procedure.md").read_text()


HUNGARIAN = (
    "Az árvíztűrő tükörfúrógép. A visszatérítési kérelmet harminc napon belül kell benyújtani.\n"
)


@pytest.mark.parametrize(("lang", "right"), [("hu_HU.UTF-8", True), ("en_GB.UTF-8", False)])
def test_a_tie_goes_to_the_users_language(
    monkeypatch: pytest.MonkeyPatch, lang: str, right: bool
) -> None:
    """Hungarian in Windows-1250 is as clean in Windows-1252 (ű reads û): the language of
    the user decides, as a browser's does, and the note names what was assumed."""
    monkeypatch.setenv("LANG", lang)
    found = encoding_of(HUNGARIAN.encode("cp1250"))
    assert found == ("cp1250" if right else "cp1252")
    assert (HUNGARIAN.encode("cp1250").decode(found) == HUNGARIAN) is right
