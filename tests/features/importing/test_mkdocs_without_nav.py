"""MkDocs sites without a ``nav``, as ActianCorp/zeenea-platform-docs and 0install/docs
keep theirs: the awesome-pages plugin arranging each folder with a ``.pages`` file
(``nav`` with titles, folders, ``...``), or MkDocs' own order of the pages folder.

Built before, neither was taken for an MkDocs site (its config has no ``nav``): their
``Makefile``, ``Jenkinsfile``, ``requirements.txt`` and ``docker-compose.yml`` were
documents beside a bundle named "Docs", the root alphabetical."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
MKDOCS = """\
site_name: Actian Data Intelligence Platform
theme:
  name: material
plugins:
  - search
  - awesome-pages
"""


def page(title: str) -> str:
    return f"# {title}\n\n{title} explains one part of the platform.\n"


def zeenea_like() -> dict[str, str | bytes]:
    return {
        "mkdocs.yml": MKDOCS,
        "Makefile": "serve:\n\tmkdocs serve\n",
        "Jenkinsfile": "pipeline { agent any }\n",
        "requirements.txt": "mkdocs-material>=9.6\nmkdocs-awesome-pages-plugin\n",
        "docs/.pages": "nav:\n    - Home: index.md\n    - Getting Started: getting-started\n"
        "    - Technical Documentation: technical-documentation\n    - ...\n",
        "docs/index.md": page("Actian Data Intelligence"),
        "docs/tags.md": page("Tags"),
        "docs/getting-started/index.md": page("Your First Steps"),
        "docs/getting-started/b-connect.md": page("Connect a source"),
        "docs/getting-started/a-invite.md": page("Invite users"),
        "docs/technical-documentation/.pages": "title: Technical docs\nnav:\n  - api\n"
        "  - Scanner setup: scanner.md\n  - missing.md\n",
        "docs/technical-documentation/scanner.md": page("Zeenea scanner setup"),
        "docs/technical-documentation/api/graphql.md": page("GraphQL API"),
        "docs/technical-documentation/api/rest.md": page("REST API"),
        "docs/technical-documentation/old-notes.md": page("Old notes"),
    }


def test_awesome_pages_arranges_the_site(tmp_path: Path) -> None:
    files = zeenea_like()
    toc = find_toc(set(files), files.get)  # type: ignore[arg-type]
    assert toc is not None and toc.kind == "mkdocs" and toc.docs_dir == "docs"

    def shape(nodes: list) -> list:
        return [(n.title, n.path, shape(n.children)) for n in nodes]

    assert shape(toc.roots) == [
        ("Home", "docs/index.md", []),
        (
            "Getting Started",
            None,
            [
                (None, "docs/getting-started/index.md", []),
                (None, "docs/getting-started/a-invite.md", []),
                (None, "docs/getting-started/b-connect.md", []),
            ],
        ),
        (
            "Technical Documentation",
            None,
            [
                (
                    "Api",
                    None,
                    [
                        (None, "docs/technical-documentation/api/graphql.md", []),
                        (None, "docs/technical-documentation/api/rest.md", []),
                    ],
                ),
                ("Scanner setup", "docs/technical-documentation/scanner.md", []),
            ],
        ),
        (None, "docs/tags.md", []),
    ]
    assert toc.problems == [
        "docs/technical-documentation/.pages:5: its nav names missing.md, which "
        "docs/technical-documentation does not hold; fix the entry or add the page"
    ]


def test_a_site_without_a_nav_builds_its_pages_folder_only(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", zeenea_like()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not any(
        p.lower().startswith(("makefile", "jenkinsfile", "requirements")) for p in pkg.documents
    )
    root = parse_index((tmp_path / "kb" / "index.md").read_text("utf-8"))
    # in the order of the .pages files (the home page by its own title)
    titles = [e.title.casefold() for e in root.entries][:4]
    assert titles == [
        "actian data intelligence",
        "getting started",
        "technical documentation",
        "tags",
    ]
    # MkDocs alone (no plugin): a folder's pages, its index first, then its folders
    files = {k: v for k, v in zeenea_like().items() if not k.endswith(".pages")}
    files["mkdocs.yml"] = "site_name: Zero Install Docs\n"
    toc = find_toc(set(files), files.get)  # type: ignore[arg-type]
    assert toc is not None and [n.title or n.path for n in toc.roots] == [
        "docs/index.md",
        "docs/tags.md",
        "Getting started",
        "Technical documentation",
    ]


def test_a_config_without_a_nav_beside_one_with_a_nav_is_not_the_toc() -> None:
    # Textual's docs: mkdocs-common.yml (site_name, no nav) beside mkdocs-nav.yml (the nav);
    # read first, the common config's folder order replaced the site's navigation
    files = {
        "mkdocs-common.yml": "site_name: Textual\ndocs_dir: docs\n",
        "mkdocs-nav.yml": "nav:\n  - Introduction:\n    - index.md\n    - tutorial.md\n",
        "docs/index.md": page("Textual"),
        "docs/tutorial.md": page("Tutorial"),
        "docs/zzz.md": page("Unlisted"),
    }
    toc = find_toc(set(files), files.get)  # type: ignore[arg-type]
    assert toc is not None and toc.file == "mkdocs-nav.yml"
    assert [n.title for n in toc.roots] == ["Introduction"]


def test_pages_files_are_read_when_a_wrapper_plugin_brings_awesome_pages() -> None:
    # DiamondLightSource/developer-portal: plugins: [techdocs-diamond] (TechDocs' wrapper)
    files = {k: v for k, v in zeenea_like().items()}
    files["mkdocs.yml"] = "site_name: Developer Portal\nplugins:\n  - techdocs-diamond\n"
    toc = find_toc(set(files), files.get)  # type: ignore[arg-type]
    assert toc is not None and [n.title for n in toc.roots][:3] == [
        "Home",
        "Getting Started",
        "Technical Documentation",
    ]
