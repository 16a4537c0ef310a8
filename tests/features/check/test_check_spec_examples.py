"""The examples of the OKF v0.2 specification are conformant: ``check`` finds no error.

The examples are copied from ``okf-spec-v0.2.md`` (Open Knowledge Format v0.2) as string
literals, since CI has no copy of the specification. Each constant names the section it
comes from. The frontmatter fragments of §5 are not whole documents; they are wrapped
in a document with a ``type`` (the only required key, §4.1).
"""

# ruff: noqa: E501  (the examples are copied verbatim)

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.check import codes, describe, run, with_code, write_package

# §4.3 Example: a concept bound to a resource
SPEC_4_3 = """\
---
type: BigQuery Table
title: Customer Orders
description: One row per completed customer order across all channels.
resource: https://console.cloud.google.com/bigquery?p=acme&d=sales&t=orders
tags: [sales, orders, revenue]
generated: { by: reference_agent/gemini-2.5-pro, at: 2026-05-28T14:30:00Z }
---

# Schema

| Column        | Type      | Description                              |
|---------------|-----------|------------------------------------------|
| `order_id`    | STRING    | Globally unique order identifier.        |
| `customer_id` | STRING    | Foreign key into [customers](/tables/customers.md). |
| `total_usd`   | NUMERIC   | Order total in US dollars.               |
| `placed_at`   | TIMESTAMP | When the customer submitted the order.   |

# Joins

Joined with [customers](/tables/customers.md) on `customer_id`.
"""

# §4.4 Example: a concept not bound to a resource
SPEC_4_4 = """\
---
type: Playbook
title: "Incident response: data freshness alert"
description: Steps to triage a freshness alert on the orders pipeline.
tags: [oncall, incident]
generated: { by: human:ahormati, at: 2026-04-12T09:00:00Z }
---

# Trigger

A freshness alert fires when `orders` lags more than 30 minutes behind its
expected SLA. See the [orders table](/tables/orders.md).

# Steps

1. Check the [ingestion job dashboard](https://example.com/dash).
2. ...
"""

# §4.1 Frontmatter: "a concept carrying just `type` is fully conformant"
SPEC_4_1_TYPE_ONLY = "---\ntype: Reference\n---\n"

# §5.1 Provenance: sources (with the usage_window sibling) and a per-claim footnote
SPEC_5_1 = """\
---
type: Reference
sources:
  - id: ga4-schema
    resource: https://developers.google.com/analytics/bigquery/export-schema
    title: GA4 BigQuery Export schema
    author: team:ga4-docs
    usage_count: 5000
    last_modified: 2026-05-30T00:00:00Z
usage_window: { from: 2026-06-01T00:00:00Z, to: 2026-06-30T00:00:00Z }
---

The `events_` table is sharded daily as `events_YYYYMMDD`.[^ga4-schema]

[^ga4-schema]: GA4 BigQuery Export schema
"""

# §5.2 Trust: generated and verified (list form)
SPEC_5_2_LIST = """\
---
type: Reference
generated: { by: reference_agent/gemini-2.5-pro, at: 2026-06-20T22:53:05Z }
verified:
  - { by: human:ahormati, at: 2026-06-25T09:00:00Z }
  - { by: process:finance-nightly, at: 2026-06-26T02:00:00Z }
---
"""

# §5.2 Trust: a single verifier as a bare mapping
SPEC_5_2_BARE = """\
---
type: Reference
verified: { by: human:ahormati, at: 2026-06-25T09:00:00Z }
---
"""

# §5.4 Lifecycle: status, and §5.5 Lifecycle: stale_after
SPEC_5_4_5_5 = """\
---
type: Reference
status: stable        # draft | stable | deprecated
stale_after: 2026-09-23T00:00:00Z   # content is stale on/after this instant
---
"""

# §8 Index files (a bundle-root index.md)
SPEC_8_INDEX = """\
# Section / Group Heading

* [Title 1](relative-url-1) - short description of item 1
* [Title 2](relative-url-2) - short description of item 2

# Another Section

* [Subdirectory](subdir/) - short description of the subdirectory
"""

# §9 Log files
SPEC_9_LOG = """\
# Directory Update Log

## 2026-05-22
* **Update**: Added a BigQuery table reference for [Customer Metrics](/tables/customer-metrics.md).
* **Creation**: Established the [Dataplex Playbook](/playbooks/dataplex.md).

## 2026-05-15
* **Initialization**: Created foundational directory structure.
"""

