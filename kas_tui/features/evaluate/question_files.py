"""A question set's file in whichever format it is: JSON Lines or CSV (:mod:`.questions`),
or the Agent Skills ``evals.json`` (:mod:`.skill_evals`), told apart by name and content.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from kas_tui.core.fileio import atomic_write
from kas_tui.features.evaluate.questions import (
    QuestionSet,
    _is_csv,
    parse_questions,
    question_text,
    questions_jsonl,
)
from kas_tui.features.evaluate.runs import Question
from kas_tui.features.evaluate.skill_evals import evals_json, is_evals_json, parse_evals

if TYPE_CHECKING:
    from kas_tui.core.package import Package


def read_question_set(path: str | os.PathLike[str], package: Package | None = None) -> QuestionSet:
    """Read a question set in any of the formats; with ``package``, gold paths must be
    its documents."""
    text, qset = question_text(path)
    if text is None:
        return qset
    if is_evals_json(qset.source, text):
        return parse_evals(text, qset.source, package)
    return parse_questions(text, qset.source, package, csv_format=_is_csv(qset.source, text))


def question_set_text(
    path: str | os.PathLike[str], questions: Iterable[Question], skill_name: str
) -> str:
    """The set as ``path`` holds it: an ``evals.json`` of ``skill_name`` for a ``.json``
    path, else JSON Lines."""
    if os.fspath(path).lower().endswith(".json"):
        return evals_json(questions, skill_name)
    return questions_jsonl(questions)


def write_question_set(
    path: str | os.PathLike[str], questions: Iterable[Question], *, skill_name: str = ""
) -> None:
    """Write the set to ``path`` atomically, in the format its name says (raises OSError
    when it cannot)."""
    atomic_write(Path(path), question_set_text(path, questions, skill_name).encode("utf-8"))
