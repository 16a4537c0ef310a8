"""The build reads names, descriptions and links as the source writes them (issue 33,
items 2-4): product names spelled as the pages spell them, no numbered folders, no two
sibling entries titled alike, assets under ``assets/``, no TOC file copied; boilerplate
lead-ins dropped from descriptions; MkDocs site-absolute links resolved, titles from a
page's heading, never a slug; build notes counted by kind."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.cli.main import main
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.skill import parse_skill
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.page_subjects import subjects
from tests.helpers.build_sources import article, drafted, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

NAV = """site_name: Widgetry
nav:
  - "index.md"
  - Guide:
      - "guide/app.md"
      - "guide/events.md"
  - "widget_gallery.md"
  - Reference:
      - Widgets:
          - "widgets/button.md"
          - "widgets/input.md"
  - Blog:
      - "blog/release.md"
"""


def _page(title: str, text: str = "") -> str:
    body = text or f"What {title.lower()} is for, and how an app puts it to use."
    return f"# {title}\n\n{body}\n"


def _mkdocs_site(tmp_path: Path) -> Path:
    return write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": NAV,
            "LICENSE": "MIT License\n",
            "docs/index.md": "---\nhide:\n  - toc\n---\n\n!!! tip\n\n    See the side-bar.\n\n"
            + _page("Welcome", "Widgetry builds terminal apps from widgets and styles."),
            "docs/guide/app.md": _page(
                "App Basics",
                "In this chapter we will cover how to use the App class to create an application.",
            ),
            "docs/guide/events.md": _page(
                "Events",
                "This chapter discusses how widgets tell the app that something happened. "
                "Press a [button](/widget_gallery/#button), or read [the basics](/guide/app/) "
                "and [the input](/widgets/input/).",
            ),
            "docs/widget_gallery.md": _page("Widgets", "Every widget Widgetry ships with."),
            "docs/widgets/button.md": _page("Button"),
            "docs/widgets/input.md": _page("Input"),
            "docs/blog/release.md": '---\ntitle: "version-060"\n---\n\n'
            + _page("Widgetry 0.6.0 adds a tree widget", "A new release lands with a tree."),
            "docs/images/logo.png": b"\x89PNG\r\n\x1a\nfake",
        },
    )


def test_an_mkdocs_site_reads_as_its_pages_write_it(tmp_path: Path) -> None:
    out = tmp_path / "widgetry-kb"
    result = build(_mkdocs_site(tmp_path), out, now=NOW, workers=1)
    assert result.errors == 0
    # no two entries of one index titled alike: the bundle keeps "Widgets", the page says
    # what tells it apart
    for index in out.rglob("index.md"):
        titles = [e.title.casefold() for e in parse_index(index.read_text("utf-8")).entries]
        assert len(titles) == len(set(titles)), index
    root = parse_index((out / "index.md").read_text("utf-8"))
    assert {e.title for e in root.entries} >= {"Widgets", "Widgets (Widget gallery)"}
    # a page's title is its heading (after a banner), never its slug
    assert "Welcome" in {e.title for e in root.entries}

    def data(rel: str) -> dict:
        return fm.parse((out / rel).read_text("utf-8")).data

    assert data("blog/release.md")["title"] == "Widgetry 0.6.0 adds a tree widget"
    # descriptions without the page's lead-in
    assert data("guide/app.md")["description"] == (
        "How to use the App class to create an application."
    )
    assert data("guide/events.md")["description"] == (
        "How widgets tell the app that something happened."
    )
    # site-absolute links lead to the pages the site serves there
    events = (out / "guide/events.md").read_text("utf-8")
    assert "(/widget-gallery.md#button)" in events
    assert "(/guide/app.md)" in events and "(/widgets/input.md)" in events
    pkg = Package(out)
    pkg.load()
    report = check(pkg, agent_ready=True)
    assert not [f for f in report.findings if f.code == "OKF120"]
    # nothing but bundles, pages and the package's own files at the root; the nav not copied
    assert (out / "assets/license").is_file() and not (out / "license").exists()
    assert not list(out.rglob("mkdocs*"))


def test_a_flat_docfx_folder_keeps_its_names_and_leaves_its_toc_out(tmp_path: Path) -> None:
    def page(title: str, description: str, service: str) -> str:
        return article(title, description, f"# {title}\n\nSteps.\n", **{"ms.service": service})

    source = write_sources(
        tmp_path / "src",
        {
            "TOC.md": "# Finance\n## [Post invoices](invoices.md)\n## [Close the year](close.md)\n"
            "# Sales\n## [Quotes](quotes.md)\n",
            "invoices.md": page(
                "Post invoices in Dynamics 365 Business Central",
                "This article describes how to post sales invoices at the end of the day.",
                "dynamics-365-business-central",
            ),
            "close.md": page(
                "Close the fiscal year in Dynamics 365 Business Central",
                "In this topic, the steps to close a fiscal year and open the next are listed.",
                "dynamics-365-business-central",
            ),
            "quotes.md": page(
                "Send quotes to customers",
                "Explains how to make a sales quote and send it to a customer by email.",
                "dynamics-365-op",
            ),
            "logo.png": b"\x89PNG\r\n\x1a\nfake",
        },
    )
    out = tmp_path / "erp-kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0
    skill = parse_skill((out / "SKILL.md").read_text("utf-8"))
    assert "Dynamics 365 Business Central" in skill.description
    assert "business central" not in skill.description
    assert "365 op" not in skill.description  # a slug no page writes is no product name
    invoices = fm.parse((out / "invoices.md").read_text("utf-8")).data
    assert invoices["description"] == "How to post sales invoices at the end of the day."
    close = fm.parse((out / "close.md").read_text("utf-8")).data
    assert close["description"] == "The steps to close a fiscal year and open the next are listed."
    assert (out / "assets/logo.png").is_file() and not (out / "logo.png").exists()
    assert not list(out.rglob("toc.*"))  # the TOC is read for the tree, not copied


def test_products_read_from_a_slug_are_spelled_as_the_pages_spell_them() -> None:
    pages = [{"ms.service": "dynamics-365-business-central"}] * 2 + [
        {"ms.service": "dynamics-365-op"},
        {"appliesto": ["Exchange Online"]},
    ]
    texts = ["Post invoices in Dynamics 365 Business Central", "Mail in Exchange Online"]
    assert subjects(pages, texts=texts) == ["Dynamics 365 Business Central", "Exchange Online"]


def test_folders_spelled_alike_are_one_bundle_never_a_numbered_one(tmp_path: Path) -> None:
    source = write_sources(
        tmp_path / "src",
        {
            "Mail Flow/queue.md": article("Mail waits in the queue", "Why mail waits.", "# Q\n"),
            "mail-flow/relay.md": article("Relay through a host", "How to relay mail.", "# R\n"),
            "Other/note.md": article("Support hours", "When support answers.", "# S\n"),
        },
    )
    out = tmp_path / "mail-kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    assert (out / "mail-flow/queue.md").is_file() and (out / "mail-flow/relay.md").is_file()
    assert not [p for p in out.rglob("*") if p.is_dir() and p.name.endswith("-2")]


def test_build_notes_are_counted_by_kind_and_listed_with_verbose(tmp_path: Path, capsys) -> None:
    files = {
        f"docs/page{n}.md": f"# Page {n}\n\nA page that includes a file nobody wrote.\n\n"
        f'--8<-- "missing{n}.py"\n'
        for n in range(7)
    }
    source = write_sources(tmp_path / "src", files)
    main(["build", str(source), str(tmp_path / "one-kb"), "--workers", "1", "--no-check"])
    err = capsys.readouterr().err
    assert "notes: 7 (--verbose lists each)" in err
    assert "7 x is not in the source" in err
    assert "  note: " not in err
    main(["build", str(source), str(tmp_path / "two-kb"), "--workers", "1", "--verbose"])
    err = capsys.readouterr().err
    assert err.count("  note: ") == 7


def test_a_group_of_a_split_folder_joins_the_bundle_of_its_name(tmp_path: Path) -> None:
    files = {
        f"kb/{topic}-{n}.md": article(
            f"Fix {topic} error {n} on the desk",
            f"Why {topic} stop working with error {n} and how to fix it quickly.",
            "# Fix\n",
        )
        for topic in ("printers", "scanners", "monitors", "keyboards")
        for n in range(8)
    }
    files["kb/Printers/setup.md"] = article(
        "Set up printers for the office", "How to add printers to the network.", "# Set up\n"
    )
    out = tmp_path / "desk-kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1, index_budget=600)
    assert (out / "printers/setup.md").is_file() and (out / "printers/printers-0.md").is_file()
    assert not [p for p in out.rglob("*") if p.is_dir() and p.name[-2:-1] == "-"]


def test_a_drafted_description_names_the_pages_own_sections(tmp_path: Path) -> None:
    """What a page answers is in its headings: a drafted description with room names
    them, leaving out the headings most of the site's pages carry (furniture)."""

    def page(title: str, sections: list[str]) -> str:
        body = "".join(f"## {s}\n\nText about {s.lower()}.\n\n" for s in sections)
        return f"# {title}\n\nHow an app puts {title.lower()} to use, in a few steps.\n\n{body}"

    files = {f"docs/p{n}.md": page(f"Topic {n}", ["Examples", "Python"]) for n in range(6)}
    files["docs/workers.md"] = page(
        "Workers", ["Thread workers", "Cancelling workers", "Examples", "Python"]
    )
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0
    description = fm.parse((out / "workers.md").read_text("utf-8")).data["description"]
    assert description == (
        "How an app puts workers to use, in a few steps; covers Thread workers and "
        "Cancelling workers."
    )
    entry = {e.target: e for e in parse_index((out / "index.md").read_text("utf-8")).entries}
    assert entry["workers.md"].description == description


