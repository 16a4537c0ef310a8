"""The package's link graph: who links to whom, what is broken, a document's neighbourhood.

Built once from :meth:`Package.links` (the one link parser, shared with ``check`` and the
body pane): the sources are every document, every ``index.md`` and SKILL.md; an edge
goes to a file or folder of the package (a folder's link stands for its ``index.md``).
A link to a path the package does not hold is *broken*; a link to a URL or out of the
package is not part of the graph. :func:`render` writes the graph as JSON, Graphviz DOT
or a Mermaid flowchart; :func:`neighbourhood` walks it both ways from one document.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kas_tui.core.package import Package

FORMATS = ("json", "dot", "mermaid")


@dataclass(frozen=True)
class Edge:
    """A link from ``source`` (line ``line``, text ``text``) to ``target``."""

    source: str
    target: str
    line: int
    text: str
    href: str


@dataclass
class Graph:
    """Nodes (root-relative paths) and the links between them, both ways."""

    nodes: list[str] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    broken: list[Edge] = field(default_factory=list)
    out: dict[str, list[Edge]] = field(default_factory=dict)
    into: dict[str, list[Edge]] = field(default_factory=dict)


def sources(package: Package) -> list[str]:
    """The files whose links the graph holds, in package order."""
    found = [package.skill_file] if package.skill is not None else []
    found += sorted(index.path for index in package.indexes.values())
    found += sorted(package.documents)
    return found


def build_graph(package: Package) -> Graph:
    """The graph of ``package`` (reads every body once, as ``check`` does)."""
    graph = Graph(nodes=sources(package))
    known = package.known_paths()
    index_of = {folder: index.path for folder, index in package.indexes.items()}
    for source in graph.nodes:
        for link, target in package.links(source):
            if target.kind != "internal":
                continue
            edge = Edge(
                source, index_of.get(target.path, target.path), link.line, link.text, link.target
            )
            if target.path not in known:
                graph.broken.append(edge)
                continue
            if edge.target == source:
                continue  # a link to itself (an anchor written as a path) is no edge
            graph.edges.append(edge)
            graph.out.setdefault(source, []).append(edge)
            graph.into.setdefault(edge.target, []).append(edge)
    extra = sorted({e.target for e in graph.edges} - set(graph.nodes))  # assets, logs
    graph.nodes += extra
    return graph


GRAPH_KEY = "link-graph"


def graph_of(package: Package) -> Graph:
    """The graph of ``package``, made once until one of its files changes."""
    return package.derived(GRAPH_KEY, build_graph)


def graph_if_made(package: Package) -> Graph | None:
    """The graph of ``package`` if it is made and still true, else ``None``."""
    return package.derived(GRAPH_KEY)


def neighbourhood(graph: Graph, start: str, depth: int = 2) -> dict[str, int]:
    """Every node within ``depth`` links of ``start``, either way, and its distance."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if seen[node] >= depth:
            continue
        for edge in graph.out.get(node, []) + graph.into.get(node, []):
            other = edge.target if edge.source == node else edge.source
            if other not in seen:
                seen[other] = seen[node] + 1
                queue.append(other)
    return seen


def subgraph(graph: Graph, keep: set[str]) -> Graph:
    """``graph`` restricted to the nodes in ``keep``."""
    part = Graph(nodes=[n for n in graph.nodes if n in keep])
    part.edges = [e for e in graph.edges if e.source in keep and e.target in keep]
    part.broken = [e for e in graph.broken if e.source in keep]
    for edge in part.edges:
        part.out.setdefault(edge.source, []).append(edge)
        part.into.setdefault(edge.target, []).append(edge)
    return part


def render(graph: Graph, fmt: str, *, name: str = "package") -> str:
    """The graph as ``json``, ``dot`` or ``mermaid`` text (ending with a newline)."""
    if fmt == "json":
        data = {
            "format": "kas-tui graph",
            "version": 1,
            "package": name,
            "nodes": [{"id": n} for n in graph.nodes],
            "edges": [
                {"source": e.source, "target": e.target, "line": e.line, "text": e.text}
                for e in graph.edges
            ],
            "broken": [
                {"source": e.source, "line": e.line, "href": e.href, "text": e.text}
                for e in graph.broken
            ],
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if fmt == "dot":
        lines = [f"digraph {_dot_id(name)} {{", "  rankdir=LR;", "  node [shape=box];"]
        lines += [f"  {_dot_id(n)};" for n in graph.nodes]
        lines += [f"  {_dot_id(e.source)} -> {_dot_id(e.target)};" for e in _unique(graph.edges)]
        return "\n".join([*lines, "}"]) + "\n"
    if fmt == "mermaid":
        ids = {n: f"n{i}" for i, n in enumerate(graph.nodes)}
        lines = ["flowchart LR"]
        lines += [f'  {ids[n]}["{_mermaid_label(n)}"]' for n in graph.nodes]
        lines += [f"  {ids[e.source]} --> {ids[e.target]}" for e in _unique(graph.edges)]
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown format {fmt!r}; the formats are {', '.join(FORMATS)}")


def _unique(edges: list[Edge]) -> list[Edge]:
    seen: set[tuple[str, str]] = set()
    out = []
    for edge in edges:
        if (edge.source, edge.target) not in seen:
            seen.add((edge.source, edge.target))
            out.append(edge)
    return out


def _dot_id(text: str) -> str:
    """A DOT quoted id: backslashes and quotes escaped, line breaks as ``\\n``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _mermaid_label(text: str) -> str:
    """A Mermaid label in double quotes: quotes and markup characters as entity codes."""
    out = []
    for char in text:
        if char in '"#<>&`[]{}()|' or not char.isprintable():
            out.append(f"#{ord(char)};")
        else:
            out.append(char)
    return "".join(out)


def drawing(graph: Graph, start: str, depth: int = 2) -> list[str]:
    """``start``'s neighbourhood drawn in text: what it links to (→) and what links to it
    (←), each a step further out indented below the one that reached it."""
    lines = [start]

    def walk(node: str, level: int, seen: set[str], prefix: str) -> None:
        if level > depth:
            return
        nexts = [("→", e.target) for e in graph.out.get(node, [])]
        nexts += [("←", e.source) for e in graph.into.get(node, [])]
        unique = []
        for arrow, other in nexts:
            if other not in seen and (arrow, other) not in unique:
                unique.append((arrow, other))
        for n, (arrow, other) in enumerate(unique):
            last = n == len(unique) - 1
            lines.append(f"{prefix}{'└─' if last else '├─'} {arrow} {other}")
            walk(other, level + 1, seen | {other}, prefix + ("   " if last else "│  "))

    walk(start, 1, {start}, "")
    return lines
