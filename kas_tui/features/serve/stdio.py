"""Serving over stdio, where every line gets an answer.

The SDK's stdio transport reads one JSON-RPC message per line and drops a line it cannot
read without a word, so a client that sent broken JSON waits for an answer forever.
Here such a line is answered as JSON-RPC 2.0 says: ``-32700 Parse error`` for a line
that is not JSON, ``-32600 Invalid Request`` for JSON that is not a JSON-RPC message
(with the request's ``id`` when it has a usable one, else ``null``), and the server reads
the next line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError


def error_reply(problem: Exception) -> JSONRPCError:
    """The JSON-RPC error answering a line the transport could not read."""
    errors = problem.errors() if isinstance(problem, ValidationError) else []
    if not errors or any(error["type"] == "json_invalid" for error in errors):
        detail = errors[0]["msg"] if errors else str(problem)
        return JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(code=PARSE_ERROR, message="Parse error", data=detail),
        )
    return JSONRPCError(
        jsonrpc="2.0",
        id=_request_id(errors),
        error=ErrorData(
            code=INVALID_REQUEST,
            message="Invalid Request: not a JSON-RPC 2.0 request, notification or response",
        ),
    )


def _request_id(errors: list[Any]) -> str | int | None:
    for error in errors:
        message = error.get("input")
        if isinstance(message, Mapping) and "method" in message:
            found = message.get("id")
            if isinstance(found, (str, int)) and not isinstance(found, bool):
                return found
    return None


async def run_stdio(server: MCPServer) -> None:
    """Serve ``server`` on stdin and stdout until stdin ends (what ``server.run("stdio")``
    does, with every unreadable line answered)."""
    # MCPServer.run_stdio_async, with the read stream relayed: MCPServer keeps the
    # low-level server that serves a stream pair in an attribute of its own
    lowlevel = server._lowlevel_server  # noqa: SLF001
    async with stdio_server() as (read_stream, write_stream):
        relay_send, relay_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def relay() -> None:
            async with relay_send:
                async for item in read_stream:
                    if not isinstance(item, Exception):
                        await relay_send.send(item)
                        continue
                    try:
                        await write_stream.send(SessionMessage(error_reply(item)))
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        return

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(relay)
            await lowlevel.run(
                relay_receive, write_stream, lowlevel.create_initialization_options()
            )
            tasks.cancel_scope.cancel()
