"""Pages dated in their names (a blog's ``2014-05-06-jekyll-turns-2-0-0.md``, a
Docusaurus blog's ``2021-03-09-release/index.md``) put into runs of years: a folder of
posts too long for one index is split as its readers look for a post, by when it was
written, not by the words its titles happen to share ("Turns", "Jekyll's")."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from kas_tui.text.grouping import Group

_DATED = re.compile(r"^((?:19|20)\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[-_]|$)")
#: Names of a page that is its folder's (a dated folder's own page).
_FOLDER_PAGES = frozenset({"index", "readme", "_index"})


def dated_year(path: str) -> str | None:
    """The year a page's name dates it to, its folder's for a folder's own page
    (``index.md``); ``None`` when its name carries no date."""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if stem.lower() in _FOLDER_PAGES:
        stem = posixpath.basename(posixpath.dirname(path))
    found = _DATED.match(stem)
    return found.group(1) if found else None


def year_runs(members: Sequence[tuple[str, str]], capacity: int) -> list[Group]:
    """``members`` ((key, year) pairs) in runs of consecutive years, each of at most
    ``capacity`` members unless one year alone holds more; labelled by the year, or
    "2014 to 2016". One year, or no members: no runs."""
    years: dict[str, list[str]] = {}
    for key, year in sorted(members, key=lambda m: (m[1], m[0])):
        years.setdefault(year, []).append(key)
    if len(years) < 2:
        return []
    runs: list[tuple[list[str], list[str]]] = []  # (years, keys)
    for year, keys in years.items():
        if runs and len(runs[-1][1]) + len(keys) <= capacity:
            runs[-1][0].append(year)
            runs[-1][1].extend(keys)
        else:
            runs.append(([year], list(keys)))
    if len(runs) < 2:
        return []
    return [
        Group(first if first == last else f"{first} to {last}", keys)
        for (first, *_rest, last), keys in ((y if len(y) > 1 else [y[0], y[0]], k) for y, k in runs)
    ]
