"""Creating documents, bundles and SKILL.md (kas_tui.features.create): planned, written, undone."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.core.edit_session import EditSession
from kas_tui.core.editing import preview
from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.core.store import ConflictError
from kas_tui.features.check import check
from kas_tui.features.create import (
    STANDARD_TYPES,
    CreateError,
    check_file_name,
    default_type,
    draft_file_name,
    has_skill,
    house_style,
    name_problems,
    plan_bundle,
    plan_document,
    plan_skill,
    skeleton,
    skill_problems,
    types_for,
    write_bundle,
    write_document,
    write_skill,
)
from kas_tui.features.create.style import key_order
from kas_tui.features.importing.draft import GENERATOR
from tests.helpers.acme import changed, files, make_package

NOW = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.timezone.utc)
TODAY = dt.date(2026, 11, 30)


@pytest.fixture
def acme(tmp_path: Path) -> Package:
    return Package.open(make_package(tmp_path))


def late_fees(pkg: Package, **changes):
    values = {
        "title": "Late fees",
        "description": "When Acme charges a late fee and when support may waive it.",
        "type": "Policy",
        "tags": ["billing", "fees"],
        "now": NOW,
    }
    return plan_document(pkg, "billing", **{**values, **changes})


def run(pkg: Package, edit) -> object:
    """``edit`` as one action of an edit session (as the app runs it)."""
    session = EditSession(pkg, today=TODAY)
    session.run("create", edit)
    return session


# --- file names ----------------------------------------------------------------------------


def test_the_file_name_is_drafted_from_the_title_and_unique_in_its_folder(acme: Package) -> None:
    assert draft_file_name(acme, "billing", "Late fees") == "late-fees"
    assert draft_file_name(acme, "billing", "Refund Policy") == "refund-policy-2"
    assert draft_file_name(acme, "billing", "Café: Über-Policy (2026)!") == "cafe-uber-policy-2026"
    assert draft_file_name(acme, "billing", "Index") == "index-page"
    assert draft_file_name(acme, "", "Skill") == "skill-page"  # SKILL.md, case-insensitively
    assert draft_file_name(acme, "billing", "日本語") == "ribenyu"
    assert draft_file_name(acme, "billing", "🚀🚀") == "document"
    assert draft_file_name(acme, "", "Incidents") == "incidents-2"  # a folder takes the name


def test_a_typed_file_name_must_follow_the_rule_and_be_free(acme: Package) -> None:
    assert check_file_name(acme, "billing", "late-fees.md") == "late-fees"
    for text, message in (
        ("refund-policy", "refund-policy is taken in billing/"),
        ("Refund-Policy", "lower-case letters, digits and single hyphens, as in refund-policy"),
        ("late fees", "as in late-fees"),
        ("index", "index.md is one of the package's own files"),
        ("", "required: the document's file name"),
    ):
        with pytest.raises(CreateError, match=message) as caught:
            check_file_name(acme, "billing", text)
        assert caught.value.field == "file-name"
    with pytest.raises(CreateError, match="clash with SKILL.md"):
        check_file_name(acme, "", "skill")


# --- the frontmatter, in the house style ----------------------------------------------------


def test_the_new_document_is_written_in_the_packages_key_order_and_style(acme: Package) -> None:
    plan = late_fees(acme)
    assert plan.path == "billing/late-fees.md"
    # acme's documents: type, title, description, tags, sources, generated, verified,
    # status; most write tags as a block list and generated as { by, at } with spaces
    assert plan.text == (
        "---\n"
        "type: Policy\n"
        "title: Late fees\n"
        "description: When Acme charges a late fee and when support may waive it.\n"
        "tags:\n"
        "  - billing\n"
        "  - fees\n"
        f"generated: {{ by: {GENERATOR}, at: 2026-11-30T10:00:00Z }}\n"
        "status: draft\n"
        "---\n"
        "# Late fees\n"
        "\n"
        "When Acme charges a late fee and when support may waive it.\n"
        "\n"
        "## Scope\n"
        "\n"
        "## Rules\n"
        "\n"
        "## Exceptions\n"
    )


def test_the_demo_writes_tags_as_a_flow_list(demo: Package) -> None:
    plan = plan_document(
        demo,
        "incidents",
        title="Rotate the Stripe key",
        description="How to rotate the Stripe API key without downtime.",
        type="Runbook",
        tags=["stripe", "secrets"],
        now=NOW,
    )
    head = plan.text.split("---\n")[1]
    assert head.splitlines()[3:] == [
        "tags: [stripe, secrets]",
        f"generated: {{ by: {GENERATOR}, at: 2026-11-30T10:00:00Z }}",
        "status: draft",
    ]
    assert house_style(demo, "incidents").order.index("generated") < house_style(demo).order.index(
        "status"
    )


def test_key_order_is_the_pairwise_majority_and_ties_keep_the_default() -> None:
    default = ("type", "title", "status", "generated")
    metas = [
        {"type": 1, "title": 1, "generated": 1, "status": 1},
        {"title": 1, "type": 1, "generated": 1, "status": 1},
        {"type": 1, "title": 1, "generated": 1},
    ]
    assert key_order(metas, default) == ("type", "title", "generated", "status")
    assert key_order([], default) == default


def test_the_body_skeleton_fits_the_type() -> None:
    assert skeleton("Runbook", "Fail over", "Promote a replica.") == (
        "# Fail over\n\nPromote a replica.\n\n## When to use\n\n## Steps\n\n## Verify\n"
        "\n## Roll back\n"
    )
    assert skeleton("BigQuery Table", "Orders", "One row per order.").endswith(
        "## Schema\n\n## Examples\n"
    )
    assert skeleton("Whatever", "A  title", "Text.") == "# A title\n\nText.\n"


def test_required_inputs_are_refused_at_their_field(acme: Package) -> None:
    for changes, field in (
        ({"title": "  "}, "title"),
        ({"description": ""}, "description"),
        ({"type": ""}, "type"),
        ({"title": "Bad\x1b[31m"}, "title"),
        ({"tags": ["x" * 80]}, "tags"),
    ):
        with pytest.raises(CreateError) as caught:
            late_fees(acme, **changes)
        assert caught.value.field == field, changes
    with pytest.raises(CreateError, match="nowhere/ is not a folder"):
        plan_document(acme, "nowhere", title="T", description="D.", type="Policy")


def test_types_offered_are_the_packages_by_use_then_the_standard_ones(demo: Package) -> None:
    offered = types_for(demo)
    assert offered[:3] == ["Procedure", "Policy", "Runbook"]  # 9, 8 and 7 documents
    assert offered[-1] == "BigQuery Dataset" and offered.count("Reference") == 1
    assert offered.index("Attested Computation") < offered.index("Checklist")  # 2 in use
    assert set(STANDARD_TYPES) <= set(offered)
    assert types_for(demo, "incidents/postmortems")[0] == "Postmortem"
    assert default_type(demo, "billing-support/refunds") == "Policy"


# --- where the entry goes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("type_", "section"),
    [("Runbook", "Runbooks"), ("Procedure", "Running an incident"), ("Reference", "Triage")],
)
def test_the_entry_goes_where_the_layout_policy_puts_it(
    demo: Package, type_: str, section: str
) -> None:
    plan = plan_document(
        demo, "incidents", title="New one", description="A new one.", type=type_, now=NOW
    )
    assert plan.placement.section == section and not plan.placement.new_section
    run(demo, lambda p: write_document(p, plan, today=TODAY))
    written = parse_index((demo.root / "incidents/index.md").read_text())
    entry = next(e for e in written.entries if e.target == "new-one.md")
    assert entry.section == section
    assert entry.render().rstrip("\n") == plan.placement.line


def test_a_folder_without_index_gets_a_new_one(acme: Package) -> None:
    (acme.root / "drafts").mkdir()
    acme.load()
    plan = plan_document(acme, "drafts", title="Idea", description="An idea.", type="Note")
    assert plan.placement.new_index and plan.placement.describe() == "a new drafts/index.md"
    run(acme, lambda p: write_document(p, plan, today=TODAY))
    assert (acme.root / "drafts/index.md").read_text() == (
        "# Drafts\n\n* [Idea](idea.md) - An idea.\n"
    )


# --- writing and undoing --------------------------------------------------------------------


def test_a_new_document_is_listed_logged_and_one_undo_restores_every_byte(acme: Package) -> None:
    before = files(acme.root)
    plan = late_fees(acme)
    session = run(acme, lambda p: write_document(p, plan, today=TODAY))
    after = files(acme.root)
    assert changed(before, after) == {"billing/late-fees.md", "billing/index.md", "log.md"}
    assert after["billing/late-fees.md"] == plan.text.encode()
    assert after["billing/index.md"] == before["billing/index.md"] + (
        b"- [Late fees](/billing/late-fees.md) - When Acme charges a late fee and when support "
        b"may waive it.\n"
    )
    assert (
        after["log.md"]
        .decode()
        .startswith(
            "# Update log\n\n## 2026-11-30\n"
            "* **Creation**: Created the draft [Late fees](/billing/late-fees.md).\n\n## 2026-11-28\n"
        )
    )
    assert len(session.done) == 1 and len(session.done[0].changes) == 3
    assert "billing/late-fees.md" in acme.documents
    session.undo()
    assert files(acme.root) == before
    assert "billing/late-fees.md" not in acme.documents
    session.redo()
    assert files(acme.root) == after


def test_the_new_document_passes_the_agent_ready_check(demo: Package) -> None:
    old = {(f.code, f.path) for f in check(demo, agent_ready=True, today=TODAY).findings}
    plan = plan_document(
        demo,
        "incidents",
        title="Rotate the Stripe key",
        description="How to rotate the Stripe API key without downtime, step by step.",
        type="Runbook",
        tags=["stripe"],
    )
    run(demo, lambda p: write_document(p, plan, today=TODAY))
    report = check(Package.open(demo.root), agent_ready=True, today=TODAY)
    assert report.count("error") == 0
    assert {(f.code, f.path) for f in report.findings} - old == set()


def test_a_write_refused_half_way_takes_back_what_it_wrote(acme: Package) -> None:
    before = files(acme.root)
    plan = late_fees(acme)
    index = acme.root / "billing/index.md"
    index.write_text(index.read_text() + "\nEdited by someone else.\n")  # after the load
    session = EditSession(acme, today=TODAY)
    with pytest.raises(ConflictError):
        session.run("create", lambda p: write_document(p, plan, today=TODAY))
    assert not (acme.root / "billing/late-fees.md").exists()
    assert changed(before, files(acme.root)) == {"billing/index.md"}  # the other program's
    assert session.done == [] and acme.store.undo_stack == [] and acme.store.redo_stack == []


def test_a_dry_run_writes_nothing(acme: Package) -> None:
    before = files(acme.root)
    diff = preview(acme, lambda p: write_document(p, late_fees(p), today=TODAY))
    assert "+++ b/billing/late-fees.md" in diff and "+* **Creation**" in diff
    assert files(acme.root) == before


# --- bundles ----------------------------------------------------------------------------------


def test_a_new_bundle_is_a_folder_an_index_and_an_entry_undone_as_one(demo: Package) -> None:
    before = files(demo.root)
    plan = plan_bundle(
        demo,
        "incidents/drills",
        title="Game-day drills",
        description="Failover drills and game days: schedule, scripts and reports.",
    )
    assert plan.index_text == "# Game-day drills\n"
    assert plan.placement.section == "After the incident"  # where the other bundle is
    session = run(demo, lambda p: write_bundle(p, plan, today=TODAY))
    after = files(demo.root)
    assert changed(before, after) == {"incidents/drills/index.md", "incidents/index.md", "log.md"}
    assert after["incidents/index.md"].endswith(
        b"* [Game-day drills](drills/) - Failover drills and game days: schedule, scripts "
        b"and reports.\n"
    )
    assert (
        b"* **Creation**: Created the bundle [Game-day drills](/incidents/drills/index.md)."
        in (after["log.md"])
    )
    assert "incidents/drills" in demo.folders
    session.undo()
    assert files(demo.root) == before and not (demo.root / "incidents/drills").exists()
    assert "incidents/drills" not in demo.folders
    session.redo()
    assert files(demo.root) == after


def test_a_new_bundle_is_refused_when_it_exists_or_its_name_breaks_the_rule(
    acme: Package,
) -> None:
    for path, message in (
        ("billing", "billing already exists"),
        ("incidents/Post_Mortems", "'Post_Mortems' is not a folder name; as in post-mortems"),
        ("nowhere/new", "nowhere/ is not a folder of this package"),
        ("log", "log is one of the package's own names"),
        ("", "required: the new bundle's folder name"),
    ):
        with pytest.raises(CreateError, match=message.replace("(", r"\(")):
            plan_bundle(acme, path, title="T", description="D.")


# --- SKILL.md -----------------------------------------------------------------------------------


@pytest.fixture
def skill_less(root: Path) -> Package:
    (root / "SKILL.md").unlink()
    return Package.open(root)


def test_the_skill_name_follows_the_agent_skills_rule(skill_less: Package) -> None:
    assert name_problems(skill_less, "orbit-handbook") == []
    assert name_problems(skill_less, "Orbit-Handbook") == [
        "Skill name 'Orbit-Handbook' must be lowercase",
        "Directory name 'orbit-handbook' must match skill name 'Orbit-Handbook'",
    ]
    assert "Skill name cannot contain consecutive hyphens" in name_problems(
        skill_less, "orbit--handbook"
    )
    assert name_problems(skill_less, "") == ["Field 'name' must be a non-empty string"]
    assert skill_problems(skill_less, "orbit-handbook", "x" * 1025) == {
        "description": ["Description exceeds 1024 character limit (1025 chars)"]
    }
    with pytest.raises(CreateError, match="must be lowercase") as caught:
        plan_skill(skill_less, description="The handbook.", name="Orbit")
    assert caught.value.field == "name"


def test_the_new_skill_md_has_the_skeleton_and_passes_its_checks(skill_less: Package) -> None:
    assert not has_skill(skill_less)
    before = files(skill_less.root)
    description = (
        "Engineering handbook of Orbit: on-call, incidents, releases. "
        "Use when asked how Orbit staff handle a page or a release."
    )
    plan = plan_skill(skill_less, description=description)
    head, body = plan.text.split("---\n", 2)[1:]
    assert head == f"name: orbit-handbook\ndescription: '{description}'\n"
    sections = [line for line in body.splitlines() if line.startswith("## ")]
    assert sections == [
        "## Scope",
        "## Exclusions",
        "## Navigation",
        "## Entry points",
        "## Freshness",
        "## When to stop",
    ]
    points = body.split("## Entry points\n\n")[1].split("\n\n")[0].splitlines()
    assert points[0] == "- [Root index](index.md): every bundle of the package, one sentence each."
    assert points[1].startswith("- [Incidents](incidents/index.md): Severity levels SEV1")
    assert len(points) == 7  # the index and its six bundles, the biggest first
    session = run(skill_less, lambda p: write_skill(p, plan, today=TODAY))
    assert changed(before, files(skill_less.root)) == {"SKILL.md", "log.md"}
    assert (skill_less.root / "SKILL.md").read_text() == plan.text
    report = check(Package.open(skill_less.root), agent_ready=True, today=TODAY)
    assert not [f for f in report.findings if f.code.startswith("KAS00")]
    assert report.count("error") == 0
    with pytest.raises(CreateError, match="has a SKILL.md already"):
        plan_skill(skill_less, description=description)
    session.undo()
    assert files(skill_less.root) == before and skill_less.skill is None


def test_a_new_draft_never_goes_where_the_retired_documents_of_its_type_are(
    demo: Package,
) -> None:
    """oncall/index.md keeps its one deprecated runbook under "Retired": a new Runbook
    went there, as the only section whose documents were mostly runbooks."""
    plan = plan_document(
        demo,
        "oncall",
        title="Paging a second responder",
        description="How to page a second responder during an incident.",
        type="Runbook",
    )
    assert plan.placement.section == "Paging and escalation"
    run(demo, lambda p: write_document(p, plan, today=TODAY))
    index = parse_index((demo.root / "oncall/index.md").read_text("utf-8"))
    (entry,) = [e for e in index.entries if e.target == "paging-a-second-responder.md"]
    assert entry.section == "Paging and escalation"  # written where the plan said
