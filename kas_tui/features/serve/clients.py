"""The settings snippet each MCP client takes for a served package (``--print-config``).

Each client's own documentation (checked December 2026):

- ``claude-desktop``: ``mcpServers`` in ``claude_desktop_config.json``; a command only
  (a remote server is added as a connector in the app, not in this file);
- ``claude-code``: ``mcpServers`` in the project's ``.mcp.json`` (or ``claude mcp add``),
  ``"type": "stdio"`` with a command, or ``"type": "http"`` with a ``url``;
- ``codex``: an ``[mcp_servers.NAME]`` table in ``~/.codex/config.toml`` (or a trusted
  project's ``.codex/config.toml``): ``command`` and ``args``, or ``url``;
- ``gemini``: ``mcpServers`` in ``~/.gemini/settings.json`` (or ``.gemini/settings.json``):
  ``command`` and ``args``, or ``httpUrl`` for streamable HTTP (``url`` is its SSE);
- ``vscode``: ``servers`` in ``.vscode/mcp.json``, ``"type": "stdio"`` or ``"type": "http"``;
- ``cursor``: ``mcpServers`` in ``.cursor/mcp.json``: a command, or a ``url``.

Over stdio the command is this interpreter's ``kas-tui``, so the snippet works whatever
the client's own ``PATH`` holds; with ``url`` (``serve --http``) the snippet points at
the running server instead.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

CLIENTS = ("claude-desktop", "claude-code", "codex", "gemini", "vscode", "cursor")

#: where each client reads the snippet, said above it
WHERE = {
    "claude-desktop": "claude_desktop_config.json",
    "claude-code": ".mcp.json in the project (or claude mcp add)",
    "codex": "~/.codex/config.toml (or .codex/config.toml in a trusted project)",
    "gemini": "~/.gemini/settings.json (or .gemini/settings.json in the project)",
    "vscode": ".vscode/mcp.json",
    "cursor": ".cursor/mcp.json (or ~/.cursor/mcp.json)",
}


class NoUrlForm(ValueError):
    """The client takes no server URL in its settings file."""


def server_url(host: str, port: int) -> str:
    """The streamable-HTTP address of a server listening on ``host``:``port`` (an IPv6
    address in brackets, as a URL writes it)."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/mcp"


def server_command(root: Path) -> tuple[str, list[str]]:
    """The command and arguments that serve the package at ``root`` over stdio."""
    script = shutil.which("kas-tui")
    if script:
        return script, ["serve", str(root)]
    return sys.executable, ["-m", "kas_tui", "serve", str(root)]


def client_config(client: str, name: str, root: Path, url: str | None = None) -> str:
    """The settings text to paste into ``client``'s MCP settings for package ``name``:
    the stdio command, or with ``url`` the running HTTP server."""
    if client not in CLIENTS:
        raise ValueError(f"unknown client {client!r}; the clients are {', '.join(CLIENTS)}")
    if url is None:
        command, args = server_command(root)
        if client == "codex":
            return _toml(name, {"command": command, "args": args})
        entry: dict = {"command": command, "args": args}
        if client in ("vscode", "claude-code"):
            entry = {"type": "stdio", **entry}
    else:
        if client == "claude-desktop":
            raise NoUrlForm(
                "Claude Desktop's config file takes a command, not a URL: print its config "
                "without --http (it starts the server itself), or add the URL as a connector "
                "in the app"
            )
        if client == "codex":
            return _toml(name, {"url": url})
        key = {"gemini": "httpUrl", "cursor": "url"}.get(client)
        entry = {key: url} if key else {"type": "http", "url": url}
    top = "servers" if client == "vscode" else "mcpServers"
    return json.dumps({top: {name: entry}}, indent=2) + "\n"


def _toml(name: str, values: dict) -> str:
    """One ``[mcp_servers.NAME]`` table (JSON strings are valid TOML basic strings)."""
    key = name if name.replace("-", "").replace("_", "").isalnum() else json.dumps(name)
    lines = [f"[mcp_servers.{key}]"]
    lines += [f"{field} = {json.dumps(value)}" for field, value in values.items()]
    return "\n".join(lines) + "\n"
