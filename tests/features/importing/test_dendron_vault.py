"""A Dendron workspace: its notes' dotted names are the tree (``handbook.onboarding.md``
under ``handbook.md``), ordered by ``nav_order`` then title, its ``dendron.yml`` says
which hierarchies the site publishes, and a note's ``desc`` is its description. Before,
the one flat vault folder was grouped by title words (dendron-site: "Opens", "Getting",
"Note/Taking" bundles holding the publishing settings)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc_dendron import with_frontmatter_values
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.timezone.utc)

CONFIG = """\
version: 5
workspace:
    vaults:
        -
            fsPath: vault
            name: handbook
publishing:
    siteHierarchies:
        - people
        - handbook
    siteIndex: handbook
    siteUrl: https://handbook.example.org
    seo:
        title: Acme Handbook
        description: How Acme works, for everyone who works there.
"""


def _note(title: str, desc: str, body: str, **extra: object) -> str:
    lines = ["id: x", f"title: {title}", f"desc: '{desc}'", "updated: 1", "created: 1"]
    lines += [f"{k}: {v}" for k, v in extra.items()]
    return "---\n" + "\n".join(lines) + "\n---\n\n" + body


NOTES = {
    "root.md": _note("Root", "", "The root of the vault.\n"),
    "handbook.md": _note(
        "Handbook", "How the company works.", "Start with [[handbook.onboarding]].\n"
    ),
    "handbook.onboarding.md": _note(
        "Onboarding", "What a new starter does in the first week.", "Welcome aboard.\n"
    ),
    "handbook.onboarding.laptop.md": _note(
        "Laptop Setup", "Install the tools and enrol the laptop.", "Enrol it in MDM first.\n"
    ),
    "handbook.onboarding.accounts.md": _note(
        "Accounts",
        "Which accounts you get and who grants them.",
        "## Summary\n\n{{fm.desc}}\n\nShortcut: {{fm.custom.shortcut}}; {{fm.owner}}\n",
        nav_order=1,
        shortcut="ctrl+k",
    ),
    "handbook.policies.travel.md": _note(
        "Travel", "Booking trips and what the company pays for.", "Book through the portal.\n"
    ),
    "handbook.policies.expenses.md": _note(
        "Expenses", "Claiming money back for what you paid.", "Claim within 30 days.\n"
    ),
    # the id setting of the comments widget: its name ends as an Indonesian page would
    "handbook.comments.giscus.id.md": _note(
        "id",
        "The repository id the comments widget posts to.",
        "Find it in the widget's settings.\n",
    ),
    "handbook.comments.giscus.md": _note(
        "Giscus", "Comments under each page, stored as discussions.", "Enable the app.\n"
    ),
    "handbook.salaries.md": _note("Salaries", "Pay bands.", "Confidential.\n", published="false"),
    "people.md": _note("People", "Who is who.", "The team.\n"),
    "people.alice.md": _note("Alice", "Alice runs finance and approves expenses.", "Ask her.\n"),
    "journal.2021.01.01.md": _note("2021-01-01", "", "Wrote the handbook outline.\n"),
    "templates.meeting.md": _note("Meeting", "", "## Agenda\n"),
    "assets/images/logo.png": b"\x89PNG\r\n\x1a\nlogo",
}


def _build(tmp_path: Path) -> tuple[Path, dict[str, str], list[str]]:
    files = {"dendron.yml": CONFIG, "README.md": "# Our handbook\n\nOpen it in Dendron.\n"}
    files |= {f"vault/{name}": text for name, text in NOTES.items()}
    source = write_sources(tmp_path / "workspace", files)
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert not result.failed, result.failed
    record = json.loads((out / ".kas-build.json").read_text(encoding="utf-8"))
    paths = {src: doc["path"] for src, doc in record["documents"].items()}
    return out, paths, result.notes


def _sections(index: str) -> dict[str | None, list[str]]:
    """An index's entries by the ``##`` heading above them (``None``: above any)."""
    found: dict[str | None, list[str]] = {None: []}
    heading = None
    for line in index.splitlines():
        if line.startswith("## "):
            heading = line[3:]
            found[heading] = []
        elif line.startswith("* ["):
            found[heading].append(line[3 : line.index("](")])
    return found


