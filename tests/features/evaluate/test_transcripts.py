"""Transcript readers: Claude Code stream-json, codex exec --json, Gemini CLI stream-json.

The records here are written by hand in each tool's documented shape (see
docs/agents-eval.md for the sources); the stand-in CLIs of the CLI tests print them too.
"""

from __future__ import annotations

import json
from pathlib import Path

from kas_tui.features.evaluate.transcripts import (
    CLAUDE,
    CODEX,
    GEMINI,
    detect_format,
    package_path,
    parse_transcript,
    read_transcript,
)
from kas_tui.features.evaluate.transcripts.shell import shell_calls

WS = "/tmp/ws"
SKILL = f"{WS}/.claude/skills/orbit-handbook"


def lines(*records: object) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def assistant(mid: str, blocks: list, usage: dict | None = None) -> dict:
    message: dict = {"id": mid, "role": "assistant", "content": blocks}
    if usage is not None:
        message["usage"] = usage
    return {"type": "assistant", "message": message, "session_id": "s"}


def use(uid: str, name: str, args: dict) -> dict:
    return {"type": "tool_use", "id": uid, "name": name, "input": args}


def result(uid: str, content: str, error: bool = False) -> dict:
    block = {"type": "tool_result", "tool_use_id": uid, "content": content, "is_error": error}
    return {"type": "user", "message": {"role": "user", "content": [block]}}


def test_claude_stream_json_reads_tools_usage_and_answer() -> None:
    usage = {"input_tokens": 5, "cache_read_input_tokens": 100, "output_tokens": 10}
    text = lines(
        {"type": "system", "subtype": "init", "cwd": WS, "model": "claude-x", "tools": []},
        assistant("m1", [use("t1", "Skill", {"skill": "orbit-handbook"})], usage),
        # the same response written as a second line: its usage counts once
        assistant("m1", [use("t2", "Read", {"file_path": f"{SKILL}/index.md"})], usage),
        result("t1", "skill text"),
        assistant("m2", [use("t3", "Glob", {"pattern": ".claude/skills/orbit-handbook/**/*.md"})]),
        assistant("m3", [use("t4", "Grep", {"pattern": "refund", "path": f"{SKILL}/oncall"})]),
        assistant("m4", [use("t5", "Bash", {"command": f"cat {SKILL}/oncall/x.md | head"})]),
        assistant("m5", [use("t6", "Read", {"file_path": ".claude/skills/orbit-handbook/a.md"})]),
        result("t6", "<tool_use_error>File does not exist.</tool_use_error>", error=True),
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "num_turns": 6,
            "result": "The answer.",
            "usage": {
                "input_tokens": 50,
                "cache_creation_input_tokens": 7,
                "cache_read_input_tokens": 900,
                "output_tokens": 43,
            },
        },
    )
    t = parse_transcript(text, "run.jsonl")
    assert t.format == CLAUDE and not t.problems and t.finished and not t.error
    assert [(c.tool, c.via) for c in t.calls] == [
        ("readfile", "Skill"),
        ("readfile", "Read"),
        ("listdir", "Glob"),
        ("listdir", "Grep"),
        ("readfile", "Bash: cat"),
        ("readfile", "Read"),
    ]
    assert t.calls[0].skill == "orbit-handbook"
    paths = [package_path(c.path, "orbit-handbook") for c in t.calls[1:]]
    assert paths == ["index.md", "", "oncall", "oncall/x.md", "a.md"]  # relative ones via cwd
    assert [c.usage for c in t.calls[:2]] == [115, 115]  # m1 once
    assert t.calls[-1].error.startswith("<tool_use_error>File does not exist")
    assert t.answer == "The answer." and t.agent_turns == 6
    assert (t.input_tokens, t.output_tokens, t.total_tokens) == (957, 43, 1000)


def test_claude_without_a_result_line_keeps_the_last_text_and_sums_usage() -> None:
    text = lines(
        assistant(
            "m1", [{"type": "text", "text": "Partial."}], {"input_tokens": 3, "output_tokens": 4}
        )
    )
    t = parse_transcript(text)
    assert t.format == CLAUDE and not t.finished and t.answer == "Partial." and t.total_tokens == 7
    failed = parse_transcript(
        lines({"type": "result", "subtype": "error_max_turns", "is_error": True})
    )
    assert failed.error == "error_max_turns" and failed.finished


