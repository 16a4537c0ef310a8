"""Sphinx's autosummary tables read from the source's Python files, found by building
networkx's repository (2026-12-07): its 273 tables (every algorithm's page lists its
functions with one) showed each function's name and nothing else, where the site shows
its signature and the first sentence of its docstring. The code is read, never run."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.autodoc import first_sentence, short_signature
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.UTC)

GENERIC = '''\
"""Shortest path algorithms."""

from graphs.utils import dispatch


@dispatch
def shortest_path(G, source=None, target=None, weight=None, method="dijkstra", *, backend=None):
    """Compute shortest paths in the graph, e.g. between two nodes.

    Parameters
    ----------
    G : Graph
    """
    raise SystemExit("never run")


def has_path(G, source, target):
    """Returns *True* if *G* has a path from *source* to *target*."""


class PathFinder:
    """Finds paths. Remembers them too."""

    def __init__(self, graph, cache: bool = True):
        self.graph = graph


def undocumented(G):
    pass


#: The method used when none is named.
DEFAULT_METHOD = "dijkstra"
'''

FILES: dict[str, str | bytes] = {
    "doc/conf.py": (
        "import os, sys\nsys.path.insert(0, os.path.abspath('..'))\n"
        'project = "Graphs"\nextensions = ["sphinx.ext.autosummary"]\n'
    ),
    "doc/index.rst": "Graphs\n======\n\n.. toctree::\n\n   paths\n",
    "doc/paths.rst": (
        "Shortest Paths\n==============\n\nFinding the shortest path between two nodes.\n\n"
        ".. automodule:: graphs.generic\n\n"
        ".. autosummary::\n   :toctree: generated/\n\n"
        "   shortest_path\n   has_path\n   PathFinder\n   undocumented\n   DEFAULT_METHOD\n"
        "   ~graphs.generic.has_path\n   numpy.linalg.norm\n"
    ),
    "graphs/__init__.py": '"""Graphs."""\n',
    "graphs/utils.py": "def dispatch(f):\n    return f\n",
    "graphs/generic.py": GENERIC,
}


def test_an_autosummary_table_shows_each_names_signature_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", FILES), out, now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0
    pkg = Package(out)
    pkg.load()
    path = next(p for p, d in pkg.documents.items() if d.title == "Shortest Paths")
    text = (out / path).read_text("utf-8")
    # as Sphinx's table: the shortened signature, then the docstring's first sentence
    assert "`shortest_path(G[, source, target, weight, ...])`" in text
    assert "Compute shortest paths in the graph, e.g. between two nodes." in text
    assert "`has_path(G, source, target)`: Returns *True* if *G* has a path" in text
    assert "`PathFinder(graph[, cache])`: Finds paths." in text
    assert "Remembers them too" not in text  # the first sentence only
    assert "`undocumented(G)`" in text  # no docstring: its signature alone
    assert "`DEFAULT_METHOD`: The method used when none is named." in text
    assert "* `has_path(G, source, target)`" in text  # ~ shows the last part of the name
    assert "* `numpy.linalg.norm`" in text  # another project's: its name, as before
    assert "Parameters" not in text and "never run" not in text
    # the pages Sphinx generates for the names are not built, and the build says so
    notes = "\n".join(result.notes)
    assert "doc/paths.rst: line 8: .. autosummary:: :toctree: generated/ is not shown" in notes
    assert "the 7 pages Sphinx generates there are not built" in notes


def test_a_signature_is_shortened_as_autosummary_does() -> None:
    assert short_signature("(G, source=None, target=None)", 40) == "(G[, source, target])"
    assert short_signature("(a, b)", 40) == "(a, b)"
    assert short_signature("(x=1, *, y: int = 2)", 40) == "([x, y])"
    assert short_signature("(alpha, beta, gamma, delta, epsilon)", 20) == "(alpha, beta, ...)"
    assert short_signature("(G, first_argument=1, second_argument=2)", 18) == "(G[, ...])"
    assert short_signature("(self, x", 40) == "(...)"  # no Python: said so


def test_a_summary_is_the_first_sentence_of_the_first_paragraph() -> None:
    assert first_sentence("Add arrays. Element by element.\n\nMore.") == "Add arrays."
    assert first_sentence("\n    Sum of the\n    arrays, i.e. both.\n\n    Notes") == (
        "Sum of the arrays, i.e. both."
    )
    assert first_sentence("") == ""


def test_a_page_reads_at_most_its_budget_of_objects_and_names_the_rest(
    tmp_path: Path, monkeypatch
) -> None:
    # a generated page of thousands of names reads no more objects than autodoc's
    # budget for one page; past it each name is shown alone, and a note says so
    import kas_tui.features.importing.rst as rst

    monkeypatch.setattr(rst, "_MOST_AUTODOC", 2)
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", FILES), out, now=NOW, workers=1)
    assert result.failed == []
    pkg = Package(out)
    pkg.load()
    path = next(p for p, d in pkg.documents.items() if d.title == "Shortest Paths")
    text = (out / path).read_text("utf-8")
    assert "Compute shortest paths in the graph" in text  # the automodule, then one
    assert "* `PathFinder`\n" in text and "Finds paths." not in text  # then names alone
    notes = "\n".join(result.notes)
    assert "the summaries of 6 names of .. autosummary:: is not shown" in notes
