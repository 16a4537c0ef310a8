"""The review queue: one list of what in a package needs a human, grouped and counted.

:func:`review_queue` reads a loaded :class:`~kas_tui.core.package.Package` on a given day and
returns a :class:`Queue`: rows grouped by reason (:data:`GROUPS`, most pressing first),
each naming the document, the reason and a detail ("stale since 2026-10-01 (60 days)"),
and the counts of documents by trust tier and by status for a header. Every verdict
comes from :mod:`kas_tui.core.okf.lifecycle` (trust tier, status, staleness, the age of a
timestamp); broken links are what ``check`` finds (its rules OKF120, OKF121 and
KAS034, run here); changed sources are :mod:`kas_tui.features.review.source_changes`'.

Who is in which group:

- ``stale``, ``going-stale``: past their ``stale_after``, or reaching it within
  ``soon_days`` days; ``never-verified`` (no ``verified``), ``machine-verified`` (no
  ``human:`` verifier): documents in use, that is neither deprecated (retired: only
  where they are still offered matters) nor drafts (a draft is verified when it becomes
  stable; a draft left too long is an old draft);
- ``old-draft``: ``status: draft`` for more than ``draft_days`` days. Its age is counted
  from ``generated.at``; without one, from the legacy ``timestamp`` (OKF 0.1's
  ``generated.at``); without either, from its oldest ``verified[].at``; a draft with
  none of them is listed as undated (its age cannot be told, so it cannot be shown to
  be young either);
- ``deprecated-listed``: a deprecated document still offered without a word of it: an
  index entry listing it whose title and description do not say so
  (:func:`~kas_tui.core.okf.lifecycle.entry_says_lifecycle`, what ``D`` writes is
  :data:`~kas_tui.core.okf.lifecycle.DEPRECATED_NOTE`), or a link from a document that is
  not deprecated itself, whose text and lines (its own and the ones before and after) do
  not say so (the package's backlinks);
- ``broken-link``: a link to a file that does not exist or leaves the package, or an
  index entry pointing at one; the row names the file holding it;
- ``changed-source``: see :mod:`kas_tui.features.review.source_changes`.

A document whose frontmatter cannot be read is in no lifecycle group (``check`` reports
it). A document may be in several groups (stale and never verified).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.core.okf.lifecycle import (
    STATUSES,
    Status,
    TrustTier,
    days_since,
    entry_says_lifecycle,
    instant,
)
from kas_tui.features.check.computations import is_computation
from kas_tui.features.review.source_changes import SourceChange, changed_sources
from kas_tui.text.wording import counted

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.core.records import Document

SOON_DAYS = 30
DRAFT_DAYS = 30

#: The codes of the check rules whose findings are the queue's broken links.
BROKEN_LINK_RULES = ("OKF120", "OKF121", "KAS034")
#: The codes of the package's own rules (.kas-tui.yaml): the queue's "house-rules" rows.
HOUSE_RULE_CODES = ("PRF",)


@dataclass(frozen=True)
class Group:
    """A reason a document needs a human: ``id`` (stable: ``--fail-on`` and JSON use
    it), a ``title`` and what it means."""

    id: str
    title: str
    help: str


#: The groups, most pressing first.
GROUPS: tuple[Group, ...] = (
    Group("stale", "Stale", "past their stale_after date"),
    Group("changed-source", "Changed sources", "a source changed since it was recorded"),
    Group("broken-link", "Broken links", "a link or index entry leads nowhere"),
    Group(
        "deprecated-listed",
        "Deprecated, still offered",
        "deprecated but listed in an index or linked without a note",
    ),
    Group("house-rules", "Against the house rules", "breaks a rule of the package's .kas-tui.yaml"),
    Group("going-stale", "Going stale", "reaching stale_after soon"),
    Group("old-draft", "Old drafts", "drafts older than the draft limit"),
    Group("never-verified", "Never verified", "no verified entry"),
    Group("machine-verified", "Only machine-verified", "verified, but by no human"),
)
BY_ID = {g.id: g for g in GROUPS}


@dataclass(frozen=True)
class Row:
    """One thing to review: ``path`` is the file to open and act on (a document, or for a
    broken link the file holding it), ``detail`` says what is wrong, ``at`` is where it
    is written as (file, line) when it has a line, ``source`` the changed source."""

    group: str
    path: str
    detail: str
    at: tuple[str, int] | None = None
    source: SourceChange | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        """What identifies the row from one computation of the queue to the next."""
        return (self.group, self.path, self.detail)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "detail": self.detail}
        if self.at is not None:
            out["at"] = {"path": self.at[0], "line": self.at[1]}
        if self.source is not None:
            out["source"] = {"resource": self.source.resource, "kind": self.source.kind}
        return out


@dataclass
class Queue:
    """The review queue of a package on ``today`` (see :func:`review_queue`)."""

    package: str
    today: dt.date
    soon_days: int
    draft_days: int
    documents: int = 0
    unreadable: int = 0
    trust: dict[str, int] = field(default_factory=dict)
    status: dict[str, int] = field(default_factory=dict)
    groups: dict[str, list[Row]] = field(default_factory=dict)

    def rows(self) -> list[Row]:
        """Every row, group by group in :data:`GROUPS` order."""
        return [row for g in GROUPS for row in self.groups.get(g.id, [])]

    def count(self, group: str) -> int:
        return len(self.groups.get(group, []))

    @property
    def total(self) -> int:
        return sum(len(rows) for rows in self.groups.values())

    def title(self, group: str) -> str:
        """A group's title with its limit in days, where it has one."""
        if group == "going-stale":
            return f"Going stale within {counted(self.soon_days, 'day')}"
        if group == "old-draft":
            return f"Drafts older than {counted(self.draft_days, 'day')}"
        return BY_ID[group].title

    def trust_line(self) -> str:
        """``12 human-reviewed · 3 machine-confirmed · 2 unverified``."""
        return " · ".join(f"{n:,} {tier}" for tier, n in self.trust.items())

    def status_line(self) -> str:
        """``14 stable · 2 draft · 1 deprecated``."""
        return " · ".join(f"{n:,} {name}" for name, n in self.status.items())


