"""Moves, renames, splits and merges of the demo package: every reference kept, one log
entry, one undo action restoring every byte, and clear refusals."""

from __future__ import annotations

import posixpath
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kas_tui.core.edit_session import EditSession
from kas_tui.core.okf.errors import EditError
from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.moves.planner import (
    MovePlan,
    apply_plan,
    into,
    plan_merge,
    plan_move,
    plan_split,
)
from kas_tui.features.moves.relink import PathMap
from tests.helpers.acme import DEMO, changed, files
from tests.helpers.moves import TODAY, broken_links, document_links, findings, mentions


def run(pkg: Package, plan: MovePlan) -> EditSession:
    session = EditSession(pkg, today=TODAY)
    assert session.run(plan.label, lambda p: apply_plan(p, plan)) is not None
    return session


def kept_everything(root: Path, plan: MovePlan, *, aliases=()) -> None:
    """Move ``plan`` in the package at ``root`` and check what a move must keep: every
    link of every document leads where it led, no link or index entry is broken, the
    paths SKILL.md and the indexes write as code still name what they named, check
    finds nothing new, one log entry; then undo puts back every byte, redo the move."""
    final = PathMap([*plan.renames, *aliases]).final
    before = files(root)
    pkg = Package.open(root)
    links, named, found = document_links(pkg, final), mentions(pkg, final), findings(pkg, final)
    log_before = pkg.log.groups if pkg.log else []
    session = run(pkg, plan)
    after = files(root)
    assert broken_links(pkg) == []
    assert document_links(pkg) == links
    assert mentions(pkg) >= named  # (a name written as code may come to exist, too)
    assert findings(pkg) - found == Counter(), "check --agent-ready finds nothing new"
    entries = sum(len(g.bullets) for g in pkg.log.groups) - sum(len(g.bullets) for g in log_before)
    assert entries == 1
    assert changed(before, after) >= {f.path for f in plan.files} - {"log.md"}
    session.undo()
    assert files(root) == before, "undo puts back every byte and removes what was made"
    session.redo()
    assert files(root) == after


def index_entries(root: Path, folder: str) -> dict[str, tuple[str | None, str, str]]:
    """target -> (section, title, description) of ``folder``'s index.md."""
    text = (root / folder / "index.md").read_text()
    return {e.target: (e.section, e.title, e.description) for e in parse_index(text).entries}


# --- documents -------------------------------------------------------------------------


def test_renaming_a_document_keeps_its_entry_in_place(root: Path) -> None:
    pkg = Package.open(root)
    plan = plan_move(pkg, "incidents/severity-levels.md", "incidents/sev-levels.md", today=TODAY)
    entry = index_entries(root, "incidents")["severity-levels.md"]
    line = next(e.line for e in pkg.indexes["incidents"].index.entries if e.title == entry[1])
    kept_everything(root, plan)
    assert index_entries(root, "incidents")["sev-levels.md"] == entry
    renamed = next(
        e
        for e in parse_index((root / "incidents/index.md").read_text()).entries
        if e.title == entry[1]
    )
    assert renamed.line == line, "the entry stays on its line; only its link changes"
    skill = (root / "SKILL.md").read_text()
    assert "| How bad is this outage? | `/incidents/sev-levels.md` |" in skill
    log = (root / "log.md").read_text()
    assert (
        "* **Update**: Renamed [Incident severity levels](/incidents/sev-levels.md) from "
        "`incidents/severity-levels.md`;" in log
    )


