"""kas_tui.features.importing.toc: a docs source's own table of contents.

Each test builds a small source in ``tmp_path`` (a dict of files) and reads it through a
closure, as the build does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kas_tui.features.importing.toc import Toc, TocNode, find_toc, read_toc
from kas_tui.features.importing.toc_files import TOC_NAMES, find_tocs

CORPUS = Path("/work/shared/corpora/textual-docs")


def source(tmp_path: Path, files: dict[str, str]):
    """(read, files) for a source written under ``tmp_path``."""
    root = tmp_path / "src"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")

    def read(rel: str) -> str | None:
        try:
            return (root / rel).read_text("utf-8")
        except OSError:
            return None

    return read, {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def toc_of(tmp_path: Path, files: dict[str, str], path: str) -> Toc:
    read, names = source(tmp_path, files)
    toc = read_toc(path, read, names)
    assert toc is not None
    return toc


def shape(nodes: list[TocNode]) -> list:
    """Nodes as (title, path, line[, children]) for comparing."""
    return [
        (n.title, n.path, n.line, shape(n.children)) if n.children else (n.title, n.path, n.line)
        for n in nodes
    ]


PAGE = "# A page\n"

# --- MkDocs --------------------------------------------------------------------------------

MKDOCS = """\
site_name: Widgetry
docs_dir: site
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          format: !!python/object/apply:pymdownx.superfences.fence_code_format
extra:
  analytics: !ENV [GOOGLE_ANALYTICS_KEY, "none"]
nav:
  - "index.md"
  - Introduction:
      - "getting_started.md"
      - Help: "help.md"
  - Guide:
      - "guide/index.md"
      - Layout: guide/layout.md
      - Old: "guide/gone.md"
  - Changelog: "https://example.com/changelog"
  - Reference:
      - Widgets:
          - "widgets/button.md"
      - Lost:
          - "widgets/lost.md"
  - "https://example.com/other"
