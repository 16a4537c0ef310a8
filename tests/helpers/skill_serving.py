"""``kas-tui serve`` for the Skills extension tests: the server as a subprocess (stdio or
streamable HTTP), and calls of methods the SDK's client has no function for."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp.types as types
import pytest
from mcp.client.stdio import StdioServerParameters
from pydantic import BaseModel, ConfigDict

from tests.helpers.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
#: The environment of a served subprocess: this worktree's ``kas_tui`` first.
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def serve_command(package: Path, log_dir: Path, *more: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "kas_tui",
        "serve",
        str(package),
        "--log-dir",
        str(log_dir),
        *more,
    ]


def stdio_server(package: Path, log_dir: Path) -> StdioServerParameters:
    """What the SDK's client runs to reach ``package`` over stdio."""
    command, *args = serve_command(package, log_dir)
    return StdioServerParameters(command=command, args=args, env=ENV)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def http_server(package: Path, log_dir: Path) -> Iterator[str]:
    """Serve ``package`` over streamable HTTP on localhost; yield its URL once it listens."""
    port = free_port()
    command = serve_command(package, log_dir, "--http", f"127.0.0.1:{port}")
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, text=True
    )

    def listening() -> bool:
        if process.poll() is not None:
            pytest.fail(f"the server stopped: {process.stderr.read()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False

    try:
        wait_until(listening)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stderr.close()


class _Params(types.RequestParams):
    model_config = ConfigDict(extra="allow")


class _Request(types.Request[_Params, str]):
    method: str
    params: _Params | None = None


class _Result(BaseModel):
    model_config = ConfigDict(extra="allow")


async def request(client: Any, method: str, **params: Any) -> dict[str, Any]:
    """The result of ``method`` (any method, an extension's too) as a JSON object.

    Raises the SDK's ``MCPError`` when the server answers with an error.
    """
    sent = _Request(method=method, params=_Params(**params))
    result = await client.session.send_request(sent, result_type=_Result)
    return result.model_dump(by_alias=True)
