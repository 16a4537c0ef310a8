"""A small real evaluation of the demo package, for the tests of the evaluation screen.

Four questions of orbit-handbook: three the lexical navigator reaches, one it misses
(``webhook``: the root index's entry for incidents/, on line 10, does not mention the
billing webhook backlog, so the walk opens Billing support instead).

And a package of two small bundles (:func:`payments`) whose entries can be made to
mislead (:func:`misleading_root`: the refund question is then reached late, a detour).
"""

from __future__ import annotations

import json
from pathlib import Path

from kas_tui.core.fileio import atomic_write
from kas_tui.core.package import Package
from kas_tui.features.evaluate.report import evaluation_record
from kas_tui.features.evaluate.runner import Evaluation, evaluate, new_eval_dir
from kas_tui.features.evaluate.runs import Question

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
    root: Path,
    *,
    ablations: tuple[str, ...] = ("descriptions",),
    date: str | None = None,
    questions: tuple[Question, ...] = QUESTIONS,
) -> tuple[Evaluation, Path]:
    """Evaluate ``root`` on :data:`QUESTIONS` into a new evaluation folder (under
    KAS_TUI_DATA_DIR) with its report.json, as ``kas-tui eval`` does."""
    package = Package.open(root)
    out = new_eval_dir(root)
    ev = evaluate(package, questions, ablations=ablations, out_dir=out, questions_source="q.jsonl")
    record = evaluation_record(ev)
    if date is not None:
        record["date"] = date
    atomic_write(out / "report.json", json.dumps(record, indent=2).encode("utf-8"))
    return ev, out


# --- a small package of two bundles, for blame ------------------------------------------


def doc(title: str, description: str, body: str, type_: str = "Procedure") -> str:
    return (
        f"---\ntype: {type_}\ntitle: {title}\ndescription: {description}\n---\n"
        f"# {title}\n\n{body}\n"
    )


SKILL = (
    "---\nname: {name}\ndescription: Handbook of a payments team - refunds, payouts, "
    "incidents. Use for any payments support question.\n---\n# Handbook\n\n"
    "Start at `/index.md`: it lists the bundles with one sentence each.\n"
)


def make_package(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    (root / "SKILL.md").write_text(SKILL.format(name=root.name), encoding="utf-8")
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def payments(tmp_path: Path) -> Path:
    """Two bundles whose titles alone do not tell the documents apart."""
    return make_package(
        tmp_path / "payments",
        {
            "index.md": "# Payments\n\n"
            "* [Money back](money/) - Refunds to cards, chargebacks and disputed charges.\n"
            "* [Operations](ops/) - Outages, paging, the on-call rotation and status updates.\n",
            "money/index.md": "# Money back\n\n"
            "* [Guide A](guide-a.md) - How to refund a card payment in the dashboard.\n"
            "* [Guide B](guide-b.md) - Answering a chargeback notice from the bank.\n",
            "money/guide-a.md": doc(
                "Guide A",
                "How to refund a card payment in the dashboard.",
                "Open the payment, choose Refund and enter the amount. Refunds reach the "
                "card in five to ten days.",
            ),
            "money/guide-b.md": doc(
                "Guide B",
                "Answering a chargeback notice from the bank.",
                "Upload the receipt and the delivery proof within seven days of the notice.",
            ),
            "ops/index.md": "# Operations\n\n"
            "* [Paging](paging.md) - Who is paged for an outage and how to escalate.\n",
            "ops/paging.md": doc(
                "Paging",
                "Who is paged for an outage and how to escalate.",
                "The primary on-call engineer is paged first; after 15 minutes the secondary.",
            ),
        },
    )


REFUND = Question("q1", "How do I refund a card payment?", ("money/guide-a.md",))


def misleading_root(root: Path) -> Path:
    """The root entries of ``payments`` with the refund words moved to Operations: the
    walk opens ops/ first, is disappointed, and comes back to money/."""
    (root / "index.md").write_text(
        "# Payments\n\n"
        "* [Money back](money/) - Money returned to customers.\n"
        "* [Operations](ops/) - Refund a card payment outage, paging.\n",
        encoding="utf-8",
    )
    return root


#: Stand-ins for the claude, codex and gemini CLIs (not the real programs): see
#: standin_agents/standin.py. They read SKILL.md, the root index and
#: ``STANDIN_PAGE`` (escalation-policy.md, QUESTIONS[0]'s gold) and answer.
STANDIN_AGENTS = Path(__file__).parent / "standin_agents"


def standins_first_on_path(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Put the stand-in agent CLIs first on PATH."""
    import os

    monkeypatch.setenv("PATH", f"{STANDIN_AGENTS}{os.pathsep}{os.environ.get('PATH', '')}")


def write_questions(path: Path, questions: tuple[Question, ...] = QUESTIONS[:2]) -> Path:
    """A question set file of ``questions`` (JSON Lines)."""
    path.write_text("".join(json.dumps(q.record()) + "\n" for q in questions), encoding="utf-8")
    return path
