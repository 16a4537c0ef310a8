"""``kas-tui serve``: the tools' schemas, and a log that records what each client got
(issue 31, items 6, 7 and 9)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import Client

from kas_tui.core.package import Package
from kas_tui.features.agent.sandbox import MAX_PATH_CHARS
from kas_tui.features.serve.client_session import MAX_RESPONSE, ServedPackage
from kas_tui.features.serve.server import build_server
from tests.helpers.serving import logs


def _text(result) -> str:
    return "".join(block.text for block in result.content)


def _serve(root: Path, log_dir: Path, calls: list[tuple[str, dict]]) -> list:
    """Make ``calls`` in one session of the SDK's in-process client; their results."""
    server, sessions = build_server(ServedPackage(Package.open(root)), log_dir=log_dir)

    async def main() -> list:
        async with Client(server) as client:
            return [await client.call_tool(tool, args) for tool, args in calls]

    try:
        return anyio.run(main)
    finally:
        sessions.close()


def test_the_schemas_say_what_a_model_needs_and_reject_what_they_do_not_allow(
    demo: Package,
) -> None:
    server, _ = build_server(ServedPackage(demo))

    async def listed() -> dict:
        async with Client(server) as client:
            return {tool.name: tool for tool in (await client.list_tools()).tools}

    tools = anyio.run(listed)
    for name, tool in tools.items():
        schema = tool.input_schema
        path = schema["properties"]["path"]
        assert schema["additionalProperties"] is False, name
        assert path["type"] == "string" and path["maxLength"] == MAX_PATH_CHARS
        assert "relative to the package root" in path["description"]
        assert "1,024 characters" in path["description"]
        assert tool.annotations.read_only_hint
    assert tools["readfile"].input_schema["required"] == ["path"]
    assert "required" not in tools["listdir"].input_schema  # '' is the root
    assert "200,000 characters" in tools["readfile"].description
    assert "whole" not in tools["readfile"].description  # it is not: it is cut


@pytest.mark.parametrize(
    ("tool", "args", "says"),
    [
        ("readfile", {"path": "index.md", "encoding": "utf-8"}, "takes one argument, 'path'"),
        ("peek", {"path": 5}, "must be a string"),
        ("readfile", {"path": ["index.md"]}, "not a list"),
        ("readfile", {}, "needs a 'path' argument"),
        ("listdir", {"path": "x" * 5000}, "5,000 characters long; a path has at most 1,024"),
        ("submit_answer", {"answer": "42"}, "unknown tool 'submit_answer'"),
    ],
)
def test_a_refused_call_gets_one_clear_line_and_is_logged(
    root: Path, tmp_path: Path, tool: str, args: dict, says: str
) -> None:
    (got,) = _serve(root, tmp_path, [(tool, args)])
    text = _text(got)
    assert got.is_error and says in text
    assert "\n" not in text and "validation error" not in text and "pydantic" not in text
    (log,) = logs(tmp_path)
    (call,) = log[1:]
    assert (call["tool"], call["status"], call["ok"]) == (tool, "bad-call", False)
    assert call["result_tokens"] == (len(text) + 3) // 4  # what the client read


def test_a_cut_answer_is_logged_as_sent_and_only_what_was_sent_is_read(
    root: Path, tmp_path: Path
) -> None:
    """A 5 MB page: the client gets its first 200,000 characters, the log counts those
    (not 1.3M tokens), and a link past the cut names nothing: it was never sent."""
    page = root / "references" / "huge.md"
    para = "The [runbook](../incidents/index.md) says what to do when paging fails.\n\n"
    page.write_text("# Huge\n\n" + para * (5_000_000 // len(para)) + "[far](far.md)\n")
    (root / "references" / "far.md").write_text("# Far\n\nOnly named at the end of huge.md.\n")
    whole = len(page.read_text())
    got = _serve(
        root,
        tmp_path,
        [("readfile", {"path": "references/huge.md"}), ("readfile", {"path": "references/far.md"})],
    )
    text = _text(got[0])
    assert len(text) < MAX_RESPONSE + 100 and f"[cut: {whole:,} characters" in text
    (log,) = logs(tmp_path)
    huge, far = log[1:]
    assert huge["cut_from"] == whole
    assert huge["result_tokens"] == (len(text) + 3) // 4  # about 50,000, not 1.25 million
    assert far["revealed"] is False and "cut_from" not in far


def test_concurrent_calls_are_logged_in_turn_order(root: Path, tmp_path: Path) -> None:
    for n in range(40):
        (root / "references" / f"page-{n}.md").write_text(f"# Page {n}\n\n" + "text " * 20_000)
    server, sessions = build_server(ServedPackage(Package.open(root)), log_dir=tmp_path)

    async def main() -> None:
        async with Client(server) as client, anyio.create_task_group() as group:
            for n in range(40):
                group.start_soon(client.call_tool, "readfile", {"path": f"references/page-{n}.md"})

    anyio.run(main)
    sessions.close()
    (log,) = logs(tmp_path)
    calls = log[1:]
    assert [c["turn"] for c in calls] == list(range(1, 41))
    total = 0
    for call in calls:
        total += call["tokens"]
        assert call["cumulative"] == total
    assert sorted(c["path"] for c in calls) == sorted(f"references/page-{n}.md" for n in range(40))


def test_a_huge_argument_is_cut_in_the_log_and_said_so(root: Path, tmp_path: Path) -> None:
    huge = "a/" * 500_000
    _serve(root, tmp_path, [("readfile", {"path": huge})])
    line = next(p for p in tmp_path.glob("*.jsonl")).read_text().splitlines()[1]
    assert len(line) < 3 * 2 * MAX_PATH_CHARS
    (log,) = logs(tmp_path)
    (call,) = log[1:]
    assert call["args_cut"] == {"path": 1_000_000}
    assert call["args"]["path"] == huge[: 2 * MAX_PATH_CHARS]
