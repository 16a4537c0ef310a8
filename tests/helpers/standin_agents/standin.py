"""Stand-ins for the Claude Code, Codex and Gemini CLIs: NOT the real programs.

Each prints, in its tool's documented transcript format, a run that reads the installed
skill's SKILL.md, its root index and one page (``STANDIN_PAGE``, package-relative;
``oncall/escalation-policy.md`` by default), then answers. They read the files for real
(the skill is found where the real CLI looks for it in the working folder), so the
results they print are the files' text. ``STANDIN_ARGV`` names a file the stand-in
writes its command line to (one argument a line); ``STANDIN_HANG=1`` makes it print its
first line and then wait until it is killed (a run that times out).
"""

from __future__ import annotations

import glob
import json
import os
import shlex
import signal
import sys

ANSWER = "Page the secondary on-call, then the engineering manager (stand-in answer)."


def _skill(folder: str) -> str:
    found = sorted(glob.glob(os.path.join(folder, "*", "SKILL.md")))
    if not found:
        sys.exit(f"stand-in: no skill in {folder}")
    return os.path.dirname(found[0])


def _pages() -> list[str]:
    return ["SKILL.md", "index.md", os.environ.get("STANDIN_PAGE", "oncall/escalation-policy.md")]


def _text(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _emit(record: dict) -> None:
    print(json.dumps(record), flush=True)
    if os.environ.get("STANDIN_HANG") == "1":
        signal.pause()  # not a wait: a hung agent, killed by the timeout under test


def claude(argv: list[str]) -> None:
    cwd = os.getcwd()
    skill = _skill(os.path.join(cwd, ".claude", "skills"))
    _emit(
        {
            "type": "system",
            "subtype": "init",
            "cwd": cwd,
            "session_id": "s1",
            "model": "stand-in",
            "tools": ["Read", "Glob", "Grep", "Skill"],
        }
    )
    for n, page in enumerate(_pages(), start=1):
        path = os.path.join(skill, page)
        usage = {
            "input_tokens": 10,
            "cache_creation_input_tokens": 100,
            "cache_read_input_tokens": 1000 * n,
            "output_tokens": 20,
        }
        message = {
            "id": f"msg_{n}",
            "type": "message",
            "role": "assistant",
            "model": "stand-in",
            "content": [
                {
                    "type": "tool_use",
                    "id": f"toolu_{n}",
                    "name": "Read",
                    "input": {"file_path": path},
                }
            ],
            "usage": usage,
        }
        _emit(
            {
                "type": "assistant",
                "message": message,
                "parent_tool_use_id": None,
                "session_id": "s1",
            }
        )
        result = {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": _text(path)}
        _emit(
            {
                "type": "user",
                "message": {"role": "user", "content": [result]},
                "parent_tool_use_id": None,
                "session_id": "s1",
            }
        )
    final = {
        "id": "msg_9",
        "type": "message",
        "role": "assistant",
        "model": "stand-in",
        "content": [{"type": "text", "text": ANSWER}],
        "usage": {"input_tokens": 10, "cache_read_input_tokens": 4000, "output_tokens": 30},
    }
    _emit({"type": "assistant", "message": final, "parent_tool_use_id": None, "session_id": "s1"})
    _emit(
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "duration_ms": 1200,
            "num_turns": 4,
            "result": ANSWER,
            "session_id": "s1",
            "total_cost_usd": 0.01,
            "usage": {
                "input_tokens": 40,
                "cache_creation_input_tokens": 300,
                "cache_read_input_tokens": 10000,
                "output_tokens": 90,
            },
        }
    )


def codex(argv: list[str]) -> None:
    workspace = argv[argv.index("-C") + 1] if "-C" in argv else os.getcwd()
    os.chdir(workspace)
    skill = os.path.relpath(_skill(os.path.join(workspace, ".agents", "skills")), workspace)
    _emit({"type": "thread.started", "thread_id": "t1"})
    _emit({"type": "turn.started"})
    commands = [
        f"cat {skill}/SKILL.md",
        f"sed -n '1,200p' {skill}/index.md",
        f"cat {skill}/{_pages()[2]}",
    ]
    for n, command in enumerate(commands, start=1):
        wrapped = f"/bin/bash -lc {shlex.quote(command)}"
        item = {
            "id": f"item_{n}",
            "type": "command_execution",
            "command": wrapped,
            "aggregated_output": "",
            "exit_code": None,
            "status": "in_progress",
        }
        _emit({"type": "item.started", "item": item})
        page = os.path.join(skill, _pages()[n - 1])
        done = dict(item, aggregated_output=_text(page), exit_code=0, status="completed")
        _emit({"type": "item.completed", "item": done})
    _emit(
        {
            "type": "item.completed",
            "item": {"id": "item_9", "type": "agent_message", "text": ANSWER},
        }
    )
    _emit(
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 9000, "cached_input_tokens": 6000, "output_tokens": 300},
        }
    )


def gemini(argv: list[str]) -> None:
    skill = _skill(os.path.join(os.getcwd(), ".gemini", "skills"))
    stamp = "2026-12-05T12:00:00.000Z"
    _emit({"type": "init", "timestamp": stamp, "session_id": "g1", "model": "stand-in"})
    _emit(
        {
            "type": "message",
            "timestamp": stamp,
            "role": "user",
            "content": argv[argv.index("-p") + 1],
        }
    )
    for n, page in enumerate(_pages(), start=1):
        path = os.path.join(skill, page)
        _emit(
            {
                "type": "tool_use",
                "timestamp": stamp,
                "tool_name": "read_file",
                "tool_id": f"read_file-{n}",
                "parameters": {"file_path": path},
            }
        )
        _emit(
            {
                "type": "tool_result",
                "timestamp": stamp,
                "tool_id": f"read_file-{n}",
                "status": "success",
                "output": _text(path),
            }
        )
    for chunk in (ANSWER[:20], ANSWER[20:]):
        _emit(
            {
                "type": "message",
                "timestamp": stamp,
                "role": "assistant",
                "content": chunk,
                "delta": True,
            }
        )
    _emit(
        {
            "type": "result",
            "timestamp": stamp,
            "status": "success",
            "stats": {
                "total_tokens": 7400,
                "input_tokens": 7000,
                "output_tokens": 400,
                "cached": 3000,
                "input": 4000,
                "duration_ms": 900,
                "tool_calls": 3,
                "models": {},
            },
        }
    )


def main(agent: str) -> None:
    argv = sys.argv[1:]
    log = os.environ.get("STANDIN_ARGV")
    if log:
        with open(log, "w", encoding="utf-8") as handle:
            handle.write("\n".join([agent, *argv]) + "\n")
    {"claude": claude, "codex": codex, "gemini": gemini}[agent](argv)
