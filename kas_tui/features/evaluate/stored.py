"""An evaluation read back from its ``report.json``: typed rows for a screen to show.

:func:`load_report` reads ``<folder>/report.json`` (the schema of :mod:`.report`) into a
:class:`StoredEvaluation`: the overall figures of the package as it is (the first
variant, ``full``), the flat baseline's recall, each ablation's reach, and one
:class:`QuestionRow` per question with its blame when it was missed. Nothing here
raises for a bad file: a report that cannot be read, or is of another schema, gives an
evaluation with no rows and one ``error`` line naming the file; a question or blame that
cannot be read is skipped with a line in ``problems``.

:func:`row_of_run` makes the same row from a fresh :class:`~.model.Run` (a re-run), and
:func:`stored_from` a whole :class:`StoredEvaluation` from an :class:`~.runner.Evaluation`
just made, so a screen shows re-runs and stored reports alike.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kas_tui.features.evaluate.blame import Blame, EntryRef
from kas_tui.features.evaluate.runs import ENDINGS, Question

if TYPE_CHECKING:
    from kas_tui.features.evaluate.runner import Evaluation
    from kas_tui.features.evaluate.runs import Run

REPORT = "report.json"
SCHEMA_KEY = "kas_tui_eval"
SCHEMA_VERSION = 1  # the version of report.py this module reads


@dataclass(frozen=True)
class QuestionRow:
    """One question of the evaluation as the navigator did on the package as it is.

    ``trajectory`` is the absolute path of its JSON Lines file (``None`` when the
    evaluation saved none); ``before`` is whether the loaded report reached it, once the
    question has been re-run (``None`` until then).
    """

    id: str
    question: str
    gold: tuple[str, ...]
    reached: bool
    ended: str
    turns: int
    tokens: int
    turn_to_gold: int | None = None
    answer: str = ""
    note: str = ""
    read: tuple[str, ...] = ()
    off_path: tuple[str, ...] = ()
    trajectory: Path | None = None
    blame: Blame | None = None
    before: bool | None = None

    @property
    def mark(self) -> str:
        """✓ or ✗; after a re-run, the change: ``✗→✓`` (fixed), ``✓→✗``, ``✓→✓``."""
        now = "✓" if self.reached else "✗"
        if self.before is None:
            return now
        return ("✓" if self.before else "✗") + "→" + now

    @property
    def fixed(self) -> bool:
        return self.before is False and self.reached

    def as_question(self) -> Question:
        return Question(self.id, self.question, self.gold)


@dataclass(frozen=True)
class Figures:
    """The overall figures of one variant."""

    questions: int = 0
    reached: int = 0
    reach: float = 0.0
    reach_within: float = 0.0
    within_turns: int = 0
    median_turns: float = 0.0
    median_tokens: float = 0.0
    #: medians up to the first gold read (``None``: not known, as for an old report)
    median_turns_to_gold: float | None = None
    median_tokens_to_gold: float | None = None


@dataclass
class StoredEvaluation:
    """What the screen shows of one evaluation (see the module docstring)."""

    folder: Path
    package: str = ""
    navigator: str = ""
    questions_source: str = ""
    date: str = ""
    budget: int = 15
    within: int = 4
    stopped: bool = False
    overall: Figures = field(default_factory=Figures)
    recall: dict[int, float] = field(default_factory=dict)
    ablations: list[tuple[str, float]] = field(default_factory=list)
    rows: list[QuestionRow] = field(default_factory=list)
    error: str | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def report_path(self) -> Path:
        return self.folder / REPORT

    @property
    def questions(self) -> list[Question]:
        return [row.as_question() for row in self.rows]

    def row(self, qid: str) -> QuestionRow | None:
        return next((r for r in self.rows if r.id == qid), None)


def load_report(folder: str | os.PathLike[str]) -> StoredEvaluation:
    """Read ``<folder>/report.json`` (never raises; see the module docstring)."""
    folder = Path(folder)
    stored = StoredEvaluation(folder)
    path = stored.report_path
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        stored.error = f"{path}: no such file"
        return stored
    except OSError as exc:
        stored.error = f"{path}: cannot be read ({exc.strerror or exc})"
        return stored
    except UnicodeDecodeError:
        stored.error = f"{path}: not UTF-8 text"
        return stored
    except json.JSONDecodeError as exc:
        stored.error = f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        return stored
    if not isinstance(data, dict) or SCHEMA_KEY not in data:
        stored.error = f"{path}: not a kas-tui evaluation report (no {SCHEMA_KEY!r} key)"
        return stored
    if data[SCHEMA_KEY] != SCHEMA_VERSION:
        stored.error = (
            f"{path}: report schema {data[SCHEMA_KEY]!r}; this kas-tui reads {SCHEMA_VERSION}"
        )
        return stored
    variants = data.get("variants")
    if not isinstance(variants, list) or not variants or not isinstance(variants[0], dict):
        stored.error = f"{path}: the report holds no variant (no questions were run)"
        return stored
    stored.package = _str(data.get("package"))
    stored.navigator = _str(data.get("navigator"))
    stored.questions_source = _str(data.get("questions_source"))
    stored.date = _str(data.get("date"))
    stored.budget = _int(data.get("budget"), 15)
    stored.within = _int(data.get("within_turns"), 4)
    stored.stopped = data.get("stopped") is True
    main = variants[0]
    stored.overall = _figures(main.get("overall"))
    flat = data.get("flat")
    recall = flat.get("recall") if isinstance(flat, dict) else None
    if isinstance(recall, dict):
        for k, v in recall.items():
            if str(k).isdigit() and isinstance(v, (int, float)):
                stored.recall[int(k)] = float(v)
    for variant in variants[1:]:
        if isinstance(variant, dict) and isinstance(variant.get("name"), str):
            stored.ablations.append((variant["name"], _figures(variant.get("overall")).reach))
    blames = _blames(main.get("blame"), stored.problems)
    trajectories = data.get("trajectories")
    # the trajectories sit beside report.json unless the report names a folder that exists
    # (a report copied elsewhere still finds them where it was written)
    base = folder
    if isinstance(trajectories, str) and trajectories and not (folder / "full").is_dir():
        base = Path(trajectories) if Path(trajectories).is_dir() else folder
    questions = main.get("questions")
    if not isinstance(questions, list):
        stored.error = f"{path}: the first variant has no list of questions"
        return stored
    for number, record in enumerate(questions, start=1):
        row = _row(record, blames, base)
        if isinstance(row, str):
            stored.problems.append(f"question {number} of {path.name}: {row}")
        else:
            stored.rows.append(row)
    return stored


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _num(value: object) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if ok else 0.0  # type: ignore[arg-type]


def _figures(record: object) -> Figures:
    if not isinstance(record, dict):
        return Figures()
    return Figures(
        questions=_int(record.get("questions")),
        reached=_int(record.get("reached")),
        reach=_num(record.get("reach")),
        reach_within=_num(record.get("reach_within")),
        within_turns=_int(record.get("within_turns")),
        median_turns=_num(record.get("median_turns")),
        median_tokens=_num(record.get("median_tokens")),
        median_turns_to_gold=_known(record.get("median_turns_to_gold")),
        median_tokens_to_gold=_known(record.get("median_tokens_to_gold")),
    )


def _known(value: object) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if ok else None  # type: ignore[arg-type]


def _entry(record: object) -> EntryRef | None:
    if not isinstance(record, dict) or not isinstance(record.get("index"), str):
        return None
    return EntryRef(
        record["index"],
        _int(record.get("line")),
        _str(record.get("title")),
        _str(record.get("description")),
        _str(record.get("target")),
    )


def _blames(records: object, problems: list[str]) -> dict[str, Blame]:
    out: dict[str, Blame] = {}
    if not isinstance(records, list):
        return out
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict) or not isinstance(record.get("question"), str):
            problems.append(f"blame {number}: not an object naming its question")
            continue
        out[record["question"]] = Blame(
            record["question"],
            _str(record.get("kind")),
            _entry(record.get("expected")),
            _entry(record.get("chosen")),
            _str(record.get("chosen_path")),
            _str(record.get("hint")),
        )
    return out


def _strings(value: object) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _row(record: object, blames: Mapping[str, Blame], base: Path) -> QuestionRow | str:
    """The row of one question record, or why there is none."""
    if not isinstance(record, dict):
        return "not an object"
    qid, question = record.get("id"), record.get("question")
    if not isinstance(qid, str) or not qid:
        return "no id"
    if not isinstance(question, str):
        return f"{qid}: no question text"
    ended = _str(record.get("ended"))
    trajectory = record.get("trajectory")
    turn_to_gold = record.get("turn_to_gold")
    return QuestionRow(
        id=qid,
        question=question,
        gold=_strings(record.get("gold")),
        reached=record.get("reached") is True,
        ended=ended if ended in ENDINGS else ended or "?",
        turns=_int(record.get("turns")),
        tokens=_int(record.get("tokens")),
        turn_to_gold=turn_to_gold if isinstance(turn_to_gold, int) else None,
        answer=_str(record.get("answer")),
        note=_str(record.get("note")),
        read=_strings(record.get("read")),
        off_path=_strings(record.get("off_path")),
        trajectory=base / trajectory if isinstance(trajectory, str) and trajectory else None,
        blame=blames.get(qid),
    )


# --- from runs just made --------------------------------------------------------------


def row_of_run(run: Run, blame: Blame | None, trajectory: Path | None) -> QuestionRow:
    """The row of a run just made (a re-run), with its blame and trajectory file."""
    return QuestionRow(
        id=run.question.id,
        question=run.question.question,
        gold=tuple(run.question.gold),
        reached=run.reached,
        ended=run.ended,
        turns=run.summary.turns,
        tokens=run.summary.total_tokens,
        turn_to_gold=run.turns_to_gold,
        answer=run.answer,
        note=run.note,
        read=tuple(run.read),
        off_path=tuple(run.off_path),
        trajectory=trajectory,
        blame=blame,
    )


def stored_from(ev: Evaluation, folder: Path) -> StoredEvaluation:
    """A :class:`StoredEvaluation` of ``ev`` (its trajectories under ``folder``)."""
    from kas_tui.features.evaluate.runner import safe_name

    main = ev.main
    blames = {b.question_id: b for b in main.blames}
    saved = ev.out_dir is not None
    rows = [
        row_of_run(
            run,
            blames.get(run.question.id),
            folder / main.name / f"{safe_name(run.question.id)}.jsonl" if saved else None,
        )
        for run in main.runs
    ]
    o = main.overall
    return StoredEvaluation(
        folder=folder,
        package=ev.package,
        navigator=ev.navigator,
        questions_source=ev.questions_source,
        date=ev.date,
        budget=ev.budget,
        within=ev.within,
        stopped=ev.stopped,
        overall=Figures(
            o.questions,
            o.reached,
            o.reach,
            o.reach_within,
            o.within,
            o.median_turns,
            o.median_tokens,
            o.median_turns_to_gold,
            o.median_tokens_to_gold,
        ),
        recall=dict(ev.recall),
        ablations=[(v.name, v.overall.reach) for v in ev.variants[1:]],
        rows=rows,
    )


def compared(rows: Sequence[QuestionRow], before: Sequence[QuestionRow]) -> list[QuestionRow]:
    """``rows`` with ``before`` set from the row of the same id in ``before``."""
    was = {row.id: row.reached for row in before}
    return [replace(row, before=was.get(row.id)) for row in rows]
