"""Jupyter Books read as the book reads itself: a Jupyter Book 1 source as
executablebooks/jupyter-book keeps its ``docs/`` (``_toc.yml`` of parts, chapters with
sections, a ``glob:``, a ``url:``, an entry titled by ``title:``, a Jupytext ``.Rmd``
notebook, a missing page; ``_config.yml`` naming the book and leaving ``drafts/`` out),
a MyST-MD project as jupyter/governance keeps its ``docs/`` (``myst.yml`` whose
``project: toc:`` nests ``title:`` sections, a page with ``children:``, a ``pattern:``,
``extends`` and ``exclude``), and the quantecon mini book's ``jb-article``.

Built before this reader, jupyter-book's docs were its folders in alphabetical order,
``structure/toc.md`` (its page on the table of contents) was dropped as a docfx TOC,
``_config.yml``'s excluded drafts were pages, and governance's package had no
"Directory" or "Governance Bodies" and was titled "Docs"."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.site_about import site_about
from kas_tui.features.importing.toc import find_toc, read_toc
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

BOOK_TOC = """\
format: jb-book
root: intro
parts:
- caption: Tutorials
  chapters:
  - file: start/your-first-book
    sections:
    - file: start/overview
    - file: start/create
    - file: start/build
  - file: tutorials/references

