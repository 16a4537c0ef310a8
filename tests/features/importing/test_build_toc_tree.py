"""The TOC is the tree (issue 33, item 1): when a source's table of contents nests its
pages more deeply than its folders do, its headings become the package's bundles, in
each TOC format; pages listed twice live once; pages it does not list go where their
links and words place them."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import Toc, TocNode
from kas_tui.features.importing.toc_tree import nests_deeper, plan
from tests.helpers.build_sources import article, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def page(title: str, description: str, body: str = "Steps.\n") -> str:
    return article(title, description, f"# {title}\n\n{body}")


#: A flat folder of an ERP's help: (file, title, description).
PAGES = [
    ("welcome.md", "Welcome to Contoso ERP", "What Contoso ERP does for a small business."),
    ("sign-in.md", "Sign in for the first time", "How to sign in with a work account."),
    ("tour.md", "Take the product tour", "A guided walk through the role centre."),
    ("trial.md", "Start a free trial", "How to start a thirty-day trial company."),
    ("ledger.md", "General ledger overview", "How postings reach the general ledger."),
    ("vat.md", "Report value added tax", "How to file the VAT return each quarter."),
    ("budgets.md", "Create ledger budgets", "How to plan spending per account and period."),
    ("pay-vendors.md", "Pay vendor invoices", "How to suggest and post vendor payments."),
    ("payables-aging.md", "Payables ageing", "Which vendor invoices are overdue and by how long."),
    ("vendor-bank.md", "Vendor bank accounts", "How to record where vendors are paid."),
    ("quotes.md", "Send sales quotes", "How to make a quote and email it to a customer."),
    ("orders.md", "Sales orders", "How to turn a quote into an order and ship it."),
    ("invoice.md", "Invoice a sale", "How to post a sales invoice for shipped goods."),
    ("returns.md", "Sales returns", "How to take goods back and credit the customer."),
    ("prices.md", "Sales prices", "How to set a price list for a customer group."),
]

TOC_MD = """# [Welcome to Contoso ERP](welcome.md)
# Get started
## [Sign in for the first time](sign-in.md)
## [Take the product tour](tour.md)
## [Start a free trial](trial.md)
# Business functionality
## Finance
### [General ledger overview](ledger.md)
### [Report value added tax](vat.md)
### [Create ledger budgets](budgets.md)
### Payables
#### [Pay vendor invoices](pay-vendors.md)
#### [Payables ageing](payables-aging.md)
#### [Vendor bank accounts](vendor-bank.md)
## Sales
### [Send sales quotes](quotes.md)
### [Sales orders](orders.md)
### [Invoice a sale](invoice.md)
### [Sales returns](returns.md)
### [Sales prices](prices.md)
### [Report value added tax](vat.md)
"""

#: Pages the TOC does not list: one linked from the Sales pages, one whose title shares
#: Finance's words, one with neither.
UNLISTED = {
    "credit-limits.md": page(
        "Credit limits", "How much a customer may owe before orders stop.", "Set them.\n"
    ),
    "ledger-budget-versions.md": page(
        "Ledger budget versions", "Keep several versions of one plan.", "Copy a budget.\n"
    ),
    "keyboard.md": page("Keyboard shortcuts", "Keys that save time anywhere.", "Press F1.\n"),
}


def _flat_source(tmp_path: Path, toc_name: str, toc_text: str) -> Path:
    files: dict[str, str | bytes] = {toc_name: toc_text}
    for name, title, description in PAGES:
        body = "Steps.\n"
        if name in ("orders.md", "invoice.md", "quotes.md"):
            body = "Check the [credit limit](credit-limits.md) first.\n"
        files[name] = page(title, description, body)
    files.update(UNLISTED)
    files["media/screen.png"] = b"\x89PNG\r\n\x1a\nfake"
    files["ToC.xml"] = '<?xml version="1.0"?>\n<Node Name="" DisplayName="Help"/>\n'
    return write_sources(tmp_path / "src", files)


def _index(folder: Path) -> tuple[str, list[tuple[str, str]]]:
    text = (folder / "index.md").read_text("utf-8")
    title = next(line[2:].strip() for line in text.splitlines() if line.startswith("# "))
    return title, [(e.title, e.target) for e in parse_index(text).entries]


def top_two_levels(out: Path) -> dict[str, list[str]]:
    """Bundle title -> the titles of its sub-bundles, for the package's root bundles:
    what a reader sees first (assets left out)."""
    levels: dict[str, list[str]] = {}
    for folder in sorted(p for p in out.iterdir() if p.is_dir() and p.name != "assets"):
        title, _entries = _index(folder)
        levels[title] = [
            _index(sub)[0] for sub in sorted(folder.iterdir()) if (sub / "index.md").is_file()
        ]
    return levels


def _assert_the_toc_is_the_tree(out: Path) -> None:
    levels = top_two_levels(out)
    assert levels == {"Business functionality": ["Finance", "Sales"], "Get started": []}
    root_title, root = _index(out)
    assert ("Welcome to Contoso ERP", "welcome.md") in root
    assert ("Get started", "get-started/") in root
    # the pages sit in the bundles the TOC puts them in
    finance = out / "business-functionality" / "finance"
    assert (finance / "ledger.md").is_file() and (out / "get-started" / "tour.md").is_file()
    # a page the TOC lists twice lives once; the other bundle lists it, pointing across
    assert (finance / "vat.md").is_file()
    assert not list((out / "business-functionality" / "sales").rglob("vat.md"))
    _title, sales = _index(out / "business-functionality" / "sales")
    assert ("Report value added tax", "../finance/vat.md") in sales
    # unlisted pages: by their links, by their words, else at the root
    assert (out / "business-functionality" / "sales" / "credit-limits.md").is_file()
    assert list(finance.rglob("ledger-budget-versions.md"))
    assert (out / "keyboard.md").is_file()
    # no bundle but the TOC's, and the assets under assets/
    folders = {p.name for p in out.rglob("*") if p.is_dir()}
    assert folders <= {"get-started", "business-functionality", "finance", "sales"} | {
        "payables",
        "assets",
        "media",
    }
    assert (out / "assets" / "media" / "screen.png").is_file()
    assert not list(out.rglob("toc.*"))  # an older docfx ToC.xml is a TOC too, no page


def test_a_flat_folder_with_a_nested_toc_md_becomes_the_toc_s_tree(tmp_path: Path) -> None:
    source = _flat_source(tmp_path, "TOC.md", TOC_MD)
    out = tmp_path / "erp"
    result = build(source, out, now=NOW, workers=1, index_budget=500)
    assert result.errors == 0, result.report
    _assert_the_toc_is_the_tree(out)
    assert not [f for f in result.report.findings if f.rule == "KAS046"]  # no index over budget


TOC_YML = """items:
- name: Welcome to Contoso ERP
  href: welcome.md
