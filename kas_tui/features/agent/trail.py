"""The trail of steps and the reach it builds: the engine under walks and replays.

The reach (which files and folders have been named) is a fold of the catalog's reveals
and each step's, in order; popping a step recomputes it from the steps that remain, so
going back restores exactly what was reachable before.

A trail may start with files already read (``preloaded``): a harness that activates a
skill puts SKILL.md's text in the system prompt, so what it names is reachable before
the first call. Such files are read once, through the sandbox; their reveals join the
catalog's, their text counts with the catalog entry (the fixed prompt), and they are
not steps.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from typing import Any

from kas_tui.features.agent.reveal import ENTRY, Reveal, catalog_reveals, reveals_of
from kas_tui.features.agent.sandbox import FILE, Sandbox
from kas_tui.features.agent.step import Step
from kas_tui.features.agent.tools import (
    BAD_CALL,
    READFILE,
    Outcome,
    call_text,
    cut,
    path_arg,
    run_tool,
)
from kas_tui.features.agent.walk_summary import Summary, summarise
from kas_tui.text.tokens import estimate_tokens


class Reach:
    """The files and folders named so far, each with the reveal that named it first."""

    def __init__(self, reveals: Iterable[Reveal] = ()) -> None:
        self.files: dict[str, Reveal] = {}
        self.folders: dict[str, Reveal] = {}
        # (folder?, path) -> the reveal that says most about it: an index entry, once one
        # names it, over a mention or a link seen first
        self._telling: dict[tuple[bool, str], Reveal] = {}
        self.add(reveals)

    def add(self, reveals: Iterable[Reveal]) -> tuple[Reveal, ...]:
        """Record ``reveals``; return those that named something new."""
        new = []
        for reveal in reveals:
            known = self.folders if reveal.folder else self.files
            if reveal.path not in known:
                known[reveal.path] = reveal
                new.append(reveal)
            key = (reveal.folder, reveal.path)
            told = self._telling.get(key)
            if told is None or (reveal.how == ENTRY and told.how != ENTRY):
                self._telling[key] = reveal
        return tuple(new)

    def telling(self, path: str, *, folder: bool = False) -> Reveal | None:
        """What the agent was told about ``path``: the index entry naming it once one has,
        else the reveal that named it first (``None``: never named)."""
        return self._telling.get((folder, path))

    def knows(self, path: str) -> bool:
        """Whether ``path`` (package-relative, ``''`` the root) has been named."""
        return path in self.files or path in self.folders


#: Calls already served, shared by trails over a package that does not change meanwhile
#: (an evaluation's many walks): ``(tool, path argument)`` -> the outcome and its reveals.
Served = dict[tuple[str, str], tuple[Outcome, tuple[Reveal, ...]]]


class Trail:
    """Steps taken against a package, with the reach they build.

    ``served``, when given, remembers each call's outcome and what it names, so walks
    that repeat a call (every question of an evaluation reads the root index) read and
    parse the file once. Only for a package that does not change while it is used.

    ``max_chars``, when given, cuts every answer to that many characters (see
    :func:`~kas_tui.features.agent.tools.cut`) before anything else looks at it: what
    the step names, its tokens and its text are those of the answer as cut, so a 5 MB
    page costs what its first ``max_chars`` characters cost.
    """

    def __init__(
        self,
        sandbox: Sandbox,
        *,
        catalog_tokens: int = 0,
        preloaded: Iterable[str] = (),
        served: Served | None = None,
        max_chars: int | None = None,
    ) -> None:
        self.sandbox = sandbox
        self.max_chars = max_chars
        self.steps: list[Step] = []
        self._reach: Reach | None = None
        self._served = served
        #: The files in the prompt before the first call, in order (e.g. ``SKILL.md``).
        self.preloaded = tuple(preloaded)
        #: What reading each of them returned: the text a prompt shows.
        served_preloads = [self._serve(READFILE, {"path": path}) for path in self.preloaded]
        self.preloads: tuple[Outcome, ...] = tuple(outcome for outcome, _ in served_preloads)
        self.preload_reveals = tuple(reveal for _, reveals in served_preloads for reveal in reveals)
        #: The catalog entry's tokens plus those of the preloaded files' text.
        self.catalog_tokens = catalog_tokens + sum(
            estimate_tokens(outcome.text) for outcome in self.preloads
        )

    @property
    def reach(self) -> Reach:
        if self._reach is None:
            reach = Reach(catalog_reveals() + self.preload_reveals)
            for step in self.steps:
                reach.add(step.reveals)
            self._reach = reach
        return self._reach

    @property
    def tokens(self) -> int:
        """Tokens spent by the steps so far (the catalog entry not included)."""
        return self.steps[-1].cumulative if self.steps else 0

    def record(
        self,
        tool: str,
        args: Mapping[str, Any],
        *,
        refusal: str = "",
        outcome: Outcome | None = None,
    ) -> Step:
        """Make the call, append its step and return it.

        ``refusal``, when given, is the error message of a call refused before it was
        made (arguments its schema does not allow): the step records it, unread.
        ``outcome``, when given, is what the call returned when it was answered elsewhere
        (a file served as an MCP resource): it is recorded as it is, not made again.
        """
        args = dict(args)
        if refusal:
            outcome, reveals = Outcome(tool, BAD_CALL, refusal), ()
        elif outcome is None:
            outcome, reveals = self._serve(tool, args)
        else:
            if self.max_chars is not None:
                outcome = cut(outcome, self.max_chars)  # logged as it was sent
            reveals = reveals_of(self.sandbox, outcome)
        reach = self.reach
        revealed = outcome.path is None or reach.knows(outcome.path)
        call_tokens = estimate_tokens(call_text(outcome.tool, args))
        result_tokens = estimate_tokens(outcome.text)
        step = Step(
            turn=len(self.steps) + 1,
            tool=outcome.tool,
            args=args,
            status=outcome.status,
            text=outcome.text,
            path=outcome.path,
            call_tokens=call_tokens,
            result_tokens=result_tokens,
            cumulative=self.tokens + call_tokens + result_tokens,
            revealed=revealed,
            reveals=reveals,
            new=reach.add(reveals),
            cut_from=outcome.cut_from,
        )
        self.steps.append(step)
        return step

    def _serve(self, tool: str, args: dict[str, Any]) -> tuple[Outcome, tuple[Reveal, ...]]:
        key = (tool, path_arg(args) or "") if self._served is not None else None
        if key is not None and key[1] and key in self._served:
            return self._served[key]
        outcome = run_tool(self.sandbox, tool, args)
        if self.max_chars is not None:
            outcome = cut(outcome, self.max_chars)  # before the text is parsed or counted
        served = (outcome, reveals_of(self.sandbox, outcome))
        if key is not None and key[1]:
            self._served[key] = served
        return served

    def pop(self) -> Step | None:
        """Remove the last step; the reach goes back to what it was before it."""
        if not self.steps:
            return None
        self._reach = None
        return self.steps.pop()

    def is_bundle(self, folder: str) -> bool:
        """Whether ``folder`` holds an index.md."""
        return self.sandbox.kind_of(posixpath.join(folder, "index.md")) == FILE

    def summary(self, budget: int) -> Summary:
        return summarise(
            self.steps,
            budget=budget,
            catalog_tokens=self.catalog_tokens,
            is_bundle=self.is_bundle,
        )
