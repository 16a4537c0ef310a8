"""What runs amount to: reach, turns, tokens, per question, overall and by bundle.

- **reached**: a gold document was read in full (``readfile``; a peek does not count).
- **turns**: tool calls made, ``submit_answer`` included (the walk's count; for a real
  agent, its reads and listings inside the skill, and its answer).
- **tokens**: what the calls and their results cost, as the walk estimates them (the
  catalog entry left out: it is the same for every question); for a real agent whose
  transcript reports usage, its usage: input + output tokens (``tokens_source``).
- **turns / tokens to gold**: the same, up to and including the first gold read, over
  the runs that reached one: what finding the answer cost, without what a navigator
  did after it (a lexical walk wanders on to its budget). ``None`` when no run has the
  figure (an agent whose usage comes only as a total has no tokens to gold).
- **within**: reached on or before turn ``within`` (4 by default: activate the skill,
  read the root index, read a bundle's index, read the document).
- **off-path**: documents read in full that are not gold.
- **repeated**: runs stopped for making the same call three times (an LLM's loop).
"""

from __future__ import annotations

import posixpath
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kas_tui.features.evaluate.runs import BUDGET, ESTIMATE, FAILED, GAVE_UP, REPEATED, Run

#: Reach is also reported within this many turns.
WITHIN = 4


@dataclass(frozen=True)
class Overall:
    """Figures over a set of runs (all of an evaluation, or one bundle's)."""

    questions: int
    reached: int
    reached_within: int
    within: int
    median_turns: float
    median_tokens: float
    gave_up: int
    out_of_budget: int
    failed: int
    off_path: int  # documents read that were not gold, summed
    median_turns_to_gold: float | None = None
    median_tokens_to_gold: float | None = None
    tokens_source: str = ESTIMATE
    repeated: int = 0  # runs stopped for repeating a call

    @property
    def reach(self) -> float:
        return self.reached / self.questions if self.questions else 0.0

    @property
    def reach_within(self) -> float:
        return self.reached_within / self.questions if self.questions else 0.0

    def record(self) -> dict[str, object]:
        return {
            "questions": self.questions,
            "reached": self.reached,
            "reach": round(self.reach, 4),
            "reached_within": self.reached_within,
            "reach_within": round(self.reach_within, 4),
            "within_turns": self.within,
            "median_turns": self.median_turns,
            "median_tokens": self.median_tokens,
            "gave_up": self.gave_up,
            "out_of_budget": self.out_of_budget,
            "failed": self.failed,
            "off_path_reads": self.off_path,
            "median_turns_to_gold": self.median_turns_to_gold,
            "median_tokens_to_gold": self.median_tokens_to_gold,
            "tokens_source": self.tokens_source,
            "stopped_repeating": self.repeated,
        }


def on_time(turn_to_gold: int | None, within: int = WITHIN) -> bool:
    """Whether a gold document first read on turn ``turn_to_gold`` (``None``: never)
    counts as reached within ``within`` turns: the one test of it (the figures, blame's
    detours and the evaluation screen ask it here)."""
    return turn_to_gold is not None and turn_to_gold <= within


def reached_within(run: Run, within: int = WITHIN) -> bool:
    return on_time(run.turns_to_gold, within)


def overall(runs: Sequence[Run], within: int = WITHIN) -> Overall:
    """The figures over ``runs``."""
    return Overall(
        questions=len(runs),
        reached=sum(r.reached for r in runs),
        reached_within=sum(reached_within(r, within) for r in runs),
        within=within,
        median_turns=_median(r.summary.turns for r in runs),
        median_tokens=_median(r.tokens for r in runs),
        gave_up=sum(r.ended == GAVE_UP for r in runs),
        out_of_budget=sum(r.ended == BUDGET for r in runs),
        failed=sum(r.ended == FAILED for r in runs),
        off_path=sum(len(r.off_path) for r in runs),
        median_turns_to_gold=_median_known(r.turns_to_gold for r in runs),
        median_tokens_to_gold=_median_known(r.tokens_to_gold for r in runs),
        tokens_source=tokens_source(runs),
        repeated=sum(r.ended == REPEATED for r in runs),
    )


def tokens_source(runs: Sequence[Run]) -> str:
    """``usage`` when every run's tokens are an agent's usage, ``estimate`` when none
    are, ``mixed`` otherwise."""
    sources = {r.token_source for r in runs}
    return sources.pop() if len(sources) == 1 else ESTIMATE if not sources else "mixed"


def _median_known(values: Iterable[int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return float(statistics.median(known)) if known else None


def bundle_of(path: str) -> str:
    """The top-level bundle a package path belongs to (``''``: the package root)."""
    folder = posixpath.dirname(path)
    return folder.split("/", 1)[0] if folder else ""


def by_bundle(runs: Sequence[Run], within: int = WITHIN) -> dict[str, Overall]:
    """The figures per top-level bundle of each question's first gold document."""
    groups: dict[str, list[Run]] = {}
    for run in runs:
        gold = run.question.gold[0] if run.question.gold else ""
        groups.setdefault(bundle_of(gold), []).append(run)
    return {name: overall(group, within) for name, group in sorted(groups.items())}


def _median(values: Iterable[int]) -> float:
    items = list(values)
    return float(statistics.median(items)) if items else 0.0
