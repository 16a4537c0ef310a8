"""The navigation tree: the agent's map, index entries in index order."""

from __future__ import annotations

import datetime as dt
import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets._tree import TOGGLE_STYLE
from textual.widgets.tree import TreeNode

from kas_tui.core.package import Package
from kas_tui.core.records import Listing
from kas_tui.features.check.findings import Finding
from kas_tui.text.description_verdicts import drifted
from kas_tui.tui.commands import pane_bindings
from kas_tui.tui.palette import trust_mark

_RANK = {"error": 0, "warning": 1, "info": 2}
_SYMBOL = {"error": "✗", "warning": "!", "info": "i"}
_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


@dataclass(frozen=True)
class NodeRef:
    """What a tree node stands for: ``root``, ``bundle``, ``document`` or another listing kind."""

    kind: str
    path: str
    listing: Listing | None = None
    loaded: bool = False


#: j and k move the cursor down and up as the arrows do (J and K move an entry).
VI_KEYS = [
    Binding("j", "cursor_down", "Down", show=False),
    Binding("k", "cursor_up", "Up", show=False),
    # as every file tree has them (not a sideways scroll, which cut each line's start)
    Binding("right", "step_in", "Open", show=False),
    Binding("left", "step_out", "Close", show=False),
]
#: The fewest characters of a title kept when it is shortened for the flags after it.
TITLE_LEAST = 8


class StepKeys:
    """→ and ← of a file tree (:data:`VI_KEYS`): → opens the folder under the cursor, or
    goes to its first entry when it is open; ← closes it (never the root: the package),
    or goes to the folder holding it."""

    def action_step_in(self) -> None:
        tree: Tree = self  # type: ignore[assignment]  # mixed into a Tree
        node = tree.cursor_node
        if node is None or not node.allow_expand:
            return
        if not node.is_expanded:
            node.expand()
        elif node.children:
            tree.move_cursor(node.children[0])

    def action_step_out(self) -> None:
        tree: Tree = self  # type: ignore[assignment]  # mixed into a Tree
        node = tree.cursor_node
        if node is None:
            return
        if node.is_expanded and node is not tree.root:
            node.collapse()
        elif node.parent is not None:
            tree.move_cursor(node.parent)


def node_ancestors(node: TreeNode[NodeRef]):
    """The nodes above ``node``, its parent first (the root last)."""
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _title_shortened(text: Text, start: int, end: int, room: int) -> Text:
    """``text`` (marks, title, flags) in ``room`` columns, the title between ``start``
    and ``end`` ending with "…" (never shorter than TITLE_LEAST characters)."""
    over = text.cell_len - room
    keep = max(TITLE_LEAST, end - start - over - 1)
    if keep >= end - start:
        return text
    title = text[start:end]
    title.truncate(keep)
    title.append("…")
    return Text.assemble(text[:start], title, text[end:])


