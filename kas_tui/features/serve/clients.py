"""The settings snippet each MCP client takes for a served package (``--print-config``).

Claude Desktop reads ``mcpServers`` from ``claude_desktop_config.json``; Cursor reads the
same shape from ``.cursor/mcp.json`` (or ``~/.cursor/mcp.json``); VS Code reads
``servers`` (with ``"type": "stdio"``) from ``.vscode/mcp.json``. Each runs the server
as a command over stdio; the command is this interpreter's ``kas-tui``, so the snippet
works whatever the client's own ``PATH`` holds.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

CLIENTS = ("claude-desktop", "vscode", "cursor")


def server_command(root: Path) -> tuple[str, list[str]]:
    """The command and arguments that serve the package at ``root`` over stdio."""
    script = shutil.which("kas-tui")
    if script:
        return script, ["serve", str(root)]
    return sys.executable, ["-m", "kas_tui", "serve", str(root)]


def client_config(client: str, name: str, root: Path) -> str:
    """The JSON to paste into ``client``'s MCP settings for package ``name``."""
    command, args = server_command(root)
    entry: dict = {"command": command, "args": args}
    if client == "vscode":
        config = {"servers": {name: {"type": "stdio", **entry}}}
    elif client in ("claude-desktop", "cursor"):
        config = {"mcpServers": {name: entry}}
    else:
        raise ValueError(f"unknown client {client!r}; the clients are {', '.join(CLIENTS)}")
    return json.dumps(config, indent=2) + "\n"
