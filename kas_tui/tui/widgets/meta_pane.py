"""The frontmatter pane: every field, typed and readable, and the discovery view of SKILL.md."""

from __future__ import annotations

import datetime as dt
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from kas_tui.core.package import Package
from kas_tui.core.records import Document
from kas_tui.features.agent.skill_catalog import catalog_entry, skill_body_tokens
from kas_tui.tui.palette import trust_text

KNOWN_ORDER = (
    "type",
    "title",
    "description",
    "tags",
    "status",
    "stale_after",
    "resource",
    "sources",
    "generated",
    "verified",
)


def _field(key: str, value: Any) -> Text:
    """A known field in its most readable form; any other as :func:`_value`."""
    if key == "sources" and isinstance(value, list):
        lines = []
        for source in value:
            if isinstance(source, dict):
                head = f"[{source['id']}] " if source.get("id") else ""
                title = str(source.get("title") or "")
                where = str(source.get("resource") or "")
                lines.append(head + " — ".join(part for part in (title, where) if part))
            else:
                lines.append(str(source))
        return Text("\n".join(lines))
    if key in ("generated", "verified"):
        entries = value if isinstance(value, list) else [value]
        if all(isinstance(e, dict) for e in entries):
            return Text("\n".join(f"{e.get('by', '?')}  {e.get('at', '?')}" for e in entries))
    return _value(value)


def _value(value: Any) -> Text:
    """A frontmatter value as plain text (never markup)."""
    if isinstance(value, list):
        if all(isinstance(v, (str, int, float)) for v in value):
            return Text(", ".join(str(v) for v in value))
        return Text("\n".join(_inline(v) for v in value))
    if isinstance(value, dict):
        return Text(_inline(value))
    return Text("" if value is None else str(value))


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "  ".join(f"{k}: {_inline(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_inline(v) for v in value)
    return str(value)


class MetaPane(Static):
    """Shows a document's frontmatter or the SKILL.md catalog entry (in a scrolling,
    focusable frame: a long frontmatter is never out of reach in a short pane)."""

    def show_document(self, package: Package, doc: Document, today: dt.date) -> None:
        tier = doc.trust_tier
        stale = doc.staleness(today)
        summary = Text.assemble(
            (doc.type or "no type", "bold"),
            " · ",
            (doc.status, "green" if doc.status == "stable" else "yellow"),
            " · ",
            trust_text(tier),
            " · ",
            (stale.describe(), "red" if stale.state in ("stale", "invalid") else ""),
        )
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        keys = [k for k in KNOWN_ORDER if k in doc.meta] + [
            k for k in doc.meta if k not in KNOWN_ORDER
        ]
        for key in keys:
            table.add_row(Text(str(key)), _field(str(key), doc.meta[key]))
        listed = package.listed_by(doc.path)
        where = Text(
            f"{doc.path} · listed by {', '.join(listed) if listed else 'no index'}", "bright_black"
        )
        parts: list[Any] = [summary, where, table]
        for problem in doc.problems:
            line = f"line {problem.line}: " if problem.line else ""
            parts.append(Text(f"{problem.severity}: {line}{problem.message}", "red"))
            if problem.hint:
                parts.append(Text(f"  fix: {problem.hint}", "bright_black"))
        self.update(Group(*parts))

    def show_skill(self, package: Package, location: str | None = None) -> None:
        skill = package.skill
        if skill is None:
            self.update(
                Text(
                    "This package has no SKILL.md: agents cannot discover it. "
                    "Press c to create one.",
                    "red",
                )
            )
            return
        desc = skill.description
        catalog = catalog_entry(package, location)
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        table.add_row("name", Text(skill.name or "(missing)"))
        table.add_row("description", Text(desc or "(missing)"))
        table.add_row(
            "cost",
            Text(
                f"{len(desc):,} / 1,024 characters · catalog entry ≈ {catalog.tokens:,} tokens"
                f" · body ≈ {skill_body_tokens(skill.body):,} tokens",
                "red" if len(desc) > 1024 else "",
            ),
        )
        for key, value in skill.data.items():
            if key not in ("name", "description"):
                table.add_row(Text(str(key)), _value(value))
        parts: list[Any] = [
            Text("Discovery: what an agent sees before anything else", "bold"),
            table,
        ]
        for problem in package.problems_of("SKILL.md"):
            parts.append(Text(f"error: {problem.message}", "red"))
        self.update(Group(*parts))

    def show_message(self, message: str) -> None:
        self.update(Text(message))