class NavTree(StepKeys, Tree[NodeRef]):
    """Index entries with their one-sentence descriptions; bundles expand lazily."""

    BINDINGS = [*pane_bindings("tree"), *VI_KEYS]

    #: Files an agent walk or replay read (``read``) or peeked at (``peeked``), by path.
    visited: Mapping[str, str] = MappingProxyType({})

    def __init__(self, package: Package, today: dt.date, **kwargs) -> None:
        super().__init__(self._root_label(package), data=NodeRef("root", ""), **kwargs)
        self._widths: dict[int, tuple[Text, int]] = {}  # node id -> (label, width)
        self.package = package
        self.today = today
        self.show_root = True
        self.guide_depth = 3
        self.marks: dict[str, tuple[str, int]] = {}  # path -> (worst severity, count)

    def _root_label(self, package: Package) -> Text:
        name = package.skill.name if package.skill and package.skill.name else package.name
        skill = f"  · {package.skill_file}" if package.skill else "  · no SKILL.md"
        label = Text.assemble((name, "bold"), (skill, "bright_black" if package.skill else "red"))
        return label + self._visit_mark("SKILL.md") + self._visit_mark("index.md", "index ")

    def on_mount(self) -> None:
        self.rebuild()

    def set_marks(self, findings: Iterable[Finding]) -> None:
        """Mark the nodes of files with findings (worst severity and count), and relabel."""
        marks: dict[str, tuple[str, int]] = {}
        for finding in findings:
            worst, count = marks.get(finding.path, ("info", 0))
            if _RANK[finding.severity] < _RANK[worst]:
                worst = finding.severity
            marks[finding.path] = (worst, count + 1)
        self.marks = marks
        for node in self._walk(self.root):
            ref = node.data
            if ref is not None and ref.listing is not None:
                node.set_label(self._label(ref.listing))

    def _mark(self, path: str) -> Text:
        worst, count = self.marks.get(path, ("", 0))
        if not count:
            return Text()
        return Text(f" {_SYMBOL[worst]}{count}", _STYLE[worst])

    def rebuild(self) -> None:
        """Rebuild from the package, keeping expanded bundles open."""
        open_folders = {
            n.data.path
            for n in self._walk(self.root)
            if n.data and n.data.kind == "bundle" and n.is_expanded
        }
        self.root.remove_children()
        self._widths.clear()
        self.root.set_label(self._root_label(self.package))
        self._populate(self.root, "", open_folders)
        self.root.expand()

    def _walk(self, node: TreeNode[NodeRef]):
        yield node
        for child in node.children:
            yield from self._walk(child)

    def _populate(self, node: TreeNode[NodeRef], folder: str, open_folders: set[str]) -> None:
        if not self.package.complete:  # a preview reads a folder when it is opened
            self.package.read_folder(folder)
        listed: set[str] = set()
        for listing in self.package.listings(folder):
            listed.add(listing.path)
            if listing.kind == "bundle":
                child = node.add(
                    self._label(listing), data=NodeRef("bundle", listing.path, listing)
                )
                if listing.path in open_folders:
                    self._populate(child, listing.path, open_folders)
                    child.expand()
            else:
                node.add_leaf(
                    self._label(listing), data=NodeRef(listing.kind, listing.path, listing)
                )
        unlisted = [sub for sub in self.package.subfolders(folder) if sub not in listed]
        bundles = self.package.bundles() if unlisted else set()  # a walk of every document
        for sub in unlisted:
            if sub in bundles:
                name = sub.rsplit("/", 1)[-1]
                label = Text.assemble(
                    ("? ", "magenta"), (f"{name}/", "italic cyan"), ("  not in index.md", "magenta")
                )
                child = node.add(label, data=NodeRef("bundle", sub))
                if sub in open_folders:
                    self._populate(child, sub, open_folders)
                    child.expand()
        for doc in self.package.documents_in(folder):
            if doc.path not in listed:
                label = Text.assemble(
                    ("? ", "magenta"), (doc.title, "italic"), ("  not in index.md", "magenta")
                )
                node.add_leaf(label, data=NodeRef("document", doc.path))

    def get_label_width(self, node: TreeNode[NodeRef]) -> int:
        """What Textual's would say (the label drawn, with its toggle), without drawing it:
        Textual asks for every line's width whenever a bundle opens, and drawing 10,000
        labels for it held every key for a quarter of a second."""
        label = node._label  # replaced by set_label, never changed in place
        known = self._widths.get(node._id)
        if known is None or known[0] is not label:
            toggle = cell_len(self.ICON_NODE) if node._allow_expand else 0
            known = self._widths[node._id] = (label, label.cell_len + toggle)
        return known[1]

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeRef]) -> None:
        node = event.node
        if node.data and node.data.kind == "bundle" and not node.children:
            self.app.foreground.busy()  # type: ignore[attr-defined]  # indexing waits
            self._populate(node, node.data.path, set())

    def _label(self, listing: Listing, room: int | None = None) -> Text:
        """The entry's line: its marks, title, flags and description. ``room``: the
        columns it has; a title too long to leave its flags (``[deprecated]``,
        ``[stale]``, findings) visible in them ends with "…" instead."""
        entry = listing.entry
        text = Text()
        title_at = title_end = 0
        if listing.kind == "document":
            doc = self.package.documents[listing.path]
            mark, style = trust_mark(doc.trust_tier)
            if doc.problems and any(p.severity == "error" for p in doc.problems):
                mark, style = "✗", "red"
            text.append(f"{mark} ", style)
            title_at = len(text)
            text.append(entry.title, "bold" if doc.status == "stable" else "")
            title_end = len(text)
            if doc.status != "stable":
                text.append(f" [{doc.status}]", "yellow" if doc.status == "draft" else "red")
            if doc.staleness(self.today).state == "stale":
                text.append(" [stale]", "red")
            if drifted(entry.description, doc.description):
                text.append(" ≠", "yellow")  # the entry says something else than the document
            home = posixpath.dirname(listing.path)
            if home != posixpath.dirname(listing.index):  # listed here, living in a bundle
                text.append(f" ↪ {home}/", "cyan")
        elif listing.kind == "bundle":
            text.append(entry.title, "bold cyan")
            title_end = len(text)
        else:
            text.append("✗ " if listing.kind in ("missing", "outside") else "↗ ", "red")
            title_at = len(text)
            text.append(entry.title)
            title_end = len(text)
            text.append(f" [{listing.kind}]", "red" if listing.kind != "external" else "blue")
        text.append_text(self._mark(listing.path))
        if listing.kind == "bundle":
            text.append_text(self._mark(f"{listing.path}/index.md"))
        if listing.kind == "bundle":
            text.append_text(self._visit_mark(f"{listing.path}/index.md", "index "))
        else:
            text.append_text(self._visit_mark(listing.path))
        if room is not None and title_end < len(text) and text.cell_len > room:
            text = _title_shortened(text, title_at, title_end, room)
        if entry.description:
            text.append(f" — {entry.description}", "bright_black")
        else:
            text.append(" — (no description)", "red italic")
        return text

    def render_label(self, node: TreeNode[NodeRef], base_style: Style, style: Style) -> Text:
        """Textual's label, its title shortened when the flags after it would be cut
        (a narrow tree: 80 columns, or beside the files view)."""
        ref = node.data
        if ref is None or ref.listing is None:
            return super().render_label(node, base_style, style)
        toggle = cell_len(self.ICON_NODE) if node._allow_expand else 0
        depth = sum(1 for _ in node_ancestors(node))
        room = self.scrollable_content_region.width - depth * self.guide_depth - toggle
        if room <= 0 or node._label.cell_len <= room:
            return super().render_label(node, base_style, style)
        label = self._label(ref.listing, room)
        label.stylize(style)
        if node._allow_expand:
            icon = self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE
            return Text.assemble((icon, base_style + TOGGLE_STYLE), label)
        return Text.assemble(("", base_style), label)

    def set_visited(self, read: Iterable[str], peeked: Iterable[str]) -> None:
        """Mark the files an agent read or peeked at, open the bundles holding them, relabel."""
        visited = dict.fromkeys(peeked, "peeked") | dict.fromkeys(read, "read")
        self.visited = MappingProxyType(visited)
        for path in visited:
            self._expand_to(path)
        self.root.set_label(self._root_label(self.package))
        for node in self._walk(self.root):
            ref = node.data
            if ref is not None and ref.listing is not None:
                node.set_label(self._label(ref.listing))

    def _visit_mark(self, path: str, prefix: str = "") -> Text:
        how = self.visited.get(path)
        if how is None:
            return Text()
        return Text(f" ◆ {prefix}{how}" if how == "read" else f" ◇ {prefix}{how}", "bold magenta")

    def _expand_to(self, path: str) -> None:
        """Open the bundles on the way to ``path``."""
        node = self.root
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            match = next((c for c in node.children if c.data and c.data.path == folder), None)
            if match is None:
                return
            if not match.children:
                self._populate(match, folder, set())
            match.expand()
            node = match

    def select_path(self, path: str) -> bool:
        """Expand the bundles down to ``path`` and move the cursor to its node."""
        self._expand_to(path)
        target = next((n for n in self._walk(self.root) if n.data and n.data.path == path), None)
        if target is None:
            return False
        # The node's line is known once the tree has laid out the expanded bundles.
        self.call_after_refresh(self.move_cursor, target)
        return True
