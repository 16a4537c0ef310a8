"""Sub-bundles by title range: the last resort for a folder too large for one index.

A folder whose index would not fit is split into topical groups (:mod:`.grouping`). When
its documents share no words to tell them apart (70 health sets titled alike, a folder of
made-up words), or the groups are already nested as deep as the build lets them go, the
folder is split the way a printed index or an encyclopedia's volumes are: its documents
in title order, cut into runs that each fit, each named by where it starts and ends
("ActiveSync to IMAP"). An agent looking for a named thing can tell which run holds it,
and no index is left over its budget.

A cut falls where the titles' first word changes when one is near (the "ActiveSync"
titles stay together), so that a run's name says what it holds. The leading words most
titles share ("Troubleshooting") name no run, and the titles without them are filed by
their own first word, as a printed index files them; unless those others share
leading words of their own: then each lead names a family ("No access key to No
constant condition", "Use array literals to Use yield"), and none is dropped.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from kas_tui.text.grouping import Group

#: How far (a share of a run's size) a cut may move to fall where the first word changes.
_SLACK = 0.2
#: Most words a run's name takes from a title.
_MOST_WORDS = 4


def title_ranges(members: Sequence[tuple[str, str]], capacity: int) -> list[Group]:
    """``members`` ((key, title) pairs) in title order, cut into runs of at most about
    ``capacity`` each (at least two runs), each a :class:`Group` named by its first and
    last titles' leading words. Fewer than two members: no runs."""
    if len(members) < 2:
        return []
    shared = _shared_lead([title for _key, title in members])
    rest = [title for _key, title in members if _after(title, shared) == title]
    if shared and len(rest) >= 2 and _shared_lead(rest):
        # the others are a family of their own words (Biome's "No access key" rules
        # beside its "Use array literals" ones): each lead tells its family apart
        shared = ()
    named = [(key, _after(title, shared)) for key, title in members]
    if sum(t[:1].isdigit() for _k, t in named) * 2 > len(named):  # "Table 00 to Table 34"
        named = list(members)  # a numbered series keeps the word it numbers
    ordered = sorted(named, key=lambda m: (natural_order(m[1]), m[0]))
    size = len(ordered)
    # planned smaller than capacity, so runs whose both cuts moved to a word's change
    # still fit
    runs = max(2, math.ceil(size * (1 + 2 * _SLACK) / max(1, capacity)))
    cuts = [0]
    for i in range(1, runs):
        ideal = round(i * size / runs)
        cut = _near_word_change(ordered, ideal, int(size / runs * _SLACK), cuts[-1])
        cuts.append(cut)
    cuts.append(size)
    bounds = [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]
    groups = []
    for n, (a, b) in enumerate(bounds):
        before = ordered[a - 1][1] if n else None
        after = ordered[b][1] if b < size else None
        first, last = ordered[a][1], ordered[b - 1][1]
        start, end = _lead(first, before), _lead(last, after)
        if _first_word(start) == _first_word(end):  # "Alert bugan to Alert kobor"
            start = max(start, _lead(first, last), key=len)
            end = max(end, _lead(last, first), key=len)
        label = start if _words(start) == _words(end) else f"{start} to {end}"
        label = label[:1].upper() + label[1:] if label.strip() else "Untitled"
        groups.append(Group(label, [key for key, _title in ordered[a:b]]))
    return groups


def _shared_lead(titles: Sequence[str]) -> tuple[str, ...]:
    """The leading words most titles share ("Troubleshooting" of "Troubleshooting
    ActiveSync Health Set", "Troubleshooting AD Health Set"...): they tell no run apart."""
    split = [_words(t) for t in titles]
    lead: tuple[str, ...] = ()
    while True:
        n = len(lead) + 1
        starts = Counter(w[:n] for w in split if len(w) > n and w[: n - 1] == lead)
        if not starts:
            return lead
        words, count = starts.most_common(1)[0]
        if count * 2 <= len(split):
            return lead
        lead = words


def _after(title: str, lead: tuple[str, ...]) -> str:
    """``title`` without the leading words most titles share, when it starts with them."""
    parts = title.split()
    if len(parts) > len(lead) and _words(" ".join(parts[: len(lead)])) == lead:
        return " ".join(parts[len(lead) :])
    return title


def natural_order(title: str) -> tuple[tuple[int, int, str], ...]:
    """A title's sort key as a person orders titles: "Other 2" before "Other 10", "Step
    9" before "Step 10" (every index a build writes orders its entries so)."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in re.split(r"(\d+)", title.casefold())
        if part
    )


def _words(title: str) -> tuple[str, ...]:
    return tuple(w.casefold() for w in title.split())


def _first_word(title: str) -> str:
    words = _words(title)
    return words[0] if words else ""


def _near_word_change(
    ordered: Sequence[tuple[str, str]], ideal: int, slack: int, after: int
) -> int:
    """The cut nearest ``ideal`` (within ``slack``, past ``after``) where the titles'
    first word changes; else ``ideal``."""
    for step in range(slack + 1):
        for cut in (ideal - step, ideal + step):
            if after < cut < len(ordered) and _first_word(ordered[cut - 1][1]) != _first_word(
                ordered[cut][1]
            ):
                return cut
    return max(after + 1, min(ideal, len(ordered) - 1))


def _lead(title: str, neighbour: str | None) -> str:
    """The fewest leading words of ``title`` that ``neighbour`` does not start with (at
    most ``_MOST_WORDS``): "ActiveSync" beside "Autodiscover", "Mailbox space" beside
    "Mailbox migration"."""
    words = title.split()
    other = _words(neighbour) if neighbour is not None else ()
    for n in range(1, min(len(words), _MOST_WORDS) + 1):
        if _words(" ".join(words[:n])) != other[:n]:
            return " ".join(words[:n])
    return " ".join(words[:_MOST_WORDS])
