"""What a docs source says about itself: furniture, snippets, site names, products,
squashed folder names, site suffixes and type hints, as the build uses them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.skill import parse_skill
from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.page_subjects import subjects
from kas_tui.features.importing.site_about import site_description, site_title
from kas_tui.features.importing.source_meta import (
    in_include_folder,
    is_furniture,
    is_site_config,
    is_source_code,
    readable_name,
    strip_site_suffix,
)
from tests.helpers.build_sources import article, write_sources

NOW = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)


def test_furniture_snippets_and_site_config_are_told_apart_from_pages() -> None:
    assert is_furniture("README.md") and is_furniture("LICENSE") and is_furniture("SECURITY.md")
    assert is_furniture("CODE_OF_CONDUCT.md") and is_furniture("ThirdPartyNotices.txt")
    assert not is_furniture("guide/README.md")  # a folder's landing page
    assert not is_furniture("licensing-faq.md")
    # an export's provenance note and the repository's people
    assert is_furniture("SOURCE.txt") and is_furniture("AUTHORS") and is_furniture("CITATION.cff")
    assert not is_furniture("guide/source.md") and not is_furniture("source-control.md")
    assert in_include_folder("includes/note.md") and in_include_folder("docs/_includes/x.md")
    assert not in_include_folder("includes.md")
    assert is_site_config("mkdocs.yml") and is_site_config("mkdocs-nav.yml")
    assert is_site_config("docfx.json") and is_site_config("Teams/TOC.yml")
    assert is_site_config("guide/toc.md") and not is_site_config("guide/mkdocs.yml")
    # a map of moved pages, wherever it is (gemini-cli's docs/redirects.json was a page)
    assert is_site_config("docs/redirects.json") and is_site_config("_redirects")
    assert is_site_config(".openpublishing.redirection.json")
    assert not is_site_config("docs/redirects.md")  # a page about redirects is a page
    assert not is_site_config("how-to-redirect-urls.md")
    assert is_source_code("docs/examples/app.py") and is_source_code("styles/app.tcss")
    assert not is_source_code("data/figures.csv") and not is_source_code("notes.txt")
    # an Astro site's components and shaders draw its pages (expressjs.com built 67 as documents)
    assert is_source_code("src/components/Button/Button.astro") and is_source_code("hero.glsl")
    assert is_source_code("src/lib/Counter.svelte")


def test_titles_lose_the_site_suffix_only() -> None:
    assert strip_site_suffix("Cannot sign in | Microsoft Docs") == "Cannot sign in"
    assert strip_site_suffix("Widgets - Textual Documentation") == "Widgets"
    assert strip_site_suffix("Set up SSO – Microsoft Learn") == "Set up SSO"
    assert strip_site_suffix("Docs") == "Docs"  # nothing left: kept
    assert strip_site_suffix("Pipes | and filters") == "Pipes | and filters"


@pytest.mark.parametrize(
    ("name", "titles", "expected"),
    [
        ("ExchangeOnline", ["Mail stuck in Exchange Online"], "Exchange Online"),
        ("SkypeforBusiness", ["Skype for Business sign-in fails"], "Skype for Business"),
        ("SharePointOnline", ["SharePoint Online sync", "Online editing"], "SharePoint Online"),
        ("Microsoft365", ["Microsoft 365 admin center"], "Microsoft 365"),
        # the name as the titles write it whole, in its own capitals, though "server"
        # is mostly lower-case elsewhere ("Exchange server 2013" before)
        (
            "ExchangeServer2013",
            ["Install Exchange Server 2013", "Mailbox server", "Edge server", "File server"],
            "Exchange Server 2013",
        ),
        (
            "ExchangeHybrid",
            ["an Exchange hybrid setup", "Hybrid wizard", "Hybrid agent"],
            "Exchange Hybrid",
        ),
        ("teams-rooms", ["Teams rooms"], None),  # not squashed: the usual folder title
        ("Widgets", ["Widgets"], None),
        ("OfficeExperts", ["Nothing alike"], None),  # no words to spell it with
        # a letter alone is no word: a Quartz vault's notes "Z score", "T test", "AST"...
        # spelled its folder "Z e t t e l k AST e n"
        (
            "zettelkasten",
            ["Z score", "Vitamin E", "T test", "L norm", "Vitamin K", "AST", "Big O of n"],
            None,
        ),
    ],
)
def test_squashed_folder_names_are_spelled_as_their_documents_spell_them(
    name: str, titles: list[str], expected: str | None
) -> None:
    assert readable_name(name, titles) == expected


def test_the_site_names_itself_in_its_configuration() -> None:
    files = {
        "mkdocs.yml": "site_name: Textual\nmarkdown_extensions:\n"
        "  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
    }
    assert site_title(files.get, files) == "Textual"
    docfx = {"docfx.json": '{"build": {"globalMetadata": {"_appTitle": "Contoso Docs"}}}'}
    assert site_title(docfx.get, docfx) == "Contoso Docs"
    assert site_title({"docfx.json": "{not json"}.get, ["docfx.json"]) is None
    assert site_title({}.get, []) is None


def test_the_site_says_what_it_is_about_in_its_configuration(tmp_path: Path) -> None:
    """encode/starlette's SKILL.md said "25 reference documents on WebSockets" of a whole
    ASGI framework; its mkdocs.yml says "The little ASGI library that shines."."""
    mkdocs = {"mkdocs.yml": "site_name: Starlette\nsite_description: The little ASGI library.\n"}
    assert site_description(mkdocs.get, mkdocs) == "The little ASGI library."
    docusaurus = {
        "docusaurus.config.js": "module.exports = {\n  title: 'Redux',\n"
        "  tagline: 'A JS library for predictable and maintainable global state',\n};\n"
    }
    assert site_description(docusaurus.get, docusaurus) == (
        "A JS library for predictable and maintainable global state"
    )
    docfx = {"docfx.json": '{"build": {"globalMetadata": {"description": "Gallery docs"}}}'}
    assert site_description(docfx.get, docfx) == "Gallery docs"
    assert site_description({"conf.py": "project = 'x'\n"}.get, ["conf.py"]) is None
    source = write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": "site_name: Starlette\nsite_description: The little ASGI library.\n",
            "docs/index.md": "# Starlette\n\nStarlette is a lightweight ASGI framework.\n",
            "docs/websockets.md": "# WebSockets\n\nStarlette includes a WebSocket class.\n",
        },
    )
    build(source, tmp_path / "kb", now=NOW, workers=1)
    skill = (tmp_path / "kb/SKILL.md").read_text("utf-8")
    assert "description: 'Starlette: The little ASGI library. 2 " in skill


def test_products_come_from_appliesto_without_release_years() -> None:
    pages = [
        {"appliesto": ["Exchange Server 2013 Enterprise", "Outlook 2016"]},
        {"appliesto": ["Exchange Server 2019", "Outlook 2019"]},
        {"appliesto": ["Exchange Online"]},
        {"ms.service": "viva-engage"},
    ]
    assert subjects(pages) == ["Exchange Server", "Outlook", "Exchange Online", "Viva engage"]


def _source(tmp_path: Path) -> Path:
    def page(title: str, topic: str, body: str = "Text.") -> str:
        return (
            "---\n"
            f"title: {title}\ndescription: Explains {title.lower()} for administrators.\n"
            f"ms.topic: {topic}\nappliesto:\n  - Contoso Mail 2019\n---\n# {title}\n\n{body}\n"
        )

    return write_sources(
        tmp_path / "src",
        {
            "README.md": "# Contributing\n\nThis project welcomes contributions.\n",
            "LICENSE": "Creative Commons Attribution 4.0\n",
            "SECURITY.md": "# Security\n\nReport vulnerabilities privately.\n",
            "docfx.json": '{"build": {"globalMetadata": {"_appTitle": "Contoso Mail Docs"}}}',
            "includes/note.md": "> [!NOTE]\n> Third-party products are not supported.\n",
            "MailFlow/TOC.yml": "- name: Mail flow\n  href: queue.md\n",
            "MailFlow/queue.md": page(
                "Mail waits in the queue | Microsoft Docs", "troubleshooting"
            ),
            "MailFlow/connectors.md": page("How mail flow connectors work", "concept-article"),
            "MailFlow/relay.md": article(
                "Relay through Contoso MailFlow", "How to relay mail.", "# Relay\n\nSteps.\n"
            ),
        },
    )


def test_a_docfx_export_builds_without_its_furniture_and_with_its_own_names(
    tmp_path: Path,
) -> None:
    out = tmp_path / "mail-kb"
    result = build(_source(tmp_path), out, now=NOW, workers=1)
    assert result.errors == 0
    pkg = Package(out)
    pkg.load(scan=True)
    assert sorted(pkg.documents) == [
        "mailflow/connectors.md",
        "mailflow/queue.md",
        "mailflow/relay.md",
    ]
    # furniture, snippets and the site's config stay in the package as assets, not .md;
    # those of the root in assets/, never beside SKILL.md
    for asset in ("readme.txt", "license", "security.txt", "docfx.json"):
        assert (out / "assets" / asset).is_file(), asset
        assert not (out / asset).exists(), asset
    assert (out / "assets/includes/note.txt").is_file()
    assert not (out / "mailflow/toc.yml").exists()  # read for the tree, not copied
    root = parse_index((out / "index.md").read_text("utf-8"))
    own = [e.title for e in root.entries if e.section is None or e.target.endswith("/")]
    assert own == ["Mail flow"]  # spelled as the titles spell it
    queue = fm.parse((out / "mailflow/queue.md").read_text("utf-8")).data
    assert queue["title"] == "Mail waits in the queue"
    connectors = fm.parse((out / "mailflow/connectors.md").read_text("utf-8")).data
    assert connectors["type"] == "Concept"  # ms.topic: concept-article
    skill = parse_skill((out / "SKILL.md").read_text("utf-8"))
    # two of three are troubleshooting articles: the count says so, and no more
    assert skill.description.startswith(
        "Contoso Mail Docs: 3 documents, mostly troubleshooting articles on Contoso Mail."
    )
    assert "2019" not in skill.description
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    build(tmp_path / "src", out, now=NOW + dt.timedelta(days=1), workers=1)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == stamps


def test_skill_md_entry_points_are_the_most_linked_documents_never_obsolete_ones(
    tmp_path: Path,
) -> None:
    def page(title: str, body: str) -> str:
        return article(title, f"What {title.lower()} covers, for administrators.", body)

    links = "See [the overview](overview.md) and [the old tool](old-tool.md)."
    files = {f"kb/case-{i}.md": page(f"Case {i} of mail delay", links) for i in range(4)}
    files["kb/overview.md"] = page("Mail delivery overview", "How mail is delivered.")
    files["kb/old-tool.md"] = page("Old queue viewer (Obsolete)", "Use the new one.")
    out = tmp_path / "mail-kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    body = (out / "SKILL.md").read_text("utf-8")
    linked = body.split("The documents the others link to most:", 1)[1].split("## ", 1)[0]
    assert "[Mail delivery overview](overview.md)" in linked  # kb/ wrapped everything: the root
    assert "Obsolete" not in linked
    # a rebuild over the same sources converts nothing and still knows all that
    skill = (out / "SKILL.md").read_bytes()
    again = build(tmp_path / "src", out, now=NOW + dt.timedelta(days=1), workers=1)
    assert (again.created, again.updated, again.unchanged) == ([], [], 6)
    assert (out / "SKILL.md").read_bytes() == skill


def test_a_source_that_is_one_folder_in_a_wrapper_is_built_from_that_folder(
    tmp_path: Path,
) -> None:
    source = write_sources(
        tmp_path / "download",
        {
            "Contoso Handbook/guide.md": article(
                "Guide", "How the handbook is organised.", "# Guide\n"
            ),
            "Contoso Handbook/LICENSE.md": "# License\n\nCC-BY-4.0\n",
            "Contoso Handbook/Teams/escalation.md": article(
                "Escalation", "Who is paged after how long.", "# Escalation\n"
            ),
        },
    )
    out = tmp_path / "handbook"
    build(source, out, now=NOW, workers=1)
    assert (out / "guide.md").is_file() and (out / "teams/escalation.md").is_file()
    assert (out / "assets/license.txt").is_file()  # furniture at the wrapper's root: an asset
    root = parse_index((out / "index.md").read_text("utf-8"))
    assert root.sections[0].title == "Contoso Handbook"  # the wrapper's name, not the download's


def test_links_that_differ_from_a_file_name_only_in_case_or_spelling_are_resolved(
    tmp_path: Path,
) -> None:
    files = {
        "README.md": "# Mail docs\n",
        "Mail/delayed-mail.md": article("Delayed mail", "Why mail waits.", "# Delayed\n"),
        "Mail/guide.md": article(
            "Guide",
            "Where to start.",
            "# Guide\n\nSee [delays](../mail/Delayed_Mail.MD#cause) and [both](Twin.md).\n",
        ),
        "Mail/twin.md": article("Twin one", "The first twin.", "# One\n"),
        "Mail/TWIN.md": article("Twin two", "The second twin.", "# Two\n"),
    }
    out = tmp_path / "mail-kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    guide = (out / "mail/guide.md").read_text("utf-8")
    assert "[delays](delayed-mail.md#cause)" in guide  # the case and spelling of a Windows export
    assert "[both](Twin.md)" in guide  # two files alike: no guess, the link stays as written


def test_a_package_is_named_by_the_innermost_folder_around_its_pages(tmp_path: Path) -> None:
    """OfficeDocs-Exchange's 2013 docset sits in ``Exchange/ExchangeServer2013/``: the
    package was titled "Exchange", the outer folder's name; it is the docset's now."""
    source = write_sources(
        tmp_path / "clone",
        {
            f"Exchange/ExchangeServer2013/{slug}.md": article(title, f"{title}, step by step.", "")
            for slug, title in [
                ("install", "Install Exchange Server 2013"),
                ("roles", "Mailbox server role"),
                ("edge", "Edge Transport server"),
            ]
        },
    )
    out = tmp_path / "kb"
    build(source, out, now=NOW, workers=1)
    assert parse_index((out / "index.md").read_text("utf-8")).sections[0].title == (
        "Exchange Server 2013"
    )


@pytest.mark.parametrize("translation", [None, "README-zh.md", "README_pt-BR.md", "README.ja.md"])
def test_a_repository_that_is_its_readme_builds_it(tmp_path: Path, translation: str | None) -> None:
    """An awesome list or a one-page reference is its README: built, not left out as the
    repository's furniture (nor refused as a source with no files), and its README in
    another language, GitHub's ``README-zh.md``, is a translation of it."""
    files = {
        "README.md": "# math-as-code\n\nA reference to ease developers into mathematical "
        "notation by comparing it with JavaScript code.\n\n## Variable names\n\nScalars "
        "are lower-case italic letters.\n",
        "LICENSE.md": "MIT License\n\nPermission is hereby granted, free of charge.\n",
    }
    if translation:
        files[translation] = (
            "# math-as-code\n\n这是一份参考资料，通过与 JavaScript 代码的对比帮助开发者理解数学符号。\n"
        )
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0
    pkg = Package(out)
    pkg.load()
    assert [pkg.documents[p].title for p in pkg.documents] == ["math-as-code"]
    assert "mathematical notation" in (out / "readme.md").read_text("utf-8")
    if translation:
        assert any(
            f"1 page named by their language ({translation}, ...) translates the page" in n
            for n in result.notes
        ), result.notes


