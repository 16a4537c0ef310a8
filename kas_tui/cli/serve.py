"""``kas-tui serve PKG``: the package over MCP (stdio, or streamable HTTP on localhost).

Exit 0 when the client closes the connection (stdio) or the server is stopped; 2 on a
usage error or a package that cannot be opened. Messages go to stderr: stdout is the
MCP channel over stdio.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Any

from kas_tui.cli.args import CommandError, Parser, open_package
from kas_tui.features.serve.clients import CLIENTS

LOCALHOST = "127.0.0.1"
DEFAULT_PORT = 8765


def _host_port(text: str) -> tuple[str | None, int]:
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give a port (8765) or HOST:PORT (127.0.0.1:8765)"
        ) from None
    if not 0 < number < 65536:
        raise argparse.ArgumentTypeError(f"{text!r}: the port must be 1 to 65535")
    return (host.strip("[]") or None), number


def serve_arguments(parser: Parser) -> None:
    parser.description = (
        "Serve a package to agents over the Model Context Protocol: the tools "
        "listdir, readfile and peek, read-only and confined to the package, answering "
        "exactly what the agent walk (a) shows, and the MCP Skills extension (the "
        "package as a skill, every file a skill:// resource). Over stdio by default (for desktop "
        "agents); --http serves streamable HTTP on localhost. Every session is logged as "
        "a trajectory the replay screen (R) reads."
    )
    parser.add_argument("path", metavar="PKG", help="package folder")
    parser.add_argument(
        "--http",
        type=_host_port,
        metavar="[HOST:]PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp (HOST: 127.0.0.1)",
    )
    parser.add_argument(
        "--host",
        metavar="HOST",
        help="serve streamable HTTP on HOST instead of 127.0.0.1 (port 8765 unless --http "
        "gives one; reachable from other machines: warned)",
    )
    parser.add_argument(
        "--log-dir",
        type=Path,
        metavar="DIR",
        help="log sessions here (default: sessions/ in the user data folder); remembered, "
        "so the replay screen (R) lists them",
    )
    parser.add_argument(
        "--print-config",
        choices=CLIENTS,
        metavar="CLIENT",
        help="print the settings to paste into CLIENT's MCP configuration and exit "
        f"({', '.join(CLIENTS)}); with --http, the running server's URL form",
    )


def run_serve(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package
    from kas_tui.features.serve.client_session import ServedPackage

    location = open_package(args.path, "kas-tui serve")
    package = Package.open(location.root, cache=True)
    http = None
    if args.http is not None or args.host:
        host, port = args.http if args.http is not None else (None, DEFAULT_PORT)
        http = (args.host or host or LOCALHOST, port)
    if args.print_config:
        return _print_config(args.print_config, package, http)
    if http is not None and http[0] not in (LOCALHOST, "localhost", "::1"):
        print(
            f"kas-tui serve: warning: listening on {http[0]}: any machine that can reach "
            "it can read the whole package",
            file=sys.stderr,
        )
    from kas_tui.features.serve.server import serve
    from kas_tui.features.serve.session_logs import remember_log_dir

    if args.log_dir is not None:
        problem = remember_log_dir(args.log_dir)  # so that R lists these sessions too
        if problem:
            print(
                f"kas-tui serve: warning: the replay screen (R) will not list the sessions "
                f"logged to {args.log_dir}: {problem}",
                file=sys.stderr,
            )
    with contextlib.suppress(KeyboardInterrupt):
        serve(ServedPackage(package), http=http, log_dir=args.log_dir)
    return 0


def _print_config(client: str, package: Any, http: tuple[str, int] | None) -> int:
    from kas_tui.features.serve.clients import WHERE, NoUrlForm, client_config, server_url

    url = server_url(*http) if http is not None else None
    try:
        text = client_config(client, package.name, package.root, url)
    except NoUrlForm as exc:
        raise CommandError(str(exc)) from None
    print(f"# {client}: paste into {WHERE[client]}", file=sys.stderr)
    print(text, end="")
    return 0
