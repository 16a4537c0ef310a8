"""Question sets: JSON Lines (or CSV) of questions with the documents that answer them.

One question per line::

    {"id": "q0001", "question": "How do I refund a card payment?",
     "gold": ["billing/refunds/issuing-a-refund.md"],
     "answer": "Open the payment in Stripe and choose Refund.", "tags": ["billing"]}

- ``id``: a string (a number is taken as its text); unique in the set.
- ``question``: what is asked, not empty.
- ``gold``: one to three package-relative paths of documents that answer it (a single
  string is one path; ``./a.md``, ``/a.md`` and ``a\\b.md`` are read as ``a.md``,
  ``a/b.md``).
- ``answer`` (optional): a reference answer; ``tags`` (optional): a list of strings or
  one comma-separated string.

The Knowledge-as-Skill paper's sets use other names for the same columns, also read:
``reference_answer`` / ``gold_answer`` / ``expected_answer`` for ``answer``, and
``gold_docs`` / ``gold_documents`` / ``gold_paths`` / ``documents`` for ``gold``;
``question_id`` / ``qid`` for ``id``; ``query`` for ``question``.

CSV (a ``.csv`` file): a header row with the same column names; ``gold`` and ``tags``
cells hold several values separated by ``;`` or ``|``.

The Agent Skills ``evals/evals.json`` is read and written by :mod:`.skill_evals`;
:mod:`.question_files` takes a file in whichever of the formats it is.

Blank lines and lines starting with ``#`` or ``//`` are skipped in JSON Lines. Reading
never raises: every line that cannot be taken is a :class:`QuestionProblem` naming the
file, the line, what is wrong and how to fix it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.core.fileio import atomic_write, os_reason, read_regular
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.text import decode
from kas_tui.features.evaluate.runs import Question
from kas_tui.text.wording import at_line

if TYPE_CHECKING:
    from kas_tui.core.package import Package

MAX_GOLD = 3
ALIASES = {
    "id": ("id", "question_id", "qid"),
    "question": ("question", "query"),
    "gold": ("gold", "gold_docs", "gold_documents", "gold_paths", "documents"),
    "answer": ("answer", "reference_answer", "gold_answer", "expected_answer"),
    "tags": ("tags",),
}


@dataclass(frozen=True)
class QuestionProblem:
    """A line (0: the whole file) that could not be taken as a question."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{at_line(self.source, self.line)}: {self.message}"


@dataclass
class QuestionSet:
    """The questions read from a file, and the problems found on the way."""

    source: str
    questions: list[Question] = field(default_factory=list)
    problems: list[QuestionProblem] = field(default_factory=list)


# --- reading ---------------------------------------------------------------------------


def read_questions(path: str | os.PathLike[str], package: Package | None = None) -> QuestionSet:
    """Read a question set; with ``package``, gold paths must be its documents."""
    text, qset = question_text(path)
    if text is None:
        return qset
    return parse_questions(text, qset.source, package, csv_format=_is_csv(qset.source, text))


def question_text(path: str | os.PathLike[str]) -> tuple[str | None, QuestionSet]:
    """The text of a question-set file, or ``None`` and an empty set whose problem says
    why it cannot be read."""
    source = os.fspath(path)
    qset = QuestionSet(source)
    try:
        return decode(read_regular(path)).text, qset
    except FormatError as exc:
        where = f" (line {exc.line})" if exc.line else ""
        qset.problems.append(QuestionProblem(source, 0, exc.message + where))
    except OSError as exc:
        qset.problems.append(QuestionProblem(source, 0, f"cannot read: {os_reason(exc)}"))
    return None, qset


def _is_csv(source: str, text: str) -> bool:
    if source.lower().endswith(".csv"):
        return True
    if source.lower().endswith((".jsonl", ".json", ".ndjson")):
        return False
    first = next((line for line in text.splitlines() if line.strip()), "")
    return not first.lstrip().startswith(("{", "#", "//")) and "question" in first.lower()


