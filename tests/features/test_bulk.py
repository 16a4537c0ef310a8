"""Bulk editing, headless: filters, operations, plans and previews on real-shaped packages."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kas_tui.core.edit_session import EditSession
from kas_tui.core.okf.errors import EditError
from kas_tui.core.okf.timestamp import Timestamp
from kas_tui.core.package import Package
from kas_tui.features.bulk_edit import (
    AddTag,
    BulkError,
    Filter,
    RemoveField,
    RemoveTag,
    SetField,
    choices,
    filter_documents,
    parse_value,
    plan,
    preview,
    still_missing,
    suggested_values,
    typed_operation,
)
from tests.helpers.acme import DOCUMENTS, make_package, snapshot

TODAY = dt.date(2026, 11, 30)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def acme(tmp_path: Path) -> Package:
    return Package.open(make_package(tmp_path))


def paths(pkg: Package, flt: Filter) -> list[str]:
    return [doc.path for doc in filter_documents(pkg, flt, TODAY)]


def changed_lines(before: bytes, after: bytes) -> list[tuple[bytes, bytes]]:
    """Pairs of (old line, new line) that differ; the files must have as many lines."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    assert len(old) == len(new)
    return [(a, b) for a, b in zip(old, new, strict=True) if a != b]


# --- filters ---------------------------------------------------------------------------


def test_no_filter_matches_every_document_sorted_by_path(acme):
    assert paths(acme, Filter()) == DOCUMENTS
    assert not Filter().active


def test_filter_by_type_status_trust_and_staleness(acme):
    assert paths(acme, Filter(type="Procedure")) == [
        "billing/chargebacks.md",
        "billing/invoice-disputes.md",
        "incidents/incident-response.md",
    ]
    assert paths(acme, Filter(status="draft")) == [
        "billing/chargebacks.md",
        "incidents/postmortems/2026-04-17-search-outage.md",
    ]
    assert paths(acme, Filter(trust="machine-confirmed")) == ["incidents/severity-levels.md"]
    assert paths(acme, Filter(trust="human-reviewed")) == [
        "billing/invoice-disputes.md",
        "billing/refund-policy.md",
        "glossary.md",
        "incidents/incident-response.md",
    ]
    assert paths(acme, Filter(staleness="fresh")) == [
        "billing/chargebacks.md",
        "billing/invoice-disputes.md",
        "billing/refund-policy.md",
        "glossary.md",
        "incidents/incident-response.md",
        "incidents/severity-levels.md",
    ]
    # an empty stale_after is no stale_after
    assert "incidents/postmortems/2026-04-17-search-outage.md" in paths(
        acme, Filter(staleness="none")
    )
    assert paths(acme, Filter(staleness="stale", type="Runbook")) == []


def test_staleness_follows_today(acme):
    later = dt.date(2027, 1, 15)
    stale = [d.path for d in filter_documents(acme, Filter(staleness="stale"), later)]
    assert "incidents/severity-levels.md" in stale  # stale_after 2026-12-31
    assert "incidents/severity-levels.md" not in paths(acme, Filter(staleness="stale"))


def test_filter_by_tag_ignores_case_and_plain_string_tags(acme):
    assert paths(acme, Filter(tag="Billing")) == [
        "billing/chargebacks.md",
        "billing/invoice-disputes.md",
        "billing/refund-policy.md",
    ]
    assert paths(acme, Filter(tag="severity")) == ["incidents/severity-levels.md"]
    assert paths(acme, Filter(tag="nope")) == []


def test_text_filter_needs_every_word_in_title_or_path(acme):
    assert paths(acme, Filter(text="refund")) == ["billing/refund-policy.md"]
    assert paths(acme, Filter(text="POLICY billing")) == ["billing/refund-policy.md"]
    assert paths(acme, Filter(text="postmortems")) == [
        "incidents/postmortems/2026-04-17-search-outage.md"
    ]  # in the path only
    assert paths(acme, Filter(text="refund glossary")) == []
    assert Filter(text="  ").active is False