- name: Get started
  items:
  - {name: Sign in for the first time, href: sign-in.md}
  - {name: Take the product tour, href: tour.md}
  - {name: Start a free trial, href: trial.md}
- name: Business functionality
  items:
  - name: Finance
    items:
    - {name: General ledger overview, href: ledger.md}
    - {name: Report value added tax, href: vat.md}
    - {name: Create ledger budgets, href: budgets.md}
    - name: Payables
      items:
      - {name: Pay vendor invoices, href: pay-vendors.md}
      - {name: Payables ageing, href: payables-aging.md}
      - {name: Vendor bank accounts, href: vendor-bank.md}
  - name: Sales
    items:
    - {name: Send sales quotes, href: quotes.md}
    - {name: Sales orders, href: orders.md}
    - {name: Invoice a sale, href: invoice.md}
    - {name: Sales returns, href: returns.md}
    - {name: Sales prices, href: prices.md}
    - {name: Report value added tax, href: vat.md}
"""


def test_a_flat_folder_with_a_nested_toc_yml_becomes_the_toc_s_tree(tmp_path: Path) -> None:
    source = _flat_source(tmp_path, "toc.yml", TOC_YML)
    out = tmp_path / "erp"
    result = build(source, out, now=NOW, workers=1, index_budget=500)
    assert result.errors == 0, result.report
    _assert_the_toc_is_the_tree(out)


def test_an_mkdocs_nav_nesting_a_flat_docs_folder(tmp_path: Path) -> None:
    nav = (
        "site_name: Contoso ERP\nnav:\n  - welcome.md\n  - Get started:\n"
        "      - sign-in.md\n      - tour.md\n      - trial.md\n"
        "  - Business functionality:\n      - Finance:\n"
        "          - ledger.md\n          - vat.md\n          - budgets.md\n"
        "          - Payables:\n              - pay-vendors.md\n"
        "              - payables-aging.md\n              - vendor-bank.md\n"
        "      - Sales:\n          - quotes.md\n          - orders.md\n"
        "          - invoice.md\n          - returns.md\n          - prices.md\n"
        "          - vat.md\n"
    )
    flat = _flat_source(tmp_path / "flat", "unused.txt", "")
    files: dict[str, str | bytes] = {"mkdocs.yml": nav}
    for path in flat.rglob("*"):
        if path.is_file() and path.name != "unused.txt":
            files["docs/" + path.relative_to(flat).as_posix()] = path.read_bytes()
    source = write_sources(tmp_path / "site", files)
    out = tmp_path / "erp"
    result = build(source, out, now=NOW, workers=1, index_budget=500)
    assert result.errors == 0, result.report
    _assert_the_toc_is_the_tree(out)


SIDEBARS_TS = """import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';

