"""How the evaluation screen draws an evaluation: the figures line and one question's
detail, as Rich renderables (text from the report is never read as markup)."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from kas_tui.text.wording import counted

if TYPE_CHECKING:
    from kas_tui.features.evaluate.blame import EntryRef
    from kas_tui.features.evaluate.stored import QuestionRow, StoredEvaluation

NAVIGATOR = "lexical-bm25"  # what re-runs use


def pct(value: float) -> str:
    """``0.75`` -> ``75%``, ``0.667`` -> ``66.7%``."""
    return f"{value * 100:.1f}".removesuffix(".0") + "%"


def cut(text: str, width: int) -> str:
    """``text`` on one line, cut with an ellipsis to ``width`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def figures_text(stored: StoredEvaluation, reruns: int = 0) -> Text:
    """The header: overall figures, the flat baseline, ablations, where it came from."""
    o = stored.overall
    text = Text.assemble(
        ("Reach ", "bold"),
        (f"{pct(o.reach)}", "bold green" if o.reach >= 0.9 else "bold yellow"),
        f" ({o.reached}/{o.questions})",
        ("  ·  ", "bright_black"),
        f"≤{stored.within} turns {pct(o.reach_within)}",
        ("  ·  ", "bright_black"),
        f"median {o.median_turns:g} turns, {o.median_tokens:,.0f} tokens",
    )
    if o.median_turns_to_gold is not None:  # what a walk took to find the answer
        tokens = o.median_tokens_to_gold
        said = f", {tokens:,.0f} tokens" if tokens is not None else ""
        text.append("  ·  ", "bright_black")
        text.append(f"to gold {o.median_turns_to_gold:g} turns{said}")
    second = Text()
    if stored.recall:
        second.append("flat BM25 ", "bright_black")
        second.append(" ".join(f"R@{k} {pct(v)}" for k, v in sorted(stored.recall.items())))
    if stored.ablations:
        second.append("  ·  without ", "bright_black")
        second.append(", ".join(f"{name} {pct(reach)}" for name, reach in stored.ablations))
    if second:
        text.append("\n")
        text.append_text(second)
    when = stored.date.replace("T", " ")[:16]
    source = posixpath.basename(stored.questions_source.replace("\\", "/")) or "memory"
    line = f"\n{stored.navigator or '?'} · budget {stored.budget} · {source} · {when}"
    text.append(line, "bright_black")
    if stored.navigator and stored.navigator != NAVIGATOR:
        text.append(f" · re-runs use {NAVIGATOR}", "yellow")
    if stored.stopped:
        text.append(" · stopped before the end", "yellow")
    if stored.problems:
        text.append(f" · {len(stored.problems)} record(s) skipped", "bold red")
    if reruns:
        text.append(f" · {reruns} re-run (not saved)", "cyan")
    return text


def _entry_text(ref: EntryRef) -> Text:
    text = Text.assemble((ref.where, "cyan"), "  ", (ref.title, "bold"))
    if ref.description:
        text.append(f" - {ref.description}")
    return text


def detail_text(row: QuestionRow) -> Group:
    """Everything about one question: what was asked, its blame, what it read and answered."""
    mark_style = "bold green" if row.reached else "bold red"
    head = Text.assemble((row.mark, mark_style), " ", (row.id, "bold"), f"  {row.ended}")
    head.append(f" · {counted(row.turns, 'turn')} · {counted(row.tokens, 'token')}", "bright_black")
    if row.turn_to_gold is not None:
        head.append(f" · gold on turn {row.turn_to_gold}", "bright_black")
    blame = row.blame  # a miss's, or a detour's (reached late)
    if blame is not None:
        head.append(" · blame ", "bright_black")
        head.append(blame.kind, "bold yellow" if blame.late else "bold red")
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True, width=8)
    grid.add_column(ratio=1)
    grid.add_row("asked", Text(row.question))
    grid.add_row("gold", Text(", ".join(row.gold) or "(none)"))
    if blame is not None:
        if blame.expected is not None:
            grid.add_row("expected", _entry_text(blame.expected))
        if blame.chosen is not None:
            grid.add_row("instead", _entry_text(blame.chosen))
        elif blame.chosen_path:
            grid.add_row("instead", Text(blame.chosen_path))
        grid.add_row("fix", Text(blame.hint, "italic"))
    read = Text()
    for i, path in enumerate(row.read):
        read.append(", " if i else "")
        read.append(path, "green" if path in row.gold else "")
    grid.add_row("read", read if row.read else Text("(nothing)"))
    grid.add_row("answer", Text(row.answer or "(none)"))
    if row.note:
        grid.add_row("note", Text(row.note))
    return Group(head, grid)