def test_filters_combine(acme):
    flt = Filter(type="Procedure", tag="billing", trust="human-reviewed", text="invoice")
    assert flt.active
    assert paths(acme, flt) == ["billing/invoice-disputes.md"]


def test_choices_list_what_the_package_holds(acme):
    found = choices(acme, TODAY)
    assert dict(found.types) == {
        "Policy": 1,
        "Postmortem": 1,
        "Procedure": 3,
        "Reference": 2,
    }
    assert found.tags[0] == ("billing", 3)  # most used first
    assert [s for s, _ in found.statuses] == ["draft", "stable"]
    assert [t for t, _ in found.trust] == ["human-reviewed", "machine-confirmed", "unverified"]
    assert {s for s, _ in found.staleness} >= {"fresh", "none"}
    assert ("type", 7) in found.keys


# --- values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("owner", "team:sre", "team:sre"),
        ("review_every", "90", 90),
        ("weight", "1.5", 1.5),
        ("public", "true", True),
        ("reviewed_on", "2027-03-01", Timestamp("2027-03-01")),
        ("reviewed_at", "2027-03-01T09:00:00Z", Timestamp("2027-03-01T09:00:00Z")),
        ("aliases", "[a, b]", ["a", "b"]),
        ("code", '"0042"', "0042"),
        ("note", "see #4 # and this", "see #4 # and this"),  # no comment swallowed
        ("note", "Refunds: how to", "Refunds: how to"),  # not a mapping
        ("title", "2026", "2026"),  # text keys stay text
        ("description", "  One sentence.  ", "One sentence."),
        ("status", "deprecated", "deprecated"),
        ("stale_after", "2027-06-30", Timestamp("2027-06-30")),
    ],
)
def test_values_are_typed_like_yaml_scalars(key, text, value):
    got = parse_value(key, text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("type", "", "type cannot be empty"),
        ("type", "   ", "type cannot be empty"),
        ("owner", "", "remove field"),
        ("status", "retired", "status must be one of draft, stable, deprecated"),
        ("stale_after", "next year", "stale_after is a date"),
        # a time without its offset is refused, as the form refuses it (it was written before)
        ("stale_after", "2027-03-01T00:00:00", "add the UTC offset"),
        ("tags", "[a]", "add tag or remove tag"),
        ("verified", "{by: human:x}", "per document"),
        ("bad key", "x", "not a plain YAML key"),
        ("", "x", "give the field's key"),
        ("owner", "team\x1b[31m:sre", "control characters"),
        ("owner", '"a\\x1bb"', "control characters"),  # an escape written as YAML
        ("owner", "a\nb", "one line only"),
        ("owner", '"unclosed', "invalid YAML"),
    ],
)
def test_values_and_keys_that_are_refused(key, text, message):
    with pytest.raises(BulkError, match=message.replace("(", r"\(")):
        SetField.parse(key, text)


def test_operations_check_themselves():
    with pytest.raises(BulkError, match="type is required"):
        RemoveField("type").check()
    with pytest.raises(BulkError, match="give the tag"):
        AddTag("  ").check()
    with pytest.raises(BulkError, match="control characters"):
        RemoveTag("x\x00").check()
    with pytest.raises(BulkError, match="type cannot be empty"):
        SetField("type", None).check()
    with pytest.raises(BulkError, match="status must be one of"):
        SetField("status", "gone").check()
    SetField("owner", None).check()  # null is a value


# --- operations ------------------------------------------------------------------------


