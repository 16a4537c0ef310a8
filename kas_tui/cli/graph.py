"""``kas-tui graph PKG``: the package's link graph as JSON, Graphviz DOT or Mermaid
(:mod:`kas_tui.features.graph`). Exit 0: written; 2: usage or I/O error."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kas_tui.cli.args import Parser, open_package, whole_number
from kas_tui.features.graph import FORMATS


def graph_arguments(parser: Parser) -> None:
    parser.description = (
        "Write the package's link graph (SKILL.md, every index.md and "
        "document, and the files they link to) as JSON (with the broken links), Graphviz "
        "DOT or a Mermaid flowchart."
    )
    parser.add_argument("path", metavar="PKG", help="package folder")
    parser.add_argument("--format", choices=FORMATS, default="json")
    parser.add_argument(
        "--around", metavar="DOC", help="only DOC's neighbourhood (links both ways)"
    )
    parser.add_argument(
        "--depth", type=whole_number(1), default=2, help="steps out from --around (2)"
    )
    parser.add_argument("--out", type=Path, metavar="FILE", help="write here, not to stdout")


def run_graph(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package
    from kas_tui.core.store import StoreError, write_atomic
    from kas_tui.features.graph import build_graph, neighbourhood, render, subgraph

    location = open_package(args.path, "kas-tui graph")
    package = Package.open(location.root, scan=True, cache=True)
    graph = build_graph(package)
    if args.around:
        start = args.around.strip("/")
        if start not in graph.nodes:
            print(
                f"kas-tui graph: --around {args.around}: not a file of {package.root} "
                "(give its path from the package root, e.g. incidents/index.md)",
                file=sys.stderr,
            )
            return 2
        graph = subgraph(graph, set(neighbourhood(graph, start, args.depth)))
    text = render(graph, args.format, name=package.name)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        current = args.out.read_bytes() if args.out.exists() else None
        write_atomic(args.out, text.encode(), expect=current, create=current is None)
    except (OSError, StoreError) as exc:
        print(f"kas-tui graph: cannot write {args.out}: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}", file=sys.stderr)
    return 0
