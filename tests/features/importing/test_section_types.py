"""A page's type from the section the site puts it in: pytest's ``explanation/`` pages and
hatch's ``tutorials/`` were typed Reference (no heading or hint of their own said
otherwise); the site's own Diátaxis quarters say what they are."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf import frontmatter as fm
from kas_tui.features.importing.build import build
from kas_tui.features.importing.doc_types import section_type
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


# -- pages of headings and code alone ------------------------------------------------------------
# babel's plugin pages carry the site's own sections ("Example", "Installation", "Usage")
# and no sentence: 75 entries were described alike ("Document covering Example,
# Installation, Usage, ...") and check --agent-ready warned of each pair (KAS041).

PLUGIN = (
    "## Example\n\n```js\nvar a = () => {};\n```\n\n## Installation\n\n```sh\nnpm i x\n```\n\n"
    "## Usage\n\n```json\n{}\n```\n\n## Options\n\n### `{option}`\n\n`boolean`\n"
)


def test_a_page_of_the_sites_own_sections_is_named_by_its_title_its_own_sections_first(
    tmp_path: Path,
) -> None:
    names = ["arrow-functions", "block-scoping", "classes", "spread", "for-of", "literals"]
    files = {"mkdocs.yml": "site_name: Plugins\n"}
    for name in names:
        files[f"docs/{name}.md"] = f"# @babel/plugin-transform-{name}\n\n" + PLUGIN.replace(
            "{option}", f"{name}Loose"
        )
    files["docs/overview.md"] = "# Overview\n\n## Setup\n\n```sh\nx\n```\n\n## Caveats\n\nNone.\n"
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0

    def description(rel: str) -> str:
        parsed = fm.parse((out / rel).read_text("utf-8"))
        assert parsed is not None
        return parsed.data["description"]

    said = description("arrow-functions.md")
    assert said.startswith("Document on @babel/plugin-transform-arrow-functions, covering ")
    assert said.index("arrow-functionsLoose") < said.index("Example")  # its own first
    assert len({description(f"{n}.md") for n in names}) == len(names)
    # a page whose sections are its own is described by them, as before
    assert description("overview.md") == "Document covering Setup and Caveats."
