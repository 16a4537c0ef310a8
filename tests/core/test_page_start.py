"""The start of a page too large to show whole (issue 30, item 2): read no further than
it, cut after a line, and say how much of how much is shown."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kas_tui.core import page_start
from kas_tui.core.fileio import NotRegularFile
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.page_start import PageStart, read_start, start_of

FRONTMATTER = "---\ntype: Reference\ntitle: Big\n---\n"


def _sections(size: int) -> str:
    out, n = [], 0
    while sum(map(len, out)) < size:
        n += 1
        out.append(f"## Section {n}\n\nSome words of section {n}, and more words.\n\n")
    return "".join(out)


def test_a_page_within_the_limit_is_whole(tmp_path: Path) -> None:
    body = _sections(2000)
    (tmp_path / "a.md").write_text(FRONTMATTER + body)
    got = read_start(tmp_path / "a.md", limit=4096)
    assert got.text == body and not got.cut
    assert start_of(body, limit=4096) == PageStart(body, len(body), len(body))


def test_a_large_page_is_read_only_as_far_as_it_is_shown(tmp_path: Path, monkeypatch) -> None:
    body = _sections(200_000)
    path = tmp_path / "big.md"
    path.write_text(FRONTMATTER + body)
    asked: list[int] = []
    read = page_start.read_regular

    def spy(where, *, limit=-1, listed=False):
        asked.append(limit)
        return read(where, limit=limit, listed=listed)

    monkeypatch.setattr(page_start, "read_regular", spy)
    got = read_start(path, limit=10_000)
    assert asked == [10_001]  # never the whole file
    assert got.cut and got.size == path.stat().st_size
    assert body.startswith(got.text) and got.text.endswith("\n\n")  # after a blank line
    assert 7_500 <= got.shown <= 10_000
    assert got.shown == len(FRONTMATTER) + len(got.text)


def test_one_long_line_is_cut_between_words() -> None:
    text = "word " * 10_000
    got = start_of(text, limit=1000)
    assert got.cut and got.text.endswith("word ") and len(got.text) <= 1000
    assert (got.size, got.shown) == (len(text), len(got.text))


def test_a_character_is_never_cut_in_two(tmp_path: Path) -> None:
    body = "é" * 5000  # two bytes each: the limit falls inside one
    (tmp_path / "e.md").write_text(FRONTMATTER + body)
    got = read_start(tmp_path / "e.md", limit=len(FRONTMATTER) + 1001)
    assert got.text == "é" * 500 and got.cut
    assert start_of(body, limit=1001).text == "é" * 500


def test_a_file_that_cannot_be_read_raises_as_a_whole_read_does(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_bytes(FRONTMATTER.encode() + b"ok\n\xff\xfe\n" * 10)
    with pytest.raises(FormatError, match="not valid UTF-8"):
        read_start(tmp_path / "bad.md", limit=64)
    os.mkfifo(tmp_path / "pipe.md")
    with pytest.raises(NotRegularFile):  # never opened: a pipe would hang the read
        read_start(tmp_path / "pipe.md")
