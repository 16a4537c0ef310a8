"""What a check produces: rules with stable codes, and findings of those rules."""

from __future__ import annotations

from dataclasses import dataclass

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