def test_a_document_moved_across_bundles_and_depths(root: Path) -> None:
    pkg = Package.open(root)
    src, dst = "oncall/escalation-policy.md", "billing-support/refunds/escalation-policy.md"
    old_entry = index_entries(root, "oncall")["escalation-policy.md"]
    plan = plan_move(pkg, src, dst, today=TODAY)
    kept_everything(root, plan)
    assert "escalation-policy.md" not in index_entries(root, "oncall")
    section, title, description = index_entries(root, "billing-support/refunds")[
        "escalation-policy.md"
    ]
    assert (title, description) == old_entry[1:], "the entry keeps its title and description"
    # incidents/index.md lists it too (cross-listed): its entry stays there, link rewritten
    assert "../billing-support/refunds/escalation-policy.md" in index_entries(root, "incidents")
    moved = (root / dst).read_text()
    assert "[PagerDuty runbook](../../oncall/pagerduty-runbook.md)" in moved  # was ./
    assert "resource: /references/pagerduty-escalation-policy.yaml" in moved  # rooted: kept


def test_the_entry_goes_into_the_section_the_layout_policy_picks(root: Path) -> None:
    pkg = Package.open(root)
    # a Runbook into releases/, whose "When a release goes wrong" section lists its runbooks
    plan = plan_move(
        pkg, "incidents/database-failover-runbook.md", "releases/database-failover-runbook.md"
    )
    apply_plan(pkg, plan)
    section = index_entries(root, "releases")["database-failover-runbook.md"][0]
    assert section == "When a release goes wrong"
    from kas_tui.core.editing import entry_kinds
    from kas_tui.core.okf.index_layout import section_for

    text = (root / "releases/index.md").read_text()
    assert section == section_for(parse_index(text), "releases", entry_kinds(pkg), "Runbook")


def test_an_asset_moved_rewrites_sources_and_image_links(root: Path) -> None:
    (root / "slos/slo-overview.md").write_text(
        (root / "slos/slo-overview.md").read_text()
        + '\n![The targets](../references/slo-targets.csv "csv")\n'
    )
    pkg = Package.open(root)
    plan = plan_move(pkg, "references/slo-targets.csv", "slos/slo-targets.csv", today=TODAY)
    kept_everything(root, plan)
    for doc in ("slos/service-slo-targets.md", "billing-support/refunds/sla-credits.md"):
        text = (root / doc).read_text()
        assert "resource: /slos/slo-targets.csv\n" in text
        assert "references/slo-targets.csv" not in text
    assert '![The targets](slo-targets.csv "csv")' in (root / "slos/slo-overview.md").read_text()


def test_link_styles_are_kept(root: Path) -> None:
    doc = root / "slos/styles.md"
    doc.write_text(
        "---\ntype: Reference\ntitle: Styles\ndescription: Every way to write a link.\n"
        "sources:\n  - {resource: ../incidents/severity-levels.md, title: relative}\n"
        "  - resource: incidents/severity-levels.md\n---\n\n"
        "[plain](../incidents/severity-levels.md#sev1)\n"
        "[dot](./../incidents/severity-levels.md)\n"
        '[angle](<../incidents/severity-levels.md> "A title")\n'
        "[rooted](/incidents/severity-levels.md?x=1#sev2)\n"
        "[ref][r] and [shortcut]\n"
        "`../incidents/severity-levels.md` in a document stays code.\n\n"
        "[r]: ../incidents/severity-levels.md 'Ref title'\n"
        "[shortcut]: </incidents/severity-levels.md>\n"
    )
    pkg = Package.open(root)
    plan = plan_move(
        pkg, "incidents/severity-levels.md", "incidents/postmortems/severity levels.md"
    )
    apply_plan(pkg, plan)
    text = doc.read_text()
    for written in (
        "  - {resource: ../incidents/postmortems/severity levels.md, title: relative}",
        "  - resource: incidents/postmortems/severity levels.md\n",
        "[plain](<../incidents/postmortems/severity levels.md#sev1>)",
        "[dot](<../incidents/postmortems/severity levels.md>)",
        '[angle](<../incidents/postmortems/severity levels.md> "A title")',
        "[rooted](</incidents/postmortems/severity levels.md?x=1#sev2>)",
        "[r]: <../incidents/postmortems/severity levels.md> 'Ref title'",
        "[shortcut]: </incidents/postmortems/severity levels.md>",
        "`../incidents/severity-levels.md` in a document stays code.",
    ):
        assert written in text, written
    assert broken_links(pkg) == []


