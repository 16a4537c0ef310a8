"""The main screen's side panes, sized by the terminal's width (issue 32, items 1 and 4)."""

from __future__ import annotations

import pytest

from kas_tui.tui.pane_widths import BODY_LEAST, LEAST, OUTLINE, pane_widths


def test_at_80_columns_the_tree_and_a_readable_body() -> None:
    widths = pane_widths(80, ["tree"])
    assert (widths.tree, widths.files, widths.outline, widths.detail) == (36, 0, False, 44)


@pytest.mark.parametrize("pane", ["files", "outline"])
def test_at_80_columns_what_is_opened_takes_the_trees_place(pane: str) -> None:
    widths = pane_widths(80, ["tree", pane])
    assert widths.tree == 0
    assert widths.text >= pane_widths(80, ["tree"]).text  # the page no narrower than before
    assert (widths.files >= LEAST["files"]) if pane == "files" else widths.outline


def test_at_120_columns_the_tree_narrows_and_stays() -> None:
    with_outline = pane_widths(120, ["tree", "outline"])
    assert with_outline.tree >= LEAST["tree"] and with_outline.outline
    assert with_outline.detail >= BODY_LEAST + OUTLINE
    with_files = pane_widths(120, ["tree", "files"])
    assert with_files.tree >= LEAST["tree"] and with_files.files >= LEAST["files"]
    assert with_files.detail >= BODY_LEAST


def test_the_pane_opened_longest_ago_gives_way_first() -> None:
    # the outline, then the files view: at 120 the tree gives way, both stay
    both = pane_widths(120, ["tree", "outline", "files"])
    assert (both.tree, both.outline) == (0, True) and both.files >= LEAST["files"]
    # at 80 only the newest stays
    assert pane_widths(80, ["tree", "outline", "files"]).outline is False
    assert pane_widths(80, ["tree", "files", "outline"]).files == 0
    # T asked for the tree last: it stays, the files view gives way
    assert pane_widths(80, ["files", "tree"]) == pane_widths(80, ["tree"])


@pytest.mark.parametrize("width", range(40, 240, 7))
@pytest.mark.parametrize(
    "opened", [["tree"], ["tree", "files"], ["tree", "outline"], ["tree", "files", "outline"]]
)
def test_the_panes_fill_the_width_and_keep_their_least(width: int, opened: list[str]) -> None:
    widths = pane_widths(width, opened)
    assert widths.tree + widths.files + widths.detail == width
    assert widths.tree in (0,) or widths.tree >= LEAST["tree"]
    assert widths.files in (0,) or widths.files >= LEAST["files"]
    if width >= BODY_LEAST + OUTLINE + LEAST["tree"]:  # room for what a reader needs
        assert widths.detail >= BODY_LEAST + (OUTLINE if widths.outline else 0)
