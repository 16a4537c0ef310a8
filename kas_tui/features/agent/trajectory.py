"""Trajectories as JSON Lines: export a trail, read back what a harness logged.

One tool call per line, in call order. Exported lines carry::

    {"turn": 1, "tool": "readfile", "args": {"path": "SKILL.md"}, "ok": true,
     "status": "ok", "path": "SKILL.md", "tokens": 1400, "call_tokens": 8,
     "result_tokens": 1392, "cumulative": 1400, "revealed": true}

- ``turn``: 1-based call number; ``tool``: ``listdir``, ``readfile``, ``peek`` or
  ``submit_answer``; ``args``: the arguments as called (``{"path": ...}`` or
  ``{"answer": ...}``).
- ``ok`` and ``status``: ``ok``, ``missing``, ``outside`` (the path leaves the package),
  ``wrong-kind``, ``unreadable`` or ``bad-call``.
- ``path``: the package-relative target (``""`` is the root, ``null`` for none).
- ``tokens`` = ``call_tokens`` + ``result_tokens`` (4-characters-per-token estimates of
  the call as the model wrote it and of the text it received); ``cumulative`` sums
  ``tokens`` up to this call (the catalog entry not included).
- ``revealed``: whether the target had been named before the call (false: guessed).
- ``cut_from``, only on an answer the agent received cut (a served session's size
  limit): the whole answer's length in characters; ``result_tokens`` count what the
  agent received.
- ``args_cut``, only when an argument was too long to log whole (a served session
  logs at most a couple of thousand characters of each): each cut argument's full
  length in characters (its JSON text's, for a value that is not a string), its value
  in ``args`` being its first characters; ``args_left_out`` counts arguments past the
  first 20, not logged.

A trajectory may open with one header line, which is not a call::

    {"kind": "header", "format": "kas-tui-trajectory", "version": 1,
     "package": "orbit-handbook", "question": "How do I ...?", "question_id": "q0001",
     "navigator": "lexical-bm25", "budget": 15, "date": "2026-12-02T17:30:00Z"}

Every key but ``kind`` is optional; readers keep the whole object as
:attr:`Trajectory.header` and show what they know of it (package, question, navigator,
budget, date). ``"preloaded": ["SKILL.md"]`` lists files the harness put in the prompt
before the first call (an activated skill's SKILL.md): replay starts with them read.
A header anywhere but the first record is a problem of that line.

Reading is lenient, since harnesses log calls in their own shapes: the tool name may sit
under ``tool``, ``name`` or ``tool_name`` (or inside a ``function`` object), the
arguments under ``args``, ``arguments``, ``input`` or ``parameters`` (an object, or a
string holding a JSON object); other keys are ignored and blank lines skipped. A line
that cannot be read is reported with the file name and line number, never raised.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kas_tui.core.fileio import read_regular
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.text import decode
from kas_tui.core.store import StoreError, os_reason, write_atomic
from kas_tui.features.agent.step import Step
from kas_tui.text.wording import at_line, json_kind

NAME_KEYS = ("tool", "name", "tool_name")
ARGS_KEYS = ("args", "arguments", "input", "parameters")


# --- export ----------------------------------------------------------------------------


#: At most this many arguments of one call are logged when arguments are cut.
MAX_LOGGED_ARGS = 20


def step_record(step: Step, *, arg_limit: int | None = None) -> dict[str, Any]:
    """The JSON object for one step (see the module docstring); with ``arg_limit``,
    each argument is logged up to that many characters (see :func:`cut_args`)."""
    record: dict[str, Any] = {
        "turn": step.turn,
        "tool": step.tool,
        "args": step.args,
        "ok": step.ok,
        "status": step.status,
        "path": step.path,
        "tokens": step.tokens,
        "call_tokens": step.call_tokens,
        "result_tokens": step.result_tokens,
        "cumulative": step.cumulative,
        "revealed": step.revealed,
    }
    if step.cut_from is not None:
        record["cut_from"] = step.cut_from
    if arg_limit is not None:
        args, cut, left_out = cut_args(step.args, arg_limit)
        if cut or left_out:
            record["args"] = args
        if cut:
            record["args_cut"] = cut
        if left_out:
            record["args_left_out"] = left_out
    return record


def cut_args(args: dict[str, Any], limit: int) -> tuple[dict[str, Any], dict[str, int], int]:
    """``args`` as a log keeps them: each value (a string, or the JSON text of any other
    value) longer than ``limit`` characters cut to its first ``limit``, with its full
    length in the second dict; names cut likewise; arguments past the first
    :data:`MAX_LOGGED_ARGS` left out, counted in the third value."""
    kept: dict[str, Any] = {}
    cut: dict[str, int] = {}
    for key, value in itertools.islice(args.items(), MAX_LOGGED_ARGS):
        name = key if len(key) <= limit else key[:limit]
        text = value if isinstance(value, str) else None
        if text is None and not isinstance(value, (bool, int, float, type(None))):
            text = json.dumps(value, ensure_ascii=False)
        if text is not None and len(text) > limit:
            kept[name] = text[:limit]
            cut[name] = len(text)
        else:
            kept[name] = value
    return kept, cut, max(0, len(args) - MAX_LOGGED_ARGS)


HEADER_KIND = "header"
FORMAT_NAME = "kas-tui-trajectory"
FORMAT_VERSION = 1


def header_record(**fields: Any) -> dict[str, Any]:
    """A header object: ``kind``, ``format`` and ``version`` first, then ``fields``
    (``None`` values left out)."""
    record: dict[str, Any] = {
        "kind": HEADER_KIND,
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
    }
    record.update({k: v for k, v in fields.items() if v is not None})
    return record


def trajectory_jsonl(steps: Iterable[Step], header: dict[str, Any] | None = None) -> str:
    """The steps as JSON Lines, one call per line, ending with a newline; ``header``
    (see :func:`header_record`) goes first when given."""
    lines = [json.dumps(header, ensure_ascii=False) + "\n"] if header else []
    lines += [json.dumps(step_record(s), ensure_ascii=False) + "\n" for s in steps]
    return "".join(lines)


def write_trajectory(
    path: str | os.PathLike[str], steps: Iterable[Step], header: dict[str, Any] | None = None
) -> None:
    """Write the steps to ``path`` atomically (temporary file beside it, then rename).

    Raises :class:`~kas_tui.core.store.StoreError` with a plain reason when it cannot.
    """
    target = Path(path)
    data = trajectory_jsonl(steps, header).encode("utf-8")
    try:
        current: bytes | None = read_regular(target)
    except FileNotFoundError:
        current = None
    except OSError as exc:
        raise StoreError(target, f"cannot write: {os_reason(exc, writing=True)}") from None
    write_atomic(target, data, expect=current, create=current is None)


# --- reading ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One logged tool call: the name as logged, its arguments, its line in the file."""

    tool: str
    args: dict[str, Any] = field(hash=False)
    line: int


