"""A Notion workspace exported as Markdown: each page ``Title <32-hex id>.md``, its
sub-pages in a folder ``Title/`` beside it, links URL-encoded with the ids. Built
(tambetvali/ObsidianLaegna31122025, 228 pages), every file kept its id
("collaborations-1b475bfc115480fc96a1e8436796ac71.md"), each parent page sat beside
its folder's bundle instead of opening it, and the one top page and its folder were a
bundle of one in a package named after the export's folder."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
IDS = {
    "Handbook": "1a575bfc115480a38129e9a9787ab565",
    "Onboarding": "1b475bfc115480fc96a1e8436796ac71",
    "First week": "1b475bfc1154805495ebea9599867240",
    "Accounts": "1b475bfc1154803ebdd9c3e675514412",
    "Expenses": "1b375bfc1154800b8d68fdec47225c85",
    "Tools": "1b475bfc1154802a92fdd8750da07e12",
}


def page(title: str, text: str) -> str:
    return f"# {title}\n\n{text}\n"


def export() -> dict[str, str | bytes]:
    i = IDS
    return {
        f"Handbook {i['Handbook']}.md": page(
            "Handbook",
            f"How we work.\n\n[Onboarding](Handbook/Onboarding%20{i['Onboarding']}.md)\n\n"
            f"[Expenses](Handbook/Expenses%20{i['Expenses']}.md)",
        ),
        f"Handbook/Onboarding {i['Onboarding']}.md": page(  # its sub-pages' links alone
            "Onboarding",
            f"[**First week**](Onboarding/First%20week%20{i['First week']}.md)\n\n"
            f"[**Accounts**](Onboarding/Accounts%20{i['Accounts']}.md)\n\n"
            f"[**Tools**](Onboarding/Tools%20{i['Tools']}.md)",
        ),
        f"Handbook/Onboarding/Tools {i['Tools']}.md": page(
            "Tools", "The chat, the tracker and the wiki everyone uses."
        ),
        f"Handbook/Onboarding/First week {i['First week']}.md": page(
            "First week", "Meet the team, set up your laptop and read the handbook."
        ),
        f"Handbook/Onboarding/Accounts {i['Accounts']}.md": page(
            "Accounts", "Ask IT for your e-mail, chat and VPN accounts on day one."
        ),
        f"Handbook/Expenses {i['Expenses']}.md": page(
            "Expenses", "Submit receipts within 30 days through the expense tool."
        ),
    }


def test_a_notion_export_builds_without_its_ids_each_page_opening_its_folder(
    tmp_path: Path,
) -> None:
    result = build(write_sources(tmp_path / "src", export()), tmp_path / "pkg", now=NOW)
    assert result.errors == 0, result.report
    out = tmp_path / "pkg"
    paths = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.md"))
    assert not [p for p in paths if re.search(r"[0-9a-f]{32}", p)], paths
    onboarding = next(p for p in out.rglob("index.md") if p.parent.name == "onboarding")
    entries = parse_index(onboarding.read_text("utf-8")).entries
    assert entries[0].title == "Onboarding"  # the parent page opens its bundle
    # described by the pages it leads to, not "Document whose text opens with ..."
    assert entries[0].description == "Overview linking to First week, Accounts and Tools."
    assert {e.title for e in entries} >= {"First week", "Accounts"}
    root = (out / "index.md").read_text("utf-8")
    assert root.startswith('---\nokf_version: "0.2"\n---\n# Handbook\n')  # the top page's
    assert parse_index(root).entries[0].title == "Handbook"  # its page first, no wrapper
    report = check(Package.open(out), agent_ready=True)
    assert not [f for f in report.findings if f.code == "OKF120"]  # the links resolve
