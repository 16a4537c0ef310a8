"""The Agent Skills eval files: ``evals/evals.json`` in, ``benchmark.json`` and
``timing.json`` out (and back in), as the Agent Skills documentation
(``docs/skill-creation/evaluating-skills.mdx``) defines them.

``evals/evals.json`` lives inside the skill, so a question set travels with it::

    {"skill_name": "orbit-handbook",
     "evals": [{"id": 1, "prompt": "Who gets paged when ...?",
                "expected_output": "The secondary, after 10 minutes.",
                "gold": ["oncall/escalation-policy.md"], "tags": ["drafted", "goal"]}]}

- ``prompt`` is kas-tui's ``question``, ``expected_output`` its ``answer``; ``id`` an
  integer in the format (any string is kept as it is written).
- ``gold`` (the documents that answer the prompt) and ``tags`` are kas-tui's own keys,
  added beside the format's: each eval is an object its readers take keys from by name,
  so a key they do not know is left alone. ``files`` is not used for gold: the format's
  ``files`` are *input* files handed to the agent with the prompt, and handing it the
  answer's document would measure nothing.
- ``files``, ``assertions`` / ``expectations`` are read past (nothing here grades outputs).

An eval without ``gold`` is read (the format's own example has none), but cannot be
scored: read against a package, it is a problem saying to add one.

``benchmark.json`` (one per evaluation) holds ``run_summary``: per configuration, the
mean and standard deviation over questions of ``pass_rate`` (1 when a gold document was
read, else 0), ``tokens`` and ``turns``, and ``time_seconds`` (the mean only: runs are
timed together); ``with_skill`` is the navigator on the package as it is, each ablation
``without_<layer>``, and ``delta`` is ``with_skill`` minus the first ablation.
``timing.json`` (one per question and configuration, ``eval-<id>/<configuration>/``)
holds ``total_tokens``.
"""

from __future__ import annotations

import json
import math
import os
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.core.fileio import atomic_write, os_reason, read_regular
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.text import decode
from kas_tui.features.agent.sandbox import EVALS_FOLDER
from kas_tui.features.evaluate.questions import (
    QuestionProblem,
    QuestionSet,
    _gold_known,
    _kind,
    _pick,
    _question,
)
from kas_tui.features.evaluate.runs import Question

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.features.evaluate.runner import Evaluation

#: Where a skill keeps its question set, relative to its root.
EVALS_PATH = f"{EVALS_FOLDER}/evals.json"
#: The extra keys kas-tui adds to an eval.
GOLD_KEY = "gold"
TAGS_KEY = "tags"


def package_evals(root: str | os.PathLike[str]) -> Path:
    """The ``evals/evals.json`` of the package at ``root`` (which may not exist)."""
    return Path(root).joinpath(*EVALS_PATH.split("/"))


def is_evals_json(source: str, text: str) -> bool:
    """Whether ``text`` read from ``source`` is meant as a whole-file JSON document (a
    ``.json`` file whose first character opens an object or a list), not JSON Lines."""
    if not source.lower().endswith(".json"):
        return False
    head = text.lstrip()
    if head.startswith("["):
        return True
    if not head.startswith("{"):
        return False
    first = head.split("\n", 1)[0].strip()
    try:  # a one-line JSON Lines record in a .json file stays a question line
        record = json.loads(first)
    except json.JSONDecodeError:
        return True
    return not isinstance(record, dict) or "evals" in record or "skill_name" in record


# --- evals.json ------------------------------------------------------------------------


