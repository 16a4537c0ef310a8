"""Pages titled by a release (pytest's 186 announcements, "pytest-8.3.0"; numpy's
release notes, "NumPy 1.26.4 Release Notes") put into runs of versions: a folder of
release notes too long for one index is split as its readers look for one, by version,
not by the words their titles happen to share (pytest's had become "Bug", "Features"
and "Py test", 5.2.0 in one and 5.2.1 in another)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kas_tui.text.grouping import Group

#: The first version a title names: two to four numbers joined by dots, a ``v`` before
#: them at most, no letter, digit or dot before them, no number after them
#: ("pytest-2.2.1:", "v1.26.4", "6.0.0rc1").
_VERSION = re.compile(r"(?<![\w.])v?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?(?:\.(\d{1,4}))?(?!\.?\d)")


def title_version(title: str) -> tuple[int, ...] | None:
    """The version a page's title names (``(8, 3, 0)``); ``None`` when it names none,
    or a year and month ("2024.01" is a date's)."""
    found = _VERSION.search(title)
    if found is None:
        return None
    numbers = tuple(int(n) for n in found.groups() if n is not None)
    if 1900 <= numbers[0] <= 2100:  # a date, or a calendar version: years tell it
        return None
    return numbers


def version_runs(members: Sequence[tuple[str, tuple[int, ...]]], capacity: int) -> list[Group]:
    """``members`` ((key, version) pairs) in runs of consecutive versions, each of at most
    ``capacity`` members unless one minor version alone holds more: a major version's
    releases together when they fit, else its minor versions in runs; labelled "Version
    8.3" or "Versions 8.0 to 8.3". Fewer than two runs: none."""
    minors: dict[tuple[int, int], list[str]] = {}
    for key, version in sorted(members, key=lambda m: (m[1], m[0])):
        minors.setdefault(version[:2], []).append(key)  # type: ignore[index]
    majors: dict[int, list[tuple[int, int]]] = {}
    for minor in minors:
        majors.setdefault(minor[0], []).append(minor)
    runs: list[list[tuple[int, int]]] = []  # each a run of minor versions
    for minor_list in majors.values():
        whole = sum(len(minors[m]) for m in minor_list)
        pieces = [minor_list] if whole <= capacity else [[m] for m in minor_list]
        for piece in pieces:  # a major's minors in runs, or small majors together
            size = sum(len(minors[m]) for m in piece)
            same_major = runs and runs[-1][0][0] == piece[0][0]
            fits = runs and sum(len(minors[m]) for m in runs[-1]) + size <= capacity
            if fits and (same_major or whole <= capacity):
                runs[-1].extend(piece)
            else:
                runs.append(list(piece))
    if len(runs) < 2:
        return []
    return [Group(_label(run[0], run[-1]), [k for m in run for k in minors[m]]) for run in runs]


def _label(first: tuple[int, int], last: tuple[int, int]) -> str:
    low, high = ".".join(map(str, first)), ".".join(map(str, last))
    return f"Version {low}" if low == high else f"Versions {low} to {high}"
