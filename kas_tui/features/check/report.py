"""Check reports as text (one line per finding) and as JSON (a stable schema).

JSON schema, version 1::

    {
      "tool": "kas-tui", "version": "0.1.0", "schema": 1,
      "root": "/abs/path", "profile": "okf" | "agent-ready", "today": "YYYY-MM-DD",
      "summary": {"documents": int, "errors": int, "warnings": int, "infos": int,
                  "seconds": float, "fixed": int},
      "findings": [{"code": "KAS031", "severity": "error", "path": "oncall/index.md",
                    "line": 12 | null, "message": "...", "fix": "..."}]
    }

A check that could not run (exit 2: not a package, an unreadable folder, a fix that
could not be written) still prints one JSON object, so a pipeline always parses::

    {"tool": "kas-tui", "version": "0.1.0", "schema": 1, "root": "/abs/path" | null,
     "error": "an empty folder, not a package; ..."}

Fields are only ever added, never renamed or removed, while ``schema`` stays 1.
"""

from __future__ import annotations

import json

from kas_tui import __version__
from kas_tui.features.check.findings import Report
from kas_tui.text.wording import counted, visible

SCHEMA_VERSION = 1
_COLOURS = {"error": "\x1b[31m", "warning": "\x1b[33m", "info": "\x1b[36m"}
_DIM, _BOLD, _RESET = "\x1b[2m", "\x1b[1m", "\x1b[0m"


def format_text(report: Report, *, color: bool = False, hints: bool = False, fixed: int = 0) -> str:
    """``path:line: CODE severity message`` lines grouped by file, then a summary line."""
    lines: list[str] = []
    previous = None
    for f in report.findings:
        if previous is not None and f.path != previous:
            lines.append("")
        previous = f.path
        where = visible(f"{f.path}:{f.line}" if f.line else f.path)
        severity = f"{_COLOURS[f.severity]}{f.severity}{_RESET}" if color else f.severity
        code = f"{_BOLD}{f.code}{_RESET}" if color else f.code
        lines.append(f"{where}: {code} {severity} {visible(f.message)}")
        if hints and f.hint:
            lines.append(f"    {_DIM if color else ''}fix: {f.hint}{_RESET if color else ''}")
    if lines:
        lines.append("")
    lines.append(summary(report, fixed=fixed))
    return "\n".join(lines)


def summary(report: Report, *, fixed: int = 0) -> str:
    n = counted

    parts = [
        n(report.documents, "document"),
        n(report.count("error"), "error"),
        n(report.count("warning"), "warning"),
        n(report.count("info"), "info"),
    ]
    tail = f", {n(fixed, 'fix', 'fixes')} applied" if fixed else ""
    return (
        f"{report.profile} check of {visible(report.root)} (today {report.today.isoformat()}): "
        f"{', '.join(parts)}{tail} in {report.seconds:.2f} s"
    )


def format_json(report: Report, *, fixed: int = 0) -> str:
    data = {
        "tool": "kas-tui",
        "version": __version__,
        "schema": SCHEMA_VERSION,
        "root": report.root,
        "profile": report.profile,
        "today": report.today.isoformat(),
        "summary": {
            "documents": report.documents,
            "errors": report.count("error"),
            "warnings": report.count("warning"),
            "infos": report.count("info"),
            "seconds": round(report.seconds, 4),
            "fixed": fixed,
        },
        "findings": [
            {
                "code": f.code,
                "severity": f.severity,
                "path": f.path,
                "line": f.line,
                "message": f.message,
                "fix": f.hint,
            }
            for f in report.findings
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def format_json_error(message: str, root: str | None = None) -> str:
    """The JSON of a check that could not run (see the module's schema)."""
    data = {
        "tool": "kas-tui",
        "version": __version__,
        "schema": SCHEMA_VERSION,
        "root": root,
        "error": message,
    }
    return json.dumps(data, indent=2, ensure_ascii=False)
