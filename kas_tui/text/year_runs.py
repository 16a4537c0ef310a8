"""Pages dated in their names (a blog's ``2014-05-06-jekyll-turns-2-0-0.md``, a
Docusaurus blog's ``2021-03-09-release/index.md``) put into runs of years: a folder of
posts too long for one index is split as its readers look for a post, by when it was
written, not by the words its titles happen to share ("Turns", "Jekyll's")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kas_tui.text.grouping import Group

#: A name opening with the date a post was written (Jekyll's ``_posts`` rule: a month
#: and day of one or two digits), then its title after a hyphen.
_DATED = re.compile(r"^((?:19|20)\d\d)-(\d{1,2})-(\d{1,2})(?:[-_](.*))?$")


def post_date(name: str) -> tuple[str, str, str, str] | None:
    """(year, month, day, title) of a file's or folder's name that opens with the date
    it was written (``2014-05-06-jekyll-turns-2-0-0``: the month and day as written);
    ``None`` when it carries no date, or no month or day there is."""
    found = _DATED.match(name)
    if not found or not (1 <= int(found.group(2)) <= 12 and 1 <= int(found.group(3)) <= 31):
        return None
    year, month, day, title = found.groups()
    return year, month, day, title or ""


def dated_year(name: str) -> str | None:
    """The year a page's name (its stem; a folder's own page's, its folder's) dates
    it to; ``None`` when it carries no date."""
    dated = post_date(name)
    return dated[0] if dated else None


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
