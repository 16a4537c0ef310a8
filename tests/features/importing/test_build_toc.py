"""A source's own table of contents orders, groups and names what the build writes."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.skill import parse_skill
from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)

NAV = """\
site_name: Widgetry
markdown_extensions:
  - pymdownx.emoji:
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
nav:
  - "index.md"
  - Introduction:
      - "getting_started.md"
      - Help: "help.md"
  - Guide:
      - "guide/index.md"
      - "guide/layout.md"
      - "guide/app.md"
  - Reference:
      - Widgets:
          - "widgets/button.md"
          - "widgets/input.md"
  - "https://example.com/changelog"
  - "gone.md"
"""


def _page(title: str, text: str = "Some words about it.") -> str:
    return f"# {title}\n\n{text}\n"


def _mkdocs_site(tmp_path: Path) -> Path:
    return write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": NAV,
            "README.md": "# Widgetry docs\n\nHow to contribute.\n",
            "docs/index.md": _page("Welcome to Widgetry"),
            "docs/getting_started.md": _page("Getting started"),
            "docs/help.md": _page("Getting help"),
            "docs/unlisted.md": _page("Unlisted page"),
            "docs/guide/index.md": _page("The guide"),
            "docs/guide/app.md": _page("App basics"),
            "docs/guide/layout.md": _page("Layout"),
            "docs/widgets/button.md": _page("Button"),
            "docs/widgets/input.md": _page("Input"),
        },
    )


def _reader(root: Path):
    def read(rel: str) -> str | None:
        try:
            return (root / rel).read_text("utf-8")
        except OSError:
            return None

    return read


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_an_mkdocs_nav_gives_order_sections_and_folder_names(tmp_path: Path) -> None:
    root = _mkdocs_site(tmp_path)
    toc = find_toc(_files(root), _reader(root))
    assert toc is not None and (toc.kind, toc.file, toc.docs_dir) == (
        "mkdocs",
        "mkdocs.yml",
        "docs",
    )
    assert list(toc.order())[:4] == [
        "docs/index.md",
        "docs/getting_started.md",
        "docs/help.md",
        "docs/guide/index.md",
    ]
    assert toc.sections()["docs/widgets/input.md"] == ["Reference", "Widgets"]
    assert toc.titles()["docs/help.md"] == "Help"
    assert toc.folder_titles() == {"docs/guide": "Guide", "docs/widgets": "Widgets"}
    assert toc.problems == [
        "mkdocs.yml:19: nav names gone.md, which is not in the source (docs/gone.md); "
        "fix the nav or add the page"
    ]


def test_docfx_tocs_nest_and_toc_md_nests_by_heading_level(tmp_path: Path) -> None:
    root = write_sources(
        tmp_path / "yml",
        {
            "toc.yml": "- name: Start\n  href: start.md\n- name: Mail\n  href: Mail/\n"
            "- name: Site\n  href: https://example.com\n- name: Lost\n  href: lost.md\n",
            "start.md": "x",
            "Mail/TOC.yml": "- name: Queue\n  href: queue.md\n- name: More\n  items:\n"
            "  - name: Relay\n    href: relay.md\n",
            "Mail/queue.md": "x",
            "Mail/relay.md": "x",
        },
    )
    toc = find_toc(_files(root), _reader(root))
    assert toc is not None and toc.kind == "docfx-yml"
    assert list(toc.order()) == ["start.md", "Mail/queue.md", "Mail/relay.md"]
    assert toc.sections()["Mail/relay.md"] == ["Mail", "More"]
    assert toc.problems == [
        "toc.yml:7: 'Lost' names lost.md, which is not in the source (lost.md); "
        "fix the href or add the page"
    ]
    md = write_sources(
        tmp_path / "md",
        {
            "TOC.md": "# [Overview](overview.md)\n# Tasks\n## [Install](tasks/install.md)\n"
            "## [Remove](tasks/gone.md)\n",
            "overview.md": "x",
            "tasks/install.md": "x",
        },
    )
    toc = find_toc(_files(md), _reader(md))
    assert toc is not None and toc.kind == "docfx-md"
    assert toc.sections()["tasks/install.md"] == ["Tasks"]
    assert toc.problems == [
        "TOC.md:4: names tasks/gone.md, which is not in the source (tasks/gone.md); "
        "fix the link or add the page"
    ]


def test_a_docfx_toc_below_wrapping_folders_with_items_capitalised(tmp_path: Path) -> None:
    """OfficeDocs-SharePoint, copied as its subtree: ``SharePoint/SharePointServer/``
    wraps everything, its ``spstoc/toc.yml`` opens with ``Items:`` and names pages one
    folder up. Neither was read: the folders were split by title words instead."""
    root = write_sources(
        tmp_path / "src",
        {
            "SharePoint/SharePointServer/spstoc/toc.yml": "Items:\n- name: Server\n"
            "  href: ../server.md\n  items:\n  - name: What's new\n"
            "    href: ../whats-new/new.md\n",
            "SharePoint/SharePointServer/server.md": "x",
            "SharePoint/SharePointServer/whats-new/new.md": "x",
        },
    )
    toc = find_toc(_files(root), _reader(root))
    assert toc is not None and toc.file == "SharePoint/SharePointServer/spstoc/toc.yml"
    assert list(toc.order()) == [
        "SharePoint/SharePointServer/server.md",
        "SharePoint/SharePointServer/whats-new/new.md",
    ]
    empty = write_sources(tmp_path / "empty", {"toc.yml": "metadata:\n  a: 1\n", "a.md": "x"})
    toc = find_toc(_files(empty), _reader(empty))
    assert toc is None or not toc.roots
    if toc is not None:
        assert toc.problems == [
            "toc.yml: holds no items: list, so no entries: not read; write its entries under items:"
        ]


def test_docusaurus_sidebars_json(tmp_path: Path) -> None:
    root = write_sources(
        tmp_path / "src",
        {
            "sidebars.json": '{"docs": [{"type": "category", "label": "Basics", '
            '"items": ["intro", "setup"]}]}',
            "docs/intro.md": "x",
            "docs/setup.mdx": "x",
        },
    )
    toc = find_toc(_files(root), _reader(root))
    assert toc is not None and list(toc.order()) == ["docs/intro.md", "docs/setup.mdx"]
    assert toc.sections()["docs/setup.mdx"] == ["Basics"]  # one sidebar: its id is no section


def test_the_build_follows_the_nav(tmp_path: Path) -> None:
    out = tmp_path / "widgetry-kb"
    result = build(_mkdocs_site(tmp_path), out, now=NOW, workers=1)
    assert result.errors == 0
    pkg = Package(out)
    pkg.load(scan=True)
    # the site's pages folder is the package root; its config and README are no documents
    assert "guide/app.md" in pkg.documents and not (out / "docs").exists()
    assert not any(p.startswith(("mkdocs", "readme")) for p in pkg.documents)
    root = parse_index((out / "index.md").read_text("utf-8"))
    own = [e for e in root.entries if "/" not in e.target.rstrip("/")]
    assert [(e.section, e.title) for e in own] == [
        ("Widgetry", "Welcome to Widgetry"),
        ("Widgetry", "Guide"),
        ("Introduction", "Getting started"),
        ("Introduction", "Getting help"),
        ("Reference", "Widgets"),
        ("Other pages", "Unlisted page"),
    ]
    guide = parse_index((out / "guide/index.md").read_text("utf-8"))
    assert [e.title for e in guide.entries] == ["The guide", "Layout", "App basics"]
    # the root lists the pages of the bundle the nav names first, as its index does
    assert [e.title for e in root.entries if e.section == "Guide"] == [
        "The guide",
        "Layout",
        "App basics",
    ]
    skill = parse_skill((out / "SKILL.md").read_text("utf-8"))
    assert skill.description.startswith("Widgetry: 9 ")  # site_name, not the folder


def test_the_build_follows_a_github_wiki_sidebar(tmp_path: Path) -> None:
    """A GitHub wiki's ``_Sidebar.md`` orders and sections the root index; it and the
    wiki's footer are no documents."""
    root = write_sources(
        tmp_path / "src",
        {
            "_Sidebar.md": "## Start here\n* [[Home]]\n* [[Install on Linux]]\n\n"
            "## Operating\n* [Backups](Backups)\n* [[Alert Rules|Alerting]]\n",
            "_Footer.md": "Maintained by the platform team.\n",
            "Home.md": _page("Widgets wiki"),
            "Alerting.md": _page("Alerting"),
            "Backups.md": _page("Backups"),
            "Install-on-Linux.md": _page("Install on Linux"),
            "Scratch-Notes.md": _page("Scratch notes"),
        },
    )
    out = tmp_path / "wiki-kb"
    result = build(root, out, now=NOW, workers=1)
    assert result.errors == 0
    pkg = Package(out)
    pkg.load()
    assert not any(p.lstrip("_").startswith(("sidebar", "footer")) for p in pkg.documents)
    index = parse_index((out / "index.md").read_text("utf-8"))
    assert [(e.section, e.title) for e in index.entries] == [
        ("Start here", "Widgets wiki"),
        ("Start here", "Install on Linux"),
        ("Operating", "Backups"),
        ("Operating", "Alerting"),
        ("Other pages", "Scratch notes"),
    ]


