"""Served sessions scored as an evaluation (``kas-tui eval PKG --sessions DIR``).

``kas-tui serve`` logs each MCP session as a trajectory; a session whose client named
the question it answers (see :mod:`kas_tui.features.serve.live_sessions`) holds its id in
the log's header (``question_id``). Such logs are scored against a question set as the
navigator's runs are (reach, turns, tokens, blame), without running anything: each log
is replayed against the package as it is now, and the run is the replay's steps.

A log is **replayable** when it reads without a problem and every call replays to the
status it was served with; otherwise the first difference is said (the package changed
since: a page moved, a file was deleted). When several logs name the same question, the
newest (by the header's date, then the file name) is scored and the others are said.
Logs naming no question, another package or a question not in the set are skipped, one
line each. Nothing here raises for a bad log.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.core.fileio import read_regular
from kas_tui.features.agent.replay import preloaded_paths, replay
from kas_tui.features.agent.trajectory import Trajectory, read_trajectory
from kas_tui.features.evaluate.runner import FULL, Evaluation, save_run, scored_evaluation
from kas_tui.features.evaluate.runs import SERVED, Question, Run

if TYPE_CHECKING:
    from kas_tui.core.package import Package

#: The navigator named for runs read from served sessions.
SESSIONS_NAVIGATOR = "served-sessions"


@dataclass(frozen=True)
class SessionLog:
    """One scored log: where it is, the question it answered, its client, and whether it
    replays as it was served (``difference`` says why not)."""

    path: Path
    question_id: str
    client: str
    replayable: bool
    difference: str = ""

    def record(self) -> dict[str, Any]:
        return {
            "question": self.question_id,
            "log": os.fspath(self.path),
            "client": self.client,
            "replayable": self.replayable,
            "difference": self.difference or None,
        }


@dataclass
class ServedRuns:
    """The runs read from a folder of session logs, and what was left out."""

    folder: Path
    runs: list[Run] = field(default_factory=list)
    logs: list[SessionLog] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    unnamed: int = 0  # logs that name no question
    unasked: list[str] = field(default_factory=list)  # question ids no log answered


def served_runs(
    package: Package, folder: str | os.PathLike[str], questions: Sequence[Question], budget: int
) -> ServedRuns:
    """Each question's newest session log in ``folder``, replayed as a run."""
    found = ServedRuns(Path(folder))
    by_id = {q.id: q for q in questions}
    chosen: dict[str, tuple[str, str, Trajectory]] = {}  # id -> (date, name, trajectory)
    for path in sorted(found.folder.glob("*.jsonl")):
        trajectory = read_trajectory(path)
        header = trajectory.header or {}
        qid = header.get("question_id")
        if not isinstance(qid, str) or not qid:
            found.unnamed += 1
            continue
        other = header.get("package")
        if isinstance(other, str) and other != package.name:
            found.skipped.append(f"{path}: a session of {other}, not of {package.name}")
            continue
        if qid not in by_id:
            found.skipped.append(f"{path}: question {qid} is not in the question set")
            continue
        date = header.get("date") if isinstance(header.get("date"), str) else ""
        key = (date, path.name, trajectory)
        older = chosen.get(qid)
        if older is not None:
            newest, dropped = max(older, key, key=_order), min(older, key, key=_order)
            found.skipped.append(
                f"{found.folder / dropped[1]}: an older session of {qid} ({newest[1]} is scored)"
            )
            key = newest
        chosen[qid] = key
    for question in questions:
        if question.id not in chosen:
            found.unasked.append(question.id)
            continue
        trajectory = chosen[question.id][2]
        run, log = _run(package, question, trajectory, budget)
        found.runs.append(run)
        found.logs.append(log)
    return found


def _order(item: tuple[str, str, Trajectory]) -> tuple[str, str]:
    return item[0], item[1]


