"""What a check produces: rules with stable codes, and findings of those rules."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Rule:
    """A check with a stable code. Codes are never reused or renumbered.

    ``profile`` is ``okf`` (OKF v0.2 conformance, always run) or ``agent-ready``
    (Knowledge-as-Skill checks, run with ``--agent-ready``).
    """

    code: str
    severity: str
    profile: str
    title: str
    explanation: str
    fix: str
    fixable: bool = False


@dataclass(frozen=True)
class Finding:
    """One problem found by a rule, on a file (root-relative POSIX path) and a line."""

    code: str
    severity: str
    path: str
    line: int | None
    message: str
    hint: str = ""

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.code, self.message)


@dataclass
class Report:
    """The result of a check run."""

    root: str
    profile: str
    today: dt.date
    documents: int
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def fails(self, *, strict: bool = False) -> bool:
        """Whether the run fails: any error (with ``strict``, any warning too)."""
        return self.count("error") > 0 or (strict and self.count("warning") > 0)
