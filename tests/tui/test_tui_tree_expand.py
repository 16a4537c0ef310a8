"""Opening a bundle costs what the bundle holds, not what the package holds (issue 30,
item 18: a bundle of 250 entries took a second to open at 50,000 documents)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from textual.widgets import Tree

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.waiting import pilot_wait_until

DEMO = Path(__file__).resolve().parents[2] / "demo_kb" / "orbit-handbook"
TODAY = dt.date(2026, 11, 30)


def _package(tmp_path: Path) -> Package:
    root = tmp_path / "orbit-handbook"
    shutil.copytree(DEMO, root)
    index = root / "oncall" / "index.md"
    index.write_text(
        index.read_text("utf-8") + "\n* [当番表 ✅ 🚨](rota.md) - 週末の当番、絵文字つき 🌙.\n",
        "utf-8",
    )
    (root / "oncall" / "attic").mkdir()  # a bundle its folder's index does not list
    (root / "oncall" / "attic" / "index.md").write_text("# Attic\n", "utf-8")
    return Package.open(root)


async def test_every_line_is_as_wide_as_textual_draws_it_without_drawing_it(
    tmp_path: Path, monkeypatch
) -> None:
    drawn: list[object] = []
    draw = NavTree.render_label

    def counted(self, node, *args):
        drawn.append(node)
        return draw(self, node, *args)

    monkeypatch.setattr(NavTree, "render_label", counted)
    app = KasApp(_package(tmp_path), today=TODAY, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = app.query_one(NavTree)
        for node in list(tree.root.children):
            node.expand_all()
        await pilot_wait_until(pilot, lambda: "当番表" in _labels(tree))
        nodes = list(tree._walk(tree.root))
        assert len(nodes) > 40
        drawn.clear()
        tree._invalidate()  # as opening a bundle does: every line's width asked again
        assert len(tree._tree_lines) == len(nodes)
        assert drawn == []  # no label drawn to learn it (10,000 at 50,000 documents)
        for node in nodes:
            assert tree.get_label_width(node) == Tree.get_label_width(tree, node), node.label
        tree.set_visited(read=["oncall/oncall-faq.md"], peeked=[])  # labels replaced
        for node in nodes:
            assert tree.get_label_width(node) == Tree.get_label_width(tree, node), node.label


async def test_opening_a_bundle_walks_no_other_document(tmp_path: Path, monkeypatch) -> None:
    """The folders a bundle's index leaves out are looked for among every document of
    the package only when the bundle has a folder its index does not list."""
    walks: list[str] = []
    bundles = Package.bundles

    def counted(self):
        walks.append("all")
        return bundles(self)

    monkeypatch.setattr(Package, "bundles", counted)
    app = KasApp(_package(tmp_path), today=TODAY, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = app.query_one(NavTree)
        await pilot_wait_until(pilot, lambda: bool(tree.root.children))
        walks.clear()
        billing = next(n for n in tree.root.children if n.data.path == "billing-support")
        billing.expand()
        await pilot_wait_until(pilot, lambda: bool(billing.children))
        assert walks == []
        oncall = next(n for n in tree.root.children if n.data.path == "oncall")
        oncall.expand()
        await pilot_wait_until(pilot, lambda: "attic/" in _labels(tree))
        assert walks == ["all"]  # an unlisted sub-bundle is still shown


def _labels(tree: NavTree) -> str:
    return "\n".join(node.label.plain for node in tree._walk(tree.root))