def review_queue(
    pkg: Package,
    today: dt.date,
    *,
    soon_days: int = SOON_DAYS,
    draft_days: int = DRAFT_DAYS,
) -> Queue:
    """The review queue of ``pkg`` on ``today`` (see the module docstring)."""
    if soon_days < 0 or draft_days < 0:
        raise ValueError("soon_days and draft_days are whole numbers of days, 0 or more")
    queue = Queue(pkg.name, today, soon_days, draft_days)
    groups: dict[str, list[Row]] = {g.id: [] for g in GROUPS}
    readable = [pkg.documents[p] for p in sorted(pkg.documents) if not pkg.documents[p].broken]
    queue.documents = len(readable)
    queue.unreadable = len(pkg.documents) - len(readable)
    tiers = Counter(doc.trust_tier for doc in readable)
    queue.trust = {str(t): tiers[t] for t in reversed(TrustTier)}
    statuses = Counter(str(doc.status) for doc in readable)
    queue.status = {str(s): statuses.pop(str(s), 0) for s in STATUSES} | dict(
        sorted(statuses.items())
    )
    for doc in readable:
        state = doc.status
        if state is Status.DEPRECATED:
            continue
        _lifecycle_rows(doc, today, soon_days, groups)
        if state is Status.DRAFT:
            _draft_row(doc, today, draft_days, groups)
        else:
            _trust_row(doc, groups)
    groups["changed-source"] = [
        Row("changed-source", c.document, c.detail, source=c) for c in changed_sources(pkg)
    ]
    groups["broken-link"] = _findings_rows(pkg, today, BROKEN_LINK_RULES, "broken-link")
    groups["house-rules"] = _findings_rows(pkg, today, HOUSE_RULE_CODES, "house-rules")
    groups["deprecated-listed"] = _deprecated_offered(pkg, readable)
    queue.groups = groups
    return queue


def _lifecycle_rows(doc: Document, today: dt.date, soon: int, groups: dict[str, list[Row]]) -> None:
    state = doc.staleness(today)
    if state.state not in ("stale", "fresh"):
        return
    on = (today + dt.timedelta(days=state.days)).isoformat()
    if state.state == "stale":
        late = -state.days
        since = "today" if late == 0 else counted(late, "day")
        detail = f"stale since {on} ({since})"
        if is_computation(doc.meta):  # OKF §10.5: consumers refuse to run it: first
            detail += ": an Attested Computation, which consumers refuse to run"
            groups["stale"].insert(
                _computations_first(groups["stale"]), Row("stale", doc.path, detail)
            )
        else:
            groups["stale"].append(Row("stale", doc.path, detail))
    elif state.days <= soon:
        groups["going-stale"].append(
            Row("going-stale", doc.path, f"stale on {on} (in {counted(state.days, 'day')})")
        )


def _computations_first(rows: list[Row]) -> int:
    """Where a stale computation's row goes: after the stale computations already there."""
    return sum(1 for row in rows if "an Attested Computation" in row.detail)


def _trust_row(doc: Document, groups: dict[str, list[Row]]) -> None:
    tier = doc.trust_tier
    if tier is TrustTier.UNVERIFIED:
        groups["never-verified"].append(Row("never-verified", doc.path, "no verified entry"))
    elif tier is TrustTier.MACHINE_CONFIRMED:
        verifiers = _verifiers(doc.meta)
        groups["machine-verified"].append(
            Row("machine-verified", doc.path, "verified only by " + ", ".join(verifiers))
        )


