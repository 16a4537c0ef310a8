"""What a build says a folder holds: room by the parent's size, topics that tell
siblings apart, and the titles themselves when they fit."""

from __future__ import annotations

from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.features.importing.build import build
from kas_tui.text.folder_summary import (
    MAX_DESCRIPTION,
    MAX_FOLDER_DESCRIPTION,
    folder_description,
    folder_room,
    topics,
    weights_for,
)
from kas_tui.text.grouping import fold
from kas_tui.text.title_words import phrase_key, title_phrases
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET, estimate_tokens

_PRODUCTS = {
    "exchange": ["ActiveSync device", "transport rule", "public folder", "OWA sign-in"],
    "outlook": ["shared calendar", "PST file", "cached mode", "add-in"],
    "teams": ["meeting room", "direct routing", "channel message", "guest access"],
    "sharepoint": ["document library", "site collection", "web part", "content type"],
}


def _titles(product: str) -> list[str]:
    """Titles as an export writes them: each names Microsoft, most say "open"."""
    return [
        f"Can't open {topic} in Microsoft {product.title()} ({n})"
        for topic in _PRODUCTS[product]
        for n in range(3)
    ]


def test_room_grows_as_the_parent_lists_fewer_entries() -> None:
    assert folder_room(60) == MAX_DESCRIPTION  # a full index: the usual sentence
    assert folder_room(8) == MAX_FOLDER_DESCRIPTION  # a root of eight bundles
    assert MAX_DESCRIPTION < folder_room(20) < MAX_FOLDER_DESCRIPTION
    rooms = [folder_room(n) for n in range(1, 80)]
    assert rooms == sorted(rooms, reverse=True)
    # every entry at its room fills at most 40% of the budget, whatever the budget
    for budget in (1000, INDEX_TOKEN_BUDGET, 16000):
        for n in (12, 20, 30):
            room = folder_room(n, budget)
            if room > MAX_DESCRIPTION:
                assert estimate_tokens("x" * room) * n <= 0.4 * budget + n


def test_plurals_fold_and_pairs_are_only_words_written_together() -> None:
    assert title_phrases("Sign in to Microsoft 365 fails") == {"sign", "microsoft"}
    assert "public folder" in title_phrases("Public folders are missing")
    found = topics(["Mailboxes are full", "Archive a mailbox", "Mailbox quota", "Restore mail"])
    assert [fold(t) for t in found] == ["mailbox"]  # one topic, not "Mailboxes" and "mailbox"


def test_a_task_verb_names_no_topic_as_it_names_no_group() -> None:
    # Business Central's bundles read "covering ..., Create" and "..., View and Create":
    # the words that cannot name a group (grouping.GENERIC_WORDS) described the folder
    titles = [
        "Create a sales quote",
        "Create sales invoices",
        "Manage customer prices",
        "View customer prices",
        "Create reminders",
        "Manage reminders",
    ]
    found = topics(titles, exclude="Sales", limit=6)
    assert {"create", "manage", "view"}.isdisjoint(fold(t) for t in found)
    assert "reminder" in [fold(t) for t in found]


def test_a_word_of_the_folders_name_in_another_form_names_no_topic() -> None:
    # "Integrate with other applications" was "covering ..., Integration, ...,
    # Integrating, ..." and "Synchronization" stood beside "synchronize"
    titles = [
        "Integrating with Dataverse",
        "Integration with Teams",
        "Synchronization of Dataverse tables",
        "Synchronize contacts with Dataverse",
        "Synchronization in Teams",
        "Synchronize Teams meetings",
    ]
    found = [t.lower() for t in topics(titles, exclude="Integrate with other apps", limit=8)]
    assert not any(t.startswith("integrat") for t in found)
    assert len([t for t in found if t.startswith("synchroni")]) == 1
    assert "dataverse" in found and "teams" in found