@dataclass(frozen=True)
class TrajectoryProblem:
    """A line (or the file, ``line`` 0) that could not be read as a tool call."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{at_line(self.source, self.line)}: {self.message}"


@dataclass(frozen=True)
class Trajectory:
    """The calls read from a trajectory and the problems found on the way."""

    source: str
    calls: tuple[Call, ...] = ()
    problems: tuple[TrajectoryProblem, ...] = ()
    #: The header object, when the file opens with one (see the module docstring).
    header: dict[str, Any] | None = field(default=None, hash=False)

    @property
    def question(self) -> str:
        """The question the header names, or ``''``."""
        value = (self.header or {}).get("question")
        return value if isinstance(value, str) else ""


def parse_trajectory(text: str, source: str = "<trajectory>") -> Trajectory:
    """Read JSON Lines ``text``; ``source`` names it in problems."""
    calls: list[Call] = []
    problems: list[TrajectoryProblem] = []
    header: dict[str, Any] | None = None
    first = True
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        if not line.strip():
            continue
        result = _call(line, number)
        if isinstance(result, dict):
            if first:
                header = result
            else:
                message = "a header line must be the first line of the trajectory"
                problems.append(TrajectoryProblem(source, number, message))
        elif isinstance(result, Call):
            calls.append(result)
        else:
            problems.append(TrajectoryProblem(source, number, result))
        first = False
    return Trajectory(source, tuple(calls), tuple(problems), header)


def read_trajectory(path: str | os.PathLike[str]) -> Trajectory:
    """Read a trajectory file; a file that cannot be read is a problem, not an exception."""
    source = os.fspath(path)
    try:
        text = decode(read_regular(path)).text
    except FormatError as exc:
        where = f" (line {exc.line})" if exc.line else ""
        return Trajectory(source, problems=(TrajectoryProblem(source, 0, exc.message + where),))
    except OSError as exc:
        message = f"cannot read: {os_reason(exc)}"
        return Trajectory(source, problems=(TrajectoryProblem(source, 0, message),))
    return parse_trajectory(text, source)


def _call(line: str, number: int) -> Call | dict[str, Any] | str:
    """The call on one line, a header object, or the message saying why there is none."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        return f"not valid JSON ({exc.msg} at column {exc.colno})"
    if isinstance(record, dict) and record.get("kind") == HEADER_KIND:
        return record
    if isinstance(record, dict) and isinstance(record.get("function"), dict):
        record = record["function"]  # {"type": "function", "function": {...}}
    if not isinstance(record, dict):
        return f"expected a JSON object holding one tool call, got {json_kind(record)}"
    name_key = next((k for k in NAME_KEYS if k in record), None)
    if name_key is None:
        keys = ", ".join(repr(k) for k in NAME_KEYS)
        return f"no tool name: expected one of the keys {keys}"
    name = record[name_key]
    if not isinstance(name, str) or not name.strip():
        return f"the tool name {name_key!r} must be a non-empty string, not {json_kind(name)}"
    args_key = next((k for k in ARGS_KEYS if k in record), None)
    args: Any = record[args_key] if args_key else {}
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError as exc:
            return f"{args_key!r} is a string that is not JSON ({exc.msg})"
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return f"{args_key!r} must be a JSON object, not {json_kind(args)}"
    return Call(name.strip(), args, number)
