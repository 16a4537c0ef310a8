"""The findings the change introduces and the ones it fixes: ``check`` run on both sides.

Each side is checked as ``kas-tui check`` checks it (:func:`check_loaded`, the same
options on both). Findings are compared by rule, path and message, never by line: an
edit above a finding moves it without making it new. A finding on the old side of a
document that moved is compared under its new path. Findings that occur several times
are counted: two of one kind before and three after is one new.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.features.check.findings import Finding
from kas_tui.features.check.run import CheckOptions, check_loaded

if TYPE_CHECKING:
    from kas_tui.core.package import Package

_Key = tuple[str, str, str, str]


@dataclass
class FindingChanges:
    #: findings after the change that were not there before
    new: list[Finding] = field(default_factory=list)
    #: findings before the change that are gone after it (paths as after the change)
    fixed: list[Finding] = field(default_factory=list)
    #: how many findings each side has
    before: int = 0
    after: int = 0

    def count(self, which: str, severity: str) -> int:
        return sum(1 for f in getattr(self, which) if f.severity == severity)


def finding_json(finding: Finding) -> dict[str, Any]:
    """A finding as ``check --format json`` writes it."""
    return {
        "code": finding.code,
        "severity": finding.severity,
        "path": finding.path,
        "line": finding.line,
        "message": finding.message,
        "fix": finding.hint,
    }


def _key(finding: Finding, renames: dict[str, str]) -> _Key:
    path = renames.get(finding.path, finding.path)
    return (finding.code, finding.severity, path, finding.message)


def _moved(finding: Finding, renames: dict[str, str]) -> Finding:
    path = renames.get(finding.path)
    if path is None:
        return finding
    return Finding(
        finding.code, finding.severity, path, finding.line, finding.message, finding.hint
    )


def finding_changes(
    old: Package, new: Package, renames: dict[str, str], options: CheckOptions
) -> FindingChanges:
    """What ``check`` (with ``options``) finds after the change and not before, and the
    reverse."""
    before = check_loaded(old, options, use_cache=False).report.findings
    after = check_loaded(new, options, use_cache=False).report.findings
    left = Counter(_key(f, renames) for f in before)
    right = Counter(_key(f, {}) for f in after)
    out = FindingChanges(before=len(before), after=len(after))
    extra = right - left
    for finding in after:
        key = _key(finding, {})
        if extra[key] > 0:
            extra[key] -= 1
            out.new.append(finding)
    gone = left - right
    for finding in before:
        key = _key(finding, renames)
        if gone[key] > 0:
            gone[key] -= 1
            out.fixed.append(_moved(finding, renames))
    return out