"""


def _mkdocs_files() -> dict[str, str]:
    pages = ["index", "getting_started", "help", "guide/index", "guide/layout", "widgets/button"]
    return {"mkdocs.yml": MKDOCS, **{f"site/{p}.md": PAGE for p in pages}}


def test_an_mkdocs_nav_with_python_tags_and_docs_dir(tmp_path: Path) -> None:
    toc = toc_of(tmp_path, _mkdocs_files(), "mkdocs.yml")
    assert (toc.file, toc.kind, toc.docs_dir) == ("mkdocs.yml", "mkdocs", "site")
    assert shape(toc.roots) == [
        (None, "site/index.md", 14),
        (
            "Introduction",
            None,
            15,
            [(None, "site/getting_started.md", 16), ("Help", "site/help.md", 17)],
        ),
        (
            "Guide",
            None,
            18,
            [(None, "site/guide/index.md", 19), ("Layout", "site/guide/layout.md", 20)],
        ),
        ("Reference", None, 23, [("Widgets", None, 24, [(None, "site/widgets/button.md", 25)])]),
    ]
    assert toc.problems == [
        "mkdocs.yml:21: nav names guide/gone.md, which is not in the source "
        "(site/guide/gone.md); fix the nav or add the page",
        "mkdocs.yml:27: nav names widgets/lost.md, which is not in the source "
        "(site/widgets/lost.md); fix the nav or add the page",
    ]


def test_mkdocs_order_and_sections(tmp_path: Path) -> None:
    toc = toc_of(tmp_path, _mkdocs_files(), "mkdocs.yml")
    assert toc.order() == {
        "site/index.md": 0,
        "site/getting_started.md": 1,
        "site/help.md": 2,
        "site/guide/index.md": 3,
        "site/guide/layout.md": 4,
        "site/widgets/button.md": 5,
    }
    sections = toc.sections()
    assert sections["site/index.md"] == []
    assert sections["site/help.md"] == ["Introduction"]
    assert sections["site/widgets/button.md"] == ["Reference", "Widgets"]
    assert toc.titles() == {"site/help.md": "Help", "site/guide/layout.md": "Layout"}


def test_a_nav_file_takes_docs_dir_from_a_sibling_config_or_defaults_to_docs(
    tmp_path: Path,
) -> None:
    nav = 'nav:\n  - "index.md"\n  - Guide:\n      - "guide/app.md"\n'
    files = {
        "mkdocs-nav.yml": nav,
        "mkdocs-common.yml": "site_name: X\ndocs_dir: pages/\ntheme: !!python/name:x.y\n",
        "pages/index.md": PAGE,
        "pages/guide/app.md": PAGE,
    }
    toc = toc_of(tmp_path / "a", files, "mkdocs-nav.yml")
    assert list(toc.order()) == ["pages/index.md", "pages/guide/app.md"]
    assert toc.docs_dir == "pages" and toc.problems == []
    alone = {"mkdocs-nav.yml": nav, "docs/index.md": PAGE, "docs/guide/app.md": PAGE}
    toc = toc_of(tmp_path / "b", alone, "mkdocs-nav.yml")
    assert list(toc.order()) == ["docs/index.md", "docs/guide/app.md"]
    assert toc.sections()["docs/guide/app.md"] == ["Guide"]


def test_docs_dir_through_inherit_and_a_config_in_a_folder(tmp_path: Path) -> None:
    files = {
        "site/base.yml": "docs_dir: content\n",
        "site/mkdocs.yml": "INHERIT: base.yml\nnav:\n  - Home: index.md\n",
        "site/content/index.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "site/mkdocs.yml")
    assert shape(toc.roots) == [("Home", "site/content/index.md", 3)]


def test_mkdocs_configs_without_nav_are_no_toc_and_broken_yaml_is_a_problem(
    tmp_path: Path,
) -> None:
    read, names = source(
        tmp_path,
        {
            "mkdocs.yml": "site_name: X\ntheme: material\n",
            "mkdocs-broken.yml": "nav:\n  - a.md\n  - [b\n",
            "mkdocs-other.yml": "site_name: [unclosed\n",
        },
    )
    assert read_toc("mkdocs.yml", read, names) is None
    assert read_toc("mkdocs-other.yml", read, names) is None
    broken = read_toc("mkdocs-broken.yml", read, names)
    assert broken is not None and broken.roots == []
    assert broken.problems[0].startswith("mkdocs-broken.yml:4: not valid YAML (")
    assert read_toc("missing/mkdocs.yml", read, names) is None
    assert read_toc("docs/page.md", read, names) is None


def test_odd_nav_entries_are_problems(tmp_path: Path) -> None:
    files = {"mkdocs.yml": "nav:\n  - 3\n  - {A: a.md, B: b.md}\n  - a.md\n", "docs/a.md": PAGE}
    toc = toc_of(tmp_path, files, "mkdocs.yml")
    assert shape(toc.roots) == [(None, "docs/a.md", 4)]
    assert [p.split(":")[:2] for p in toc.problems] == [["mkdocs.yml", "2"], ["mkdocs.yml", "3"]]
    assert "is not a nav entry" in toc.problems[0]


# --- docfx toc.yml -------------------------------------------------------------------------


def test_docfx_toc_yml_with_nested_tocs(tmp_path: Path) -> None:
    files = {
        "toc.yml": (
            "- name: Start\n  href: start.md\n  expanded: true\n"
            "- name: Mail\n  href: Mail/\n"
            "- name: Calendar\n  href: Calendar/toc.yml\n  topicHref: Calendar/overview.md\n"
            "- name: Site\n  href: https://example.com\n"
            "- name: Lost\n  href: lost.md\n"
            "- name: Orphans\n  href: gone.md\n  items:\n  - name: Kept\n    href: start.md\n"
        ),
        "start.md": PAGE,
        "Mail/TOC.yml": "- name: Queue\n  href: queue.md\n- name: More\n  items:\n"
        "  - name: Relay\n    href: relay%20rules.md\n",
        "Mail/queue.md": PAGE,
        "Mail/relay rules.md": PAGE,
        "Calendar/toc.yml": "items:\n- name: Share\n  href: share.md\n",
        "Calendar/overview.md": PAGE,
        "Calendar/share.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "toc.yml")
    assert toc.kind == "docfx-yml"
    assert shape(toc.roots) == [
        ("Start", "start.md", 1),
        (
            "Mail",
            None,
            4,
            [
                ("Queue", "Mail/queue.md", 1),
                ("More", None, 3, [("Relay", "Mail/relay rules.md", 5)]),
            ],
        ),
        ("Calendar", "Calendar/overview.md", 6, [("Share", "Calendar/share.md", 2)]),
        ("Orphans", None, 13, [("Kept", "start.md", 16)]),
    ]
    assert toc.roots[1].children[0].file == "Mail/TOC.yml" and toc.roots[0].file is None
    assert toc.problems == [
        "toc.yml:11: 'Lost' names lost.md, which is not in the source (lost.md); "
        "fix the href or add the page",
        "toc.yml:13: 'Orphans' names gone.md, which is not in the source (gone.md); "
        "fix the href or add the page",
    ]
    assert list(toc.order()) == [
        "start.md",
        "Mail/queue.md",
        "Mail/relay rules.md",
        "Calendar/overview.md",
        "Calendar/share.md",
    ]
    sections = toc.sections()
    assert sections["Mail/relay rules.md"] == ["Mail", "More"]
    assert sections["Calendar/share.md"] == ["Calendar"]  # a page with entries below it
    assert sections["Calendar/overview.md"] == [] and sections["start.md"] == []


def test_docfx_toc_hrefs_are_relative_to_the_toc_and_toc_href_nests(tmp_path: Path) -> None:
    files = {
        "docs/toc.yml": "- name: API\n  tocHref: ../api/toc.yml\n  topicHref: ../api/index.md\n",
        "api/toc.yml": "- name: Client\n  href: client.md\n",
        "api/index.md": PAGE,
        "api/client.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "docs/toc.yml")
    assert shape(toc.roots) == [("API", "api/index.md", 1, [("Client", "api/client.md", 1)])]
    assert toc.problems == []


def test_nested_docfx_tocs_that_loop_are_problems(tmp_path: Path) -> None:
    files = {
        "toc.yml": "- name: A\n  href: a/\n",
        "a/toc.yml": "- name: Page\n  href: page.md\n- name: Back\n  href: ../b/toc.yml\n",
        "b/toc.yml": "- name: Again\n  href: ../a/\n",
        "a/page.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "toc.yml")
    assert list(toc.order()) == ["a/page.md"]
    assert toc.problems == [
        "b/toc.yml:1: 'Again' names ../a/, a table of contents that includes this one "
        "(toc.yml -> a/toc.yml -> b/toc.yml -> a/toc.yml): not followed; remove the loop"
    ]


def test_a_broken_docfx_toc_is_a_problem(tmp_path: Path) -> None:
    toc = toc_of(tmp_path, {"toc.yml": "- name: A\n  href: [a.md\n"}, "toc.yml")
    assert toc.roots == [] and toc.problems[0].startswith("toc.yml:3: not valid YAML")


# --- docfx TOC.md --------------------------------------------------------------------------


def test_docfx_toc_md_nests_by_heading_level(tmp_path: Path) -> None:
    files = {
        "guide/TOC.md": (
            "# [Overview](overview.md)\n"
            "# Tasks\n"
            "## [Install](tasks/install.md)\n"
            '### [Offline](tasks/offline.md "tip")\n'
            "## [Remove](tasks/gone.md)\n"
            "#[Upgrade](<tasks/upgrade.md>)\n"
            "## [Site](https://example.com)\n"
            "# Empty\n"
            "# [Up](../readme.md)\n"
        ),
        "guide/overview.md": PAGE,
        "guide/tasks/install.md": PAGE,
        "guide/tasks/offline.md": PAGE,
        "guide/tasks/upgrade.md": PAGE,
        "readme.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "guide/TOC.md")
    assert toc.kind == "docfx-md"
    assert shape(toc.roots) == [
        ("Overview", "guide/overview.md", 1),
        (
            "Tasks",
            None,
            2,
            [("Install", "guide/tasks/install.md", 3, [("Offline", "guide/tasks/offline.md", 4)])],
        ),
        ("Upgrade", "guide/tasks/upgrade.md", 6),
        ("Up", "readme.md", 9),
    ]
    assert toc.problems == [
        "guide/TOC.md:5: names tasks/gone.md, which is not in the source "
        "(guide/tasks/gone.md); fix the link or add the page"
    ]
    assert toc.sections()["guide/tasks/offline.md"] == ["Tasks", "Install"]


def test_toc_md_can_nest_a_folder_toc(tmp_path: Path) -> None:
    files = {
        "toc.md": "# [Mail](mail/)\n# [Start](start.md)\n",
        "mail/toc.md": "# [Queue](queue.md)\n",
        "mail/queue.md": PAGE,
        "start.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "toc.md")
    assert shape(toc.roots) == [
        ("Mail", None, 1, [("Queue", "mail/queue.md", 1)]),
        ("Start", "start.md", 2),
    ]


# --- Docusaurus ----------------------------------------------------------------------------


def test_docusaurus_sidebars_json(tmp_path: Path) -> None:
    files = {
        "sidebars.json": """{
  "docs": [
    "intro",
    {"type": "category", "label": "Basics", "link": {"type": "doc", "id": "basics/index"},
     "items": ["basics/setup", {"type": "doc", "id": "basics/run", "label": "Run it"}]},
    {"type": "link", "label": "Blog", "href": "https://example.com"},
    {"Advanced": ["advanced/tuning", "advanced/gone"]}
  ]
}
""",
        "docs/intro.md": PAGE,
        "docs/basics/index.md": PAGE,
        "docs/basics/setup.mdx": PAGE,
        "docs/basics/02-run.md": PAGE,
        "docs/advanced/tuning.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "sidebars.json")
    assert (toc.kind, toc.docs_dir) == ("docusaurus", "docs")
    assert shape(toc.roots) == [
        (None, "docs/intro.md", 3),
        (
            "Basics",
            "docs/basics/index.md",
            4,
            [(None, "docs/basics/setup.mdx", 5), ("Run it", "docs/basics/02-run.md", 5)],
        ),
        ("Advanced", None, 7, [(None, "docs/advanced/tuning.md", 7)]),
    ]
    assert toc.problems == [
        "sidebars.json:7: names the doc advanced/gone, which is not in the source "
        "(no docs/advanced/gone.md or .mdx); fix the id or add the page"
    ]
    assert toc.sections()["docs/basics/setup.mdx"] == ["Basics"]


def test_several_docusaurus_sidebars_are_sections(tmp_path: Path) -> None:
    files = {
        "sidebars.json": '{"guides": ["a"], "api": ["b"]}',
        "docs/a.md": PAGE,
        "docs/b.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "sidebars.json")
    assert toc.sections() == {"docs/a.md": ["Guides"], "docs/b.md": ["Api"]}  # ids in words


def test_a_plain_sidebars_js_is_read(tmp_path: Path) -> None:
    js = """// @ts-check