def test_add_tag_leaves_documents_that_have_it_untouched(acme, tmp_path):
    root = acme.root
    targets = paths(acme, Filter(type="Procedure")) + ["billing/refund-policy.md"]
    before = snapshot(root)
    session = EditSession(acme, today=TODAY)
    # chargebacks and invoice-disputes and refund-policy already carry "billing"
    action = session.run("tag", plan(acme, targets, AddTag("billing")), log="Bulk: tagged.")
    assert action is not None
    written = {c.path.relative_to(root).as_posix() for c in action.changes}
    assert written == {"incidents/incident-response.md", "log.md"}
    after = snapshot(root)
    for rel in (
        "billing/chargebacks.md",
        "billing/invoice-disputes.md",
        "billing/refund-policy.md",
    ):
        assert after[rel] == before[rel]  # bytes, mtime and mode: never rewritten
    # the block list gained one line; the comment and the other items kept theirs
    text = (root / "incidents/incident-response.md").read_text()
    assert "tags:\n  - incidents\n  # keep the list short\n  - response\n  - billing\n" in text
    assert acme.documents["incidents/incident-response.md"].tags[-1] == "billing"


def test_add_tag_follows_each_list_style(acme):
    root = acme.root
    edit = plan(acme, ["billing/refund-policy.md", "glossary.md"], AddTag("handbook"))
    before = {rel: (root / rel).read_bytes() for rel in ("billing/refund-policy.md", "glossary.md")}
    EditSession(acme, log_edits=False).run("tag", edit)
    refund = changed_lines(
        before["billing/refund-policy.md"], (root / "billing/refund-policy.md").read_bytes()
    )
    assert refund == [(b"tags: [billing, refunds]\n", b"tags: [billing, refunds, handbook]\n")]
    glossary = (root / "glossary.md").read_bytes()
    assert (
        glossary.replace(b"  - glossary\n  - handbook\n", b"  - glossary\n")
        == before["glossary.md"]
    )


def test_add_tag_creates_the_list_when_missing(tmp_path):
    root = make_package(tmp_path)
    doc = root / "notes.md"
    doc.write_text("---\ntype: Note\ntitle: Notes\n---\n\nBody.\n")
    pkg = Package.open(root)
    assert "notes.md" in paths(pkg, Filter(status="stable"))  # no status reads as stable
    EditSession(pkg, log_edits=False).run("tag", plan(pkg, ["notes.md"], AddTag("misc")))
    assert doc.read_text() == "---\ntype: Note\ntitle: Notes\ntags:\n  - misc\n---\n\nBody.\n"


def test_remove_tag_keeps_the_other_items_and_drops_an_emptied_list(acme):
    root = acme.root
    before = snapshot(root)
    targets = paths(acme, Filter())
    EditSession(acme, log_edits=False).run("untag", plan(acme, targets, RemoveTag("billing")))
    after = snapshot(root)
    assert changed_lines(
        before["billing/refund-policy.md"][1], after["billing/refund-policy.md"][1]
    ) == [(b"tags: [billing, refunds]\n", b"tags: [refunds]\n")]
    invoice = (root / "billing/invoice-disputes.md").read_text()
    assert "tags:\n  - invoices\nsources:" in invoice
    # chargebacks had only "billing": the field goes rather than staying as tags: []
    chargebacks = (root / "billing/chargebacks.md").read_text()
    assert "tags" not in chargebacks.split("---")[1]
    assert "type: Procedure\ntitle: Chargebacks\n" in chargebacks
    untouched = [p for p in DOCUMENTS if not p.startswith("billing/")]
    assert all(after[p] == before[p] for p in untouched)


def test_set_status_across_five_documents_changes_only_that_line(demo):
    root = demo.root
    targets = paths(demo, Filter(status="stable"))[:5]
    assert len(targets) == 5
    before = {rel: (root / rel).read_bytes() for rel in targets}
    others = {rel: (root / rel).read_bytes() for rel in demo.documents if rel not in targets}
    session = EditSession(demo, today=TODAY)
    op = SetField.parse("status", "deprecated")
    action = session.run(op.describe(), plan(demo, targets, op), log=op.log_message(5))
    assert action is not None and len(action.changes) == 6  # five documents and log.md
    for rel in targets:
        assert changed_lines(before[rel], (root / rel).read_bytes()) == [
            (b"status: stable\n", b"status: deprecated\n")
        ]
        assert demo.documents[rel].status == "deprecated"
    assert {rel: (root / rel).read_bytes() for rel in others} == others
    assert "Bulk: set status to deprecated in 5 documents." in (root / "log.md").read_text()


