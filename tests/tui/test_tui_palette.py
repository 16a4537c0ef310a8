"""One palette: every view colours a trust tier the same way."""

from __future__ import annotations

import datetime as dt

from rich.console import Console
from textual.widgets import DataTable

from kas_tui.core.okf.lifecycle import TrustTier
from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.bulk import BulkScreen, open_bulk_editor
from kas_tui.tui.widgets.meta_pane import MetaPane
from kas_tui.tui.widgets.nav_tree import NavTree

TODAY = dt.date(2026, 11, 30)
CONSOLE = Console()


def tree_style(package: Package, path: str) -> str:
    """The style of the trust mark that starts the document's row in the tree."""
    listing = next(
        item
        for folder in package.indexes
        for item in package.listings(folder)
        if item.kind == "document" and item.path == path
    )
    label = NavTree(package, TODAY)._label(listing)
    return str(label.get_style_at_offset(CONSOLE, 0))


def meta_style(package: Package, path: str) -> str:
    """The style of the tier's name in the meta pane's summary line."""
    shown = []
    pane = MetaPane()
    pane.update = shown.append  # what the pane would show
    pane.show_document(package, package.documents[path], TODAY)
    summary = shown[0].renderables[0]
    tier = package.documents[path].trust_tier
    start = summary.plain.index(str(tier))
    return str(summary.get_style_at_offset(CONSOLE, start))


async def test_a_tier_has_one_colour_in_the_tree_the_meta_pane_and_the_bulk_table(demo):
    tiers = {doc.trust_tier: doc.path for doc in demo.documents.values() if not doc.problems}
    assert set(tiers) == set(TrustTier), "the demo has a document of every tier"
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        open_bulk_editor(pilot.app, None)
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, BulkScreen)
        table = screen.query_one("#bulk-table", DataTable)
        for tier, path in tiers.items():
            bulk = str(table.get_cell(path, "trust").style)
            assert bulk == tree_style(demo, path) == meta_style(demo, path), tier
