"""Pilot tests of the TUI on a copy of demo_kb."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from kas_tui.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.meta_pane import MetaPane
from kas_tui.tui.widgets.nav_tree import NavTree

DEMO = Path(__file__).resolve().parents[1] / "demo_kb"
TODAY = dt.date(2026, 11, 30)


@pytest.fixture
def demo(tmp_path: Path) -> Package:
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    return Package.open(tmp_path / "demo_kb")


def _text(widget: MetaPane) -> str:
    console = Console(record=True, width=200)
    console.print(widget.content)
    return console.export_text()


async def test_opens_on_skill_and_lists_bundles(demo: Package) -> None:
    app = KasApp(demo, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        tree = app.query_one(NavTree)
        titles = [str(node.label).split(" — ")[0] for node in tree.root.children]
        assert titles == ["On-call", "Incidents", "SLOs", "Releases", "Billing support", "Security"]
        meta = _text(app.query_one(MetaPane))
        assert "orbit-handbook" in meta and "/ 1,024 characters" in meta


async def test_keyboard_walk_to_a_document(demo: Package) -> None:
    app = KasApp(demo, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("down", "down", "enter", "down", "down")
        await pilot.pause()
        assert app.location == "oncall/escalation-policy.md"
        meta = _text(app.query_one(MetaPane))
        assert "Policy · stable · human-reviewed · fresh for 182 days" in meta
        assert "listed by incidents/index.md, oncall/index.md" in meta


async def test_stale_and_deprecated_marks(demo: Package) -> None:
    app = KasApp(demo, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        tree = app.query_one(NavTree)
        assert tree.select_path("billing-support/plans-and-pricing.md")
        assert tree.select_path("oncall/opsgenie-runbook.md")
        await pilot.pause()
        labels = [str(n.label) for n in tree._walk(tree.root)]
        assert any("Plans and pricing" in lab and "[stale]" in lab for lab in labels)
        assert any("[deprecated]" in lab for lab in labels)


async def test_follow_link_in_body(demo: Package) -> None:
    app = KasApp(demo, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go("billing-support/billing-faq.md")
        await pilot.pause()
        from textual.widgets import Markdown

        md = app.query_one(Markdown)
        md.post_message(Markdown.LinkClicked(md, "/billing-support/refunds/refund-policy.md"))
        await pilot.pause()
        await pilot.pause()
        assert app.location == "billing-support/refunds/refund-policy.md"
        assert app.query_one(NavTree).cursor_node.data.path == app.location


async def test_broken_documents_and_markup_titles_show_literally(tmp_path: Path) -> None:
    root = tmp_path / "bad-kb"
    root.mkdir()
    (root / "SKILL.md").write_text("---\nname: bad-kb\ndescription: Broken. Use in tests.\n---\n")
    (root / "index.md").write_text(
        "# Docs\n\n* [\\[bold\\]Bad\\[/bold\\] \\\\ x](ok.md) - [red]desc[/red]\n"
    )
    (root / "ok.md").write_text('---\ntype: X\ntitle: "[bold]Bad[/bold] \\\\ x"\n---\nbody\n')
    (root / "enc.md").write_bytes(b"\xff\xfe not utf-8")
    (root / "yaml.md").write_text("---\ntype: [unclosed\n---\n")
    app = KasApp(Package.open(root), today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        tree = app.query_one(NavTree)
        labels = [str(n.label) for n in tree._walk(tree.root)]
        assert "○ [bold]Bad[/bold] \\ x — [red]desc[/red]" in labels
        assert any("Enc" in lab and "not in index.md" in lab for lab in labels)
        app.go("ok.md")
        await pilot.pause()
        assert "[bold]Bad[/bold] \\ x" in _text(app.query_one(MetaPane))
        app.go("yaml.md")
        await pilot.pause()
        meta = _text(app.query_one(MetaPane))
        assert "error: line 3: invalid YAML" in meta
        app.go("enc.md")
        await pilot.pause()
        assert "not valid UTF-8" in _text(app.query_one(MetaPane))
