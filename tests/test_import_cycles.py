"""No import cycle among kas_tui's modules (lazy imports inside functions included).

The same analysis as the team's ``tools/import_cycles.py``, kept here so CI needs
nothing outside the repository: an edge from a module to every kas_tui module an
``import`` or ``from ... import`` names (``from .x import y`` names ``x`` and, when it
is a module, ``x.y``), and Tarjan's strongly connected components over those edges.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import kas_tui

PACKAGE = Path(kas_tui.__file__).resolve().parent


def module_graph(root: Path) -> dict[str, set[str]]:
    """Module name -> the package's modules it imports."""
    base = root.parent
    files = {}
    for path in root.rglob("*.py"):
        name = ".".join(path.relative_to(base).with_suffix("").parts).removesuffix(".__init__")
        files[name] = path
    edges: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - (node.level - 1)]
                    target = ".".join(parts + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                named = [target] + [f"{target}.{alias.name}" for alias in node.names]
            else:
                continue
            edges[name].update(n for n in named if n in files and n != name)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_kas_tui_has_no_import_cycle() -> None:
    found = cycles(module_graph(PACKAGE))
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_analysis_sees_a_cycle(tmp_path: Path) -> None:
    """The test above is meaningful: a lazy import closing a loop is a cycle."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..a import x\n")
    (pkg / "c.py").write_text("import pkg.a\n")
    assert cycles(module_graph(pkg)) == [["pkg.a", "pkg.sub.b"]]


def test_importing_the_package_alone_works() -> None:
    """``python -c "import kas_tui.core.package"`` (a cycle shows there as an ImportError)."""
    for name in ("kas_tui.core.package", "kas_tui.core.loader", "kas_tui.core.document_rules"):
        result = subprocess.run(
            [sys.executable, "-c", f"import {name}"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stderr
