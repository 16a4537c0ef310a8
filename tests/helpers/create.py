"""What the creation tests share: a fixed clock, and the runbook both faces write."""

from __future__ import annotations

import pytest

from kas_tui.core.okf.timestamp import Timestamp
from kas_tui.features.importing.draft import GENERATOR

#: The ``generated.at`` of every document created under :func:`fixed_clock`.
NOW = "2026-11-30T10:00:00Z"
DESCRIPTION = "How to rotate the Stripe API key without downtime."
#: The runbook "Rotate the Stripe key" created in the demo's incidents bundle, tagged
#: stripe and secrets (the demo writes tags as a flow list, generated as { by, at }).
RUNBOOK = (
    "---\n"
    "type: Runbook\n"
    "title: Rotate the Stripe key\n"
    f"description: {DESCRIPTION}\n"
    "tags: [stripe, secrets]\n"
    f"generated: {{ by: {GENERATOR}, at: {NOW} }}\n"
    "status: draft\n"
    "---\n"
    "# Rotate the Stripe key\n\n"
    f"{DESCRIPTION}\n\n"
    "## When to use\n\n## Steps\n\n## Verify\n\n## Roll back\n"
)


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """``generated.at`` of a new document is :data:`NOW`."""
    monkeypatch.setattr(
        "kas_tui.features.create.documents.now_timestamp", lambda now=None: Timestamp(NOW)
    )