def parse_evals(text: str, source: str, package: Package | None = None) -> QuestionSet:
    """Read an ``evals.json``; with ``package``, every eval needs gold documents of it."""
    qset = QuestionSet(source)

    def problem(line: int, message: str) -> QuestionSet:
        qset.problems.append(QuestionProblem(source, line, message))
        return qset

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return problem(
            exc.lineno,
            f"not valid JSON ({exc.msg} at column {exc.colno}); an evals.json is one object, "
            '{"skill_name": "...", "evals": [{"id": 1, "prompt": "...", "gold": ["a.md"]}]}',
        )
    if isinstance(data, list) and data and all(_is_trigger(item) for item in data):
        return problem(
            0,
            "holds trigger queries (query, should_trigger), not questions; give it to "
            "kas-tui eval --discovery --questions FILE",
        )
    if not isinstance(data, dict):
        return problem(
            0,
            f"expected a JSON object with an 'evals' list, got {_kind(data)}; write "
            '{"skill_name": "...", "evals": [...]}',
        )
    evals = data.get("evals")
    if not isinstance(evals, list):
        said = "no 'evals'" if evals is None else f"'evals' is {_kind(evals)}"
        return problem(0, f"{said}; an evals.json holds its questions in an 'evals' list")
    if evals and all(_is_trigger(item) for item in evals):
        return problem(
            0,
            "its evals are trigger queries (should_trigger), not questions; give it to "
            "kas-tui eval --discovery --questions FILE",
        )
    lines = _element_lines(text, len(evals))
    first_line: dict[str, int] = {}
    for index, item in enumerate(evals):
        number = lines[index]
        where = f"evals[{index}]" if not number else "the eval"
        if not isinstance(item, dict):
            problem(number, f"{where} must be an object, not {_kind(item)}")
            continue
        prompt = item.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            said = "missing" if prompt is None else _kind(prompt)
            problem(number, f"{where}'s 'prompt' must be a non-empty string (it is {said})")
            continue
        expected = item.get("expected_output")
        if expected is not None and not isinstance(expected, str):
            problem(number, f"{where}'s 'expected_output' must be a string, not {_kind(expected)}")
            continue
        _, gold = _pick(item, "gold")
        if package is not None and gold in (None, [], ""):
            problem(
                number,
                f"eval {item.get('id')!r} has no 'gold': kas-tui scores a walk by the documents "
                'that answer it; add "gold": ["path/in/package.md"] to the eval (an extra key '
                "the format's readers leave alone)",
            )
            continue
        record = {"id": item.get("id"), "question": prompt, "gold": gold}
        record.update(answer=expected, tags=item.get(TAGS_KEY))
        before = len(qset.problems)
        question = _question(record, number, source, qset, False, need_gold=False)
        if question is None:
            if not number:  # no line to name: say which eval
                last = qset.problems[before]
                qset.problems[before] = QuestionProblem(source, 0, f"{where}: {last.message}")
            continue
        if question.id in first_line:
            earlier = first_line[question.id]
            by = f"the eval on line {earlier}" if earlier else "another eval"
            problem(number, f"the id {question.id!r} is already used by {by}; give each its own id")
            continue
        first_line[question.id] = number
        if package is not None and not _gold_known(question, package, source, qset):
            continue
        qset.questions.append(question)
    return qset


def _is_trigger(item: Any) -> bool:
    return isinstance(item, dict) and "should_trigger" in item


_EVALS_KEY = re.compile(r'"evals"\s*:\s*\[')


def _element_lines(text: str, count: int) -> list[int]:
    """The line each element of the ``evals`` array starts on (0 where unknown)."""
    found = _EVALS_KEY.search(text)
    if found is None:
        return [0] * count
    decoder = json.JSONDecoder()
    lines, pos = [], found.end()
    try:
        for _ in range(count):
            while text[pos] in " \t\r\n,":
                pos += 1
            lines.append(text.count("\n", 0, pos) + 1)
            _, pos = decoder.raw_decode(text, pos)
    except (ValueError, IndexError):
        return [0] * count
    return lines


def eval_record(question: Question) -> dict[str, Any]:
    """One eval of an ``evals.json``: the format's keys, then kas-tui's."""
    qid: int | str = question.id
    if question.id.isdigit() and str(int(question.id)) == question.id:
        qid = int(question.id)
    record: dict[str, Any] = {
        "id": qid,
        "prompt": question.question,
        "expected_output": question.answer,
    }
    if question.gold:
        record[GOLD_KEY] = list(question.gold)
    if question.tags:
        record[TAGS_KEY] = list(question.tags)
    return record


