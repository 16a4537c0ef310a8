"""An interactive agent walk: the curator takes the agent's decisions one call at a time.

The walk starts from the catalog entry and nothing else. Each call must target
something already named (see :mod:`kas_tui.features.agent.reveal`); :meth:`Walk.available_actions`
lists the legal next calls. Every call is a turn, ``submit_answer`` included; going over
the budget is reported, not prevented (the curator may want to see how far it goes).
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.features.agent.reveal import Reveal
from kas_tui.features.agent.sandbox import MISSING, OUTSIDE, Sandbox
from kas_tui.features.agent.skill_catalog import CatalogEntry, catalog_entry
from kas_tui.features.agent.step import Step, role_of
from kas_tui.features.agent.tools import (
    ALL_TOOLS,
    LISTDIR,
    MINIMAL_TOOLS,
    PEEK,
    READFILE,
    SUBMIT,
    canonical_tool,
    path_arg,
)
from kas_tui.features.agent.trail import Reach, Served, Trail
from kas_tui.features.agent.trajectory import header_record, trajectory_jsonl, write_trajectory
from kas_tui.features.agent.walk_summary import DEFAULT_BUDGET, Summary

if TYPE_CHECKING:
    from kas_tui.core.package import Package


#: The navigator a curator's walk in the TUI is recorded as.
WALK_NAVIGATOR = "kas-tui agent walk"


class WalkError(Exception):
    """A call the walk does not allow (a programming or UI error, not an agent event)."""


class NotRevealedError(WalkError):
    """The path has not been named by anything the agent has seen yet."""


@dataclass(frozen=True)
class Action:
    """A legal next call: pass ``tool`` and ``args`` to :meth:`Walk.call`.

    ``cue`` is what the agent had to choose by; ``note`` flags a target that does not
    exist or leaves the package (the agent may still try it).
    """

    tool: str
    args: dict[str, Any] = field(hash=False)
    label: str
    cue: str = ""
    path: str | None = None
    note: str = ""


class Walk:
    """A walk through ``package`` as an agent sees it.

    ``budget`` is the turn budget; ``peek`` offers the frontmatter-only tool;
    ``location`` overrides the SKILL.md path the catalog shows. ``sandbox`` serves the
    calls instead of the package folder itself (an evaluation's ablated view of it);
    ``served`` is a memo of calls shared between walks (see :class:`Trail`). Given
    ``catalog`` and ``sandbox``, a walk needs no package at all: all it can learn then
    comes through the sandbox's tool calls (the evaluation's navigators walk so).
    ``preloaded`` files are in the prompt before the first call (SKILL.md of a skill
    the harness activated): what they name is reachable without a turn.
    """

    def __init__(
        self,
        package: Package | None,
        *,
        budget: int = DEFAULT_BUDGET,
        peek: bool = False,
        location: str | os.PathLike[str] | None = None,
        sandbox: Sandbox | None = None,
        served: Served | None = None,
        catalog: CatalogEntry | None = None,
        preloaded: tuple[str, ...] = (),
    ) -> None:
        if budget < 1:
            raise ValueError(f"the turn budget must be at least 1, not {budget}")
        self.package = package
        self.budget = budget
        self.peek_enabled = peek
        #: What the walk is trying to answer (a curator's walk may say; the header keeps it).
        self.question = ""
        #: When the walk began: the header's date.
        self.started = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
        if catalog is None or sandbox is None:
            if package is None:
                raise ValueError("a walk without a package needs its catalog entry and sandbox")
            catalog = catalog or catalog_entry(package, location)
            sandbox = sandbox or Sandbox(package.root, location=catalog.location)
        self.catalog: CatalogEntry = catalog
        self.trail = Trail(
            sandbox, catalog_tokens=self.catalog.tokens, served=served, preloaded=preloaded
        )

    # -- state ----------------------------------------------------------------------------

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self.trail.steps)

    @property
    def reach(self) -> Reach:
        """What has been named so far (files and folders, with their first reveal)."""
        return self.trail.reach

    @property
    def turns(self) -> int:
        return len(self.trail.steps)

    @property
    def tokens(self) -> int:
        """Tokens spent by the calls so far (see :attr:`context_tokens`)."""
        return self.trail.tokens

    @property
    def context_tokens(self) -> int:
        """The catalog entry plus every call and result so far."""
        return self.catalog.tokens + self.tokens

    @property
    def remaining(self) -> int:
        """Turns left in the budget (negative once over)."""
        return self.budget - self.turns

    @property
    def over_budget(self) -> bool:
        return self.turns > self.budget

    @property
    def finished(self) -> bool:
        return bool(self.trail.steps) and self.trail.steps[-1].tool == SUBMIT

    @property
    def tools(self) -> tuple[str, ...]:
        """The tools the agent has: the minimal set, plus ``peek`` when enabled."""
        return ALL_TOOLS if self.peek_enabled else MINIMAL_TOOLS

    def can_open(self, path: str) -> bool:
        """Whether a path (as an agent would write it) has been named yet."""
        return self.reach.knows(self.trail.sandbox.locate(path).path)

    # -- calls ----------------------------------------------------------------------------

    def call(self, tool: str, args: dict[str, Any]) -> Step:
        """Make one call; raise :class:`WalkError` when the walk does not allow it."""
        if self.finished:
            raise WalkError("the walk is over: the answer was submitted (go back to continue)")
        name = canonical_tool(tool)
        if name not in self.tools:
            raise WalkError(f"{tool!r} is not one of this walk's tools: {', '.join(self.tools)}")
        if name != SUBMIT:
            raw = path_arg(args)
            if raw is None:
                raise WalkError(f"{name} needs a 'path' argument")
            if not self.can_open(raw):
                raise NotRevealedError(
                    f"{raw} has not been named by anything the agent has seen yet"
                )
        return self.trail.record(name, args)

    def readfile(self, path: str) -> Step:
        return self.call(READFILE, {"path": path})

    def peek(self, path: str) -> Step:
        return self.call(PEEK, {"path": path})

    def listdir(self, path: str = ".") -> Step:
        return self.call(LISTDIR, {"path": path})

    def submit(self, answer: str) -> Summary:
        """Submit the answer (a turn of its own) and return the summary."""
        self.call(SUBMIT, {"answer": answer})
        return self.summary()

    def back(self) -> Step | None:
        """Undo the last call (a submit too); return it, or ``None`` at the start."""
        return self.trail.pop()

    def summary(self) -> Summary:
        return self.trail.summary(self.budget)

    # -- choices --------------------------------------------------------------------------

    def available_actions(self) -> list[Action]:
        """The legal next calls not made yet, in the order their targets were named.

        Files first (read, then peek for concept documents when peek is on), then
        folders to list, then submitting an answer. Empty once the walk is finished.
        """
        if self.finished:
            return []
        done = {(step.tool, step.path) for step in self.trail.steps}
        actions: list[Action] = []
        for path, reveal in self.reach.files.items():
            if (READFILE, path) not in done:
                actions.append(self._action(READFILE, path, reveal))
            if (
                self.peek_enabled
                and role_of(path) == "document"
                and (PEEK, path) not in done
                and (READFILE, path) not in done
            ):
                actions.append(self._action(PEEK, path, reveal))
        for path, reveal in self.reach.folders.items():
            if (LISTDIR, path) not in done:
                actions.append(self._action(LISTDIR, path, reveal))
        actions.append(Action(SUBMIT, {"answer": ""}, "submit an answer"))
        return actions

    def _action(self, tool: str, path: str, reveal: Reveal) -> Action:
        if tool == LISTDIR:
            label = f"list {path}/" if path else "list the package root"
        elif tool == PEEK:
            label = f"peek at {path} (frontmatter only)"
        elif path == "SKILL.md":
            label = "activate the skill (read SKILL.md)"
        else:
            label = f"read {path}"
        arg = path or "."
        kind = self.trail.sandbox.locate(arg).kind
        note = {MISSING: "does not exist", OUTSIDE: "outside the package"}.get(kind, "")
        return Action(tool, {"path": arg}, label, reveal.cue, path, note)

    # -- export ---------------------------------------------------------------------------

    def header(self, date: dt.datetime | None = None) -> dict[str, Any]:
        """The trajectory's header: the package, the question the walk is trying to
        answer (when one was given), the budget, the tool set and when it began."""
        when = (date or self.started).replace(microsecond=0)
        return header_record(
            package=self.catalog.name,
            question=self.question.strip() or None,
            navigator=WALK_NAVIGATOR,
            budget=self.budget,
            tools=list(self.tools),
            preloaded=list(self.trail.preloaded) or None,
            date=when.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z"),
        )

    def to_jsonl(self) -> str:
        """The trajectory as JSON Lines (see :mod:`kas_tui.features.agent.trajectory`), its
        header first."""
        return trajectory_jsonl(self.trail.steps, self.header())

    def export(self, path: str | os.PathLike[str]) -> None:
        """Write the trajectory, its header first, to ``path`` atomically."""
        write_trajectory(path, self.trail.steps, self.header())
