"""``kas-tui serve``: the package over MCP, answered exactly as the agent walk answers,
confined to the package whatever a client sends, and every session logged (issue 15)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from kas_tui.cli.main import main
from kas_tui.core.package import Package
from kas_tui.features.agent.replay import replay_file
from kas_tui.features.agent.walk import Walk
from kas_tui.features.serve.client_session import MAX_RESPONSE, ServedPackage
from kas_tui.features.serve.clients import CLIENTS, client_config
from kas_tui.features.serve.server import build_server
from kas_tui.features.serve.session_logs import log_dirs, recent_sessions
from tests.helpers.serving import free_port, listening, serve_env, start_http

#: The walk a curator makes in the agent walk (a) from the root to a document.
CALLS = [
    ("listdir", ""),
    ("readfile", "SKILL.md"),
    ("readfile", "index.md"),
    ("listdir", "incidents"),
    ("readfile", "incidents/index.md"),
    ("peek", "incidents/severity-levels.md"),
    ("readfile", "incidents/severity-levels.md"),
]


def _text(result) -> str:
    return "".join(block.text for block in result.content)


def _log_lines(folder: Path) -> list[dict]:
    (log,) = folder.glob("*.jsonl")
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_over_stdio_the_sdk_client_walks_the_demo_and_reads_what_the_walk_shows(
    demo: Package, tmp_path: Path
) -> None:
    logs = tmp_path / "logs"
    walk = Walk(demo, peek=True)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "kas_tui", "serve", str(demo.root), "--log-dir", str(logs)],
        env=serve_env(),
    )

    async def main() -> None:
        async with Client(params) as client:
            assert client.instructions and "<name>orbit-handbook</name>" in client.instructions
            tools = await client.list_tools()
            assert sorted(t.name for t in tools.tools) == ["listdir", "peek", "readfile"]
            for tool, path in CALLS:
                got = await client.call_tool(tool, {"path": path})
                step = walk.call(tool, {"path": path})
                assert not got.is_error
                assert _text(got).encode() == step.text.encode(), (tool, path)

    anyio.run(main)
    lines = _log_lines(logs)
    assert lines[0]["kind"] == "header" and lines[0]["package"] == "orbit-handbook"
    assert lines[0]["client"]  # the client's name, from its initialize request
    assert [(r["tool"], r["args"]["path"]) for r in lines[1:]] == CALLS
    (log,) = logs.glob("*.jsonl")
    assert recent_sessions("orbit-handbook", logs) == [log]
    assert logs.resolve() in log_dirs()  # remembered for R (issue 31, item 12)
    assert recent_sessions("orbit-handbook") == [log]
    replayed = replay_file(demo, log)  # the replay screen's reading of it
    assert [s.path for s in replayed.steps] == [p for _, p in CALLS]
    assert all(s.ok for s in replayed.steps)


def _hostile_package(tmp_path: Path, root: Path) -> tuple[Path, str]:
    """The demo with ways out planted in it: symlinks (one a chain) to a secret file."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-BYTES\n")
    (root / "incidents" / "escape.md").symlink_to(secret)
    (root / "hop").symlink_to(tmp_path)
    (root / "chain").symlink_to(root / "hop")
    (root / ".hidden.md").write_text("---\ntype: Note\n---\nhidden\n")
    return secret, "TOP-SECRET-BYTES"


HOSTILE = [
    "../secret.txt",
    "../../../../../../etc/passwd",
    "incidents/../../secret.txt",
    "..\\secret.txt",
    "incidents\\..\\..\\secret.txt",
    "%2e%2e/secret.txt",
    "%2e%2e%2fsecret.txt",
    "..%2fsecret.txt",
    "/etc/passwd",
    "//etc/passwd",
    "file:///etc/passwd",
    "~/secret.txt",
    "~root/.bashrc",
    "C:\\Windows\\win.ini",
    "c:/windows/win.ini",
    "\\\\server\\share\\secret.txt",
    "incidents/escape.md",
    "hop/secret.txt",
    "chain/secret.txt",
    "chain",
    ".hidden.md",
    "incidents/\x00../../secret.txt",
    "index.md\x00.txt",
    "a/" * 2000,
    "x" * 100_000,
]