def test_an_mkdocs_site_shaped_like_httpx_reads_as_it_serves(tmp_path: Path) -> None:
    """What a real MkDocs site (encode/httpx's docs) showed the build: a home page whose
    title is a centred HTML <h1>, a page with no heading that the nav names, links
    written against the page's served URL (docs/async.md is served at /async/), and a
    theme folder (theme.custom_dir) and a css folder that hold no pages."""
    nav = (
        "site_name: Fetchy\ntheme:\n  name: material\n  custom_dir: docs/overrides\n"
        "nav:\n  - Introduction: index.md\n  - Async: async.md\n  - Advanced:\n"
        "      - SSL: advanced/ssl.md\n      - Proxies: advanced/proxies.md\n"
    )
    source = write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": nav,
            "docs/index.md": '<p align="center"><img src="img/logo.png"></p>\n\n'
            '<h1 align="center">\nFetchy\n</h1>\n\nA small HTTP client for Python.\n',
            "docs/async.md": "# Async Support\n\nFetchy has an async client too. See "
            "[the proxy docs](../advanced/proxies#env) and [SSL](../advanced/ssl/).\n",
            "docs/advanced/ssl.md": "When making a request over HTTPS, Fetchy verifies the "
            "host against a bundle of certificates.\n",
            "docs/advanced/proxies.md": "# Proxies\n\nFetchy supports HTTP proxies set "
            "on the client or in the environment.\n",
            "docs/overrides/partials/nav.html": "<nav>{{ nav }}</nav>\n",
            "docs/css/custom.css": "body { color: black }\n",
            "docs/img/logo.png": b"\x89PNG\r\n\x1a\nfake",
        },
    )
    out = tmp_path / "fetchy-kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    assert {pkg.documents[p].title for p in pkg.documents} == {
        "Fetchy",  # the <h1>, not "Index"
        "Async Support",
        "SSL",  # the nav's name for a page without a heading, not "Ssl"
        "Proxies",
    }
    page = (out / "async.md").read_text("utf-8")
    assert "(advanced/proxies.md#env)" in page and "(advanced/ssl.md)" in page
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF121"]
    # no page of the theme, and the root holds bundles: folders of assets go to assets/
    assert not [p for p in pkg.documents if "nav" in p]
    assert (out / "assets/overrides/partials/nav.html").is_file()
    assert (out / "assets/css/custom.css").is_file()
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["advanced", "assets"]


