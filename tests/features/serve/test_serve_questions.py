"""``kas-tui serve``: a client that names the question it answers has it in its session
log's header (issue 34, item 3): in ``initialize``'s ``clientInfo`` (a ``questionId``
field, or ``question=ID`` in its name) or in a request's ``_meta``; naming another
question on the same connection starts another log."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import LATEST_PROTOCOL_VERSION, Implementation

from kas_tui.core.package import Package
from kas_tui.features.agent.replay import replay_file
from kas_tui.features.serve.live_sessions import QUESTION_META_KEY
from tests.helpers.serving import logs, serve_env


def _params(root: Path, log_dir: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "kas_tui", "serve", str(root), "--log-dir", str(log_dir)],
        env=serve_env(),
    )


def test_meta_names_the_question_and_another_question_starts_another_log(
    demo: Package, tmp_path: Path
) -> None:
    async def main() -> None:
        async with Client(_params(demo.root, tmp_path)) as client:
            await client.list_tools()  # before any question is named
            meta = {QUESTION_META_KEY: "q0001"}
            await client.call_tool("readfile", {"path": "index.md"}, meta=meta)
            await client.call_tool("listdir", {"path": "incidents"}, meta=meta)
            await client.call_tool("readfile", {"path": "log.md"})  # still q0001's
            meta = {QUESTION_META_KEY: "q0002"}
            await client.call_tool("readfile", {"path": "slos/index.md"}, meta=meta)

    anyio.run(main)
    first, second = logs(tmp_path)
    assert first[0]["question_id"] == "q0001" and first[0]["kind"] == "header"
    assert [c["args"]["path"] for c in first[1:]] == ["index.md", "incidents", "log.md"]
    assert second[0]["question_id"] == "q0002" and second[0]["client"] == first[0]["client"]
    assert [c["args"]["path"] for c in second[1:]] == ["slos/index.md"]
    assert [c["turn"] for c in second[1:]] == [1]
    for log in sorted(tmp_path.glob("*.jsonl")):  # the rewritten header still replays
        replayed = replay_file(demo, log)
        assert replayed.problems == () and all(s.ok for s in replayed.steps)


def test_a_client_name_with_question_names_it_from_initialize(
    demo: Package, tmp_path: Path
) -> None:
    info = Implementation(name="team-harness question=q0003", version="2")

    async def main() -> None:
        async with Client(_params(demo.root, tmp_path), client_info=info) as client:
            await client.call_tool("readfile", {"path": "index.md"})

    anyio.run(main)
    (log,) = logs(tmp_path)
    assert log[0]["question_id"] == "q0003" and log[0]["client"].startswith("team-harness")
    assert len(log) == 2


def test_a_question_id_field_of_client_info_names_it(demo: Package, tmp_path: Path) -> None:
    """The SDK's own client drops fields it does not know; a client writing its JSON-RPC
    itself may send ``clientInfo.questionId``."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kas_tui", "serve", str(demo.root), "--log-dir", str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=serve_env(),
        text=True,
    )
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": LATEST_PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1", "questionId": "q0004"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "readfile", "arguments": {"path": "index.md"}},
        },
    ]
    killer = threading.Timer(60, process.kill)  # a server that stops answering fails the test
    killer.start()
    try:
        process.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
        process.stdin.flush()
        while True:  # stdin open until the call is answered
            line = process.stdout.readline()
            assert line, "the server went away: " + process.stderr.read()[-2000:]
            if json.loads(line).get("id") == 2:
                break
        process.stdin.close()
        process.wait(timeout=30)
    finally:
        killer.cancel()
        process.kill()
    (log,) = logs(tmp_path)
    assert log[0]["question_id"] == "q0004" and log[0]["client"] == "raw 1"
    assert [c["args"]["path"] for c in log[1:]] == ["index.md"]
