"""Wikilinks (Obsidian's ``[[Note]]``, a GitHub wiki's ``[[text|Page]]``) become the
Markdown links a reader of the vault follows, and the build makes them package links."""

from __future__ import annotations

from pathlib import Path

from kas_tui.core.okf.links import extract_links
from kas_tui.features.check import check
from kas_tui.features.importing.wikilinks import WikiLinks, aliases_of
from tests.helpers.build_sources import built_clean

FILES = [
    "en/Licenses and payment/Refund policy.md",
    "en/Licenses and payment/Obsidian Credit.md",
    "en/Attachments/bases-noshadow.png",
    "en/Home.md",
    "Release notes/v1.9.6.md",
    "other-vault/Refund policy.md",
]
PAGE = "en/Licenses and payment/Sales tax.md"


def _resolved(text: str, page: str = PAGE) -> str:
    return WikiLinks(FILES).resolve(text, page).text


def test_a_note_named_anywhere_is_linked_by_its_path_from_the_page() -> None:
    assert _resolved("per our [[Refund policy]].") == "per our [Refund policy](Refund%20policy.md)."
    assert _resolved("see [[Home]]") == "see [Home](../Home.md)"
    # a name with dots is a note's whole name, not an extension
    assert _resolved("[[v1.9.6]]") == "[v1.9.6](../../Release%20notes/v1.9.6.md)"
    # a name with folders is the end of a path
    assert _resolved("[[other-vault/Refund policy]]") == (
        "[other-vault/Refund policy](../../other-vault/Refund%20policy.md)"
    )
    # of two notes so named, the one nearest the page
    assert _resolved("[[Refund policy]]", "other-vault/Terms.md") == (
        "[Refund policy](Refund%20policy.md)"
    )


def test_headings_text_blocks_and_table_cells() -> None:
    assert _resolved("[[Obsidian Credit#Add credit|purchase credit]]") == (
        "[purchase credit](Obsidian%20Credit.md#add-credit)"
    )
    assert _resolved("[[Obsidian Credit#Add credit]]") == (
        "[Obsidian Credit > Add credit](Obsidian%20Credit.md#add-credit)"
    )
    assert _resolved("[[#Enable early access versions|new versions]]") == (
        "[new versions](#enable-early-access-versions)"
    )
    assert _resolved("[[Obsidian Credit#^c0ffee]]") == "[Obsidian Credit](Obsidian%20Credit.md)"
    assert _resolved("| [[Refund policy\\|refunds]] |") == "| [refunds](Refund%20policy.md) |"
    # a GitHub wiki writes the text first
    assert _resolved("[[our refunds|Refund policy]]") == "[our refunds](Refund%20policy.md)"


def test_embeds_show_images_and_link_notes() -> None:
    assert _resolved("![[bases-noshadow.png]]") == (
        "![bases-noshadow.png](../Attachments/bases-noshadow.png)"
    )
    assert _resolved("![[bases-noshadow.png|300]]") == (
        "![bases-noshadow.png](../Attachments/bases-noshadow.png)"
    )
    assert _resolved("![[bases-noshadow.png#interface|The Bases view]]") == (
        "![The Bases view](../Attachments/bases-noshadow.png)"
    )
    assert _resolved("![[Obsidian Credit]]") == "[Obsidian Credit](Obsidian%20Credit.md)"


def test_code_and_notes_not_written_yet_stay_as_written() -> None:
    text = (
        "Write `[[Refund policy]]` to link.\n\n```md\n[[Refund policy]]\n```\n\n"
        "A [[Note not written yet]] and [[Home]].\n"
    )
    done = WikiLinks(FILES).resolve(text, PAGE)
    assert done.text == text.replace("[[Home]]", "[Home](../Home.md)")
    assert done.unresolved == ["[[Note not written yet]]"]


