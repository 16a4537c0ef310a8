"""The path a docs site serves its pages under, learned from the site's own links.

A docfx site on Learn links its pages site-absolute, under the docset's path:
``/dynamics365/business-central/sales-how-send-partial-shipments`` is the page
``sales-how-send-partial-shipments.md`` of the folder being built. Nothing in the
folder says what that path is, but its links do: when many distinct site-absolute
links, their first segments dropped, name pages of the source exactly, those segments
are where the site serves it. Links under that base are then read as links to the
source's pages; links elsewhere (``/training/...``, another docset) stay the site's.

A base needs several distinct links agreeing (:data:`LEAST`) and most of the links
that resolve under any prefix at all (:data:`SHARE`), so one page that happens to share
a name with another site's never makes one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

#: A Markdown link's site-absolute destination (the path only).
_ROOTED = re.compile(r"\]\((/[^)\s#?]+)")
#: Fewest distinct links that must agree on a base.
LEAST = 3
#: Share of the links resolving under some prefix that must resolve under the base.
SHARE = 0.5
#: Most leading segments a base may have.
DEEPEST = 3


def learned_base(bodies: Iterable[str], names_page: Callable[[str], bool], tops: set[str]) -> str:
    """The leading path (``dynamics365/business-central``, no slashes around it) the
    site serves the source's pages under, or ``""`` when its links agree on none.
    ``names_page(rest)`` says whether a path (without ``.md``) is a page of the source;
    ``tops`` are the source's own first path segments (links starting with one are the
    site's root, not a base's)."""
    targets: set[str] = set()
    for body in bodies:
        if "](/" in body:
            targets.update(m.group(1).strip("/") for m in _ROOTED.finditer(body))
    votes: Counter[str] = Counter()
    resolving = 0
    for target in targets:
        parts = target.split("/")
        if not parts[0] or parts[0].lower() in tops:
            continue
        for k in range(1, min(DEEPEST, len(parts) - 1) + 1):
            if names_page("/".join(parts[k:])):
                votes["/".join(parts[:k])] += 1
                resolving += 1
                break
    if not votes:
        return ""
    base, n = votes.most_common(1)[0]
    return base if n >= LEAST and n >= SHARE * resolving else ""


def under_base(path: str, base: str) -> str | None:
    """``path`` (no leading slash) with ``base`` taken off its front, or ``None`` when
    it is not under it."""
    if base and path.startswith(base + "/"):
        return path[len(base) + 1 :]
    return None
