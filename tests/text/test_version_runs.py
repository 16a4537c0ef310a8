"""Release notes titled by their version go into runs of versions
(:mod:`kas_tui.text.version_runs`), found by building pytest's docs (2026-12-07): its
186 announcements in one toctree became bundles named "Bug", "Features" and "Py test",
5.2.0 in one and 5.2.1 in another."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.text.version_runs import title_version, version_runs
from tests.helpers.build_sources import write_sources


def test_a_title_names_its_version() -> None:
    assert title_version("pytest-2.2.1: bug fixes") == (2, 2, 1)
    assert title_version("NumPy 1.26.4 Release Notes") == (1, 26, 4)
    assert title_version("pytest-6.0.0rc1") == (6, 0, 0)
    assert title_version("Django 4.2 release notes") == (4, 2)
    assert title_version("What changed in 2024.01") is None  # a date's
    assert title_version("Windows 10 and 11") is None
    assert title_version("Release notes") is None


def test_majors_that_fit_go_together_and_a_large_one_by_its_minors() -> None:
    members = [(f"a{v}", v) for v in [(1, 0), (1, 1), (2, 0)]]
    members += [(f"b{n}", (3, n // 4, n % 4)) for n in range(12)]  # 3.0.0 .. 3.2.3
    runs = version_runs(members, 5)
    assert [r.label for r in runs] == [
        "Versions 1.0 to 2.0",
        "Version 3.0",
        "Version 3.1",
        "Version 3.2",
    ]
    assert runs[0].members == ["a(1, 0)", "a(1, 1)", "a(2, 0)"]
    assert sum(len(r.members) for r in runs) == len(members)
    assert version_runs([("a", (1, 0)), ("b", (1, 1))], 5) == []  # one run: none


def test_a_toctree_of_many_releases_is_split_by_version(tmp_path: Path) -> None:
    versions = [
        f"{major}.{minor}.{patch}"
        for major in (4, 5, 6)
        for minor in range(5)
        for patch in range(5)
    ]
    files: dict[str, str | bytes] = {
        "doc/conf.py": 'project = "Demo"\n',
        "doc/index.rst": "Demo\n====\n\n.. toctree::\n\n   announce/index\n",
        "doc/announce/index.rst": "Release announcements\n=====================\n\n.. toctree::\n\n"
        + "".join(f"   release-{v}\n" for v in reversed(versions)),
    }
    for v in versions:
        title = f"demo-{v}"
        files[f"doc/announce/release-{v}.rst"] = (
            f"{title}\n{'=' * len(title)}\n\nDemo {v} has just been released to PyPI.\n"
        )
    out = tmp_path / "kb"
    build(
        write_sources(tmp_path / "src", files),
        out,
        now=dt.datetime(2026, 12, 7, tzinfo=dt.UTC),
        workers=1,
    )
    pkg = Package(out)
    pkg.load()
    folders = {
        p.rsplit("/", 2)[-2] for p, d in pkg.documents.items() if d.title.startswith("demo-")
    }
    assert folders == {"versions-4-0-to-5-4", "versions-6-0-to-6-4"}  # as the TOC: newest first
    where = {d.title: p for p, d in pkg.documents.items()}
    assert where["demo-5.2.0"].rsplit("/", 1)[0] == where["demo-5.2.1"].rsplit("/", 1)[0]
    assert len([t for t in where if t.startswith("demo-")]) == len(versions)
