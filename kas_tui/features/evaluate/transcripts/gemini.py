"""Gemini CLI's ``gemini -p PROMPT --output-format stream-json`` (and ``json``) transcript.

Stream JSON is one event a line (``packages/core/src/output/types.ts``): ``init``
(``session_id``, ``model``), ``message`` (``role``, ``content``, ``delta``), ``tool_use``
(``tool_name``, ``tool_id``, ``parameters``), ``tool_result`` (``tool_id``, ``status``
``success`` | ``error``, ``output``, ``error``), ``error``, and ``result`` last (``status``,
``stats``: ``input_tokens``, ``output_tokens``, ``total_tokens``, ``tool_calls``...).

Calls kept (``packages/core/src/tools/definitions/base-declarations.ts``): ``read_file``
(``file_path``), ``read_many_files`` (``include``: a path reads it, a glob lists its
folder), ``list_directory`` (``dir_path``), ``glob`` and ``grep_search`` (the folder
searched), ``activate_skill`` (``name``: that skill's SKILL.md), ``run_shell_command``
(``command``, see :mod:`.shell`). The answer is the assistant's text after the last tool
result. Usage comes once, in ``result``: calls carry none.

``--output-format json`` writes one object (``response``, ``stats``, ``error``) that
names no tool call: it gives the answer and the tokens, and a problem saying that reads
need ``stream-json``.
"""

from __future__ import annotations

import json
from typing import Any

from kas_tui.features.agent.tools import LISTDIR, READFILE
from kas_tui.features.evaluate.transcripts.record import (
    GEMINI,
    AgentCall,
    Transcript,
    glob_folder,
    json_lines,
    number,
)
from kas_tui.features.evaluate.transcripts.shell import shell_calls

_GLOB = set("*?[{")


def parse_gemini(text: str, source: str) -> Transcript:
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            whole = json.loads(stripped)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict) and ("response" in whole or "stats" in whole):
            return _single(whole, source)
    transcript = Transcript(source, GEMINI)
    made: dict[str, range] = {}  # tool_id -> indexes of the calls it made
    said: list[str] = []
    for line, record in json_lines(text, transcript):
        kind = record.get("type")
        if kind == "init":
            model = record.get("model")
            transcript.model = model if isinstance(model, str) else ""
        elif kind == "message" and record.get("role") == "assistant":
            content = record.get("content")
            said.append(content if isinstance(content, str) else "")
        elif kind == "tool_use":
            said = []
            first = len(transcript.calls)
            _tool_use(transcript, record, line)
            if isinstance(record.get("tool_id"), str):
                made[record["tool_id"]] = range(first, len(transcript.calls))
        elif kind == "tool_result":
            said = []
            _tool_result(transcript, record, made)
        elif kind == "result":
            transcript.finished = True
            _result(transcript, record)
    transcript.answer = "".join(said).strip()
    return transcript


def _tool_use(transcript: Transcript, record: dict[str, Any], line: int) -> None:
    name, args = record.get("tool_name"), record.get("parameters")
    if not isinstance(name, str) or not isinstance(args, dict):
        transcript.problem(line, "a tool_use event without 'tool_name' and 'parameters'")
        return

    def add(tool: str, path: str, via: str = name, skill: str = "") -> None:
        transcript.calls.append(AgentCall(tool, path, via, line, skill=skill))

    path = next((args[k] for k in ("file_path", "absolute_path", "path") if k in args), None)
    folder = args.get("dir_path", args.get("path"))
    if name == "read_file" and isinstance(path, str):
        add(READFILE, path)
    elif name == "read_many_files":
        include = args.get("include", args.get("paths"))
        for item in include if isinstance(include, list) else []:
            if isinstance(item, str):
                add(LISTDIR, glob_folder(item)) if _GLOB & set(item) else add(READFILE, item)
    elif name == "list_directory" and isinstance(folder, str):
        add(LISTDIR, folder)
    elif name in ("glob", "grep_search", "search_file_content"):
        pattern = args.get("pattern")
        if isinstance(folder, str) and folder:
            add(LISTDIR, folder)
        elif name == "glob" and isinstance(pattern, str):
            add(LISTDIR, glob_folder(pattern))
    elif name == "activate_skill" and isinstance(args.get("name"), str):
        add(READFILE, "", skill=args["name"])
    elif name == "run_shell_command" and isinstance(args.get("command"), str):
        cwd = args.get("dir_path") if isinstance(args.get("dir_path"), str) else ""
        for tool, target, program in shell_calls(args["command"], cwd):
            add(tool, target, f"shell: {program}")


def _tool_result(transcript: Transcript, record: dict[str, Any], made: dict[str, range]) -> None:
    calls = made.pop(str(record.get("tool_id")), None)
    if calls is None or record.get("status") != "error":
        return
    error = record.get("error")
    message = error.get("message") if isinstance(error, dict) else None
    text = message if isinstance(message, str) and message else "the tool reported an error"
    for i in calls:
        call = transcript.calls[i]
        transcript.calls[i] = AgentCall(call.tool, call.path, call.via, call.line, text, None)


def _result(transcript: Transcript, record: dict[str, Any]) -> None:
    if record.get("status") == "error":
        error = record.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        transcript.error = message if isinstance(message, str) else "error"
    stats = record.get("stats")
    if isinstance(stats, dict):
        transcript.usage_known = True
        transcript.input_tokens = number(stats.get("input_tokens"))
        transcript.output_tokens = number(stats.get("output_tokens"))


def _single(whole: dict[str, Any], source: str) -> Transcript:
    """The ``--output-format json`` object: an answer and tokens, no calls."""
    transcript = Transcript(source, GEMINI, finished=True)
    response = whole.get("response")
    transcript.answer = response if isinstance(response, str) else ""
    error = whole.get("error")
    if isinstance(error, dict):
        message = error.get("message")
        transcript.error = message if isinstance(message, str) else "error"
    stats = whole.get("stats")
    models = stats.get("models") if isinstance(stats, dict) else None
    for model in models.values() if isinstance(models, dict) else []:
        tokens = model.get("tokens") if isinstance(model, dict) else None
        if isinstance(tokens, dict):
            transcript.usage_known = True
            transcript.input_tokens += number(tokens.get("prompt", tokens.get("input")))
            transcript.output_tokens += number(tokens.get("candidates"))
    transcript.problem(
        1,
        "Gemini CLI's --output-format json names no tool call, so no read can be scored; "
        "record the run with --output-format stream-json",
    )
    return transcript
