"""Transcripts of real agent CLIs, read into the calls an evaluation scores.

One module per format: :mod:`.claude` (Claude Code's stream-json), :mod:`.codex`
(``codex exec --json``), :mod:`.gemini` (Gemini CLI's stream-json and json);
:mod:`.shell` finds the files a shell command reads; :mod:`.record` holds what they
return. :func:`read_transcript` detects the format by content. Reading never raises: a
line that cannot be read is a problem naming the file and the line.
"""

from __future__ import annotations

import json
import os

from kas_tui.core.fileio import os_reason, read_regular
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.text import decode
from kas_tui.features.evaluate.transcripts.claude import parse_claude
from kas_tui.features.evaluate.transcripts.codex import parse_codex
from kas_tui.features.evaluate.transcripts.gemini import parse_gemini
from kas_tui.features.evaluate.transcripts.record import (
    CLAUDE,
    CODEX,
    FORMATS,
    GEMINI,
    AgentCall,
    Transcript,
    package_path,
)

__all__ = [
    "CLAUDE",
    "CODEX",
    "FORMATS",
    "GEMINI",
    "AgentCall",
    "Transcript",
    "detect_format",
    "package_path",
    "parse_transcript",
    "read_transcript",
]

_CLAUDE_TYPES = {"system", "assistant", "user", "stream_event"}
_CODEX_TYPES = {"thread.started", "turn.started", "turn.completed", "turn.failed"}
_GEMINI_TYPES = {"init", "message", "tool_use", "tool_result"}


def detect_format(text: str) -> str | None:
    """``claude``, ``codex`` or ``gemini`` from the first records that tell, or ``None``."""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("{"):
        try:  # one object, maybe over many lines: a --output-format json answer
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict):
            return _format_of(whole)
    for line in text.split("\n")[:200]:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        found = _format_of(record) if isinstance(record, dict) else None
        if found:
            return found
    return None


def _format_of(record: dict) -> str | None:
    kind = record.get("type")
    kind = kind if isinstance(kind, str) else None
    if kind in _CODEX_TYPES or (kind or "").startswith("item."):
        return CODEX
    if kind in _GEMINI_TYPES and "timestamp" in record:
        return GEMINI
    if kind in _CLAUDE_TYPES:
        return CLAUDE
    if kind == "result":
        return GEMINI if "stats" in record or "status" in record else CLAUDE
    if "response" in record or "stats" in record:
        return GEMINI
    return None


_PARSERS = {CLAUDE: parse_claude, CODEX: parse_codex, GEMINI: parse_gemini}


def parse_transcript(text: str, source: str = "<transcript>", fmt: str | None = None) -> Transcript:
    """Read transcript ``text`` in format ``fmt`` (detected when ``None``)."""
    fmt = fmt or detect_format(text)
    if fmt is None:
        transcript = Transcript(source, "")
        what = "empty" if not text.strip() else "not a transcript this kas-tui reads"
        transcript.problem(
            0,
            f"{what}: expected Claude Code stream-json, codex exec --json or Gemini CLI "
            "stream-json output, one JSON object a line",
        )
        return transcript
    return _PARSERS[fmt](text, source)


def read_transcript(path: str | os.PathLike[str], fmt: str | None = None) -> Transcript:
    """Read the transcript file at ``path``; a file that cannot be read is a problem."""
    source = os.fspath(path)
    try:
        text = decode(read_regular(path)).text
    except FormatError as exc:
        transcript = Transcript(source, fmt or "")
        transcript.problem(exc.line, exc.message)
        return transcript
    except OSError as exc:
        transcript = Transcript(source, fmt or "")
        transcript.problem(0, f"cannot read: {os_reason(exc)}")
        return transcript
    return parse_transcript(text, source, fmt)
