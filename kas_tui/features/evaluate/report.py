"""An evaluation as text, JSON or Markdown.

The JSON document (``--format json``, and ``report.json`` beside the trajectories)::

    {"kas_tui_eval": 1, "package": "orbit-handbook", "root": "/abs/path",
     "questions_source": "q.jsonl", "navigator": "lexical-bm25", "budget": 15,
     "within_turns": 4, "date": "2026-12-02T17:30:00Z", "seconds": 1.2,
     "flat_seconds": 0.1, "stopped": false, "trajectories": "/abs/dir" | null,
     "variants": [
       {"name": "full" | "descriptions" | "frontmatter" | "indexes",
        "navigator": "lexical-bm25" | "claude-code" | ...,   # who made these figures
        "overall": {questions, reached, reach, reached_within, reach_within, within_turns,
                    median_turns, median_tokens, gave_up, out_of_budget, failed,
                    off_path_reads, median_turns_to_gold, median_tokens_to_gold,
                    tokens_source: "estimate" | "usage" | "mixed", stopped_repeating},
        "bundles": {"<top-level bundle>": {same keys as overall}},
        "questions": [{"id", "question", "gold": [...], "reached", "turns", "tokens",
                       "turn_to_gold" | null, "tokens_to_gold" | null, "read_tokens",
                       "read_tokens_to_gold" | null, "tokens_source", "navigator",
                       "usage": {...} (an agent's, when reported),
                       "ended", "answer", "note", "off_path": [...],
                       "read": [...], "trajectory": "<variant>/<id>.jsonl" | null}],
        "blame": [{"question", "kind", "expected": entry | null, "chosen": entry | null,
                   "chosen_path", "hint"}],      # misses, then "detour"s (reached late)
        "blame_summary": {"misleading": [{"entry", "times"}],
                          "confused_siblings": [{"a", "b", "times"}],
                          "unreached_gold": [...], "by_kind": {...}}}],
     "flat": {"recall": {"1": r1, "3": r3, "5": r5},
              "questions": [{"id", "ranked": [...], "gold_rank" | null}]}}

An entry is ``{"index", "line", "title", "description", "target"}``. The first variant
is the package as it is; the others are the ablations asked for.

``tokens`` are what ``tokens_source`` says: ``estimate`` (4 characters a token of the
calls and what they returned: the navigators') or ``usage`` (a real agent's usage
records, input + output); ``read_tokens`` are always the estimate, so a lexical walk and
an agent's compare. ``*_to_gold`` count up to and including the first gold read.

CSV (``--format csv``): one row a question and variant, with the columns of
:data:`CSV_COLUMNS`.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from kas_tui.features.evaluate.ablation import WHAT
from kas_tui.features.evaluate.blame import Blame
from kas_tui.features.evaluate.metrics import Overall, reached_within
from kas_tui.features.evaluate.runner import FULL, Evaluation, Variant, safe_name
from kas_tui.features.evaluate.runs import REPEATED, USAGE, Run

SCHEMA_VERSION = 1


def evaluation_record(ev: Evaluation) -> dict[str, Any]:
    """The JSON-ready record of ``ev`` (see the module docstring)."""
    return {
        "kas_tui_eval": SCHEMA_VERSION,
        "package": ev.package,
        "root": ev.root,
        "questions_source": ev.questions_source,
        "navigator": ev.navigator,
        "budget": ev.budget,
        "within_turns": ev.within,
        "date": ev.date,
        "seconds": round(ev.seconds, 3),
        "flat_seconds": round(ev.flat_seconds, 3),
        "stopped": ev.stopped,
        "trajectories": ev.out_dir,
        "variants": [_variant_record(v, ev) for v in ev.variants],
        "flat": {
            "recall": {str(k): round(v, 4) for k, v in ev.recall.items()},
            "questions": [
                {"id": r.question.id, "ranked": list(r.ranked), "gold_rank": r.gold_rank}
                for r in ev.flat
            ],
        },
    }


def _variant_record(variant: Variant, ev: Evaluation) -> dict[str, Any]:
    saved = ev.out_dir is not None
    return {
        "name": variant.name,
        "navigator": ev.navigator,
        "overall": variant.overall.record(),
        "bundles": {name: o.record() for name, o in variant.bundles.items()},
        "questions": [
            {
                "id": run.question.id,
                "question": run.question.question,
                "gold": list(run.question.gold),
                "reached": run.reached,
                **_run_figures(run),
                "navigator": run.navigator,
                **({"usage": dict(run.usage)} if run.usage else {}),
                "ended": run.ended,
                "answer": run.answer,
                "note": run.note,
                "off_path": list(run.off_path),
                "read": list(run.read),
                "trajectory": (
                    f"{variant.name}/{safe_name(run.question.id)}.jsonl" if saved else None
                ),
            }
            for run in variant.runs
        ],
        "blame": [b.record() for b in variant.blames],
        "blame_summary": variant.blame.record(),
    }


def _run_figures(run: Run) -> dict[str, Any]:
    """The turns and tokens of one run, totals and to the first gold read."""
    return {
        "turns": run.summary.turns,
        "tokens": run.tokens,
        "turn_to_gold": run.turns_to_gold,
        "tokens_to_gold": run.tokens_to_gold,
        "read_tokens": run.summary.total_tokens,
        "read_tokens_to_gold": run.read_tokens_to_gold,
        "tokens_source": run.token_source,
    }


def format_json(ev: Evaluation) -> str:
    return json.dumps(evaluation_record(ev), indent=2, ensure_ascii=False)


CSV_COLUMNS = (
    "variant",
    "navigator",
    "id",
    "reached",
    "reached_within",
    "turns",
    "tokens",
    "turn_to_gold",
    "tokens_to_gold",
    "read_tokens",
    "read_tokens_to_gold",
    "tokens_source",
    "ended",
    "note",
)


def format_csv(ev: Evaluation) -> str:
    """One row a question and variant (see :data:`CSV_COLUMNS`); unknown figures empty."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for variant in ev.variants:
        for run in variant.runs:
            figures = _run_figures(run)
            row = {
                "variant": variant.name,
                "navigator": run.navigator,
                "id": run.question.id,
                "reached": run.reached,
                "reached_within": reached_within(run, ev.within),
                **figures,
                "ended": run.ended,
                "note": run.note,
            }
            writer.writerow([_cell(row[c]) for c in CSV_COLUMNS])
    return out.getvalue()


