"""An MkDocs site whose navigation is Markdown (the literate-nav plugin), as
mkdocs/mkdocs' own is: ``mkdocs.yml``'s nav names ``user-guide/``, whose
``README.md`` lists its pages below a paragraph. Built, each such entry was reported
"not in the source", the folders' pages were sorted by title, and the two guides sat
under "Other pages"."""

from __future__ import annotations

import datetime as dt
import posixpath
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc
from tests.helpers.build_sources import source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def page(title: str) -> str:
    return f"# {title}\n\n{title} is one part of using the generator for a project's docs.\n"


README = """\
# User Guide

Building documentation with the generator.

---

The guide is for the generator's users. See [Getting Started] first, or use these:

- [Installation](installation.md)
- [Writing Your Docs](writing.md)
- [Command Line Interface](cli.md)

[Getting Started]: ../getting-started.md
"""


def test_a_folder_the_nav_names_is_its_readmes_list_opened_by_the_readme(tmp_path: Path) -> None:
    root = write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": "site_name: Gen\nnav:\n  - Home: index.md\n  - User Guide: user-guide/\n"
            "plugins:\n  - search\n  - literate-nav:\n      nav_file: README.md\n"
            "      implicit_index: true\n",
            "docs/index.md": page("Gen"),
            "docs/getting-started.md": page("Getting started"),
            "docs/user-guide/README.md": README,
            "docs/user-guide/cli.md": page("CLI"),
            "docs/user-guide/installation.md": page("Installing"),
            "docs/user-guide/writing.md": page("Writing docs"),
        },
    )
    toc = find_toc(source_files(root), lambda r: (root / r).read_text("utf-8"))
    assert toc is not None and toc.problems == []
    assert list(toc.order()) == [
        "docs/index.md",
        "docs/user-guide/README.md",
        "docs/user-guide/installation.md",
        "docs/user-guide/writing.md",
        "docs/user-guide/cli.md",
    ]
    assert toc.sections()["docs/user-guide/cli.md"] == ["User Guide"]
    result = build(root, tmp_path / "pkg", now=NOW)
    assert result.errors == 0 and not [n for n in result.notes if "not in the source" in n]
    guide = parse_index((tmp_path / "pkg" / "user-guide" / "index.md").read_text("utf-8"))
    # the README's order, not the titles' (CLI, Installing, Writing docs)
    assert [e.title for e in guide.entries][1:] == ["Installing", "Writing docs", "CLI"]


def test_without_a_nav_the_summary_is_the_whole_and_a_folder_link_its_own(tmp_path: Path) -> None:
    root = write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": "site_name: Gen\nplugins:\n  - literate-nav\n",
            "docs/SUMMARY.md": "* [Home](index.md)\n* Guides\n    * [Setup](guides/setup.md)\n"
            "    * [Deploy](guides/deploy.md)\n* [API](api/)\n* [Gone](gone.md)\n",
            "docs/index.md": page("Gen"),
            "docs/guides/setup.md": page("Setup"),
            "docs/guides/deploy.md": page("Deploy"),
            "docs/api/SUMMARY.md": "- [Client](client.md)\n- *\n",
            "docs/api/client.md": page("Client"),
            "docs/api/server.md": page("Server"),
            "docs/api/errors.md": page("Errors"),
        },
    )
    toc = find_toc(source_files(root), lambda r: (root / r).read_text("utf-8"))
    assert toc is not None and toc.kind == "mkdocs"
    assert list(toc.order()) == [
        "docs/index.md",
        "docs/guides/setup.md",
        "docs/guides/deploy.md",
        "docs/api/client.md",
        "docs/api/errors.md",
        "docs/api/server.md",
    ]
    assert toc.sections()["docs/api/server.md"] == ["API"]
    assert toc.sections()["docs/guides/deploy.md"] == ["Guides"]
    assert toc.problems == [
        "docs/SUMMARY.md:6: names gone.md, which is not in the source (docs/gone.md); "
        "fix the link or add the page"
    ]
    assert {"docs/SUMMARY.md", "docs/api/SUMMARY.md"} <= toc.read_files()


def test_a_nav_linking_its_own_folder_or_one_folder_many_times_ends(tmp_path: Path) -> None:
    """A folder's list linking itself and its sub-folder ten times each, nine deep,
    would be read ten to the ninth times: each folder is listed once, where first
    linked."""
    files = {"mkdocs.yml": "site_name: Gen\nplugins:\n  - literate-nav\n"}
    folder = "docs"
    for depth in range(9):
        below = f"{folder}/d{depth}"
        links = "".join(
            f"* [Here](./)\n* [Down]({posixpath.basename(below)}/)\n" for _ in range(10)
        )
        files[f"{folder}/SUMMARY.md"] = f"* [Page {depth}](p.md)\n{links}"
        files[f"{folder}/p.md"] = page(f"Page {depth}")
        folder = below
    files[f"{folder}/p.md"] = page("Deepest")
    root = write_sources(tmp_path / "src", files)
    toc = find_toc(source_files(root), lambda r: (root / r).read_text("utf-8"))
    assert toc is not None
    order = list(toc.order())
    assert order[0] == "docs/p.md" and order[-1] == f"{folder}/p.md"
    assert len(order) == len(set(order)) == 10