- caption: Topic Guides
  numbered: true
  chapters:
  - file: basics/organize
    sections:
    - file: structure/toc
    - file: structure/configure
    - file: file-types/index
      sections:
      - file: file-types/markdown
      - file: file-types/notebooks
      - file: file-types/jupytext
  - file: content/index
    sections:
    - glob: content/*

- caption: About Jupyter Book
  chapters:
  - url: https://executablebooks.org/en/latest/gallery
    title: Gallery of Jupyter Books
  - file: explain/migration
  - file: reference/_changelog
    title: Change log
  - file: reference/glossary
"""
BOOK_CONFIG = """\
# Book settings
title: Jupyter Book
author: The Jupyter Book Community
description: >-
  Build beautiful, publication-quality books and documents from computational content.
exclude_patterns: [drafts/*, file-types/include-rst.rst]
execute:
  execute_notebooks: cache
"""


def _line(entry: str) -> int:
    """The line of ``_toc.yml`` that holds ``entry``."""
    return next(n for n, line in enumerate(BOOK_TOC.splitlines(), 1) if line.strip() == entry)


def page(title: str, body: str) -> str:
    return f"# {title}\n\n{body}\n"


def notebook(*cells: str) -> str:
    import json

    return json.dumps(
        {
            "cells": [
                {"cell_type": "markdown", "metadata": {}, "source": cell.splitlines(True)}
                for cell in cells
            ],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
            "nbformat": 4,
            "nbformat_minor": 4,
        }
    )


def jupyter_book_docs() -> dict[str, str | bytes]:
    return {
        "_toc.yml": BOOK_TOC,
        "_config.yml": BOOK_CONFIG,
        "intro.md": "---\ntitle: Books with Jupyter\n---\n\n"
        + "Build beautiful, publication-quality books from computational content.\n",
        "start/your-first-book.md": page(
            "Create your first book", "This tutorial steps you through creating a book."
        ),
        "start/overview.md": page("Overview", "The major components of building a book."),
        "start/create.md": page("Create a template book", "Let's create a sample book."),
        "start/build.md": page("Build your book", "Build outputs for your book."),
        "tutorials/references.md": page("References and cross-references", "Refer to content."),
        "basics/organize.md": page("Structure and organize content", "How a book is organized."),
        "structure/toc.md": page("Structure the Table of Contents", "The _toc.yml file."),
        "structure/configure.md": page("Configure the Table of Contents", "Numbering, depth."),
        "file-types/index.md": page("Types of content source files", "Markdown and notebooks."),
        "file-types/markdown.md": page("Markdown files", "Write content in Markdown."),
        "file-types/notebooks.ipynb": notebook(
            "# Jupyter Notebook files\n\nYou can create content with Jupyter notebooks."
        ),
        "file-types/jupytext.Rmd": "# Notebooks written as R Markdown\n",
        "file-types/include-rst.rst": "Included\n========\n\nA snippet.\n",
        "content/index.md": page("Write narrative content", "Content blocks, figures, math."),
        "content/myst.md": page("MyST Markdown overview", "MyST extends CommonMark."),
        "content/figures.md": page("Images and figures", "Figures with captions."),
        "content/math.md": page("Math and equations", "Inline and block math."),
        "explain/migration.md": page("Migrating to jupyter-book>=0.14", "Breaking changes."),
        "reference/_changelog.md": page("Change log", "Every release."),
        "drafts/old-intro.md": page("An old introduction", "Superseded."),
        "images/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    }


def test_a_jupyter_books_toc_reads_its_parts_chapters_and_sections() -> None:
    files = jupyter_book_docs()
    toc = find_toc(set(files), files.get)  # type: ignore[arg-type]
    assert toc is not None and toc.kind == "jupyter-book" and toc.file == "_toc.yml"
    order = list(toc.order())
    assert order[:5] == [
        "intro.md",
        "start/your-first-book.md",
        "start/overview.md",
        "start/create.md",
        "start/build.md",
    ]
    sections = toc.sections()
    # a part's caption over its chapters, a chapter a section its page opens and titles
    assert sections["start/overview.md"] == ["Tutorials", "Create your first book"]
    assert sections["tutorials/references.md"] == ["Tutorials"]
    assert sections["file-types/notebooks.ipynb"] == [
        "Topic Guides",
        "Structure and organize content",
        "Types of content source files",
    ]
    # the glob lists the folder's other pages, not the chapter's own page again
    assert [p for p in order if p.startswith("content/")] == [
        "content/index.md",
        "content/figures.md",
        "content/math.md",
        "content/myst.md",
    ]
    assert toc.titles()["reference/_changelog.md"] == "Change log"
    problems = "\n".join(toc.problems)
    glossary, jupytext = _line("- file: reference/glossary"), _line("- file: file-types/jupytext")
    assert (
        f"_toc.yml:{glossary}: the table of contents names reference/glossary, which is not "
        "in the source (no reference/glossary.md, .ipynb, .rst, .markdown); fix the entry or "
        "add the page" in problems
    )
    assert f"_toc.yml:{jupytext}: the table of contents names file-types/jupytext, which is " in (
        problems
    )
    assert "file-types/jupytext.Rmd: no page kas-tui converts" in problems
    assert toc.unpublished == {"drafts/old-intro.md", "file-types/include-rst.rst"}


def test_a_jupyter_book_builds_as_its_toc_lists_it(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", jupyter_book_docs()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    titles = {doc.meta.get("title") for doc in pkg.documents.values()}
    # its page on the table of contents is a page; the excluded drafts are none
    assert "Structure the Table of Contents" in titles
    assert "An old introduction" not in titles and "Jupyter Notebook files" in titles
    notes = "\n".join(result.notes)
    assert "2 files the book's _config.yml (exclude_patterns) leaves out; left out" in notes
    assert f"_toc.yml:{_line('- file: reference/glossary')}: the table of contents " in notes
    root_text = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert root_text.splitlines()[3] == "# Jupyter Book"  # _config.yml's title
    root = parse_index(root_text)
    assert root.entries[0].title == "Books with Jupyter"  # the root page opens the book
    # the parts head its bundles, in the book's order; a chapter's folders under its title
    headings = [s.title for s in root.sections if s.level == 2]
    parts = ["Tutorials", "Topic Guides", "About Jupyter Book"]
    assert [h for h in headings if h in parts] == parts, root_text
    assert "Structure and organize content" in headings
    assert {e.title: e.target for e in root.entries}["Create your first book"] == "start/"
    assert [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"] == []


GOVERNANCE_MYST = """\
version: 1
extends:
  - _site/nav.yml
  - https://example.org/jupyter-book/site.yml
project:
  title: Project Jupyter Governance
  description: How Project Jupyter is governed, and by whom.
  github: https://github.com/jupyter/governance
  exclude:
    - LICENSE.md
    - README.md
    - drafts

  toc:
    - file: intro.md
      title: Introduction

    # Quick access to who/what
    - title: Directory
      children:
        - file: people.md
          title: Leadership Directory
        - file: list_of_subprojects.md
        - file: list_of_committees.md

    - title: How Governance Works
      children:
        - file: overview.md
        - file: decision_making.md

    - title: Governance Bodies
      children:
        - file: executive_council.md
        - file: software_subprojects.md
          title: Software Subprojects
          children:
            - file: newsubprojects.md
              title: Creating New Subprojects
        - file: standing_committees.md
          title: Committees & Working Groups
          children:
            - pattern: charters/*.md
        - file: steering_council.md
site:
  template: book-theme
"""


def governance_docs() -> dict[str, str | bytes]:
    return {
        "myst.yml": GOVERNANCE_MYST,
        "_site/nav.yml": "site:\n  nav:\n    - title: Jupyter\n      url: https://jupyter.org\n",
        "intro.md": page("Project Jupyter Governance", "The governing bodies of Jupyter."),
        "people.md": page("Leadership Directory", "The present and past leadership."),
        "list_of_subprojects.md": page("List of Official Jupyter Subprojects", "Subprojects."),
        "list_of_committees.md": page("List of Standing Committees", "Chartered domains."),
        "overview.md": page("Jupyter Governance Overview", "The current governance model."),
        "decision_making.md": page("Decision-Making Guide", "How councils make decisions."),
        "standing_committees.md": page("Standing Committees and Working Groups", "Charters."),
        "executive_council.md": page("Executive Council", "The council's charter."),
        "software_subprojects.md": page("Software Subprojects", "How subprojects work."),
        "newsubprojects.md": page("New Subproject Process", "Incorporating a new subproject."),
        "charters/DocumentationCharter.md": page("Documentation Charter", "Its mission."),
        "charters/MediaStrategyCharter.md": page("Media Strategy Charter", "Its mission."),
        "drafts/notes.md": page("Meeting notes", "Not published."),
        "README.md": "# governance\n\nThe repository of Jupyter's governance documents.\n",
        "LICENSE.md": "CC0 1.0 Universal\n",
    }


def test_a_myst_projects_toc_reads_its_sections_children_and_patterns() -> None:
    files = governance_docs()
    toc = find_toc(set(files), files.get)  # type: ignore[arg-type]
    assert toc is not None and toc.kind == "myst" and toc.file == "myst.yml"
    assert list(toc.order()) == [
        "intro.md",
        "people.md",
        "list_of_subprojects.md",
        "list_of_committees.md",
        "overview.md",
        "decision_making.md",
        "executive_council.md",
        "software_subprojects.md",
        "newsubprojects.md",
        "standing_committees.md",
        "charters/DocumentationCharter.md",
        "charters/MediaStrategyCharter.md",
    ]
    sections = toc.sections()
    assert sections["people.md"] == ["Directory"]
    assert sections["newsubprojects.md"] == ["Governance Bodies", "Software Subprojects"]
    assert sections["charters/MediaStrategyCharter.md"] == [
        "Governance Bodies",
        "Committees & Working Groups",
    ]
    line = GOVERNANCE_MYST.splitlines().index("        - file: steering_council.md") + 1
    assert toc.problems == [
        f"myst.yml:{line}: the table of contents names steering_council.md, which is not in "
        "the source; fix the entry or add the page"
    ]
    assert toc.unpublished == {"drafts/notes.md", "README.md", "LICENSE.md"}
    assert site_about(files.get, set(files)) == (  # type: ignore[arg-type]
        "Project Jupyter Governance",
        "How Project Jupyter is governed, and by whom.",
    )


def test_a_myst_project_builds_as_its_toc_lists_it(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", governance_docs()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    titles = {doc.meta.get("title") for doc in pkg.documents.values()}
    assert "Meeting notes" not in titles and len(titles) == 12, titles
    root_text = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert root_text.splitlines()[3] == "# Project Jupyter Governance"
    root = parse_index(root_text)
    bundles = {e.title: e.target for e in root.entries if e.target.endswith("/")}
    assert bundles == {"Directory": "directory/", "Governance Bodies": "governance-bodies/"}


def test_a_myst_toc_in_a_file_it_extends_or_a_toc_yml_beside_it() -> None:
    pages = {"index.md": page("Home", "Welcome."), "guide.md": page("Guide", "How to.")}
    extended = {
        **pages,
        "myst.yml": "version: 1\nextends:\n  - toc.yml\nproject:\n  title: Extended\n",
        "toc.yml": "version: 1\nproject:\n  toc:\n    - file: guide.md\n    - file: index.md\n",
    }
    toc = read_toc("myst.yml", extended.get, set(extended))  # type: ignore[arg-type]
    assert toc is not None and list(toc.order()) == ["guide.md", "index.md"]
    legacy = {
        **pages,
        "myst.yml": "version: 1\nproject:\n  title: Legacy\n",
        "_toc.yml": "format: jb-book\nroot: index\nchapters:\n- file: guide\n",
    }
    toc = find_toc(set(legacy), legacy.get)  # type: ignore[arg-type]
    assert toc is not None and toc.kind == "myst" and list(toc.order()) == ["index.md", "guide.md"]
    article = {
        **{f"docs/{k}": v for k, v in pages.items()},
        "_toc.yml": "format: jb-article\nroot: docs/index\nsections:\n- file: docs/guide\n",
    }
    toc = find_toc(set(article), article.get)  # type: ignore[arg-type]
    assert toc is not None and list(toc.order()) == ["docs/index.md", "docs/guide.md"]
    broken = {**pages, "_toc.yml": "format: jb-book\nroot: index\nchapters:\n- file: [guide\n"}
    toc = find_toc(set(broken), broken.get)  # type: ignore[arg-type]
    assert toc is not None and toc.problems[0].startswith("_toc.yml:5: not valid YAML (")
    odd = {**pages, "_toc.yml": "format: jb-book\nroot: index\nchapters:\n- file: [guide]\n- 3\n"}
    toc = find_toc(set(odd), odd.get)  # type: ignore[arg-type]
    assert toc is not None and toc.problems == [
        '_toc.yml:4: the table of contents\' entry {"file": ["guide"]} names no file:, '
        "glob: or url: (nor entries below it); fix the entry",
        "_toc.yml:5: the table of contents' entry 3 names no file:, glob: or url: (nor "
        "entries below it); fix the entry",
    ]
