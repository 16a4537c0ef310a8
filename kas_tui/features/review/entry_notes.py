"""The index entries a lifecycle edit would leave saying the wrong thing, and what they
should say instead: what ``D`` (deprecate) and ``S`` (extend freshness) offer to fix in
the same undoable action, by the rule ``check --agent-ready`` reports (KAS044,
:func:`~kas_tui.core.okf.lifecycle.entry_note_problem`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from kas_tui.core.okf.lifecycle import (
    agreeing_description,
    entry_note_problem,
    lifecycle_state,
    opening_note,
    staleness,
    status,
)
from kas_tui.core.package import Package


@dataclass(frozen=True)
class NoteFix:
    """One index entry listing the document: where it is, what is wrong (``unsaid`` or
    ``false``, see :func:`~kas_tui.core.okf.lifecycle.entry_note_problem`), the note it
    opens with (``stale``, ``deprecated`` or empty) and the description that agrees."""

    index: str
    line: int
    title: str
    problem: str
    said: str
    description: str


def note_fixes(pkg: Package, path: str, meta: dict[str, Any], today: dt.date) -> list[NoteFix]:
    """The entries listing the document ``path`` that would disagree with it once its
    frontmatter is ``meta`` (on ``today``), each with the description that agrees; those
    the rule cannot mend (a stale document's missing note: only its curator knows why)
    are left out."""
    state = lifecycle_state(status(meta), staleness(meta, today).state)
    fixes = []
    for index in pkg.indexes.values():
        for listing in index.listings:
            if listing.path != path or listing.kind != "document":
                continue
            entry = listing.entry
            problem = entry_note_problem(entry.title, entry.description, state)
            if problem is None:
                continue
            agreeing = agreeing_description(entry.title, entry.description, state)
            if agreeing == entry.description:
                continue
            said = opening_note(entry.description)
            fixes.append(
                NoteFix(
                    listing.index,
                    entry.line,
                    entry.title,
                    problem,
                    said[0] if said else "",
                    agreeing,
                )
            )
    return fixes