/** @type {import('@docusaurus/plugin-content-docs').SidebarsConfig} */
const sidebars = {
  // the main sidebar
  tutorialSidebar: [
    'intro',
    {
      type: 'category',
      label: 'Tutorial - Basics', /* a "label" */
      items: ['tutorial/create-a-page', "tutorial/deploy",],
    },
  ],
};

module.exports = sidebars;
"""
    files = {
        "sidebars.js": js,
        "docs/intro.md": PAGE,
        "docs/tutorial/create-a-page.md": PAGE,
        "docs/tutorial/deploy.mdx": PAGE,
    }
    toc = toc_of(tmp_path, files, "sidebars.js")
    assert shape(toc.roots) == [
        (None, "docs/intro.md", 6),
        (
            "Tutorial - Basics",
            None,
            7,
            [(None, "docs/tutorial/create-a-page.md", 10), (None, "docs/tutorial/deploy.mdx", 10)],
        ),
    ]
    assert toc.problems == []
    direct = toc_of(
        tmp_path / "b",
        {"sidebars.js": "module.exports = {docs: ['intro']};\n", "docs/intro.md": PAGE},
        "sidebars.js",
    )
    assert list(direct.order()) == ["docs/intro.md"]


@pytest.mark.parametrize(
    "js",
    [
        "module.exports = {docs: items()};\n",
        "const items = ['a'];\nmodule.exports = {docs: items};\n",
        "export const sidebars = makeSidebars();\n",
    ],
)
def test_a_sidebars_js_built_by_code_is_a_problem(tmp_path: Path, js: str) -> None:
    toc = toc_of(tmp_path, {"sidebars.js": js, "docs/a.md": PAGE}, "sidebars.js")
    assert toc.roots == []
    assert toc.problems == [
        "sidebars.js:1: its sidebars are built by code (no plain object after "
        "module.exports = or export default): not read; ship a sidebars.json to order the pages"
    ]


def test_entries_a_sidebars_js_makes_by_code_are_said_and_the_rest_read(tmp_path: Path) -> None:
    js = "const common = require('./common');\nmodule.exports = {docs: [...common, 'a']};\n"
    toc = toc_of(tmp_path, {"sidebars.js": js, "docs/a.md": PAGE}, "sidebars.js")
    assert list(toc.order()) == ["docs/a.md"]
    assert toc.problems == [
        "sidebars.js:2: entries made by code (...common) are not read; the pages they list "
        "go by their folders"
    ]


# --- finding them --------------------------------------------------------------------------


def test_find_tocs_by_name() -> None:
    files = [
        "docs/guide/app.md",
        "sidebars.json",
        "Mail/TOC.yml",
        "toc.yml",
        "mkdocs-nav.yml",
        "mkdocs.yml",
        "TOC.md",
        "website/sidebars.js",
        "docs/toc.yml.bak",
        "mkdocs.py",
        "guide/toc.md",
    ]
    assert find_tocs(files) == [
        "mkdocs.yml",
        "mkdocs-nav.yml",
        "toc.yml",
        "TOC.md",
        "sidebars.json",
        "Mail/TOC.yml",
        "guide/toc.md",
        "website/sidebars.js",
    ]
    assert {"toc.yml", "TOC.yml", "toc.md", "TOC.md", "mkdocs.yml", "mkdocs-nav.yml"} <= TOC_NAMES
    assert {"sidebars.js", "sidebars.json"} <= TOC_NAMES


def test_find_toc_takes_the_root_toc_that_reads(tmp_path: Path) -> None:
    read, names = source(
        tmp_path,
        {
            "mkdocs.yml": "site_name: no nav here\n",
            "toc.yml": "- name: A\n  href: a.md\n",
            "a.md": PAGE,
            "sub/toc.yml": "- name: B\n  href: a.md\n",
        },
    )
    toc = find_toc(names, read)
    assert toc is not None and (toc.file, toc.kind, list(toc.order())) == (
        "toc.yml",
        "docfx-yml",
        ["a.md"],
    )
    assert find_toc({"a.md"}, read) is None


def test_order_and_sections_keep_a_page_s_first_mention() -> None:
    toc = Toc(
        "toc.yml",
        "docfx-yml",
        [
            TocNode("One", None, [TocNode("A", "a.md"), TocNode("B", "b.md")]),
            TocNode("Two", None, [TocNode("A again", "a.md"), TocNode("C", "c.md")]),
        ],
        [],
    )
    assert toc.order() == {"a.md": 0, "b.md": 1, "c.md": 2}
    assert toc.sections() == {"a.md": ["One"], "b.md": ["One"], "c.md": ["Two"]}


# --- the real corpus -----------------------------------------------------------------------


def test_the_textual_docs_nav() -> None:
    if not (CORPUS / "mkdocs-nav.yml").is_file():
        pytest.skip(f"{CORPUS} is not here")
    files = {p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*") if p.is_file()}

    def read(rel: str) -> str | None:
        try:
            return (CORPUS / rel).read_text("utf-8")
        except OSError:
            return None

    assert "mkdocs-nav.yml" in find_tocs(files)
    toc = read_toc("mkdocs-nav.yml", read, files)
    assert toc is not None and (toc.kind, toc.docs_dir) == ("mkdocs", "docs")
    order = toc.order()
    assert min(order, key=order.__getitem__) == "docs/index.md"
    assert toc.sections()["docs/guide/app.md"] == ["Guide"]
    assert len(order) > 200 and toc.problems == []
    assert all(page.startswith("docs/") and page in files for page in order)
    assert toc.folder_titles()["docs/guide"] == "Guide"


def test_a_folder_href_without_a_toc_is_a_problem(tmp_path: Path) -> None:
    files = {"toc.yml": "- name: Empty\n  href: empty/\n- name: A\n  href: a.md\n", "a.md": PAGE}
    files["empty/page.md"] = PAGE
    toc = toc_of(tmp_path, files, "toc.yml")
    assert shape(toc.roots) == [("A", "a.md", 3)]
    assert toc.problems == [
        "toc.yml:1: 'Empty' names the folder empty/, which holds no toc.yml or TOC.md; "
        "add one there or name a page"
    ]
    # a folder of the site the docset is published on is no mistake to fix (Business
    # Central's breadcrumb/toc.yml: "tocHref: /dynamics365/business-central/")
    files["toc.yml"] += "- name: Dynamics 365\n  tocHref: /dynamics365/\n"
    assert toc_of(tmp_path / "site", files, "toc.yml").problems == toc.problems


# --- a wiki's sidebar ------------------------------------------------------------------------

SIDEBAR = """\
**[[Home]]**