# §10.2 Contract fields: an Attested Computation concept
SPEC_10_2 = """\
---
type: Attested Computation
title: Revenue for fiscal year
description: Recognized revenue for a fiscal year, per Finance's definition.
status: stable
runtime: bigquery
parameters:
  - { name: year, type: integer, required: true }
executor:
  resource: references/skills/run-on-bq.md
  receipt: [job_id, executed_sql, result]
attester:
  resource: references/attesters/revenue.py
generated: { by: reference_agent/gemini-2.5-pro, at: 2026-06-20T22:53:05Z }
verified: { by: human:ahormati, at: 2026-06-25T09:00:00Z }
stale_after: 2026-09-23T00:00:00Z
sources:
  - id: rev-policy
    resource: https://wiki.acme/finance/revenue-recognition
    title: Revenue recognition policy
---

# Computation

    SELECT SUM(amount) AS revenue
    FROM finance.recognized_revenue
    WHERE fiscal_year = @year

The computation binds only the declared `parameters`, per the recognition
policy.[^rev-policy]

[^rev-policy]: Revenue recognition policy
"""

# Appendix A, v0.2 form: metrics/income-statement.md
SPEC_A_INCOME_STATEMENT = """\
---
type: Metric
title: Income statement (fiscal year)
description: Headline income-statement figures for a fiscal year.
tags: [finance, income-statement]
status: stable
generated: { by: reference_agent/gemini-2.5-pro, at: 2026-06-20T22:53:05Z }
verified: { by: human:ahormati, at: 2026-06-25T09:00:00Z }
stale_after: 2026-12-31T00:00:00Z
sources:
  - id: fpa-handbook
    resource: https://wiki.acme/finance/fpa-handbook
    title: FP&A reporting handbook
---

# Definition
The income statement reports [revenue](../computations/revenue.md) and
[gross profit](../computations/profit.md) for a fiscal year, per the FP&A
reporting handbook.[^fpa-handbook] Each figure is produced by a sanctioned,
attestable computation; this concept only narrates them.

[^fpa-handbook]: FP&A reporting handbook
"""

# Appendix A, v0.2 form: computations/revenue.md
SPEC_A_REVENUE = """\
---
type: Attested Computation
title: Revenue for fiscal year
description: Recognized revenue for a fiscal year, per Finance's definition.
tags: [finance, revenue]
status: stable
runtime: bigquery
parameters:
  - { name: year, type: integer, required: true }
executor:
  resource: references/skills/run-on-bq.md
  receipt: [job_id, executed_sql, result]
attester:
  resource: references/attesters/sql-equality.py
generated: { by: reference_agent/gemini-2.5-pro, at: 2026-06-28T14:00:00Z }
verified: { by: human:ahormati, at: 2026-06-25T09:00:00Z }
stale_after: 2026-12-31T00:00:00Z
sources:
  - id: rev-policy
    resource: https://wiki.acme/finance/revenue-recognition
    title: Revenue recognition policy
    author: team:finance-fpa
    last_modified: 2026-04-02T00:00:00Z
  - id: exec-rev-dash
    resource: dashboards/exec-revenue
    title: Executive revenue dashboard
    author: team:finance-fpa
    usage_count: 5000
    last_modified: 2026-06-18T00:00:00Z
usage_window: { from: 2026-06-01T00:00:00Z, to: 2026-06-30T00:00:00Z }
---

# Computation

    SELECT SUM(amount) AS revenue
    FROM finance.recognized_revenue
    WHERE fiscal_year = @year

Recognized revenue per the recognition policy,[^rev-policy] corroborated by
the executive revenue dashboard.[^exec-rev-dash]

[^rev-policy]: Revenue recognition policy
[^exec-rev-dash]: Executive revenue dashboard
"""

# Appendix A, v0.2 form: computations/profit.md (process-verified, past its stale_after)
SPEC_A_PROFIT = """\
---
type: Attested Computation
title: Gross profit for fiscal year
description: Gross profit by segment for a fiscal year, per the cost-allocation standard.
tags: [finance, profit]
status: stable
runtime: dbt
parameters:
  - { name: year, type: integer, required: true }
  - { name: segment, type: string, required: true }
executor:
  resource: references/skills/run-dbt.md
  receipt: [run_id, compiled_sql, result]
attester:
  resource: references/attesters/dbt-binding.py
generated: { by: reference_agent/gemini-2.5-pro, at: 2026-06-14T14:00:00Z }
verified: { by: process:finance-nightly, at: 2026-06-12T08:00:00Z }
stale_after: 2026-06-15T00:00:00Z
sources:
  - id: cost-alloc
    resource: https://wiki.acme/finance/cost-allocation
    title: Cost allocation standard
---

# Computation

    SELECT gross_profit
    FROM {{ ref('fct_income_statement') }}
    WHERE fiscal_year = {{ var('year') }}
      AND segment = {{ var('segment') }}

Gross profit by segment per the cost-allocation standard.[^cost-alloc]

[^cost-alloc]: Cost allocation standard
"""

