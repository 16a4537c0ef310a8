"""The finder's index (``/``): built in a thread worker once the first screen is drawn
(0.4 s holding the GIL at 10,000 documents), built again after every change of the
package, and built on first use when a change overtook the build."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kas_tui.core.memory import give_back_free_memory

if TYPE_CHECKING:
    from kas_tui.features.find.fuzzy import Finder
    from kas_tui.tui.controllers.host import Host


class FindIndex:
    """The package's :class:`~kas_tui.features.find.fuzzy.Finder`, kept up to date."""

    def __init__(self, app: Host) -> None:
        self.app = app
        self.ready: Finder | None = None  # None: not built for the package as it is
        self._generation = 0

    @property
    def finder(self) -> Finder:
        """The finder of the package as it is now (built here if not yet ready)."""
        if self.ready is None:
            from kas_tui.features.find.fuzzy import Finder

            self.ready = Finder(self.app.package)
        return self.ready

    def prepare(self) -> None:
        """Build the finder's index in the background (0.4 s at 10,000 documents)."""
        self.ready = None
        self._generation += 1
        generation = self._generation
        self.app.run_worker(
            lambda: self._build(generation), name="_build_finder", group="finder", thread=True
        )

    def _build(self, generation: int) -> None:
        from kas_tui.features.find.fuzzy import Finder

        try:
            finder = Finder(self.app.package, give_way=self.app.foreground.give_way)
        except RuntimeError:  # the package changed under the build: build on first use
            return
        give_back_free_memory()  # what building the index took: 6 MB at 50,000 documents
        self.app.call_from_thread(self._built, generation, finder)

    def _built(self, generation: int, finder: Finder) -> None:
        """Keep the finder unless the package changed since its build began."""
        if generation == self._generation and self.ready is None:
            self.ready = finder
