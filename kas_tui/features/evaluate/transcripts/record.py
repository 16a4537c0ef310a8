"""What a transcript reader returns: the package calls an agent made, its answer, its usage.

A reader turns one agent CLI's recorded run into a :class:`Transcript`: every read or
listing the agent made (:class:`AgentCall`, its path as the agent wrote it), the final
answer, the turns the CLI counted and the tokens its usage records report. Paths are
mapped back to package-relative ones later (:func:`package_path`), once the skill's name
is known, so one reader serves a run made here and one recorded elsewhere.

Tokens are **input + output** as the CLI reports them: input counts every prompt token
the model processed, cached ones included (Claude Code's ``input_tokens`` +
``cache_creation_input_tokens`` + ``cache_read_input_tokens``; Codex's ``input_tokens``,
which already holds ``cached_input_tokens``; Gemini CLI's ``input_tokens``).
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field
from typing import Any

from kas_tui.features.agent.trajectory import TrajectoryProblem
from kas_tui.text.wording import json_kind

CLAUDE = "claude"
CODEX = "codex"
GEMINI = "gemini"
FORMATS = (CLAUDE, CODEX, GEMINI)


@dataclass(frozen=True)
class AgentCall:
    """One read (``readfile``) or listing (``listdir``) the agent made.

    ``path`` is as the agent wrote it, made absolute against ``cwd`` when the agent's
    working folder is known; ``via`` names the agent's tool (``Read``, ``Bash: cat``...);
    ``line`` is the transcript line; ``error`` the CLI's error text when the call failed;
    ``usage`` the tokens (input + output) spent up to and including the model response
    that made the call, when the transcript reports usage per response (``None``: not).
    ``skill`` is set instead of a path when the agent activated a skill by name (its
    SKILL.md is read).
    """

    tool: str
    path: str
    via: str
    line: int
    error: str = ""
    usage: int | None = None
    skill: str = ""


@dataclass
class Transcript:
    """One agent run read from its transcript (see the module docstring)."""

    source: str
    format: str
    calls: list[AgentCall] = field(default_factory=list)
    answer: str = ""
    #: The CLI said the run failed (an API error, a turn limit...): its words.
    error: str = ""
    #: Model requests or turns as the CLI counted them (``None``: not reported).
    agent_turns: int | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    #: Whether the transcript reported usage at all.
    usage_known: bool = False
    model: str = ""
    cwd: str = ""
    #: Whether the transcript holds the CLI's final record (Claude's ``result``...).
    finished: bool = False
    problems: list[TrajectoryProblem] = field(default_factory=list)

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def problem(self, line: int, message: str) -> None:
        self.problems.append(TrajectoryProblem(self.source, line, message))


def json_lines(text: str, transcript: Transcript) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of ``text``, one a line, with their line numbers; a line that is
    not a JSON object is a problem of the transcript (blank lines are skipped)."""
    out: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            transcript.problem(number, f"not valid JSON ({exc.msg} at column {exc.colno})")
            continue
        if not isinstance(record, dict):
            transcript.problem(number, f"expected a JSON object, got {json_kind(record)}")
            continue
        out.append((number, record))
    return out


def number(value: object) -> int:
    """A token count from a usage record (anything else counts 0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    return max(0, int(value))


def text_of(value: object) -> str:
    """Text from a string or a list of content blocks (``{"type": "text", "text": ...}``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [
            block.get("text", "")
            for block in value
            if isinstance(block, dict) and isinstance(block.get("text"), str)
        ]
        return "\n".join(parts)
    return ""


def absolute(path: str, cwd: str) -> str:
    """``path`` joined to ``cwd`` when it is relative and ``cwd`` is known."""
    path = path.strip()
    if not path or posixpath.isabs(path) or not cwd:
        return path
    return posixpath.normpath(posixpath.join(cwd, path))


_GLOB = set("*?[{")


def glob_folder(pattern: str) -> str:
    """The folder a glob pattern searches: its leading segments without wildcards."""
    kept: list[str] = []
    for part in pattern.split("/"):
        if _GLOB & set(part):
            break
        kept.append(part)
    if len(kept) == len(pattern.split("/")):
        kept = kept[:-1]  # a pattern without wildcards names a file: list its folder
    folder = "/".join(kept)
    return folder or ("/" if pattern.startswith("/") else ".")


def package_path(path: str, name: str) -> str | None:
    """The package-relative path of ``path`` for a skill installed as folder ``name``
    (``.claude/skills/NAME/incidents/index.md`` -> ``incidents/index.md``; the skill
    folder itself -> ``''``), or ``None`` when it is not inside such a folder."""
    text = path.strip().replace("\\", "/")
    if text.startswith("file://"):
        text = text[len("file://") :]
    parts = [p for p in text.split("/") if p not in ("", ".")]
    for i in range(len(parts) - 1, 0, -1):
        if parts[i] == name and parts[i - 1] == "skills":
            rest = parts[i + 1 :]
            return posixpath.normpath("/".join(rest)) if rest else ""
    return None
