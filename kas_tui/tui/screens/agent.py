"""The agent walk and the replay: the package as an agent saw it, one tool call at a time.

Both are full screens over the headless :mod:`kas_tui.agent` core, with one layout:

- a bar with the mode, the tools and the turn count against the budget;
- on the left, the legal next calls (a walk) or the summary and the trajectory's
  problems (a replay, or a walk once its answer is submitted);
- on the right, exactly the text the agent received for the step shown, as plain text
  (it is what the model reads, so it is not rendered), with the call and its tokens;
- below, the trail: the catalog entry (the system prompt) then one row per call.

Closing either screen (escape or q) returns what the agent read and peeked at, which the
app marks in its navigation tree. A walk with steps is kept on the app, so ``a`` resumes
it; ``N`` inside the walk starts a new one.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from ...agent import (
    DEFAULT_BUDGET,
    LISTDIR,
    PEEK,
    READFILE,
    SUBMIT,
    Action,
    CatalogEntry,
    Replay,
    Reveal,
    Step,
    Walk,
    WalkError,
)
from ...agent.tools import call_text
from ...store import StoreError, os_reason
from ...userdirs import data_dir
from ...words import counted, elide_path, holds_words
from ..widgets.footer import KasFooter
from ..widgets.trail import (
    CATALOG_ROW,
    TrailTable,
    argument_of,
    budget_text,
    flags_text,
    step_flags,
    summary_table,
)
from .ask import AskScreen, ConfirmScreen

if TYPE_CHECKING:
    from ...package import Package

_TOOL_STYLE = {READFILE: "cyan", PEEK: "magenta", LISTDIR: "blue", SUBMIT: "green"}


@dataclass(frozen=True)
class AgentResult:
    """What a closed walk or replay leaves behind: the files read and peeked at, the walk."""

    read: frozenset[str]
    peeked: frozenset[str]
    walk: Walk | None = None
    budget: int = DEFAULT_BUDGET


def _how(reveal: Reveal | None) -> str:
    """Why the agent may make a call: where its target was named."""
    if reveal is None:
        return ""
    source = reveal.source or "the root"
    if reveal.how == "entry":
        return f"{reveal.cue}  · entry of {source}"
    if reveal.how == "link":
        return f"link “{reveal.cue}” in {source}" if reveal.cue else f"link in {source}"
    if reveal.how == "mention":
        return f"mentioned in {source}"
    if reveal.how == "source":
        return f"source “{reveal.cue}” of {source}" if reveal.cue else f"source of {source}"
    if reveal.how == "listing":
        return f"listed by listdir {reveal.source or '.'}"
    if reveal.how == "path":
        return f"a folder on a path named in {source}"
    return reveal.cue


class AgentView(Screen[AgentResult]):
    """What the walk and the replay share: the bar, the text pane, the trail."""

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

    # -- drawing ------------------------------------------------------------------------

    def redraw(self, show: int | None = None) -> None:
        """Redraw the bar and the trail, and show trail row ``show`` (default: the last)."""
        steps = self.steps
        self.query_one("#agent-mode", Static).update(self.mode_text())
        over = len(steps) > self.budget
        total = steps[-1].cumulative if steps else 0
        meter = budget_text(len(steps), self.budget)
        meter.append(f"   {total:,} tokens + {self.catalog.tokens:,} catalog ", "bright_black")
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
            (call_text(step.tool, step.args), _TOOL_STYLE.get(step.tool, "")),
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


class AgentWalkScreen(AgentView):
    """Take the agent's decisions: only calls to what it has seen are offered."""

    SIDE_TITLE = "Next calls"
    BINDINGS = [
        Binding("escape,q", "close", "Close"),
        Binding("backspace", "undo", "Back", priority=True),
        Binding("s", "submit", "Submit"),
        Binding("x", "export", "Export"),
        Binding("p", "toggle_peek", "Peek on/off"),
        Binding("plus", "budget(1)", "Budget +", key_display="+"),
        Binding("minus", "budget(-1)", "Budget -", key_display="-"),
        Binding("N", "new_walk", "New walk", key_display="N"),
        Binding("w", "question", "Question"),
        Binding("slash", "filter", "Filter", key_display="/"),
    ]

    def __init__(
        self,
        package: Package,
        *,
        walk: Walk | None = None,
        budget: int = DEFAULT_BUDGET,
        peek: bool = False,
        location: str | None = None,
    ) -> None:
        walk = walk or Walk(package, budget=budget, peek=peek, location=location)
        super().__init__(package, walk.catalog, walk.budget)
        self.walk = walk
        self.actions: list[Action] = []
        self.exported: str | None = None
        self.filter = ""  # words every listed call must hold (path or why it is offered)

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.walk.steps

    def compose_side(self) -> ComposeResult:
        yield Input(placeholder="filter: words of a path or an entry", id="agent-filter")
        yield OptionList(id="agent-actions")
        with VerticalScroll(id="agent-summary-box"):
            yield Static(id="agent-summary")

    def on_mount(self) -> None:
        self.set_up()
        self.query_one("#agent-filter").display = False
        self.sub_title = f"Agent walk · {self.package.name}"
        self.refresh_walk()
        self.query_one("#agent-actions").focus()

    def mode_text(self) -> Text:
        text = Text.assemble(
            (" Agent walk ", "bold reverse"),
            "  ",
            (self.package.name, "bold"),
            ("   tools: ", "bright_black"),
            ", ".join(self.walk.tools),
            ("   peek ", "bright_black"),
            ("on" if self.walk.peek_enabled else "off", "bold"),
            (" (p)", "bright_black"),
        )
        if self.walk.finished:
            text.append("   answer submitted", "bold green")
        if self.walk.question:
            text.append("   asked: ", "bright_black")
            text.append(self.walk.question, "italic")
        else:
            text.append("   w: the question", "bright_black")
        return text

    def cue_of(self, step: Step) -> str:
        if step.path is None:
            return ""
        return _how(self.walk.reach.telling(step.path, folder=step.tool == LISTDIR))

    def refresh_walk(
        self, show: int | None = None, *, keep: bool = False, prefer: Action | Step | None = None
    ) -> None:
        """Redraw everything: the next calls (or the summary), the bar and the trail.

        ``keep`` leaves the highlight on the call it was on; ``prefer`` moves it to that
        call (the one just undone); otherwise it goes to the first call the last step made
        possible.
        """
        options = self.query_one("#agent-actions", OptionList)
        if keep and options.highlighted_option is not None and self.actions:
            prefer = self.actions[int(options.highlighted_option.id or 0)]
        self.actions = self.walk.available_actions()
        finished = self.walk.finished
        self.query_one("#agent-summary-box").display = finished
        options.display = not finished
        side = self.query_one("#agent-side")
        if finished:
            side.border_title = Text("Summary")
            side.border_subtitle = Text("x exports · backspace undoes the submit")
            self.query_one("#agent-summary", Static).update(self._summary())
        else:
            target = (prefer.tool, prefer.path) if prefer is not None else None
            self._fill_actions(options, target)
        self.query_one("#agent-filter").display = bool(self.filter) and not finished
        self.redraw(show)

    def _title_calls(self, shown: int) -> None:
        side = self.query_one("#agent-side")
        calls = len(self.actions) - 1
        if self.filter:
            side.border_title = Text(f"Next calls ({shown} of {calls} + submit)")
            side.border_subtitle = Text("enter makes the call · esc clears the filter")
        else:
            side.border_title = Text(f"Next calls ({calls} + submit)")
            side.border_subtitle = Text("enter makes the call · / filters · backspace undoes")

    # -- the filter ---------------------------------------------------------------------

    def action_filter(self) -> None:
        if self.walk.finished:
            return
        field = self.query_one("#agent-filter", Input)
        field.display = True
        field.focus()

    @on(Input.Changed, "#agent-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter = event.value.strip()
        self._fill_actions(self.query_one("#agent-actions", OptionList), None)

    @on(Input.Submitted, "#agent-filter")
    def _filter_done(self) -> None:
        self.query_one("#agent-actions").focus()

    def _clear_filter(self) -> bool:
        """Clear and hide the filter; whether there was one to clear."""
        field = self.query_one("#agent-filter", Input)
        had = bool(self.filter) or field.has_focus
        self.filter = ""
        field.value = ""
        field.display = False
        if had:
            self._fill_actions(self.query_one("#agent-actions", OptionList), None)
            self.query_one("#agent-actions").focus()
        return had

    def action_close(self) -> None:
        if not self._clear_filter():  # esc clears a filter first, then closes
            super().action_close()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # backspace edits the filter while it is typed in, instead of undoing a turn
        return not (action == "undo" and self.query_one("#agent-filter", Input).has_focus)

    def _summary(self) -> Group:
        parts: list = [summary_table(self.walk.summary(), self.walk.budget), Text()]
        if self.exported:
            parts.append(Text.assemble(("Exported to ", "green"), (self.exported, "bold")))
        else:
            parts.append(Text("Press x to export the trajectory as JSON Lines.", "bright_black"))
        return Group(*parts)

    def _fill_actions(self, options: OptionList, prefer: tuple[str, str | None] | None) -> None:
        """List the legal calls; highlight ``prefer`` (tool, path) if offered, else the
        first call to a path the last step named, else the first call."""
        new = {reveal.path for step in self.walk.steps[-1:] for reveal in step.new}
        group = ""
        first_new: int | None = None
        preferred: int | None = None
        items: list[Option | None] = []  # None: a separator between files, folders, submit
        shown = 0
        for index, action in enumerate(self.actions):
            if self.filter and action.tool != SUBMIT and not self._matches(action):
                continue
            shown += action.tool != SUBMIT
            kind = "files" if action.tool in (READFILE, PEEK) else action.tool
            if group and kind != group:
                items.append(None)
            group = kind
            if (action.tool, action.path) == prefer:
                preferred = index
            if first_new is None and action.path in new and action.tool != PEEK:
                first_new = index
            items.append(Option(self._action_prompt(action), id=str(index)))
        options.clear_options()
        options.add_options(items)
        self._title_calls(shown)
        if preferred is None and first_new is None and self.filter and items:
            first = items[0]  # filtered: the best is the first call left
            preferred = int(first.id or 0) if first is not None else None
        if self.actions:
            pick = preferred if preferred is not None else first_new
            options.highlighted = options.get_option_index(str(pick or 0))

    def _matches(self, action: Action) -> bool:
        why = _how(self.walk.reach.telling(action.path or "", folder=action.tool == LISTDIR))
        return holds_words(f"{action.path or ''} {why}", self.filter)

    def _action_prompt(self, action: Action) -> Table:
        """The tool, the target (bold) and, beneath it, why the agent may call it."""
        target = Text()
        if action.tool == SUBMIT:
            target.append("submit an answer", "bold")
            target.append("  ends the walk (s)", "dim")
        else:
            path = action.path or ""
            # the file name whole, the middle of the folders elided to fit the list
            width = self.query_one("#agent-actions", OptionList).size.width - 16
            name = path.rpartition("/")[2]
            if width <= 0 or len(path) <= width:
                shown = path
            elif len(name) + 2 <= width:
                shown = elide_path(path, width)
            else:  # not even the name fits: it wraps, whole, after what is left out
                shown = "…/" + name if "/" in path else path
            if action.tool == LISTDIR:
                target.append(f"{shown}/" if path else "./ (the package root)", "bold")
            else:
                target.append(shown, "bold")
            if path == "SKILL.md" and action.tool == READFILE:
                target.append("  activate the skill", "bold green")
            if action.note:
                target.append(f"  ({action.note})", "bold red")
            how = _how(self.walk.reach.telling(path, folder=action.tool == LISTDIR))
            if how:
                target.append("\n")
                target.append(how, "dim")
        grid = Table.grid(padding=(0, 1), expand=True)
        grid.add_column(width=13, no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(Text(action.tool, _TOOL_STYLE.get(action.tool, "")), target)
        return grid

    # -- calls --------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#agent-actions")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        action = self.actions[int(event.option.id or 0)]
        if action.tool == SUBMIT:
            self.action_submit()
            return
        self.perform(action)

    def perform(self, action: Action) -> Step | None:
        """Make the call of ``action`` and show its result."""
        try:
            step = self.walk.call(action.tool, action.args)
        except WalkError as exc:  # the list only offers legal calls; say so if not
            self.notify(str(exc), severity="error", markup=False)
            return None
        self.refresh_walk()
        if step.turn == self.walk.budget + 1:
            self.notify(f"Over the budget of {self.walk.budget} turns", severity="warning")
        return step

    def action_undo(self) -> None:
        step = self.walk.back()
        if step is None:
            self.notify("Nothing to undo: the agent has only seen the catalog entry")
            return
        self.refresh_walk(prefer=step)
        self.notify(f"Undid turn {step.turn}: {step.tool}", markup=False)

    def action_submit(self) -> None:
        if self.walk.finished:
            self.notify("The answer is submitted: backspace undoes it")
            return

        def submitted(answer: str | None) -> None:
            if answer is None:
                return
            self.walk.submit(answer)
            self.refresh_walk()
            self.query_one(TrailTable).focus()
            self.notify("Walk finished: x exports the trajectory")

        self.app.push_screen(
            AskScreen(
                "Submit an answer",
                "The agent's answer. submit_answer ends the walk (a turn of its own);"
                " backspace undoes it.",
                placeholder="what the agent answers…",
            ),
            submitted,
        )

    def action_toggle_peek(self) -> None:
        walk = self.walk
        if walk.peek_enabled and any(step.tool == PEEK for step in walk.steps):
            self.notify(
                "The trail holds peek calls: go back past them before turning peek off",
                severity="warning",
            )
            return
        walk.peek_enabled = not walk.peek_enabled
        self.refresh_walk(self.shown, keep=True)
        self.notify(f"peek {'on' if walk.peek_enabled else 'off'}")

    def budget_changed(self) -> None:
        self.walk.budget = self.budget

    def action_budget(self, delta: int) -> None:
        super().action_budget(delta)
        if self.walk.finished:
            self.query_one("#agent-summary", Static).update(self._summary())

    def action_question(self) -> None:
        """What the walk is trying to answer: kept in the exported trajectory's header
        (replay shows it), and shown above the trail."""

        def answered(value: str | None) -> None:
            if value is not None:
                self.walk.question = " ".join(value.split())
                self.refresh_walk()

        self.app.push_screen(
            AskScreen(
                "The question",
                "What is this walk trying to answer? (kept in the trajectory's header)",
                self.walk.question,
                placeholder="e.g. Can this customer get a refund, and who approves it?",
            ),
            answered,
        )

    def action_new_walk(self) -> None:
        """Start again from the catalog entry; a walk with calls that was not exported
        is discarded only after asking."""
        old = self.walk
        if not old.steps or self.exported:
            self._start_new_walk()
            return
        state = "finished" if old.finished else "in progress"
        question = (
            f"Discard the walk {state} ({counted(old.turns, 'turn')}, not exported)? "
            "Press x first to keep it as JSON Lines."
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._start_new_walk()

        self.app.push_screen(ConfirmScreen("New walk", question), answered)

    def _start_new_walk(self) -> None:
        old = self.walk
        self.walk = Walk(
            self.package,
            budget=self.budget,
            peek=old.peek_enabled,
            location=old.catalog.location,
        )
        self.exported = None
        self.refresh_walk()
        self.query_one("#agent-actions").focus()
        if old.steps:
            self.notify(f"New walk (the previous one had {counted(old.turns, 'turn')})")

    # -- export -------------------------------------------------------------------------

    def default_export_path(self) -> str:
        """A new file in the user data folder (``walks/<package>/``), never the working
        directory, which is often a git checkout."""
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        return str(walks_home(self.package.name) / f"{self.package.name}-walk-{stamp}.jsonl")

    def action_export(self) -> None:
        if not self.walk.steps:
            self.notify("Nothing to export yet: make a call first", severity="warning")
            return
        default = self.default_export_path()
        written: list[Path] = []

        def write(value: str) -> str | None:
            target = export_target(value, Path(default).name)
            if target is None:
                return "Give a file name, e.g. " + default
            if target.parent == walks_home(self.package.name):
                try:  # the data folder's own place for walks is made on first use
                    target.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    return f"Cannot create {target.parent}: {os_reason(exc, writing=True)}"
            if not target.parent.is_dir():
                return f"Cannot write {target}: the folder {target.parent} does not exist"
            try:
                self.walk.export(target)
            except StoreError as exc:
                return f"Cannot write {target}: {exc.message}"
            except OSError as exc:
                return f"Cannot write {target}: {os_reason(exc, writing=True)}"
            written.append(target)
            return None

        def done(value: str | None) -> None:
            if value is None or not written:
                return
            self.exported = str(written[0])
            _session(self.app).last_export = self.exported
            self.notify(
                f"Trajectory written ({counted(self.walk.turns, 'call')}): {self.exported}",
                markup=False,
                timeout=8,
            )
            if self.walk.finished:
                self.query_one("#agent-summary", Static).update(self._summary())

        self.app.push_screen(
            AskScreen(
                "Export the trajectory",
                f"JSON Lines, one call per line ({counted(self.walk.turns, 'call')}). File:",
                default,
                check=write,
            ),
            done,
        )

    def result(self) -> AgentResult:
        summary = self.walk.summary()
        return AgentResult(
            frozenset(summary.read), frozenset(summary.peeked), self.walk, self.budget
        )


def walks_home(package: str) -> Path:
    """Where exported walks of ``package`` go by default: the user data folder."""
    return data_dir() / "walks" / package


def export_target(value: str, default_name: str) -> Path | None:
    """The file an export path names: relative to the working directory, ``~`` expanded;
    an existing folder gets ``default_name`` inside it."""
    text = value.strip()
    if not text:
        return None
    target = Path(os.path.expanduser(text))
    if not target.is_absolute():
        target = Path.cwd() / target
    if target.is_dir():
        target = target / default_name
    return target


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


# --- opening the screens from the app ------------------------------------------------


@dataclass
class _Session:
    """What outlives one screen: the walk kept for ``a``, the budget, the last export."""

    walk: Walk | None = None
    budget: int = DEFAULT_BUDGET
    last_export: str | None = None


_SESSIONS: WeakKeyDictionary[App, _Session] = WeakKeyDictionary()


def _session(app: App) -> _Session:
    return _SESSIONS.setdefault(app, _Session())


def _closed(app: App, result: AgentResult | None, *, walked: bool) -> None:
    """Keep the walk (when ``walked``), remember the budget, mark what was read in the tree."""
    if result is None:
        return
    session = _session(app)
    session.budget = result.budget
    if walked:
        session.walk = result.walk if result.walk is not None and result.walk.steps else None
    try:
        from ..widgets.nav_tree import NavTree

        app.query_one(NavTree).set_visited(result.read, result.peeked)
    except NoMatches:
        pass
    if walked and session.walk is not None:
        app.notify(f"Walk kept ({counted(session.walk.turns, 'turn')}): press a to resume it")


def open_agent_walk(app: App, package: Package) -> None:
    """Push the walk screen, resuming the walk kept from the last time."""
    if any(isinstance(screen, AgentView) for screen in app.screen_stack):
        return
    session = _session(app)
    walk = session.walk
    if walk is not None and walk.package.root != package.root:
        walk = None
    where = getattr(app, "catalog_location", None)
    screen = AgentWalkScreen(package, walk=walk, budget=session.budget, location=where)
    app.push_screen(screen, lambda result: _closed(app, result, walked=True))