def test_the_build_follows_an_azure_devops_wiki(tmp_path: Path) -> None:
    """An Azure DevOps wiki's ``.order`` files order the pages and their sub-pages; a
    parent page (``Runbooks.md`` beside ``Runbooks/``) opens its sub-pages' bundle."""
    root = write_sources(
        tmp_path / "src",
        {
            ".order": "Start-here\nRunbooks\n",
            "Start-here.md": _page("Start here", "![The map](/.attachments/map-1.png)"),
            ".attachments/map-1.png": "not really a PNG",
            "Runbooks.md": _page("Runbooks"),
            "Runbooks/.order": "Restart-the-API\nFail-over-the-database\n",
            "Runbooks/Fail-over-the-database.md": _page("Fail over the database"),
            "Runbooks/Restart-the-API.md": _page("Restart the API"),
        },
    )
    out = tmp_path / "wiki-kb"
    assert build(root, out, now=NOW, workers=1).errors == 0
    index = parse_index((out / "index.md").read_text("utf-8"))
    assert [(e.title, e.target) for e in index.entries if e.section != "Runbooks"] == [
        ("Start here", "start-here.md"),
        ("Runbooks", "runbooks/"),  # the parent page opens its bundle: not listed twice
    ]
    assert [e.title for e in index.entries if e.section == "Runbooks"] == [
        "Runbooks (main page)",  # the bundle's pages, listed at the root too, told apart
        "Restart the API",
        "Fail over the database",
    ]
    runbooks = parse_index((out / "runbooks/index.md").read_text("utf-8"))
    assert [e.title for e in runbooks.entries] == [
        "Runbooks",
        "Restart the API",
        "Fail over the database",
    ]
    assert not (out / ".order").exists() and not (out / "runbooks-2.md").exists()
    # the wiki's hidden attachments folder is copied, and links to it follow
    assert (out / "assets/attachments/map-1.png").read_text() == "not really a PNG"
    assert "![The map](/assets/attachments/map-1.png)" in (out / "start-here.md").read_text("utf-8")