def _entries(index: Path) -> dict:
    return {e.target: e.description for e in parse_index(index.read_text("utf-8")).entries}


def test_an_own_description_that_only_repeats_the_title_is_drafted_instead(
    tmp_path: Path,
) -> None:
    """eclipse-che's AsciiDoc pages give ``:description:`` as their title again (109 of
    them, each a KAS042 warning of the package built); a "TODO" says nothing either."""
    body = (
        "# Adding labels and annotations\n\nYou can configure Kubernetes Ingress labels "
        "and annotations when your organization requires them.\n"
    )
    files = {
        "docs/labels.md": article(
            "Adding labels and annotations", "Adding labels and annotations", body
        ),
        "docs/report.md": article(
            "Projected value report",
            "TODO",
            "# Projected value report\n\nShows the value "
            "each fixed asset is projected to have at the end of every period.\n",
        ),
        "docs/kept.md": article("Kept page", "Explains the kept thing in some detail.", "# Kept\n"),
    }
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1).errors == 0

    def described(rel: str) -> str:
        return fm.parse((out / rel).read_text("utf-8")).data["description"]

    assert described("labels.md").startswith("You can configure Kubernetes Ingress labels")
    assert described("report.md").startswith("Shows the value each fixed asset is projected")
    assert described("kept.md") == "Explains the kept thing in some detail."  # as written
    pkg = Package(out)
    pkg.load()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "KAS042"]


