"""An MkDocs site kept one folder per language, each with its own ``mkdocs.yml``, as
FastAPI's repository keeps it (``docs/en/mkdocs.yml``, ``docs/es/mkdocs.yml``, ...,
pages in ``docs/en/docs/``), and a nav whose sections are untitled (``- "":``) and
named by their first page. Built, its config was never found (it sits two folders
down): the package was the repository's folders (``docs/en/docs/``, ``scripts/``),
its site-rooted image links were reported as naming no file, and the nav's "Learn",
"Resources" and "About" were no sections at all."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc
from tests.helpers.build_sources import source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

NAV = """\
site_name: Hyperion
docs_dir: docs
nav:
- Hyperion: index.md
- features.md
- "":
  - learn/index.md
  - python-types.md
  - "":
    - tutorial/index.md
    - tutorial/first-steps.md
    - tutorial/path-params.md
- "":
  - resources/index.md
  - help.md
- release-notes.md
"""


def page(title: str, anchor: str = "") -> str:
    attr = f" {{ #{anchor} }}" if anchor else ""
    return (
        f"# {title}{attr}\n\n{title} is what a reader of the framework's guide looks for.\n\n"
        "![diagram](/img/diagram.png)\n"
    )


PAGES = {
    "index.md": page("Hyperion"),
    "features.md": page("Features"),
    "learn/index.md": page("Learn", "learn"),
    "python-types.md": page("Python Types Intro"),
    "tutorial/index.md": page("Tutorial - User Guide"),
    "tutorial/first-steps.md": page("First Steps"),
    "tutorial/path-params.md": page("Path Parameters"),
    "resources/index.md": "---\ntitle: Resources and links\n---\n\n" + page("Resources"),
    "help.md": page("Help"),
    "release-notes.md": page("Release Notes"),
}


def fastapi_shaped(root: Path) -> Path:
    files = {"README.md": page("Hyperion repository"), "scripts/notes.md": page("Script notes")}
    for language in ("en", "es", "de"):
        files[f"docs/{language}/mkdocs.yml"] = (
            NAV if language == "en" else "INHERIT: ../en/mkdocs.yml\n"
        )
        for rel, text in PAGES.items():
            files[f"docs/{language}/docs/{rel}"] = text
    files["docs/en/docs/img/diagram.png"] = "not really a png"
    return write_sources(root, files)


def test_the_site_is_the_language_folders_config_beside_its_translations(tmp_path: Path) -> None:
    root = fastapi_shaped(tmp_path / "src")
    toc = find_toc(source_files(root), lambda r: (root / r).read_text("utf-8"))
    assert toc is not None
    assert toc.file == "docs/en/mkdocs.yml" and toc.docs_dir == "docs/en/docs"
    # an untitled section is named by its first page: the nav's title, the page's front
    # matter title, else its first heading (without its attribute list)
    assert [n.title for n in toc.roots] == [
        "Hyperion",
        None,
        "Learn",
        "Resources and links",
        None,
    ]
    learn = toc.roots[2]
    assert learn.path is None and [c.path for c in learn.children][:2] == [
        "docs/en/docs/learn/index.md",
        "docs/en/docs/python-types.md",
    ]
    assert learn.children[2].title == "Tutorial - User Guide"


def test_the_built_package_is_the_sites_pages_under_its_sections(tmp_path: Path) -> None:
    root = fastapi_shaped(tmp_path / "src")
    out = tmp_path / "pkg"
    result = build(root, out, now=NOW)
    assert not result.failed
    built = {p.relative_to(out).as_posix() for p in out.rglob("*.md")}
    # the site's pages only: no other language, no repository folder around them
    assert not any(p.startswith(("docs/", "scripts/", "es/", "de/")) for p in built)
    assert "python-types.md" in built and "tutorial/first-steps.md" in built
    # a folder holding its landing page alone is that page, named as the folder: no
    # bundle of one page (a turn spent for nothing)
    assert {"learn.md", "resources.md"} <= built
    assert not (out / "learn").exists() and not (out / "resources").exists()
    headings = [s.title for s in parse_index((out / "index.md").read_text()).sections]
    assert "Learn" in headings
    # a site-rooted image resolves in the site's pages folder: no note says it is missing
    assert not any("/img/diagram.png" in note for note in result.notes)


def test_a_landing_page_alone_inside_a_bundle_is_a_page_and_keeps_its_images(
    tmp_path: Path,
) -> None:
    files = {
        "docs/guide/install.md": page("Install"),
        "docs/guide/configure.md": "# Configure\n\nSee [the post](post/) and [usage](../usage.md).\n",
        "docs/guide/post/index.md": "# The post\n\nWhat changed.\n\n![shot](shot.png)\n",
        "docs/guide/post/shot.png": "png",
        "docs/usage.md": page("Usage"),
        "docs/img/diagram.png": "png",
    }
    out = tmp_path / "pkg"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW)
    assert result.errors == 0, result.report
    post = (out / "guide" / "post.md").read_text()
    assert "![shot](post/shot.png)" in post and (out / "guide" / "post" / "shot.png").is_file()
    assert "[the post](post.md)" in (out / "guide" / "configure.md").read_text()
    assert "post.md" in {
        e.target for e in parse_index((out / "guide" / "index.md").read_text()).entries
    }
