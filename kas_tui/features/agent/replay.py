"""Replay a logged trajectory against a package.

The agent did what it did: reachability is not enforced, but each step records whether
its target had been named yet (``Step.revealed``; false means the agent guessed the
path), and calls to missing paths or paths leaving the package are failed steps with
the error the agent would have read. Replaying an exported walk gives its steps back.

A header's ``preloaded`` list (files the harness put in the prompt before the first
call, such as SKILL.md for an activated skill) starts the trail with them read, so
paths they name are not counted as guessed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.features.agent.sandbox import Sandbox
from kas_tui.features.agent.skill_catalog import CatalogEntry, catalog_entry
from kas_tui.features.agent.step import Step
from kas_tui.features.agent.trail import Trail
from kas_tui.features.agent.trajectory import Trajectory, TrajectoryProblem, read_trajectory
from kas_tui.features.agent.walk_summary import DEFAULT_BUDGET, Summary

if TYPE_CHECKING:
    from kas_tui.core.package import Package


@dataclass(frozen=True)
class Replay:
    """The steps of a replayed trajectory, its reading problems and its summary."""

    source: str
    catalog: CatalogEntry
    steps: tuple[Step, ...]
    problems: tuple[TrajectoryProblem, ...]
    summary: Summary
    #: The trajectory's header line (package, question, navigator...), if it had one.
    header: dict[str, Any] | None = field(default=None, hash=False)

    @property
    def question(self) -> str:
        """The question the header names, or ``''``."""
        value = (self.header or {}).get("question")
        return value if isinstance(value, str) else ""

    @property
    def read_paths(self) -> frozenset[str]:
        return frozenset(self.summary.read)

    @property
    def peeked_paths(self) -> frozenset[str]:
        return frozenset(self.summary.peeked)

    @property
    def touched(self) -> frozenset[str]:
        """Files read or peeked: what a tree highlights."""
        return self.summary.touched

    @property
    def guessed(self) -> tuple[Step, ...]:
        """Steps whose target nothing the agent had read named."""
        return tuple(step for step in self.steps if step.guessed)

    @property
    def failed(self) -> tuple[Step, ...]:
        return tuple(step for step in self.steps if not step.ok)


def replay(
    package: Package,
    trajectory: Trajectory,
    *,
    budget: int = DEFAULT_BUDGET,
    location: str | os.PathLike[str] | None = None,
) -> Replay:
    """Step through ``trajectory``'s calls against ``package``."""
    catalog = catalog_entry(package, location)
    sandbox = Sandbox(package.root, location=catalog.location)
    preloaded = preloaded_paths(trajectory.header)
    trail = Trail(sandbox, catalog_tokens=catalog.tokens, preloaded=preloaded)
    for call in trajectory.calls:
        trail.record(call.tool, call.args)
    return Replay(
        trajectory.source,
        catalog,
        tuple(trail.steps),
        trajectory.problems,
        trail.summary(budget),
        trajectory.header,
    )


def preloaded_paths(header: dict[str, Any] | None) -> tuple[str, ...]:
    """The header's ``preloaded`` paths (strings only; anything else is ignored)."""
    value = (header or {}).get("preloaded")
    if not isinstance(value, list):
        return ()
    return tuple(path for path in value if isinstance(path, str) and path.strip())


def replay_file(
    package: Package,
    path: str | os.PathLike[str],
    *,
    budget: int = DEFAULT_BUDGET,
    location: str | os.PathLike[str] | None = None,
) -> Replay:
    """Read the trajectory file at ``path`` and replay it."""
    return replay(package, read_trajectory(path), budget=budget, location=location)
