"""Checks: the rule catalog, the OKF and agent-ready profiles, reports and safe fixes.

Headless: nothing here imports Textual or MarkItDown.
"""

from .catalog import BY_CODE, RULES
from .engine import Report, check
from .model import Finding, Rule

__all__ = ["BY_CODE", "RULES", "Finding", "Report", "Rule", "check"]
