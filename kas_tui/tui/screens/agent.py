"""The agent walk: the user makes the agent's tool calls, one at a time (layout in
:mod:`.agent_view`).

A walk with steps is kept on the app, so ``a`` resumes it; ``N`` inside the walk starts
a new one; ``x`` exports it as JSON Lines that the replay opens.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from kas_tui.core.store import StoreError, os_reason
from kas_tui.core.user_dirs import data_dir
from kas_tui.features.agent import (
    DEFAULT_BUDGET,
    LISTDIR,
    PEEK,
    READFILE,
    SUBMIT,
    Action,
    Reveal,
    Step,
    Walk,
    WalkError,
)
from kas_tui.text.wording import counted, elide_path, holds_words
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.choose import ConfirmScreen
from kas_tui.tui.widgets.trail import (
    TrailTable,
    summary_table,
)

if TYPE_CHECKING:
    from kas_tui.core.package import Package

from kas_tui.tui.screens.agent_view import TOOL_STYLE, AgentResult, AgentView, closed, session


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
        grid.add_row(Text(action.tool, TOOL_STYLE.get(action.tool, "")), target)
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

        self.app.push_screen(
            ConfirmScreen("New walk", question, yes="Discard it, start anew", no="Keep it"),
            answered,
        )

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
            session(self.app).last_export = self.exported
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


def open_agent_walk(app: App, package: Package) -> None:
    """Push the walk screen, resuming the walk kept from the last time."""
    if any(isinstance(screen, AgentView) for screen in app.screen_stack):
        return
    kept = session(app)
    walk = kept.walk
    if walk is not None and walk.package.root != package.root:
        walk = None
    where = getattr(app, "catalog_location", None)
    screen = AgentWalkScreen(package, walk=walk, budget=kept.budget, location=where)
    app.push_screen(screen, lambda result: closed(app, result, walked=True))
