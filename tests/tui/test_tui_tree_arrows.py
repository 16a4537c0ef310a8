"""The arrow keys walk the navigation tree as every file tree does (VS Code's explorer,
lazygit's files, ranger): → opens the bundle under the cursor, or steps into it when it
is open; ← closes it, or steps out to the bundle holding the entry. Before, → and ←
scrolled the tree sideways by one column, which cut the first column of every line."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.screen import rows_of
from tests.helpers.waiting import pilot_wait_until

DEMO = Path(__file__).resolve().parents[2] / "demo_kb" / "orbit-handbook"
TODAY = dt.date(2026, 11, 30)


def _app(tmp_path: Path) -> KasApp:
    shutil.copytree(DEMO, tmp_path / "orbit-handbook")
    return KasApp(Package.open(tmp_path / "orbit-handbook"), today=TODAY, watch=False)


async def test_right_opens_then_steps_in_and_left_steps_out_then_closes(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        tree = app.query_one(NavTree)
        await pilot_wait_until(pilot, lambda: bool(tree.root.children))
        tree.focus()
        bundle = next(n for n in tree.root.children if n.data.path == "billing-support")
        tree.move_cursor(bundle)
        await pilot.pause()
        first_row = rows_of(app, tree)[0]  # the package's line
        assert not bundle.is_expanded

        await pilot.press("right")  # opens it, the cursor stays
        await pilot_wait_until(pilot, lambda: bundle.is_expanded and bool(bundle.children))
        assert tree.cursor_node is bundle
        assert rows_of(app, tree)[0] == first_row  # not scrolled sideways
        await pilot.press("right")  # open already: into its first entry
        await pilot_wait_until(pilot, lambda: tree.cursor_node is bundle.children[0])
        await pilot.press("right")  # a document has nothing to open: it stays
        await pilot.pause()
        assert tree.cursor_node is bundle.children[0]

        await pilot.press("left")  # out to the bundle holding it, which stays open
        await pilot_wait_until(pilot, lambda: tree.cursor_node is bundle)
        assert bundle.is_expanded
        await pilot.press("left")  # closes it
        await pilot_wait_until(pilot, lambda: not bundle.is_expanded)
        assert tree.cursor_node is bundle
        await pilot.press("left")  # out to the package's root
        await pilot_wait_until(pilot, lambda: tree.cursor_node is tree.root)
        await pilot.press("left")  # the root stays open: the package is always shown
        await pilot.pause()
        assert tree.root.is_expanded and tree.cursor_node is tree.root
        assert rows_of(app, tree)[0] == first_row


async def test_the_files_on_disk_walk_the_same_way(tmp_path: Path) -> None:
    from kas_tui.tui.widgets.files_view import FilesView

    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_wait_until(pilot, lambda: bool(app.screen.query("MetaPane")))
        await pilot.press("f")
        await pilot_wait_until(pilot, lambda: bool(app.screen.query(FilesView)))
        files = app.query_one(FilesView)
        await pilot_wait_until(pilot, lambda: bool(files.root.children))
        files.focus()
        folder = next(n for n in files.root.children if n.data.path == "billing-support")
        files.move_cursor(folder)
        await pilot.press("right")
        await pilot_wait_until(pilot, lambda: folder.is_expanded and bool(folder.children))
        await pilot.press("right")
        await pilot_wait_until(pilot, lambda: files.cursor_node is folder.children[0])
        await pilot.press("left", "left")
        await pilot_wait_until(pilot, lambda: not folder.is_expanded)
        assert files.cursor_node is folder
