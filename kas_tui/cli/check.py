"""``kas-tui check`` and ``kas-tui rules``: the check use case
(:mod:`kas_tui.features.check.run`) with its options and its printed report."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys

from kas_tui.cli.args import CommandError, Parser, iso_date, open_package, rule_codes, whole_number
from kas_tui.cli.terminal import print_coloured
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET

#: Where a check run as the command keeps its run (and so its package) until the
#: process ends (``None``: called from Python, nothing is kept). See
#: :func:`kas_tui.cli.main.main`: freeing the package object by object would cost
#: 0.1 s at 20,000 documents, in a process about to end.
KEEP_UNTIL_EXIT: list[object] | None = None


def check_arguments(parser: Parser) -> None:
    parser.description = (
        "Check a package: OKF v0.2 conformance, and with --agent-ready the "
        "Knowledge-as-Skill checks. Exit 0: no errors; 1: findings that fail; 2: usage or I/O error."
    )
    parser.add_argument("path", help="package folder")
    parser.add_argument(
        "--agent-ready", action="store_true", help="add the Knowledge-as-Skill checks"
    )
    parser.add_argument("--strict", action="store_true", help="fail on warnings too")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--today", type=iso_date, help="date for staleness (default: today)")
    parser.add_argument("--fix", action="store_true", help="apply the safe fixes")
    parser.add_argument(
        "--dry-run", action="store_true", help="with --fix: print the diff, write nothing"
    )
    parser.add_argument(
        "--select",
        type=rule_codes,
        default=[],
        metavar="CODES",
        help="only these codes or prefixes (KAS03,OKF1)",
    )
    parser.add_argument(
        "--ignore",
        type=rule_codes,
        default=[],
        metavar="CODES",
        help="skip these codes or prefixes",
    )
    parser.add_argument(
        "--index-budget",
        type=whole_number(1, "token"),
        default=INDEX_TOKEN_BUDGET,
        metavar="TOKENS",
        help="with --agent-ready: most tokens one index.md may take, about 4 characters a "
        f"token (KAS046; default {INDEX_TOKEN_BUDGET:,})",
    )
    parser.add_argument("--hints", action="store_true", help="print how to fix each finding")
    parser.add_argument(
        "--no-cache", action="store_true", help="do not read or write the metadata cache"
    )


def run_check(args: argparse.Namespace) -> int:
    try:
        return _check(args)
    except CommandError as exc:
        if args.format == "json":  # a pipeline parses stdout: it gets the error as JSON
            from kas_tui.features.check.report import format_json_error

            print(format_json_error(str(exc)))
        raise


def _check(args: argparse.Namespace) -> int:
    from kas_tui.core.editing import failure_line
    from kas_tui.core.house_rules import HouseRulesError, read_house_rules
    from kas_tui.core.okf.errors import EditError
    from kas_tui.core.store import StoreError
    from kas_tui.features.check.run import CheckOptions, check_folder, unknown_codes

    unknown = unknown_codes(args.select + args.ignore)
    if unknown:
        raise CommandError(f"unknown rule code {', '.join(unknown)} (see: kas-tui rules)")
    if args.dry_run and not args.fix:
        raise CommandError("--dry-run needs --fix")
    options = CheckOptions(
        agent_ready=args.agent_ready,
        today=args.today or dt.date.today(),
        select=tuple(args.select),
        ignore=tuple(args.ignore),
        index_budget=args.index_budget,
    )
    root = open_package(args.path, "kas-tui check").root
    try:
        read_house_rules(root)  # rules that cannot be used stop the check: exit 2
    except HouseRulesError as exc:
        raise CommandError(f"{root}/{exc}") from None
    try:
        run = check_folder(
            root, options, use_cache=not args.no_cache, fix=args.fix, dry_run=args.dry_run
        )
        if KEEP_UNTIL_EXIT is not None:
            KEEP_UNTIL_EXIT.append(run)
    except (EditError, StoreError, OSError) as exc:  # a fix refused or unwritable: say which
        # the fixes are written all or none: none was, unless the message says otherwise
        line = failure_line(exc, root)
        if args.format == "json":
            from kas_tui.features.check.report import format_json_error

            print(format_json_error(line, str(root)))
        print(f"kas-tui check --fix: {line}", file=sys.stderr)
        return 2
    if run.diff is not None:  # --fix --dry-run
        sys.stdout.write(run.diff)
        if run.diff and not run.diff.endswith("\n"):
            sys.stdout.write("\n")
        print(f"{run.fixed} finding(s) would be fixed; nothing was written.", file=sys.stderr)
        return 1 if run.report.fails(strict=args.strict) else 0
    from kas_tui.features.check.report import format_json, format_text

    if args.format == "json":
        print(format_json(run.report, fixed=run.fixed))
    else:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        print_coloured(format_text(run.report, color=color, hints=args.hints, fixed=run.fixed))
    return 1 if run.report.fails(strict=args.strict) else 0


def rules_arguments(parser: Parser) -> None:
    parser.description = (
        "Print the rule catalog as Markdown (every code, its severity and what it checks; "
        "docs/rules.md is this output)."
    )


def run_rules(_args: argparse.Namespace) -> int:
    from kas_tui.features.check.rules_page import rules_markdown

    print(rules_markdown(), end="")
    return 0