# Appendix A, v0.1 form: legacy fields warn, never fail (§13.1)
SPEC_A_V01 = """\
---
type: Metric
title: Income statement (fiscal year)
description: Headline income-statement figures for a fiscal year.
tags: [finance, income-statement]
timestamp: '2026-05-28T22:53:05+00:00'
---

# Definition
The income statement reports revenue and gross profit for a fiscal year.

# Revenue
Recognized revenue sums `amount` over rows booked to the fiscal year:

    SELECT SUM(amount) AS revenue
    FROM finance.recognized_revenue
    WHERE fiscal_year = <year>

# Gross profit
Gross profit by segment, per the cost-allocation standard:

    SELECT gross_profit FROM fct_income_statement
    WHERE fiscal_year = <year> AND segment = <segment>

# Citations
- https://wiki.acme/finance/fpa-handbook
- https://wiki.acme/finance/revenue-recognition
- https://wiki.acme/finance/cost-allocation
"""

#: Each example alone in a package, with the only warnings it may cause.
EXAMPLES: dict[str, tuple[dict[str, str], set[str]]] = {
    # links to /tables/customers.md, a concept the example does not include (§6.1: tolerated)
    "4.3-bound-to-resource": ({"tables/orders.md": SPEC_4_3}, {"OKF120"}),
    "4.4-not-bound": (
        {"playbooks/freshness.md": SPEC_4_4, "tables/orders.md": SPEC_4_3},
        {"OKF120"},
    ),
    "4.1-type-only": ({"concept.md": SPEC_4_1_TYPE_ONLY}, set()),
    "5.1-sources": ({"events.md": SPEC_5_1}, set()),
    "5.2-verified-list": ({"trusted.md": SPEC_5_2_LIST}, set()),
    "5.2-verified-bare": ({"trusted.md": SPEC_5_2_BARE}, set()),
    "5.4-5.5-lifecycle": ({"lifecycle.md": SPEC_5_4_5_5}, set()),
    "8-index": ({"index.md": SPEC_8_INDEX, "subdir/index.md": SPEC_8_INDEX}, set()),
    "8-12-index-okf-version": (
        {"index.md": '---\nokf_version: "0.2"\n---\n' + SPEC_8_INDEX},
        set(),
    ),
    "9-log": ({"log.md": SPEC_9_LOG, "tables/log.md": SPEC_9_LOG}, set()),
    # the executor and attester files it names are not part of the example (OKF165: a
    # dead end for a consumer, tolerated as a link to a missing concept is)
    "10.2-attested-computation": ({"computations/revenue.md": SPEC_10_2}, {"OKF165"}),
    "A-v0.2": (
        {
            "metrics/income-statement.md": SPEC_A_INCOME_STATEMENT,
            "computations/revenue.md": SPEC_A_REVENUE,
            "computations/profit.md": SPEC_A_PROFIT,
        },
        {"OKF165"},
    ),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_spec_example_is_conformant(tmp_path: Path, name: str) -> None:
    files, allowed_warnings = EXAMPLES[name]
    report = run(write_package(tmp_path, files, name="finance", base=False))
    assert report.count("error") == 0, describe(report)
    warnings = {f.code for f in report.findings if f.severity == "warning"}
    assert warnings <= allowed_warnings, describe(report)


def test_spec_bundle_as_a_whole_is_conformant(tmp_path: Path) -> None:
    """All v0.2 examples in one bundle (§3 layout), with the §8 index and the §9 log."""
    files = {"index.md": '---\nokf_version: "0.2"\n---\n' + SPEC_8_INDEX, "log.md": SPEC_9_LOG}
    for name, (example, _) in EXAMPLES.items():
        if not name.startswith(("8", "9", "10.2")):
            files.update(example)
    report = run(write_package(tmp_path, files, name="finance", base=False))
    assert report.count("error") == 0, describe(report)
    assert {f.path for f in with_code(report, "OKF120")} == {"tables/orders.md"}
    # Appendix A's profit.md (stale_after 2026-06-15) and §5.5's 2026-09-23 are past.
    assert [f.path for f in with_code(report, "OKF140")] == [
        "computations/profit.md",
        "lifecycle.md",
    ]


def test_spec_footnotes_resolve_to_sources(tmp_path: Path) -> None:
    """§5.1: every footnote label of the examples is a sources[].id."""
    files = {
        "events.md": SPEC_5_1,
        "computations/revenue.md": SPEC_A_REVENUE,
        "computations/profit.md": SPEC_A_PROFIT,
        "metrics/income-statement.md": SPEC_A_INCOME_STATEMENT,
    }
    report = run(write_package(tmp_path, files, name="finance", base=False))
    assert not with_code(report, "OKF109"), describe(report)


def test_spec_v01_form_warns_but_does_not_fail(tmp_path: Path) -> None:
    """§13.1: a v0.1 document is consumable; its legacy fields are warnings."""
    report = run(write_package(tmp_path, {"metrics/income-statement.md": SPEC_A_V01}, base=False))
    assert report.count("error") == 0, describe(report)
    assert [f.line for f in with_code(report, "OKF110")] == [6, 25], describe(report)
    assert codes(report) == {"OKF110"}, describe(report)
