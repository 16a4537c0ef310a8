"""A Docsify site as docsifyjs/docsify keeps its ``docs/``: an ``index.html`` setting
``window.$docsify`` (its ``name``, an ``alias`` of regular expressions, some fetching a
page from another repository), ``README.md`` the home page, ``_sidebar.md`` of plain
section items and links read from the site's folder, ``_coverpage.md`` and
``_navbar.md`` around every page, ``CNAME`` and ``_media/``.

Built as a wiki before this reader: the home page ``README.md`` became an asset
(``readme.txt``) as a repository's README, ``_coverpage.md`` and ``_navbar.md`` were
pages ("docsify 5.0.0-rc.4 :id=docsify"), ``index.html`` failed to convert, the package
was titled "Docs" and the sidebar's two alias pages were "not in the wiki"."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc
from kas_tui.features.importing.toc_docsify import docsify_about, docsify_page
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
INDEX_HTML = """\
<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>docsify</title></head>
  <body>
    <div id="app"></div>
    <script>
      // Docsify configuration
      window.$docsify = {
        alias: {
          '.*?/changelog':
            'https://raw.githubusercontent.com/docsifyjs/docsify/main/CHANGELOG.md',
          '/.*/_navbar.md': '/_navbar.md',
        },
        coverpage: true,
        loadSidebar: true,
        loadNavbar: true,
        name: 'docsify',
        subMaxLevel: 2,
      };
    </script>
    <script src="//cdn.jsdelivr.net/npm/docsify@5"></script>
  </body>
</html>
"""
SIDEBAR = """\
<!-- markdownlint-disable first-line-h1 -->

- Getting started

  - [Quick start](quickstart.md)
  - [Adding pages](adding-pages.md)

- Customization

  - [Configuration](configuration.md)
  - [Themes](/themes)

- Guide

  - [Deploy](guide/)
  - [Helpers](guide/helpers.md)

* [Changelog](changelog.md)
"""


def page(title: str, body: str) -> str:
    return f"# {title}\n\n{body}\n"


def docsify_like() -> dict[str, str | bytes]:
    return {
        "index.html": INDEX_HTML,
        "_sidebar.md": SIDEBAR,
        "_coverpage.md": "![logo](_media/icon.svg)\n\n# docsify <small>5.0</small>\n\n> A magical documentation site generator\n",
        "_navbar.md": "- Translations\n  - [English](/)\n  - [简体中文](/zh-cn/)\n",
        "README.md": page(
            "docsify",
            "Docsify turns your Markdown files into a documentation website instantly. "
            "Read the [quick start](quickstart.md) to begin.",
        ),
        "quickstart.md": page(
            "Quick start",
            "Install docsify-cli globally, then see [the alias option](configuration#alias).",
        ),
        "adding-pages.md": page(
            "Adding pages",
            "Create more Markdown files; the [sidebar](/adding-pages?id=sidebar) lists them.",
        ),
        "configuration.md": page(
            "Configuration", "You can configure Docsify by defining window.$docsify as an object."
        ),
        "themes.md": page(
            "Themes", "The core theme holds every style the site needs; see [deploying](/guide/)."
        ),
        "guide/README.md": page(
            "Deploy", "Deploy the docs folder to GitHub Pages, GitLab Pages or a server."
        ),
        "guide/helpers.md": page(
            "Doc helper",
            "Docsify extends Markdown with callouts; [configure it](configuration#alias) first.",
        ),
        "CNAME": "docsify.js.org\n",
        ".nojekyll": "",
        "_media/icon.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    }


def test_a_docsify_site_builds_as_its_sidebar_lists_it(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", docsify_like()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    assert not result.failed
    pkg = Package(tmp_path / "kb")
    pkg.load()
    titles = {path: doc.meta.get("title") for path, doc in pkg.documents.items()}
    # the home page is a page, the frame (cover, navbar, sidebar, index.html) is none
    assert "docsify" in titles.values() and len(titles) == 7, titles
    assert not any(t and ("magical" in t or "Translations" in t) for t in titles.values())
    root_text = (tmp_path / "kb" / "index.md").read_text("utf-8")
    root = parse_index(root_text)
    assert root_text.splitlines()[3] == "# docsify"
    # the home page opens the root; the sidebar's sections are its bundles
    assert root.entries[0].title == "docsify" and not root.entries[0].target.endswith("/")
    sections = [s.title for s in root.sections if s.level == 2]
    assert sections[:3] == ["Getting started", "Customization", "Guide"]
    notes = "\n".join(result.notes)
    assert (
        "_sidebar.md:18: links to changelog.md, which the site's alias reads from "
        "https://raw.githubusercontent.com/docsifyjs/docsify/main/CHANGELOG.md" in notes
    )
    # links read from the site's folder: configuration#alias, /themes, /guide/ (its README)
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken


def test_docsify_pages_and_name() -> None:
    files = {"README.md", "guide/README.md", "guide/helpers.md", "quickstart.md"}
    assert docsify_page("/", "", files) == "README.md"
    assert docsify_page("guide/", "", files) == "guide/README.md"
    assert docsify_page("/guide/helpers", "", files) == "guide/helpers.md"
    assert docsify_page("quickstart.md?id=install", "", files) == "quickstart.md"
    assert docsify_page("https://docsify.js.org/", "", files) is None
    assert docsify_about(INDEX_HTML) == ("docsify", None)
    assert docsify_about("<html><script>window.config = {name: 'x'}</script></html>") == (
        None,
        None,
    )
    toc = find_toc(set(docsify_like()), docsify_like().get)  # type: ignore[arg-type]
    assert toc is not None and toc.kind == "docsify"
    assert {"_coverpage.md", "_navbar.md", "index.html"} <= set(toc.theme_dirs)


def test_a_wiki_sidebar_without_docsify_stays_a_wiki(tmp_path: Path) -> None:
    files = {
        "_Sidebar.md": "* [[Home]]\n* [[Setup Guide]]\n",
        "Home.md": "# Home\n\nThe wiki's home.\n",
        "Setup-Guide.md": "# Setup Guide\n\nHow to set it up.\n",
    }
    toc = find_toc(set(files), files.get)
    assert toc is not None and toc.kind == "wiki-sidebar"
    assert [n.path for n in toc.roots] == ["Home.md", "Setup-Guide.md"]
