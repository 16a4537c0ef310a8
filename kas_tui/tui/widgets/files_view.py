"""The files view: the package folder as it is on disk, marking what the indexes miss."""

from __future__ import annotations

import posixpath

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from kas_tui.core.house_rules import HOUSE_RULES_FILE
from kas_tui.core.package import Package
from kas_tui.tui.commands import pane_bindings
from kas_tui.tui.widgets.nav_tree import VI_KEYS, NodeRef, StepKeys

_ROLES = {
    "index.md": "navigation",
    "log.md": "log",
    "SKILL.md": "discovery",
    HOUSE_RULES_FILE: "house rules",
}


class FilesView(StepKeys, Tree[NodeRef]):
    """Folders and files in name order; folders fill in when first expanded.

    Marks: ``?`` a document or bundle no index lists, ``✗`` a file with problems or an
    index entry whose file is missing, ``·`` an asset.
    """

    BINDINGS = [*pane_bindings("files"), *VI_KEYS]

    def __init__(self, package: Package, **kwargs) -> None:
        super().__init__(
            Text(f"{package.root.name}/", "bold"), data=NodeRef("bundle", ""), **kwargs
        )
        self.package = package
        self.guide_depth = 2

    def on_mount(self) -> None:
        self.rebuild()

    def rebuild(self) -> None:
        """Refill from the package, keeping open folders open."""
        open_folders = {
            n.data.path
            for n in self._iter_nodes(self.root)
            if n.data and n.is_expanded and n.children
        }
        self.root.remove_children()
        self._assets = self._assets_by_folder()
        self._listed = {path for folder in self.package.indexes for path in self._listed_in(folder)}
        self._fill(self.root, "", open_folders)
        self.root.expand()

    def _iter_nodes(self, node: TreeNode[NodeRef]):
        yield node
        for child in node.children:
            yield from self._iter_nodes(child)

    def _assets_by_folder(self) -> dict[str, list[str]]:
        by_folder: dict[str, list[str]] = {}
        for path in self.package.assets:
            by_folder.setdefault(posixpath.dirname(path), []).append(path)
        return by_folder

    def _listed_in(self, folder: str) -> list[str]:
        return [listing.path for listing in self.package.listings(folder)]

    def _fill(self, node: TreeNode[NodeRef], folder: str, open_folders: set[str]) -> None:
        pkg = self.package
        bundles = pkg.bundles()
        for sub in pkg.subfolders(folder):
            label = Text(f"{posixpath.basename(sub)}/", "bold cyan")
            if sub in bundles and sub not in self._listed and folder in pkg.indexes:
                label.append("  ? not in index.md", "magenta")
            if sub in bundles and sub not in pkg.indexes:
                label.append("  ✗ no index.md", "red")
            child = node.add(label, data=NodeRef("bundle", sub))
            child.allow_expand = True
            if sub in open_folders:
                self._fill(child, sub, open_folders)
                child.expand()
        files: list[tuple[str, str]] = []
        prefix = f"{folder}/" if folder else ""
        if not folder and pkg.skill is not None:
            files.append(("SKILL.md", "root"))
        if not folder and (pkg.root / HOUSE_RULES_FILE).is_file():  # hidden, but the package's
            files.append((HOUSE_RULES_FILE, "asset"))
        if folder in pkg.indexes:
            files.append((f"{prefix}index.md", "index"))
        if f"{prefix}log.md" in pkg.logs:
            files.append((f"{prefix}log.md", "log"))
        files += [(doc.path, "document") for doc in pkg.documents_in(folder)]
        files += [(path, "asset") for path in self._assets.get(folder, [])]
        for path, kind in files:
            node.add_leaf(self._file_label(path, kind), data=NodeRef(kind, path))
        for listing in pkg.listings(folder):
            if listing.kind == "missing":
                label = Text.assemble(
                    ("✗ ", "red"),
                    (posixpath.basename(listing.path) or listing.entry.target, "red strike"),
                    (f"  missing: listed by {prefix}index.md line {listing.entry.line}", "red"),
                )
                node.add_leaf(label, data=NodeRef("missing", listing.path, listing))

    def _file_label(self, path: str, kind: str) -> Text:
        pkg = self.package
        name = posixpath.basename(path)
        problems = pkg.problems_of(path)
        if kind == "document":
            doc = pkg.documents[path]
            problems = problems or doc.problems
        text = Text()
        if any(p.severity == "error" for p in problems):
            text.append("✗ ", "red")
        elif problems:
            text.append("! ", "yellow")
        elif kind == "asset":
            text.append("· ", "bright_black")
        else:
            text.append("  ")
        text.append(name, "" if kind != "asset" else "bright_black")
        if name in _ROLES and kind != "document":
            text.append(f"  {_ROLES[name]}", "cyan")
        if kind == "document" and path not in self._listed:
            text.append("  ? not in index.md", "magenta")
        return text

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeRef]) -> None:
        node = event.node
        if node.data and node is not self.root and not node.children:
            self._fill(node, node.data.path, set())

    def select_path(self, path: str) -> bool:
        """Open the folders down to ``path`` and put the cursor on it."""
        node = self.root
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            match = next((c for c in node.children if c.data and c.data.path == folder), None)
            if match is None:
                return False
            if not match.children:
                self._fill(match, folder, set())
            match.expand()
            node = match
        target = next((c for c in node.children if c.data and c.data.path == path), None)
        if target is None:
            return False
        self.call_after_refresh(self.move_cursor, target)
        return True