def test_a_heading_in_a_code_block_is_no_title_an_own_description_repeats() -> None:
    """The page's first-level heading is read outside its code: a shell comment
    ``# Install the agent on every host`` is no title, so the description stays."""
    from kas_tui.features.importing.convert import Converted
    from kas_tui.features.importing.draft import own_description

    def converted(body: str) -> Converted:
        return Converted(
            source=Path("/site/docs/agent.md"),
            markdown=body,
            kind="markdown",
            sha256="0" * 64,
            size=len(body),
            mtime=0.0,
            frontmatter={"description": "Install the agent on every host"},
        )

    code = "Intro.\n\n```sh\n# Install the agent on every host\nrun it\n```\n"
    assert own_description(converted(code)) == "Install the agent on every host"
    assert own_description(converted("# Install the agent on every host\n\nText.\n")) == ""


def test_a_pages_own_description_stays_and_its_entry_names_its_sections(tmp_path: Path) -> None:
    """The writer's sentence is kept in the page as written; the index entry, where an
    agent chooses, names the page's sections too, and a later build keeps it so (an
    unchanged page's sections come from the build record, not a second reading)."""
    own = "Set up posting groups for customers and vendors."
    files = {
        "docs/posting.md": article(
            "Posting groups",
            own,
            "# Posting groups\n\n## Set up general posting groups\n\nText.\n\n"
            "## Copy posting setups between companies\n\nText.\n",
        ),
        "docs/other.md": article("Other page", "Explains another thing in some detail.", "# O\n"),
    }
    src = write_sources(tmp_path / "src", files)
    out = tmp_path / "kb"
    assert build(src, out, now=NOW, workers=1).errors == 0
    assert fm.parse((out / "posting.md").read_text("utf-8")).data["description"] == own
    said = (
        "Set up posting groups for customers and vendors; covers Set up general posting "
        "groups and Copy posting setups between companies."
    )
    assert _entries(out / "index.md")["posting.md"] == said
    pkg = Package(out)
    pkg.load()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "KAS040"]

    before = (out / "index.md").read_bytes()
    build(src, out, now=NOW, workers=1)  # nothing changed: nothing rewritten
    assert (out / "index.md").read_bytes() == before
    (src / "docs/other.md").write_text(article("Other page", "Explains it anew.", "# O\n"))
    build(src, out, now=NOW, workers=1)  # another page changed: the entry stays whole
    assert _entries(out / "index.md")["posting.md"] == said


