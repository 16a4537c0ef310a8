"""The house in five layers: text/ -> core/ -> features/ -> cli/ and tui/.

A module imports its own layer and those below it, never one above; cli/ may open tui/
(the command line starts the app), tui/ never imports cli/; only tui/ imports Textual.
Outside the layers, kas_tui/ holds only ``__init__.py`` and ``__main__.py``. Every import
counts, the lazy ones inside functions included. This is the rule
``../shared/tools/layers.py`` checks, kept here so a clone without ``shared/`` checks it
too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import kas_tui

ROOT = Path(kas_tui.__file__).parent
LAYERS = ("text", "core", "features", "cli", "tui")
RANK = {name: i for i, name in enumerate(LAYERS)}


def _module(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(root: Path, path: Path):
    module = _module(root, path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                target = ".".join(parts + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield node.lineno, target
            for alias in node.names:
                yield node.lineno, f"{target}.{alias.name}"


def breaches(root: Path = ROOT) -> list[str]:
    found = []
    for entry in sorted(root.iterdir()):
        if entry.suffix == ".py" and entry.name not in ("__init__.py", "__main__.py"):
            found.append(f"{entry.name}: a module outside the layers")
        elif (
            entry.is_dir()
            and entry.name not in LAYERS
            and not entry.name.startswith(("_", "."))
            and any(entry.rglob("*.py"))
        ):
            found.append(f"{entry.name}/: a package outside the layers")
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        here = parts[0] if len(parts) > 1 and parts[0] in RANK else None
        for line, target in _imports(root, path):
            head = target.split(".")
            where = f"{path.relative_to(root)}:{line}"
            if head[0] == "textual" and here != "tui":
                found.append(f"{where}: imports textual outside tui/")
            if head[0] != "kas_tui" or len(head) < 2 or head[1] not in RANK or here is None:
                continue
            there = head[1]
            if there == here:
                continue
            up = RANK[there] > RANK[here]
            if (up and not (here == "cli" and there == "tui")) or (
                here == "tui" and there == "cli"
            ):
                found.append(f"{where}: {here}/ imports {there}/ ({target})")
    return sorted(set(found))


def test_every_module_keeps_to_its_layer() -> None:
    assert breaches() == []


def test_the_rule_catches_an_import_from_above(tmp_path: Path) -> None:
    """The checker itself: a core module that imports a feature, a feature that imports
    Textual, and a loose module are each reported."""
    pkg = tmp_path / "kas_tui"
    for layer in LAYERS:
        (pkg / layer).mkdir(parents=True)
        (pkg / layer / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "loose.py").write_text("")
    (pkg / "core" / "disk.py").write_text("from kas_tui.features.check import check\n")
    (pkg / "features" / "show.py").write_text("def f():\n    import textual\n")
    (pkg / "cli" / "main.py").write_text("from kas_tui.tui.app import KasApp\n")
    (pkg / "tui" / "app.py").write_text("from ..cli.main import main\n")
    assert breaches(pkg) == [
        "core/disk.py:1: core/ imports features/ (kas_tui.features.check)",
        "core/disk.py:1: core/ imports features/ (kas_tui.features.check.check)",
        "features/show.py:2: imports textual outside tui/",
        "loose.py: a module outside the layers",
        "tui/app.py:1: tui/ imports cli/ (kas_tui.cli.main)",
        "tui/app.py:1: tui/ imports cli/ (kas_tui.cli.main.main)",
    ]
