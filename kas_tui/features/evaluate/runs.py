"""A question, and what one navigator did with it.

A :class:`Question` is one line of a question set (see :mod:`.questions`): the words
asked, the one to three package paths that answer it (``gold``), optionally a reference
answer and tags. A :class:`Run` is one navigator's attempt: the steps it took (the same
:class:`~kas_tui.features.agent.Step` records a walk or a replay makes), how it ended and what it
answered. Navigators (lexical, LLM) produce runs; metrics and blame read them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from kas_tui.features.agent.step import Step
from kas_tui.features.agent.trajectory import header_record
from kas_tui.features.agent.walk_summary import Summary

# How a run ended.
ANSWERED = "answered"  # submitted an answer it found in a document it read
GAVE_UP = "gave-up"  # submitted without an answer: nothing left worth opening
BUDGET = "budget"  # the turn budget ran out before it found an answer
FAILED = "failed"  # the navigator itself failed (an LLM endpoint error...): see ``note``
REPEATED = "repeated"  # stopped: it made the same call (tool and arguments) three times
SERVED = "served"  # a served session the client ended (``kas-tui serve`` sees no answer)
ENDINGS = (ANSWERED, GAVE_UP, BUDGET, FAILED, REPEATED, SERVED)

# Where a run's token figures come from.
ESTIMATE = "estimate"  # 4 characters a token of the calls and what they returned
USAGE = "usage"  # the agent's own usage records: input + output tokens


@dataclass(frozen=True)
class Question:
    """One question of a set. ``gold`` holds package-relative POSIX paths; ``line`` is
    where the question was read (0 when made in memory)."""

    id: str
    question: str
    gold: tuple[str, ...]
    answer: str = ""
    tags: tuple[str, ...] = ()
    line: int = 0

    def record(self) -> dict[str, Any]:
        """The JSON object of the question set format (``answer`` and ``tags`` only when set)."""
        record: dict[str, Any] = {"id": self.id, "question": self.question, "gold": list(self.gold)}
        if self.answer:
            record["answer"] = self.answer
        if self.tags:
            record["tags"] = list(self.tags)
        return record


@dataclass(frozen=True)
class Run:
    """One navigator's run of one question.

    ``steps`` are the calls in order (``submit_answer`` last when it submitted);
    ``summary`` sums them as a walk's summary does; ``ended`` is one of
    :data:`ENDINGS`; ``answer`` what it submitted; ``note`` says more (an endpoint's
    error, why it gave up); ``choices`` records, for blame, each decision the navigator
    made: which path it chose and which paths it had to choose from at that moment.
    ``usage`` holds the model's token counts when an endpoint reported them
    (``prompt_tokens``, ``completion_tokens``, ``total_tokens``, ``requests``);
    ``preloaded`` the files put in the prompt before the first call (``SKILL.md`` for
    an activated skill), which count as read without a step.

    ``token_source`` says what :attr:`tokens` counts: :data:`ESTIMATE` (the walk's
    estimate of its calls and results) or :data:`USAGE` (a real agent's usage records,
    input + output, in ``usage["total_tokens"]``); ``step_usage`` holds, per step, the
    usage tokens spent up to the model response that made it, when the agent's
    transcript reports usage per response (empty otherwise).
    """

    question: Question
    navigator: str
    budget: int
    steps: tuple[Step, ...]
    summary: Summary
    ended: str
    answer: str = ""
    note: str = ""
    choices: tuple[Choice, ...] = field(default=(), hash=False)
    usage: dict[str, int] = field(default_factory=dict, hash=False)
    preloaded: tuple[str, ...] = ()
    token_source: str = ESTIMATE
    step_usage: tuple[int | None, ...] = field(default=(), hash=False)

    @property
    def tokens(self) -> int:
        """The run's tokens, as :attr:`token_source` says."""
        if self.token_source == USAGE:
            return self.usage.get("total_tokens", 0)
        return self.summary.total_tokens

    @property
    def tokens_to_gold(self) -> int | None:
        """Tokens spent up to the first gold read, as :attr:`token_source` says
        (``None``: no gold read, or usage not reported per response)."""
        at = self._gold_index
        if at is None:
            return None
        if self.token_source == USAGE:
            return self.step_usage[at] if at < len(self.step_usage) else None
        return self.steps[at].cumulative

    @property
    def read_tokens_to_gold(self) -> int | None:
        """The estimate of the calls and results up to the first gold read, whatever
        :attr:`token_source` is (comparable across navigators and agents)."""
        at = self._gold_index
        return None if at is None else self.steps[at].cumulative

    @property
    def read(self) -> tuple[str, ...]:
        """Documents read in full, in order."""
        return self.summary.documents_read

    @property
    def reached(self) -> bool:
        """Whether any gold document was read in full."""
        return any(path in self.question.gold for path in self.read)

    @property
    def turns_to_gold(self) -> int | None:
        """The turn on which a gold document was first read in full, or ``None``."""
        at = self._gold_index
        return None if at is None else self.steps[at].turn

    @property
    def _gold_index(self) -> int | None:
        """The index of the step that first read a gold document in full."""
        gold = set(self.question.gold)
        for at, step in enumerate(self.steps):
            if step.ok and step.tool == "readfile" and step.path in gold:
                return at
        return None

    @property
    def off_path(self) -> tuple[str, ...]:
        """Documents read in full that are not gold."""
        return tuple(p for p in self.read if p not in self.question.gold)


@dataclass(frozen=True)
class Choice:
    """One decision: on turn ``turn`` the navigator opened ``chosen`` (a path) with
    ``tool``; ``options`` are the paths it could have opened instead, best first, with
    the score it gave each (0.0 for a navigator that gives none, such as an LLM)."""

    turn: int
    tool: str
    chosen: str
    options: tuple[tuple[str, float], ...] = ()


def run_header(package_name: str, run: Run, *, date: dt.datetime | None = None) -> dict[str, Any]:
    """The trajectory header for ``run`` (see :mod:`kas_tui.features.agent.trajectory`)."""
    when = (date or dt.datetime.now(dt.timezone.utc)).replace(microsecond=0)
    question = run.question
    return header_record(
        package=package_name,
        question=question.question,
        question_id=question.id,
        gold=list(question.gold),
        navigator=run.navigator,
        budget=run.budget,
        ended=run.ended,
        preloaded=list(run.preloaded) or None,
        usage=dict(run.usage) or None,
        date=when.isoformat().replace("+00:00", "Z"),
    )