def test_a_dot_slash_link_keeps_its_dot_slash(root: Path) -> None:
    pkg = Package.open(root)
    checklist = "incidents/incident-commander-checklist.md"
    apply_plan(pkg, plan_move(pkg, checklist, "incidents/postmortems/ic-checklist.md"))
    response = (root / "incidents/incident-response.md").read_text()
    assert "[incident commander checklist](./postmortems/ic-checklist.md)" in response


def test_percent_encoded_links_stay_encoded(root: Path) -> None:
    doc = root / "slos/encoded.md"
    doc.write_text(
        "---\ntype: Reference\ntitle: Encoded\ndescription: Encoded links.\n---\n\n"
        "[enc](../incidents/severity%2Dlevels.md#t%C3%A9st) and [raw](../incidents/severity-levels.md#tést)\n"
    )
    pkg = Package.open(root)
    apply_plan(pkg, plan_move(pkg, "incidents/severity-levels.md", "incidents/sévérité.md"))
    text = doc.read_text()
    assert "[enc](../incidents/s%C3%A9v%C3%A9rit%C3%A9.md#t%C3%A9st)" in text
    assert "[raw](../incidents/sévérité.md#tést)" in text
    assert broken_links(pkg) == []


def test_a_document_linking_to_itself_and_up(root: Path) -> None:
    doc = root / "oncall/self.md"
    doc.write_text(
        "---\ntype: Reference\ntitle: Self\ndescription: Links to itself.\n---\n\n"
        "[top](self.md#top), [anchor](#top), [bundle](./), [up](../index.md), "
        "[sibling](oncall-faq.md) and [rooted](/oncall/self.md)\n"
    )
    pkg = Package.open(root)
    apply_plan(pkg, plan_move(pkg, "oncall/self.md", "incidents/postmortems/me.md"))
    text = (root / "incidents/postmortems/me.md").read_text()
    assert (
        "[top](me.md#top), [anchor](#top), [bundle](../../oncall/), [up](../../index.md), "
        "[sibling](../../oncall/oncall-faq.md) and [rooted](/incidents/postmortems/me.md)"
    ) in text


def test_only_the_bytes_that_must_change_change(root: Path) -> None:
    (root / "oncall/crlf.md").write_bytes(
        b"\xef\xbb\xbf---\r\ntype: FAQ\r\ntitle: CRLF\r\ndescription: Windows lines.\r\n---\r\n\r\n"
        b"See [levels](/incidents/severity-levels.md) now.\r\n"
    )
    pkg = Package.open(root)
    apply_plan(pkg, plan_move(pkg, "incidents/severity-levels.md", "incidents/levels.md"))
    assert (root / "oncall/crlf.md").read_bytes() == (
        b"\xef\xbb\xbf---\r\ntype: FAQ\r\ntitle: CRLF\r\ndescription: Windows lines.\r\n---\r\n\r\n"
        b"See [levels](/incidents/levels.md) now.\r\n"
    )


# --- bundles ---------------------------------------------------------------------------


def test_a_nested_bundle_moved_up_a_level(root: Path) -> None:
    pkg = Package.open(root)
    plan = plan_move(pkg, "billing-support/refunds", "refunds", today=TODAY)
    entry = index_entries(root, "billing-support")["refunds/"]
    kept_everything(root, plan)
    assert not (root / "billing-support/refunds").exists()
    assert (root / "refunds/index.md").is_file(), "a bundle carries its index.md"
    assert index_entries(root, "")["refunds/"][1:] == entry[1:]
    assert "refunds/" not in index_entries(root, "billing-support")
    skill = (root / "SKILL.md").read_text()
    assert (
        "| Can this customer get a refund, who approves? | `/refunds/refund-policy.md` |" in skill
    )
    issuing = (root / "refunds/issuing-a-refund.md").read_text()
    assert "[refund policy](../refunds/refund-policy.md)" in issuing  # still right: kept
    assert "[SLA credits](./sla-credits.md)" in issuing


