"""A Jekyll site whose sidebar is a data file, as jekyllrb.com's is (jekyll/jekyll's
``docs/``: ``_data/docs_nav.yml`` heads sections and lists pages by the address the
site serves them at, ``tutorials.yml`` names a collection's pages, ``primary_nav.yml``
is the top bar). Built, its docs index was sorted by kind and title: "Community,
Configuration, Continuous integration...", and a site kept in ``docs/`` was never
looked at for a config at all."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kas_tui.core.okf.index import parse_index
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc
from tests.helpers.build_sources import source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def page(title: str, permalink: str | None = None, text: str = "") -> str:
    front = f"title: {title}\n" + (f"permalink: {permalink}\n" if permalink else "")
    body = text or f"{title} explains one part of building a site with the tool."
    return f"---\n{front}---\n\n{body}\n"


CONFIG = """\
title: Sitegen
collections:
  docs:
    permalink: "/:collection/:path/"
    output: true
  tutorials:
    permalink: "/:collection/:path/"
    output: true
"""

DOCS_NAV = """\
- title: Getting Started
  docs:
    - link: /docs/
    - link: /docs/installation/
- title: Build
  docs:
    - link: /docs/usage/
    - link: "{{ '/docs/configuration/' | relative_url }}"
    - link: /docs/gone/
- title: Content
  docs:
    - link: /docs/pages.html
    - link: /docs/front-matter/#variables
