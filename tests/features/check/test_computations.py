"""Attested Computation contracts (OKF §10, issue 36): read from the spec's own example,
listed by ``kas-tui computations``."""

from __future__ import annotations

import json
from pathlib import Path

from kas_tui.cli.main import main
from kas_tui.features.check.computations import read_contract
from tests.features.check.test_check_spec_examples import (
    SPEC_A_INCOME_STATEMENT,
    SPEC_A_PROFIT,
    SPEC_A_REVENUE,
)


def test_the_spec_examples_contract_is_read_as_written() -> None:
    body_line = SPEC_A_REVENUE.split("\n").index("---", 1) + 2
    body = "\n".join(SPEC_A_REVENUE.splitlines()[body_line - 1 :])
    import yaml

    meta = yaml.safe_load(SPEC_A_REVENUE.split("---\n")[1])
    contract = read_contract("computations/revenue.md", meta, body, body_line)
    assert contract.runtime == "bigquery"
    assert contract.parameter_problem() is None
    assert len(contract.blocks) == 1  # the indented block under '# Computation'
    assert contract.executor == "references/skills/run-on-bq.md"
    assert contract.receipt and contract.attester


def test_kas_tui_computations_lists_every_contract(tmp_path: Path, capsys) -> None:
    root = tmp_path / "finance"
    for rel, text in {
        "computations/revenue.md": SPEC_A_REVENUE,
        "computations/profit.md": SPEC_A_PROFIT,
        "metrics/income-statement.md": SPEC_A_INCOME_STATEMENT,
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    assert main(["computations", str(root), "--format", "json", "--today", "2026-12-05"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = {row["path"]: row for row in data["computations"]}
    assert set(rows) == {"computations/revenue.md", "computations/profit.md"}
    assert rows["computations/profit.md"]["runtime"] == "dbt"
    assert [p["name"] for p in rows["computations/profit.md"]["parameters"]] == ["year", "segment"]
    assert rows["computations/revenue.md"]["computation"].startswith("computations/revenue.md:")
    assert rows["computations/profit.md"]["staleness"] == "stale"


def test_the_review_queue_puts_stale_computations_first(tmp_path: Path) -> None:
    """OKF §10.5: a consumer refuses a computation past its stale_after."""
    import datetime as dt

    from kas_tui.core.package import Package
    from kas_tui.features.review.queue import review_queue

    root = tmp_path / "finance"
    (root / "a-metrics").mkdir(parents=True)
    (root / "a-metrics" / "old-page.md").write_text(
        "---\ntype: Metric\ntitle: Old\ndescription: An old page.\n"
        "stale_after: 2026-01-01T00:00:00Z\n---\nBody.\n"
    )
    (root / "computations").mkdir()
    (root / "computations" / "profit.md").write_text(SPEC_A_PROFIT)
    queue = review_queue(Package.open(root), dt.date(2026, 12, 5))
    stale = queue.groups["stale"]
    assert [r.path for r in stale] == ["computations/profit.md", "a-metrics/old-page.md"]
    assert stale[0].detail.endswith("an Attested Computation, which consumers refuse to run")
