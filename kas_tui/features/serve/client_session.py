"""One agent's session with a served package: its calls answered and logged.

Every call goes through the agent walk's own :class:`~kas_tui.features.agent.trail.Trail` over a
:class:`~kas_tui.features.agent.sandbox.Sandbox` of the package, so what a served agent reads is
byte for byte what the curator sees in the walk (``a``) for the same call, and the
confinement rules (no ``..``, no absolute path outside, no symlink leaving, no NUL, no
hidden file) are the sandbox's, written once. A text longer than :data:`MAX_RESPONSE`
characters is cut, with a note saying so.

The session is logged as it goes, one JSON line per call in the trajectory format the
replay screen (``R``) reads, after a header naming the package, the client and the
server; each line is flushed when written, so a server killed mid-session leaves a log
that replays up to its last call. Logs go to ``<user data folder>/sessions/`` (or the
folder given), one file per session: ``<package>-<UTC time>-<pid>-<n>.jsonl``.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kas_tui.core.fileio import os_reason
from kas_tui.core.package import Package
from kas_tui.core.user_dirs import data_dir
from kas_tui.features.agent.sandbox import Sandbox
from kas_tui.features.agent.skill_catalog import CatalogEntry, catalog_entry
from kas_tui.features.agent.tools import LISTDIR, PEEK, READFILE, Outcome
from kas_tui.features.agent.trail import Trail
from kas_tui.features.agent.trajectory import header_record, step_record

#: The most characters one answer carries; a longer file is cut, with a note saying so.
MAX_RESPONSE = 200_000

#: The tools a served package offers (``submit_answer`` is the client's own business).
SERVED_TOOLS = (LISTDIR, READFILE, PEEK)

#: The navigator name in a served session's header.
SERVED_NAVIGATOR = "mcp-client"

_numbers = itertools.count(1)


def cut(text: str) -> str:
    """``text`` as a client receives it: at most :data:`MAX_RESPONSE` characters, with a
    note saying how long it was when it is longer."""
    if len(text) <= MAX_RESPONSE:
        return text
    return (
        text[:MAX_RESPONSE] + f"\n\n[cut: {len(text):,} characters, only the first "
        f"{MAX_RESPONSE:,} are returned]"
    )


def sessions_dir() -> Path:
    """Where served sessions are logged unless ``--log-dir`` says otherwise."""
    return data_dir() / "sessions"


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
    """The calls of one client, answered and logged (see the module docstring)."""

    def __init__(
        self,
        served: ServedPackage,
        *,
        client: str = "",
        log_dir: Path | None = None,
        transport: str = "stdio",
    ) -> None:
        self.served = served
        self.trail = Trail(served.sandbox, catalog_tokens=served.catalog.tokens)
        self.client = client
        self.transport = transport
        self.started = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
        self.log_dir = log_dir
        self.log_path: Path | None = None
        self.log_problem = ""  # why the session could not be logged, said once
        self._log: IO[str] | None = None

    def call(self, tool: str, args: dict[str, Any], *, outcome: Outcome | None = None) -> Served:
        """Answer one call (never raises for a bad one) and log it.

        ``outcome``: the call was answered elsewhere (a resource read of the Skills
        extension); it is only logged, as :meth:`Trail.record` records it.
        """
        step = self.trail.record(tool, args, outcome=outcome)
        self._write(step_record(step))
        return Served(cut(step.text), not step.ok)

    def header(self) -> dict[str, Any]:
        return header_record(
            package=self.served.name,
            client=self.client or None,
            navigator=SERVED_NAVIGATOR,
            transport=self.transport,
            tools=list(SERVED_TOOLS),
            root=str(self.served.package.root),
            date=self.started.isoformat().replace("+00:00", "Z"),
        )

    def _write(self, record: dict[str, Any]) -> None:
        if self._log is None and not self.log_problem:
            self._open_log()
        if self._log is None:
            return
        try:
            self._log.write(json.dumps(record, ensure_ascii=False) + "\n")
            self._log.flush()
        except OSError as exc:
            self.log_problem = f"cannot write {self.log_path}: {os_reason(exc, writing=True)}"
            self._log = None

    def _open_log(self) -> None:
        folder = self.log_dir or sessions_dir()
        stamp = self.started.strftime("%Y%m%dT%H%M%SZ")
        name = f"{self.served.name}-{stamp}-{os.getpid()}-{next(_numbers)}.jsonl"
        self.log_path = folder / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self._log = open(self.log_path, "x", encoding="utf-8")  # noqa: SIM115
            self._log.write(json.dumps(self.header(), ensure_ascii=False) + "\n")
            self._log.flush()
        except OSError as exc:
            self.log_problem = f"cannot log to {folder}: {os_reason(exc, writing=True)}"
            self._log = None

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


def recent_sessions(name: str, folder: Path | None = None, limit: int = 20) -> list[Path]:
    """The logged sessions of package ``name``, newest first (at most ``limit``)."""
    where = folder or sessions_dir()
    try:
        found = [p for p in where.glob(f"{name}-*.jsonl") if p.is_file()]
    except OSError:
        return []
    found.sort(key=lambda p: (p.stat().st_mtime, p.name), reverse=True)
    return found[:limit]