def _run(
    package: Package, question: Question, trajectory: Trajectory, budget: int
) -> tuple[Run, SessionLog]:
    header = trajectory.header or {}
    client = header.get("client") if isinstance(header.get("client"), str) else ""
    replayed = replay(package, trajectory, budget=budget)
    difference = _difference(trajectory, [s.status for s in replayed.steps])
    path = Path(trajectory.source)
    log = SessionLog(path, question.id, client, not difference, difference)
    note = f"session {path.name}" + (f" (client {client})" if client else "")
    note += f"; does not replay as served: {difference}" if difference else "; replays as served"
    run = Run(
        question=question,
        navigator=f"served:{client}" if client else SESSIONS_NAVIGATOR,
        budget=budget,
        steps=replayed.steps,
        summary=replayed.summary,
        ended=SERVED,
        note=note,
        preloaded=preloaded_paths(header),
    )
    return run, log


def _difference(trajectory: Trajectory, replayed: list[str]) -> str:
    """Why the log does not replay as it was served (``''``: it does)."""
    if trajectory.problems:
        return str(trajectory.problems[0])
    try:
        text = read_regular(trajectory.source).decode("utf-8", "replace")
    except OSError:
        return f"{trajectory.source}: cannot be read again"
    served: list[Any] = []
    for line in text.splitlines():
        try:
            record = json.loads(line) if line.strip() else None
        except ValueError:
            return f"{trajectory.source} changed while it was read"
        if isinstance(record, dict) and record.get("kind") != "header":
            served.append(record.get("status"))
    for turn, (was, now) in enumerate(zip(served, replayed, strict=False), start=1):
        if was is not None and was != now:
            return f"turn {turn} was {was} when served, is {now} now"
    return ""


def evaluate_sessions(
    package: Package,
    questions: Sequence[Question],
    folder: str | os.PathLike[str],
    *,
    budget: int,
    within: int,
    questions_source: str = "",
    out_dir: str | os.PathLike[str] | None = None,
) -> tuple[Evaluation, ServedRuns]:
    """The evaluation of the sessions logged in ``folder`` (see the module docstring);
    with ``out_dir``, each scored run's trajectory is saved there as the navigator's are,
    its header naming the log it came from."""
    started = time.perf_counter()
    date = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    found = served_runs(package, folder, questions, budget)
    asked = [run.question for run in found.runs]
    if out_dir is not None:
        for run, log in zip(found.runs, found.logs, strict=True):
            save_run(out_dir, FULL, package.name, run, date, session_log=os.fspath(log.path))
    measured = [(FULL, found.runs, time.perf_counter() - started)]
    clients = sorted({log.client for log in found.logs if log.client})
    navigator = SESSIONS_NAVIGATOR + (f" ({', '.join(clients)})" if clients else "")
    evaluation = scored_evaluation(
        package,
        asked,
        measured,
        navigator=navigator,
        questions_source=questions_source,
        budget=budget,
        within=within,
        date=date,
        started=started,
        out_dir=out_dir,
    )
    return evaluation, found


def sessions_record(found: ServedRuns) -> dict[str, Any]:
    """What the report says of the logs (``"sessions"`` in ``--format json``)."""
    return {
        "folder": os.fspath(found.folder),
        "scored": [log.record() for log in found.logs],
        "skipped": list(found.skipped),
        "without_question": found.unnamed,
        "questions_without_session": list(found.unasked),
    }


def sessions_text(found: ServedRuns, top: int = 10) -> list[str]:
    """The report's lines on the logs: how many were scored and replay as served."""
    replayable = sum(log.replayable for log in found.logs)
    out = [
        f"Sessions in {found.folder}: {len(found.logs)} scored, {replayable} replay as served"
        + (f", {found.unnamed} name no question" if found.unnamed else "")
        + (f", {len(found.skipped)} skipped" if found.skipped else "")
    ]
    out += [f"  {log.question_id}: {log.difference}" for log in found.logs if not log.replayable]
    out += [f"  {line}" for line in found.skipped[:top]]
    if found.unasked:
        shown = ", ".join(found.unasked[:top]) + (" ..." if len(found.unasked) > top else "")
        out.append(f"  {len(found.unasked)} question(s) without a session: {shown}")
    return out
