"""``kas-tui diff``'s use case on two folders (issue 36, item 2): documents added,
removed, moved and changed; index entries added, reworded and moved; the catalog entry;
token costs; links the change breaks; findings it introduces and fixes."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from kas_tui.features.check.run import CheckOptions
from kas_tui.features.diff.compare import diff_folders
from kas_tui.features.diff.render import WIDTH, diff_markdown, diff_text
from kas_tui.text.tokens import estimate_tokens
from tests.helpers.acme import make_package
from tests.helpers.diff import NEW_SKILL_DESCRIPTION, edit, pair

OPTIONS = CheckOptions(today=dt.date(2026, 12, 5))


def test_documents_added_removed_moved_and_changed(tmp_path: Path) -> None:
    diff = diff_folders(*pair(tmp_path), OPTIONS)
    d = diff.documents
    assert d.added == ["billing/sla-credits.md"]
    assert d.removed == ["billing/chargebacks.md"]
    assert [(m.old, m.new, m.likeness) for m in d.moved] == [
        ("billing/invoice-disputes.md", "billing/invoices.md", 100)
    ]
    assert not d.moved[0].fields and not d.moved[0].body_changed
    [changed] = d.changed
    assert changed.new == "incidents/severity-levels.md"
    assert [(f.name, f.before, f.after) for f in changed.fields] == [("status", "stable", "draft")]
    assert d.titles["billing/sla-credits.md"] == "SLA credits"


def test_a_document_moved_with_its_body_edited_is_moved_not_added(tmp_path: Path) -> None:
    before = make_package(tmp_path / "a")
    after = tmp_path / "b" / "acme-kb"
    shutil.copytree(before, after)
    (after / "incidents" / "incident-response.md").rename(after / "incidents" / "response.md")
    edit(after, "in Slack.", "in the Slack channel.", "incidents/response.md")  # the body
    edit(after, "type: Procedure", "type: Runbook", "incidents/response.md")
    diff = diff_folders(before, after, OPTIONS)
    [move] = diff.documents.moved
    assert (move.old, move.new) == ("incidents/incident-response.md", "incidents/response.md")
    assert 90 <= move.likeness < 100
    assert ("type", "Procedure", "Runbook") in [(f.name, f.before, f.after) for f in move.fields]
    assert move.lines_added == move.lines_removed == 1
    assert not diff.documents.added and not diff.documents.removed


def test_index_entries_added_reworded_and_moved_between_sections(tmp_path: Path) -> None:
    diff = diff_folders(*pair(tmp_path), OPTIONS)
    by_target = {e.target: e for e in diff.indexes.entries}
    assert set(by_target) == {
        "billing/sla-credits.md",
        "incidents/severity-levels.md",
        "billing/refund-policy.md",
    }, "the entry of the moved document followed it: no change"
    added = by_target["billing/sla-credits.md"]
    assert added.kind == "added" and added.index == "billing/index.md"
    reworded = by_target["incidents/severity-levels.md"]
    assert reworded.reworded and not reworded.moved
    assert reworded.description_after.endswith("the impact that sets each level.")
    moved = by_target["billing/refund-policy.md"]
    assert moved.moved and not moved.reworded
    assert (moved.before.section, moved.after.section) == ("Running an incident", "Triage")
    assert diff.indexes.count("reworded") == diff.indexes.count("moved") == 1


def test_token_costs_of_the_catalog_entry_and_each_index(tmp_path: Path) -> None:
    before, after = pair(tmp_path)
    diff = diff_folders(before, after, OPTIONS)
    costs = {c.path: c for c in diff.indexes.costs}
    for path in ("billing/index.md", "incidents/index.md", "index.md"):
        assert costs[path].before == estimate_tokens((before / path).read_text())
        assert costs[path].after == estimate_tokens((after / path).read_text())
    assert costs["billing/index.md"].delta > 0 and costs["index.md"].delta == 0
    assert costs["incidents/index.md"].delta < 0  # a shorter description
    grew = len(NEW_SKILL_DESCRIPTION) - len(diff.catalog_before.description)
    assert diff.catalog_after.description == NEW_SKILL_DESCRIPTION and diff.catalog_changed
    assert abs(diff.catalog_after.tokens - diff.catalog_before.tokens - grew / 4) <= 1
    assert diff.to_json()["summary"]["catalog_tokens_delta"] > 0


def test_links_added_removed_and_broken_by_the_change(tmp_path: Path) -> None:
    diff = diff_folders(*pair(tmp_path), OPTIONS)
    links = diff.links
    added = {(x.source, x.target) for x in links.added}
    assert ("billing/sla-credits.md", "billing/refund-policy.md") in added
    assert not any(x.source == "billing/index.md" for x in links.added), "an entry: not a link"
    assert {(x.source, x.target) for x in links.broken} == {
        ("billing/sla-credits.md", "billing/calculator.md")
    }
    # the moved document's link came with it; the removed document had none
    assert not any(x.source.startswith("billing/invoice") for x in links.added + links.removed)


def test_a_link_left_pointing_at_a_moved_document_is_broken_not_added(tmp_path: Path) -> None:
    before = make_package(tmp_path / "a")
    after = tmp_path / "b" / "acme-kb"
    shutil.copytree(before, after)
    (after / "glossary.md").rename(after / "terms.md")  # severity-levels.md links to it
    diff = diff_folders(before, after, OPTIONS)
    assert [(m.old, m.new) for m in diff.documents.moved] == [("glossary.md", "terms.md")]
    broken = {(x.source, x.target) for x in diff.links.broken}
    assert ("incidents/severity-levels.md", "glossary.md") in broken
    assert ("index.md", "glossary.md") in broken, "an index entry the change broke"
    assert not any(x.source == "incidents/severity-levels.md" for x in diff.links.added)
    assert any(f.code == "OKF120" for f in diff.findings.new)


def test_findings_new_and_fixed_are_compared_without_lines(tmp_path: Path) -> None:
    before = make_package(tmp_path / "a")
    after = tmp_path / "b" / "acme-kb"
    shutil.copytree(before, after)
    # lines above the stale_after warning of severity-levels.md: the same finding
    edit(
        after,
        "tags: [incidents, severity]",
        "tags:\n  - incidents\n  - severity",
        "incidents/severity-levels.md",
    )
    edit(after, "type: Procedure", "type: [Procedure]", "billing/chargebacks.md")  # a new error
    same = diff_folders(before, after, OPTIONS)
    assert not any(f.path == "incidents/severity-levels.md" for f in same.findings.new)
    assert not any(f.path == "incidents/severity-levels.md" for f in same.findings.fixed)
    assert [f.path for f in same.findings.new if f.severity == "error"] == [
        "billing/chargebacks.md"
    ]
    assert same.fails("new-errors") and same.fails("new-warnings") and not same.fails(None)
    back = diff_folders(after, before, OPTIONS)  # the other way, the error is fixed
    assert [f.path for f in back.findings.fixed if f.severity == "error"] == [
        "billing/chargebacks.md"
    ]
    assert not back.findings.new and not back.fails("new-errors")


def test_an_unchanged_package_has_an_empty_diff(tmp_path: Path) -> None:
    before = make_package(tmp_path / "a")
    after = make_package(tmp_path / "b")
    diff = diff_folders(before, after, OPTIONS)
    assert diff.empty
    assert "no change an agent would see" in diff_text(diff)


def test_text_fits_80_columns_and_markdown_holds_the_table(tmp_path: Path) -> None:
    diff = diff_folders(*pair(tmp_path), OPTIONS)
    text = diff_text(diff)
    assert all(len(line) <= WIDTH for line in text.splitlines()), text
    for heading in (
        "Token cost",
        "Findings",
        "Documents",
        "Index entries",
        "Catalog entry",
        "Links",
    ):
        assert any(line.startswith(heading) for line in text.splitlines()), heading
    markdown = diff_markdown(diff)
    assert "| `billing/index.md` |" in markdown and "| catalog entry |" in markdown
    assert "moved `billing/invoice-disputes.md` → `billing/invoices.md` (same body)" in markdown
    assert "**broken** `billing/sla-credits.md:9` → `billing/calculator.md`" in markdown


def test_rows_for_a_screen_name_the_file_to_open(tmp_path: Path) -> None:
    from kas_tui.features.diff.rows import GROUPS, diff_rows

    rows = diff_rows(diff_folders(*pair(tmp_path), OPTIONS))
    order = [g for g, _ in GROUPS]
    assert [r.group for r in rows] == sorted((r.group for r in rows), key=order.index)
    by = {(r.group, r.mark, r.path): r for r in rows}
    assert ("documents", "-", "billing/chargebacks.md") in by
    moved = by[("documents", "→", "billing/invoices.md")]
    assert moved.summary == "moved from billing/invoice-disputes.md (same body)"
    [reworded] = [r for r in rows if r.group == "entries" and r.summary.startswith("reworded")]
    assert reworded.path == "incidents/index.md" and reworded.line == 3
    assert reworded.detail[0].startswith("description: Definitions of SEV1 to SEV4 with")
    assert by[("catalog", "~", "SKILL.md")].detail[0].startswith("description: ")
    assert ("links", "!", "billing/sla-credits.md") in by
    assert ("tokens", "~", "billing/index.md") in by and ("tokens", "~", "SKILL.md") in by