def test_an_obsidian_vault_builds_with_its_links_followed(tmp_path: Path) -> None:
    """Obsidian's help, as its repository holds it: English notes linked by wikilinks,
    a sound they play, release notes named by version, and the same help in Spanish at
    names of its own. The package is the English help and the release notes, every
    wikilink a link to the page it names."""
    english = (
        "Obsidian Credit is prepaid credit for any Obsidian service, and it can be "
        "gifted to other users, such as friends, family and coworkers. It is applied "
        "before any payment is due, including the renewals of a plan. It is not "
        "eligible for a refund, as the policy says, and it is kept for as long as the "
        "account is open. "
    )
    spanish = (
        "El crédito de Obsidian es un crédito prepago para cualquier servicio de "
        "Obsidian, y se puede regalar a otros usuarios, como amigos, familiares y "
        "compañeros. Se aplica antes de cualquier pago, incluidas las renovaciones "
        "automáticas de un plan. No es reembolsable según la política de la empresa. "
    )
    files = {
        "en/Home.md": f"# Home\n\n{english}\n\nStart with [[Obsidian Credit]], [[Sync#Plans|the plans]] or [[Refunds]].\n",
        "en/Licenses/Obsidian Credit.md": (
            f"{english}\n\n## Add credit\n\nBuy it. See [[Refund policy]] and [[Sync]].\n\n"
            "![[demo.ogg]]\n\n![[credit.png|300]]\n"
        ),
        "en/Licenses/Refund policy.md": (
            f"---\naliases: [Refunds]\n---\n# Refund policy\n\n{english}\n\nBack to [[Home]].\n"
        ),
        "en/Sync/Sync.md": f"# Sync\n\n{english}\n\n## Plans\n\nSee [[Obsidian Credit#Add credit]].\n",
        "en/Attachments/demo.ogg": b"OggS\x00\x02" + bytes(512),
        "en/Attachments/credit.png": b"\x89PNG\r\n\x1a\nfake image bytes",
        "es/Inicio.md": f"# Inicio\n\n{spanish}\n\n[[Crédito de Obsidian]]\n",
        "es/Licencias/Crédito de Obsidian.md": f"# Crédito\n\n{spanish}\n",
        "Release notes/v1.9.6.md": f"Released on 2025/07/01.\n\n{english}\n",
        "Release notes/v1.9.7.md": f"Released on 2025/07/08.\n\n{english}\n",
    }
    result, pkg = built_clean(tmp_path, files)
    out = pkg.root
    assert not (out / "es").exists()
    assert any("es/" in note and "translations" in note for note in result.notes)
    titles = {doc.title for doc in pkg.documents.values()}
    assert {"V1.9.6", "V1.9.7"} <= titles
    credit = next(d for d in pkg.documents.values() if d.title == "Obsidian Credit")
    body = (out / credit.path).read_text(encoding="utf-8")
    assert "[[" not in body
    targets = {link.target for link in extract_links(body)}
    assert any(t.endswith("refund-policy.md") for t in targets)
    assert any(t.endswith(".ogg") for t in targets) and any(t.endswith(".png") for t in targets)
    home = next(d for d in pkg.documents.values() if d.title == "Home")
    home_body = (out / home.path).read_text(encoding="utf-8")
    assert "[Refunds](" in home_body and "[[" not in home_body
    broken = [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    # en/, its translations left out, is the help in English, not a bundle "En"
    root = (out / "index.md").read_text(encoding="utf-8")
    assert "* [English](en/)" in root and "[En]" not in root, root


def test_a_logseq_namespace_and_a_notes_other_names_are_the_note() -> None:
    """Logseq keeps ``[[Whiteboard/Action Bar]]`` in ``Whiteboard___Action Bar.md`` and
    lets a page answer to its ``alias::`` names; Obsidian to its ``aliases:``. Of the
    1,430 wikilinks logseq/docs' pages name no file by, 316 were these."""
    obsidian_front = {"title": "Refund policy", "aliases": ["Refunds", "Money back"]}
    assert aliases_of(obsidian_front) == ["Refunds", "Money back"]
    assert aliases_of({"alias": "Sync"}) == ["Sync"]
    assert aliases_of({"aliases": "[[Ref]]"}) == ["Ref"]
    assert aliases_of(None) == []
    files = [
        "pages/Whiteboard___Action Bar.md",
        "pages/Block Reference.md",
        "pages/Refund policy.md",
    ]
    aliases = {
        "term/block reference": "pages/Block Reference.md",
        "Refunds": "pages/Refund policy.md",
    }
    wiki = WikiLinks(files, aliases)
    text = (
        "[[Whiteboard/Action Bar]], [[Term/Block Reference]], [[refunds|money back]], [[Feature]]"
    )
    done = wiki.resolve(text, "pages/Index.md")
    assert done.text == (
        "[Whiteboard/Action Bar](Whiteboard___Action%20Bar.md), "
        "[Term/Block Reference](Block%20Reference.md), "
        "[money back](Refund%20policy.md), [[Feature]]"
    )
    assert done.unresolved == ["[[Feature]]"]


def test_a_logseq_pages_properties_are_its_frontmatter(tmp_path: Path) -> None:
    """logseq/docs' pages open with ``key:: value`` lines, Logseq's page properties:
    built as text, "Block Reference" was described as "Type:: Feature platforms:: All
    Platforms alias:: term/block reference description:: Clickable link..."."""
    from kas_tui.features.importing.logseq import as_frontmatter, page_name, page_properties

    page = (
        "type:: [[Feature]]\nplatforms:: [[All Platforms]]\nalias:: term/block reference\n"
        "description:: Clickable link to a particular Logseq block.\n\n- ## Usage\n"
        "\t- Create one by typing `((`. See [[The basics]].\n"
    )
    properties, after = page_properties(page)
    assert page[after:].startswith("- ## Usage")
    assert as_frontmatter(properties, page_name("Block Reference")) == {
        "title": "Block Reference",
        "logseq-type": "Feature",
        "platforms": "All Platforms",
        "aliases": ["term/block reference"],
        "description": "Clickable link to a particular Logseq block.",
    }
    assert page_name("Whiteboard___Action Bar") == "Whiteboard/Action Bar"
    assert page_properties("# Heading\n\ntype:: no\n") == ({}, 0)
    files = {
        "pages/Block Reference.md": page,
        "pages/The basics.md": "title:: The basics of block references\n\n- Read [[term/block reference]].\n",
        "pages/Index.md": "- See [[The basics of block references]] and [[Block Reference]].\n",
    }
    _result, pkg = built_clean(tmp_path, files)
    by_title = {d.title: d for d in pkg.documents.values()}
    block = by_title["Block Reference"]
    assert block.description == "Clickable link to a particular Logseq block."
    assert "The basics of block references" in by_title
    text = (pkg.root / by_title["Index"].path).read_text("utf-8")
    assert "[[" not in text and "](the-basics.md)" in text


def test_a_source_that_is_no_vault_keeps_its_brackets_unsaid(tmp_path: Path) -> None:
    """Cargo's changelog names ``[[bin]]`` tables, vuejs' glossary opens with
    ``[[TOC]]``, the PEPs cite ``[[1]](#footnote-1)``: 2,548 such notes over eight of
    the sources built before, none a link. A source is a vault when a tenth of its
    wikilinks, and two at least, name one of its files."""
    files = {
        "docs/changelog.md": "# Changelog\n\nThe [[bin]] table takes a `path`. See [[1]](#f1).\n",
        "docs/glossary.md": "# Glossary\n\n[[TOC]]\n\nA [[[packages]]](#packages) table.\n",
        "docs/bin.md": "# Bin\n\nBinaries.\n",
    }
    result, pkg = built_clean(tmp_path, files)
    assert not any("wikilink" in note for note in result.notes)
    changelog = next(d for d in pkg.documents.values() if d.title == "Changelog")
    assert "The [[bin]] table" in (pkg.root / changelog.path).read_text("utf-8")
    assert WikiLinks(["docs/1.md"]).resolve("[[1]](#f1) [[[1]]](#x)", "docs/a.md").linked == 0


def test_each_unresolved_wikilink_is_said_at_its_own_line(tmp_path: Path) -> None:
    """A tag page Logseq makes when first named (``[[Enhancement]]``) is written on many
    lines of one page; each was said at the first one's line."""
    files = {
        "pages/Home.md": "# Home\n\nSee [[Sync]] and [[Publish]].\n\n- [[Enhancement]] one\n- two\n"
        "- [[Enhancement]] three\n",
        "pages/Sync.md": "# Sync\n\nSync your notes.\n",
        "pages/Publish.md": "# Publish\n\nPublish your notes.\n",
    }
    result, _pkg = built_clean(tmp_path, files)
    said = [n for n in result.notes if "[[Enhancement]]" in n]
    assert [n.split(": a wikilink")[0] for n in said] == ["pages/Home.md:5", "pages/Home.md:7"]


def test_a_github_wikis_page_name_is_its_file_name_with_hyphens() -> None:
    """GitHub (Gollum) links ``[[Collector Setup]]`` to ``/wiki/Collector-Setup``, the page
    ``Collector-Setup.md`` in any folder of the wiki, whatever the case."""
    wiki = WikiLinks(["Home.md", "setup-guide/Collector-Setup.md", "AWS-sub-account-setup.md"])
    text = "Start with [[AWS sub-account setup]], then [[collector setup]] or [[Nowhere Yet]]."
    resolved = wiki.resolve(text, "Home.md")
    assert resolved.text == (
        "Start with [AWS sub-account setup](AWS-sub-account-setup.md), then "
        "[collector setup](setup-guide/Collector-Setup.md) or [[Nowhere Yet]]."
    )
    assert resolved.unresolved == ["[[Nowhere Yet]]"]


def test_a_github_wikis_markdown_links_name_pages_wherever_they_are(tmp_path: Path) -> None:
    """snowplow's wiki links ``[Home](Home)`` and ``[enrich](Setting-up-enrich)`` from
    pages in folders: 1,560 links were reported broken, GitHub serves every page at
    ``/wiki/Page-Name``."""
    _result, pkg = built_clean(
        tmp_path,
        {
            "Home.md": "# Home\n\nStart with the [setup guide](Setting-up-Snowplow).\n",
            "setup-guide/Setting-up-Snowplow.md": "Set up Snowplow in four steps; back to "
            "[Home](Home), or [enrich](Setting-up-enrich).\n",
            "setup-guide/3-setup-enrich/Setting-up-enrich.md": "Enrich events with the "
            "enrichment process; see [the guide](Setting-up-Snowplow).\n",
        },
    )
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    text = next((tmp_path / "kb").rglob("setting-up-snowplow.md")).read_text("utf-8")
    assert "(../home.md)" in text or "(home.md)" in text