def parse_questions(
    text: str, source: str = "<questions>", package: Package | None = None, *, csv_format=False
) -> QuestionSet:
    """Read question-set ``text`` (JSON Lines, or CSV with ``csv_format``)."""
    qset = QuestionSet(source)
    rows = _csv_rows(text, source, qset) if csv_format else _json_rows(text, source, qset)
    first_line: dict[str, int] = {}
    for number, record in rows:
        question = _question(record, number, source, qset, csv_format)
        if question is None:
            continue
        if question.id in first_line:
            qset.problems.append(
                QuestionProblem(
                    source,
                    number,
                    f"the id {question.id!r} is already used on line {first_line[question.id]}; "
                    "give each question its own id",
                )
            )
            continue
        first_line[question.id] = number
        if package is not None and not _gold_known(question, package, source, qset):
            continue
        qset.questions.append(question)
    return qset


#: this many lines that are not JSON, before any that is, and the file is not a question set
NOT_A_QUESTION_SET = 3


def _json_rows(text: str, source: str, qset: QuestionSet) -> Iterable[tuple[int, dict]]:
    heads = [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.strip().startswith(("#", "//"))
    ][:NOT_A_QUESTION_SET]
    if len(heads) == NOT_A_QUESTION_SET and not any(_is_json(line) for _, line in heads):
        qset.problems.append(
            QuestionProblem(
                source,
                heads[0][0],
                "not a question set: its first lines are not JSON; a question set is JSON "
                'Lines, one {"id": "q1", "question": "...", "gold": ["a.md"]} per line, or '
                "CSV with a header row (id,question,gold)",
            )
        )
        return
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "//")):
            continue
        try:
            record = json.loads(stripped)
        except json.JSONDecodeError as exc:
            qset.problems.append(
                QuestionProblem(
                    source,
                    number,
                    f"not valid JSON ({exc.msg} at column {exc.colno}); write one JSON object "
                    'per line, e.g. {"id": "q1", "question": "...", "gold": ["a.md"]}',
                )
            )
            continue
        if not isinstance(record, dict):
            qset.problems.append(
                QuestionProblem(
                    source,
                    number,
                    f"expected a JSON object, got {_kind(record)}; write one question per line "
                    'as {"id": ..., "question": ..., "gold": [...]}',
                )
            )
            continue
        yield number, record


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return False
    return True


def _csv_rows(text: str, source: str, qset: QuestionSet) -> Iterable[tuple[int, dict]]:
    reader = csv.DictReader(io.StringIO(text))
    try:
        columns = {c.strip().lower() for c in reader.fieldnames or () if c}
    except csv.Error as exc:
        qset.problems.append(QuestionProblem(source, 1, f"not valid CSV ({exc})"))
        return
    for wanted in ("question", "gold"):
        if not columns & set(ALIASES[wanted]):
            qset.problems.append(
                QuestionProblem(
                    source,
                    1,
                    f"the header row has no {wanted!r} column; the columns are id, question, "
                    "gold, answer, tags",
                )
            )
            return
    try:
        for row in reader:
            record = {(k or "").strip().lower(): v for k, v in row.items() if k is not None}
            if not any((v or "").strip() for v in record.values() if isinstance(v, str)):
                continue
            yield reader.line_num, record
    except csv.Error as exc:
        qset.problems.append(QuestionProblem(source, reader.line_num, f"not valid CSV ({exc})"))


def _pick(record: Mapping[str, Any], name: str) -> tuple[str | None, Any]:
    for key in ALIASES[name]:
        if key in record:
            return key, record[key]
    return None, None


