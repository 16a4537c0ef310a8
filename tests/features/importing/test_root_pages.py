"""When the source's TOC orders the root, the root index also lists the pages of the
bundles the TOC names first, while it stays within half an index's budget."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.index_layout import BUNDLE, NewEntry, new_index_in_sections
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.root_pages import with_first_pages
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def _doc(path: str, title: str) -> NewEntry:
    return NewEntry(path, title, f"What {title.lower()} covers, in a few words.", "Reference")


ROOT = [
    (
        None,
        [
            NewEntry("guide", "Guide", "The guide.", BUNDLE),
            _doc("faq.md", "FAQ"),
            NewEntry("shop", "Shop", "Selling widgets.", BUNDLE),
            NewEntry("api", "API", "Every class.", BUNDLE),
            NewEntry("blog", "Blog", "Posts.", BUNDLE),
        ],
    )
]
LONG = "Orders, invoices and returns of the shop, " * 12
PAGES = {
    "guide": [_doc("guide/app.md", "App basics"), _doc("guide/faq.md", "FAQ")],
    "api": [_doc(f"api/c{n}.md", f"Class {n}") for n in range(60)],
    "shop": [
        NewEntry("shop/sales", "Sales", LONG, BUNDLE),
        NewEntry("shop/returns", "Returns", "Taking widgets back.", BUNDLE),
        *[_doc(f"shop/p{n}.md", f"Page {n}") for n in range(40)],
    ],
    "blog": [_doc("blog/post.md", "A post")],
}


def _render(groups) -> str:
    return new_index_in_sections("", "Site", groups)


def test_the_first_bundles_add_their_sub_bundles_else_their_pages_while_they_fit() -> None:
    groups = with_first_pages(ROOT, PAGES.__getitem__, str.title, _render, budget=1300)
    # api is too big, and blog, after it, is not listed before it
    assert [h for h, _items in groups] == [None, "Guide", "Shop"]
    sections = dict(groups[1:])
    assert [e.title for e in sections["Guide"]] == ["App basics", "FAQ (Guide)"]
    assert [e.path for e in sections["Shop"]] == ["shop/sales", "shop/returns"]  # no pages
    # a sub-bundle's sentence as its parent's index words it, when it fits: its words
    # are what a walk routes by (Business Central's blind questions: 43.3% -> 45.0%
    # reached, 18.3% -> 23.3% within 4 turns, when the root stopped cutting them)
    assert sections["Shop"][0].description == LONG
    assert len(_render(groups)) / 4 <= 1300 * 0.75


def test_a_sub_bundle_sentence_is_cut_only_when_the_whole_would_not_fit() -> None:
    groups = with_first_pages(ROOT, PAGES.__getitem__, str.title, _render, budget=300)
    sections = dict(groups[1:])
    assert [e.path for e in sections["Shop"]] == ["shop/sales", "shop/returns"]
    assert len(sections["Shop"][0].description) <= 200  # cut to a page's length
    assert sections["Shop"][0].description.endswith("…")
    assert sections["Shop"][1].description == "Taking widgets back."  # short: whole
    assert len(_render(groups)) / 4 <= 300 * 0.75


def test_the_root_never_lists_more_entries_than_an_agent_can_choose_from() -> None:
    many = {**PAGES, "guide": [_doc(f"guide/p{n}.md", f"Chapter {n}") for n in range(58)]}
    groups = with_first_pages(ROOT, many.__getitem__, str.title, _render, budget=100_000)
    assert sum(len(items) for _h, items in groups) <= 60  # KAS047
    assert "Guide" not in [h for h, _items in groups]  # 5 + 58 would be too many


def test_a_bundle_holding_one_sub_bundle_adds_nothing() -> None:
    one = {**PAGES, "shop": [NewEntry("shop/posts", "Posts", "Posts.", BUNDLE)]}
    groups = with_first_pages(ROOT, one.__getitem__, str.title, _render, budget=1300)
    assert [h for h, _items in groups] == [None, "Guide"]  # passed over, not a stop


def test_a_bundle_holding_one_page_adds_nothing() -> None:
    """A one-page bundle's entry says what its page says: listing the page too made two
    root entries alike (mkdocs-material's Changelog, KAS041)."""
    one = {**PAGES, "shop": [_doc("shop/terms.md", "Terms")]}
    groups = with_first_pages(ROOT, one.__getitem__, str.title, _render, budget=1300)
    assert [h for h, _items in groups] == [None, "Guide"]  # passed over, not a stop


def test_a_bundle_listed_below_says_so_in_its_own_entry() -> None:
    groups = with_first_pages(
        ROOT, PAGES.__getitem__, str.title, _render, budget=1300, counted=lambda b: "3 pages"
    )
    said = {e.path: e.description for e in groups[0][1]}
    # a few are named: two bundles listed below must not read alike (redux's "Using
    # Redux" and "Understanding Redux" were KAS041 as "N documents; its 2 sections...")
    assert said["guide"] == "Guide: 3 pages, listed below: App basics and FAQ (Guide)."
    assert said["shop"] == "Shop: 3 pages, listed below: Sales and Returns."
    assert said["api"] == "Every class."  # not listed below: its own sentence
    # more are counted: naming a long list again drew walks to the bundle's index
    many = {
        **PAGES,
        "guide": [_doc(f"guide/p{n}.md", f"Chapter {n}") for n in range(4)],
        "shop": [NewEntry(f"shop/s{n}", f"Part {n}", "A part.", BUNDLE) for n in range(4)],
    }
    groups = with_first_pages(
        ROOT, many.__getitem__, str.title, _render, budget=1300, counted=lambda b: "9 pages"
    )
    said = {e.path: e.description for e in groups[0][1]}
    assert said["guide"] == "Guide: 9 pages, listed below."
    assert said["shop"] == "Shop: 9 pages; its 4 sections are listed below."


def test_a_root_already_over_its_share_lists_nothing_more() -> None:
    assert with_first_pages(ROOT, PAGES.__getitem__, str.title, _render, budget=60) == [
        (h, list(items)) for h, items in ROOT
    ]


def test_a_built_site_lists_its_first_chapters_at_the_root(tmp_path: Path) -> None:
    nav = (
        "site_name: Widgetry\nnav:\n  - index.md\n  - Guide:\n      - guide/app.md\n"
        "      - guide/events.md\n  - Blog:\n      - blog/post.md\n"
    )

    def page(title: str) -> str:
        return f"# {title}\n\nHow {title.lower()} work in a Widgetry app, step by step.\n"

    source = write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": nav,
            "docs/index.md": page("Welcome"),
            "docs/guide/app.md": page("Apps"),
            "docs/guide/events.md": page("Events"),
            "docs/blog/post.md": page("Releases"),
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    root = parse_index((out / "index.md").read_text("utf-8"))
    targets = [e.target for e in root.entries]
    assert "guide/app.md" in targets and "guide/events.md" in targets
    assert targets.index("guide/") < targets.index("guide/app.md")
    pkg = Package(out)
    pkg.load()
    report = check(pkg, agent_ready=True)
    assert not [f for f in report.findings if f.severity == "error"]
    assert not [f for f in report.findings if f.code in ("KAS045", "KAS041")]
    # the bundle listed below says so, rather than naming its pages a second time
    said = {e.target: e.description for e in root.entries}
    assert said["guide/"] == "Guide: 2 documents, listed below: Apps and Events."
    before = {p: p.read_bytes() for p in out.rglob("*.md")}
    (source / "docs" / "blog" / "post.md").write_text(page("Releases") + "\nMore.\n")
    again = build(source, out, now=NOW, workers=1)  # a later build keeps it, says nothing
    assert again.kept == [] and (out / "index.md").read_bytes() == before[out / "index.md"]


def test_without_a_toc_the_root_lists_only_its_own(tmp_path: Path) -> None:
    source = write_sources(
        tmp_path / "src",
        {
            "guide/app.md": "# Apps\n\nHow apps work in a Widgetry shop, step by step.\n",
            "blog/post.md": "# Releases\n\nWhat each release of Widgetry brought to shops.\n",
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    targets = [e.target for e in parse_index((out / "index.md").read_text("utf-8")).entries]
    assert not [t for t in targets if t.endswith(".md") and "/" in t]


def test_a_bundle_named_as_a_root_section_takes_that_section_in_where_it_goes() -> None:
    """uv's nav puts ``pip/`` (a folder beside ``concepts/``) under its "Concepts"
    section; jupyterhub's puts ``rbac/`` under "Explanation". The root listed a
    "Concepts" section holding only that folder, then, further down, "Concepts pages"
    with the bundle's own entries."""
    root = [
        (
            None,
            [
                NewEntry("start", "Getting started", "Installing and first steps.", BUNDLE),
                NewEntry("concepts", "Concepts", "How it works.", BUNDLE),
            ],
        ),
        ("Concepts", [NewEntry("pip", "The pip interface", "Pip's commands.", BUNDLE)]),
    ]
    pages = {
        "start": [_doc("start/install.md", "Installing"), _doc("start/first.md", "First steps")],
        "concepts": [_doc(f"concepts/c{n}.md", f"Concept {n}") for n in range(3)],
        "pip": [_doc("pip/env.md", "Environments"), _doc("pip/compile.md", "Locking")],
    }
    titles = {"start": "Getting started", "concepts": "Concepts", "pip": "The pip interface"}
    groups = with_first_pages(root, pages.__getitem__, titles.__getitem__, _render, budget=4000)
    assert [h for h, _items in groups] == [None, "Getting started", "Concepts", "The pip interface"]
    concepts = dict(groups[1:])["Concepts"]
    assert [e.path for e in concepts] == [
        "concepts/c0.md",
        "concepts/c1.md",
        "concepts/c2.md",
        "pip",
    ]
    # each bundle listed below says so, wherever its entry stands; "Concepts" names
    # its own three pages, not the folder the section took in
    said = {e.path: e.description for _h, items in groups for e in items}
    assert said["pip"] == "The pip interface, listed below: Environments and Locking."
    assert said["concepts"].endswith("listed below: Concept 0, Concept 1 and Concept 2.")


def test_a_section_holding_the_bundle_named_as_it_keeps_the_bundles_entry() -> None:
    """VuePress' "Advanced" sidebar group holds ``advanced/`` itself: taken into the
    bundle's own section, the bundle's entry left the root index (KAS048, an error)."""
    root = [
        (None, [NewEntry("guide", "Guide", "Using it.", BUNDLE)]),
        (
            "Advanced",
            [
                NewEntry("advanced", "Advanced", "Internals.", BUNDLE),
                _doc("arch.md", "Architecture"),
            ],
        ),
    ]
    pages = {
        "guide": [_doc("guide/a.md", "Install"), _doc("guide/b.md", "Configure")],
        "advanced": [_doc("advanced/p.md", "Plugins"), _doc("advanced/t.md", "Themes")],
    }
    titles = {"guide": "Guide", "advanced": "Advanced"}
    groups = with_first_pages(root, pages.__getitem__, titles.__getitem__, _render, budget=4000)
    listed = [e.path for _h, items in groups for e in items]
    assert "advanced" in listed and "arch.md" in listed
    assert [h for h, _items in groups] == [None, "Advanced", "Guide", "Advanced pages"]