def test_an_mkdocstrings_page_says_what_it_references() -> None:
    """A page that is only an mkdocstrings directive (``::: textual.events.Hide``) is
    described as the reference it renders to, not by its opening characters."""
    body = "::: textual.events.Hide\n    options:\n      heading_level: 1\n"
    assert drafted(body, "hide.md", "events").description == (
        "API reference for `textual.events.Hide` (hide)."
    )
    # a name in humps is spelled out as the words a question asks with
    humps = "::: textual.events.MouseDown\n"
    assert drafted(humps, "mouse_down.md", "events").description == (
        "API reference for `textual.events.MouseDown` (mouse down)."
    )
    # its words tell it from its siblings: one sentence for all read alike (KAS041)
    assert drafted("::: textual.scroll_view\n", "sv.md", "api").description == (
        "API reference for `textual.scroll_view` (scroll view)."
    )
    two = drafted("::: textual.app\n\n::: textual.binding\n", "ab.md", "api")
    assert two.description == "API reference for `textual.app` and `textual.binding`."


def test_an_include_left_unexpanded_leaves_no_debris_in_the_description() -> None:
    """NAV's pages name the product by an include (``[!INCLUDE[navnow_md](includes/
    navnow_md.md)]``) whose file the source lacked: 318 descriptions read "a specified
    (includes/navnow_md.md)] database"."""
    body = (
        "# Import text\n\nImports UI text strings from a text file to a specified "
        "[!INCLUDE[navnow](includes/navnow_md.md)] database.\n"
    )
    assert drafted(body, "imp.md").description == (
        "Imports UI text strings from a text file to a specified database."
    )


def test_a_faq_page_is_listed_by_its_questions_once(tmp_path: Path) -> None:
    files = {
        "docs/faq.md": "# FAQ\n\nHere we try and answer any question that comes up.\n\n"
        "## Does it support images?\n\nNo.\n\n## How do I pass arguments to an app?\n\nA.\n\n"
        "## Why do some keys never reach my app?\n\nTerminals.\n",
        "docs/guide.md": "# Guide\n\nHow the app is put together, in some words.\n",
    }
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1).errors == 0
    said = _entries(out / "index.md")["faq.md"]
    assert said == (
        "Answers: Does it support images; pass arguments to an app; "
        "Why do some keys never reach my app."
    )


def test_a_page_without_a_title_of_its_own_is_named_by_the_nav(tmp_path: Path) -> None:
    """encode/starlette: ``responses.md`` has no H1 and shows
    ``HTMLResponse('<html><body><h1>Hello, world!</h1>...')`` in an example: it was
    titled "Hello, world!"; ``release-notes.md`` opens with "## 0.47.3 (August 24, 2025)"
    and was titled so. The nav names them "Responses" and "Release Notes"."""
    nav = "site_name: Web\nnav:\n  - Responses: responses.md\n  - Release Notes: release-notes.md\n"
    example = "```python\nHTMLResponse('<html><body><h1>Hello, world!</h1></body></html>')\n```\n"
    source = write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": nav,
            "docs/responses.md": f"Web includes a few response classes for ASGI.\n\n{example}",
            "docs/release-notes.md": "## 0.47.3 (August 24, 2025)\n\n* Fixed a bug in routing.\n",
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    assert {pkg.documents[p].title for p in pkg.documents} == {"Responses", "Release Notes"}


