"""Many Markdown and text files are read in two processes (``convert_files`` with a
forked helper): the results, and their order, are those of reading them one by one."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from kas_tui.features.importing import pool
from kas_tui.features.importing.convert import Converted, Limits
from kas_tui.features.importing.pool import convert_files
from tests.helpers.forked import helper_first_map


def _sources(root: Path) -> list[Path]:
    paths = []
    for n in range(90):
        path = root / f"page-{n}.{'txt' if n % 5 == 0 else 'md'}"
        if n % 9 == 0:
            path.write_bytes(f"# Caf\xe9 {n}\n\nLatin-1 text.\n".encode("latin-1"))
        elif n % 11 == 0:
            path.write_text("x" * 5000, encoding="utf-8")  # over the size limit below
        else:
            path.write_text(
                f"---\ntitle: Page {n}\ntags: [a, b]\n---\n# Page {n}\n\nBody {n}.\n",
                encoding="utf-8",
            )
        paths.append(path)
    return paths


def _plain(results) -> list:
    return [
        (i, dataclasses.replace(r, seconds=0.0) if isinstance(r, Converted) else r)
        for i, r in results
    ]


def test_files_read_in_two_processes_are_the_files_read_one_by_one(
    tmp_path: Path, monkeypatch
) -> None:
    paths = _sources(tmp_path)
    limits = Limits(max_bytes=4000)
    monkeypatch.setattr(pool, "HERE_IN_TWO_MIN", 10**9)
    one_by_one = _plain(convert_files(paths, limits))

    monkeypatch.setattr(pool, "HERE_IN_TWO_MIN", 1)
    calls: list[int] = []
    monkeypatch.setattr(pool, "map_chunks_in_two", helper_first_map(pool.map_chunks_in_two, calls))
    in_two = _plain(convert_files(paths, limits))

    assert calls == [90 - 8]  # every file but the 8 too large (n % 11 == 0, n > 0)
    assert in_two == one_by_one
    assert [i for i, _r in in_two] == list(range(90))
    assert sum(not isinstance(r, Converted) for _i, r in in_two) == 8