def test_set_field_adds_a_missing_key_at_the_end_and_skips_equal_values(acme):
    root = acme.root
    targets = ["glossary.md", "incidents/incident-response.md"]  # the second has owner
    op = SetField.parse("owner", "team:sre")
    action = EditSession(acme, log_edits=False).run("own", plan(acme, targets, op))
    assert [c.path.name for c in action.changes] == ["glossary.md"]
    text = (root / "glossary.md").read_text()
    assert "stale_after: 2027-02-01\nowner: team:sre\n---\n" in text


def test_set_field_writes_a_date_as_typed(acme):
    root = acme.root
    op = SetField.parse("stale_after", "2027-12-31T00:00:00Z")
    EditSession(acme, log_edits=False).run("fresh", plan(acme, ["glossary.md"], op))
    assert "stale_after: 2027-12-31T00:00:00Z\n" in (root / "glossary.md").read_text()


def test_remove_field_removes_the_whole_entry_and_skips_documents_without_it(acme):
    root = acme.root
    before = snapshot(root)
    targets = paths(acme, Filter())
    action = EditSession(acme, log_edits=False).run(
        "drop", plan(acme, targets, RemoveField("sources"))
    )
    assert len(action.changes) == len(targets)
    for rel in targets:
        text = (root / rel).read_text()
        assert "sources:" not in text and "resource:" not in text.split("---")[1]
    action = EditSession(acme, log_edits=False).run(
        "again", plan(acme, targets, RemoveField("sources"))
    )
    assert action is None
    op = RemoveField("owner")
    action = EditSession(acme, log_edits=False).run("owner", plan(acme, targets, op))
    assert [c.path.name for c in action.changes] == ["incident-response.md"]
    assert snapshot(root)["billing/refund-policy.md"] != before["billing/refund-policy.md"]


def test_plan_refuses_unknown_paths_and_bad_operations(acme):
    with pytest.raises(BulkError, match="not documents of this package: nope.md"):
        plan(acme, ["glossary.md", "nope.md"], AddTag("x"))
    with pytest.raises(BulkError, match="give the tag"):
        plan(acme, ["glossary.md"], AddTag(""))


def test_one_bulk_action_undoes_as_one(demo):
    root = demo.root
    before = snapshot(root)
    targets = paths(demo, Filter(type="Runbook"))
    session = EditSession(demo, today=TODAY)
    op = AddTag("needs-review")
    action = session.run("tag runbooks", plan(demo, targets, op), log=op.log_message(len(targets)))
    assert len(action.changes) == len(targets) + 1
    log = (root / "log.md").read_text()
    assert f"Bulk: added tag needs-review to {len(targets)} documents." in log
    assert session.undo() is action
    assert {k: v[:2] for k, v in snapshot(root).items() if v[0] == "file"} == {
        k: v[:2] for k, v in before.items() if v[0] == "file"
    }
    assert all("needs-review" not in demo.documents[p].tags for p in targets)


# --- previews --------------------------------------------------------------------------


def test_preview_writes_nothing_and_gives_each_files_diff(acme):
    root = acme.root
    before = snapshot(root)
    stored = acme.store
    result = preview(acme, paths(acme, Filter()), AddTag("billing"))
    assert snapshot(root) == before
    assert acme.store is stored and not stored.undo_stack
    assert result.unchanged == [
        "billing/chargebacks.md",
        "billing/invoice-disputes.md",
        "billing/refund-policy.md",
    ]
    assert result.changed == [
        "glossary.md",
        "incidents/incident-response.md",
        "incidents/postmortems/2026-04-17-search-outage.md",
        "incidents/severity-levels.md",
    ]
    severity = result.diffs["incidents/severity-levels.md"]
    assert severity.startswith(
        "--- a/incidents/severity-levels.md\n+++ b/incidents/severity-levels.md\n"
    )
    assert "-tags: [incidents, severity]\n+tags: [incidents, severity, billing]\n" in severity
    assert result.diff == "".join(result.diffs[p] for p in result.changed)
    assert not result.refused