## Getting started
* [[Installing|Install on Linux#Requirements]]
  * [Upgrading](Upgrading-from-1.x)
* [The FAQ](https://github.com/acme/widgets/wiki/FAQ)
* [[Gone Page]]

## Reference
- [Config file](reference/Config-File.md)
- [Changelog](https://example.com/changes)
- API
  - [[api-overview]]
"""


def test_github_wiki_sidebar(tmp_path: Path) -> None:
    files = {
        "_Sidebar.md": SIDEBAR,
        "_Footer.md": "Made by Acme.\n",
        "Home.md": PAGE,
        "Install-on-Linux.md": PAGE,
        "Upgrading-from-1.x.md": PAGE,
        "FAQ.md": PAGE,
        "reference/Config-File.md": PAGE,
        "api/API-Overview.md": PAGE,
    }
    read, names = source(tmp_path, files)
    toc = find_toc(names, read)
    assert toc is not None and (toc.file, toc.kind) == ("_Sidebar.md", "wiki-sidebar")
    assert shape(toc.roots) == [
        ("Home", "Home.md", 1),
        (
            "Getting started",
            None,
            3,
            [
                (
                    "Installing",
                    "Install-on-Linux.md",
                    4,
                    [("Upgrading", "Upgrading-from-1.x.md", 5)],
                ),
                ("The FAQ", "FAQ.md", 6),
            ],
        ),
        (
            "Reference",
            None,
            9,
            [
                ("Config file", "reference/Config-File.md", 10),
                ("API", None, 12, [("api-overview", "api/API-Overview.md", 13)]),
            ],
        ),
    ]
    assert toc.problems == [
        "_Sidebar.md:7: names the page Gone Page, which is not in the wiki; fix the link or "
        "add the page"
    ]
    assert list(toc.order()) == [
        "Home.md",
        "Install-on-Linux.md",
        "Upgrading-from-1.x.md",
        "FAQ.md",
        "reference/Config-File.md",
        "api/API-Overview.md",
    ]
    assert toc.sections()["api/API-Overview.md"] == ["Reference", "API"]
    assert "_Sidebar.md" in TOC_NAMES and find_tocs(names) == ["_Sidebar.md"]


def test_a_link_to_the_wikis_own_address_is_its_home(tmp_path: Path) -> None:
    """z88dk's wiki sidebar opens with ``[Home](https://github.com/z88dk/z88dk/wiki)``:
    the entry was dropped and Home filed under "Other pages"."""
    files = {
        "_Sidebar.md": "## Getting Started\n\n* [Home](https://github.com/demo/demo/wiki)\n"
        "* [Installation](https://github.com/demo/demo/wiki/Installation/)\n",
        "Home.md": PAGE,
        "Installation.md": PAGE,
    }
    read, names = source(tmp_path, files)
    toc = find_toc(names, read)
    assert toc is not None and list(toc.order()) == ["Home.md", "Installation.md"]
    assert toc.problems == []


def test_azure_devops_wiki_order_files(tmp_path: Path) -> None:
    """An Azure DevOps wiki: ``.order`` in each folder of sub-pages, a page ``Name.md``
    with its sub-pages in ``Name/``; titles from the names (``-`` a space, ``%2D`` a
    hyphen)."""
    files = {
        ".order": "Home\nOn-call\nGone-Page\n\nSet-up-%2D-Linux\n",
        "Home.md": PAGE,
        "On-call.md": PAGE,
        "On-call/.order": "Paging\nHand-offs\n",
        "On-call/Hand-offs.md": PAGE,
        "On-call/Paging.md": PAGE,
        "On-call/Paging/Escalation.md": PAGE,  # no .order here: by name
        "On-call/Paging/Apps.md": PAGE,
        "Set-up-%2D-Linux.md": PAGE,
    }
    read, names = source(tmp_path, files)
    toc = find_toc(names, read)
    assert toc is not None and (toc.file, toc.kind) == (".order", "azure-order")
    assert shape(toc.roots) == [
        ("Home", "Home.md", 1),
        (
            "On call",
            "On-call.md",
            2,
            [
                (
                    "Paging",
                    "On-call/Paging.md",
                    1,
                    [
                        ("Apps", "On-call/Paging/Apps.md", None),
                        ("Escalation", "On-call/Paging/Escalation.md", None),
                    ],
                ),
                ("Hand offs", "On-call/Hand-offs.md", 2),
            ],
        ),
        ("Set up - Linux", "Set-up-%2D-Linux.md", 5),
    ]
    assert toc.problems == [
        ".order:3: names the page Gone-Page, which is not in the wiki (no Gone-Page.md); "
        "fix the line or add the page"
    ]
    assert toc.roots[1].children[0].file == "On-call/.order"


# --- Sphinx (MyST Markdown) ------------------------------------------------------------------


def test_sphinx_toctrees_from_the_root_document(tmp_path: Path) -> None:
    files = {
        # read, never run: running it would end the test
        "conf.py": 'import sys\nsys.exit("conf.py was run")\nproject = "Widgets"\n'
        'extensions = ["myst_parser"]\nroot_doc = "start"\n',
        "start.md": "# Widgets\n\n```{toctree}\n:maxdepth: 2\n:caption: Guide\n\n"
        "install/index\nUsing it <usage>\nhttps://example.com\nself\n```\n\n"
        ":::{toctree}\n:glob:\n\nreference/*\n:::\n",
        "install/index.md": "# Installing\n\n```{toctree}\nlinux\n/missing\n../start\n```\n",
        "install/linux.md": PAGE,
        "usage.md": PAGE,
        "reference/b.md": PAGE,
        "reference/a.md": PAGE,
        "index.md": PAGE,  # not the root document here
    }
    read, names = source(tmp_path, files)
    toc = find_toc(names, read)
    assert toc is not None and (toc.file, toc.kind) == ("conf.py", "sphinx")
    assert shape(toc.roots) == [
        (None, "start.md", None),
        (
            "Guide",
            None,
            3,
            [
                (None, "install/index.md", 7, [(None, "install/linux.md", 4)]),
                ("Using it", "usage.md", 8),
            ],
        ),
        (None, "reference/a.md", 16),
        (None, "reference/b.md", 16),
    ]
    assert toc.problems == [
        "install/index.md:5: the toctree names /missing, which is not in the source "
        "(no missing.md); fix the entry or add the page"
    ]
    assert toc.sections()["install/linux.md"] == ["Guide"]


def test_a_conf_py_without_toctrees_is_no_table_of_contents(tmp_path: Path) -> None:
    files = {"conf.py": "project = 'x'\n", "index.md": PAGE, "other.md": PAGE}
    read, names = source(tmp_path, files)
    assert find_toc(names, read) is None


def test_several_sidebars_are_named_as_the_navbar_names_them(tmp_path: Path) -> None:
    """0xMiden/miden-docs has two sidebars, ``builderSidebar`` and
    ``coreConceptsSidebar``: the package's top bundles were named by those ids; the
    navbar its config shows says "Build" and "Core Concepts"."""
    files = {
        "docusaurus.config.ts": "export default {\n  themeConfig: {\n    navbar: {\n"
        "      items: [\n        {\n          type: 'docSidebar',\n"
        "          sidebarId: 'builderSidebar',\n          label: 'Build',\n        },\n"
        "      ],\n    },\n  },\n};\n",
        "sidebars.ts": "const sidebars = {\n  builderSidebar: ['build/start'],\n"
        "  coreConceptsSidebar: ['core/vm'],\n  api_reference_sidebar: ['api/calls'],\n};\n"
        "export default sidebars;\n",
        "docs/build/start.md": PAGE,
        "docs/core/vm.md": PAGE,
        "docs/api/calls.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "sidebars.ts")
    # the navbar's label, else the id in words
    assert [n.title for n in toc.roots] == ["Build", "Core concepts", "Api reference"]


def test_a_sidebar_is_named_by_the_navbar_item_opening_one_of_its_docs(tmp_path: Path) -> None:
    """jestjs/jest's navbar opens its two sidebars with ``{label: 'Docs', type: 'doc',
    docId: 'getting-started'}`` and ``{label: 'API', type: 'doc', docId: 'api'}`` (the
    doc whose ``id:`` is ``api``, ``GlobalAPI.md``), its config above the served
    version's ``versioned_sidebars/``: the bundles were "Docs" and "Api"."""
    files = {
        "website/docusaurus.config.js": "module.exports = {\n  themeConfig: {\n"
        "    navbar: {\n      items: [\n        {\n          label: 'Docs',\n"
        "          type: 'doc',\n          docId: 'getting-started',\n        },\n"
        "        {\n          label: 'API',\n          type: 'doc',\n"
        "          docId: 'api',\n        },\n        {to: '/help', label: 'Help'},\n"
        "      ],\n    },\n  },\n};\n",
        "website/versions.json": '["30.4"]\n',
        "website/versioned_sidebars/version-30.4-sidebars.json": '{\n  "docs": {"Intro": '
        '["getting-started"]},\n  "api": ["api", "expect"],\n  "extra": ["faq"]\n}\n',
        "website/versioned_docs/version-30.4/GettingStarted.md": "---\nid: getting-started\n"
        "title: Getting Started\n---\n\nInstall it.\n",
        "website/versioned_docs/version-30.4/GlobalAPI.md": "---\nid: api\ntitle: Globals\n"
        "---\n\nThe globals.\n",
        "website/versioned_docs/version-30.4/ExpectAPI.md": "---\nid: expect\ntitle: Expect\n"
        "---\n\nMatchers.\n",
        "website/versioned_docs/version-30.4/Faq.md": "---\nid: faq\ntitle: FAQ\n---\n\nAsked.\n",
        "docs/GettingStarted.md": "---\nid: getting-started\ntitle: Getting Started\n---\n\nNext.\n",
        "website/sidebars.json": '{"docs": {"Intro": ["getting-started"]}}\n',
    }
    root = tmp_path / "src"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    names = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    toc = find_toc(names, lambda r: (root / r).read_text())
    assert toc is not None
    # the navbar's labels, else the id in words
    assert [n.title for n in toc.roots] == ["Docs", "API", "Extra"]


def test_a_starlight_sidebar_json_is_the_sites_navigation(tmp_path: Path) -> None:
    """google-gemini/gemini-cli's ``docs/sidebar.json`` (Starlight's sidebar: groups of
    ``label``/``items``, pages by ``slug``) was built as a JSON page, and the root
    listed its folders alphabetically."""
    sidebar = """[
  {"label": "docs_tab", "items": [
    {"label": "Get started", "items": [
      {"label": "Overview", "slug": "docs"},
      {"label": "Installation", "slug": "docs/get-started/installation"}
    ]},
    {"label": "Guide", "link": "https://example.com/guide"},
    {"label": "Gone", "slug": "docs/gone"},
    {"label": "Guides", "autogenerate": {"directory": "guides"}},
    {"label": "Empty", "autogenerate": {"directory": "none"}},
    {"label": "Nothing"}
  ]},
  {"label": "reference_tab", "items": [
    {"label": "Commands", "slug": "docs/reference/commands"}
  ]}
]
"""
    files = {
        "docs/sidebar.json": sidebar,
        "docs/index.md": PAGE,
        "docs/get-started/installation.md": PAGE,
        "docs/reference/commands.md": PAGE,
        "docs/guides/b.md": PAGE,
        "docs/guides/index.md": PAGE,
        "docs/guides/deep/c.md": PAGE,
        "docs/guides/_partial.md": PAGE,
    }
    toc = toc_of(tmp_path, files, "docs/sidebar.json")
    assert toc.kind == "starlight"
    assert list(toc.order()) == [
        "docs/index.md",
        "docs/get-started/installation.md",
        # an autogenerated group: the folder's own page first, then by path, sub-folders
        # as groups; a partial (_partial.md) is no page the site serves
        "docs/guides/index.md",
        "docs/guides/b.md",
        "docs/guides/deep/c.md",
        "docs/reference/commands.md",
    ]
    assert toc.sections()["docs/guides/deep/c.md"] == ["Docs", "Guides"]
    assert toc.sections()["docs/get-started/installation.md"] == ["Docs", "Get started"]
    assert toc.sections()["docs/reference/commands.md"] == ["Reference"]
    assert toc.problems == [
        "docs/sidebar.json:8: 'Gone' names the page docs/gone, which is not in the source; "
        "fix the slug or add the page",
        "docs/sidebar.json:10: autogenerates from none, which holds no pages in the source: "
        "no entries; fix the directory",
        "docs/sidebar.json:11: is not a sidebar entry kas-tui reads (a group with items: or "
        "autogenerate:, a page with slug: or a link:): skipped",
    ]
    # a file of that name in another shape is no sidebar: read as what it is
    read, names = source(tmp_path / "other", {"sidebar.json": '{"theme": "dark"}', "a.md": PAGE})
    assert read_toc("sidebar.json", read, names) is None


def test_a_config_glob_reads_as_its_tool_reads_it() -> None:
    """One glob reader for sites' configs: Sphinx's ``exclude_patterns`` (``**`` any
    path, ``**/x`` below a folder) and fast-glob's ``srcExclude`` (``**/`` any folders
    or none: vitest's ``**/guide/examples/*`` leaves out ``guide/examples/x.md``)."""
    from kas_tui.features.importing.config_globs import glob_regex

    sphinx = glob_regex("**/drafts/*.md")
    assert sphinx.fullmatch("a/drafts/x.md") and not sphinx.fullmatch("drafts/x.md")
    assert not sphinx.fullmatch("a/drafts/b/x.md")
    fast = glob_regex("**/guide/examples/*", folders_or_none=True)
    assert fast.fullmatch("guide/examples/x.md") and fast.fullmatch("en/guide/examples/x.md")
    assert glob_regex("_build").fullmatch("_build") and not glob_regex("_build").fullmatch(
        "x_build"
    )
    assert glob_regex("a?.md").fullmatch("ab.md") and not glob_regex("a?.md").fullmatch("a/.md")
