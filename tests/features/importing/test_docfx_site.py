"""dotnet/docfx's own repository: its site in ``docs/`` (``docs/docfx.json``, written
with a byte-order mark), its code and 440 test fixtures beside it, and a ``toc.yml``
whose items "Get started", "Essentials", "Advanced" are names alone heading the items
after them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import read_toc
from tests.helpers.build_sources import source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
DOCFX_JSON = '\ufeff{"build": {"globalMetadata": {"_appTitle": "docfx"}}}\n'
TOC = """\
- name: Get started
- href: basic-concepts.md
- href: ../index.md

- name: Essentials
- href: markdown.md
- name: Templates
  items:
  - href: template.md
"""


def page(title: str) -> str:
    return f"# {title}\n\n{title} explains one part of building a site.\n"


def test_a_name_alone_heads_the_items_after_it(tmp_path: Path) -> None:
    files = {
        "docs/toc.yml": TOC,
        "index.md": page("Quick Start"),
        "docs/basic-concepts.md": page("Basic Concepts"),
        "docs/markdown.md": page("Markdown"),
        "docs/template.md": page("Template"),
    }
    root = write_sources(tmp_path / "src", files)
    names = source_files(root)
    toc = read_toc("docs/toc.yml", lambda r: (root / r).read_text("utf-8"), names)
    assert toc is not None
    sections = toc.sections()
    assert sections["docs/basic-concepts.md"] == ["Get started"]
    assert sections["index.md"] == ["Get started"]
    assert sections["docs/markdown.md"] == ["Essentials"]
    assert sections["docs/template.md"] == ["Essentials", "Templates"]


def test_a_repository_with_its_site_in_docs_builds_the_site(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "docs/docfx.json": DOCFX_JSON,
        "docs/toc.yml": TOC,
        "docs/index.md": page("Quick Start"),
        "docs/basic-concepts.md": page("Basic Concepts"),
        "docs/markdown.md": page("Markdown"),
        "docs/template.md": page("Template"),
        "README.md": page("docfx repository"),
        "templates/package-lock.json": '{"name": "templates", "lockfileVersion": 3}',
        "test/Docfx.Tests/TestData/overwrite/rest.md": "---\nuid: &a\nx: *b\n---\nbad\n",
        "test/Docfx.Tests/TestData/empty.md": "",
    }
    for n in range(5):
        files[f"test/Docfx.Snapshot.Tests/case{n}.md"] = page(f"Snapshot {n}")
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    # the fixtures' bad YAML and the empty one are outside the site: no failure, no note
    assert result.errors == 0 and not result.failed, result.report
    assert not [n for n in result.notes if "test/" in n.split(": ", 1)[0]], result.notes
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert sorted(pkg.documents) == [
        "basic-concepts.md",
        "index-page.md",
        "markdown.md",
        "template.md",
    ]
    # docfx.json's _appTitle names the package, its byte-order mark notwithstanding
    assert (tmp_path / "kb" / "index.md").read_text("utf-8").splitlines()[3] == "# docfx"
