"""A real agent's transcript as a :class:`~.runs.Run`, and runs read from a folder of them.

:func:`run_of_transcript` replays the reads and listings a transcript holds (see
:mod:`.transcripts`) against the package, as a logged trajectory replays: each call
inside the installed skill becomes a step with the text the package holds at that path,
a call the CLI reported failed becomes a failed step with its error, and the answer a
``submit_answer`` step. Calls outside the skill folder (the workspace, other skills) are
not steps: the note counts them. Turns are those steps; tokens are the agent's usage
(input + output) when its transcript reports usage, else the walk's estimate.

:class:`TranscriptNavigator` serves ``eval --transcripts DIR``: each question's run is
read from ``DIR/<question id>.<any extension>``, in any of the three formats.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from kas_tui.features.agent.sandbox import Sandbox
from kas_tui.features.agent.tools import SUBMIT
from kas_tui.features.agent.trail import Trail
from kas_tui.features.agent.walk_summary import DEFAULT_BUDGET
from kas_tui.features.evaluate.runner import safe_name
from kas_tui.features.evaluate.runs import (
    ANSWERED,
    ESTIMATE,
    FAILED,
    GAVE_UP,
    USAGE,
    Question,
    Run,
)
from kas_tui.features.evaluate.transcripts import (
    Transcript,
    detect_format,
    package_path,
    read_transcript,
)
from kas_tui.text.wording import counted

if TYPE_CHECKING:
    from kas_tui.core.package import Package

#: The navigator names reports show, per transcript format.
AGENT_NAMES = {"claude": "claude-code", "codex": "codex", "gemini": "gemini-cli"}
SKILL_FILE = "SKILL.md"


def run_of_transcript(
    package: Package,
    question: Question,
    transcript: Transcript,
    *,
    skill: str,
    budget: int = DEFAULT_BUDGET,
    note: str = "",
) -> Run:
    """The run ``transcript`` records for ``question`` on ``package``, installed as the
    skill folder ``skill``; ``note`` (a timeout...) makes the run a failed one."""
    trail = Trail(Sandbox(package.root))
    step_usage: list[int | None] = []
    outside = 0
    for call in transcript.calls:
        path = SKILL_FILE if call.skill else package_path(call.path, skill)
        if call.skill and call.skill.rsplit(":", 1)[-1] != skill or path is None:
            outside += 1
            continue
        refusal = f"Error: {_first_line(call.error)}" if call.error else ""
        trail.record(call.tool, {"path": path}, refusal=refusal)
        step_usage.append(call.usage)
    answer = transcript.answer.strip()
    if answer:
        trail.record(SUBMIT, {"answer": answer})
        step_usage.append(transcript.total_tokens if transcript.usage_known else None)
    notes = [note] if note else []
    if transcript.error:
        notes.append(f"the agent failed: {_first_line(transcript.error)}")
    elif not transcript.finished and not note:
        notes.append("the transcript ends before the agent's final record")
    failed = bool(notes)
    if outside:
        notes.append(f"{counted(outside, 'call')} outside the skill folder, not scored")
    if transcript.problems:
        notes.append(f"{counted(len(transcript.problems), 'unreadable line')} in the transcript")
    usage = {}
    if transcript.usage_known:
        usage = {
            "input_tokens": transcript.input_tokens,
            "output_tokens": transcript.output_tokens,
            "total_tokens": transcript.total_tokens,
        }
        if transcript.agent_turns is not None:
            usage["agent_turns"] = transcript.agent_turns
    navigator = AGENT_NAMES.get(transcript.format, transcript.format or "transcript")
    return Run(
        question=question,
        navigator=f"{navigator} ({transcript.model})" if transcript.model else navigator,
        budget=budget,
        steps=tuple(trail.steps),
        summary=trail.summary(budget),
        ended=FAILED if failed else ANSWERED if answer else GAVE_UP,
        answer=answer,
        note="; ".join(notes),
        usage=usage,
        token_source=USAGE if transcript.usage_known else ESTIMATE,
        step_usage=tuple(step_usage) if any(u is not None for u in step_usage) else (),
    )


def _first_line(text: str, limit: int = 200) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


def transcript_file(folder: str | os.PathLike[str], question_id: str) -> Path | None:
    """The transcript of ``question_id`` in ``folder`` (``<id>.<extension>``; the id as
    it is, else as a file name makes it), or ``None``."""
    base = Path(folder)
    for stem in dict.fromkeys((question_id, safe_name(question_id))):
        for ext in (".jsonl", ".ndjson", ".json", ".txt", ""):
            path = base / f"{stem}{ext}"
            if "/" not in stem and path.is_file():
                return path
    return None


class TranscriptNavigator:
    """Runs read from transcripts recorded elsewhere (``eval --transcripts DIR``)."""

    name = "transcripts"

    def __init__(
        self, package: Package, folder: str | os.PathLike[str], *, skill: str, budget: int
    ):
        self.package = package
        self.folder = Path(folder)
        self.skill = skill
        self.budget = budget
        #: Problems met reading the transcripts, one line each (file and line named).
        self.problems: list[str] = []
        self.name = f"{_agent_of(self.folder)} (transcripts)"

    def run(self, question: Question) -> Run:
        path = transcript_file(self.folder, question.id)
        if path is None:
            transcript = Transcript(str(self.folder / question.id), "")
            note = f"no transcript {question.id}.jsonl in {self.folder}"
            return run_of_transcript(
                self.package, question, transcript, skill=self.skill, budget=self.budget, note=note
            )
        transcript = read_transcript(path)
        self.problems += [str(p) for p in transcript.problems]
        return run_of_transcript(
            self.package, question, transcript, skill=self.skill, budget=self.budget
        )


def _agent_of(folder: Path) -> str:
    """The agent whose transcripts ``folder`` holds, as its first readable one says."""
    try:
        files = sorted(p for p in folder.iterdir() if p.is_file())
    except OSError:
        return "agent"
    for path in files[:20]:
        try:
            with path.open("rb") as handle:
                head = handle.read(65536).decode("utf-8", "replace")
        except OSError:
            continue
        found = detect_format(head)
        if found:
            return AGENT_NAMES[found]
    return "agent"
