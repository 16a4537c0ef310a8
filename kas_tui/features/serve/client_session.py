"""One agent's session with a served package: its calls answered and logged.

Every call goes through the agent walk's own :class:`~kas_tui.features.agent.trail.Trail` over a
:class:`~kas_tui.features.agent.sandbox.Sandbox` of the package, so what a served agent reads is
byte for byte what the curator sees in the walk (``a``) for the same call, and the
confinement rules (no ``..``, no absolute path outside, no symlink leaving, no NUL, no
hidden file) are the sandbox's, written once. A text longer than :data:`MAX_RESPONSE`
characters is cut, with a note saying so, before anything else is done with it (a 5 MB
page costs what its first 200,000 characters cost). Arguments the tool's schema does not
allow are refused with one line (:mod:`.tool_schemas`).

The session is logged as it goes, one JSON line per call in the trajectory format the
replay screen (``R``) reads, after a header naming the package, the client and the
server, written when the client first speaks. Every call is logged, refused ones too,
as the client received it: a cut answer's tokens are those of the text sent
(``cut_from`` gives the whole length), an argument over :data:`LOG_ARG_CHARS`
characters is logged cut (``args_cut`` gives its length). Each line is written and
closed at once, so a server killed mid-session leaves a log that replays up to its last
call, and a live session holds no file open. Logs go to ``<user data
folder>/sessions/`` (or the folder given), one file per session:
``<package>-<UTC time>-<pid>-<n>.jsonl``.

A session may name the evaluation question its client is answering (see
:mod:`.live_sessions` for how a client says so): its header then holds ``question_id``,
and ``kas-tui eval --sessions`` scores the log against a question set. A question named
after the header was written is put in it by rewriting that first line (atomically,
under the session's lock; the calls after it are kept as they are).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kas_tui.core.fileio import os_reason, read_regular
from kas_tui.core.package import Package
from kas_tui.core.store import StoreError, write_atomic
from kas_tui.features.agent.sandbox import MAX_PATH_CHARS, Sandbox
from kas_tui.features.agent.skill_catalog import CatalogEntry, catalog_entry
from kas_tui.features.agent.tools import OK, READFILE, Outcome
from kas_tui.features.agent.tools import cut as cut_outcome
from kas_tui.features.agent.trail import Trail
from kas_tui.features.agent.trajectory import header_record, step_record
from kas_tui.features.serve.session_logs import sessions_dir
from kas_tui.features.serve.tool_schemas import (
    MAX_RESPONSE,
    SERVED_TOOLS,
    argument_problem,
    unknown_tool,
    with_defaults,
)

#: A logged argument is cut to this many characters (more than a path may have, so a
#: cut path replays as refused, as it was served).
LOG_ARG_CHARS = 2 * MAX_PATH_CHARS

#: The navigator name in a served session's header.
SERVED_NAVIGATOR = "mcp-client"

_numbers = itertools.count(1)


def cut(text: str) -> str:
    """``text`` as a client receives it: at most :data:`MAX_RESPONSE` characters, with the
    tools' note saying how long it was when it is longer."""
    return cut_outcome(Outcome(READFILE, OK, text), MAX_RESPONSE).text


@dataclass(frozen=True)
class Served:
    """One answer: ``text`` as the client receives it; ``error`` when the call failed."""

    text: str
    error: bool


class ServedPackage:
    """The package as served: its catalog entry, instructions and a sandbox on it."""

    def __init__(self, package: Package, *, location: str | None = None) -> None:
        self.package = package
        self.catalog: CatalogEntry = catalog_entry(package, location)
        self.sandbox = Sandbox(package.root, location=self.catalog.location)

    @property
    def name(self) -> str:
        return self.catalog.name

    def instructions(self) -> str:
        """What the server tells the client first: the catalog entry an agent's skill
        list would show, then SKILL.md as ``readfile`` returns it."""
        skill = Trail(self.sandbox).record(READFILE, {"path": self.package.skill_file})
        return (
            f"{self.catalog.text}\n\n"
            "Use the listdir, readfile and peek tools to read this knowledge package; "
            "paths are relative to its root. Its SKILL.md:\n\n"
            f"{skill.text}"
        )