def test_the_packages_own_subject_names_no_bundles_topic() -> None:
    # every bundle of "Business Central" read "covering Business Central, ...": the
    # package's subject is said once, by SKILL.md
    titles = [
        "Business Central and Outlook",
        "Set up Business Central for Teams",
        "Outlook add-in for Business Central",
        "Teams cards",
        "Central bank rates",
        "Central bank holidays",
    ]
    plain = [fold(t) for t in topics(titles, exclude="Integrations", limit=8)]
    assert {"business central", "business", "central"} & set(plain)
    weighed = topics(
        titles, exclude="Integrations", limit=8, weights=weights_for([titles], "Business Central")
    )
    folded = [phrase_key(t) for t in weighed]
    assert not {"business central", "business", "central"} & set(folded)
    assert "central bank" in folded  # a phrase only partly the subject's still names one


def test_a_phrase_is_named_as_the_titles_write_it() -> None:
    # "outstanding Balances" and "purchase Order": each word had its own spelling
    titles = [
        "Collect Outstanding Balances",
        "Outstanding Balances by customer",
        "Reconcile outstanding balances with the ledger",
        "Print outstanding balances",
        "Outstanding balances report",
    ]
    found = topics(titles, exclude="Receivables", limit=3)
    assert found[0] in {"outstanding balances", "Outstanding Balances"}


def test_a_function_word_names_no_topic() -> None:
    # "has", "need", "while", "through" were named as topics of the shared corpus's bundles
    assert title_phrases("Mailbox move has stalled while the batch runs through") == {
        "mailbox",
        "move",
        "mailbox move",
        "stalled",
        "batch",
        "run",
        "batch run",
    }
    assert not {"has", "need", "while", "through"} & title_phrases(
        "Users need a license while the tenant has moved through migration"
    )


def test_an_acronym_keeps_its_product_name_whole_and_the_folders_name_is_not_cut() -> None:
    """'Power BI' was named 'Power' (two letters were no word), and a pair cut from the
    folder's own name ('details Item' under 'Design details') was named as a topic."""
    assert "power bi" in title_phrases("Power BI Sales app")
    found = topics(
        [
            "Design Details: Item Tracking",
            "Design Details: Item Tracking and Reservations",
            "Design Details: Costing Methods",
            "Design Details: Costing Methods Compared",
        ],
        exclude="Design details",
    )
    assert found and not [t for t in found if "details" in t.lower().split()]
    assert "per" not in title_phrases("Project per Employee")


def test_an_abbreviation_names_no_topic_and_joins_no_pair() -> None:
    """Reports' titles abbreviate ("Serv. Contract", "Cost Acctg. Statement"): Business
    Central's Service management was described by "Serv", "Contr" and "Resp"."""
    found = title_phrases("Contr. Gain/Loss - Resp. Ctr. (report)")
    assert "gain loss" in found and not {"contr", "resp", "ctr"} & found
    assert "qty" not in title_phrases("Inventory Age Composition - Qty.")
    assert "excel" in title_phrases("Cannot open the file in Excel.")
    assert title_phrases("Cost Acctg. Statement") == {"cost", "statement"}  # no "cost acctg"
    assert "update" in title_phrases("Cannot update. Database is read-only")  # a sentence
    titles = [f"Serv. {what} (report)" for what in ("Contract", "Orders", "Quote", "Shipment")]
    assert not [t for t in topics(titles * 2, limit=8) if "serv" in t.lower()]


def test_a_pair_cut_from_a_longer_name_names_no_topic() -> None:
    """ "Analysis Power" of "Sales Analysis Power BI report", "BI report" of "Power BI
    report": pieces of a longer run written beside a more common pair of it."""
    titles = [
        "Sales Analysis Power BI report",
        "Purchase Analysis Power BI report",
        "Customer Power BI report",
        "Item Power BI app",
        "Vendor Power BI app",
    ]
    found = {fold(w) for t in topics(titles, limit=10) for w in [t.lower()]}
    assert "power bi" in found
    assert not {"analysis power", "bi report", "bi app"} & found
    # a pair always written inside the same longer run, but no less common, stays
    kept = topics(["Inventory Age Composition - Qty.", "Inventory Age Composition - Value"] * 2)
    assert any(len(t.split()) == 2 for t in kept)