def test_codex_exec_json_reads_shell_reads_and_turn_usage() -> None:
    skill = ".agents/skills/orbit-handbook"
    cmd = lambda n, c, **k: {  # noqa: E731
        "type": "item.completed",
        "item": {
            "id": f"i{n}",
            "type": "command_execution",
            "command": c,
            "aggregated_output": k.get("out", ""),
            "exit_code": k.get("code", 0),
            "status": k.get("status", "completed"),
        },
    }
    text = lines(
        {"type": "thread.started", "thread_id": "t"},
        {"type": "turn.started"},
        {
            "type": "item.started",
            "item": {
                "id": "i1",
                "type": "command_execution",
                "command": f"bash -lc 'ls {skill}'",
                "status": "in_progress",
                "aggregated_output": "",
                "exit_code": None,
            },
        },
        cmd(1, f"bash -lc 'ls {skill}'"),
        cmd(2, f"bash -lc \"cd {skill} && sed -n '1,80p' index.md\""),
        cmd(3, f"bash -lc 'cat {skill}/gone.md'", out="cat: no such file", code=1, status="failed"),
        {"type": "item.completed", "item": {"id": "i4", "type": "reasoning", "text": "hm"}},
        {"type": "item.completed", "item": {"id": "i5", "type": "agent_message", "text": "Done."}},
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 900, "cached_input_tokens": 800, "output_tokens": 100},
        },
    )
    t = parse_transcript(text, "codex.jsonl")
    assert t.format == CODEX and not t.problems and t.finished
    assert [(c.tool, package_path(c.path, "orbit-handbook")) for c in t.calls] == [
        ("listdir", ""),
        ("readfile", "index.md"),
        ("readfile", "gone.md"),
    ]
    assert [c.line for c in t.calls] == [3, 5, 6]  # an item's first line
    assert t.calls[2].error == "cat: no such file" and not t.calls[1].error
    assert t.answer == "Done." and t.total_tokens == 1000 and t.calls[0].usage is None
    failed = parse_transcript(lines({"type": "turn.failed", "error": {"message": "quota"}}))
    assert failed.format == CODEX and failed.error == "quota"


def test_gemini_stream_json_reads_its_tools_and_the_last_answer() -> None:
    skill = f"{WS}/.gemini/skills/orbit-handbook"
    at = {"timestamp": "2026-12-05T00:00:00Z"}

    def tool(n: int, name: str, params: dict) -> dict:
        return {
            "type": "tool_use",
            "tool_name": name,
            "tool_id": f"c{n}",
            "parameters": params,
            **at,
        }

    text = lines(
        {"type": "init", "session_id": "g", "model": "gemini-x", **at},
        {"type": "message", "role": "user", "content": "q?", **at},
        {"type": "message", "role": "assistant", "content": "Let me look.", "delta": True, **at},
        tool(1, "activate_skill", {"name": "orbit-handbook"}),
        tool(2, "list_directory", {"dir_path": skill}),
        tool(3, "read_many_files", {"include": [f"{skill}/index.md", f"{skill}/oncall/*.md"]}),
        tool(4, "read_file", {"file_path": f"{skill}/missing.md"}),
        {
            "type": "tool_result",
            "tool_id": "c4",
            "status": "error",
            "error": {"type": "x", "message": "File not found"},
            **at,
        },
        tool(5, "run_shell_command", {"command": "head -n 3 oncall/a.md", "dir_path": skill}),
        {"type": "tool_result", "tool_id": "c5", "status": "success", "output": "...", **at},
        {"type": "message", "role": "assistant", "content": "It is ", "delta": True, **at},
        {"type": "message", "role": "assistant", "content": "this.", "delta": True, **at},
        {
            "type": "result",
            "status": "success",
            "stats": {"total_tokens": 60, "input_tokens": 50, "output_tokens": 10},
            **at,
        },
    )
    t = parse_transcript(text, "gemini.jsonl")
    assert t.format == GEMINI and not t.problems and t.finished and t.model == "gemini-x"
    got = [(c.tool, c.skill or package_path(c.path, "orbit-handbook")) for c in t.calls]
    assert got == [
        ("readfile", "orbit-handbook"),
        ("listdir", ""),
        ("readfile", "index.md"),
        ("listdir", "oncall"),
        ("readfile", "missing.md"),
        ("readfile", "oncall/a.md"),
    ]
    assert t.calls[4].error == "File not found"
    assert t.answer == "It is this." and t.total_tokens == 60