// the sidebar of the ERP's help
const sidebars: SidebarsConfig = {
  help: [
    'welcome',
    {type: 'category', label: 'Get started', items: ['sign-in', 'tour', 'trial']},
    {
      type: 'category',
      label: 'Business functionality',
      items: [
        {
          type: 'category',
          label: 'Finance',
          items: [
            'ledger', 'vat', 'budgets',
            {type: 'category', label: 'Payables', items: ['pay-vendors', 'payables-aging', 'vendor-bank']},
          ],
        },
        {type: 'category', label: 'Sales', items: ['quotes', 'orders', 'invoice', 'returns', 'prices', 'vat']},
      ],
    },
  ],
};

export default sidebars;
"""

SIDEBARS_JS = """module.exports = {
  help: {
    'Get started': ['sign-in', 'tour', 'trial'],
    'Business functionality': [
      {type: 'category', label: 'Finance', items: ['ledger', 'vat', 'budgets',
        {type: 'category', label: 'Payables', items: ['pay-vendors', 'payables-aging', 'vendor-bank']}]},
      {type: 'category', label: 'Sales', items: ['quotes', 'orders', 'invoice', 'returns', 'prices', 'vat']},
    ],
  },
};
"""


def _docusaurus_source(tmp_path: Path, name: str, text: str) -> Path:
    flat = _flat_source(tmp_path / "flat", "unused.txt", "")
    files: dict[str, str | bytes] = {name: text}
    for path in flat.rglob("*"):
        if path.is_file() and path.name != "unused.txt":
            files["docs/" + path.relative_to(flat).as_posix()] = path.read_bytes()
    return write_sources(tmp_path / "site", files)


def test_a_docusaurus_sidebars_ts_nesting_a_flat_docs_folder(tmp_path: Path) -> None:
    source = _docusaurus_source(tmp_path, "sidebars.ts", SIDEBARS_TS)
    out = tmp_path / "erp"
    result = build(source, out, now=NOW, workers=1, index_budget=500)
    assert result.errors == 0, result.report
    _assert_the_toc_is_the_tree(out)
    assert not [n for n in result.notes if "sidebars" in n]  # read, not reported as code


def test_a_docusaurus_sidebars_js_object_of_arrays(tmp_path: Path) -> None:
    source = _docusaurus_source(tmp_path, "sidebars.js", SIDEBARS_JS)
    out = tmp_path / "erp"
    result = build(source, out, now=NOW, workers=1, index_budget=500)
    assert result.errors == 0, result.report
    levels = top_two_levels(out)
    assert levels["Business functionality"] == ["Finance", "Sales"]
    assert "Get started" in levels


def test_docusaurus_autogenerated_folders_are_categories_named_by_category_json(
    tmp_path: Path,
) -> None:
    from kas_tui.features.importing.toc import find_toc

    files = {
        "sidebars.js": "module.exports = {docs: [{type: 'autogenerated', dirName: '.'}]};\n",
        "docs/intro.md": "# Intro\n",
        "docs/02-guides/_category_.json": json.dumps({"label": "How-to guides", "position": 1}),
        "docs/02-guides/b-second.md": "# B\n",
        "docs/02-guides/a-first.md": "# A\n",
        "docs/01-api/_category_.yml": "label: API reference\nposition: 2\n",
        "docs/01-api/calls.md": "# Calls\n",
    }
    source = write_sources(tmp_path / "site", files)
    toc = find_toc(set(files), lambda rel: (source / rel).read_text("utf-8"))
    assert toc is not None and not toc.problems
    shape = [(n.title, n.path, [c.path for c in n.children]) for n in toc.roots]
    assert shape == [  # by position (a category's, or a number prefix), then unplaced ones
        ("How-to guides", None, ["docs/02-guides/a-first.md", "docs/02-guides/b-second.md"]),
        ("API reference", None, ["docs/01-api/calls.md"]),
        (None, "docs/intro.md", []),
    ]
    # read for the tree, never copied into the package (Miden's 19 became category.json)
    built = build(source, tmp_path / "kb", now=NOW, workers=1)
    assert built.errors == 0 and built.assets == 0, built.report
    assert not list((tmp_path / "kb").rglob("*category*"))


def test_a_toc_bundle_too_big_once_drafted_splits_by_its_own_sub_headings(
    tmp_path: Path,
) -> None:
    long = "How to {} when the period closes, with every account, dimension and "
    long += "approval the ledger keeps for the auditors, step by step, and what to check."
    names = ["accruals", "deferrals", "revaluation", "allocations", "eliminations", "reversals"]
    toc = "# Finance\n## Closing\n" + "".join(f"### [{n}]({n}.md)\n" for n in names[:3])
    toc += "## Consolidation\n" + "".join(f"### [{n}]({n}.md)\n" for n in names[3:])
    toc += "# Other\n## [Welcome](welcome.md)\n## [Tour](tour.md)\n## [Trial](trial.md)\n"
    files: dict[str, str | bytes] = {"TOC.md": toc}
    for n in names:
        title = f"Post {n} in the general ledger at the end of a period, for every company "
        title += "of the group, in the local and the reporting currency"
        files[f"{n}.md"] = page(title, long.format(f"post {n}"))
    for n in ("welcome", "tour", "trial"):
        files[f"{n}.md"] = page(n.title(), f"The {n} page of the help.")
    source = write_sources(tmp_path / "src", files)
    out = tmp_path / "erp"
    result = build(source, out, now=NOW, workers=1, index_budget=500)
    assert result.errors == 0, result.report
    finance = out / "finance"
    subs = sorted(p.name for p in finance.iterdir() if p.is_dir())
    assert subs == ["closing", "consolidation"]  # its headings, never a cluster of words
    assert _index(finance / "closing")[0] == "Closing"
    assert (finance / "consolidation" / "reversals.md").is_file()


def test_a_toc_that_nests_no_deeper_than_the_folders_keeps_the_folders() -> None:
    def section(title: str, *pages: str) -> TocNode:
        return TocNode(title, None, [TocNode(None, p) for p in pages])

    same = Toc("mkdocs.yml", "mkdocs", [section("Guide", "docs/guide/a.md", "docs/guide/b.md")])
    assert not nests_deeper(same)
    # headings wrapped around folders ("Reference" around events/ and styles/): the
    # folders still tell the sections apart, so they stay the tree
    wrapped = Toc(
        "mkdocs.yml",
        "mkdocs",
        [
            TocNode(
                "Reference",
                None,
                [
                    section("Events", "docs/events/a.md", "docs/events/b.md"),
                    section("Styles", "docs/styles/c.md"),
                ],
            )
        ],
    )
    assert not nests_deeper(wrapped)
    # one flat folder the TOC spreads over several headings: the TOC is the tree
    flat = Toc(
        "TOC.md",
        "docfx-md",
        [
            section("Guide", "a.md", "b.md"),
            section("Setup", "c.md", "d.md"),
            section("FAQ", "e.md", "f.md"),
        ],
    )
    assert nests_deeper(flat)


def test_sections_cutting_across_a_folder_are_the_tree() -> None:
    """scrapy's toctrees list its ``topics/`` pages under four captions ("Basic
    concepts", "Built-in services", "Solving specific problems", "Extending Scrapy"), no
    deeper than the folder: one "Topics" bundle of 45 pages hid them."""

    def section(title: str, *pages: str) -> TocNode:
        return TocNode(title, None, [TocNode(None, p) for p in pages])

    across = Toc(
        "docs/index.rst",
        "sphinx",
        [
            section("First steps", "docs/intro/overview.rst"),
            section("Basic concepts", "docs/topics/spiders.rst", "docs/topics/items.rst"),
            section("Built-in services", "docs/topics/logging.rst", "docs/topics/stats.rst"),
            section("Extending Scrapy", "docs/topics/api.rst", "docs/topics/signals.rst"),
        ],
    )
    assert nests_deeper(across)


def test_plan_owns_a_page_where_first_listed_and_joins_unlisted_pages_by_folder() -> None:
    toc = Toc(
        "TOC.md",
        "docfx-md",
        [
            TocNode("Blog", "blog/index.md", [TocNode(None, "blog/a.md"), TocNode(None, "x.md")]),
            TocNode("Guide", None, [TocNode(None, p) for p in ("x.md", "y.md", "z.md", "w.md")]),
        ],
    )
    pages = ["blog/index.md", "blog/a.md", "blog/posts/p1.md", "x.md", "y.md", "z.md", "w.md"]
    pages.append("loose.md")
    result = plan(toc, pages, capacity=50)
    assert result.folder_of["x.md"] == "blog"  # first listed under Blog
    assert result.cross == {"guide": ["x.md"]}
    assert result.folder_of["blog/posts/p1.md"] == "blog"  # its folder's pages are Blog's
    assert result.unlisted == ["loose.md"]
    assert result.titles == {"blog": "Blog", "guide": "Guide"}


def test_a_later_build_puts_a_new_page_where_the_toc_lists_it(tmp_path: Path) -> None:
    source = _flat_source(tmp_path, "TOC.md", TOC_MD)
    out = tmp_path / "erp"
    assert build(source, out, now=NOW, workers=1, index_budget=500).errors == 0
    (source / "refunds.md").write_text(page("Refund a customer", "How to pay money back."))
    (source / "TOC.md").write_text(TOC_MD + "### [Refund a customer](refunds.md)\n")
    again = build(source, out, now=NOW, workers=1, index_budget=500)
    assert again.errors == 0, again.report
    assert (out / "business-functionality" / "sales" / "refunds.md").is_file()
    _title, sales = _index(out / "business-functionality" / "sales")
    assert ("Refund a customer", "refunds.md") in sales


def test_a_link_to_a_folder_leads_to_its_index_page(tmp_path: Path) -> None:
    toc = TOC_MD + "# Reports\n## [Reports](reports/index.md)\n## [Aged debt](reports/aged.md)\n"
    toc += "## [Stock value](reports/stock.md)\n"
    source = _flat_source(tmp_path, "TOC.md", toc)
    (source / "reports").mkdir()
    (source / "reports" / "index.md").write_text(page("Reports", "Every report there is."))
    (source / "reports" / "aged.md").write_text(page("Aged debt", "Who owes what, by age."))
    (source / "reports" / "stock.md").write_text(page("Stock value", "What the stock is worth."))
    (source / "tour.md").write_text(
        page("Take the product tour", "A walk.", "See [reports](reports/).\n")
    )
    out = tmp_path / "erp"
    result = build(source, out, now=NOW, workers=1, index_budget=500)
    assert result.errors == 0, result.report
    text = (out / "get-started" / "tour.md").read_text("utf-8")
    assert "[reports](../reports/index-page.md)" in text  # the folder's page, not assets/


def test_a_section_too_big_keeps_its_smallest_sub_sections_while_it_has_room() -> None:
    def section(title: str, *pages: str) -> TocNode:
        return TocNode(title, None, [TocNode(None, p) for p in pages])

    big = section("Big", *(f"b{n}.md" for n in range(8)))
    small = section("Small", "s1.md", "s2.md", "s3.md")
    toc = Toc(
        "TOC.md",
        "docfx-md",
        [
            TocNode("Area", None, [TocNode("Part", None, [big, small])]),
            section("Other", "o1.md", "o2.md", "o3.md"),
        ],
    )
    pages = [n.path for n, _a in toc.walk() if n.path]
    result = plan(toc, pages, capacity=6)
    assert result.folder_of["b0.md"] == "area/part/big"  # too big to stay: a sub-bundle
    assert result.folder_of["s1.md"] == "area/part"  # fits beside it, under its heading
    assert result.folded["area/part"].children[0].title == "Small"
    assert result.folder_of["o1.md"] == "other"  # the root's sections are always bundles


def test_the_top_two_levels_are_the_tocs_headings_however_small() -> None:
    """A root section's sub-sections are bundles even when its index has room for them:
    the root lists them, each with its topics. Kept in Business functionality's index
    under their headings, Business Central's Planning, Quality management and Human
    resources were named by no root entry (their questions reached 0 of 9 at turn 2)."""

    def section(title: str, *pages: str) -> TocNode:
        return TocNode(title, None, [TocNode(None, p) for p in pages])

    big = section("Big", *(f"b{n}.md" for n in range(8)))
    small = section("Small", "s1.md", "s2.md", "s3.md")
    tiny = section("Tiny", "t1.md", "t2.md")
    other = section("Other", "o1.md", "o2.md", "o3.md")
    toc = Toc("TOC.md", "docfx-md", [TocNode("Area", None, [big, small, tiny]), other])
    pages = [n.path for n, _a in toc.walk() if n.path]
    result = plan(toc, pages, capacity=6)
    assert result.folder_of["b0.md"] == "area/big"
    assert result.folder_of["s1.md"] == "area/small"  # room beside Big, a bundle still
    assert result.titles["area/small"] == "Small"
    assert result.folder_of["t1.md"] == "area"  # two pages: no bundle (MIN_BUNDLE)


def test_a_toc_section_of_alike_pages_too_many_for_one_index_is_split_by_title(
    tmp_path: Path,
) -> None:
    """Exchange's 70 health sets: one TOC section, no sub-headings, titles with no words
    to group by. Its index listed 70 entries (KAS047); it lists two runs by title now,
    and their indexes do not repeat the section's name as their only heading."""
    names = [f"Probe{n:02d}{chr(97 + n % 26)}" for n in range(70)]
    toc = "# Guide\n## [Welcome](welcome.md)\n## Health sets\n"
    toc += "".join(f"### [{n}]({n.lower()}.md)\n" for n in names)
    files: dict[str, str | bytes] = {}
    for n in names:
        files[f"{n.lower()}.md"] = page(
            f"Troubleshooting {n} Health Set", f"{n} monitors a service."
        )
    files["welcome.md"] = page("Welcome", "The welcome page.")
    # the rest of the flat folder, spread over the TOC's other sections
    for topic in ("Mailbox", "Transport", "Client", "Database", "Security", "Setup", "Hybrid"):
        toc += f"# {topic}\n"
        for i in range(11):
            toc += f"## [{topic} task {i}]({topic.lower()}-{i}.md)\n"
            files[f"{topic.lower()}-{i}.md"] = page(f"{topic} task {i}", f"How to do {topic} {i}.")
    files["TOC.md"] = toc
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0, result.report
    health = out / "guide" / "health-sets"
    runs = parse_index((health / "index.md").read_text("utf-8"))
    assert [e.title for e in runs.entries] == ["Probe00a to Probe34i", "Probe35j to Probe69r"]
    for entry in runs.entries:
        text = (health / entry.target / "index.md").read_text("utf-8")
        assert "## " not in text, text[:300]
        assert len(parse_index(text).entries) == 35