def test_hostile_paths_get_an_error_never_a_byte_from_outside(root: Path, tmp_path: Path) -> None:
    secret, marker = _hostile_package(tmp_path, root)
    served = ServedPackage(Package.open(root))
    server, sessions = build_server(served, log_dir=tmp_path / "logs")

    async def main() -> None:
        async with Client(server) as client:
            for path in HOSTILE:
                for tool in ("readfile", "peek", "listdir"):
                    got = await client.call_tool(tool, {"path": path})
                    text = _text(got)
                    assert got.is_error, (tool, path, text[:200])
                    assert marker not in text and "root:" not in text
                    assert len(text) < 1_000  # the long path is not echoed whole
            listing = _text(await client.call_tool("listdir", {"path": ""}))
            assert ".hidden.md" not in listing and "hop" not in listing
            assert "chain" not in listing
            assert ".kas-build" not in listing
            for bad in ({}, {"path": 5}, {"path": None}, {"path": ["index.md"]}):
                assert (await client.call_tool("readfile", bad)).is_error
            assert (await client.call_tool("submit_answer", {"answer": "x"})).is_error
            ok = await client.call_tool("readfile", {"path": "index.md"})  # still serving
            assert not ok.is_error and _text(ok) == (root / "index.md").read_text()

    anyio.run(main)
    sessions.close()
    assert secret.read_text() == marker + "\n"


def test_a_thousand_calls_are_each_logged(demo: Package, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    server, sessions = build_server(ServedPackage(demo), log_dir=logs)
    paths = ["index.md", "incidents", "nope.md", "../x"]

    async def main() -> None:
        async with Client(server) as client:
            for n in range(1000):
                tool = "listdir" if paths[n % 4] == "incidents" else "readfile"
                await client.call_tool(tool, {"path": paths[n % 4]})

    anyio.run(main)
    sessions.close()
    lines = _log_lines(logs)
    assert len(lines) == 1001 and [r["turn"] for r in lines[1:]] == list(range(1, 1001))
    assert {r["status"] for r in lines[1:]} == {"ok", "missing", "outside"}


def test_a_long_file_is_cut_with_a_note(root: Path, tmp_path: Path) -> None:
    (root / "references" / "huge.txt").write_text("y" * (MAX_RESPONSE + 5000))
    server, sessions = build_server(ServedPackage(Package.open(root)), log_dir=tmp_path)

    async def main() -> str:
        async with Client(server) as client:
            return _text(await client.call_tool("readfile", {"path": "references/huge.txt"}))

    text = anyio.run(main)
    sessions.close()
    assert text.startswith("y" * MAX_RESPONSE)
    assert text.endswith(
        f"[cut: {MAX_RESPONSE + 5000:,} characters, only the first 200,000 are returned]"
    )


def test_malformed_json_rpc_is_answered_and_the_server_goes_on(
    demo: Package, tmp_path: Path
) -> None:
    from mcp.types import LATEST_PROTOCOL_VERSION

    process = subprocess.Popen(
        [sys.executable, "-m", "kas_tui", "serve", str(demo.root), "--log-dir", str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=serve_env(),
        text=True,
    )
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": LATEST_PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "1"},
        },
    }
    junk = [
        "this is not json",
        "{",
        "[]",
        '{"jsonrpc": "2.0", "id": 7, "method": "no/such/method"}',
        '{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": "nonsense"}',
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 9,
                "method": "tools/call",
                "params": {"name": "readfile", "arguments": {"path": "../" * 5000}},
            }
        ),
    ]
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "readfile", "arguments": {"path": "index.md"}},
    }
    lines = [
        json.dumps(init),
        *junk,
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        *junk,
        json.dumps(call),
    ]
    killer = threading.Timer(60, process.kill)  # a server that stops answering fails the test
    killer.start()
    replies: list[dict] = []
    try:
        process.stdin.write("\n".join(lines) + "\n")
        process.stdin.flush()
        while not any(r.get("id") == 2 for r in replies):  # stdin open until answered
            line = process.stdout.readline()
            assert line, "the server went away: " + process.stderr.read()[-2000:]
            replies.append(json.loads(line))
        process.stdin.close()
        err = process.stderr.read()
        process.wait(timeout=30)
    finally:
        killer.cancel()
        process.kill()
    answers = {r["id"]: r for r in replies if r.get("id") is not None}
    assert "result" in answers[1]
    assert "error" in answers[7]
    result = answers[2]["result"]
    assert result["content"][0]["text"] == (demo.root / "index.md").read_text()
    assert "Traceback" not in err
    # issue 31, item 8: a line that is not JSON gets a parse error, id null, every time
    errors = [(r["id"], r["error"]["code"]) for r in replies if "error" in r]
    assert errors.count((None, -32700)) == 4  # "this is not json" and "{", twice
    assert errors.count((None, -32600)) == 2  # "[]": JSON, but no JSON-RPC message
    assert errors.count((8, -32600)) == 2  # a request whose params are not an object
    # item 6: the refused calls are logged with the rest, the long path cut in the log
    calls = _log_lines(tmp_path)[1:]
    assert [c["args"]["path"][:9] for c in calls if c["status"] == "bad-call"] == ["../../../"] * 2
    assert all(c["args_cut"] == {"path": 15_000} for c in calls if c["status"] == "bad-call")
    # the calls are answered concurrently: the good one's log line may come before theirs
    assert [c["ok"] for c in calls if c["args"] == {"path": "index.md"}] == [True]


