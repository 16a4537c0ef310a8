"""The ``kas-tui`` command.

``kas-tui [PATH]`` opens the TUI (no PATH: the bundled demo, as ``kas-tui demo``);
``kas-tui check PATH`` validates headless (exit 0: no errors, 1: findings that fail, 2:
usage or I/O error); ``kas-tui rules`` prints the rule catalog; ``kas-tui demo [--reset]``
opens the writable copy of the bundled demo; ``kas-tui import FILE... --into BUNDLE``
converts files into a package and ``kas-tui build SOURCE_DIR OUT_DIR`` builds a whole
package from a folder of documents (same exit codes). ``check`` imports neither Textual
nor MarkItDown, so it starts fast; MarkItDown is imported only in the worker processes
that convert files.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui import __version__
from kas_tui.cli.args import Parser as _Parser
from kas_tui.cli.args import iso_date
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.features.check import Report

COMMANDS = (
    "check",
    "rules",
    "demo",
    "import",
    "build",
    "new",
    "questions",
    "eval",
    "review",
    "search",
    "mv",
    "split",
    "merge",
    "serve",
    "install",
    "uninstall",
    "installed",
    "graph",
)


def _tui_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kas-tui",
        description="The curator's workbench for Knowledge-as-Skill packages. "
        f"Commands: {', '.join(COMMANDS)} (kas-tui COMMAND --help).",
    )
    parser.add_argument(
        "path", nargs="?", help="package folder (default: the bundled demo, see kas-tui demo)"
    )
    parser.add_argument("--version", action="version", version=f"kas-tui {__version__}")
    return parser


def _demo_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kas-tui demo",
        description="Open the bundled demo package. The first run copies it to the user data "
        "folder (KAS_TUI_DATA_DIR overrides it) so edits stick; later runs reopen that copy.",
    )
    parser.add_argument(
        "--reset", action="store_true", help="replace the copy with a fresh one (edits are lost)"
    )
    parser.add_argument(
        "--print-path", action="store_true", help="print the copy's folder instead of opening it"
    )
    return parser


def _codes(text: str) -> list[str]:
    return [c.strip().upper() for c in text.split(",") if c.strip()]


def _tokens(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of tokens") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number of tokens")
    return value


def _check_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kas-tui check",
        description="Check a package: OKF v0.2 conformance, and with --agent-ready the "
        "Knowledge-as-Skill checks. Exit 0: no errors; 1: findings that fail; 2: usage or I/O error.",
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
        type=_codes,
        default=[],
        metavar="CODES",
        help="only these codes or prefixes (KAS03,OKF1)",
    )
    parser.add_argument(
        "--ignore", type=_codes, default=[], metavar="CODES", help="skip these codes or prefixes"
    )
    parser.add_argument(
        "--index-budget",
        type=_tokens,
        default=INDEX_TOKEN_BUDGET,
        metavar="TOKENS",
        help="with --agent-ready: most tokens one index.md may take, about 4 characters a "
        f"token (KAS046; default {INDEX_TOKEN_BUDGET:,})",
    )
    parser.add_argument("--hints", action="store_true", help="print how to fix each finding")
    parser.add_argument(
        "--no-cache", action="store_true", help="do not read or write the metadata cache"
    )
    return parser


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
    return value


def _limit_options(parser: argparse.ArgumentParser) -> None:
    from kas_tui.features.importing.convert import (
        DEFAULT_MAX_BYTES,
        DEFAULT_MAX_MEMORY,
        DEFAULT_TIMEOUT,
    )

    parser.add_argument(
        "--timeout",
        type=_positive,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"time limit of one file's conversion; a converter running longer is stopped "
        f"(default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-size",
        type=_positive,
        default=DEFAULT_MAX_BYTES / 2**20,
        metavar="MB",
        help=f"larger files are not converted (default {DEFAULT_MAX_BYTES / 2**20:g})",
    )
    parser.add_argument(
        "--max-memory",
        type=_positive,
        default=DEFAULT_MAX_MEMORY / 2**20,
        metavar="MB",
        help="memory one conversion process may use; a conversion needing more fails "
        f"(default {DEFAULT_MAX_MEMORY / 2**20:g})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="conversion processes in parallel (default: one per CPU, at most 8)",
    )
    parser.add_argument(
        "--type",
        help="the type of documents that have none of their own (default: inferred from each)",
    )


def _import_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kas-tui import",
        description="Convert files (PDF, Word, PowerPoint, Excel, HTML, EPUB, CSV, text, "
        "Markdown) into documents of a package: each gets drafted frontmatter (status: draft), "
        "an entry in its bundle's index.md and a log.md entry. A file already imported is "
        "never imported twice. Exit 0: every file imported (or already there, unchanged); "
        "1: some files failed or need --yes; 2: usage error.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="files to import")
    parser.add_argument(
        "--into",
        required=True,
        metavar="BUNDLE",
        help="folder of a package to import into (created when missing)",
    )
    parser.add_argument(
        "--yes",
        "-y",
        action="store_true",
        help="update the documents of files imported before, without asking",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the diff of what would be written"
    )
    _limit_options(parser)
    return parser


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kas-tui build",
        description="Build a Knowledge-as-Skill package from a folder of documents: convert "
        "every file (keeping the folder structure), draft frontmatter, write an index.md per "
        "folder, SKILL.md and log.md, then check the result. Run it again to take in changed "
        "sources: only what changed is converted, and values a curator edited are kept. "
        "Exit 0: built, no errors; 1: some files failed or the check found errors; 2: usage.",
    )
    parser.add_argument("source", metavar="SOURCE_DIR", help="folder of documents")
    parser.add_argument(
        "out", metavar="OUT_DIR", help="package folder to write (its name is the skill name)"
    )
    parser.add_argument("--name", help="skill name (default: OUT_DIR's name, which it must equal)")
    parser.add_argument(
        "--link-base",
        metavar="URL",
        help="make /-rooted links of Markdown sources that lead to no source file absolute, "
        "on this site (for help-centre exports: https://learn.microsoft.com)",
    )
    parser.add_argument(
        "--index-budget",
        metavar="TOKENS",
        type=int,
        default=INDEX_TOKEN_BUDGET,
        help="most tokens one index may take; a folder whose index would take more is "
        f"split into topical sub-bundles (default {INDEX_TOKEN_BUDGET:,})",
    )
    parser.add_argument(
        "--no-check", action="store_true", help="skip the agent-ready check at the end"
    )
    _limit_options(parser)
    return parser


#: The exit code of a command whose output was no longer read (``kas-tui eval ... | head``),
#: a shell's for a program stopped by SIGPIPE.
PIPE_CLOSED = 141
#: The exit code of a command stopped by Ctrl+C (a shell's for SIGINT).
INTERRUPTED = 130


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    try:
        code = _run(argv)
        sys.stdout.flush()  # here, not at exit: a reader gone away is noticed in the try
        return code
    except BrokenPipeError:  # the reader of our output went away: stop, without a word
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # what is still buffered goes nowhere
        return PIPE_CLOSED
    except KeyboardInterrupt:  # Ctrl+C: every write is whole (staged, then renamed)
        print("\nkas-tui: interrupted", file=sys.stderr)
        return INTERRUPTED


def _run(argv: list[str] | None) -> int:
    if argv is None:
        argv = sys.argv[1:]
        if argv[:1] == ["check"]:
            # The process ends with the check, which builds millions of small objects
            # that form no cycles: the cyclic collector would only walk them, again and
            # again (about 0.15 s a walk at 10,000 documents).
            gc.disable()
    try:
        if argv and argv[0] == "check":
            return run_check(_check_parser().parse_args(argv[1:]))
        if argv and argv[0] == "rules":
            from kas_tui.features.check.rules_page import rules_markdown

            print(rules_markdown(), end="")
            return 0
        if argv and argv[0] == "demo":
            return run_demo(_demo_parser().parse_args(argv[1:]))
        if argv and argv[0] == "import":
            from kas_tui.cli.importing import run_import

            return run_import(_import_parser().parse_args(argv[1:]))
        if argv and argv[0] == "questions":
            from kas_tui.cli.questions import questions_parser, run_questions

            return run_questions(questions_parser().parse_args(argv[1:]))
        if argv and argv[0] == "eval":
            from kas_tui.cli.eval import eval_parser, run_eval

            return run_eval(eval_parser().parse_args(argv[1:]))
        if argv and argv[0] == "review":
            from kas_tui.cli.review import review_parser, run_review

            return run_review(review_parser().parse_args(argv[1:]))

        if argv and argv[0] == "new":
            from kas_tui.cli.new import new_parser, run_new

            return run_new(new_parser().parse_args(argv[1:]))

        if argv and argv[0] == "search":
            from kas_tui.cli.search import run_search, search_parser

            return run_search(search_parser().parse_args(argv[1:]))

        if argv and argv[0] in ("mv", "split", "merge"):
            from kas_tui.cli import moves as moves_cli

            parse = getattr(moves_cli, f"{argv[0]}_parser")().parse_args(argv[1:])
            return getattr(moves_cli, f"run_{argv[0]}")(parse)
        if argv and argv[0] in ("install", "uninstall", "installed"):
            from kas_tui.cli import install as install_cli

            parse = getattr(install_cli, f"{argv[0]}_parser")().parse_args(argv[1:])
            return getattr(install_cli, f"run_{argv[0]}")(parse)
        if argv and argv[0] == "graph":
            from kas_tui.cli.graph import graph_parser, run_graph

            return run_graph(graph_parser().parse_args(argv[1:]))
        if argv and argv[0] == "serve":
            from kas_tui.cli.serve import run_serve, serve_parser

            return run_serve(serve_parser().parse_args(argv[1:]))
        if argv and argv[0] == "build":
            from kas_tui.cli.importing import run_build

            return run_build(_build_parser().parse_args(argv[1:]))
        return run_tui(_tui_parser().parse_args(argv))
    except SystemExit as exc:  # argparse: --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else 2


def run_tui(args: argparse.Namespace) -> int:
    if args.path is None:
        return run_demo(_demo_parser().parse_args([]))
    return open_tui(Path(args.path))


def run_demo(args: argparse.Namespace) -> int:
    from kas_tui.features.demo import DemoError, demo_copy

    try:
        root = demo_copy(reset=args.reset)
    except (DemoError, OSError) as exc:
        print(f"kas-tui demo: {exc}", file=sys.stderr)
        return 2
    if args.print_path:
        print(root)
        return 0
    return open_tui(root)


def open_tui(path: Path) -> int:
    from kas_tui.core.disk import PackageError, locate

    try:
        location = locate(path)
    except PackageError as exc:
        print(f"kas-tui: {exc}", file=sys.stderr)
        return 2
    from kas_tui.core.memory import freeze_after_loads
    from kas_tui.core.records import compact_frontmatter
    from kas_tui.tui.app import open_app  # Textual is imported only for the TUI

    freeze_after_loads()  # this process is the TUI: keys never wait on the collector
    compact_frontmatter()  # ... and holds big packages in a third of the memory
    open_app(location).run()
    return 0


def run_check(args: argparse.Namespace) -> int:
    from kas_tui.core.disk import PackageError, locate, walk
    from kas_tui.features.check import Report
    from kas_tui.features.check.memo import ReportMemo, stamp

    codes = args.select + args.ignore
    if codes:
        from kas_tui.features.check.rule_catalog import BY_CODE

        codes = [c for c in codes if not any(code.startswith(c) for code in BY_CODE)]
    unknown = codes
    if unknown:
        print(
            f"kas-tui check: unknown rule code {', '.join(unknown)} (see: kas-tui rules)",
            file=sys.stderr,
        )
        return 2
    if args.dry_run and not args.fix:
        print("kas-tui check: --dry-run needs --fix", file=sys.stderr)
        return 2
    today = args.today or dt.date.today()
    options = {
        "agent_ready": args.agent_ready,
        "today": today,
        "select": args.select,
        "ignore": args.ignore,
        "index_budget": args.index_budget,  # part of the memo's key, as every option is
    }
    try:
        location = locate(args.path)
    except PackageError as exc:
        print(f"kas-tui check: {exc}", file=sys.stderr)
        return 2
    if location.note:
        print(f"kas-tui check: {location.note}", file=sys.stderr)
    root = location.root
    stamped = None
    if not args.no_cache and not args.fix:
        # an unchanged package with the same options: the last report is still true
        started = time.perf_counter()
        found = walk(root, stat=True)
        memo = ReportMemo(root)
        digest, newest_ns = stamp(found, options)
        stamped = (memo, digest, newest_ns)
        recalled = memo.recall(digest)
        if recalled is not None:
            documents, findings = recalled
            profile = "agent-ready" if args.agent_ready else "okf"
            seconds = time.perf_counter() - started
            report = Report(str(root), profile, today, documents, findings, seconds)
            return _print_report(report, args, fixed=0)
    else:
        found = None
    from kas_tui.core.package import Package

    pkg = Package.open(root, scan=True, cache=not args.no_cache, found=found)
    return _check_loaded(pkg, args, options, stamped)


def _check_loaded(
    pkg: Package, args: argparse.Namespace, options: dict[str, Any], stamped: Any
) -> int:
    """Check a loaded package (and fix it with ``--fix``); ``stamped``: where to remember."""
    from kas_tui.features.check import check

    report = check(pkg, **options)
    report.seconds += pkg.load_seconds  # the summary's time is the whole run: read and check
    if stamped is not None:
        memo, digest, newest_ns = stamped
        memo.remember(digest, newest_ns, report.documents, report.findings)
    fixed = 0
    if args.fix:
        from kas_tui.core.okf.errors import EditError
        from kas_tui.core.store import StoreError
        from kas_tui.features.check.fixes import apply_fixes

        try:
            outcome = apply_fixes(pkg, report, today=options["today"], dry_run=args.dry_run)
        except (EditError, StoreError, OSError) as exc:  # refused or unwritable: say which
            print(f"kas-tui check --fix: {exc}", file=sys.stderr)
            return 2
        if args.dry_run:
            sys.stdout.write(outcome.diff)
            if outcome.diff and not outcome.diff.endswith("\n"):
                sys.stdout.write("\n")
            print(
                f"{len(outcome.fixed)} finding(s) would be fixed; nothing was written.",
                file=sys.stderr,
            )
            return 1 if report.fails(strict=args.strict) else 0
        fixed = len(outcome.fixed)
        pkg.load(scan=True, cache=not args.no_cache)
        report = check(pkg, **options)
        report.seconds += pkg.load_seconds
    return _print_report(report, args, fixed=fixed)


def _print_report(report: Report, args: argparse.Namespace, *, fixed: int) -> int:
    from kas_tui.features.check.report import format_json, format_text

    if args.format == "json":
        print(format_json(report, fixed=fixed))
    else:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        print(format_text(report, color=color, hints=args.hints, fixed=fixed))
    return 1 if report.fails(strict=args.strict) else 0