def test_images_no_converter_reads_are_copied_for_the_pages_that_show_them(
    tmp_path: Path,
) -> None:
    """A TIFF screenshot a wiki page shows failed as a document (exit code 1) and its
    page's image was broken."""
    tiff = b"II*\x00\x08\x00\x00\x00" + b"\x00" * 64
    files = {
        "setup.md": "# Setup\n\nOpen the console.\n\n![console](images/shot.tiff)\n",
        "images/shot.tiff": tiff,
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0
    assert (out / "assets" / "images" / "shot.tiff").read_bytes() == tiff or any(
        p.read_bytes() == tiff for p in out.rglob("shot.tiff")
    )


def test_a_wikis_sidebars_in_its_folders_are_no_pages(tmp_path: Path) -> None:
    """snowplow's wiki keeps a ``_Sidebar.md`` in nine folders: each was a page "Sidebar"."""
    files = {
        "Home.md": "# Home\n\nWelcome to the Demo wiki; start with the setup guide.\n",
        "setup-guide/_Sidebar.md": "[**HOME**](Home) > [**SETUP**](Setting-up-demo)\n\n"
        "- [Step 1: Setup a Collector](Setting-up-a-collector)\n",
        "setup-guide/_Footer.md": "Questions? Ask on the forum.\n",
        "setup-guide/Setting-up-demo.md": "Set up Demo in two steps: a collector, then a tracker.\n",
        "setup-guide/Setting-up-a-collector.md": "Install the collector on a server you run.\n",
        "about/_Sidebar.md": "- [Overview](About-overview)\n",
        "about/About-overview.md": "Demo collects events from your apps and stores them.\n",
    }
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    assert len(pkg.documents) == 4
    assert not [
        p for p in out.rglob("*") if "sidebar" in p.name.lower() or "footer" in p.name.lower()
    ]


def test_figure_sources_and_binary_data_sets_are_copied_not_converted(tmp_path: Path) -> None:
    """adv-r's 13 OmniGraffle diagrams and r4ds' heights.RDS failed as documents (exit
    code 1), though the books built completely."""
    files = {
        "joins.md": "# Joins\n\nSee the [join diagram](diagrams/join.graffle) and [data](data/heights.RDS).\n",
        "diagrams/join.graffle": b"\x1f\x8b\x08\x00" + b"\x00" * 32,
        "data/heights.RDS": b"\x1f\x8b\x08\x00" + b"\x01" * 32,
        "data/students.feather": b"ARROW1\x00\x00" + b"\x02" * 32,
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0
    suffixes = (".graffle", ".rds", ".feather")
    copied = sorted(p.name.lower() for p in out.rglob("*") if p.suffix.lower() in suffixes)
    assert copied == ["heights.rds", "join.graffle", "students.feather"]


def test_a_json_schema_is_a_file_of_the_package_never_a_page(tmp_path: Path) -> None:
    """sourcegraph's ``schema/team.schema.json`` was a page "Team schema"; a PEP's
    schemas are files its page may link to."""
    files = {
        "teams.md": "# Teams\n\nEach team lists its members in a YAML file the schema checks.\n",
        "schema/team.schema.json": '{"type": "object", "additionalProperties": false}\n',
    }
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    assert [pkg.documents[p].title for p in pkg.documents] == ["Teams"]
    assert list(out.rglob("team*schema.json"))


def test_a_sites_script_fragments_are_files_not_failures(tmp_path: Path) -> None:
    """r4ds' ``plausible.html`` and adv-r's ``ga_script.html`` (analytics a Quarto or
    bookdown site puts in every page's head) failed as "a web page with no text": the
    builds exited 1."""
    files = {
        "_quarto.yml": "project:\n  type: book\nbook:\n  title: Demo\n  chapters:\n    - index.qmd\n",
        "index.qmd": "# Welcome\n\nThis book teaches data science with R.\n",
        "plausible.html": '<script defer data-domain="r4ds.hadley.nz" src="https://x/js/script.js"></script>\n',
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0
    assert len(result.created) == 1
