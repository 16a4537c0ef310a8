"""A page's type from the section the site puts it in: pytest's ``explanation/`` pages and
hatch's ``tutorials/`` were typed Reference (no heading or hint of their own said
otherwise); the site's own Diátaxis quarters say what they are."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf import frontmatter as fm
from kas_tui.features.importing.build import build
from kas_tui.features.importing.heuristics import section_type
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)
PROSE = "This page walks through the idea behind fixtures and why they are scoped.\n"


def test_the_nearest_section_naming_a_kind_decides() -> None:
    assert section_type("tutorials/first-app.md") == "Tutorial"
    assert section_type("how-to-guides/deploy/docker.md") == "Procedure"
    assert section_type("explanation/fixtures.md") == "Concept"
    assert section_type("Reference/cli.md") == "Reference"
    assert section_type("reference/tutorials/intro.md") == "Tutorial"  # the nearest
    # sections that hold every kind, and a page named like a section, say nothing
    assert section_type("guide/widgets.md") is None
    assert section_type("getting-started/install.md") is None
    assert section_type("tutorial.md") is None


def test_a_sites_sections_type_their_pages_unless_the_page_says_otherwise(
    tmp_path: Path,
) -> None:
    source = write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": "site_name: Fixtures\nnav:\n  - Tutorials:\n    - First test: tutorials/first.md\n"
            "  - Explanation:\n    - Fixtures: explanation/fixtures.md\n"
            "    - Flaky tests: explanation/flaky.md\n",
            "docs/tutorials/first.md": "# Your first test\n\n" + PROSE,
            "docs/explanation/fixtures.md": "# About fixtures\n\n" + PROSE,
            "docs/explanation/flaky.md": "# Flaky tests\n\n## Symptoms\n\nIt fails.\n\n"
            "## Cause\n\nShared state.\n\n## Resolution\n\nIsolate it.\n",
        },
    )
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0 and result.failed == []

    def type_of(rel: str) -> str:
        parsed = fm.parse((out / rel).read_text("utf-8"))
        assert parsed is not None
        return parsed.data["type"]

    assert type_of("tutorials/first.md") == "Tutorial"
    assert type_of("explanation/fixtures.md") == "Concept"
    assert type_of("explanation/flaky.md") == "Troubleshooting"  # its own headings say
