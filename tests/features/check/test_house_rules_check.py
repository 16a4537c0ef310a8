"""``check`` enforces the package's own rules (``.kas-tui.yaml``, issue 35), and
``profile init`` drafts rules the package passes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kas_tui.cli.main import main

DEMO = Path(__file__).resolve().parents[3] / "demo_kb" / "orbit-handbook"


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def pkg(tmp_path: Path) -> Path:
    root = tmp_path / "orbit-handbook"
    shutil.copytree(DEMO, root)
    return root


def findings(capsys, root: Path, *argv: str) -> tuple[int, list[dict]]:
    code = main(["check", str(root), "--format", "json", *argv])
    data = json.loads(capsys.readouterr().out)
    return code, [f for f in data["findings"] if f["code"].startswith("PRF")]


def test_a_required_field_is_reported_on_every_document_without_it(pkg: Path, capsys) -> None:
    (pkg / ".kas-tui.yaml").write_text("profile:\n  fields:\n    owner: {required: true}\n")
    code, found = findings(capsys, pkg)
    documents = {f["path"] for f in found}
    without = {
        p.relative_to(pkg).as_posix()
        for p in pkg.rglob("*.md")
        if p.name not in ("index.md", "log.md", "SKILL.md") and "\nowner:" not in p.read_text()
    }
    assert documents == without and len(without) > 20
    assert {f["code"] for f in found} == {"PRF001"} and {f["severity"] for f in found} == {
        "warning"
    }
    first = found[0]
    assert first["message"].endswith("the package requires it of every document (.kas-tui.yaml:3)")
    assert code == 0  # warnings: the run still passes


def test_types_vocabulary_length_and_freshness(pkg: Path, capsys) -> None:
    (pkg / ".kas-tui.yaml").write_text(
        "profile:\n"
        "  fields:\n"
        "    tags: {values: [billing, on-call, security, incidents]}\n"
        "  types: [Runbook, Policy, FAQ, Procedure]\n"
        "  by_type:\n"
        "    Postmortem: {freshness_days: 30}\n"
        "  description: {max_chars: 120}\n"
    )
    code, found = findings(capsys, pkg, "--today", "2026-12-05")
    by_code = {}
    for f in found:
        by_code.setdefault(f["code"], []).append(f)
    assert any(
        "type 'Reference' is not one the package allows" in f["message"] for f in by_code["PRF003"]
    )
    assert all(f["message"].endswith("(.kas-tui.yaml:4)") for f in by_code["PRF003"])
    assert any("not in the package's list" in f["message"] for f in by_code["PRF002"])
    assert all("characters; the package allows 120" in f["message"] for f in by_code["PRF004"])
    assert all("a Postmortem is reviewed every 30 days" in f["message"] for f in by_code["PRF005"])
    line_of_type = next(f for f in by_code["PRF003"])["line"]
    assert line_of_type == 2  # the 'type:' line of the document


def test_enforce_makes_them_errors_and_select_ignore_work(pkg: Path, capsys) -> None:
    (pkg / ".kas-tui.yaml").write_text(
        "profile:\n  enforce: true\n  fields:\n    owner: {required: true}\n  types: [Runbook]\n"
    )
    code, found = findings(capsys, pkg)
    assert code == 1 and {f["severity"] for f in found} == {"error"}
    code, found = findings(capsys, pkg, "--ignore", "PRF001")
    assert {f["code"] for f in found} == {"PRF003"}
    code, found = findings(capsys, pkg, "--ignore", "PRF")
    assert code == 0 and found == []


def test_a_malformed_profile_exits_2_naming_the_file_and_line(pkg: Path, capsys) -> None:
    (pkg / ".kas-tui.yaml").write_text("profile:\n  fields:\n    owner: {required: maybe}\n")
    assert main(["check", str(pkg)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"kas-tui check: {pkg}/.kas-tui.yaml, line 3: fields.owner.required must be true or false\n"
    )
    # elsewhere (the TUI, install) it is one error finding on the file
    from kas_tui.core.package import Package
    from kas_tui.features.check import check

    report = check(Package.open(pkg), agent_ready=True)
    (bad,) = [f for f in report.findings if f.code == "PRF000"]
    assert (bad.path, bad.line, bad.severity) == (".kas-tui.yaml", 3, "error")


def test_a_changed_profile_is_checked_again_not_remembered(pkg: Path, capsys) -> None:
    rules = pkg / ".kas-tui.yaml"
    rules.write_text(
        "profile:\n  types: [Runbook, Policy, FAQ, Procedure, Reference, Postmortem, Checklist,"
        " Glossary, Attested Computation]\n"
    )
    assert findings(capsys, pkg)[1] == []
    rules.write_text("profile:\n  types: [Runbook]\n")
    assert findings(capsys, pkg)[1] != []


def test_profile_init_drafts_rules_the_demo_passes(pkg: Path, capsys) -> None:
    assert main(["profile", "init", str(pkg)]) == 0
    text = (pkg / ".kas-tui.yaml").read_text()
    assert text.startswith("# .kas-tui.yaml: the house rules of orbit-handbook")
    assert "types: [Procedure, Policy, Runbook" in text
    assert "description: {max_chars: 200}" in text
    # fields a type's documents all hold that OKF's base schema does not define (the
    # computations' contract) are declared, so the drafted file is one check can use
    assert "required: [attester, executor, parameters, runtime," in text
    assert "    attester: {}\n" in text and "    runtime: {}\n" in text
    capsys.readouterr()
    code, found = findings(capsys, pkg, "--agent-ready")
    assert found == [] and code == 0
    assert main(["profile", "init", str(pkg)]) == 1  # already there
    assert "--force replaces it" in capsys.readouterr().err


def test_install_never_copies_the_rules_file(pkg: Path, tmp_path: Path, capsys) -> None:
    (pkg / ".kas-tui.yaml").write_text("profile:\n  fields:\n    owner: {}\n")
    project = tmp_path / "proj"
    project.mkdir()
    assert main(["install", str(pkg), "--for", "claude", "--project", str(project)]) == 0
    assert not (project / ".claude" / "skills" / "orbit-handbook" / ".kas-tui.yaml").exists()


def test_the_review_queue_lists_what_breaks_the_house_rules(pkg: Path) -> None:
    import datetime as dt

    from kas_tui.core.package import Package
    from kas_tui.features.review.queue import review_queue

    (pkg / ".kas-tui.yaml").write_text("profile:\n  types: [Runbook, Procedure]\n")
    queue = review_queue(Package.open(pkg), dt.date(2026, 12, 5))
    rows = queue.groups["house-rules"]
    assert rows and all("is not one the package allows" in r.detail for r in rows)
    assert ("billing-support/plans-and-pricing.md", 2) in [r.at for r in rows]


def test_a_new_document_gets_the_slots_the_house_rules_ask_for(pkg: Path, capsys) -> None:
    import datetime as dt

    from kas_tui.core.package import Package
    from kas_tui.features.create.documents import plan_document, types_for

    (pkg / ".kas-tui.yaml").write_text(
        "profile:\n  fields:\n    owner: {required: true}\n  types: [Runbook, Procedure]\n"
        "  by_type:\n    Runbook: {required: [stale_after, verified], freshness_days: 60}\n"
    )
    package = Package.open(pkg)
    assert types_for(package, "oncall") == ["Runbook", "Procedure"]  # only what it allows
    plan = plan_document(
        package,
        "oncall",
        title="Pager rotation swap",
        description="How two responders swap a pager shift and tell the scheduler.",
        type="Runbook",
        now=dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.timezone.utc),
    )
    assert "\nowner: ''\n" in plan.text  # a slot to fill: still reported until filled
    assert "\nstale_after: 2027-02-03T00:00:00Z\n" in plan.text  # today + the type's 60 days
    assert "verified" not in plan.frontmatter  # a new draft has not been verified
