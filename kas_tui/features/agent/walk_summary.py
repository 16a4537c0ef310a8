"""The summary of a walk or a replay: turns, tokens, what was read and entered."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kas_tui.features.agent.step import Step, role_of
from kas_tui.features.agent.tools import LISTDIR, PEEK, READFILE, SUBMIT

#: Default turn budget (tool calls, ``submit_answer`` included).
DEFAULT_BUDGET = 15


@dataclass(frozen=True)
class Summary:
    """What a trail of steps amounts to.

    ``read``, ``peeked`` and ``listed`` hold package paths in first-call order (successful
    calls only); ``bundles`` the folders with an ``index.md`` the agent entered (read or
    peeked a file in it other than SKILL.md, or listed it; ``''`` is the root).
    ``total_tokens`` sums the steps; ``context_tokens`` adds the catalog entry.
    """

    turns: int
    budget: int
    total_tokens: int
    catalog_tokens: int
    read: tuple[str, ...]
    peeked: tuple[str, ...]
    listed: tuple[str, ...]
    bundles: tuple[str, ...]
    failed: int
    guessed: int
    submitted: bool
    answer: str | None

    @property
    def over_budget(self) -> bool:
        return self.turns > self.budget

    @property
    def context_tokens(self) -> int:
        return self.catalog_tokens + self.total_tokens

    @property
    def documents_read(self) -> tuple[str, ...]:
        """Concept documents read whole (not SKILL.md, indexes, logs or assets)."""
        return tuple(p for p in self.read if role_of(p) == "document")

    @property
    def peeked_only(self) -> tuple[str, ...]:
        """Files peeked at and never read whole."""
        return tuple(p for p in self.peeked if p not in self.read)

    @property
    def touched(self) -> frozenset[str]:
        """Files read or peeked: what a tree highlights."""
        return frozenset(self.read) | frozenset(self.peeked)


def summarise(
    steps: Sequence[Step],
    *,
    budget: int,
    catalog_tokens: int,
    is_bundle: Callable[[str], bool],
) -> Summary:
    """Summarise ``steps``; ``is_bundle(folder)`` says whether a folder has an index.md."""
    done: dict[str, dict[str, None]] = {READFILE: {}, PEEK: {}, LISTDIR: {}}
    bundles: dict[str, None] = {}
    answer: str | None = None
    for step in steps:
        if step.tool == SUBMIT:
            answer = step.answer
        if not step.ok or step.path is None or step.tool not in done:
            continue
        done[step.tool][step.path] = None
        folder = step.path if step.tool == LISTDIR else posixpath.dirname(step.path)
        if step.path != "SKILL.md" and is_bundle(folder):
            bundles[folder] = None
    return Summary(
        turns=len(steps),
        budget=budget,
        total_tokens=sum(step.tokens for step in steps),
        catalog_tokens=catalog_tokens,
        read=tuple(done[READFILE]),
        peeked=tuple(done[PEEK]),
        listed=tuple(done[LISTDIR]),
        bundles=tuple(bundles),
        failed=sum(not step.ok for step in steps),
        guessed=sum(step.guessed for step in steps),
        submitted=any(step.tool == SUBMIT for step in steps),
        answer=answer,
    )
