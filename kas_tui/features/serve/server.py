"""The MCP server: the package's three read-only tools on the official ``mcp`` SDK.

``listdir``, ``readfile`` and ``peek``, described and typed by :mod:`.tool_schemas`,
and beside them the MCP Skills extension (the package as a skill, its files as
``skill://`` resources: :mod:`.skills_extension`). The tools' answers come from
:class:`.client_session.Session` (the agent walk's own code). A failed call (a missing
file, a path leaving the package, arguments the schema does not allow) is an MCP tool
error whose text is one line saying why: the client reads it and the server goes on
serving. Each client session is logged as its own trajectory, from its ``initialize``
until it ends (:mod:`.live_sessions`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from kas_tui import __version__
from kas_tui.features.agent.tools import LISTDIR, PEEK, READFILE
from kas_tui.features.serve.client_session import ServedPackage
from kas_tui.features.serve.clients import server_url
from kas_tui.features.serve.live_sessions import IDLE_TIMEOUT, MAX_LIVE_SESSIONS, Sessions
from kas_tui.features.serve.skills_extension import SkillsExtension, SkillsServer
from kas_tui.features.serve.stdio import run_stdio
from kas_tui.features.serve.tool_schemas import DESCRIPTIONS, input_schema

_READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False)


def build_server(
    served: ServedPackage,
    *,
    log_dir: Path | None = None,
    transport: str = "stdio",
    sessions: Sessions | None = None,
) -> tuple[MCPServer, Sessions]:
    """The MCP server of ``served`` and the record of its sessions."""
    sessions = sessions or Sessions(served, log_dir, transport)

    async def answer(ctx: Context, tool: str) -> CallToolResult:
        # the arguments as the client sent them: the schema's rules are checked (and a
        # refusal logged) by the session, in one line, not by the SDK's validation
        params = ctx.request_context.params or {}
        raw = params.get("arguments")
        args = dict(raw) if isinstance(raw, Mapping) else {}
        session = sessions.of(ctx)
        result = await anyio.to_thread.run_sync(session.call, tool, args)
        # the walk's text exactly, an error too (a ToolError would prefix it)
        return CallToolResult(
            content=[TextContent(type="text", text=result.text)], is_error=result.error
        )

    async def listdir(ctx: Context) -> CallToolResult:
        return await answer(ctx, LISTDIR)

    async def readfile(ctx: Context) -> CallToolResult:
        return await answer(ctx, READFILE)

    async def peek(ctx: Context) -> CallToolResult:
        return await answer(ctx, PEEK)

    # the MCP Skills extension beside the tools: the package as a skill, its files as
    # skill:// resources, read through the same sessions (sandbox, cut, log)
    server: MCPServer = SkillsServer(
        SkillsExtension(served, sessions.of),
        name=f"kas-tui {served.name}",
        title=served.name,
        description=served.catalog.description,
        instructions=served.instructions(),
        version=__version__,
        log_level="WARNING",
        tools=[
            _tool(fn, name) for fn, name in ((listdir, LISTDIR), (readfile, READFILE), (peek, PEEK))
        ],
        middleware=[sessions.middleware],
    )
    return server, sessions


def _tool(fn: Any, name: str) -> Tool:
    """A tool whose schema is :func:`.tool_schemas.input_schema`'s (the function takes
    only the context, so the SDK's own argument validation lets every call through)."""
    tool = Tool.from_function(
        fn,
        name=name,
        description=DESCRIPTIONS[name],
        annotations=_READ_ONLY,
        structured_output=False,
    )
    tool.parameters = input_schema(name)
    return tool


def serve(
    served: ServedPackage,
    *,
    http: tuple[str, int] | None = None,
    log_dir: Path | None = None,
) -> None:
    """Serve until the client goes away (stdio) or the process is stopped (HTTP)."""
    server, sessions = build_server(served, log_dir=log_dir, transport="http" if http else "stdio")
    try:
        if http is None:
            anyio.run(run_stdio, server)
        else:
            host, port = http
            print(
                f"kas-tui: serving {served.name} at {server_url(host, port)} "
                f"(logs: {log_dir or 'the user data folder'}); ctrl+c stops",
                file=sys.stderr,
            )
            server.run(
                "streamable-http",
                host=host,
                port=port,
                session_idle_timeout=IDLE_TIMEOUT,
                max_sessions=MAX_LIVE_SESSIONS,
            )
    finally:
        sessions.close()
