"""Checks: the rule catalog, the OKF and agent-ready profiles, reports and safe fixes.

Headless: nothing here imports Textual or MarkItDown.
"""

from __future__ import annotations

from typing import Any

from kas_tui.features.check.findings import Finding, Report, Rule

__all__ = ["BY_CODE", "RULES", "Finding", "Report", "Rule", "check"]


def __getattr__(name: str) -> Any:
    """The catalog and the engine load on first use: a remembered check needs neither."""
    if name in ("BY_CODE", "RULES"):
        from kas_tui.features.check import rule_catalog as catalog

        return getattr(catalog, name)
    if name == "check":
        from kas_tui.features.check.engine import check

        return check
    raise AttributeError(name)