def test_a_pages_opening_shows_no_html() -> None:
    """Textual's reference/index.md opens "Welcome to the Textual Reference." and a
    ``<div class="grid cards" markdown>``: its description quoted the tag, cut open."""
    body = (
        '# Reference\n\nWelcome.\n\n<div class="grid cards" markdown>\n\n'
        "-   :octicons-book-16:{ .lg .middle } __CSS Types__\n\n</div>\n"
    )
    said = drafted(body, "index.md", "reference").description
    assert "<div" not in said and "octicons" not in said and "CSS Types" in said, said


def test_a_reference_pages_one_line_summary_describes_it() -> None:
    """React Native's component pages open with one short sentence saying what the
    component does ("Displays a circular loading indicator."); it was too short for
    prose, and a prop's sentence further down described the page ("Whether to show
    the indicator (true) or hide it (false)")."""
    props = (
        "## Props\n\n### animating\n\nWhether to show the indicator (true) or hide it (false).\n"
    )
    said = drafted(
        "# ActivityIndicator\n\nDisplays a circular loading indicator.\n\n" + props,
        "activityindicator.md",
        "components",
    ).description
    assert said.startswith("Displays a circular loading indicator"), said
    said = drafted("Vibrates the device.\n\n## Methods\n\n" + props, "vibration.md", "api")
    assert said.description.startswith("Vibrates the device"), said.description
    # a short opener saying nothing of the thing is no summary, nor is one under a section
    for body in (
        "# Guide\n\nLet's get started.\n\n" + props,
        "# Guide\n\nThis is it.\n\n" + props,
        "# Guide\n\n## createApp()\n\nCreates an application instance.\n\n" + props,
    ):
        said = drafted(body, "guide.md", "docs").description
        assert said.startswith("Whether to show the indicator"), (body, said)


def test_a_page_of_one_short_paragraph_is_described_by_it() -> None:
    """FastAPI's Resources section opens with a page that says only "Additional
    resources, external links, and more. ✈️": too short for prose, it was described
    "Document whose text opens with “Resources, Additional resources, ...”" and its
    bundle's root entry with it."""
    said = drafted(
        "# Resources { #resources }\n\nAdditional resources, external links, and more. ✈️\n",
        "index.md",
        "resources",
    ).description
    assert said == "Additional resources, external links, and more.", said
    # under two words, or no sentence, it says too little; with more on the page, the
    # page's other words are read as before
    for body in ("# Tools\n\nSee below.\n", "# Tools\n\nUseful tools and links\n"):
        said = drafted(body, "tools.md", "docs").description
        assert not said.startswith(("See below", "Useful tools and links")), said


def test_a_name_written_lower_case_opens_its_description_so() -> None:
    """pnpm.io: "pnpm install is used to install all dependencies" was described
    "Pnpm install is used to ...", "`pn` is available as a short alias" "Pn is ...":
    the paragraph opens with the name in lower case, and so does the description."""
    said = drafted(
        "# pnpm install\n\npnpm install is used to install all dependencies for a project.\n",
        "install.md",
        "cli",
    ).description
    assert said.startswith("pnpm install is used to install"), said
    said = drafted(
        "# pnpm CLI\n\n`pn` is available as a short alias for pnpm, and pnx for pnpm dlx.\n",
        "cli.md",
        "usage",
    ).description
    assert said.startswith("pn is available as a short alias"), said
    # a hyphenated program name as code, a package's name as a list item's link
    # (sphinx-doc/sphinx: "Sphinx-build generates...", prettier: "Eslint-config-prettier")
    said = drafted(
        "# sphinx-build\n\n`sphinx-build` generates documentation from the files in a "
        "source directory.\n",
        "sphinx-build.md",
        "man",
    ).description
    assert said.startswith("sphinx-build generates documentation"), said
    said = drafted(
        "---\ntitle: Related Projects\n---\n\n## ESLint Integrations\n\n"
        "- [eslint-config-prettier](https://example.com/e) turns off all ESLint rules that "
        "are unnecessary or might conflict with Prettier\n"
        "- [eslint-plugin-prettier](https://example.com/p) runs Prettier as an ESLint rule "
        "and reports differences as individual ESLint issues\n",
        "related.md",
        "misc",
    ).description
    assert said.startswith("eslint-config-prettier turns off all ESLint rules"), said
    # another paragraph opening "if you ..." says nothing of this one's "If you ..."
    said = drafted(
        "# Align\n\nIf you have ever needed to center a widget, it is easy in this library."
        "\n\nif you need more, read on about the other alignments it offers.\n",
        "align.md",
        "guide",
    ).description
    assert said.startswith("If you have ever needed"), said