def _verifiers(meta: dict[str, Any]) -> list[str]:
    verified = meta.get("verified")
    entries = [verified] if isinstance(verified, dict) else verified or []
    names = [str(v.get("by", "")) for v in entries if isinstance(v, dict)]
    return sorted({n for n in names if n}) or ["no one named"]


def _draft_date(meta: dict[str, Any]) -> tuple[str, Any]:
    """The timestamp a draft's age is counted from, and its name (see the docstring)."""
    generated = meta.get("generated")
    if isinstance(generated, dict) and instant(generated.get("at")) is not None:
        return "generated.at", generated["at"]
    if instant(meta.get("timestamp")) is not None:
        return "timestamp", meta["timestamp"]
    verified = meta.get("verified")
    entries = [verified] if isinstance(verified, dict) else verified or []
    stamps = [v.get("at") for v in entries if isinstance(v, dict)]
    dated = [(instant(s), s) for s in stamps if instant(s) is not None]
    if dated:
        return "the first verified.at", min(dated, key=lambda pair: pair[0])[1]
    return "", None


def _draft_row(doc: Document, today: dt.date, limit: int, groups: dict[str, list[Row]]) -> None:
    name, value = _draft_date(doc.meta)
    if not name:
        detail = "draft, undated: no generated.at to tell its age"
        groups["old-draft"].append(Row("old-draft", doc.path, detail))
        return
    age = days_since(value, today)
    if age is not None and age > limit:
        when = instant(value)
        assert when is not None
        day = when.astimezone(dt.timezone.utc).date().isoformat()
        detail = f"draft for {counted(age, 'day')} ({name} {day})"
        groups["old-draft"].append(Row("old-draft", doc.path, detail))


def _findings_rows(pkg: Package, today: dt.date, codes: tuple[str, ...], group: str) -> list[Row]:
    """What ``check`` reports under ``codes`` (broken links, the house rules), one row
    each, by file and line."""
    from kas_tui.features.check import check

    report = check(pkg, agent_ready=True, today=today, select=codes)
    rows = []
    for finding in report.findings:
        line = finding.line if isinstance(finding.line, int) else None
        at = (finding.path, line) if line else None
        detail = f"line {line}: {finding.message}" if line else finding.message
        rows.append(Row(group, finding.path, detail, at))
    return rows


def _deprecated_offered(pkg: Package, readable: list[Document]) -> list[Row]:
    deprecated = {d.path for d in readable if d.status is Status.DEPRECATED}
    if not deprecated:
        return []
    rows = []
    listings = [
        listing
        for index in pkg.indexes.values()
        for listing in index.listings
        if listing.kind == "document" and listing.path in deprecated
    ]
    for listing in sorted(listings, key=lambda item: (item.path, item.index, item.entry.line)):
        entry = listing.entry
        if not entry_says_lifecycle(entry.title, entry.description):
            detail = f"listed in {listing.index}:{entry.line} without a note"
            rows.append(Row("deprecated-listed", listing.path, detail, (listing.index, entry.line)))
    lines: dict[str, list[str]] = {}  # a linking file's lines, read once
    for path in sorted(deprecated):
        unnoted: dict[str, list[int]] = {}  # linking document -> lines of unnoted links
        for source, link in sorted(pkg.backlinks(path), key=lambda b: (b[0], b[1].line)):
            if source in deprecated:
                continue  # a retired page linking to another
            if source not in lines:
                try:
                    lines[source] = pkg.read_text(source).splitlines()
                except (OSError, ValueError):
                    lines[source] = []
            # the link's line and the lines around it: a note is often the sentence's start
            said = " ".join(lines[source][max(0, link.line - 2) : link.line + 1])
            if not entry_says_lifecycle(link.text, said):
                unnoted.setdefault(source, []).append(link.line)
        for source, at in unnoted.items():
            more = f" ({counted(len(at), 'link')})" if len(at) > 1 else ""
            detail = f"linked from {source}:{at[0]} without a note{more}"
            rows.append(Row("deprecated-listed", path, detail, (source, at[0])))
    return rows


def group_ids(text: str) -> tuple[list[str], list[str]]:
    """The group ids named in a comma-separated ``text`` (``all`` names every group), and
    the names that are not group ids."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if "all" in names:
        names = [g.id for g in GROUPS] + [n for n in names if n != "all"]
    known = [n for n in dict.fromkeys(names) if n in BY_ID]
    return known, [n for n in names if n not in BY_ID and n != "all"]
