"""A small but realistic Knowledge-as-Skill package (Acme's operations handbook), written
by :func:`make_package`; the bundled demo's folder; snapshots of a folder's files."""

# ruff: noqa: E501  (index entries and descriptions are one long line each, as in real packages)

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SKILL_MD = """\
---
name: {name}
description: Operations handbook of Acme - incidents, postmortems and billing refunds. Use when answering how Acme staff handle an incident, a refund request or an invoice dispute.
license: CC-BY-4.0
metadata:
  author: acme-docs
  version: "2026.11"
---

# Acme knowledge base

Start at `index.md`, pick a bundle, then read a document's frontmatter before
its body. Treat documents past their `stale_after` date as possibly outdated.

## Stop when

The package does not cover the question: say so instead of guessing.
"""

ROOT_INDEX = """\
---
okf_version: "0.2"
---
# Acme knowledge base

Operations and billing knowledge of Acme. Start with the bundle that matches
the question.

* [Incidents](incidents/) - Severity levels, the incident response procedure and postmortems of past outages.
* [Billing](billing/index.md) - Refund policy and invoice disputes, written for support agents.
* [Glossary](glossary.md) - Terms used across the Acme handbook, from SEV1 to dunning.

# Elsewhere

* [OKF specification](https://example.org/okf/v0.2) - The format these documents follow.
"""

LOG_MD = """\
# Update log

## 2026-11-28
* **Update**: Revised [Severity levels](/incidents/severity-levels.md) after the search outage.
* **Verification**: human:dev.patel reviewed the [Refund policy](/billing/refund-policy.md).

## 2026-11-02
* **Initialization**: Created the package.
"""

GLOSSARY = """\
---
type: Reference
title: Glossary
description: Terms used across the Acme handbook, from SEV1 to dunning.
tags:
  - glossary
sources:
  - resource: https://wiki.acme.example/glossary
    title: Acme wiki glossary
generated: { by: human:maria.chen, at: 2026-02-01T09:00:00Z }
verified:
  - { by: human:dev.patel, at: 2026-02-03T10:00:00Z }
status: stable
stale_after: 2027-02-01
---

# Glossary

**SEV1**: the highest incident severity, see [Severity levels](/incidents/severity-levels.md).

**Dunning**: the emails sent after a failed payment.
"""

INCIDENT_RESPONSE = """\
---
type: Procedure
title: Incident response
description: The end-to-end procedure for a SEV1 or SEV2, from declaring the incident to the hand-off to the postmortem.
tags:
  - incidents
  # keep the list short
  - response
sources:
  - resource: https://wiki.acme.example/incident-response
    title: Incident response (wiki original)
generated: { by: human:maria.chen, at: 2026-03-18T10:00:00Z }
verified:
  - { by: human:dev.patel, at: 2026-03-20T09:00:00Z }
  - { by: process:docs-sync, at: 2026-09-23T02:00:00Z }
status: stable
stale_after: 2027-03-18T00:00:00Z
owner: team:sre
---

# Incident response

Use this for every SEV1 and SEV2; see [severity levels](/incidents/severity-levels.md).

1. Declare the incident in Slack.
2. Assign an incident commander.
3. After the incident, write a [postmortem](postmortems/2026-04-17-search-outage.md).

Customers may be owed an [SLA credit](../billing/refund-policy.md#sla-credits).
The public status page is at [status.acme.example](https://status.acme.example).

```text
Not a link: [Glossary](/glossary.md)
```
"""

SEVERITY_LEVELS = """\
---
type: Reference
title: Severity levels
description: Definitions of SEV1 to SEV4 with the customer impact that triggers each level.
tags: [incidents, severity]
sources:
  - resource: https://wiki.acme.example/severity
    title: Severity matrix
generated:
  by: kas-tui/0.3.0
  at: 2026-03-01T08:00:00Z
verified:
  - { by: process:docs-sync, at: 2026-09-23T02:00:00Z }
status: stable
stale_after: 2026-12-31
---

# Severity levels

| Level | Trigger |
| --- | --- |
| SEV1 | Acme is down for most customers. |
| SEV2 | A core feature is degraded. |

Words are defined in the [glossary](../glossary.md). The response is described in
[Incident response](./incident-response.md).
"""

POSTMORTEMS_INDEX = """\
# Postmortems

* [2026-04-17: Search outage](2026-04-17-search-outage.md) - What happened when search was down for 47 minutes, and the follow-up actions.
"""

SEARCH_OUTAGE = """\
---
type: Postmortem
title: "2026-04-17: Search outage"
description: What happened when search was down for 47 minutes, and the follow-up actions.
tags:
  - incidents
  - postmortem
sources:
  - resource: https://chat.acme.example/inc-4711
    title: Incident channel export
generated: { by: human:lena.vogel, at: 2026-04-20T15:30:00Z }
verified: []
status: draft
stale_after:
---

# 2026-04-17: Search outage

We followed the [incident response](/incidents/incident-response.md) procedure.
"""

INCIDENTS_INDEX = """\
# Triage

* [Severity levels](severity-levels.md) - Definitions of SEV1 to SEV4 with the customer impact that triggers each level.

# Running an incident

* [Incident response](incident-response.md) - The end-to-end procedure for a SEV1 or SEV2, from declaring the incident to the hand-off to the postmortem.
* [Refund policy](../billing/refund-policy.md) - When an outage entitles customers to a refund or an SLA credit.
* [Postmortems](postmortems/) - Blameless postmortems of past incidents.
"""