def _question(
    record: Mapping[str, Any],
    number: int,
    source: str,
    qset: QuestionSet,
    csv_format: bool,
    *,
    need_gold: bool = True,
) -> Question | None:
    """The question of one record, or ``None`` with a problem added. Without
    ``need_gold`` a record that names no gold is a question with none (``gold == ()``)."""

    def problem(message: str) -> None:
        qset.problems.append(QuestionProblem(source, number, message))

    _, qid = _pick(record, "id")
    if isinstance(qid, bool) or qid is None or (isinstance(qid, str) and not qid.strip()):
        problem("no 'id': give the question an id such as \"q1\", unique in the file")
        return None
    if not isinstance(qid, (str, int)):
        problem(f"'id' must be a string or a number, not {_kind(qid)}")
        return None
    qid = str(qid).strip()
    _, text = _pick(record, "question")
    if not isinstance(text, str) or not text.strip():
        what = "missing" if text is None else f"{_kind(text)}" if not isinstance(text, str) else ""
        problem(f"'question' must be a non-empty string{f' (it is {what})' if what else ''}")
        return None
    gold_key, gold = _pick(record, "gold")
    if isinstance(gold, str):
        gold = _split(gold) if csv_format else [gold]
    if (gold is None or gold == []) and not need_gold:
        gold = []
    elif gold is None or gold == []:
        problem("no 'gold': list the 1 to 3 package paths of the documents that answer it")
        return None
    if not isinstance(gold, list) or not all(isinstance(g, str) and g.strip() for g in gold):
        problem(
            f'{gold_key!r} must be a list of package paths (strings), e.g. ["billing/refunds.md"]'
        )
        return None
    if len(gold) > MAX_GOLD:
        problem(
            f"{gold_key!r} must list 1 to {MAX_GOLD} package paths, got {len(gold)}; keep the best {MAX_GOLD}"
        )
        return None
    _, answer = _pick(record, "answer")
    if answer is not None and not isinstance(answer, str):
        problem(f"'answer' must be a string, not {_kind(answer)}")
        return None
    _, tags = _pick(record, "tags")
    if isinstance(tags, str):
        tags = _split(tags.replace(",", ";"))
    if tags is not None and (
        not isinstance(tags, list) or not all(isinstance(t, str) for t in tags)
    ):
        problem(
            f"'tags' must be a list of strings or one comma-separated string, not {_kind(tags)}"
        )
        return None
    return Question(
        id=qid,
        question=" ".join(text.split()),
        gold=tuple(dict.fromkeys(normalise_path(g) for g in gold)),
        answer=(answer or "").strip(),
        tags=tuple(t.strip() for t in tags or () if t.strip()),
        line=number,
    )


def _split(cell: str) -> list[str]:
    parts = cell.replace("|", ";").split(";")
    return [p.strip() for p in parts if p.strip()]


def normalise_path(path: str) -> str:
    """A gold path as the package names it: POSIX, relative, no ``./``."""
    text = path.strip().replace("\\", "/")
    norm = posixpath.normpath(text.lstrip("/"))
    return "" if norm == "." else norm


def _gold_known(question: Question, package: Package, source: str, qset: QuestionSet) -> bool:
    missing = [g for g in question.gold if g not in package.documents]
    if not missing:
        return True
    from kas_tui.features.find.nearest import nearest_paths

    for path in missing:
        near = nearest_paths(path, list(package.documents), limit=2, cutoff=60)
        hint = (
            "did you mean " + " or ".join(repr(p) for p in near) + "?"
            if near
            else "use the document's path inside the package, as the tree shows it"
        )
        qset.problems.append(
            QuestionProblem(
                source,
                question.line,
                f"gold {path!r} of question {question.id!r} is not a document of "
                f"{package.name}; {hint}",
            )
        )
    return False


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


# --- writing ---------------------------------------------------------------------------


def questions_jsonl(questions: Iterable[Question]) -> str:
    """The questions as JSON Lines, one per line, ending with a newline."""
    return "".join(json.dumps(q.record(), ensure_ascii=False) + "\n" for q in questions)


def write_questions(path: str | os.PathLike[str], questions: Iterable[Question]) -> None:
    """Write the set to ``path`` atomically (raises OSError when it cannot)."""
    atomic_write(Path(path), questions_jsonl(questions).encode("utf-8"))