def test_an_address_opening_a_paragraph_is_no_description() -> None:
    """k3d's home opens with its address above its first sentence: described as
    "Https://k3d.io/ k3d is a wrapper CLI...", the URL capitalised."""
    said = drafted(
        "# Overview\n\nhttps://k3d.io/\nk3d is a lightweight wrapper to run k3s in docker.\n",
        "index.md",
        "docs",
    ).description
    assert said.startswith("k3d is a lightweight wrapper"), said  # its name as written


def test_a_landing_page_of_links_says_where_it_leads() -> None:
    """AdguardTeam/KnowledgeBase opens each product with a page of a notice (repeated
    on all of the product's pages, so no description of one) and a list of links with
    a line each: it was described "Document whose text opens with “This article covers
    AdGuard for Windows ...”" (14 of its pages)."""
    said = drafted(
        ":::info\n\nThis article covers AdGuard for Windows, a multifunctional ad blocker. "
        "To see how it works, [download the app](https://example.com)\n\n:::\n\n"
        "- [Features](/windows/features/features.md)\n\n    Main features and settings\n\n"
        "- [Installation](/windows/installation.md)\n\n    Installation and removal\n\n"
        "- [Solving problems](/windows/solving-problems/solving-problems.md)\n\n"
        "    Known issues and possible solutions\n",
        "adguard-for-windows.md",
        "docs",
    ).description
    assert said == "Overview linking to Features, Installation and Solving problems.", said


def test_a_title_written_as_a_package_name_stays_when_the_page_has_no_heading_of_its_own(
    tmp_path: Path,
) -> None:
    """babel's plugin pages are titled by their package (``title:
    babel-plugin-minify-flip-comparisons``) and open with "## Example": taken for a slug,
    the title became "Example" on 17 pages; a slug above a page's own H1 still gives way
    to the H1 (Textual's ``title: "version-060"``)."""
    files = {
        "plugin-minify-flip-comparisons.md": "---\ntitle: babel-plugin-minify-flip-comparisons"
        "\n---\n\n## Example\n\n**In**\n\n```js\nconst foo = a === 1;\n```\n",
        "release.md": '---\ntitle: "version-060"\n---\n\n# Babel 6.0 ships\n\nIt lands.\n',
    }
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)

    def title(name: str) -> str:
        parsed = fm.parse((tmp_path / "kb" / name).read_text("utf-8"))
        assert parsed is not None
        return parsed.data["title"]

    assert title("plugin-minify-flip-comparisons.md") == "babel-plugin-minify-flip-comparisons"
    assert title("release.md") == "Babel 6.0 ships"