def test_a_toc_section_of_too_many_sub_sections_lists_them_in_runs(tmp_path: Path) -> None:
    """A reference section of 70 tables, each a sub-section of its fields: its index
    listed 70 bundles (KAS047). They go into runs by title, which sit under no table's
    heading, and every page keeps its links."""
    toc = "# Intro\n## [Welcome](welcome.md)\n# Reference\n"
    files: dict[str, str | bytes] = {"welcome.md": page("Welcome", "The welcome page.")}
    for i in range(70):
        toc += f"## Table {i:02d}\n"
        for j in range(3):
            toc += f"### [Field {i}-{j}](t{i}-{j}.md)\n"
            body = f"Field {j} of table {i}. See [the next](t{i}-{(j + 1) % 3}.md).\n"
            files[f"t{i}-{j}.md"] = page(
                f"Table {i:02d} field {j}", f"Field {j} of table {i}.", body
            )
    for k in range(150):  # the rest of the flat folder, in sections of its own
        toc += f"# Part {k}\n## [Page {k}](p{k}.md)\n"
        files[f"p{k}.md"] = page(f"Page {k}", f"Page {k} about other things.")
    files["TOC.md"] = toc
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0, result.report
    text = (out / "reference/index.md").read_text("utf-8")
    assert [e.title for e in parse_index(text).entries] == [
        "Table 00 to Table 34",
        "Table 35 to Table 69",
    ]
    assert "## " not in text
    assert (out / "reference/table-35-to-table-69/table-69/t69-2.md").is_file()
    pkg = Package(out)
    pkg.load()
    codes = {f.code for f in check(pkg, agent_ready=True).findings}
    assert not codes & {"KAS046", "KAS047", "OKF120"}
