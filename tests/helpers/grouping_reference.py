"""The topical grouping written the straightforward way (as it was before it was made
fast on folders of thousands of pages): every candidate phrase tried on every member,
every loose member weighed against each group's members one by one. Tests hold
:func:`kas_tui.text.grouping.group` to giving exactly what this gives."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence

from kas_tui.text.grouping import (
    _WORD,
    DESCRIPTION,
    HEADINGS,
    TAGS,
    TITLE,
    Group,
    Member,
    _label,
    fold,
    phrases,
    prefer_first,
)


def reference_group(
    members: Sequence[Member],
    *,
    capacity: int,
    parent_room: int,
    min_size: int = 3,
    context: str = "",
) -> tuple[list[Group], list[str]]:
    """Groups of ``members`` (each at most about ``capacity`` entries; at most
    ``parent_room`` groups and kept documents together), and the keys kept in the
    folder itself. ``context`` is the folder's title and its parents' ("Access",
    "Client", "Office"): their words name what every member is about, so they name no
    group. No groups when nothing can be told apart."""
    members = sorted(members, key=lambda m: m.key)
    shared = {fold(w) for w in _WORD.findall(context)}
    weight: dict[str, dict[str, float]] = {}
    surface: dict[str, Counter[str]] = defaultdict(Counter)
    in_titles: Counter[str] = Counter()
    for m in members:
        w: dict[str, float] = defaultdict(float)
        for text, value in (
            (m.title, TITLE),
            (" ".join(m.tags), TAGS),
            (m.description, DESCRIPTION),
            (" ".join(m.headings), HEADINGS),
        ):
            for phrase, form in phrases(text).items():
                w[phrase] = max(w[phrase], value)
                surface[phrase][form] += 1
        weight[m.key] = dict(w)
        in_titles.update(p for p, v in w.items() if v >= TITLE)
    limit = max(min_size, len(members) // 2)
    candidates = sorted(
        p for p, n in in_titles.items() if min_size <= n <= limit and not set(p.split()) & shared
    )
    holders: dict[str, list[str]] = defaultdict(list)
    for m in members:
        for p in candidates:
            if weight[m.key].get(p, 0.0) >= DESCRIPTION:
                holders[p].append(m.key)
    taken: list[str] = []
    grouped: set[str] = set()
    while len(taken) < parent_room - 1:
        best, best_score = None, (0, 0.0, "")
        for p in candidates:
            if p in taken:
                continue
            fresh = [k for k in holders[p] if k not in grouped]
            if len(fresh) < min_size:
                continue
            title_weight = sum(weight[k][p] for k in fresh)
            score = (min(len(fresh), capacity), title_weight, prefer_first(p))
            if score > best_score:
                best, best_score = p, score
        if best is None:
            break
        fresh = sum(1 for k in holders[best] if k not in grouped)
        for p in candidates:  # "free busy" over "busy" when it says the same
            wider = " " in p and best in p.split() and p not in taken
            if wider and sum(1 for k in holders[p] if k not in grouped) * 4 >= fresh * 3:
                best = p
                break
        taken.append(best)
        grouped.update(holders[best])
        left = len(members) - len(grouped)
        if left + len(taken) <= parent_room and left < min_size:
            break
    if len(taken) < 2:
        return [], [m.key for m in members]
    groups = {p: Group(_label(p, surface[p])) for p in taken}
    loose: list[Member] = []
    for m in members:
        # the label it holds with most weight; of equals, the most specific one
        held = [(weight[m.key].get(p, 0.0), -len(holders[p]), -i, p) for i, p in enumerate(taken)]
        top = max(held)
        if top[0] > 0:
            groups[top[3]].members.append(m.key)
        else:
            loose.append(m)
    kept: list[str] = []
    for m in loose:
        words = set(weight[m.key])
        scores = []
        for i, p in enumerate(taken):
            overlap = sum(
                1 for k in groups[p].members[:200] for q in weight[k] if q in words and q != p
            )
            scores.append((overlap / math.sqrt(len(groups[p].members) + 1), -i, p))
        top = max(scores)
        if top[0] > 0:
            groups[top[2]].members.append(m.key)
        else:
            kept.append(m.key)
    result = [g for g in (groups[p] for p in taken) if g.members]
    return result, kept