def test_release_notes_are_described_by_their_releases() -> None:
    """pallets/flask's changelog (its CHANGES.rst, included) was described by one change
    of its newest release: "RequestContext is now a deprecated alias."."""
    said = drafted(
        "# Changes\n\n## Version 3.2.0\n\nUnreleased\n\n- Drop support for Python 3.9.\n"
        "- `RequestContext` has merged with `AppContext`. `RequestContext` is now a "
        "deprecated alias.\n\n## Version 3.1.2\n\nReleased 2025-08-19\n\n- Fix a crash.\n\n"
        "## Version 3.1.1\n\n- Fix signing.\n\n## Version 3.1.0\n\n- Drop Python 3.8.\n",
        "changes.md",
    ).description
    assert said == (
        "Release notes: Version 3.2.0, Version 3.1.2, Version 3.1.1 and other releases."
    ), said
    # a page with a version or two among its sections is no changelog
    other = drafted(
        "# Upgrading\n\nMove your app to the new context before you upgrade.\n\n"
        "## Version 3.0\n\nThe context changed.\n\n## Steps\n\nRun it.\n\n## Checks\n\nTest.\n",
        "upgrading.md",
    ).description
    assert not other.startswith("Release notes"), other
    # numbered sections are no releases: PostgreSQL's manual, every chapter so described
    chapter = drafted(
        "# 1. Getting Started\n\n## 1.1. Installation\n\nInstall it first.\n\n"
        "## 1.2. Architectural Fundamentals\n\nA client and a server.\n\n"
        "## 1.3. Creating a Database\n\nRun createdb mydb.\n",
        "getting-started.md",
    ).description
    assert not chapter.startswith("Release notes"), chapter


#: A docfx TOC gathering pages of several source folders into one bundle, two of them
#: named ``overview.md`` and ``welcome.md`` alike (PowerShell-Docs, Business Central).
PLACED_TOC = """items:
- name: Platform
  items:
  - name: Configuration
    items:
    - {name: Desired State Configuration (DSC), href: dsc/overview.md}
    - {name: PowerShell Gallery, href: gallery/overview.md}
    - {name: Overview, href: jea/overview.md}
    - {name: Profiles, href: profiles.md}
    - {name: Modules, href: modules.md}
  - name: Shells
    items:
    - {name: Consoles, href: consoles.md}
    - {name: Terminals, href: terminals.md}
- name: Billing
  items:
  - name: Subscriptions
    items:
    - {name: Overview of subscription billing, href: SRB/welcome.md}
    - {name: Overview of usage-based billing, href: UBB/welcome.md}
    - {name: Plans, href: plans.md}
    - {name: Prices, href: prices.md}
  - name: Invoicing
    items:
    - {name: Usage data, href: UBB/usage.md}
    - {name: Contracts, href: SRB/contracts.md}
    - {name: Invoices, href: invoices.md}
    - {name: Credit memos, href: credit-memos.md}
"""


FLAT_PAGES = ["profiles", "modules", "consoles", "terminals", "plans", "prices", "invoices"]
FLAT_PAGES += ["credit-memos"]


def test_pages_alike_named_in_one_bundle_take_their_titles_not_numbers(tmp_path: Path) -> None:
    """Two source folders' ``overview.md`` placed side by side by the TOC: the second is
    named by the title the TOC gives it, or by its folder and name when that is taken
    too, never ``overview-2.md``."""
    body = "Text about the subject of this page, long enough to say something.\n"
    files: dict[str, str | bytes] = {"toc.yml": PLACED_TOC}
    for rel, title in [
        ("dsc/overview.md", "Desired State Configuration overview"),
        ("gallery/overview.md", "The PowerShell Gallery"),
        ("SRB/welcome.md", "Overview of subscription billing"),
        ("UBB/welcome.md", "Overview of usage-based billing"),
        ("jea/overview.md", "Just Enough Administration"),
        ("UBB/usage.md", "Usage data"),
        ("SRB/contracts.md", "Contracts"),
        *[(f"{n}.md", n.replace("-", " ").capitalize()) for n in FLAT_PAGES],
    ]:
        files[rel] = article(title, f"About {title.lower()}.", f"# {title}\n\n{body}")
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0, result.report
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.md"))
    assert not [n for n in names if n[-5:-3] in {"-2", "-3"}], names
    assert {
        "platform/overview.md",
        "platform/powershell-gallery.md",  # the title the TOC gives it
        "billing/welcome.md",
        "billing/overview-of-usage-based-billing.md",
        # its TOC title is another page's file name: its folder's name and its own
        "platform/jea-overview.md",
    } <= set(names), " ".join(names)
