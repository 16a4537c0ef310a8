"""Creating an Attested Computation (OKF §10): the runtime asked for, the contract's
slots and the one code block written, so the new draft passes its own rules."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.cli import main as cli
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.check.computations import contract_findings, contract_of
from kas_tui.features.create import CreateError, plan_document, write_document
from tests.helpers.create import fixed_clock  # noqa: F401

TODAY = dt.date(2026, 12, 5)
TITLE = "Error budget remaining"
DESCRIPTION = "How much of a service's 28-day error budget is left, per SLI."

pytestmark = pytest.mark.usefixtures("fixed_clock")


def test_a_computation_needs_its_runtime(demo: Package) -> None:
    for runtime in ("", "   "):
        with pytest.raises(CreateError) as caught:
            plan_document(
                demo, "slos", title=TITLE, description=DESCRIPTION,
                type="attested computation", runtime=runtime,
            )  # fmt: skip
        assert caught.value.field == "runtime" and "runtime" in caught.value.message


@pytest.mark.parametrize(
    ("runtime", "fence"), [("postgres", "```sql\n--"), ("Python", "```python\n#")]
)
def test_the_draft_holds_the_contract_and_one_block_in_the_runtimes_language(
    demo: Package, runtime: str, fence: str
) -> None:
    plan = plan_document(
        demo, "slos", title=TITLE, description=DESCRIPTION,
        type="Attested Computation", runtime=runtime,
    )  # fmt: skip
    assert plan.frontmatter["runtime"] == runtime and plan.frontmatter["parameters"] == []
    assert "## Computation\n\n" + fence in plan.text
    from kas_tui.core.edit_session import EditSession

    EditSession(demo, today=TODAY).run("create", lambda p: write_document(p, plan, today=TODAY))
    package = Package.open(demo.root)
    contract = contract_of(package, plan.path)
    assert contract is not None and contract.runtime == runtime and len(contract.blocks) == 1
    assert contract_findings(str(package.root), contract) == []
    report = check(package, agent_ready=True, today=TODAY)
    assert [f for f in report.findings if f.path == plan.path and f.code.startswith("OKF16")] == []


def test_other_types_ignore_a_runtime(demo: Package) -> None:
    plan = plan_document(
        demo, "slos", title=TITLE, description=DESCRIPTION, type="Reference", runtime="python"
    )
    assert "runtime" not in plan.frontmatter and "```" not in plan.text


def test_new_doc_takes_runtime(root: Path, capsys) -> None:
    code = cli.main(
        ["new", "doc", str(root / "slos"), "--title", TITLE, "--description", DESCRIPTION,
         "--type", "Attested Computation", "--runtime", "bigquery", "--today", "2026-12-05"]
    )  # fmt: skip
    assert code == 0, capsys.readouterr()
    written = (root / "slos/error-budget-remaining.md").read_text("utf-8")
    assert "runtime: bigquery\n" in written and "```sql\n" in written
    assert cli.main(["check", str(root), "--agent-ready", "--today", "2026-12-05"]) == 0
    capsys.readouterr()
    code = cli.main(
        ["new", "doc", str(root / "slos"), "--title", "Other", "--description", DESCRIPTION,
         "--type", "Attested Computation", "--today", "2026-12-05"]
    )  # fmt: skip
    assert code == 1 and "needs a runtime" in capsys.readouterr().err


def test_the_demos_computations_pass_the_agent_ready_check(demo: Package) -> None:
    report = check(demo, agent_ready=True, today=TODAY)
    paths = ["billing-support/refunds/refund-rate-computation.md", "slos/burn-rate-computation.md"]
    for path in paths:
        contract = contract_of(demo, path)
        assert contract is not None and contract_findings(str(demo.root), contract) == []
        assert [f.code for f in report.findings if f.path == path] == []
    assert report.count("error") == 0 and report.count("warning") == 0
