"""What the agent walk and the replay share: the package as an agent saw it, one tool
call at a time.

Both are full screens (:mod:`.agent`, :mod:`.replay`) over the headless
:mod:`kas_tui.features.agent` core, with one layout:

- a bar with the mode, the tools and the turn count against the budget;
- on the left, the legal next calls (a walk) or the summary and the trajectory's
  problems (a replay, or a walk once its answer is submitted);
- on the right, exactly the text the agent received for the step shown, as plain text
  (it is what the model reads, so it is not rendered), with the call and its tokens;
- below, the trail: the catalog entry (the system prompt) then one row per call.

Closing either screen (escape or q) returns what the agent read and peeked at, which the
app marks in its navigation tree (:func:`closed`); what outlives one screen (the walk
kept for ``a``, the budget, the last export) is the app's :func:`session`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static, TextArea

from kas_tui.features.agent import (
    DEFAULT_BUDGET,
    LISTDIR,
    PEEK,
    READFILE,
    SUBMIT,
    CatalogEntry,
    Step,
    Walk,
)
from kas_tui.features.agent.tools import call_text
from kas_tui.text.wording import counted
from kas_tui.tui.widgets.footer import KasFooter
from kas_tui.tui.widgets.trail import (
    CATALOG_ROW,
    TrailTable,
    budget_text,
    flags_text,
    step_flags,
)

if TYPE_CHECKING:
    from kas_tui.core.package import Package

TOOL_STYLE = {READFILE: "cyan", PEEK: "magenta", LISTDIR: "blue", SUBMIT: "green"}


@dataclass(frozen=True)
class AgentResult:
    """What a closed walk or replay leaves behind: the files read and peeked at, the walk."""

    read: frozenset[str]
    peeked: frozenset[str]
    walk: Walk | None = None
    budget: int = DEFAULT_BUDGET


class AgentView(Screen[AgentResult]):
    """What the walk and the replay share: the bar, the text pane, the trail."""

    CSS_PATH = "agent_view.tcss"
    SIDE_TITLE = ""
    CUE_LABEL = "chosen by: "

    def __init__(self, package: Package, catalog: CatalogEntry, budget: int) -> None:
        super().__init__()
        self.package = package
        self.catalog = catalog
        self.budget = budget
        self.shown = 0  # the trail row shown: 0 is the catalog entry, n is turn n

    # -- what subclasses provide --------------------------------------------------------

    @property
    def steps(self) -> tuple[Step, ...]:
        raise NotImplementedError

    def compose_side(self) -> ComposeResult:
        raise NotImplementedError

    def mode_text(self) -> Text:
        raise NotImplementedError

    def result(self) -> AgentResult:
        raise NotImplementedError

    def cue_of(self, step: Step) -> str:
        return ""

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="agent-bar"):
            yield Static(id="agent-mode")
            yield Static(id="agent-budget")
        with Horizontal(id="agent-main"):
            with Vertical(id="agent-side"):
                yield from self.compose_side()
            with Vertical(id="agent-view"):
                yield Static(id="agent-call")
                yield TextArea(
                    id="agent-text",
                    read_only=True,
                    soft_wrap=True,
                    show_line_numbers=True,
                    highlight_cursor_line=False,
                )
        yield TrailTable(id="agent-trail")
        yield KasFooter()

    def set_up(self) -> None:
        """Titles of the panes (the subclasses' ``on_mount`` calls this first)."""
        self.query_one("#agent-side").border_title = Text(self.SIDE_TITLE)
        self.query_one("#agent-trail").border_title = Text("Trail")
        self.query_one("#agent-trail").border_subtitle = Text(
            "tokens: the call plus the text it returned · cumulative: all calls so far"
        )

    def fixed_prompt(self) -> tuple[int, str]:
        """The tokens sent before the first call, and what they are: the catalog entry."""
        return self.catalog.tokens, "catalog"

    # -- drawing ------------------------------------------------------------------------

    def redraw(self, show: int | None = None) -> None:
        """Redraw the bar and the trail, and show trail row ``show`` (default: the last)."""
        steps = self.steps
        self.query_one("#agent-mode", Static).update(self.mode_text())
        over = len(steps) > self.budget
        total = steps[-1].cumulative if steps else 0
        meter = budget_text(len(steps), self.budget)
        fixed, what = self.fixed_prompt()
        meter.append(f"   {total:,} tokens + {fixed:,} {what} ", "bright_black")
        bar = self.query_one("#agent-budget", Static)
        bar.update(meter)
        bar.set_class(over, "over-budget")
        trail = self.query_one(TrailTable)
        trail.fill(self.catalog, steps, self.budget)
        row = len(steps) if show is None else max(0, min(show, len(steps)))
        trail.move_cursor(row=row)
        self.show_step(row)

    def show_step(self, row: int) -> None:
        """Show the catalog entry (row 0) or the step of turn ``row`` in the text pane."""
        steps = self.steps
        row = max(0, min(row, len(steps)))
        self.shown = row
        view = self.query_one("#agent-view")
        text_area = self.query_one("#agent-text", TextArea)
        if row == 0:
            view.border_title = Text("System prompt")
            view.border_subtitle = Text("all the agent knows before its first call")
            self.query_one("#agent-call", Static).update(self._catalog_header())
            text_area.placeholder = ""
            text_area.load_text(self.catalog.text)
            return
        step = steps[row - 1]
        view.border_title = Text(f"What the agent received · turn {step.turn}")
        view.border_subtitle = Text("plain text, exactly as the model reads it")
        self.query_one("#agent-call", Static).update(self._step_header(step))
        text_area.placeholder = (
            "(submit_answer returns nothing: the walk ends here)"
            if step.tool == SUBMIT
            else "(the call returned an empty text)"
        )
        text_area.load_text(step.text)

    def _catalog_header(self) -> Text:
        text = Text.assemble(
            ("system prompt", "bold"),
            "   the ",
            ("<available_skills>", "bold"),
            " block of the harness, with this skill's entry\n",
            (f"{self.catalog.tokens:,} tokens", "bold"),
            (", sent with every call", "bright_black"),
        )
        if not self.catalog.discoverable:
            text.append(
                "\nno usable SKILL.md name and description: a harness would not list this skill",
                "bold red",
            )
        return text

    def _step_header(self, step: Step) -> Text:
        over = step.turn > self.budget
        text = Text.assemble(
            (f"turn {step.turn} / {self.budget}", "bold red" if over else "bold"),
            "   ",
            (call_text(step.tool, step.args), TOOL_STYLE.get(step.tool, "")),
            "\n",
            (f"{step.tokens:,} tokens", "bold"),
            (f" = {step.call_tokens:,} call + {step.result_tokens:,} result", "bright_black"),
            "  ·  ",
            (f"cumulative {step.cumulative:,}", "bold"),
            "  ·  ",
            (step.status, "green" if step.ok else "bold red"),
        )
        flags = [f for f in step_flags(step) if f != step.status]
        if flags:
            text.append("  ")
            text.append_text(flags_text(flags))
        if step.new:
            text.append(f"  ·  named {len(step.new)} new path{'s' * (len(step.new) != 1)}")
        cue = self.cue_of(step)
        if cue:
            text.append(f"\n{self.CUE_LABEL}", "bright_black")
            text.append(cue, "italic")
        return text

    @on(DataTable.RowHighlighted, "#agent-trail")
    def _trail_moved(self, event: DataTable.RowHighlighted) -> None:
        row = int(event.row_key.value or CATALOG_ROW)
        if row != self.shown:
            self.show_step(row)

    # -- actions ------------------------------------------------------------------------

    def action_budget(self, delta: int) -> None:
        self.budget = max(1, self.budget + delta)
        self.budget_changed()
        self.redraw(self.shown)

    def budget_changed(self) -> None:
        """Hook: the budget changed (the walk keeps its own copy)."""

    def action_close(self) -> None:
        self.dismiss(self.result())


@dataclass
class _Session:
    """What outlives one screen: the walk kept for ``a``, the budget, the last export."""

    walk: Walk | None = None
    budget: int = DEFAULT_BUDGET
    last_export: str | None = None


_SESSIONS: WeakKeyDictionary[App, _Session] = WeakKeyDictionary()


def session(app: App) -> _Session:
    """What the walk and replay screens keep on ``app`` between screens."""
    return _SESSIONS.setdefault(app, _Session())


def closed(app: App, result: AgentResult | None, *, walked: bool) -> None:
    """Keep the walk (when ``walked``), remember the budget, mark what was read in the tree."""
    if result is None:
        return
    kept = session(app)
    kept.budget = result.budget
    if walked:
        kept.walk = result.walk if result.walk is not None and result.walk.steps else None
    try:
        from kas_tui.tui.widgets.nav_tree import NavTree

        app.query_one(NavTree).set_visited(result.read, result.peeked)
    except NoMatches:
        pass
    if walked and kept.walk is not None:
        app.notify(f"Walk kept ({counted(kept.walk.turns, 'turn')}): press a to resume it")
