"""A sentence that opens many pages of one source tells none of them apart: the build
passes over it when drafting their descriptions (Textual's event pages, Exchange 2013's
"not updated" notice), and says what such a page is some other way."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf import frontmatter as fm
from kas_tui.features.importing.build import build
from kas_tui.text import prose
from kas_tui.text.section_topics import questions_sentence
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)
NOTICE = (
    "The content in this topic hasn't been updated for Contoso Server 2013. While it "
    "hasn't been updated yet, it may still be applicable to Contoso Server 2013.\n\n"
    "Having problems? Ask for help in the Contoso forums.\n\n"
)


def _descriptions(out: Path) -> dict[str, str]:
    return {
        p.name: fm.parse(p.read_text("utf-8")).data["description"]
        for p in out.glob("*.md")
        if p.name not in ("index.md", "SKILL.md", "log.md")
    }


def test_a_notice_many_pages_open_with_is_passed_over_for_their_own_words(
    tmp_path: Path,
) -> None:
    own = {
        "mixed-mode.md": "Setup cannot continue because the domain is still in mixed mode.",
        "schema.md": "Setup cannot continue because the schema master cannot be reached.",
        "iis.md": "Setup cannot continue because the web publishing service is disabled.",
        "dotnet.md": "Setup cannot continue because the runtime on this server is too old.",
    }
    files: dict[str, str | bytes] = {
        name: f"# {name[:-3]}\n\n{NOTICE}{sentence}\n\nTo resolve it, follow the steps below.\n"
        for name, sentence in own.items()
    }
    # a page wholly copied into two more places: the words fewest pages share name it
    copy = f"# Copied\n\n{NOTICE}Setup checks that every copied page is counted once.\n"
    for name in ("copy-a.md", "copy-b.md", "copy-c.md"):
        files[name] = copy
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1).errors == 0
    said = _descriptions(out)
    for name, sentence in own.items():
        assert said[name] == sentence, name
    for name in ("copy-a.md", "copy-b.md", "copy-c.md"):
        assert said[name] == "Setup checks that every copied page is counted once.", name


def test_an_api_page_whose_one_sentence_is_shared_says_what_it_references(
    tmp_path: Path,
) -> None:
    """Seven of Textual's event pages said "See MouseEvent for the full list of
    properties and methods.", the one sentence beside their mkdocstrings directive."""
    see = "See [MouseEvent][textual.events.MouseEvent] for the full list of properties.\n"
    files: dict[str, str | bytes] = {
        f"{name.lower()}.md": f"::: textual.events.{name}\n\n{see}"
        for name in ("MouseDown", "MouseUp", "MouseMove")
    }
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1).errors == 0
    assert _descriptions(out) == {
        "mousedown.md": "API reference for `textual.events.MouseDown` (mouse down).",
        "mouseup.md": "API reference for `textual.events.MouseUp` (mouse up).",
        "mousemove.md": "API reference for `textual.events.MouseMove` (mouse move).",
    }


def test_questions_every_page_asks_make_no_faq() -> None:
    """Exchange's procedures all end with "How do you know this worked?": a page with
    that and one question of its own is no FAQ ("Answers: ...; know this worked")."""
    page = "# Add a role\n\n## What do you need to know before you begin?\n\nX.\n\n"
    for tool in ("the EAC", "the Shell"):
        page += f"## Use {tool}\n\nX.\n\n## How do you know this worked?\n\nX.\n\n"
    blocks = list(prose.blocks(page))
    assert questions_sentence(blocks, 200) is not None  # as a page alone, it would be
    common = frozenset({"what do you need to know before you begin", "how do you know this worked"})
    assert questions_sentence(blocks, 200, common) is None


def test_the_versions_of_a_page_keep_their_own_best_sentence(tmp_path: Path) -> None:
    """PowerShellGet's cmdlet reference for 1.x, 2.x and 3.x: each version of
    ``Save-Module`` opens with the same synopsis, in a bundle of its own. Counted as a
    sentence three pages share, it was passed over for one about another cmdlet."""
    files: dict[str, str | bytes] = {}
    for version in ("1.x", "2.x", "3.x"):
        for cmdlet, what in (
            ("Save-Module", "Saves a module and its dependencies on the local computer."),
            ("Find-Module", "Finds modules in a repository that match specified criteria."),
        ):
            files[f"v{version}/{cmdlet.lower()}.md"] = (
                f"# {cmdlet}\n\n## SYNOPSIS\n\n{what}\n\n## EXAMPLES\n\nGet-PSRepository "
                "displays the local computer's registered repositories.\n"
            )
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1).errors == 0
    for page in out.rglob("save-module.md"):
        said = fm.parse(page.read_text("utf-8")).data["description"]
        assert said.startswith("Saves a module and its dependencies"), page


def test_one_element_in_several_places_is_its_title_and_the_sentence_they_share(
    tmp_path: Path,
) -> None:
    """PowerShell-Docs documents the format schema's ``Frame`` element once for each
    place it may stand, each page opening with the same sentence under the same
    sections (Schema, Syntax, Attributes and Elements). Passed over as shared, the
    sentence left "Document on Frame Element for CustomItem for Controls for View,
    covering Schema, Syntax, ..." for each: what the element does, said nowhere, and
    53 near-identical entries (KAS041). Its title tells the places apart."""
    what = {
        "Frame": "Defines how the data is displayed, such as shifting the data to the left.",
        "Text": "Specifies text that is added to the data that is displayed by the control.",
    }
    files: dict[str, str | bytes] = {}
    for element, sentence in what.items():
        for place in ("Controls for View", "Controls for Configuration", "GroupBy"):
            title = f"{element} Element for CustomItem for {place}"
            name = title.lower().replace(" ", "-") + "-format.md"
            files[name] = (
                f"---\ntitle: {title}\ndescription: {title}\n---\n# {title}\n\n{sentence}\n\n"
                "## Schema\n\n- Configuration Element\n\n## Syntax\n\n```xml\n<X/>\n```\n\n"
                "## Attributes and Elements\n\nNone.\n"
            )
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1).errors == 0
    said = _descriptions(out)
    assert said["frame-element-for-customitem-for-groupby-format.md"] == (
        "Frame Element for CustomItem for GroupBy: defines how the data is displayed, such "
        "as shifting the data to the left."
    )
    assert said["text-element-for-customitem-for-controls-for-view-format.md"] == (
        "Text Element for CustomItem for Controls for View: specifies text that is added to "
        "the data that is displayed by the control."
    )
    assert len(set(said.values())) == len(said)