def test_the_dotted_names_are_the_tree(tmp_path: Path) -> None:
    """Each note in its hierarchy's bundle, named by its last name part; a bundle too
    small for folders of its own keeps its hierarchies as sections."""
    out, paths, _notes = _build(tmp_path)
    assert paths["vault/handbook.onboarding.laptop.md"] == "handbook/laptop.md"
    assert paths["vault/handbook.policies.travel.md"] == "handbook/travel.md"
    assert paths["vault/handbook.md"] == "handbook/handbook.md"
    sections = _sections((out / "handbook" / "index.md").read_text(encoding="utf-8"))
    assert sections[None] == ["Handbook"]  # the note that opens its bundle comes first
    # siblings by nav_order, then by title; the section's own note first
    assert sections["Onboarding"] == ["Onboarding", "Accounts", "Laptop Setup"]
    # "policies" has no note of its own (a stub): a section named by its name part
    assert sections["Policies"] == ["Expenses", "Travel"]
    # the home first (siteIndex), then the hierarchies as siteHierarchies lists them
    root = parse_index((out / "index.md").read_text("utf-8"))
    assert [e.title for e in root.entries][:2] == ["Handbook", "People"]
    assert "\n# Acme Handbook\n" in (out / "index.md").read_text("utf-8")  # publishing.seo


def test_what_the_site_does_not_publish_is_left_out_and_said(tmp_path: Path) -> None:
    _out, paths, notes = _build(tmp_path)
    for gone in ("journal.2021.01.01.md", "templates.meeting.md", "handbook.salaries.md"):
        assert f"vault/{gone}" not in paths
    assert "vault/root.md" not in paths  # the vault itself, not a page the site shows
    assert any("dendron.yml's publishing.siteHierarchies" in n for n in notes), notes
    assert "README.md" not in paths  # outside the vault: the repository's own


def test_a_dotted_name_never_says_a_language_and_desc_describes(tmp_path: Path) -> None:
    out, paths, notes = _build(tmp_path)
    assert "vault/handbook.comments.giscus.id.md" in paths, notes
    pkg = Package(out)
    pkg.load()
    alice = pkg.documents[paths["vault/people.alice.md"]]
    assert alice.description == "Alice runs finance and approves expenses."


def test_a_note_shows_its_frontmatter_where_it_names_it(tmp_path: Path) -> None:
    """Dendron prints ``{{fm.desc}}`` as the note's desc: 171 of dendron-site's notes
    open their description so, and the package showed the braces."""
    out, paths, notes = _build(tmp_path)
    text = (out / paths["vault/handbook.onboarding.accounts.md"]).read_text(encoding="utf-8")
    assert "## Summary\n\nWhich accounts you get and who grants them.\n" in text
    assert "Shortcut: ctrl+k; {{fm.owner}}" in text
    said = [n for n in notes if n.startswith("vault/handbook.onboarding.accounts.md:")]
    assert said == [
        "vault/handbook.onboarding.accounts.md:15: {{fm.owner}} names no value the note's "
        "frontmatter gives: left as written"
    ], notes


def test_frontmatter_values_are_not_printed_in_code() -> None:
    own = {"title": "Lookup", "tags": ["a", "b"], "custom": {"n": 3}, "on": True}
    text = "{{fm.title}} `{{fm.title}}`\n\n```\n{{ fm.title }}\n```\n{{ fm.tags }} {{fm.custom.n}} {{fm.on}}\n"
    shown, unknown = with_frontmatter_values(text, own)
    assert shown == "Lookup `{{fm.title}}`\n\n```\n{{ fm.title }}\n```\na, b 3 true\n"
    assert unknown == []
    assert with_frontmatter_values("a\n{{fm.x.y}}", own) == ("a\n{{fm.x.y}}", [(2, "{{fm.x.y}}")])
