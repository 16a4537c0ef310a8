"""A small real evaluation of the demo package, for the tests of the evaluation screen.

Four questions of orbit-handbook: three the lexical navigator reaches, one it misses
(``webhook``: the root index's entry for incidents/, on line 10, does not mention the
billing webhook backlog, so the walk opens Billing support instead).
"""

from __future__ import annotations

import json
from pathlib import Path

from kas_tui.evaluate.model import Question
from kas_tui.evaluate.report import evaluation_record
from kas_tui.evaluate.runner import Evaluation, evaluate, new_eval_dir
from kas_tui.fileio import atomic_write
from kas_tui.package import Package

QUESTIONS = (
    Question(
        "escalation",
        "who gets paged when the primary does not acknowledge",
        ("oncall/escalation-policy.md",),
    ),
    Question("error-budget", "what is the error budget policy", ("slos/error-budget-policy.md",)),
    Question(
        "webhook",
        "which webhook backlog hit billing in august",
        ("incidents/postmortems/2026-08-05-billing-webhook-backlog.md",),
    ),
    Question("access", "how do I get access to production", ("security/access-requests.md",)),
)
MISSED = "webhook"
#: The blamed entry of the missed question (root index, line 10: Incidents) and the entry
#: the walk opened instead (line 19: Billing support).
BLAMED = ("index.md", 10)
CHOSEN = ("index.md", 19)
#: A fixed date for reports shown in snapshots.
DATE = "2026-12-02T17:30:00Z"


def make_evaluation(
    root: Path, *, ablations: tuple[str, ...] = ("descriptions",), date: str | None = None
) -> tuple[Evaluation, Path]:
    """Evaluate ``root`` on :data:`QUESTIONS` into a new evaluation folder (under
    KAS_TUI_DATA_DIR) with its report.json, as ``kas-tui eval`` does."""
    package = Package.open(root)
    out = new_eval_dir(root)
    ev = evaluate(package, QUESTIONS, ablations=ablations, out_dir=out, questions_source="q.jsonl")
    record = evaluation_record(ev)
    if date is not None:
        record["date"] = date
    atomic_write(out / "report.json", json.dumps(record, indent=2).encode("utf-8"))
    return ev, out
