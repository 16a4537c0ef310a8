"""``kas-tui serve``: sessions that end and logs that are one client each (issue 31,
items 2, 3 and 12): a session's log is opened at its client's first word, closed and its
state dropped when the session ends, and sessionless clients (protocol 2026-07-28) are
told apart."""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp import Client
from mcp.types import Implementation

from kas_tui.core.package import Package
from kas_tui.features.serve.client_session import ServedPackage
from kas_tui.features.serve.live_sessions import MAX_LIVE_SESSIONS, Sessions
from kas_tui.features.serve.server import build_server
from kas_tui.features.serve.session_logs import (
    MAX_REMEMBERED,
    log_dirs,
    remember_log_dir,
    sessions_dir,
)
from tests.helpers.serving import free_port, listening, logs, open_files, start_http
from tests.helpers.waiting import wait_until


def test_sixty_http_sessions_ended_with_delete_leave_nothing_open(
    demo: Package, tmp_path: Path
) -> None:
    """Each session of protocol 2025-11-25 ends with the client's DELETE: the server
    holds no more files after 60 of them than after one, even with ``ulimit -n 64``
    (which stopped the server after about 52 sessions when each kept its log open)."""
    port = free_port()
    server = start_http(demo.root, tmp_path, port, max_files=64)
    url = f"http://127.0.0.1:{port}/mcp"

    async def session(n: int) -> None:
        async with Client(url, mode="legacy") as client:  # DELETE when it closes
            assert client.protocol_version == "2025-11-25"
            got = await client.call_tool("readfile", {"path": "index.md"})
            assert not got.is_error, (n, got)

    try:
        anyio.run(listening, server, port)
        anyio.run(session, 0)
        after_one = open_files(server.pid)
        for n in range(1, 61):
            anyio.run(session, n)
        wait_until(lambda: open_files(server.pid) <= after_one)
        assert server.poll() is None
    finally:
        server.terminate()
        server.wait(timeout=30)
    found = logs(tmp_path)
    assert len(found) == 61
    assert all(len(log) == 2 and log[1]["ok"] for log in found)  # header and the call


def test_two_sessionless_clients_get_a_log_each(demo: Package, tmp_path: Path) -> None:
    """Two clients on protocol 2026-07-28 (no session id, the same client name), their
    calls interleaved: each has its own log, turns and tokens its own."""
    port = free_port()
    server = start_http(demo.root, tmp_path, port)
    url = f"http://127.0.0.1:{port}/mcp"

    async def main() -> None:
        await listening(server, port)
        async with Client(url) as first, Client(url) as second:
            assert first.protocol_version == second.protocol_version == "2026-07-28"
            for path in ("index.md", "incidents/index.md", "log.md"):
                await first.call_tool("readfile", {"path": path})
                await second.call_tool("listdir", {"path": path.rpartition("/")[0]})

    try:
        anyio.run(main)
    finally:
        server.terminate()
        server.wait(timeout=30)
    first, second = logs(tmp_path)
    assert [c["tool"] for c in first[1:]] == ["readfile"] * 3
    assert [c["tool"] for c in second[1:]] == ["listdir"] * 3
    assert [c["turn"] for c in first[1:]] == [c["turn"] for c in second[1:]] == [1, 2, 3]
    assert first[0]["client"] == second[0]["client"] == "mcp 0.1.0"


