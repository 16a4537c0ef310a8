"""Links both ways in the TUI: the page's links and what cites it (``l``), the package's
broken links (``b``) and a page's neighbourhood two steps out (``w``). The graph is
:meth:`Package.link_graph` (kas_tui/features/graph.py); the lists are pick screens."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text

from kas_tui.core.editing import remove_link, retarget_link
from kas_tui.core.okf.errors import FormatError
from kas_tui.features.graph import GRAPH_KEY, Edge, Graph, build_graph, drawing, graph_if_made
from kas_tui.tui.screens.choose import ChoiceScreen
from kas_tui.tui.screens.links import Citation, LinksScreen
from kas_tui.tui.screens.pick import Item, PickScreen

if TYPE_CHECKING:
    from kas_tui.core.store import Fingerprint
    from kas_tui.tui.controllers.edits import EditController
    from kas_tui.tui.controllers.host import Host
    from kas_tui.tui.controllers.navigation import Navigation


class LinkController:
    """The link views of the page shown and of the package; the link graph they read
    (kept by the package, made in a thread worker when it is not)."""

    def __init__(self, app: Host, nav: Navigation, edits: EditController) -> None:
        self.app = app
        self.nav = nav
        self.edits = edits

    def _line_of(self, rel: str, line: int) -> str:
        try:
            lines = self.app.package.read_text(rel).splitlines()
        except (OSError, FormatError):
            return ""
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""

    def _links_of_page(self) -> list[tuple[str, str, str]]:
        location = self.nav.location
        if location is None:
            return []  # an index entry's message, not a page
        package = self.app.package
        links = []
        for link, target in package.links(location):  # parsed once per page
            kind = target.kind
            if kind == "internal" and target.path not in package.known_paths():
                kind = "missing"
            links.append((link.text, link.target, kind))
        return links

    def _with_graph(self, then: Callable[[Graph], None]) -> None:
        """Call ``then`` with the link graph: at once when it is made, else once a
        background thread has read every page's links (seconds at 10,000 documents)."""
        app = self.app
        package = app.package
        graph = graph_if_made(package)
        if graph is not None:
            then(graph)
            return
        changes = package.changes

        def made(graph: Graph) -> None:
            package.keep_derived(GRAPH_KEY, graph, changes)
            then(graph)

        def build() -> None:
            try:
                graph = build_graph(package)
            except RuntimeError:  # a file changed under the build (a dict resized): again
                app.call_from_thread(self._with_graph, then)
                return
            app.call_from_thread(made, graph)

        app.run_worker(build, thread=True, group="link-graph", exclusive=True, exit_on_error=False)

    def _cited_by(self, graph: Graph) -> list[Citation]:
        location = self.nav.location
        if location is None:
            return []
        return [
            (e.source, e.line, self._line_of(e.source, e.line))
            for e in graph.into.get(location, [])
        ]

    def links(self) -> None:
        """``l``: the page's links and what cites it; follow one, or open a citing line."""
        app = self.app
        links = self._links_of_page()
        ready = graph_if_made(app.package)
        screen = LinksScreen(links, None if ready is None else self._cited_by(ready))
        if ready is None:

            def cite(graph: Graph) -> None:
                cited = self._cited_by(graph)
                if screen.is_attached:
                    screen.cite(cited)
                elif not links and not cited:
                    app.notify("This page has no links, and nothing links to it")
                elif not links:
                    self.links()  # only citations: show them now

            self._with_graph(cite)
            if not links:
                return
        elif not links and not screen.cited_by:
            app.notify("This page has no links, and nothing links to it")
            return

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is None:
                return
            how, value = choice
            if how == "follow":
                self.nav.follow(value)
            else:
                place, _, line = value.rpartition(":")
                self.nav.go_to_line(place, int(line))

        app.push_screen(screen, chosen)

    def broken_links(self) -> None:
        """``b``: every broken link of the package: pick one to open, point or remove it."""
        self._with_graph(self._show_broken)

    def _show_broken(self, graph: Graph) -> None:
        app = self.app
        broken = graph.broken
        if not broken:
            app.notify("No broken links in the package")
            return
        items: list[Item] = [
            (
                f"{e.source}:{e.line}",
                Text.assemble(
                    (f"{e.source}:{e.line}", "bold"),
                    ("  ", ""),
                    (e.text or e.href, ""),
                    ("  → ", "bright_black"),
                    (e.href, "red"),
                ),
                f"{e.source} {e.text} {e.href}",
            )
            for e in broken
        ]

        by_place = {f"{e.source}:{e.line}": e for e in broken}

        def chosen(value: str | None) -> None:
            if value is not None:
                self._act_on_broken(by_place[value])

        app.push_screen(
            PickScreen(
                f"Broken links ({len(broken)})",
                "Links to files the package does not hold; enter opens one or removes it:",
                items,
                placeholder="type to filter (page, text, target)",
            ),
            chosen,
        )

    def _act_on_broken(self, edge: Edge) -> None:
        """Open the page at the broken link, or remove the link and keep its text."""
        base = self.edits.shown_base(edge.source)
        where = f"{edge.source}:{edge.line}"

        def decided(answer: str | None) -> None:
            if answer == "open":
                self.nav.go_to_line(edge.source, edge.line)
            elif answer == "point":
                self._point_elsewhere(edge, base)
            elif answer == "remove":
                self.edits.run_edit(
                    f"remove the link to {edge.href} from {edge.source}",
                    lambda pkg: remove_link(pkg, edge.source, edge.line, edge.href),
                    log=f"Removed the broken link to {edge.href} from {edge.source}.",
                    based_on=base,
                )

        self.app.push_screen(
            ChoiceScreen(
                "Broken link",
                f"{where}: [{edge.text}]({edge.href}): the package holds no such file.",
                [
                    ("open", "Open the page at the link"),
                    ("point", "Point it at another file"),
                    ("remove", "Remove the link, keep its text"),
                ],
            ),
            decided,
        )

    def _point_elsewhere(self, edge: Edge, base: dict[str, Fingerprint]) -> None:
        """Pick the file the broken link should name; rewrite only its destination."""
        from kas_tui.features.find.nearest import nearest_paths

        package = self.app.package
        every = [*package.documents, *(i.path for i in package.indexes.values())]
        target = posixpath.normpath(posixpath.join(posixpath.dirname(edge.source), edge.href))
        paths = nearest_paths(target.split("#", 1)[0], every)  # the likeliest file first
        items: list[Item] = []
        for path in paths:
            doc = package.documents.get(path)
            title = (doc.title if doc is not None else "") or ""
            items.append(
                (path, Text.assemble((path, "bold"), ("  ", ""), (title, "dim")), f"{path} {title}")
            )

        def picked(path: str | None) -> None:
            if path is None:
                return
            self.edits.run_edit(
                f"point the link to {edge.href} in {edge.source} at {path}",
                lambda pkg: retarget_link(pkg, edge.source, edge.line, edge.href, path),
                log=f"Pointed the broken link to {edge.href} in {edge.source} at {path}.",
                based_on=base,
            )

        self.app.push_screen(
            PickScreen(
                "Point the link at",
                f"{edge.source}:{edge.line} links to {edge.href}, which does not exist. The file it means:",
                items,
                placeholder="type to filter (path, title)",
            ),
            picked,
        )

    def neighbourhood(self) -> None:
        """``w``: the page's links and backlinks two steps out, drawn; enter opens one."""
        self._with_graph(self._show_neighbourhood)

    def _show_neighbourhood(self, graph: Graph) -> None:
        app = self.app
        start = self.nav.location
        if start is None or (not graph.out.get(start) and not graph.into.get(start)):
            app.notify("Nothing links here and this page links nowhere in the package")
            return
        lines = drawing(graph, start, 2)
        items: list[Item] = [(start, Text(start, style="bold"), start)]
        for line in lines[1:]:
            arrow = "→" if " → " in line else "←"
            prefix, _, path = line.partition(f" {arrow} ")
            shown = Text.assemble(
                (prefix + " ", "bright_black"), (arrow + " ", "magenta"), (path, "")
            )
            items.append((path, shown, path))

        def chosen(value: str | None) -> None:
            if value is not None:
                self.nav.go(value, reveal=True)

        app.push_screen(
            PickScreen(
                f"Around {start}",
                "→ links to, ← linked from; two steps out. Enter opens a page:",
                items,
                placeholder="type to filter",
            ),
            chosen,
        )
