"""The replay: a saved trajectory (JSON Lines) stepped through call by call, with the
problems found in it (layout in :mod:`.agent_view`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from kas_tui.features.agent import (
    DEFAULT_BUDGET,
    Replay,
    Step,
)
from kas_tui.features.agent.replay import preloaded_paths
from kas_tui.tui.widgets.trail import (
    TrailTable,
    argument_of,
    flags_text,
    step_flags,
    summary_table,
)

if TYPE_CHECKING:
    from kas_tui.core.package import Package

from kas_tui.tui.screens.agent_view import AgentResult, AgentView


class ReplayScreen(AgentView):
    """Step through a replayed trajectory: the same view, the agent's own calls."""

    SIDE_TITLE = "Replay"
    CUE_LABEL = "logged at: "
    BINDINGS = [
        Binding("escape,q", "close", "Close"),
        Binding("n,right", "move(1)", "Next", key_display="n/→", priority=True),
        Binding("p,left", "move(-1)", "Previous", key_display="p/←", priority=True),
        Binding("home", "goto(0)", "First", priority=True),
        Binding("end", "goto(-1)", "Last", priority=True),
        Binding("plus", "budget(1)", "Budget +", key_display="+"),
        Binding("minus", "budget(-1)", "Budget -", key_display="-"),
    ]

    def __init__(
        self,
        package: Package,
        replayed: Replay,
        *,
        budget: int = DEFAULT_BUDGET,
        lines: Sequence[int] = (),
    ) -> None:
        super().__init__(package, replayed.catalog, budget)
        self.replayed = replayed
        self.lines = tuple(lines)  # the file line of each call, when known

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.replayed.steps

    def fixed_prompt(self) -> tuple[int, str]:
        """The catalog entry and the files the harness put in the prompt (SKILL.md), as
        the summary counts them."""
        preloaded = preloaded_paths(self.replayed.header)
        what = " + ".join(["catalog", *preloaded])
        return self.replayed.summary.catalog_tokens, what

    def compose_side(self) -> ComposeResult:
        with VerticalScroll(id="agent-summary-box"):
            yield Static(id="agent-question")
            yield Static(id="agent-summary")
            yield Static(id="agent-flagged")
            yield Static(id="agent-problems")

    def cue_of(self, step: Step) -> str:
        if step.turn <= len(self.lines):
            return f"line {self.lines[step.turn - 1]} of {Path(self.replayed.source).name}"
        return ""

    def on_mount(self) -> None:
        self.set_up()
        self.sub_title = f"Replay · {self.package.name}"
        side = self.query_one("#agent-side")
        side.border_subtitle = Text("n/→ next · p/← previous · home/end")
        self._fill_side()
        self.redraw(0)
        self.query_one(TrailTable).focus()

    def mode_text(self) -> Text:
        rep = self.replayed
        text = Text.assemble(
            (" Replay ", "bold reverse"),
            "  ",
            (Path(rep.source).name, "bold"),
            (f"   {len(rep.steps)} calls", "bright_black"),
        )
        if rep.problems:
            n = len(rep.problems)
            text.append(f"   {n} unreadable line{'s' * (n != 1)}", "bold red")
        flagged = sum(bool(step_flags(step)) for step in rep.steps)
        if flagged:
            text.append(f"   {flagged} flagged call{'s' * (flagged != 1)}", "bold yellow")
        return text

    def _fill_side(self) -> None:
        rep = self.replayed
        question = self.query_one("#agent-question", Static)
        question.display = bool(rep.question)
        if rep.question:  # from the trajectory's header line (an evaluation writes one)
            question.update(Text.assemble(("Question  ", "bold"), rep.question, "\n"))
        self.query_one("#agent-summary", Static).update(summary_table(rep.summary, self.budget))
        flagged = [step for step in rep.steps if step_flags(step)]
        shown = self.query_one("#agent-flagged", Static)
        shown.display = bool(flagged)
        if flagged:
            text = Text("\nFlagged calls\n", "bold yellow")
            for step in flagged:
                text.append(f"{step.turn:>4}  ", "bold")
                text.append(f"{step.tool} {argument_of(step)}  ")
                text.append_text(flags_text(step_flags(step)))
                text.append("\n")
            shown.update(text)
        problems = self.query_one("#agent-problems", Static)
        problems.display = bool(rep.problems)
        if rep.problems:
            text = Text(f"\nLines of {Path(rep.source).name} that were skipped\n", "bold red")
            for problem in rep.problems:
                text.append(f"line {problem.line}  " if problem.line else "file  ", "bold")
                text.append(problem.message + "\n")
            problems.update(text)

    def action_move(self, delta: int) -> None:
        self.action_goto(self.shown + delta)

    def action_goto(self, row: int) -> None:
        last = len(self.steps)
        row = last if row < 0 else max(0, min(row, last))
        self.query_one(TrailTable).move_cursor(row=row)
        self.show_step(row)

    def action_budget(self, delta: int) -> None:
        super().action_budget(delta)
        self._fill_side()

    def result(self) -> AgentResult:
        rep = self.replayed
        return AgentResult(rep.read_paths, rep.peeked_paths, None, self.budget)