def test_the_build_follows_sphinx_toctrees(tmp_path: Path) -> None:
    """A Sphinx project with MyST pages: the root document's toctrees order and section
    the package; conf.py is no document."""
    root = write_sources(
        tmp_path / "src",
        {
            "conf.py": "project = 'Widgets'\nextensions = ['myst_parser']\n",
            "index.md": _page(
                "Widgets",
                "Start here.\n\n```{toctree}\n:caption: Guide\n\n"
                "setup\nusage\n```\n\n```{toctree}\n:caption: Reference\n\napi\n```",
            ),
            "api.md": _page("API reference"),
            "setup.md": _page("Setting up"),
            "usage.md": _page("Using widgets"),
        },
    )
    out = tmp_path / "widgets-kb"
    assert build(root, out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    assert not any(p.startswith("conf") for p in pkg.documents)
    index = parse_index((out / "index.md").read_text("utf-8"))
    assert [(e.section, e.title) for e in index.entries][1:] == [
        ("Guide", "Setting up"),
        ("Guide", "Using widgets"),
        ("Reference", "API reference"),
    ]
    # the landing page shows its toctrees as a reader of the site sees them
    landing = (out / index.entries[0].target).read_text("utf-8")
    assert "{toctree}" not in landing and "**Guide**" in landing
    assert "- [Setting up](setup.md)" in landing and "- [API reference](api.md)" in landing
    assert parse_skill((out / "SKILL.md").read_text("utf-8")).description.startswith("Widgets:")


def test_a_toctree_page_is_rebuilt_when_a_page_it_lists_changes_title(tmp_path: Path) -> None:
    """A landing page shows its toctree as links titled by the pages' headings: when a
    listed page's heading changes (or a page joins a :glob:), the landing page is built
    again although its own bytes did not change; with nothing changed, nothing is."""
    root = write_sources(
        tmp_path / "src",
        {
            "conf.py": "project = 'Widgets'\n",
            "index.md": _page("Widgets", "```{toctree}\n:glob:\n\nguides/*\n```"),
            "guides/setup.md": _page("Setting up"),
        },
    )
    out = tmp_path / "widgets-kb"
    assert build(root, out, now=NOW, workers=1).errors == 0
    landing = next(p for p in out.glob("*.md") if "[Setting up]" in p.read_text("utf-8"))
    again = build(root, out, now=NOW, workers=1)
    assert again.created == again.updated == []  # nothing changed: nothing written
    (root / "guides/setup.md").write_text(_page("Installing widgets"), "utf-8")
    (root / "guides/usage.md").write_text(_page("Using widgets"), "utf-8")
    build(root, out, now=NOW, workers=1)
    text = landing.read_text("utf-8")
    assert "[Installing widgets](guides/setup.md)" in text and "[Setting up]" not in text
    assert "[Using widgets](guides/usage.md)" in text


def test_a_docfx_breadcrumb_toc_is_not_the_sites_toc(tmp_path: Path) -> None:
    """MicrosoftDocs/powershell-docs-psget: ``breadcrumb/toc.yml`` (docfx.json's
    ``breadcrumb_path``, the links above the site) beside ``docs-conceptual/toc.yml``
    made two folders with TOCs, so neither was read and the root followed the folders."""
    root = write_sources(
        tmp_path / "src",
        {
            "gallery/breadcrumb/toc.yml": "items:\n- name: PowerShell\n  tocHref: /powershell/\n"
            "  topicHref: /powershell/index\n",
            "gallery/docs-conceptual/toc.yml": "items:\n- name: Overview\n  href: overview.md\n"
            "- name: How-To\n  items:\n  - name: Publish\n    href: how-to/publish.md\n",
            "gallery/docs-conceptual/overview.md": "x",
            "gallery/docs-conceptual/how-to/publish.md": "x",
            "gallery/docfx.json": "{}",
        },
    )
    toc = find_toc(_files(root), _reader(root))
    assert toc is not None and toc.file == "gallery/docs-conceptual/toc.yml"


def test_a_folder_spanning_sibling_sections_takes_none_of_their_names(tmp_path: Path) -> None:
    """dotnet/docfx's ``docs/`` folder holds the pages of its TOC's "Get started",
    "Essentials" and "Advanced" headers: it was named "Essentials" (8 of its 13 pages),
    so "Basic Concepts" and "Additional Languages" sat in a bundle of that name: it takes
    the name of the section holding them all. A folder holding one section's pages and one page listed elsewhere still takes its name."""
    essentials = [f"essential-{n}.md" for n in range(5)]
    root = write_sources(
        tmp_path / "src",
        {
            "toc.yml": "- name: Docs\n  href: docs/\n- name: Guides\n  href: guides/\n",
            "docs/toc.yml": "- name: Get started\n- href: basic-concepts.md\n"
            "- href: ../index.md\n\n- name: Essentials\n"
            + "".join(f"- href: {e}\n" for e in essentials)
            + "\n- name: Advanced\n- href: languages.md\n- href: deploy.md\n"
            "- name: Reference\n- href: ../reference/cli.md\n- name: Archive\n"
            + "".join(f"- href: ../tutorial/t{n}.md\n" for n in range(9)),
            "guides/toc.yml": "- name: Writing\n  items:\n"
            + "".join(f"  - href: w{n}.md\n" for n in range(4))
            + "- name: Other\n  href: ../other/x.md\n",
            **{f"guides/w{n}.md": "x" for n in range(4)},
            "guides/stray.md": "x",
            "other/x.md": "x",
            "index.md": "x",
            "reference/cli.md": "x",
            **{f"tutorial/t{n}.md": "x" for n in range(9)},
            "docs/basic-concepts.md": "x",
            "docs/languages.md": "x",
            "docs/deploy.md": "x",
            **{f"docs/{e}": "x" for e in essentials},
        },
    )
    toc = find_toc(_files(root), _reader(root))
    assert toc is not None and toc.sections()["docs/deploy.md"] == ["Docs", "Advanced"]
    titles = toc.folder_titles()
    assert titles["docs"] == "Docs"  # the sections' parent, not the largest of them
    assert titles["guides"] == "Writing"


def test_an_entry_with_a_page_and_entries_below_opens_its_section(tmp_path: Path) -> None:
    """A docfx item with an ``href`` and ``items`` (a Dendron note with notes below it)
    is the page its section opens with, as the site's TOC shows it: it was listed
    among its parent's entries, and in a bundle of its own under its parent's heading
    (dendron-site's "Publish" note under "## Topics" in ``publish/index.md``)."""
    toc = (
        "- name: Billing\n  items:\n  - name: Invoices\n    href: invoices.md\n"
        "  - name: Refunds\n    href: refunds.md\n    items:\n"
        "    - name: Refund rules\n      href: refund-rules.md\n"
        "    - name: Chargebacks\n      href: chargebacks.md\n"
        "  - name: Payment methods\n    href: payment-methods.md\n"
        "- name: Accounts\n  items:\n  - name: Sign in\n    href: sign-in.md\n"
        "  - name: Passwords\n    href: passwords.md\n"
    )
    names = ["invoices", "refunds", "refund-rules", "chargebacks", "payment-methods"]
    names += ["sign-in", "passwords"]
    files = {"toc.yml": toc}
    for name in names:
        title = name.replace("-", " ").capitalize()
        files[f"{name}.md"] = _page(title, f"How {title.lower()} work and what to do when not.")
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    index = (tmp_path / "kb" / "billing" / "index.md").read_text(encoding="utf-8")
    top, refunds = index.split("\n## Refunds\n")
    assert [e.title for e in parse_index(top).entries] == ["Invoices", "Payment methods"]
    listed = [line.split("](")[0][3:] for line in refunds.splitlines() if line.startswith("* [")]
    assert listed == ["Refunds", "Refund rules", "Chargebacks"]
