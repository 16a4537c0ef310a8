"""The Agent Skills eval files: evals/evals.json, benchmark.json, timing.json."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kas_tui.cli.main import main
from kas_tui.core.package import Package
from kas_tui.features.evaluate.question_files import read_question_set, write_question_set
from kas_tui.features.evaluate.runs import Question
from kas_tui.features.evaluate.skill_evals import (
    EvalFileError,
    benchmark_record,
    parse_evals,
    read_benchmark,
    read_timing,
)

DEMO = Path(__file__).resolve().parents[3] / "demo_kb" / "orbit-handbook"

#: The example of docs/skill-creation/evaluating-skills.mdx (agentskills/agentskills),
#: with its assertions, as the format's own authors write it.
SPEC_EVALS = """{
  "skill_name": "csv-analyzer",
  "evals": [
    {
      "id": 1,
      "prompt": "I have a CSV of monthly sales data in data/sales_2025.csv. Can you find the top 3 months by revenue and make a bar chart?",
      "expected_output": "A bar chart image showing the top 3 months by revenue, with labeled axes and values.",
      "files": ["evals/files/sales_2025.csv"],
      "assertions": [
        "The output includes a bar chart image file",
        "The chart shows exactly 3 months"
      ]
    },
    {
      "id": 2,
      "prompt": "there's a csv in my downloads called customers.csv, some rows have missing emails \\u2014 can you clean it up and tell me how many were missing?",
      "expected_output": "A cleaned CSV with missing emails handled, plus a count of how many were missing.",
      "files": ["evals/files/customers.csv"]
    }
  ]
}
"""

#: The same page's benchmark.json and timing.json examples.
SPEC_BENCHMARK = """{
  "run_summary": {
    "with_skill": {
      "pass_rate": { "mean": 0.83, "stddev": 0.06 },
      "time_seconds": { "mean": 45.0, "stddev": 12.0 },
      "tokens": { "mean": 3800, "stddev": 400 }
    },
    "without_skill": {
      "pass_rate": { "mean": 0.33, "stddev": 0.10 },
      "time_seconds": { "mean": 32.0, "stddev": 8.0 },
      "tokens": { "mean": 2100, "stddev": 300 }
    },
    "delta": { "pass_rate": 0.50, "time_seconds": 13.0, "tokens": 1700 }
  }
}
"""
SPEC_TIMING = '{\n  "total_tokens": 84852,\n  "duration_ms": 23332\n}\n'


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """The demo without its own question set (``evals/``): the commands' cases start from
    a package that has none (see test_the_demo_carries_its_own_questions for the set)."""
    root = Path(shutil.copytree(DEMO, tmp_path / "orbit-handbook"))
    shutil.rmtree(root / "evals")
    return root


def _fields(questions: list[Question]) -> list[tuple]:
    return [(q.id, q.question, q.gold, q.answer, q.tags) for q in questions]


QUESTIONS = [
    Question("1", "How do I refund?", ("billing/refunds.md",), "Use Stripe.", ("billing",)),
    Question("q2", "Who is paged?", ("oncall/a.md", "oncall/b.md")),
    Question("007", "Zero-padded ids stay text", ("a.md",), "", ()),
]


def test_evals_json_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "evals.json"
    write_question_set(path, QUESTIONS, skill_name="orbit-handbook")
    back = read_question_set(path)
    assert not back.problems
    assert _fields(back.questions) == _fields(QUESTIONS)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["skill_name"] == "orbit-handbook"
    first, second, third = document["evals"]
    # the format's keys (an integer id where the id is one), then kas-tui's gold and tags
    assert first == {
        "id": 1,
        "prompt": "How do I refund?",
        "expected_output": "Use Stripe.",
        "gold": ["billing/refunds.md"],
        "tags": ["billing"],
    }
    assert second["id"] == "q2" and second["expected_output"] == ""
    assert third["id"] == "007"
    # written again from what was read: the same bytes
    again = tmp_path / "again.json"
    write_question_set(again, back.questions, skill_name="orbit-handbook")
    assert again.read_bytes() == path.read_bytes()


def test_the_formats_own_example_reads(tmp_path: Path) -> None:
    path = tmp_path / "evals.json"
    path.write_text(SPEC_EVALS, encoding="utf-8")
    qset = read_question_set(path)
    assert not qset.problems
    assert [(q.id, q.gold, q.line) for q in qset.questions] == [("1", (), 4), ("2", (), 14)]
    assert qset.questions[0].answer.startswith("A bar chart image")
    assert "missing emails \u2014 can you" in qset.questions[1].question


def test_without_gold_an_eval_cannot_be_scored_and_says_what_to_add(demo: Path) -> None:
    qset = parse_evals(SPEC_EVALS, "evals.json", Package.open(demo))
    assert not qset.questions
    assert [str(p).split(": ", 1)[0] for p in qset.problems] == [
        "evals.json, line 4",
        "evals.json, line 14",
    ]
    assert "has no 'gold'" in str(qset.problems[0]) and '"gold": [' in str(qset.problems[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"evals": [\n  {"id": 1, "prompt": "x?"\n', "evals.json, line 3: not valid JSON"),
        ("[1, 2]", "evals.json: expected a JSON object with an 'evals' list, got a list"),
        ('{"skill_name": "x"}', "evals.json: no 'evals'; an evals.json holds"),
        ('{"evals": {"id": 1}}', "evals.json: 'evals' is an object"),
        ('{"evals": [\n 3\n]}', "evals.json, line 2: the eval must be an object, not a number"),
        ('{"evals": [\n {"id": 1}\n]}', "line 2: the eval's 'prompt' must be a non-empty string"),
        (
            '{"evals": [\n {"id": 1, "prompt": "p", "expected_output": 4}\n]}',
            "line 2: the eval's 'expected_output' must be a string, not a number",
        ),
        ('{"evals": [\n {"prompt": "p"}\n]}', "evals.json, line 2: no 'id'"),
        (
            '{"evals": [\n {"id": 1, "prompt": "p"},\n {"id": 1, "prompt": "q"}\n]}',
            "evals.json, line 3: the id '1' is already used by the eval on line 2",
        ),
        (
            '{"evals": [\n {"id": 1, "prompt": "p", "gold": [1]}\n]}',
            "line 2: 'gold' must be a list of package paths",
        ),
        (
            '[{"query": "rotate the key", "should_trigger": true}]',
            "evals.json: holds trigger queries (query, should_trigger), not questions",
        ),
    ],
)
def test_a_bad_evals_json_is_one_line_naming_file_and_fault(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "evals.json"
    path.write_text(text, encoding="utf-8")
    problems = [str(p) for p in read_question_set(path).problems]
    assert len(problems) == 1
    assert problems[0].startswith(str(tmp_path)) and message in problems[0], problems
    assert "\n" not in problems[0]


_KEYS = st.sampled_from(["evals", "id", "prompt", "gold", "tags", "expected_output"])
_JSON = st.recursive(
    st.none() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=10,
)


@settings(max_examples=200, deadline=None)
@given(_JSON)
def test_reading_any_json_never_raises(value: object) -> None:
    parse_evals(json.dumps(value), "fuzz.json")


def test_a_one_line_json_lines_record_in_a_json_file_is_still_a_question(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text('{"id": "q1", "question": "x?", "gold": ["a.md"]}\n', encoding="utf-8")
    qset = read_question_set(path)
    assert not qset.problems and qset.questions[0].gold == ("a.md",)


def test_the_formats_benchmark_and_timing_examples_read(tmp_path: Path) -> None:
    (tmp_path / "benchmark.json").write_text(SPEC_BENCHMARK, encoding="utf-8")
    (tmp_path / "timing.json").write_text(SPEC_TIMING, encoding="utf-8")
    summary = read_benchmark(tmp_path / "benchmark.json")
    assert summary["with_skill"]["pass_rate"] == {"mean": 0.83, "stddev": 0.06}
    assert summary["delta"]["tokens"] == 1700
    timing = read_timing(tmp_path / "timing.json")
    assert (timing.total_tokens, timing.duration_ms) == (84852, 23332)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("timing.json", "{", "timing.json, line 1: not valid JSON"),
        ("timing.json", "[]", "timing.json: expected a JSON object, got a list"),
        ("timing.json", '{"total_tokens": "many"}', "'total_tokens' must be a number"),
        ("timing.json", "{}", "neither 'total_tokens' nor 'duration_ms'"),
        ("benchmark.json", "{}", "benchmark.json: no 'run_summary' object"),
        (
            "benchmark.json",
            '{"run_summary": {"with_skill": {"tokens": 3}}}',
            'run_summary.with_skill.tokens must be {"mean": number',
        ),
        (
            "benchmark.json",
            '{"run_summary": {"delta": {"tokens": "x"}}}',
            "run_summary.delta.tokens must be a number",
        ),
    ],
)
def test_a_bad_benchmark_or_timing_is_one_line(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    reader = read_timing if name == "timing.json" else read_benchmark
    with pytest.raises(EvalFileError) as caught:
        reader(path)
    said = str(caught.value)
    assert said.startswith(str(path)) and message in said and "\n" not in said


# --- the commands ----------------------------------------------------------------------------


def test_questions_writes_the_packages_own_evals_json_and_eval_finds_it(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    assert main(["questions", str(demo), "--n", "3"]) == 0  # the demo drafts three
    written = demo / "evals" / "evals.json"
    assert f"to {written}" in capsys.readouterr().out
    document = json.loads(written.read_text(encoding="utf-8"))
    assert document["skill_name"] == "orbit-handbook"
    assert [e["id"] for e in document["evals"]] == [1, 2, 3]
    assert all(e["gold"] and e["prompt"] for e in document["evals"])
    before = written.read_bytes()
    assert main(["questions", str(demo), "--n", "2"]) == 2
    assert "exists" in capsys.readouterr().err and written.read_bytes() == before
    # the package still checks clean with its evals folder
    assert main(["check", str(demo)]) == 0
    capsys.readouterr()

    out = tmp_path / "run"
    assert main(["eval", str(demo), "--out", str(out), "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["questions_source"] == str(written)
    assert len(record["variants"][0]["questions"]) == 3
    benchmark = read_benchmark(out / "benchmark.json")
    reached = sum(q["reached"] for q in record["variants"][0]["questions"])
    assert benchmark["with_skill"]["pass_rate"]["mean"] == round(reached / 3, 4)
    assert read_timing(out / "eval-1" / "with_skill" / "timing.json").total_tokens > 0
    # the navigator never opens the set it is asked from: no index names it
    walks = [p.read_text(encoding="utf-8") for p in (out / "full").glob("*.jsonl")]
    assert len(walks) == 3 and not any("evals.json" in walk for walk in walks)


def test_eval_without_a_question_set_says_where_it_looked(
    demo: Path, capsys: pytest.CaptureFixture
) -> None:
    assert main(["eval", str(demo), "--no-save"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no evals/evals.json" in err
    assert f"kas-tui questions {demo}" in err


def test_eval_refuses_a_spec_evals_json_without_gold_in_one_line_each(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / "evals.json"
    path.write_text(SPEC_EVALS, encoding="utf-8")
    assert main(["eval", str(demo), "--questions", str(path), "--no-save"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and all(line.startswith("kas-tui eval: ") for line in lines)
    assert "Traceback" not in "\n".join(lines)


def test_a_benchmark_holds_each_ablation_and_the_delta(demo: Path) -> None:
    from tests.helpers.evaluate import make_evaluation

    ev, _ = make_evaluation(demo, ablations=("descriptions",))
    summary = benchmark_record(ev)["run_summary"]
    assert list(summary) == ["with_skill", "without_descriptions", "delta"]
    full, ablated = summary["with_skill"], summary["without_descriptions"]
    assert summary["delta"]["pass_rate"] == round(
        full["pass_rate"]["mean"] - ablated["pass_rate"]["mean"], 4
    )


def test_the_demo_carries_its_own_questions(capsys: pytest.CaptureFixture) -> None:
    """The demo's evals/evals.json, written by people: 30 questions with gold pages and
    expected answers, read as a question set of the demo."""
    from kas_tui.core.package import Package
    from kas_tui.features.evaluate.question_files import read_question_set

    qset = read_question_set(DEMO / "evals" / "evals.json", Package.open(DEMO))
    assert qset.problems == [] and len(qset.questions) == 30
    assert all(q.gold and q.answer for q in qset.questions)
