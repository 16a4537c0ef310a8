"""kas_tui.features.importing.build_names: what a build names things, and where a
folder's landing page is listed."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def _built(tmp_path: Path, files: dict[str, str | bytes]) -> Package:
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    return pkg


def test_a_folder_is_named_by_its_landing_page_when_that_names_it(tmp_path: Path) -> None:
    """tauri-docs' ``concept/index.mdx`` is "Core Concepts": the bundle was "Concept",
    its folder's name; ``start/index.mdx`` ("What is Tauri?") does not name its folder,
    which keeps its own name."""
    page = "---\ntitle: {}\n---\n\n{} explains a part of building apps with the toolkit.\n"
    pkg = _built(
        tmp_path,
        {
            "concept/index.mdx": page.format("Core Concepts", "This page"),
            "concept/process-model.md": page.format("Process Model", "The process model"),
            "start/index.mdx": page.format("What is Tauri?", "This page"),
            "start/prerequisites.md": page.format("Prerequisites", "The first step"),
        },
    )
    root = parse_index((pkg.root / "index.md").read_text("utf-8"))
    assert [e.title for e in root.entries] == ["Core Concepts", "Start"]


def test_a_folders_landing_page_is_listed_first_in_its_index(tmp_path: Path) -> None:
    """A folder's ``README``/``index`` is where a reader of the site starts: its index
    lists it first, before the sub-bundles and the pages sorted by title ("Alerts" and
    "Backups" sorted before "Operations guide")."""
    page = "---\ntitle: {}\n---\n\n{} tells the on-call engineer what to do next.\n"
    pkg = _built(
        tmp_path,
        {
            "ops/README.md": page.format("Operations guide", "This guide"),
            "ops/alerts.md": page.format("Alerts", "The alert list"),
            "ops/backups.md": page.format("Backups", "The backup plan"),
            "ops/db/failover.md": page.format("Failover", "The failover runbook"),
            "ops/db/restore.md": page.format("Restore", "The restore runbook"),
            "other.md": page.format("Other", "Another page"),
        },
    )
    ops = parse_index((pkg.root / "ops" / "index.md").read_text("utf-8"))
    assert [e.title for e in ops.entries] == ["Operations guide", "Db", "Alerts", "Backups"]
    # the first entry stands before any section heading
    first = ops.entries[0]
    assert all(s.line > first.line for s in ops.sections if s.level == 2)


def test_frontmatter_after_blank_lines_is_the_pages_own(tmp_path: Path) -> None:
    """Biome's pages open with a blank line above their frontmatter, which the site
    reads: the description was "Title: Getting Started description: Learn how..."."""
    pkg = _built(
        tmp_path,
        {
            "guide.mdx": "\n---\ntitle: Getting Started\ndescription: Learn how to set up a "
            "new project.\n---\n\nBiome is best installed as a development dependency.\n",
            # a thematic break after a blank line, then prose: no frontmatter, read as it is
            "notes.md": "\n---\n\nA paragraph between two rules.\n\n---\n",
        },
    )
    root = parse_index((pkg.root / "index.md").read_text("utf-8"))
    said = {e.title: e.description for e in root.entries}
    assert said["Getting Started"] == "Learn how to set up a new project."
    assert "Notes" in said


def test_a_landing_page_the_toc_does_not_list_opens_the_index(tmp_path: Path) -> None:
    """opentelemetry.io's and tauri-docs' home pages are in no menu: they sat under
    "Other pages", after every bundle."""
    page = "---\ntitle: {}\n---\n\n{} tells the reader where to begin.\n"
    pkg = _built(
        tmp_path,
        {
            "mkdocs.yml": "site_name: Ops\nnav:\n  - Guide:\n    - guide/a.md\n"
            "  - Reference:\n    - ref/b.md\n",
            "docs/index.md": page.format("Welcome to Ops", "This home page"),
            "docs/guide/a.md": page.format("Alerts", "The alert list"),
            "docs/ref/b.md": page.format("Backups", "The backup plan"),
            "docs/extra.md": page.format("Extra", "A page in no menu"),
        },
    )
    root = parse_index((pkg.root / "index.md").read_text("utf-8"))
    titles = [e.title for e in root.entries]
    assert titles[0] == "Welcome to Ops", titles
    assert all(s.line > root.entries[0].line for s in root.sections if s.level == 2)
    assert titles[-1] == "Extra"  # another page in no menu still follows the rest
