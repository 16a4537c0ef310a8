"""OpenAI Codex's ``codex exec --json`` transcript.

One JSON object a line (``codex-rs/exec/src/exec_events.rs``): ``thread.started``,
``turn.started``, ``item.started`` / ``item.updated`` / ``item.completed`` carrying an
``item`` (``{"id", "type", ...}``), ``turn.completed`` with ``usage``
(``input_tokens``, ``cached_input_tokens``, ``output_tokens``), ``turn.failed`` and
``error``. Codex reads files through its shell: a ``command_execution`` item's
``command`` (``bash -lc 'cat ...'``) is read as :mod:`.shell` says; a ``failed`` or
``declined`` status, or a non-zero ``exit_code``, makes its calls failed ones. The answer
is the last ``agent_message`` item's ``text``. Usage comes per turn, not per model
response, so a call carries none (tokens to the first gold read are then not known).
"""

from __future__ import annotations

from typing import Any

from kas_tui.features.evaluate.transcripts.record import (
    CODEX,
    AgentCall,
    Transcript,
    json_lines,
    number,
)
from kas_tui.features.evaluate.transcripts.shell import shell_calls

_ITEM_EVENTS = ("item.started", "item.updated", "item.completed")


def parse_codex(text: str, source: str) -> Transcript:
    transcript = Transcript(source, CODEX)
    items: dict[str, tuple[int, dict[str, Any]]] = {}  # id -> (first line, last version)
    for line, record in json_lines(text, transcript):
        kind = record.get("type")
        if kind in _ITEM_EVENTS:
            item = record.get("item")
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                transcript.problem(line, f"a {kind} line without an 'item' object with an 'id'")
                continue
            first = items.get(item["id"], (line, item))[0]
            items[item["id"]] = (first, item)
        elif kind == "turn.completed":
            transcript.finished = True
            usage = record.get("usage")
            if isinstance(usage, dict):
                transcript.usage_known = True
                # input_tokens already counts cached_input_tokens
                transcript.input_tokens += number(usage.get("input_tokens"))
                transcript.output_tokens += number(usage.get("output_tokens"))
        elif kind in ("turn.failed", "error"):
            error = record.get("error") if kind == "turn.failed" else record
            message = error.get("message") if isinstance(error, dict) else None
            transcript.error = message if isinstance(message, str) else kind
    for line, item in sorted(items.values(), key=lambda pair: pair[0]):
        if item.get("type") == "agent_message" and isinstance(item.get("text"), str):
            transcript.answer = item["text"]
        elif item.get("type") == "command_execution" and isinstance(item.get("command"), str):
            status, code, output = (
                item.get("status"),
                item.get("exit_code"),
                item.get("aggregated_output"),
            )
            error = ""
            if status in ("failed", "declined") or code not in (None, 0):
                error = output if isinstance(output, str) and output else f"the command {status}"
            for tool, path, program in shell_calls(item["command"]):
                transcript.calls.append(AgentCall(tool, path, f"shell: {program}", line, error))
    return transcript