def test_renaming_a_top_level_bundle(root: Path) -> None:
    pkg = Package.open(root)
    plan = plan_move(pkg, "incidents", "incident-handling", today=TODAY)
    assert plan.summary().startswith("11 files renamed")
    kept_everything(root, plan)
    assert "incident-handling/" in index_entries(root, "")
    assert "[Incidents](incident-handling/)" in (root / "index.md").read_text()


def test_moving_into_a_folder_keeps_the_name(root: Path) -> None:
    pkg = Package.open(root)
    assert into(pkg, "incidents/severity-levels.md", "oncall") == "oncall/severity-levels.md"
    assert into(pkg, "slos", "") == "slos"


# --- split and merge -------------------------------------------------------------------


def test_split_makes_a_sub_bundle_with_its_index_and_entry(root: Path) -> None:
    (root / "oncall/unlisted.md").write_text(
        "---\ntype: Runbook\ntitle: Unlisted tool\ndescription: A runbook no index lists.\n---\n"
    )
    pkg = Package.open(root)
    docs = ["oncall/pagerduty-runbook.md", "oncall/opsgenie-runbook.md", "oncall/unlisted.md"]
    listed = index_entries(root, "oncall")
    plan = plan_split(
        pkg,
        "oncall",
        docs,
        "paging-tools",
        description="The PagerDuty and Opsgenie runbooks.",
        today=TODAY,
    )
    kept_everything(root, plan)
    sub = index_entries(root, "oncall/paging-tools")
    assert sub["pagerduty-runbook.md"][1:] == listed["pagerduty-runbook.md"][1:]
    assert sub["opsgenie-runbook.md"][1:] == listed["opsgenie-runbook.md"][1:]
    assert sub["unlisted.md"][1:] == ("Unlisted tool", "A runbook no index lists.")
    parent = index_entries(root, "oncall")
    assert parent["paging-tools/"][1:] == ("Paging tools", "The PagerDuty and Opsgenie runbooks.")
    assert not {"pagerduty-runbook.md", "opsgenie-runbook.md"} & set(parent)
    assert (root / "oncall/paging-tools/index.md").read_text().startswith("# Paging tools\n")


def test_merge_moves_every_entry_and_removes_the_bundle(root: Path) -> None:
    pkg = Package.open(root)
    entries = index_entries(root, "incidents/postmortems")
    plan = plan_merge(pkg, "incidents/postmortems", "incidents", today=TODAY)
    aliases = [("incidents/postmortems", "incidents")]
    kept_everything(root, plan, aliases=aliases)
    assert not (root / "incidents/postmortems").exists()
    merged = index_entries(root, "incidents")
    assert "postmortems/" not in merged
    for target, (_, title, description) in entries.items():
        assert merged[target][1:] == (title, description)
    skill = (root / "SKILL.md").read_text()
    assert "| What happened in a past incident? | `/incidents/index.md` |" in skill


def test_merge_into_a_sibling_keeps_the_sibling_entry(root: Path) -> None:
    pkg = Package.open(root)
    plan = plan_merge(pkg, "security", "oncall", today=TODAY)
    kept_everything(root, plan, aliases=[("security", "oncall")])
    top = index_entries(root, "")
    assert "oncall/" in top and "security/" not in top
    assert "security-incident-handling.md" in index_entries(root, "oncall")


