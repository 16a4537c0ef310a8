"""The frontmatter pane: every field, typed and readable, and the discovery view of SKILL.md."""

from __future__ import annotations

import datetime as dt
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from kas_tui.core.package import Package
from kas_tui.core.records import Document
from kas_tui.features.agent.skill_catalog import catalog_entry, skill_body_tokens
from kas_tui.features.check.computations import CONTRACT_FIELDS, Contract, contract_of
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


def _contract(contract: Contract) -> list[Any]:
    """An Attested Computation's contract (OKF §10): runtime, parameters as a table, where
    the computation is (Enter opens it), executor and attester."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold magenta", no_wrap=True)
    grid.add_column()
    grid.add_row("runtime", Text(contract.runtime or "(missing: OKF §10.2 requires it)"))
    params = contract.parameters if isinstance(contract.parameters, list) else []
    rows = [p for p in params if isinstance(p, dict)]
    if rows:
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bright_black")
        for column in ("name", "type", "required"):
            table.add_column(column)
        for p in rows:
            required = "yes" if p.get("required") is True else "no"
            table.add_row(Text(str(p.get("name", "?"))), Text(str(p.get("type", "?"))), required)
        grid.add_row("parameters", table)
    else:
        grid.add_row("parameters", Text("none declared"))
    if contract.computation:
        where = Text.assemble(contract.computation, (" · Enter opens it", "bright_black"))
    elif contract.blocks:
        line, language = contract.blocks[0]
        lang = f"{language} " if language else ""
        where = Text.assemble(
            f"{lang}block under # Computation, line {line}",
            (" · Enter jumps to it", "bright_black"),
        )
    else:
        where = Text("none: no computation file and no block under # Computation", "red")
    grid.add_row("computation", where)
    if contract.executor or contract.receipt:
        receipt = f" · receipt: {', '.join(contract.receipt)}" if contract.receipt else ""
        grid.add_row("executor", Text(f"{contract.executor or '(no resource)'}{receipt}"))
    if contract.attester:
        grid.add_row("attester", Text(contract.attester))
    return [Text("Attested Computation contract", "bold magenta"), grid]


class MetaPane(Static):
    """Shows a document's frontmatter or the SKILL.md catalog entry (in a scrolling,
    focusable frame: a long frontmatter is never out of reach in a short pane)."""

    #: The contract of the Attested Computation shown, if one is (Enter opens its computation)
    _contract: Contract | None = None

    @property
    def contract(self) -> Contract | None:
        return self._contract

    @contract.setter
    def contract(self, value: Contract | None) -> None:
        if (value is None) != (self._contract is None) and self.parent is not None:
            self.parent.refresh_bindings()  # the frame's Enter is offered, or no longer
        self._contract = value

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
        self.contract = contract_of(package, doc.path)
        shown_in_contract = CONTRACT_FIELDS if self.contract is not None else ()
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        keys = [k for k in KNOWN_ORDER if k in doc.meta] + [
            k for k in doc.meta if k not in KNOWN_ORDER
        ]
        for key in keys:
            if key not in shown_in_contract:
                table.add_row(Text(str(key)), _field(str(key), doc.meta[key]))
        listed = package.listed_by(doc.path)
        where = Text(
            f"{doc.path} · listed by {', '.join(listed) if listed else 'no index'}", "bright_black"
        )
        parts: list[Any] = [summary, where]
        if self.contract is not None:  # what a consumer runs, before the other fields
            parts.extend(_contract(self.contract))
        parts.append(table)
        for problem in doc.problems:
            line = f"line {problem.line}: " if problem.line else ""
            parts.append(Text(f"{problem.severity}: {line}{problem.message}", "red"))
            if problem.hint:
                parts.append(Text(f"  fix: {problem.hint}", "bright_black"))
        self.update(Group(*parts))

    def show_skill(self, package: Package, location: str | None = None) -> None:
        self.contract = None
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
        self.contract = None
        self.update(Text(message))


class MetaFrame(VerticalScroll):
    """The frontmatter pane's scrolling frame; Enter opens an Attested Computation's
    computation (its file, or its block in the body)."""

    BINDINGS = [Binding("enter", "open_computation", "Computation")]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is offered (and shown) only while an Attested Computation is shown."""
        if action == "open_computation":
            return self.query_one(MetaPane).contract is not None
        return True

    def action_open_computation(self) -> None:
        contract = self.query_one(MetaPane).contract
        if contract is None:
            return
        if contract.computation:
            self.app.follow(contract.computation)  # type: ignore[attr-defined]
        elif contract.blocks:
            self.app.go_to_line(contract.path, contract.blocks[0][0])  # type: ignore[attr-defined]
        else:
            self.app.notify(
                f"{contract.path} has no computation to open: add a 'computation' file "
                "or one code block under '# Computation'",
                severity="warning",
            )