def _parsed(client: str, text: str) -> dict:
    import tomllib

    if client == "codex":
        return tomllib.loads(text)["mcp_servers"]["orbit-handbook"]
    data = json.loads(text)
    return data["servers" if client == "vscode" else "mcpServers"]["orbit-handbook"]


@pytest.mark.parametrize("client", CLIENTS)
def test_print_config_for_each_client_runs_this_kas_tui(demo: Package, client: str) -> None:
    entry = _parsed(client, client_config(client, "orbit-handbook", demo.root))
    assert entry["args"][-2:] == ["serve", str(demo.root)]
    assert os.path.isabs(entry["command"])
    assert entry.get("type", "stdio") == "stdio"


@pytest.mark.parametrize(
    ("client", "shape"),
    [
        ("claude-code", {"type": "http", "url": "http://[::1]:9000/mcp"}),
        ("codex", {"url": "http://[::1]:9000/mcp"}),
        ("gemini", {"httpUrl": "http://[::1]:9000/mcp"}),
        ("vscode", {"type": "http", "url": "http://[::1]:9000/mcp"}),
        ("cursor", {"url": "http://[::1]:9000/mcp"}),
    ],
)
def test_print_config_with_http_gives_each_clients_url_form(
    demo: Package, client: str, shape: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31, items 8 and 12: the URL form, an IPv6 host in brackets."""
    code = main(["serve", str(demo.root), "--print-config", client, "--http", "[::1]:9000"])
    out, err = capsys.readouterr()
    assert code == 0
    assert _parsed(client, out) == shape
    assert err.startswith(f"# {client}: paste into ")


def test_print_config_refusals(demo: Package, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="unknown client"):
        client_config("emacs", "x", demo.root)
    code = main(["serve", str(demo.root), "--print-config", "claude-desktop", "--http", "9000"])
    assert code == 2
    assert "takes a command, not a URL" in capsys.readouterr().err


def test_streamable_http_on_localhost(demo: Package, tmp_path: Path) -> None:
    import httpx2

    port = free_port()
    process = start_http(demo.root, tmp_path, port)
    walk = Walk(demo)
    url = f"http://127.0.0.1:{port}/mcp"

    async def main() -> None:
        await listening(process, port)
        async with Client(url) as client:
            for tool, path in CALLS[:5]:
                got = await client.call_tool(tool, {"path": path})
                assert _text(got) == walk.call(tool, {"path": path}).text
        for version in ({}, {"mcp-protocol-version": "2026-07-28"}):  # a body not JSON
            headers = {"accept": "application/json, text/event-stream", **version}
            headers["content-type"] = "application/json"
            async with httpx2.AsyncClient() as http:
                answer = await http.post(url, content=b"this is not json", headers=headers)
            assert answer.status_code == 400
            assert answer.json()["error"]["code"] == -32700 and answer.json()["id"] is None

    try:
        anyio.run(main)
    finally:
        process.terminate()
        process.wait(timeout=30)
    lines = _log_lines(tmp_path)
    assert lines[0]["transport"] == "http" and len(lines) == 6


def test_a_host_other_than_localhost_is_warned_about(demo: Package) -> None:
    from kas_tui.cli.main import main

    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kas_tui",
            "serve",
            str(demo.root),
            "--http",
            str(port),
            "--host",
            "0.0.0.0",
        ],
        stderr=subprocess.PIPE,
        env=serve_env(),
        text=True,
    )
    try:
        first = process.stderr.readline()
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert "warning: listening on 0.0.0.0" in first
    assert main(["serve", str(demo.root), "--http", "notaport"]) == 2
