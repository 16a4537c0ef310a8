"""``kas-tui info PKG``: a package on one screen, as ``okf info`` gives it.

Documents by type, trust tiers, statuses, staleness, what the agent pays to discover
and navigate it (the catalog entry and each index, in tokens, against the index
budget), and the largest indexes. Headless: a dict for JSON, lines for the terminal.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from kas_tui.core.okf.lifecycle import STATUSES, TrustTier
from kas_tui.core.package import Package
from kas_tui.features.agent.skill_catalog import catalog_entry
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET, estimate_tokens
from kas_tui.text.wording import counted

#: How many of the largest indexes are listed.
LARGEST = 5


@dataclass
class Info:
    """What :func:`package_info` found (see the module docstring)."""

    name: str
    root: str
    today: dt.date
    documents: int = 0
    unreadable: int = 0
    bundles: int = 0
    types: list[tuple[str, int]] = field(default_factory=list)
    trust: dict[str, int] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)
    staleness: dict[str, int] = field(default_factory=dict)
    catalog_tokens: int = 0
    discoverable: bool = True
    #: ``(index path, entries, tokens)``, every index, largest first
    indexes: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def index_tokens(self) -> int:
        return sum(tokens for _, _, tokens in self.indexes)

    def to_json(self) -> dict[str, Any]:
        return {
            "package": self.name,
            "root": self.root,
            "today": self.today.isoformat(),
            "documents": self.documents,
            "unreadable": self.unreadable,
            "bundles": self.bundles,
            "types": dict(self.types),
            "trust": self.trust,
            "status": self.statuses,
            "staleness": self.staleness,
            "tokens": {
                "catalog_entry": self.catalog_tokens,
                "indexes": self.index_tokens,
                "index_budget": INDEX_TOKEN_BUDGET,
            },
            "discoverable": self.discoverable,
            "indexes": [
                {"path": path, "entries": entries, "tokens": tokens}
                for path, entries, tokens in self.indexes
            ],
        }

    def lines(self, width: int = 80) -> list[str]:
        """The text report, one fact a line (a long list wrapped to ``width``)."""

        def joined(counts: dict[str, int] | list[tuple[str, int]]) -> str:
            items = counts.items() if isinstance(counts, dict) else counts
            return " · ".join(f"{n:,} {name}" for name, n in items) or "none"

        over = [i for i in self.indexes if i[2] > INDEX_TOKEN_BUDGET]
        out = [
            f"{self.name} ({self.root}) on {self.today.isoformat()}",
            f"{counted(self.documents, 'document')} in {counted(self.bundles, 'bundle')}"
            + (f", {self.unreadable:,} unreadable" if self.unreadable else ""),
            f"types: {joined(self.types)}",
            f"trust: {joined(self.trust)}",
            f"status: {joined(self.statuses)}",
            f"staleness: {joined(self.staleness)}",
            f"catalog entry: ~{self.catalog_tokens:,} tokens"
            + ("" if self.discoverable else " (no usable SKILL.md: not discoverable)"),
            f"indexes: {counted(len(self.indexes), 'index', 'indexes')}, "
            f"~{self.index_tokens:,} tokens in all, "
            + (
                f"{len(over):,} over the {INDEX_TOKEN_BUDGET:,}-token budget"
                if over
                else f"none over the {INDEX_TOKEN_BUDGET:,}-token budget"
            ),
        ]
        out = [out[0]] + [wrapped for line in out[1:] for wrapped in _wrap(line, width)]
        if self.indexes:
            out.append("largest indexes:")
            width = max(len(path) for path, _, _ in self.indexes[:LARGEST])
            for path, entries, tokens in self.indexes[:LARGEST]:
                out.append(
                    f"  {path:<{width}}  {counted(entries, 'entry', 'entries'):>12}  "
                    f"~{tokens:,} tokens"
                )
        return out


def _wrap(line: str, width: int) -> list[str]:
    """``line`` in lines of at most ``width``, broken only between its `` · `` items."""
    parts = line.split(" · ")
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " · " + part
        else:
            lines.append("  " + part)
    return lines


def package_info(package: Package, today: dt.date) -> Info:
    """The one-screen summary of ``package`` on ``today``."""
    entry = catalog_entry(package)
    info = Info(package.name, str(package.root), today)
    readable = [d for d in package.documents.values() if not d.broken]
    info.documents = len(readable)
    info.unreadable = len(package.documents) - len(readable)
    info.bundles = len(package.bundles())
    types = Counter(d.type or "(no type)" for d in readable)
    info.types = sorted(types.items(), key=lambda kv: (-kv[1], kv[0]))
    tiers = Counter(str(d.trust_tier) for d in readable)
    info.trust = {str(t): tiers[str(t)] for t in reversed(TrustTier)}
    statuses = Counter(str(d.status) for d in readable)
    info.statuses = {s: statuses.pop(s, 0) for s in map(str, STATUSES)} | dict(statuses)
    info.staleness = dict(Counter(d.staleness(today).state for d in readable).most_common())
    info.catalog_tokens = entry.tokens
    info.discoverable = entry.discoverable
    sizes = []
    for index in package.indexes.values():
        try:
            text = package.read_text(index.path)
        except (OSError, ValueError):
            continue
        sizes.append((index.path, len(index.listings), estimate_tokens(text)))
    info.indexes = sorted(sizes, key=lambda item: (-item[2], item[0]))
    return info