def _cell(value: object) -> object:
    if value is None:
        return ""
    return str(value).lower() if isinstance(value, bool) else value


# --- text ------------------------------------------------------------------------------


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def _known(value: float | None, form: str) -> str:
    return "-" if value is None else format(value, form)


def _figures(o: Overall, failed: bool = False) -> list[str]:
    figures = [
        _pct(o.reach),
        _pct(o.reach_within),
        f"{o.median_turns:g}",
        f"{o.median_tokens:,.0f}",
        _known(o.median_turns_to_gold, "g"),
        _known(o.median_tokens_to_gold, ",.0f"),
        str(o.gave_up),
        str(o.out_of_budget),
    ]
    return [*figures, str(o.failed)] if failed else figures


def _any_failed(ev: Evaluation) -> bool:
    """Whether a run failed (its column is shown then: an endpoint's errors...)."""
    return any(v.overall.failed for v in ev.variants)


def _table(rows: list[list[str]], header: list[str]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(  # noqa: E731
        c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
    )
    return [line(header), *(line(r) for r in rows)]


def _label(variant: Variant, navigator: str) -> str:
    return navigator if variant.name == FULL else f"{navigator} --ablate {variant.name}"


#: What each figure's tokens are, by ``tokens_source``.
TOKENS_SAY = {
    "estimate": "estimated, 4 characters a token, of the calls and what they returned",
    USAGE: "the agent's usage records, input + output (cached input included)",
    "mixed": "the agent's usage where its transcript reported it, else estimated",
}


def _tokens_line(ev: Evaluation) -> str:
    source = ev.main.overall.tokens_source
    line = f"tokens: {TOKENS_SAY.get(source, source)}; to gold: up to the first gold read"
    if ev.main.overall.median_tokens_to_gold is None and source != "estimate":
        line += " (not known: usage came only as a total)"
    return line


def format_text(ev: Evaluation, *, top: int = 10) -> str:
    """The report a person reads in a terminal."""
    main = ev.main
    n = main.overall.questions
    out = [
        f"kas-tui eval: {ev.package}: {n} question(s) from {ev.questions_source or 'memory'}, "
        f"navigator {ev.navigator}, budget {ev.budget} turns",
        "",
    ]
    header = ["", "reach", f"<={ev.within} turns", "median turns", "median tokens"]
    header += ["turns to gold", "tokens to gold", "gave up", "out of budget"]
    failed = _any_failed(ev)
    header += ["failed"] if failed else []
    rows = [[_label(v, ev.navigator), *_figures(v.overall, failed)] for v in ev.variants]
    out += _table(rows, header)
    out.append(_tokens_line(ev))
    rec = ev.recall
    out.append(
        "flat baseline (BM25 over every body): "
        + ", ".join(f"recall@{k} {_pct(v)}" for k, v in rec.items())
    )
    for variant in ev.variants[1:]:
        delta = variant.overall.reach - main.overall.reach
        out.append(
            f"  without {variant.name} ({WHAT[variant.name]}): reach {delta * 100:+.1f} points, "
            f"median tokens {variant.overall.median_tokens - main.overall.median_tokens:+,.0f}"
        )
    if len(main.bundles) > 1:
        out += ["", "By bundle:"]
        rows = [[name or "(root)", *_figures(o, failed)] for name, o in main.bundles.items()]
        out += ["  " + line for line in _table(rows, ["bundle", *header[1:]])]
    out += _blame_text(main, top, ev.within)
    repeated = [r for r in main.runs if r.ended == REPEATED]
    if repeated:
        out += ["", f"Stopped: repeated call ({len(repeated)}):"]
        out += [f"  {r.question.id}: {r.note.split('; ')[0]}" for r in repeated[:top]]
    out.append("")
    tail = f"{n} question(s) in {ev.seconds:.2f} s; flat baseline {ev.flat_seconds:.2f} s"
    if ev.stopped:
        tail += " (stopped before the end)"
    out.append(tail)
    if ev.out_dir:
        out.append(f"trajectories and report.json: {ev.out_dir}")
    return "\n".join(out)


def _blame_text(variant: Variant, top: int, within: int) -> list[str]:
    missed = [b for b in variant.blames if not b.late]
    late = [b for b in variant.blames if b.late]
    out = ["", f"Blame ({len(missed)} missed):" if missed else "Blame: no question missed."]
    out += _blame_list(missed, top)
    if late:
        out += ["", f"Detours ({len(late)} reached, but after turn {within}):"]
        out += _blame_list(late, top)
    summary = variant.blame
    if summary.misleading:
        out += ["", "Entries that mislead most often:"]
        for ref, times in summary.misleading[:top]:
            out.append(f"  {times}x {ref.where} {ref.title!r} - {ref.description}")
    if summary.confused:
        out += ["", "Sibling entries confused with each other:"]
        for a, b, times in summary.confused[:top]:
            out.append(f"  {times}x {a.where} {a.title!r} <-> {b.where} {b.title!r}")
    if summary.unreached:
        out += ["", f"Gold documents no question reached ({len(summary.unreached)}):"]
        out += [f"  {path}" for path in summary.unreached[:top]]
        if len(summary.unreached) > top:
            out.append(f"  ... and {len(summary.unreached) - top} more")
    return out


def _blame_list(blames: list[Blame], top: int) -> list[str]:
    out = []
    for blame in blames[:top]:
        out += ["  " + line for line in _blame_lines(blame)]
    if len(blames) > top:
        out.append(f"  ... and {len(blames) - top} more (--format json has them all)")
    return out


def _blame_lines(blame: Blame) -> list[str]:
    lines = [f"{blame.question_id} [{blame.kind}]"]
    if blame.expected is not None:
        e = blame.expected
        lines.append(f"  should have opened {e.where} {e.title!r} - {e.description}")
    if blame.chosen is not None:
        c = blame.chosen
        lines.append(f"  opened instead     {c.where} {c.title!r} - {c.description}")
    elif blame.chosen_path:
        lines.append(f"  opened instead     {blame.chosen_path}")
    lines.append(f"  fix: {blame.hint}")
    return lines


# --- Markdown --------------------------------------------------------------------------


def format_markdown(ev: Evaluation, *, top: int = 10) -> str:
    """A CI summary (GitHub's job summary renders it)."""
    main = ev.main
    out = [
        f"## kas-tui eval: {ev.package}",
        "",
        f"{main.overall.questions} questions from `{ev.questions_source or 'memory'}`, "
        f"navigator `{ev.navigator}`, budget {ev.budget} turns.",
        "",
        f"| | reach | within {ev.within} turns | median turns | median tokens "
        "| turns to gold | tokens to gold | gave up "
        "| out of budget |" + (" failed |" if _any_failed(ev) else ""),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if _any_failed(ev) else ""),
    ]
    for v in ev.variants:
        figures = _figures(v.overall, _any_failed(ev))
        out.append("| " + " | ".join([_label(v, ev.navigator), *figures]) + " |")
    out += ["", _tokens_line(ev) + "."]
    rec = ev.recall
    out += [
        "",
        "Flat baseline (BM25 over every body): "
        + ", ".join(f"recall@{k} {_pct(v)}" for k, v in rec.items())
        + ".",
    ]
    if main.blame.misleading:
        out += ["", "### Entries that mislead most often", "", "| times | entry | description |"]
        out.append("|---:|---|---|")
        for ref, times in main.blame.misleading[:top]:
            desc = ref.description.replace("|", "\\|")
            out.append(f"| {times} | `{ref.where}` {ref.title} | {desc} |")
    for title, late in (("Missed questions", False), (f"Reached after turn {ev.within}", True)):
        blames = [b for b in main.blames if b.late == late]
        if blames:
            out += ["", f"### {title}", ""]
            out += [f"- **{b.question_id}** ({b.kind}): {b.hint}" for b in blames[:top]]
    if main.blame.unreached:
        out += ["", f"### Gold documents no question reached ({len(main.blame.unreached)})", ""]
        out += [f"- `{p}`" for p in main.blame.unreached[:top]]
    return "\n".join(out) + "\n"
