"""The trail of an agent walk or replay: one row per tool call, the catalog entry first.

Also the small renderables the agent screens share: the budget meter, a step's flags
and the summary table. Text from the package (paths, answers) is always passed as
:class:`rich.text.Text`, never as markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual import events
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from kas_tui.features.agent import CatalogEntry, Step, Summary

#: Row key of the catalog entry (the system prompt) in the trail.
CATALOG_ROW = "0"

_FLAG_STYLE = {
    "guessed": "bold yellow",
    "missing": "bold red",
    "outside": "bold red",
    "wrong-kind": "red",
    "unreadable": "red",
    "bad-call": "red",
}


def step_flags(step: Step) -> list[str]:
    """What is odd about a call: a failed status (``missing``, ``outside``...), ``guessed``."""
    flags = [] if step.ok else [step.status]
    if step.guessed:
        flags.append("guessed")
    return flags


def flags_text(flags: Sequence[str]) -> Text:
    return Text(" ").join(Text(flag, _FLAG_STYLE.get(flag, "red")) for flag in flags)


def argument_of(step: Step) -> str:
    """The call's argument as the agent wrote it: the path, or the answer."""
    if step.answer is not None:
        return step.answer
    for value in step.args.values():
        if isinstance(value, str):
            return value
    return ""


def budget_text(turns: int, budget: int) -> Text:
    """``turn 4 / 15``, red once over the budget."""
    over = turns > budget
    text = Text(f" turn {turns} / {budget} ", "bold white on red" if over else "bold")
    if over:
        text.append(f" {turns - budget} over budget", "bold red")
    return text


def tokens(n: int, width: int = 8) -> Text:
    """A token count, right-aligned in ``width`` cells (a table cell does not justify)."""
    return Text(f"{n:>{width},}", no_wrap=True)


#: The argument column's width when there is room; the other columns' cells and padding.
ARGUMENT_WIDTH = 60
_OTHERS = 4 + 13 + 8 + 10 + 30 + 2 * 6


def argument_width(table_width: int) -> int:
    """The argument column's width in a table ``table_width`` cells wide (20 at least)."""
    return max(20, min(ARGUMENT_WIDTH, table_width - _OTHERS - 2))


class TrailTable(DataTable[Text]):
    """Turn, tool, argument, tokens, cumulative and flags; row ``0`` is the catalog entry."""

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)

    def on_mount(self) -> None:
        self.add_column("turn", key="turn", width=4)
        self.add_column("tool", key="tool", width=13)
        self.add_column("argument", key="argument", width=ARGUMENT_WIDTH)
        self.add_column("  tokens", key="tokens", width=8)
        self.add_column("cumulative", key="cumulative", width=10)
        self.add_column("flags", key="flags", width=30)

    def on_resize(self, event: events.Resize) -> None:
        """The argument column gives way on a narrow screen, so the token counts stay in
        view (at 80 columns a 60-cell argument pushed them off the edge)."""
        column = self.columns.get(ColumnKey("argument"))
        if column is None:
            return
        width = argument_width(event.size.width)
        if column.width != width:
            column.width = width
            self._require_update_dimensions = True
            self.refresh()

    def fill(self, catalog: CatalogEntry, steps: Sequence[Step], budget: int) -> None:
        """Show the catalog entry and ``steps``; turns past ``budget`` are red."""
        self.clear()
        self.add_row(
            Text(f"{0:>4}", "bright_black", no_wrap=True),
            Text("system prompt", "italic"),
            Text("<available_skills> catalog entry, sent with every call", "italic"),
            tokens(catalog.tokens),
            Text(""),
            Text(""),
            key=CATALOG_ROW,
        )
        for step in steps:
            self.add_row(
                Text(f"{step.turn:>4}", "bold red" if step.turn > budget else "", no_wrap=True),
                Text(step.tool, "bold" if step.ok else "red"),
                Text(argument_of(step), overflow="ellipsis", no_wrap=True),
                tokens(step.tokens),
                tokens(step.cumulative, 10),
                flags_text(step_flags(step)),
                key=str(step.turn),
            )


def summary_table(summary: Summary, budget: int) -> Table:
    """Turns against the budget, tokens, what was read, peeked and entered."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()

    def paths(items: Sequence[str]) -> Text:
        if not items:
            return Text("none", "bright_black")
        return Text(", ").join(Text(p or "(root)") for p in items)

    if summary.submitted:
        answer = summary.answer or ""
        table.add_row("Answer", Text(answer) if answer else Text("(empty)", "bright_black"))
    else:
        table.add_row("Answer", Text("not submitted", "bright_black"))
    turns = Text(f"{summary.turns} / {budget}")
    if summary.turns > budget:
        turns.stylize("bold red")
        turns.append(f"  ({summary.turns - budget} over budget)", "bold red")
    table.add_row("Turns", turns)
    table.add_row(
        "Tokens",
        Text(
            f"{summary.total_tokens:,} in calls + {summary.catalog_tokens:,} catalog"
            f" = {summary.context_tokens:,}"
        ),
    )
    table.add_row(
        "Documents",
        Text(f"{len(summary.documents_read)} read · {len(summary.peeked_only)} peeked only"),
    )
    table.add_row(f"Read ({len(summary.read)})", paths(summary.read))
    if summary.peeked:
        table.add_row(f"Peeked ({len(summary.peeked)})", paths(summary.peeked))
    if summary.listed:
        listed = [f"{p}/" if p else "(root)" for p in summary.listed]
        table.add_row(f"Listed ({len(listed)})", paths(listed))
    table.add_row(f"Bundles ({len(summary.bundles)})", paths(summary.bundles))
    odd = Text(f"{summary.failed} failed · {summary.guessed} guessed")
    if summary.failed or summary.guessed:
        odd.stylize("yellow")
    table.add_row("Calls", odd)
    return table
