"""Claude Code's ``claude -p PROMPT --output-format stream-json --verbose`` transcript.

One JSON object a line (see docs/agents-eval.md for the sources checked):

- ``{"type": "system", "subtype": "init", "cwd": ..., "model": ..., "tools": [...]}``;
- ``{"type": "assistant", "message": {"id": ..., "content": [blocks], "usage": {...}}}``,
  where a ``tool_use`` block is ``{"id", "name", "input"}``; one model response may be
  written as several such lines sharing the message ``id`` (its usage is counted once);
- ``{"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id",
  "content", "is_error"}]}}``;
- ``{"type": "result", "subtype": "success" | "error_max_turns" | ..., "is_error",
  "num_turns", "result": answer, "usage": {...}, "total_cost_usd"}`` last.

Calls kept: ``Read`` (``file_path``), ``Glob`` and ``Grep`` (the folder searched:
``path``, else the pattern's folder, else the working folder), ``LS`` (``path``), ``Skill``
(``skill``: that skill's SKILL.md), ``Bash`` (``command``, see :mod:`.shell`). A tool
result marked ``is_error`` makes its call a failed one.
"""

from __future__ import annotations

from typing import Any

from kas_tui.features.agent.tools import LISTDIR, READFILE
from kas_tui.features.evaluate.transcripts.record import (
    CLAUDE,
    AgentCall,
    Transcript,
    absolute,
    glob_folder,
    json_lines,
    number,
    text_of,
)
from kas_tui.features.evaluate.transcripts.shell import shell_calls


def usage_tokens(usage: object) -> tuple[int, int]:
    """(input, output) of a Claude usage object, cached input counted as input."""
    if not isinstance(usage, dict):
        return 0, 0
    prompt = sum(
        number(usage.get(key))
        for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    )
    return prompt, number(usage.get("output_tokens"))


def parse_claude(text: str, source: str) -> Transcript:
    transcript = Transcript(source, CLAUDE)
    per_message: dict[str, tuple[int, int]] = {}  # message id -> (input, output)
    pending: dict[str, range] = {}  # tool_use id -> the indexes of the calls it made
    last_text = ""
    result: dict[str, Any] | None = None
    for line, record in json_lines(text, transcript):
        kind = record.get("type")
        if kind == "system" and record.get("subtype") == "init":
            transcript.cwd = record.get("cwd") if isinstance(record.get("cwd"), str) else ""
            model = record.get("model")
            transcript.model = model if isinstance(model, str) else ""
        elif kind == "assistant":
            message = record.get("message")
            if not isinstance(message, dict):
                transcript.problem(line, "an assistant line without a 'message' object")
                continue
            key = message.get("id") if isinstance(message.get("id"), str) else f"line {line}"
            if "usage" in message:
                transcript.usage_known = True
                got = usage_tokens(message.get("usage"))
                was = per_message.get(key, (0, 0))
                per_message[key] = (max(was[0], got[0]), max(was[1], got[1]))
            spent = sum(a + b for a, b in per_message.values()) if per_message else None
            content = message.get("content")
            said = text_of(content)
            last_text = said or last_text
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    first = len(transcript.calls)
                    _tool_use(transcript, block, line, spent)
                    if len(transcript.calls) > first and isinstance(block.get("id"), str):
                        pending[block["id"]] = range(first, len(transcript.calls))
        elif kind == "user":
            _tool_results(transcript, record, pending)
        elif kind == "result":
            result = record
    if result is not None:
        transcript.finished = True
        answer = result.get("result")
        transcript.answer = answer if isinstance(answer, str) else last_text
        turns = result.get("num_turns")
        transcript.agent_turns = turns if isinstance(turns, int) else None
        if result.get("is_error") is True or result.get("subtype") not in (None, "success"):
            transcript.error = str(result.get("subtype") or "error") + (
                f": {answer}" if isinstance(answer, str) and answer else ""
            )
        if isinstance(result.get("usage"), dict):
            transcript.usage_known = True
            transcript.input_tokens, transcript.output_tokens = usage_tokens(result["usage"])
            return transcript
    else:
        transcript.answer = last_text
    transcript.input_tokens = sum(a for a, _ in per_message.values())
    transcript.output_tokens = sum(b for _, b in per_message.values())
    return transcript


def _tool_use(transcript: Transcript, block: dict[str, Any], line: int, spent: int | None) -> None:
    name = block.get("name")
    args = block.get("input")
    if not isinstance(name, str) or not isinstance(args, dict):
        transcript.problem(line, "a tool_use block without a 'name' and an 'input' object")
        return
    cwd = transcript.cwd

    def add(tool: str, path: str, via: str = name, skill: str = "") -> None:
        call = AgentCall(tool, absolute(path, cwd), via, line, usage=spent, skill=skill)
        transcript.calls.append(call)

    path = args.get("file_path") or args.get("path")
    if name == "Read" and isinstance(path, str):
        add(READFILE, path)
    elif name in ("Glob", "Grep", "LS"):
        pattern = args.get("pattern")
        if isinstance(path, str) and path:
            add(LISTDIR, path)
        elif name == "Glob" and isinstance(pattern, str):
            add(LISTDIR, glob_folder(pattern))
        elif cwd:
            add(LISTDIR, cwd)
    elif name == "Skill" and isinstance(args.get("skill"), str):
        add(READFILE, "", skill=args["skill"])
    elif name == "Bash" and isinstance(args.get("command"), str):
        for tool, target, program in shell_calls(args["command"], cwd):
            add(tool, target, f"Bash: {program}")


def _tool_results(
    transcript: Transcript, record: dict[str, Any], pending: dict[str, range]
) -> None:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict) or block.get("type") != "tool_result":
            continue
        made = pending.pop(str(block.get("tool_use_id")), None)
        if made is None or block.get("is_error") is not True:
            continue
        error = text_of(block.get("content")) or "the tool reported an error"
        for i in made:  # a Bash call may have made several calls: they all failed with it
            call = transcript.calls[i]
            transcript.calls[i] = AgentCall(
                call.tool, call.path, call.via, call.line, error, call.usage, call.skill
            )