BILLING_INDEX = """\
# Billing

Answers for support agents handling billing tickets.

- [Refund policy](/billing/refund-policy.md) - Which charges Acme refunds in cash, which become account credit, and who approves them.
- [Invoice disputes](/billing/invoice-disputes.md) - How support triages a customer who says an invoice is wrong.
"""

REFUND_POLICY = """\
---
type: Policy
title: Refund policy
description: Which charges Acme refunds in cash, which become account credit, and who approves them.
tags: [billing, refunds]
sources:
  - id: refund-matrix
    resource: /billing/refund-matrix.csv
    title: Acme refund matrix
    last_modified: 2026-06-10T00:00:00Z
generated: { by: human:sam.okafor, at: 2026-06-10T10:00:00Z }
verified:
  - { by: human:aiko.tanaka, at: 2026-06-11T09:00:00Z }
status: stable
stale_after: 2027-06-30T00:00:00Z
---

# Refund policy

The matrix of the payments team decides.[^refund-matrix]

## SLA credits

Outages covered by [Incident response](/incidents/incident-response.md) may earn a credit.

[^refund-matrix]: Acme refund matrix, rev. 2026-06-10.
"""

INVOICE_DISPUTES = """\
---
type: Procedure
title: Invoice disputes
description: How support triages a customer who says an invoice is wrong.
tags:
  - billing
  - invoices
sources:
  - resource: https://wiki.acme.example/invoices
    title: Invoices (wiki)
generated: { by: human:sam.okafor, at: 2026-07-01T12:00:00Z }
verified:
  by: human:lena.vogel
  at: 2026-07-02
status: stable
stale_after: 2027-07-01
---

# Invoice disputes

Check the [refund policy](refund-policy.md) before promising money back.
"""

CHARGEBACKS = """\
---
type: Procedure
title: Chargebacks
description: What to do when a customer's bank reverses a payment.
tags:
  - billing
sources:
  - resource: https://docs.stripe.example/disputes
    title: Stripe disputes
generated: { by: kas-tui/0.3.0, at: 2026-11-20T08:00:00Z }
verified: []
status: draft
stale_after: 2027-01-31
---

# Chargebacks

Not listed in any index yet.
"""

REFUND_MATRIX = "case,refund,approver\nduplicate charge,100%,agent\n"

#: Root-relative path -> text of every file ``make_package`` writes (``{name}`` filled in).
FILES: dict[str, str] = {
    "SKILL.md": SKILL_MD,
    "index.md": ROOT_INDEX,
    "log.md": LOG_MD,
    "glossary.md": GLOSSARY,
    "incidents/index.md": INCIDENTS_INDEX,
    "incidents/incident-response.md": INCIDENT_RESPONSE,
    "incidents/severity-levels.md": SEVERITY_LEVELS,
    "incidents/postmortems/index.md": POSTMORTEMS_INDEX,
    "incidents/postmortems/2026-04-17-search-outage.md": SEARCH_OUTAGE,
    "billing/index.md": BILLING_INDEX,
    "billing/refund-policy.md": REFUND_POLICY,
    "billing/invoice-disputes.md": INVOICE_DISPUTES,
    "billing/chargebacks.md": CHARGEBACKS,
    "billing/refund-matrix.csv": REFUND_MATRIX,
}

#: The concept documents of the package (every ``.md`` that is not reserved).
DOCUMENTS = sorted(
    p for p in FILES if p.endswith(".md") and p.rsplit("/", 1)[-1] not in {"index.md", "log.md"}
)
DOCUMENTS.remove("SKILL.md")


def make_package(tmp_path: Path, name: str = "acme-kb") -> Path:
    """Write the sample package to ``tmp_path / name`` and return its root.

    Layout: ``SKILL.md`` (``name`` = folder name), a root ``index.md`` with
    ``okf_version: "0.2"``, ``log.md``, a root document, the bundle ``incidents/``
    holding the nested bundle ``incidents/postmortems/``, and the bundle ``billing/``
    (``/``-rooted links, ``-`` bullets, one unlisted draft, one CSV asset).
    """
    root = Path(tmp_path) / name
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.replace("{name}", name).encode("utf-8"))
    return root


def snapshot(root: Path) -> dict[str, tuple]:
    """Everything observable about the files under ``root``: bytes, mtime and mode.

    Symlinks are recorded by their target and never followed.
    """
    out: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in sorted(dirs + files):
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            st = os.lstat(path)
            if os.path.islink(path):
                out[rel] = ("link", os.readlink(path))
            elif name in files:
                try:
                    with open(path, "rb") as handle:
                        data = handle.read()
                except OSError:
                    data = None
                out[rel] = ("file", data, st.st_mtime_ns, st.st_mode)
            else:
                out[rel] = ("dir", st.st_mode)
    return out


#: The bundled demo (a folder holding one skill, orbit-handbook).
DEMO = ROOT / "demo_kb"


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` and its bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    """The files that differ between two :func:`files` snapshots (added, removed, edited)."""
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
