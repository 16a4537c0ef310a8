"""One index layout: ``check --fix``, the TUI's ``A``, ``import`` and ``build`` write the
same ``index.md`` for the same documents (the policy is :mod:`kas_tui.core.okf.index`)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.check.fixes import apply_fixes
from kas_tui.features.importing import plan_import, write_import
from kas_tui.features.importing.build import build
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.acme import make_package

TODAY = dt.date(2026, 11, 30)


def _doc(doc_type: str, title: str, description: str) -> str:
    return f"---\ntype: {doc_type}\ntitle: {title}\ndescription: {description}\n---\n\nBody.\n"


#: Three documents of two types: grouped by type (build used to group past three only).
OPS = {
    "rotate-keys.md": _doc("Runbook", "Rotate keys", "Steps to rotate the API signing keys."),
    "escalation.md": _doc("Policy", "Escalation", "When on-call pages the incident commander."),
    "restart-api.md": _doc("Runbook", "Restart the API", "Steps to restart the public API."),
}


def _package_with_unindexed_ops(tmp_path: Path) -> Path:
    root = make_package(tmp_path)
    for name, text in OPS.items():
        (root / "ops").mkdir(exist_ok=True)
        (root / "ops" / name).write_text(text)
    return root


def _by_fix(tmp_path: Path) -> str:
    root = _package_with_unindexed_ops(tmp_path / "fix")
    pkg = Package.open(root)
    apply_fixes(pkg, check(pkg, agent_ready=True, today=TODAY), today=TODAY)
    return (root / "ops" / "index.md").read_text()


async def _by_key(tmp_path: Path) -> str:
    root = _package_with_unindexed_ops(tmp_path / "key")
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        tree = app.query_one(NavTree)
        tree.focus()
        assert tree.select_path("ops")
        await pilot.pause()
        await pilot.press("A")
        await pilot.pause()
    index = root / "ops" / "index.md"
    return index.read_text() if index.is_file() else "(A wrote no index.md)"


def _sources(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "ops"
    folder.mkdir(parents=True)
    for name, text in OPS.items():
        (folder / name).write_text(text)
    return sorted(folder.iterdir())


def _by_import(tmp_path: Path) -> str:
    root = make_package(tmp_path / "import")
    pkg = Package.open(root)
    plans = plan_import(pkg, _sources(tmp_path / "import-src"), "ops", workers=1)
    assert [p.action for p in plans] == ["create"] * len(OPS)
    write_import(pkg, plans, today=TODAY)
    return (root / "ops" / "index.md").read_text()


def _by_build(tmp_path: Path) -> str:
    _sources(tmp_path / "build-src")
    # a page beside ops/: the source is not one folder in a wrapper (which would be the root)
    (tmp_path / "build-src" / "about.md").write_text("# About\n\nWho runs ops.\n", "utf-8")
    out = tmp_path / "build" / "acme-kb"
    build(tmp_path / "build-src", out, workers=1, validate=False)
    return (out / "ops" / "index.md").read_text()


async def test_fix_key_import_and_build_write_the_same_new_index(tmp_path: Path) -> None:
    written = {
        "check --fix": _by_fix(tmp_path),
        "A": await _by_key(tmp_path),
        "import": _by_import(tmp_path),
        "build": _by_build(tmp_path),
    }
    expected = (
        "# Ops\n"
        "\n## Policies\n\n"
        "* [Escalation](escalation.md) - When on-call pages the incident commander.\n"
        "\n## Runbooks\n\n"
        "* [Restart the API](restart-api.md) - Steps to restart the public API.\n"
        "* [Rotate keys](rotate-keys.md) - Steps to rotate the API signing keys.\n"
    )
    assert written == dict.fromkeys(written, expected)
    assert parse_index(expected).sections[0].title == "Ops"
