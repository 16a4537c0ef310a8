"""The link graph, both ways: edges, broken links, neighbourhoods, JSON/DOT/Mermaid (issue 14.5)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from kas_tui.cli.main import main
from kas_tui.core.package import Package
from kas_tui.features.graph import (
    Edge,
    Graph,
    build_graph,
    drawing,
    neighbourhood,
    render,
    subgraph,
)

DOC = "incidents/severity-levels.md"


def test_edges_both_ways_and_broken_links(root: Path) -> None:
    doc = root / "oncall" / "oncall-faq.md"
    doc.write_text(doc.read_text() + "\nSee [the gone page](../incidents/gone.md).\n")
    graph = build_graph(Package.open(root))
    into = {e.source for e in graph.into[DOC]}
    assert "incidents/index.md" in into  # the index lists it
    assert all(e.target == DOC for e in graph.into[DOC])
    assert {e.target for e in graph.out["incidents/index.md"]} >= {DOC}
    (broken,) = graph.broken
    assert (broken.source, broken.href, broken.text) == (
        "oncall/oncall-faq.md",
        "../incidents/gone.md",
        "the gone page",
    )
    assert doc.read_text().splitlines()[broken.line - 1].endswith("(../incidents/gone.md).")
    assert all(e.target in graph.nodes for e in graph.edges)
    # a link to a folder is an edge to its index
    assert all(not e.target.endswith("/") for e in graph.edges)


def test_neighbourhood_walks_both_ways_to_the_depth_asked(demo: Package) -> None:
    graph = build_graph(demo)
    near = neighbourhood(graph, DOC, 1)
    assert near[DOC] == 0 and set(near.values()) == {0, 1}
    assert "incidents/index.md" in near  # a backlink
    wider = neighbourhood(graph, DOC, 2)
    assert set(near) < set(wider) and max(wider.values()) == 2
    part = subgraph(graph, set(near))
    assert all(e.source in near and e.target in near for e in part.edges)
    drawn = drawing(graph, DOC, 1)
    assert drawn[0] == DOC and any("← incidents/index.md" in line for line in drawn)
    assert all(re.match(r"^[├└]─ [→←] ", line) for line in drawn[1:])


def test_json_dot_and_mermaid(demo: Package) -> None:
    graph = build_graph(demo)
    data = json.loads(render(graph, "json", name="orbit-handbook"))
    assert data["package"] == "orbit-handbook" and len(data["edges"]) == len(graph.edges)
    assert {n["id"] for n in data["nodes"]} == set(graph.nodes)
    dot = render(graph, "dot", name="orbit-handbook")
    assert dot.startswith('digraph "orbit-handbook" {') and dot.endswith("}\n")
    assert f'"incidents/index.md" -> "{DOC}";' in dot
    mermaid = render(graph, "mermaid")
    assert mermaid.startswith("flowchart LR\n")
    assert len(re.findall(r"^  n\d+ --> n\d+$", mermaid, re.M)) == len(
        {(e.source, e.target) for e in graph.edges}
    )


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)


@given(a=names, b=names)
def test_any_name_is_escaped(a: str, b: str) -> None:
    edge = Edge(a, b, 1, "t", b)
    graph = Graph(nodes=[a, b] if a != b else [a], edges=[edge] if a != b else [])
    dot = render(graph, "dot", name=a)
    for quoted in re.findall(r'"((?:[^"\\]|\\.)*)"', dot):
        # every quoted id unescapes to a name it was made from
        assert (
            re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), quoted)
            in {
                a,
                b,
            }
            or "\n" in a + b
        )
    for line in render(graph, "mermaid").splitlines()[1:]:
        label = re.fullmatch(r'  n\d+\["(.*)"\]', line)
        if label:
            assert not set(label.group(1)) & set('"<>[]{}()|`')


def test_the_graph_command(demo: Package, tmp_path: Path, capsys) -> None:
    assert main(["graph", str(demo.root), "--format", "mermaid"]) == 0
    assert capsys.readouterr().out.startswith("flowchart LR")
    out = tmp_path / "g.json"
    assert main(["graph", str(demo.root), "--around", DOC, "--depth", "1", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert DOC in {n["id"] for n in data["nodes"]} and len(data["nodes"]) < 48
    assert main(["graph", str(demo.root), "--around", "nope.md"]) == 2
    assert "not a file of" in capsys.readouterr().err


def test_unlink_keeps_the_text_and_every_other_byte() -> None:
    from kas_tui.core.okf.links import destination_spans, unlink

    cases = {
        "see [the policy](gone.md) first": "see the policy first",
        'x ![a *b*](a.png "T") y': "x a *b* y",
        "a [b [c]](d.md (t)) e": "a b [c] e",
        "a [b](<my file.md>) c": "a b c",
        "[a\\]b](x.md)z": "a\\]bz",
    }
    for text, expected in cases.items():
        (span,) = destination_spans(text)
        assert unlink(text, span) == expected
    (span,) = destination_spans("[ref][r]\n\n[r]: gone.md\n")
    assert unlink("[ref][r]\n\n[r]: gone.md\n", span) is None  # a shared definition


def test_remove_link_refuses_what_it_cannot_do(root: Path) -> None:
    import pytest

    from kas_tui.core.editing import remove_link
    from kas_tui.core.okf.errors import EditError

    doc = root / "oncall" / "oncall-faq.md"
    doc.write_text(doc.read_text() + "\nSee [x][gone].\n\n[gone]: ../gone.md\n")
    pkg = Package.open(root)
    line = doc.read_text().splitlines().index("[gone]: ../gone.md") + 1
    before = doc.read_bytes()
    with pytest.raises(EditError, match="reference link"):
        remove_link(pkg, "oncall/oncall-faq.md", line, "../gone.md")
    with pytest.raises(EditError, match="no link to"):
        remove_link(pkg, "oncall/oncall-faq.md", 2, "../gone.md")
    assert doc.read_bytes() == before