def test_gemini_json_output_gives_answer_and_tokens_and_says_reads_need_stream_json() -> None:
    whole = {
        "response": "Yes.",
        "stats": {"models": {"gemini-x": {"tokens": {"prompt": 70, "candidates": 5, "total": 75}}}},
    }
    t = parse_transcript(json.dumps(whole, indent=2), "g.json")
    assert t.format == GEMINI and t.answer == "Yes." and t.total_tokens == 75 and not t.calls
    assert "stream-json" in str(t.problems[0]) and str(t.problems[0]).startswith("g.json")


def test_bad_lines_are_problems_naming_file_and_line_never_exceptions(tmp_path: Path) -> None:
    text = "\n".join(
        [
            json.dumps({"type": "system", "subtype": "init", "cwd": WS}),
            "{not json",
            "[1, 2]",
            json.dumps({"type": "assistant", "message": "oops"}),
            json.dumps(assistant("m", [{"type": "tool_use", "name": 3}])),
        ]
    )
    path = tmp_path / "q1.jsonl"
    path.write_text(text)
    t = read_transcript(path)
    assert [p.line for p in t.problems] == [2, 3, 4, 5]
    assert str(t.problems[0]).startswith(f"{path}, line 2: not valid JSON")
    assert t.problems[1].message == "expected a JSON object, got a list"
    nothing = parse_transcript("hello\n", "x.txt")
    assert nothing.format == "" and "not a transcript" in nothing.problems[0].message
    missing = read_transcript(tmp_path / "nope.jsonl")
    assert "cannot read" in missing.problems[0].message
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe\x00garbage")
    assert read_transcript(tmp_path / "bin.jsonl").problems


def test_formats_are_detected_by_content() -> None:
    assert detect_format(lines({"type": "system", "subtype": "init"})) == CLAUDE
    assert detect_format(lines({"type": "result", "subtype": "success", "result": ""})) == CLAUDE
    assert detect_format(lines({"type": "thread.started", "thread_id": "t"})) == CODEX
    assert detect_format(lines({"type": "init", "timestamp": "t", "model": "m"})) == GEMINI
    assert detect_format('{"response": "x"}') == GEMINI
    assert detect_format("garbage\n") is None


def test_package_paths_are_found_under_any_skills_folder() -> None:
    name = "orbit-handbook"
    assert package_path("/home/me/.claude/skills/orbit-handbook/a/b.md", name) == "a/b.md"
    assert package_path(".agents/skills/orbit-handbook", name) == ""
    assert package_path("skills/orbit-handbook/./x/../y.md", name) == "y.md"
    assert package_path("/ws/other/orbit-handbook/a.md", name) is None
    assert package_path("/ws/.claude/skills/other/a.md", name) is None


def test_shell_commands_name_the_files_they_read_and_list() -> None:
    got = shell_calls(
        '/bin/zsh -lc "cd docs && cat a.md b.md 2>/dev/null | head -n 5; ls -la sub && '
        "sed -n '3,9p' c.md; nl -ba d.md; find . -name '*.md'; grep -rn x . ; echo hi > e.md\"",
        "/ws",
    )
    assert got == [
        ("readfile", "/ws/docs/a.md", "cat"),
        ("readfile", "/ws/docs/b.md", "cat"),
        ("listdir", "/ws/docs/sub", "ls"),
        ("readfile", "/ws/docs/c.md", "sed"),
        ("readfile", "/ws/docs/d.md", "nl"),
        ("listdir", "/ws/docs", "find"),
    ]
    assert shell_calls("cat 'unbalanced") == []
    assert shell_calls("ls") == [("listdir", ".", "ls")]


def test_records_of_unexpected_shapes_are_read_without_raising() -> None:
    hostile = [
        {"type": {"not": "a string"}},
        {"type": ["assistant"]},
        {
            "type": "assistant",
            "message": {
                "id": [],
                "content": [{"type": "tool_use", "name": "Read", "input": {"file_path": 5}}],
                "usage": "lots",
            },
        },
        {
            "type": "user",
            "message": {
                "content": [{"type": "tool_result", "tool_use_id": None, "is_error": True}]
            },
        },
        {
            "type": "item.completed",
            "item": {"id": "i", "type": "command_execution", "command": "cat 'x", "exit_code": [1]},
        },
        {
            "type": "tool_use",
            "timestamp": "t",
            "tool_name": "read_many_files",
            "parameters": {"include": "a.md"},
        },
        {"type": "result", "stats": [], "status": "error", "error": "boom"},
    ]
    text = lines(*hostile)
    for fmt in (None, CLAUDE, CODEX, GEMINI):
        t = parse_transcript(text, "h.jsonl", fmt)
        assert all(c.path == "" or isinstance(c.path, str) for c in t.calls)
