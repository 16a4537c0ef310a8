"""Re-running an evaluation's questions on the package as it is now on disk.

For the TUI's evaluation screen, which calls these from a worker thread: each reads the
package afresh (so edits saved since the evaluation are seen) and runs the lexical
navigator. :func:`rerun_question` runs one question and writes its trajectory under the
evaluation's folder (``reruns/<time>/full/<id>.jsonl``), leaving ``report.json`` as it
is; :func:`rerun_all` runs a whole question set into a new evaluation folder with its
``report.json``, which then is the package's last evaluation (a run stopped before the
end saves nothing). :func:`draft_and_run` drafts a question set first.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from kas_tui.core.fileio import atomic_write
from kas_tui.features.agent.walk_summary import DEFAULT_BUDGET
from kas_tui.features.evaluate.metrics import WITHIN
from kas_tui.features.evaluate.runs import Question
from kas_tui.features.evaluate.stored import QuestionRow, StoredEvaluation, stored_from

RERUNS = "reruns"
DRAFTED = "questions.jsonl"


class RerunError(Exception):
    """Why a re-run could not start (one line for the user)."""


def _open(root: str | os.PathLike[str]):
    from kas_tui.core.package import Package

    return Package.open(root)


def rerun_question(
    root: str | os.PathLike[str],
    question: Question,
    folder: Path,
    *,
    budget: int = DEFAULT_BUDGET,
    within: int = WITHIN,
) -> QuestionRow:
    """Run ``question`` on the package at ``root`` as it is now; its trajectory goes to a
    new folder under ``folder / reruns``."""
    from kas_tui.features.evaluate.runner import evaluate

    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    out = folder / RERUNS / stamp
    ev = evaluate(_open(root), [question], budget=budget, within=within, out_dir=out)
    return stored_from(ev, out).rows[0]


def rerun_all(
    root: str | os.PathLike[str],
    questions: Sequence[Question],
    *,
    ablations: Sequence[str] = (),
    budget: int = DEFAULT_BUDGET,
    within: int = WITHIN,
    questions_source: str = "",
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    folder: Path | None = None,
) -> StoredEvaluation:
    """Evaluate ``questions`` into a new evaluation folder with its report.json; when
    stopped before the end, the folder is removed and the result says ``stopped``."""
    from kas_tui.features.evaluate.ablation import LAYERS
    from kas_tui.features.evaluate.report import evaluation_record
    from kas_tui.features.evaluate.runner import evaluate, new_eval_dir

    package = _open(root)
    out = folder or new_eval_dir(root)
    ev = evaluate(
        package,
        questions,
        ablations=[name for name in ablations if name in LAYERS],
        budget=budget,
        within=within,
        out_dir=out,
        questions_source=questions_source,
        progress=progress,
        should_stop=should_stop,
    )
    stored = stored_from(ev, out)
    if ev.stopped:
        shutil.rmtree(out, ignore_errors=True)
        return stored
    record = json.dumps(evaluation_record(ev), indent=2, ensure_ascii=False) + "\n"
    atomic_write(out / "report.json", record.encode("utf-8"))
    return stored


def drafted_questions(root: str | os.PathLike[str], n: int = 10, seed: int = 0) -> list[Question]:
    """A question set drafted from the package's bodies (``evaluate.drafting``)."""
    try:
        from kas_tui.features.evaluate.drafting import NOTHING_TO_ASK, draft_questions  # type: ignore[import-not-found]
    except ImportError:
        raise RerunError(
            "Drafting questions is not available in this kas-tui (no "
            "kas_tui.features.evaluate.drafting): write a question set and run "
            "kas-tui eval PKG --questions FILE"
        ) from None
    drafted = draft_questions(_open(root), n=n, seed=seed)
    questions = getattr(drafted, "questions", drafted)
    out = [q for q in questions if isinstance(q, Question)]
    if not out:
        raise RerunError(NOTHING_TO_ASK[0].upper() + NOTHING_TO_ASK[1:])
    return out


def draft_and_run(
    root: str | os.PathLike[str],
    *,
    n: int = 10,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> StoredEvaluation:
    """Draft a question set, keep it as ``questions.jsonl`` in a new evaluation folder,
    and evaluate it there."""
    from kas_tui.features.evaluate.runner import new_eval_dir

    questions = drafted_questions(root, n=n, seed=seed)
    folder = new_eval_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(q.record(), ensure_ascii=False) + "\n" for q in questions)
    atomic_write(folder / DRAFTED, text.encode("utf-8"))
    return rerun_all(
        root,
        questions,
        questions_source=str(folder / DRAFTED),
        progress=progress,
        should_stop=should_stop,
        folder=folder,
    )