def evals_json(questions: Iterable[Question], skill_name: str) -> str:
    """The questions as an ``evals.json`` document, ending with a newline."""
    document = {"skill_name": skill_name, "evals": [eval_record(q) for q in questions]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def numbered(questions: Sequence[Question]) -> list[Question]:
    """The questions with the format's integer ids (1, 2, ...), in order."""
    return [replace(q, id=str(i)) for i, q in enumerate(questions, start=1)]


# --- benchmark.json and timing.json ----------------------------------------------------


def _spread(values: Sequence[float]) -> dict[str, float]:
    mean = statistics.fmean(values) if values else 0.0
    stddev = statistics.pstdev(values) if len(values) > 1 else 0.0
    return {"mean": round(mean, 4), "stddev": round(stddev, 4)}


def configuration_name(variant: str) -> str:
    """The benchmark's name for an evaluation variant: ``with_skill`` for the package as
    it is, ``without_<layer>`` for an ablation."""
    return "with_skill" if variant == "full" else f"without_{variant}"


def _tokens(run: Any) -> int:
    return int(run.usage.get("total_tokens") or run.summary.total_tokens)


def benchmark_record(ev: Evaluation) -> dict[str, Any]:
    """The ``benchmark.json`` of an evaluation (see the module docstring)."""
    summary: dict[str, Any] = {}
    for variant in ev.variants:
        runs = variant.runs
        count = len(runs) or 1
        summary[configuration_name(variant.name)] = {
            "pass_rate": _spread([float(r.reached) for r in runs]),
            "time_seconds": {"mean": round(variant.seconds / count, 4)},
            "tokens": _spread([_tokens(r) for r in runs]),
            "turns": _spread([r.summary.turns for r in runs]),
        }
    names = list(summary)
    if len(names) > 1:
        first, second = summary[names[0]], summary[names[1]]
        summary["delta"] = {
            key: round(first[key]["mean"] - second[key]["mean"], 4)
            for key in ("pass_rate", "time_seconds", "tokens")
        }
    return {
        "metadata": {
            "skill_name": ev.package,
            "navigator": ev.navigator,
            "questions": len(ev.main.runs),
            "budget": ev.budget,
            "date": ev.date,
        },
        "run_summary": summary,
    }


def write_benchmark(ev: Evaluation, out_dir: str | os.PathLike[str]) -> None:
    """``benchmark.json`` in ``out_dir`` and a ``timing.json`` per run under
    ``eval-<id>/<configuration>/`` (raises OSError when it cannot write)."""
    from kas_tui.features.evaluate.runner import safe_name

    out = Path(out_dir)
    _write_json(out / "benchmark.json", benchmark_record(ev))
    for variant in ev.variants:
        for run in variant.runs:
            folder = out / f"eval-{safe_name(run.question.id)}" / configuration_name(variant.name)
            folder.mkdir(parents=True, exist_ok=True)
            _write_json(folder / "timing.json", {"total_tokens": _tokens(run)})


def _write_json(path: Path, record: Mapping[str, Any]) -> None:
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    atomic_write(path, text.encode("utf-8"))


class EvalFileError(Exception):
    """A ``benchmark.json`` or ``timing.json`` that cannot be read: one line naming the
    file and what is wrong."""


@dataclass(frozen=True)
class Timing:
    """A run's ``timing.json``: tokens and duration, each ``None`` when not recorded."""

    total_tokens: int | None
    duration_ms: int | None


def _load(path: str | os.PathLike[str]) -> dict[str, Any]:
    source = os.fspath(path)
    try:
        data = json.loads(decode(read_regular(path)).text)
    except FormatError as exc:
        raise EvalFileError(f"{source}: {exc.message}") from None
    except OSError as exc:
        raise EvalFileError(f"{source}: cannot read: {os_reason(exc)}") from None
    except json.JSONDecodeError as exc:
        raise EvalFileError(
            f"{source}, line {exc.lineno}: not valid JSON ({exc.msg} at column {exc.colno})"
        ) from None
    if not isinstance(data, dict):
        raise EvalFileError(f"{source}: expected a JSON object, got {_kind(data)}")
    return data


def _count(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def read_timing(path: str | os.PathLike[str]) -> Timing:
    """Read a ``timing.json`` (raises :class:`EvalFileError`)."""
    data = _load(path)
    values = {}
    for key in ("total_tokens", "duration_ms"):
        value = data.get(key)
        if value is not None and (not _count(value) or value < 0):
            raise EvalFileError(
                f"{os.fspath(path)}: {key!r} must be a number of 0 or more, not {_kind(value)}"
            )
        values[key] = None if value is None else int(value)
    if values["total_tokens"] is None and values["duration_ms"] is None:
        raise EvalFileError(
            f"{os.fspath(path)}: neither 'total_tokens' nor 'duration_ms'; a timing.json is "
            '{"total_tokens": 84852, "duration_ms": 23332}'
        )
    return Timing(values["total_tokens"], values["duration_ms"])


def read_benchmark(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """The ``run_summary`` of a ``benchmark.json``: configuration -> metric -> ``{"mean":
    ..., "stddev": ...}`` (``delta``: metric -> number). Raises :class:`EvalFileError`."""
    source = os.fspath(path)
    summary = _load(path).get("run_summary")
    if not isinstance(summary, dict) or not summary:
        raise EvalFileError(
            f"{source}: no 'run_summary' object; a benchmark.json holds "
            '{"run_summary": {"with_skill": {"pass_rate": {"mean": 0.8, "stddev": 0.1}}}}'
        )
    for name, metrics in summary.items():
        if not isinstance(metrics, dict):
            raise EvalFileError(f"{source}: run_summary.{name} must be an object")
        for metric, value in metrics.items():
            where = f"run_summary.{name}.{metric}"
            if name == "delta":
                if not _count(value):
                    raise EvalFileError(f"{source}: {where} must be a number, not {_kind(value)}")
                continue
            if not isinstance(value, dict) or not _count(value.get("mean")):
                raise EvalFileError(
                    f'{source}: {where} must be {{"mean": number, "stddev": number}}, '
                    f"not {_kind(value)}"
                )
            if "stddev" in value and not _count(value["stddev"]):
                raise EvalFileError(f"{source}: {where}.stddev must be a number")
    return summary
