"""A real agent's transcript as a run, and the figures to the first gold read."""

from __future__ import annotations

from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.evaluate.agent_runs import TranscriptNavigator, run_of_transcript
from kas_tui.features.evaluate.metrics import overall
from kas_tui.features.evaluate.report import evaluation_record, format_csv, format_text
from kas_tui.features.evaluate.runner import evaluate
from kas_tui.features.evaluate.runs import ANSWERED, ESTIMATE, FAILED, GAVE_UP, USAGE, Question
from kas_tui.features.evaluate.transcripts import AgentCall, Transcript
from tests.helpers.evaluate import QUESTIONS

SKILL = "/ws/.claude/skills/orbit-handbook"
GOLD = "oncall/escalation-policy.md"
QUESTION = Question("q1", "who is paged next", (GOLD,))


def transcript(*calls: AgentCall, answer: str = "Answer.", usage: bool = True) -> Transcript:
    t = Transcript("run.jsonl", "claude", list(calls), answer=answer, finished=True)
    if usage:
        t.usage_known, t.input_tokens, t.output_tokens = True, 900, 100
    return t


def read(path: str, usage: int | None = None, **kw) -> AgentCall:  # type: ignore[no-untyped-def]
    return AgentCall("readfile", path, "Read", 1, usage=usage, **kw)


def test_calls_inside_the_skill_become_steps_and_the_answer_the_last(root: Path) -> None:
    t = transcript(
        read("", 100, skill="orbit-handbook"),  # the Skill tool: SKILL.md
        AgentCall("listdir", f"{SKILL}/oncall", "Grep", 2, usage=250),
        read(f"{SKILL}/index.md", 400),
        read("/ws/notes.md", 500),  # outside the skill: not a step
        read(f"{SKILL}/missing.md", 600, error="File does not exist."),
        read(f"{SKILL}/{GOLD}", 800),
    )
    run = run_of_transcript(Package.open(root), QUESTION, t, skill="orbit-handbook")
    assert [(s.tool, s.path) for s in run.steps] == [
        ("readfile", "SKILL.md"),
        ("listdir", "oncall"),
        ("readfile", "index.md"),
        ("readfile", None),  # failed where the agent ran: its error, unread
        ("readfile", GOLD),
        ("submit_answer", None),
    ]
    assert run.steps[3].status == "bad-call" and "File does not exist." in run.steps[3].text
    assert run.ended == ANSWERED and run.answer == "Answer." and run.reached
    assert run.turns_to_gold == 5 and run.tokens_to_gold == 800
    assert run.token_source == USAGE and run.tokens == 1000
    assert run.read_tokens_to_gold == run.steps[4].cumulative
    assert run.note == "1 call outside the skill folder, not scored"
    assert run.usage == {"input_tokens": 900, "output_tokens": 100, "total_tokens": 1000}


def test_an_agent_error_or_a_cut_transcript_is_a_failed_run(root: Path) -> None:
    pkg = Package.open(root)
    t = transcript(read(f"{SKILL}/index.md"), answer="")
    t.error = "error_max_turns"
    run = run_of_transcript(pkg, QUESTION, t, skill="orbit-handbook")
    assert run.ended == FAILED and run.note == "the agent failed: error_max_turns"
    cut = transcript(read(f"{SKILL}/index.md"), answer="", usage=False)
    cut.finished = False
    run = run_of_transcript(pkg, QUESTION, cut, skill="orbit-handbook")
    assert run.ended == FAILED and "ends before the agent's final record" in run.note
    assert run.token_source == ESTIMATE and run.tokens == run.summary.total_tokens
    quiet = run_of_transcript(pkg, QUESTION, transcript(answer=""), skill="orbit-handbook")
    assert quiet.ended == GAVE_UP and quiet.tokens_to_gold is None


def test_transcript_navigator_names_a_missing_transcript(root: Path, tmp_path: Path) -> None:
    nav = TranscriptNavigator(Package.open(root), tmp_path, skill="orbit-handbook", budget=15)
    run = nav.run(QUESTION)
    assert run.ended == FAILED and run.note == f"no transcript q1.jsonl in {tmp_path}"
    assert nav.name == "agent (transcripts)"


def test_lexical_figures_to_gold_sit_beside_the_totals(root: Path) -> None:
    """The lexical navigator's walk after its gold read is not what finding the answer
    cost: turns and tokens to the first gold read are reported beside the totals."""
    ev = evaluate(Package.open(root), QUESTIONS)
    reached = [r for r in ev.main.runs if r.reached]
    assert reached and all(r.tokens_to_gold <= r.tokens for r in reached)
    assert all(r.tokens_to_gold == r.read_tokens_to_gold for r in reached)
    figures = overall(ev.main.runs)
    assert figures.median_turns_to_gold is not None and figures.tokens_source == ESTIMATE
    record = evaluation_record(ev)
    variant = record["variants"][0]
    assert variant["navigator"] == "lexical-bm25"
    assert variant["overall"]["median_tokens_to_gold"] == figures.median_tokens_to_gold
    first = variant["questions"][0]
    assert {"tokens_to_gold", "read_tokens", "read_tokens_to_gold", "tokens_source"} <= set(first)
    text = format_text(ev)
    assert "turns to gold" in text and "tokens to gold" in text
    assert "\nlexical-bm25 " in text and "lexical-bm25 --ablate descriptions" not in text
    assert "tokens: estimated, 4 characters a token" in text
    csv_rows = format_csv(ev).splitlines()
    assert len(csv_rows) == 1 + len(QUESTIONS) and csv_rows[1].startswith("full,lexical-bm25,")
