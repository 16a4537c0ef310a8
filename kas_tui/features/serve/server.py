"""The MCP server: the package's three read-only tools on the official ``mcp`` SDK.

``listdir``, ``readfile`` and ``peek``, and beside them the MCP Skills extension (the
package as a skill, its files as ``skill://`` resources: :mod:`.skills_extension`).
The tools' answers come from
:class:`.session.Session` (the agent walk's own code). A failed call (a missing file,
a path leaving the package) is an MCP tool error whose text is the walk's error message:
the client reads it and the server goes on serving. Each connection (the one stdio
client; each streamable-HTTP session) is logged as its own trajectory.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from kas_tui import __version__
from kas_tui.features.agent.tools import LISTDIR, PEEK, READFILE
from kas_tui.features.serve.client_session import ServedPackage, Session
from kas_tui.features.serve.clients import server_url
from kas_tui.features.serve.skills_extension import SkillsExtension, SkillsServer

_READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False)

LISTDIR_HELP = (
    "List a folder of the knowledge package: one entry per line, sorted, folders ending "
    "in '/'. The path is relative to the package root ('' for the root)."
)
READFILE_HELP = (
    "Read a file of the knowledge package whole (index.md files list each entry with a "
    "one-sentence description). The path is relative to the package root."
)
PEEK_HELP = (
    "Read only a document's YAML frontmatter (type, title, description, tags, sources, "
    "freshness): cheaper than readfile when deciding whether to read it."
)


class Sessions:
    """The logged session of each connection, made on its first call."""

    def __init__(self, served: ServedPackage, log_dir: Path | None, transport: str) -> None:
        self.served = served
        self.log_dir = log_dir
        self.transport = transport
        self._by_connection: dict[str, Session] = {}

    def of(self, ctx: Context | None) -> Session:
        # one connection over stdio; over HTTP, one per MCP session id the client sends
        headers = (ctx.headers if ctx is not None else None) or {}
        key = headers.get("mcp-session-id", "")
        session = self._by_connection.get(key)
        if session is None:
            session = Session(
                self.served,
                client=_client_name(getattr(ctx, "session", None)),
                log_dir=self.log_dir,
                transport=self.transport,
            )
            self._by_connection[key] = session
        return session

    def close(self) -> None:
        for session in self._by_connection.values():
            session.close()


def _client_name(connection: Any) -> str:
    params = getattr(connection, "client_params", None)
    info = getattr(params, "client_info", None) or getattr(params, "clientInfo", None)
    name = getattr(info, "name", "") or ""
    version = getattr(info, "version", "") or ""
    return f"{name} {version}".strip()


def build_server(
    served: ServedPackage, *, log_dir: Path | None = None, transport: str = "stdio"
) -> tuple[MCPServer, Sessions]:
    """The MCP server of ``served`` and the record of its sessions."""
    sessions = Sessions(served, log_dir, transport)
    # the MCP Skills extension: the package as a skill, its files as skill:// resources
    server: MCPServer = SkillsServer(
        SkillsExtension(served, sessions.of),
        name=f"kas-tui {served.name}",
        title=served.name,
        description=served.catalog.description,
        instructions=served.instructions(),
        version=__version__,
        log_level="WARNING",
    )

    def answer(ctx: Context | None, tool: str, path: str) -> CallToolResult:
        # the walk's text exactly, an error too (a ToolError would prefix it)
        result = sessions.of(ctx).call(tool, {"path": path})
        return CallToolResult(
            content=[TextContent(type="text", text=result.text)], is_error=result.error
        )

    @server.tool(
        name=LISTDIR, description=LISTDIR_HELP, annotations=_READ_ONLY, structured_output=False
    )
    def listdir(path: str = "", ctx: Context | None = None) -> CallToolResult:
        return answer(ctx, LISTDIR, path)

    @server.tool(
        name=READFILE, description=READFILE_HELP, annotations=_READ_ONLY, structured_output=False
    )
    def readfile(path: str, ctx: Context | None = None) -> CallToolResult:
        return answer(ctx, READFILE, path)

    @server.tool(name=PEEK, description=PEEK_HELP, annotations=_READ_ONLY, structured_output=False)
    def peek(path: str, ctx: Context | None = None) -> CallToolResult:
        return answer(ctx, PEEK, path)

    return server, sessions


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
            server.run("stdio")
        else:
            host, port = http
            print(
                f"kas-tui: serving {served.name} at {server_url(host, port)} "
                f"(logs: {log_dir or 'the user data folder'}); ctrl+c stops",
                file=sys.stderr,
            )
            server.run("streamable-http", host=host, port=port)
    finally:
        sessions.close()