class Session:
    """The calls of one client, answered and logged (see the module docstring).

    Safe to call from several threads at once: calls are answered one at a time, so
    turn numbers follow the order they are written in.
    """

    def __init__(
        self,
        served: ServedPackage,
        *,
        client: str = "",
        log_dir: Path | None = None,
        transport: str = "stdio",
        question_id: str = "",
    ) -> None:
        self.served = served
        self.question_id = question_id
        self.trail = Trail(
            served.sandbox, catalog_tokens=served.catalog.tokens, max_chars=MAX_RESPONSE
        )
        self.client = client
        self.transport = transport
        self.started = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
        self.log_dir = Path(log_dir) if log_dir is not None else None
        self.log_path: Path | None = None
        self.log_problem = ""  # why the session could not be logged, said once
        self.ended = False
        self._lock = threading.Lock()

    def start(self) -> None:
        """Open the log: its header, written when the client first speaks (its
        ``initialize``), so a session without a call is on record too."""
        with self._lock:
            if self.log_path is None and not self.log_problem:
                self._open_log()

    def call(
        self,
        tool: str,
        args: Mapping[str, Any],
        *,
        outcome: Outcome | None = None,
        resource: bool = False,
    ) -> Served:
        """Answer one call (never raises for a bad one) and log it; arguments the tool's
        schema does not allow are refused with one line saying why. ``resource``: a read
        of the Skills extension logged as the tool it stands for (its ``uri`` beside the
        path; no tool schema applies); ``outcome``: the call was answered there, and is
        only logged, cut as an answer is, as :meth:`Trail.record` records it."""
        args = with_defaults(tool, args)
        if resource:
            problem = ""
        else:
            problem = argument_problem(tool, args) if tool in SERVED_TOOLS else unknown_tool(tool)
        return self._record(tool, args, problem, outcome)

    def refuse(self, tool: str, args: Mapping[str, Any], message: str) -> Served:
        """Log a call refused before it reached a tool (by the MCP layer), with the
        message the client received."""
        return self._record(tool, dict(args), message or "Error: call refused")

    def _record(
        self, tool: str, args: dict[str, Any], refusal: str, outcome: Outcome | None = None
    ) -> Served:
        with self._lock:
            step = self.trail.record(tool, args, refusal=refusal, outcome=outcome)
            self._write(step_record(step, arg_limit=LOG_ARG_CHARS))
        return Served(step.text, not step.ok)

    def header(self) -> dict[str, Any]:
        return header_record(
            package=self.served.name,
            client=self.client or None,
            question_id=self.question_id or None,
            navigator=SERVED_NAVIGATOR,
            transport=self.transport,
            tools=list(SERVED_TOOLS),
            root=str(self.served.package.root),
            date=self.started.isoformat().replace("+00:00", "Z"),
        )

    def _write(self, record: dict[str, Any]) -> None:
        """Append one line to the log, opened for that line only: a live session holds
        no file open, however many there are."""
        if self.log_path is None and not self.log_problem:
            self._open_log()
        if self.log_path is None or self.log_problem:
            return
        line = json.dumps(record, ensure_ascii=False) + "\n"
        try:
            fd = os.open(self.log_path, os.O_WRONLY | os.O_APPEND)  # never recreated
            with os.fdopen(fd, "w", encoding="utf-8") as log:
                log.write(line)
        except OSError as exc:
            self.log_problem = f"cannot write {self.log_path}: {os_reason(exc, writing=True)}"

    def _open_log(self) -> None:
        folder = self.log_dir or sessions_dir()
        stamp = self.started.strftime("%Y%m%dT%H%M%SZ")
        name = f"{self.served.name}-{stamp}-{os.getpid()}-{next(_numbers)}.jsonl"
        self.log_path = folder / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with open(self.log_path, "x", encoding="utf-8") as log:
                log.write(json.dumps(self.header(), ensure_ascii=False) + "\n")
        except OSError as exc:
            self.log_problem = f"cannot log to {folder}: {os_reason(exc, writing=True)}"

    def name_question(self, question_id: str) -> None:
        """Record the question the client is answering in the log's header."""
        with self._lock:
            if question_id == self.question_id:
                return
            self.question_id = question_id
            if self.log_path is None or self.log_problem:
                return  # the header, when written, holds it
            try:
                current = read_regular(self.log_path)
                rest = current.split(b"\n", 1)[1] if b"\n" in current else b""
                header = json.dumps(self.header(), ensure_ascii=False) + "\n"
                write_atomic(self.log_path, header.encode("utf-8") + rest, expect=current)
            except (OSError, StoreError) as exc:
                reason = os_reason(exc, writing=True) if isinstance(exc, OSError) else str(exc)
                self.log_problem = f"cannot write {self.log_path}: {reason}"

    def close(self) -> None:
        """End the session: its log holds every call answered; later calls are not
        logged."""
        with self._lock:
            self.ended = True
            self.log_problem = self.log_problem or "the session has ended"
