"""Did you mean: the paths closest to one that does not exist (a broken link's
destination, a mistyped gold path), for a message or a picker to start with."""

from __future__ import annotations

from rapidfuzz import fuzz, process


def nearest_paths(target: str, paths: list[str], *, limit: int | None = None, cutoff: float = 0):
    """``paths`` ordered by how close each is to the path ``target`` that does not exist
    (a broken link's destination, a mistyped gold path), closest first, ties by name:
    what "did you mean" offers and what a picker for the file meant starts with."""
    wanted = target.strip().lstrip("./").lstrip("/")
    scored = process.extract(wanted, paths, scorer=fuzz.WRatio, limit=None, score_cutoff=cutoff)
    ranked = sorted(scored, key=lambda hit: (-hit[1], hit[0]))
    return [path for path, _, _ in ranked[:limit]]