def test_preview_counts_each_files_lines_from_its_texts_not_its_diff(acme):
    from kas_tui.core.editing import PendingFile

    result = preview(acme, paths(acme, Filter()), AddTag("billing"))
    assert result.counts["incidents/severity-levels.md"] == (1, 1)
    assert set(result.counts) == set(result.diffs)
    # a removed "---" line reads "----" in a diff, like a file header: counted all the same
    change = PendingFile("a.md", "---\na: 1\n---\n++b\n", "a: 1\n---\n+++b\n")
    assert change.counts == (1, 2)
    assert "\n----\n" in change.diff and "\n++++b\n" in change.diff


def test_preview_matches_what_is_written(demo):
    targets = paths(demo, Filter(tag="incidents"))
    op = SetField.parse("review_cycle", "90")
    result = preview(demo, targets, op)
    from kas_tui.core.editing import preview as edit_preview

    assert result.diff == edit_preview(demo, plan(demo, targets, op))


def test_preview_reports_a_document_that_cannot_be_edited_and_goes_on(tmp_path):
    root = make_package(tmp_path)
    (root / "broken.md").write_text("---\ntype: [unclosed\n---\n\nBody.\n")
    (root / "bare.md").write_text("No frontmatter at all.\n")
    pkg = Package.open(root)
    before = snapshot(root)
    result = preview(pkg, ["bare.md", "broken.md", "glossary.md"], AddTag("x"))
    assert snapshot(root) == before
    assert set(result.refused) == {"bare.md", "broken.md"}
    assert "frontmatter cannot be read" in result.refused["bare.md"]
    assert result.changed == ["glossary.md"]
    with pytest.raises(EditError):
        plan(pkg, ["broken.md"], AddTag("x"))(pkg)


def test_preview_progress_hears_every_file(acme):
    heard = []
    preview(acme, DOCUMENTS[:3], RemoveTag("billing"), progress=lambda d, t: heard.append((d, t)))
    assert heard == [(1, 3), (2, 3), (3, 3)]


def test_bulk_is_headless():
    code = "import sys, json, kas_tui.features.bulk_edit; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert not [m for m in json.loads(out.stdout) if m.split(".")[0] in ("textual", "rich")]


# --- the change as typed -----------------------------------------------------------------


def test_the_change_as_typed_becomes_a_checked_operation() -> None:
    assert typed_operation("add_tag", "", " billing ") == AddTag("billing")
    assert typed_operation("remove_tag", "ignored", "billing") == RemoveTag("billing")
    assert typed_operation("remove_field", " owner ", "") == RemoveField("owner")
    assert typed_operation("set_field", "status", "draft") == SetField.parse("status", "draft")
    with pytest.raises(BulkError, match="tags"):
        typed_operation("set_field", "tags", "[a]")  # tags have their own operations


def test_what_the_change_still_needs_is_a_hint() -> None:
    assert still_missing("add_tag", "", " ") == "Type the tag to add."
    assert still_missing("remove_field", "", "") == "Type the field to remove."
    assert still_missing("set_field", "owner", "") == "Type the value to give owner."
    assert still_missing("set_field", "owner", "sre") == ""


def test_values_suggested_for_a_field(acme: Package) -> None:
    assert suggested_values(acme, "status") == ["draft", "stable", "deprecated"]
    found = choices(acme, TODAY)
    assert suggested_values(acme, "type", found) == [t for t, _ in found.types if t]
    titles = suggested_values(acme, "title")
    assert titles == sorted(titles) and titles[0] in {d.title for d in acme.documents.values()}
    assert suggested_values(acme, " ") == []