# --- refusals --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "dst", "says"),
    [
        ("incidents/severity-levels.md", "incidents/incident-response.md", "exists already"),
        ("incidents/severity-levels.md", "../outside.md", "outside the package"),
        ("incidents/nothing.md", "incidents/x.md", "does not exist"),
        ("", "renamed", "root cannot be moved"),
        (".", "renamed", "root cannot be moved"),
        ("incidents/index.md", "oncall/index.md", "move or rename the folder"),
        ("SKILL.md", "skill2.md", "stays at the package root"),
        ("log.md", "history.md", "update log"),
        ("incidents/severity-levels.md", "incidents/severity-levels.txt", "ends in .md"),
        ("references/slo-targets.csv", "references/slo-targets.md", "keeps the file's type"),
        ("incidents/severity-levels.md", "incidents/index.md", "reserved"),
        ("incidents/severity-levels.md", "incidents/.hidden.md", "hidden"),
        ("incidents", "incidents/postmortems/incidents", "into itself"),
        ("incidents/severity-levels.md", "nowhere/severity-levels.md", "not a folder"),
        ("incidents/severity-levels.md", "incidents/severity-levels.md", "already there"),
        ("incidents/severity-levels.md", "references/severity-levels.md", "no index.md"),
    ],
)
def test_refused_moves_say_why_and_write_nothing(root: Path, src: str, dst: str, says: str) -> None:
    before = files(root)
    pkg = Package.open(root)
    with pytest.raises(EditError) as caught:
        plan_move(pkg, src, dst)
    assert says in str(caught.value)
    assert files(root) == before


def test_a_folder_holding_a_skill_keeps_its_name(root: Path) -> None:
    (root / "slos/SKILL.md").write_text("---\nname: slos\ndescription: SLOs.\n---\n")
    pkg = Package.open(root)
    with pytest.raises(EditError, match="name rule"):
        plan_move(pkg, "slos", "service-levels")
    assert plan_move(pkg, "slos", "oncall/slos").renames == [("slos", "oncall/slos")]


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (
            lambda p: plan_split(p, "oncall", ["oncall/oncall-faq.md"], "faq", description=""),
            "needs a description",
        ),
        (lambda p: plan_split(p, "oncall", [], "faq", description="x."), "at least one"),
        (
            lambda p: plan_split(p, "oncall", ["slos/slo-overview.md"], "x", description="x."),
            "directly in oncall",
        ),
        (
            lambda p: plan_split(
                p, "incidents", ["incidents/severity-levels.md"], "postmortems", description="x."
            ),
            "exists already",
        ),
        (lambda p: plan_merge(p, "incidents", "incidents/postmortems"), "a folder inside it"),
        (lambda p: plan_merge(p, "oncall", "oncall"), "into itself"),
        (lambda p: plan_merge(p, "oncall", "nowhere"), "not a folder"),
    ],
)
def test_refused_splits_and_merges(root: Path, call, says: str) -> None:
    before = files(root)
    with pytest.raises(EditError, match=says):
        call(Package.open(root))
    assert files(root) == before


def test_merge_refuses_names_taken_in_the_target(root: Path) -> None:
    shutil.copy(root / "slos/slo-overview.md", root / "oncall/slo-overview.md")
    with pytest.raises(EditError, match="already holds slo-overview.md"):
        plan_merge(Package.open(root), "slos", "oncall")


# --- property: any document into any bundle -------------------------------------------

_DEMO = Package.open(DEMO / "orbit-handbook")
_DOCS = sorted(_DEMO.documents)
_BUNDLES = sorted(_DEMO.indexes)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=st.sampled_from(_DOCS), bundle=st.sampled_from(_BUNDLES))
def test_any_document_into_any_bundle_keeps_everything(doc: str, bundle: str) -> None:
    dst = posixpath.join(bundle, posixpath.basename(doc))
    if posixpath.dirname(doc) == bundle or (DEMO / "orbit-handbook" / dst).exists():
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "orbit-handbook"
        shutil.copytree(DEMO / "orbit-handbook", root)
        kept_everything(root, plan_move(Package.open(root), doc, dst, today=TODAY))