"""


def site() -> dict[str, str | bytes]:
    return {
        "README.md": "# Sitegen\n\nThe repository of a site generator.\n",
        "docs/_config.yml": CONFIG,
        "docs/_data/docs_nav.yml": DOCS_NAV,
        "docs/_data/tutorials.yml": "- title: Tutorials\n  tutorials:\n  - home\n  - navigation\n",
        "docs/_data/primary_nav.yml": "- title: Home\n  link: /\n- title: Docs\n  link: /docs/\n"
        "- title: Resources\n  link: /resources/\n",
        # data, not navigation: other sites' addresses, and settings
        "docs/_data/showcase.yml": "".join(
            f"- name: Site {n}\n  url: https://site{n}.example.com/\n" for n in range(6)
        ),
        "docs/_data/options.yml": "- name: safe\n  desc: Disable plugins\n",
        "docs/_docs/index.md": page("Quickstart", "/docs/"),
        "docs/_docs/installation.md": page("Installation"),
        "docs/_docs/usage.md": page("Command Line Usage"),
        "docs/_docs/configuration.md": page("Configuration"),
        "docs/_docs/pages.md": page("Pages"),
        "docs/_docs/front-matter.md": page("Front Matter"),
        "docs/_docs/history.md": page("History"),
        "docs/_tutorials/index.md": page("Tutorials", "/tutorials/home/"),
        "docs/_tutorials/navigation.md": page("Navigation"),
        "docs/pages/index.md": page("Home", "/"),
        "docs/pages/resources.md": page("Resources", "/resources/"),
    }


def test_the_data_files_are_the_navigation_and_the_top_bar_holds_the_sidebar(
    tmp_path: Path,
) -> None:
    root = write_sources(tmp_path / "src", site())
    toc = find_toc(source_files(root), lambda r: (root / r).read_text("utf-8"))
    assert toc is not None and toc.kind == "jekyll" and toc.file == "docs/_config.yml"
    assert list(toc.order()) == [
        "docs/pages/index.md",
        "docs/_docs/index.md",
        "docs/_docs/installation.md",
        "docs/_docs/usage.md",
        "docs/_docs/configuration.md",
        "docs/_docs/pages.md",
        "docs/_docs/front-matter.md",
        "docs/pages/resources.md",
        "docs/_tutorials/index.md",
        "docs/_tutorials/navigation.md",
    ]
    assert toc.sections()["docs/_docs/usage.md"] == ["Docs", "Build"]
    assert toc.sections()["docs/_tutorials/navigation.md"] == ["Tutorials"]
    assert toc.problems == [
        "docs/_data/docs_nav.yml:9: names /docs/gone/, which no page of the site is served "
        "at: not listed; fix the link or add the page"
    ]
    assert toc.served_as["docs/installation"] == "docs/_docs/installation.md"


def test_the_build_follows_the_sidebar(tmp_path: Path) -> None:
    files = {  # files Jekyll copies as they are: jekyllrb.com's were built as documents
        **site(),
        "docs/icomoon-selection.json": '{"IcoMoonType": "selection", "icons": []}',
        "docs/latest_version.txt": "4.4.1\n",
    }
    root = write_sources(tmp_path / "src", files)
    result = build(root, tmp_path / "pkg", now=NOW)
    assert result.errors == 0, result.report
    assets = {p.name for p in (tmp_path / "pkg" / "assets").iterdir()}
    assert {"icomoon-selection.json", "latest-version.txt"} <= assets
    built = [p.name for p in (tmp_path / "pkg").rglob("*.md")]
    assert not [n for n in built if "latest" in n or "icomoon" in n], built
    index = parse_index((tmp_path / "pkg" / "docs" / "index.md").read_text("utf-8"))
    sections: dict[str | None, list[str]] = {}
    for entry in index.entries:
        sections.setdefault(entry.section, []).append(entry.title)
    assert list(sections.items())[1:4] == [
        ("Getting Started", ["Installation"]),
        ("Build", ["Command Line Usage", "Configuration"]),
        ("Content", ["Pages", "Front Matter"]),
    ]


def test_a_data_file_of_aliases_or_of_no_pages_is_no_navigation(tmp_path: Path) -> None:
    """A list an alias repeats a million times is read once: no hang, no navigation."""
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + n)}: &{chr(98 + n)} [{', '.join([f'*{chr(97 + n)}'] * 10)}]\n" for n in range(7)
    )
    files = {**site(), "docs/_data/bomb.yml": bomb}
    del files["docs/_data/docs_nav.yml"], files["docs/_data/primary_nav.yml"]
    del files["docs/_data/tutorials.yml"]
    root = write_sources(tmp_path / "src", files)
    toc = find_toc(source_files(root), lambda r: (root / r).read_text("utf-8"))
    assert toc is None or toc.kind != "jekyll"


def test_posts_too_many_for_one_index_go_by_year(tmp_path: Path) -> None:
    """jekyllrb.com's 102 release posts were split by the words their titles share
    ("Jekyll's", "Turns") and then by title ranges; a reader looks for a post by when."""
    files = site()
    for n in range(48):
        year = 2013 + n // 12
        files[f"docs/_posts/{year}-0{1 + n % 9}-1{n % 10}-release-{n}.markdown"] = page(
            f"Sitegen 1.{n} Released",
            text=f"Sitegen 1.{n} fixes the watcher and speeds up incremental builds of "
            "large sites with many collections and data files.",
        )
    result = build(
        write_sources(tmp_path / "src", files), tmp_path / "pkg", now=NOW, index_budget=1000
    )
    assert result.errors == 0, result.report
    posts = tmp_path / "pkg" / "posts"
    runs = sorted(p.name for p in posts.iterdir() if p.is_dir())
    assert runs and all(r[:4].isdigit() for r in runs), runs
    assert (posts / runs[0] / "2013-01-10-release-0.md").is_file()  # the post keeps its date


def test_a_data_set_longer_than_any_sidebar_is_not_read_as_one(tmp_path: Path) -> None:
    """A site printing a data set of thousands of entries (a plugin directory) keeps it
    in ``_data/`` too: parsing megabytes of YAML for a sidebar took seconds for nothing."""
    entries = "".join(f"- title: Plugin {n}\n  url: /docs/installation/\n" for n in range(12000))
    files = {**site(), "docs/_data/plugins.yml": entries}
    del files["docs/_data/docs_nav.yml"], files["docs/_data/primary_nav.yml"]
    del files["docs/_data/tutorials.yml"]
    root = write_sources(tmp_path / "src", files)
    assert len(entries) > 256 * 1024
    toc = find_toc(source_files(root), lambda r: (root / r).read_text("utf-8"))
    assert toc is None or toc.kind != "jekyll"


_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from(
        [
            "/docs/",
            "/docs/installation/",
            "installation",
            "{{ '/docs/usage/' | relative_url }}",
            "https://example.com/",
            "#top",
            "",
            "../../etc/passwd",
            "home",
            "/docs/usage.html",
        ]
    )
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(["title", "name", "url", "link", "docs", "tutorials", "children", "x"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=30,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=_VALUES, permalink=st.one_of(st.none(), st.integers(), st.text(max_size=8)))
def test_any_data_file_and_permalink_read_without_an_error(
    tmp_path: Path, data: object, permalink: object
) -> None:
    """Whatever a site keeps in ``_data/`` (values of any kind, nested, addresses of any
    shape) and writes as a permalink, the navigation is read or not, never an error."""
    files = site()
    files["docs/_data/docs_nav.yml"] = yaml.safe_dump(data)
    files["docs/_docs/odd.md"] = f"---\ntitle: Odd\npermalink: {json.dumps(permalink)}\n---\n\nx\n"
    root = write_sources(tmp_path / f"src{abs(hash((repr(data), repr(permalink))))}", files)
    toc = find_toc(source_files(root), lambda r: (root / r).read_text("utf-8"))
    if toc is not None:
        assert all(p in source_files(root) for p in toc.order())
