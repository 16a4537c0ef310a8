"""The check use case, headless: remember, load, check, fix, check again.

``kas-tui check`` (and anything else that checks a package from its folder) calls
:func:`check_folder`: an unchanged package checked with the same options reuses the last
report (:mod:`.memo`); otherwise the package is loaded, checked, and with ``fix`` the safe
fixes are applied (or, with ``dry_run``, only their diff is made) and the package checked
again. What to print is the caller's business: this returns a :class:`CheckRun`.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.features.check.findings import Report
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET

if TYPE_CHECKING:
    from kas_tui.core.package import Package


@dataclass(frozen=True)
class CheckOptions:
    """What a check is asked for; every field is part of a remembered report's key."""

    agent_ready: bool = False
    today: dt.date = field(default_factory=dt.date.today)
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    index_budget: int = INDEX_TOKEN_BUDGET

    def engine_arguments(self) -> dict[str, Any]:
        return {
            "agent_ready": self.agent_ready,
            "today": self.today,
            "select": list(self.select),
            "ignore": list(self.ignore),
            "index_budget": self.index_budget,
        }

    @property
    def profile(self) -> str:
        return "agent-ready" if self.agent_ready else "okf"


@dataclass
class CheckRun:
    """What a check run found: the report to show, and what fixing did."""

    report: Report
    #: Findings fixed (after a real ``fix``), or that would be (after a ``dry_run``).
    fixed: int = 0
    #: With ``dry_run``: the unified diff of the fixes; nothing was written.
    diff: str | None = None
    #: Whether the report is a remembered one (the package had not changed).
    recalled: bool = False
    #: The package checked (last loaded), ``None`` when the report was remembered.
    package: Package | None = None


def unknown_codes(codes: Iterable[str]) -> list[str]:
    """The codes (or code prefixes) among ``codes`` that name no rule."""
    codes = list(codes)
    if not codes:
        return []
    from kas_tui.features.check.rule_catalog import BY_CODE

    return [c for c in codes if not any(code.startswith(c) for code in BY_CODE)]


def house_rules_digest(root: Path) -> str:
    """What a remembered report must match of ``.kas-tui.yaml``: its size and mtime."""
    from kas_tui.core.house_rules import HOUSE_RULES_FILE

    try:
        st = (root / HOUSE_RULES_FILE).stat()
    except OSError:
        return ""
    return f"{st.st_size}:{st.st_mtime_ns}"


def check_folder(
    root: Path,
    options: CheckOptions,
    *,
    use_cache: bool = True,
    fix: bool = False,
    dry_run: bool = False,
) -> CheckRun:
    """Check the package at ``root`` (its root folder, already located).

    With ``use_cache`` and no ``fix``, a package unchanged since a check with the same
    options gets that check's report back without being loaded. With ``fix``, the safe
    fixes are applied and the package re-checked; with ``dry_run`` too, nothing is
    written and :attr:`CheckRun.diff` says what would be. A refused or unwritable fix
    raises :class:`~kas_tui.core.okf.errors.EditError`,
    :class:`~kas_tui.core.store.StoreError` or :class:`OSError`.
    """
    from kas_tui.core.disk import walk

    key = options.engine_arguments()
    key["house_rules"] = house_rules_digest(root)  # a changed .kas-tui.yaml checks again
    stamped = None
    found = None
    if use_cache and not fix:
        from kas_tui.features.check.memo import ReportMemo, stamp

        started = time.perf_counter()
        found = walk(root, stat=True)
        memo = ReportMemo(root)
        digest, newest_ns = stamp(found, key)
        stamped = (memo, digest, newest_ns)
        recalled = memo.recall(digest)
        if recalled is not None:
            documents, findings = recalled
            seconds = time.perf_counter() - started
            report = Report(str(root), options.profile, options.today, documents, findings, seconds)
            return CheckRun(report, recalled=True)
    from kas_tui.core.package import Package

    # a check that writes nothing compares no contents: its reads hash nothing
    pkg = Package.open(root, scan=True, cache=use_cache, found=found, digests=fix)
    return check_loaded(pkg, options, use_cache=use_cache, fix=fix, dry_run=dry_run, memo=stamped)


def check_loaded(
    pkg: Package,
    options: CheckOptions,
    *,
    use_cache: bool = True,
    fix: bool = False,
    dry_run: bool = False,
    memo: Any = None,
) -> CheckRun:
    """Check a loaded package (and fix it with ``fix``); ``memo``: where to remember the
    report, as :func:`check_folder` stamped it."""
    from kas_tui.features.check.engine import check

    report = check(pkg, **options.engine_arguments())
    report.seconds += pkg.load_seconds  # the run's time is the whole run: read and check
    if memo is not None:
        store, digest, newest_ns = memo
        store.remember(digest, newest_ns, report.documents, report.findings)
    if not fix:
        return CheckRun(report, package=pkg)
    from kas_tui.features.check.fixes import apply_fixes

    outcome = apply_fixes(pkg, report, today=options.today, dry_run=dry_run)
    if dry_run:
        return CheckRun(report, fixed=len(outcome.fixed), diff=outcome.diff, package=pkg)
    pkg.load(scan=True, cache=use_cache)
    report = check(pkg, **options.engine_arguments())
    report.seconds += pkg.load_seconds
    return CheckRun(report, fixed=len(outcome.fixed), package=pkg)
