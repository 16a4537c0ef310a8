"""Real agents as navigators: Claude Code, Codex or Gemini CLI run headless per question.

For each question, :class:`AgentNavigator` makes a scratch workspace (a temporary
folder), installs the package there as a project skill where that agent reads skills
(:func:`~kas_tui.features.install.install`), runs the CLI found on ``PATH`` in it with
read-only tools, saves what it printed (its transcript) and reads it back as a run
(:mod:`.agent_runs`). The command lines, checked against each CLI's documentation (see
docs/agents-eval.md):

- Claude Code: ``claude -p PROMPT --output-format stream-json --verbose --tools
  Read,Glob,Grep,Skill --allowedTools Read,Glob,Grep,Skill --strict-mcp-config``
  (``--tools`` is the set the model gets; ``--allowedTools`` alone only pre-approves);
- Codex: ``codex exec --json --sandbox read-only --skip-git-repo-check -C WORKSPACE --
  PROMPT``;
- Gemini CLI: ``gemini -p PROMPT --output-format stream-json --approval-mode plan``
  (plan mode is its read-only mode).

A run that takes longer than ``timeout`` seconds is stopped (its process group killed)
and scored on what it printed so far, as a failed run. Questions run ``workers`` at a
time, in threads (each waits on its own process).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kas_tui.core.fileio import read_regular
from kas_tui.core.store import StoreError, write_atomic
from kas_tui.features.evaluate.agent_runs import AGENT_NAMES, run_of_transcript
from kas_tui.features.evaluate.runner import safe_name
from kas_tui.features.evaluate.runs import Question, Run
from kas_tui.features.evaluate.transcripts import parse_transcript
from kas_tui.features.install import InstallError, install, skills_folder

if TYPE_CHECKING:
    from kas_tui.core.package import Package

READ_ONLY_CLAUDE_TOOLS = "Read,Glob,Grep,Skill"


@dataclass(frozen=True)
class AgentCli:
    """One agent CLI: its program, the install client whose folder it reads skills
    from, and its headless read-only command line."""

    name: str
    program: str
    client: str

    @property
    def label(self) -> str:
        return AGENT_NAMES[self.name]

    def argv(self, program: str, prompt: str, workspace: Path) -> list[str]:
        if self.name == "claude":
            tools = READ_ONLY_CLAUDE_TOOLS
            return [program, "-p", prompt, "--output-format", "stream-json", "--verbose"] + [
                "--tools",
                tools,
                "--allowedTools",
                tools,
                "--strict-mcp-config",
            ]
        if self.name == "codex":
            return [program, "exec", "--json", "--sandbox", "read-only"] + [
                "--skip-git-repo-check",
                "-C",
                str(workspace),
                "--",
                prompt,
            ]
        return [program, "-p", prompt, "--output-format", "stream-json", "--approval-mode", "plan"]


AGENTS = {
    "claude": AgentCli("claude", "claude", "claude"),
    "codex": AgentCli("codex", "codex", "codex"),
    "gemini": AgentCli("gemini", "gemini", "gemini"),
}


def prompt_for(question: Question) -> str:
    """What the agent is asked: the question, and to answer from the installed skills."""
    return (
        f"{question.question}\n\n"
        "Answer from the skills installed in this project: find the answer in their "
        "files and reply with it in a few sentences. Do not change any file."
    )


def find_program(agent: str) -> str | None:
    """The agent's CLI on ``PATH``, or ``None``."""
    return shutil.which(AGENTS[agent].program)


class AgentNavigator:
    """Each question run by a real agent CLI (see the module docstring).

    ``transcripts`` is the folder the transcripts are saved in (``None``: not saved).
    """

    def __init__(
        self,
        package: Package,
        agent: str,
        *,
        program: str,
        timeout: float,
        budget: int,
        transcripts: Path | None = None,
    ) -> None:
        self.package = package
        self.cli = AGENTS[agent]
        self.program = program
        self.timeout = timeout
        self.budget = budget
        self.transcripts = transcripts
        self.name = self.cli.label
        #: Problems met on the way (a transcript that could not be saved), one line each.
        self.problems: list[str] = []
        self._live: set[subprocess.Popen[bytes]] = set()
        self._lock = threading.Lock()

    def run(self, question: Question) -> Run:
        workspace = Path(tempfile.mkdtemp(prefix="kas-eval-"))
        skill = ""
        try:
            placed = install(self.package, skills_folder(self.cli.client, project=workspace))
            skill = placed.target.name
            argv = self.cli.argv(self.program, prompt_for(question), workspace)
            output, note = self._call(argv, workspace)
        except (InstallError, OSError) as exc:
            output, note = b"", f"cannot install the skill in a scratch workspace: {exc}"
        finally:
            shutil.rmtree(workspace, ignore_errors=True)
        source = f"<{self.cli.name} run of {question.id}>"
        if self.transcripts is not None:
            target = self.transcripts / f"{safe_name(question.id)}.jsonl"
            try:
                _save(target, output)
                source = os.fspath(target)
            except (StoreError, OSError) as exc:
                self.problems.append(f"{target}: transcript not saved: {exc}")
        text = output.decode("utf-8", "replace")
        transcript = parse_transcript(text, source, self.cli.name)
        return run_of_transcript(
            self.package,
            question,
            transcript,
            skill=skill,
            budget=self.budget,
            note=note,
        )

    def _call(self, argv: list[str], workspace: Path) -> tuple[bytes, str]:
        """What the CLI printed, and a note when it timed out or failed."""
        try:
            process = subprocess.Popen(
                argv,
                cwd=workspace,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as exc:
            return b"", f"cannot start {argv[0]}: {exc.strerror or exc}"
        with self._lock:
            self._live.add(process)
        try:
            try:
                out, err = process.communicate(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                _kill(process)
                out, err = process.communicate()
                return out, f"timed out after {self.timeout:g} s"
        finally:
            with self._lock:
                self._live.discard(process)
        if process.returncode != 0 and not out.strip():
            said = err.decode("utf-8", "replace").strip().split("\n", 1)[0][:200]
            return out, f"{self.cli.program} exited with {process.returncode}: {said}"
        return out, ""

    def stop_all(self) -> None:
        """Kill every agent process still running (Ctrl-C, a stopped evaluation)."""
        with self._lock:
            live = list(self._live)
        for process in live:
            _kill(process)

    def runs(
        self, questions: Sequence[Question], workers: int, stop: Callable[[], bool]
    ) -> Iterator[Run]:
        """Each question's run, in question order, ``workers`` at a time."""
        pending: deque[Future[Run]] = deque()
        todo = iter(questions)
        with ThreadPoolExecutor(max(1, workers)) as pool:
            try:

                def fill() -> None:
                    while len(pending) < max(1, workers) and not stop():
                        question = next(todo, None)
                        if question is None:
                            return
                        pending.append(pool.submit(self.run, question))

                fill()
                while pending:
                    run = pending.popleft().result()
                    yield run
                    fill()
            finally:
                for future in pending:
                    future.cancel()
                self.stop_all()


def _kill(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):
        with contextlib.suppress(OSError):
            process.kill()


def _save(target: Path, data: bytes) -> None:
    """Write a transcript atomically (replacing one an earlier run left there)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        current: bytes | None = read_regular(target)
    except FileNotFoundError:
        current = None
    write_atomic(target, data, expect=current, create=current is None)
