"""Quarto projects (quarto-dev/quarto-web, hadley/r4ds): ``.qmd`` pages are Markdown, the
``_quarto.yml`` sidebar or chapters are the tree, ``_``-named files are Quarto's own."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

WEBSITE = """project:
  type: website
website:
  title: "Demo"
  sidebar:
    contents:
      - index.qmd
      - section: "Guide"
        contents:
          - guide/zeta.qmd
          - href: guide/alpha.qmd
            text: "Using alpha"
          - guide/*.qmd
      - missing.qmd
"""


def _page(title: str, text: str, extra: str = "") -> str:
    return f'---\ntitle: "{title}"\n{extra}---\n\n{text}\n'


def test_a_quarto_websites_sidebar_is_the_tree(tmp_path: Path) -> None:
    source = write_sources(
        tmp_path / "src",
        {
            "_quarto.yml": WEBSITE,
            "_quarto-prerelease.yml": "website:\n  title: Demo (pre-release)\n",
            "index.qmd": _page(
                "Welcome to Demo", "Demo renders reports. See [Zeta](guide/zeta.qmd)."
            ),
            "guide/zeta.qmd": _page(
                "Zeta Setup",
                "## Install\n\nRun the installer, then read [usage](alpha.qmd#sec-usage) and "
                "[the site's page](/guide/alpha.html).",
                'description: "How to install Demo on a laptop."\n',
            ),
            "guide/alpha.qmd": _page(
                "Alpha Usage", "## Usage {#sec-usage}\n\nCall `demo run` with a file."
            ),
            "_freeze/guide/alpha/execute-results/html.json": '{"hash": "abc"}\n',
            "_extensions/acme/_extension.yml": "title: Acme\n",
        },
    )
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0
    pkg = Package(out)
    pkg.load()
    titles = {pkg.documents[p].title for p in pkg.documents}
    assert titles == {"Welcome to Demo", "Zeta Setup", "Alpha Usage"}  # no _freeze, no profile
    root = (out / "index.md").read_text("utf-8")
    assert "\n# Demo\n" in root  # the site's title
    zeta = next(p for p in pkg.documents if pkg.documents[p].title == "Zeta Setup")
    text = (out / zeta).read_text("utf-8")
    parsed = fm.parse(text)
    assert parsed is not None and parsed.data["description"] == "How to install Demo on a laptop."
    body = text.split("\n---\n", 1)[1]
    assert "title:" not in body  # its own front matter read, not copied into the body
    assert "alpha.md#sec-usage" in body and ".qmd" not in body
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert any("_quarto.yml:14: names missing.qmd, which is not" in n for n in result.notes), (
        result.notes
    )
    order = [line for line in root.splitlines() if line.startswith("* [")]
    assert order[0].startswith("* [Welcome to Demo]")


def test_a_quarto_books_parts_and_chapters_are_the_tree(tmp_path: Path) -> None:
    book = """project:
  type: book
book:
  title: "R for Data Science"
  chapters:
    - index.qmd
    - part: whole-game.qmd
      chapters:
        - data-visualize.qmd
        - workflow-basics.qmd
    - part: "Import"
      chapters:
        - spreadsheets.Rmd
  appendices:
    - base-R.qmd
"""
    pages = {
        "index.qmd": _page("Welcome", "This is the website for the book."),
        "whole-game.qmd": _page("Whole game", "A rapid overview of the main tools."),
        "data-visualize.qmd": _page("Data visualization", "How to visualize data with ggplot2."),
        "workflow-basics.qmd": _page("Workflow: basics", "Running R code and naming things."),
        "spreadsheets.Rmd": _page("Spreadsheets", "Reading data from Excel and Google Sheets."),
        "base-R.qmd": _page("A field guide to base R", "Base R functions you will meet."),
    }
    source = write_sources(tmp_path / "src", {"_quarto.yml": book, **pages})
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    assert len(pkg.documents) == 6
    assert "\n# R for Data Science\n" in (out / "index.md").read_text("utf-8")
    root = (out / "index.md").read_text("utf-8")
    entries = [line.split("](")[0][3:] for line in root.splitlines() if line.startswith("* [")]
    assert entries == [  # the chapters in the book's order, its parts as sections
        "Welcome",
        "Whole game",
        "Data visualization",
        "Workflow: basics",
        "Spreadsheets",
        "A field guide to base R",
    ]
    assert "\n## Import\n" in root and "\n## Appendices\n" in root


def test_a_bookdown_books_chapters_parts_and_markup(tmp_path: Path) -> None:
    """adv-r and rmarkdown-book: ``_bookdown.yml`` orders the chapters, ``# (PART) Basics
    {-}`` opens a part (it was a chapter's title, 14 times), ``{-}`` marks no title and
    ``\\@ref()``/``\\index{}`` no description; a chapter its list leaves out is no page."""
    files = {
        "_bookdown.yml": 'book_filename: demo\nrmd_files: ["index.Rmd", "02-zeta.Rmd", "01-alpha.Rmd"]\n',
        "index.Rmd": '---\ntitle: "The Demo Book"\nsite: bookdown::bookdown_site\n---\n\n'
        "# Preface {-}\n\nThis book teaches the demo package.\n",
        "01-alpha.Rmd": "# (PART) Basics {-}\n\n# Alpha methods {#alpha}\n\nAlpha methods fit "
        "a model. See Chapter \\@ref(zeta) and the glossary\\index{glossary}.\n",
        "02-zeta.Rmd": "# Zeta data {#zeta}\n\nZeta data holds rows of measurements.\n",
        "03-connections.Rmd": "# Connections\n\nA chapter not finished.\n",
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0
    root = (out / "index.md").read_text("utf-8")
    assert "\n# The Demo Book\n" in root and "\n## Basics\n" in root
    entries = [line.split("](")[0][3:] for line in root.splitlines() if line.startswith("* [")]
    assert entries == ["The Demo Book", "Zeta data", "Alpha methods"]
    assert "See Chapter zeta and the glossary." in root and "{-}" not in root
    assert any("03-connections.Rmd" in n or "1 file the book's" in n for n in result.notes)
    assert not (out / "03-connections.md").exists()
