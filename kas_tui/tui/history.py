"""Back and forward through the places visited, as a browser does."""

from __future__ import annotations


class History:
    """Visited places, newest last.

    A *transient* visit (moving the tree cursor) is replaced by the next transient one
    instead of piling up; a link, a find or a jump always stays.
    """

    def __init__(self) -> None:
        self.places: list[str] = []
        self.index = -1
        self._transient = False

    @property
    def current(self) -> str | None:
        return self.places[self.index] if self.places else None

    def visit(self, place: str, *, transient: bool = False) -> None:
        if place == self.current:
            self._transient = self._transient and transient
            return
        del self.places[self.index + 1 :]
        if self._transient and transient and self.places:
            self.places[-1] = place
        else:
            self.places.append(place)
        self.index = len(self.places) - 1
        self._transient = transient

    def back(self) -> str | None:
        if self.index <= 0:
            return None
        self.index -= 1
        self._transient = False
        return self.places[self.index]

    def forward(self) -> str | None:
        if self.index >= len(self.places) - 1:
            return None
        self.index += 1
        self._transient = False
        return self.places[self.index]

    def recent(self, limit: int = 20) -> list[str]:
        """Distinct places, most recent first."""
        seen: list[str] = []
        for place in reversed(self.places[: self.index + 1]):
            if place not in seen:
                seen.append(place)
        return seen[:limit]
