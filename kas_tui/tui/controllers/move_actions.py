"""The app's moves: rename (``r``), move to a bundle (``M``), split (``X``), merge (``U``).

Each asks what it needs (a name, a bundle, the documents of a split), has the move
planned (:mod:`kas_tui.features.moves.planner`: a refusal is the dialog's message), shows how many files
change with the diff one key away, and writes the plan as one undoable action. The tree
and the page shown then follow the moved item; undo (and redo) take them back.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kas_tui.core.okf.errors import EditError
from kas_tui.core.store import ConflictError, StoreError
from kas_tui.features.moves.planner import (
    MovePlan,
    apply_plan,
    into,
    plan_merge,
    plan_move,
    plan_split,
)
from kas_tui.text.wording import counted
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.choose import ChoiceScreen, DiffScreen
from kas_tui.tui.screens.moving import BundlePicker, SplitScreen
from kas_tui.tui.widgets.files_view import FilesView
from kas_tui.tui.widgets.nav_tree import NavTree

if TYPE_CHECKING:
    from kas_tui.core.edit_session import Action
    from kas_tui.tui.controllers.edits import EditController
    from kas_tui.tui.controllers.host import Host
    from kas_tui.tui.controllers.live_reload import Reloader
    from kas_tui.tui.controllers.navigation import Navigation

_KINDS = {"document": "document", "asset": "asset", "bundle": "folder"}


class MoveController:
    """The moves written (each undo or redo of one follows the moved item), and the
    dialogs that plan and confirm them."""

    def __init__(
        self, app: Host, nav: Navigation, edits: EditController, reloader: Reloader
    ) -> None:
        self.app = app
        self.nav = nav
        self.edits = edits
        self.reloader = reloader
        self._move_plans: dict[int, MovePlan] = {}  # id(action) -> the plan it wrote

    # -- what is selected -----------------------------------------------------------

    def _selected(self) -> tuple[str, str] | None:
        """(path, ``document``/``asset``/``folder``) of what the focused tree's cursor
        (else the page shown) stands for; ``None`` with a message when nothing movable."""
        app = self.app
        for tree in (app.query_one(NavTree), app.query_one(FilesView)):
            if tree.has_focus and tree.cursor_node is not None and tree.cursor_node.data:
                ref = tree.cursor_node.data
                kind = _KINDS.get(ref.kind)
                if kind and ref.path:
                    return ref.path, kind
                app.notify(
                    "The package root, SKILL.md, index.md and log.md stay where they are; "
                    "put the cursor on a document, an asset or a bundle",
                    severity="warning",
                )
                return None
        place = self.nav.location
        if place in app.package.documents:
            return place, "document"
        if place and posixpath.basename(place) == "index.md" and posixpath.dirname(place):
            return posixpath.dirname(place), "folder"
        app.notify("Select a document, an asset or a bundle first", severity="warning")
        return None

    def _bundle_at(self) -> str | None:
        """The bundle the cursor (or the page shown) is in or on."""
        selected = self._selected()
        if selected is None:
            return None
        path, kind = selected
        return path if kind == "folder" else posixpath.dirname(path)

    # -- the keys -------------------------------------------------------------------

    def rename(self) -> None:
        """``r``: a new name for the selected document, asset or bundle."""
        selected = self._selected()
        if selected is None:
            return
        src, kind = selected
        app = self.app
        folder = posixpath.dirname(src)
        planned: list[MovePlan] = []

        def check(name: str) -> str | None:
            dst = posixpath.join(folder, name.strip()) if folder else name.strip()
            try:
                planned[:] = [self._plan(lambda log: plan_move(app.package, src, dst, **log))]
            except EditError as exc:
                return str(exc)
            return None

        def answered(name: str | None) -> None:
            if name is not None and planned:
                self._confirm(planned[0], "Rename")

        app.push_screen(
            AskScreen(
                f"Rename {kind}",
                f"New name for {src}{'/' if kind == 'folder' else ''} (every link to it follows):",
                posixpath.basename(src),
                check=check,
            ),
            answered,
        )

    def move_to_bundle(self) -> None:
        """``M``: move the selected document, asset or bundle into a bundle picked from a list."""
        selected = self._selected()
        if selected is None:
            return
        src, kind = selected
        app = self.app

        def picked(folder: str | None) -> None:
            if folder is None:
                return
            try:
                plan = self._plan(
                    lambda log: plan_move(app.package, src, into(app.package, src, folder), **log)
                )
            except EditError as exc:
                app.notify(str(exc), title="Not moved", severity="error", timeout=8)
                return
            self._confirm(plan, "Move")

        below = src + "/"
        bundles = [
            (folder, label)
            for folder, label in self._bundles()
            if folder != posixpath.dirname(src) and not (folder + "/").startswith(below)
        ]
        app.push_screen(
            BundlePicker(f"Move {kind}", f"Move {src} into the bundle:", bundles), picked
        )

    def split_bundle(self) -> None:
        """``X``: move chosen documents of a bundle into a new sub-bundle."""
        bundle = self._bundle_at()
        if bundle is None:
            return
        app = self.app
        planned: list[MovePlan] = []
        documents = [
            (doc.path, f"{doc.title}  ({posixpath.basename(doc.path)})")
            for doc in app.package.documents_in(bundle)
        ]
        if not documents:
            app.notify(f"{bundle or '.'}/ holds no documents to split", severity="warning")
            return

        def check(paths: list[str], name: str, description: str) -> str | None:
            try:
                plan = self._plan(
                    lambda log: plan_split(
                        app.package, bundle, paths, name, description=description, **log
                    )
                )
            except EditError as exc:
                return str(exc)
            planned[:] = [plan]
            return None

        def done(ok: bool | None) -> None:
            if ok and planned:
                self._confirm(planned[0], "Split")

        app.push_screen(SplitScreen(bundle, documents, check), done)

    def merge_bundle(self) -> None:
        """``U``: move everything of the selected bundle into a bundle picked from a list."""
        bundle = self._bundle_at()
        app = self.app
        if bundle is None:
            return
        if not bundle:
            app.notify("The package root cannot be merged into a bundle", severity="warning")
            return

        def picked(target: str | None) -> None:
            if target is None:
                return
            try:
                plan = self._plan(lambda log: plan_merge(app.package, bundle, target, **log))
            except EditError as exc:
                app.notify(str(exc), title="Not merged", severity="error", timeout=8)
                return
            self._confirm(plan, "Merge")

        bundles = [
            (folder, label)
            for folder, label in self._bundles()
            if folder != bundle and not folder.startswith(bundle + "/")
        ]
        app.push_screen(
            BundlePicker(
                "Merge bundle",
                f"Move everything in {bundle}/ into the bundle (its index.md and entry go):",
                bundles,
            ),
            picked,
        )

    # -- planning, confirming, writing ----------------------------------------------

    def _plan(self, make: Callable[[dict[str, Any]], MovePlan]) -> MovePlan:
        return make({"log": self.edits.session.log_edits, "today": self.app.today})

    def _bundles(self) -> list[tuple[str, str]]:
        """(folder, its entry's title or the number of entries) of every bundle with an index."""
        package = self.app.package
        titles = {
            listing.path: listing.entry.title
            for index in package.indexes.values()
            for listing in index.listings
            if listing.kind == "bundle"
        }
        return [
            (folder, titles.get(folder) or counted(len(index.listings), "entry", "entries"))
            for folder, index in sorted(package.indexes.items())
        ]

    def _confirm(self, plan: MovePlan, verb: str) -> None:
        """Say what ``plan`` changes; write it on yes, show its diff on d."""
        app = self.app

        def decided(choice: str | None) -> None:
            if choice == "apply":
                self._write_move(plan)
            elif choice == "diff":
                app.push_screen(
                    DiffScreen(f"{plan.label}: {plan.summary()}", plan.diff(), confirm=verb),
                    lambda yes: self._write_move(plan) if yes else None,
                )

        notes = "".join(f"\n{note}" for note in plan.notes)
        app.push_screen(
            ChoiceScreen(
                verb,
                f"{plan.label}\n{plan.summary()}; ctrl+z undoes it all.{notes}",
                [
                    ("apply", verb),
                    ("diff", "Diff first"),
                    ("cancel", "Cancel"),
                ],
            ),
            decided,
        )

    def _write_move(self, plan: MovePlan) -> None:
        app = self.app
        session = self.edits.session
        session.package = app.package
        try:
            action = session.run(plan.label, lambda pkg: apply_plan(pkg, plan))
        except ConflictError as exc:
            app.notify(
                f"{exc}. Plan the move again to include that change.",
                title="Not moved",
                severity="error",
                timeout=10,
            )
            return
        except (EditError, StoreError, OSError) as exc:
            app.notify(str(exc), title="Not moved", severity="error", timeout=10)
            return
        if action is not None:
            self._move_plans[id(action)] = plan
        self._follow(plan.place, plan.target)
        app.notify(f"{plan.label}: {plan.summary()}", timeout=5)

    def _follow(self, place: Callable[[str], str], item: str, *, refresh: bool = True) -> None:
        """After a move (or its undo or redo): the history and the page shown named as
        ``place`` says, the views refreshed, the tree's cursor on ``item``."""
        self.nav.renamed(place)
        if refresh:
            self.reloader.after_write()
        package = self.app.package
        if item in package.documents:
            self.nav.go(item, transient=True, reveal=True)
        elif item in package.indexes:
            self.nav.go(f"{item}/index.md" if item else "index.md", transient=True, reveal=True)
        else:
            self.nav.reveal(item)

    # -- undo and redo follow the moved item back and forth ----------------------------

    def stepped(self, action: Action | None, *, back: bool) -> None:
        """``action`` was just undone (``back``) or redone: when it is a move, the history,
        the page shown and the tree's cursor follow the moved item."""
        plan = self._move_plans.get(id(action)) if action is not None else None
        if plan is None:
            return  # not a move, or the step was refused
        if back:
            self._follow(plan.place_before, plan.place_before(plan.target), refresh=False)
        else:
            self._follow(plan.place, plan.target, refresh=False)