def test_a_bundles_topics_are_weighed_against_its_siblings() -> None:
    siblings = weights_for([_titles(p) for p in _PRODUCTS])
    said = folder_description(
        "Exchange",
        [],
        [("Exchange Online", 6), ("Exchange Server", 6)],
        total=12,
        weights=siblings,
        doc_type="troubleshooting",
        all_titles=_titles("exchange"),
        room=MAX_FOLDER_DESCRIPTION,
    )
    assert said.startswith("Exchange: 12 troubleshooting articles on Exchange Online")
    for topic in ("ActiveSync device", "transport rule", "public folder"):
        assert topic in said, said
    # in every sibling's titles: tells Exchange apart from nothing
    assert "Microsoft" not in said and " open" not in said.lower()


def test_more_room_names_more_topics_and_stays_one_sentence() -> None:
    subjects = [f"{w}configuration" for w in ("alpha", "bravo", "charlie", "delta", "echo")]
    subjects += [f"{w}replication" for w in ("foxtrot", "golf", "hotel", "india", "juliett")]
    titles = [f"Reset {s} {n}" for s in subjects for n in range(4 - subjects.index(s) // 4)]
    names = [(f"Area {c}", 5) for c in "ABCDEFGH"]
    short = folder_description("Big", [], names, all_titles=titles)
    long = folder_description("Big", [], names, all_titles=titles, room=MAX_FOLDER_DESCRIPTION)
    assert len(short) <= MAX_DESCRIPTION < len(long) <= MAX_FOLDER_DESCRIPTION
    assert long.count(". ") == 0 and long.endswith(".")
    assert "juliettreplication" not in short and "juliettreplication" in long


def test_a_small_folder_lists_its_titles_when_they_fit() -> None:
    documents = [
        ("Center things", "reference"),
        ("Design a Layout", "reference"),
        ("Package a Textual app with Hatch", "reference"),
        ("Style Inline Apps", "reference"),
        ("Save time with Textual containers", "reference"),
    ]
    said = folder_description("How To", documents)
    assert said == (
        "5 reference documents on How To: Center things, Design a Layout, Package a Textual "
        "app with Hatch, Style Inline Apps and Save time with Textual containers."
    )


def test_a_built_root_names_more_of_each_bundles_topics_within_the_budget(
    tmp_path: Path,
) -> None:
    source = tmp_path / "src"
    for product in _PRODUCTS:
        for i, title in enumerate(_titles(product)):
            page = source / product / f"page-{i}.md"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(f"# {title}\n\nWhat to do when it happens, step by step.\n")
    out = tmp_path / "kb"
    build(source, out)
    root = parse_index((out / "index.md").read_text())
    bundles = {e.target: e.description for e in root.entries if e.target.endswith("/")}
    assert set(bundles) == {f"{p}/" for p in _PRODUCTS}
    exchange = bundles["exchange/"]
    assert all(t in exchange for t in ("ActiveSync device", "transport rule", "OWA")), exchange
    assert all(t not in exchange for t in ("shared calendar", "Microsoft"))
    indexes = sorted(out.rglob("index.md"))
    assert len(indexes) == 1 + len(_PRODUCTS)
    for index in indexes:  # the longer sentences leave every index within the budget
        assert estimate_tokens(index.read_text()) <= INDEX_TOKEN_BUDGET, index


def test_a_bundle_names_as_many_sub_bundles_as_fit_half_its_room() -> None:
    """Sub-bundle names are the words an agent routes by (a TOC's "Finance, Sales,
    Purchasing..."): more than three when the entry has room, the rest counted."""
    areas = ["Finance", "Sales", "Purchasing", "Inventory", "Project management", "Warehouse"]
    subfolders = [(name, 100 - n) for n, name in enumerate(areas)]
    wide = folder_description("Business functionality", [], subfolders, room=600)
    assert all(name in wide for name in areas) and "more" not in wide
    narrow = folder_description("Business functionality", [], subfolders * 10, room=200)
    assert narrow.startswith("Business functionality: ") and " more" in narrow
    two = folder_description("Office", [], [("Client", 400), ("OfficeExperts", 127)])
    assert two == "Office: 527 documents on Client and OfficeExperts."


def test_names_holding_commas_are_parted_by_semicolons() -> None:
    """Business Central's SKILL.md listed "Analytics, business intelligence, and
    reporting, Security, privacy, and compliance and Responsible AI": four names or
    eight?"""
    from kas_tui.text.folder_summary import join_words

    assert join_words(["Get started", "Security, privacy, and compliance", "Responsible AI"]) == (
        "Get started; Security, privacy, and compliance; and Responsible AI"
    )
    assert join_words(["Get started", "Finance", "Sales"]) == "Get started, Finance and Sales"


def test_a_bundle_of_one_page_says_what_its_page_says(tmp_path: Path) -> None:
    """mkdocs-material keeps each blog post in a folder with its images; the bundle's
    entry read "1 reference document on Blog support just landed: Blog support just
    landed." It now says what the page says; and a post that is its folder's landing
    page alone (``blog-support/index.md``, served at ``/blog-support/``) is a page,
    named as the folder, its images under assets/."""
    from tests.helpers.build_sources import write_sources

    files = {
        "docs/posts/blog-support/index.md": "# Blog support just landed\n\n"
        "Our new blog is built with the brand new built-in blog plugin.\n\n![shot](screen.png)\n",
        "docs/posts/blog-support/screen.png": "png",
        "docs/posts/release/notes.md": "# Release 9 is out\n\n"
        "Version 9 brings offline search and a new navigation layout.\n",
        "docs/posts/release/shot.png": "png",
        "docs/posts/search/index.md": "# Search: better, faster, smaller\n\n"
        "How we rebuilt client-side search, making it faster and smaller.\n",
        "docs/posts/search/shot.png": "png",
        "docs/posts/search/extra.md": "# Search internals\n\nHow the index is built.\n",
    }
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, workers=1).errors == 0
    # docs/posts/ holds every page: it is the root, no bundle of one ("Posts") above them
    index = parse_index((out / "index.md").read_text())
    entries = {e.target: e.description for e in index.entries}
    assert entries["release/"] == "Version 9 brings offline search and a new navigation layout."
    assert entries["blog-support.md"] == (
        "Our new blog is built with the brand new built-in blog plugin."
    )
    assert "![shot](assets/blog-support/screen.png)" in (out / "blog-support.md").read_text()
    assert entries["search/"].startswith("2 ")  # two pages: a bundle's own sentence


def test_a_bundle_mostly_of_its_own_pages_is_named_by_them_first() -> None:
    """gohugoio/hugoDocs: "Content management: 24 reference documents on Content
    organization and Image processing: Markdown." named its two sub-bundles (one page
    each) and none of the 22 pages it holds itself (Archetypes, Front matter, Menus...):
    most of its documents are its own, so it is said as a folder of pages is."""
    own = ["Archetypes", "Front matter", "Menus", "Taxonomies", "URL management", "Summaries"]
    documents = [(t, "reference") for t in own]
    subs = [("Content organization", 1), ("Image processing", 1)]
    wide = folder_description("Content management", documents, subs, room=600)
    assert wide == (
        "8 reference documents on Content management: Content organization, Image "
        "processing, Archetypes, Front matter, Menus, Taxonomies, URL management and Summaries."
    ), wide
    narrow = folder_description("Content management", documents, subs, room=120)
    assert narrow.startswith(
        "8 reference documents on Content management: Content organization, Image processing, Archetypes"
    ), narrow
    # titles sharing phrases are said as before: its sub-bundles, then those phrases
    said = folder_description(
        "Styles",
        [
            ("Border color", "reference"),
            ("Border style", "reference"),
            ("Border width", "reference"),
        ],
        [("Grid", 2)],
        room=150,
    )
    assert said.startswith("Styles: 5 reference documents on Grid"), said
    # most under its sub-bundles: they lead, as before ("Finance: 255 documents on
    # Financial analytics, ...": its 41 own pages are the fewer)
    big = [("Financial analytics", 128), ("Manage receivables", 17)]
    said = folder_description("Finance", documents, big, room=300)
    assert (
        said == "Finance: 151 reference documents on Financial analytics and Manage receivables."
    ), said