def test_the_log_is_opened_at_initialize_and_the_session_dropped_at_its_end(
    demo: Package, tmp_path: Path
) -> None:
    """A client that makes no call is on record; when its connection ends the session
    is gone from the server."""
    server, sessions = build_server(ServedPackage(demo), log_dir=tmp_path)
    client_info = Implementation(name="silent-agent", version="3")

    async def main() -> None:
        async with Client(server, mode="legacy", client_info=client_info):
            assert sessions.live == 1
        assert sessions.live == 0
        async with Client(server, mode="legacy") as client:
            await client.call_tool("listdir", {"path": ""})
            assert sessions.live == 1
        assert sessions.live == 0

    anyio.run(main)
    silent, busy = logs(tmp_path)
    assert len(silent) == 1 and silent[0]["client"] == "silent-agent 3"
    assert [c["tool"] for c in busy[1:]] == ["listdir"]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_sessionless_sessions_end_when_idle_and_the_oldest_makes_room(
    demo: Package, tmp_path: Path
) -> None:
    """Without a session id, a session ends after the idle timeout; with the limit
    reached, a new client ends the least recently active one, whose next call starts
    a new log."""
    served = ServedPackage(demo)
    clock = Clock()
    sessions = Sessions(served, tmp_path, "http", limit=2, idle_timeout=600, clock=clock)
    server, _ = build_server(served, sessions=sessions)

    def named(name: str) -> Client:
        return Client(server, client_info=Implementation(name=name, version="1"))

    async def main() -> None:
        async with named("a") as a:  # its server/discover starts its session
            await a.call_tool("readfile", {"path": "index.md"})
            clock.now = 10
            async with named("b") as b:
                await b.call_tool("readfile", {"path": "index.md"})
                assert sessions.live == 2
                clock.now = 20
                async with named("c") as c:  # a's session, the least recent, makes room
                    assert sessions.live == 2
                    await c.call_tool("readfile", {"path": "index.md"})
                    await a.call_tool("listdir", {"path": ""})  # a new log; b's ends
                    assert sessions.live == 2
                    clock.now = 2000  # past everyone's idle timeout
                    await c.call_tool("peek", {"path": "index.md"})  # c's new session, alone
                    assert sessions.live == 1

    anyio.run(main)
    found = [(log[0]["client"], [c["tool"] for c in log[1:]]) for log in logs(tmp_path)]
    assert found == [
        ("a 1", ["readfile"]),
        ("b 1", ["readfile"]),
        ("c 1", ["readfile"]),
        ("a 1", ["listdir"]),
        ("c 1", ["peek"]),
    ]


def test_log_folders_are_remembered_most_recent_first_and_bounded(tmp_path: Path) -> None:
    assert log_dirs() == [sessions_dir()]
    assert remember_log_dir(sessions_dir()) == ""  # the default folder is not remembered
    folders = [tmp_path / f"logs-{n}" for n in range(MAX_REMEMBERED + 5)]
    for folder in folders:
        assert remember_log_dir(folder) == ""
    assert remember_log_dir(folders[3]) == ""  # again: first again
    expected = [folders[3], *reversed(folders[-(MAX_REMEMBERED - 1) :])]
    assert log_dirs() == [sessions_dir(), *(f.resolve() for f in expected)]


def _post(http, url: str, message: dict, session: str | None = None):
    headers = {"accept": "application/json, text/event-stream"}
    if session:
        headers |= {"mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
    return http.post(url, json=message, headers=headers)


def _initialize(n: int) -> dict:
    client = {"name": f"agent-{n}", "version": "1"}
    params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client}
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}


def test_at_most_100_http_sessions_are_open_and_the_oldest_go_on(
    demo: Package, tmp_path: Path
) -> None:
    """The 101st session is refused (503) while 100 are open; the oldest still answers,
    and once one ends (DELETE) a new one is let in. Raw HTTP, as any client sends it."""
    import httpx2

    port = free_port()
    server = start_http(demo.root, tmp_path, port)
    url = f"http://127.0.0.1:{port}/mcp"
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
    call["params"] = {"name": "readfile", "arguments": {"path": "index.md"}}
    try:
        anyio.run(listening, server, port)
        with httpx2.Client(timeout=30) as http:
            opened = [_post(http, url, _initialize(n)) for n in range(MAX_LIVE_SESSIONS)]
            assert {r.status_code for r in opened} == {200}
            ids = [r.headers["mcp-session-id"] for r in opened]
            assert _post(http, url, _initialize(100)).status_code == 503
            oldest = ids[0]
            initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            assert _post(http, url, initialized, oldest).status_code == 202
            answer = _post(http, url, call, oldest)
            assert answer.status_code == 200 and "Operations" in answer.text
            headers = {"mcp-session-id": oldest, "mcp-protocol-version": "2025-11-25"}
            assert http.delete(url, headers=headers).status_code == 200
            assert _post(http, url, _initialize(101)).status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
    found = logs(tmp_path)
    assert len(found) == MAX_LIVE_SESSIONS + 1  # the refused one never started a log
    assert [c["tool"] for c in found[0][1:]] == ["readfile"]


def test_a_log_folder_that_cannot_be_written_is_said_once_and_calls_are_served(
    demo: Package, tmp_path: Path, capsys
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the log folder should be\n")
    server, _ = build_server(ServedPackage(demo), log_dir=blocked)

    async def main() -> None:
        for _ in range(3):
            async with Client(server, mode="legacy") as client:
                got = await client.call_tool("readfile", {"path": "index.md"})
                assert not got.is_error

    anyio.run(main)
    err = capsys.readouterr().err
    assert err.count("warning: cannot log to") == 1 and str(blocked) in err
    assert "Traceback" not in err
