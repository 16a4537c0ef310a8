"""The edit keys (``e``, ``m``, the SKILL.md editor): which editor opens for what is
selected. The editors are screens (screens/); running an edit is controllers/edits.py."""

from __future__ import annotations

from typing import Any

from kas_tui.tui.widgets.nav_tree import NavTree


def edit_selected(app: Any) -> None:
    """``e``: in the tree, edit the entry under the cursor (or SKILL.md at the root);
    elsewhere, the frontmatter of the document shown."""
    tree = app.query_one(NavTree)
    if tree.has_focus and tree.cursor_node is not None:
        ref = tree.cursor_node.data
        if ref is None or ref.kind == "root":
            edit_skill(app)
            return
        if ref.listing is not None:
            from kas_tui.tui.screens.entry_editor import open_entry_editor

            open_entry_editor(app, ref.listing)
            return
    if app.location == "SKILL.md":
        edit_skill(app)
    else:
        edit_meta(app)


def edit_meta(app: Any) -> None:
    path = app.nav.document_shown()
    if path is not None:
        from kas_tui.tui.screens.meta_editor import open_meta_editor

        open_meta_editor(app, path)


def edit_skill(app: Any) -> None:
    if app.package.skill is None:  # nothing to edit: offer to create it
        from kas_tui.tui.screens.create import SKILL, open_create

        open_create(app, SKILL)
        return
    from kas_tui.tui.screens.skill_editor import open_skill_editor

    open_skill_editor(app)
