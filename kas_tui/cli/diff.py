"""``kas-tui diff A B`` and ``kas-tui diff PKG --since REV``: what a change does to a
package, for a reviewer (:mod:`kas_tui.features.diff`), as text, JSON or Markdown.
Exit 0; 1: ``--fail-on`` and the change introduces such findings; 2: usage, a folder
that is no package, or a revision git cannot give."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys

from kas_tui.cli.args import CommandError, Parser, iso_date, open_package
from kas_tui.cli.terminal import print_coloured


def diff_arguments(parser: Parser) -> None:
    from kas_tui.features.diff.compare import FAIL_ON

    parser.description = (
        "What a change does to a package, for a reviewer: documents added, removed, moved "
        "and changed (frontmatter field by field), index entries added, removed, "
        "reworded and moved, SKILL.md's catalog entry, links added, removed and broken, "
        "the tokens the catalog entry and each index cost, and the findings the change "
        "introduces or fixes. Two folders (A before, B after), or one package and "
        "--since REV: the package as git revision REV held it (read with git, the "
        "work tree untouched)."
    )
    parser.add_argument("before", metavar="A", help="the package before (or PKG with --since)")
    parser.add_argument("after", metavar="B", nargs="?", help="the package after")
    parser.add_argument(
        "--since", metavar="REV", help="compare PKG with itself at git revision REV"
    )
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    parser.add_argument(
        "--fail-on",
        choices=tuple(FAIL_ON),
        help="exit 1 when the change introduces error findings (new-warnings: or warnings)",
    )
    parser.add_argument(
        "--agent-ready",
        action="store_true",
        help="check both sides with the Knowledge-as-Skill checks too",
    )
    parser.add_argument("--today", type=iso_date, help="date for staleness (default: today)")


def run_diff(args: argparse.Namespace) -> int:
    from kas_tui.features.check.run import CheckOptions
    from kas_tui.features.diff.compare import diff_folders, diff_since
    from kas_tui.features.diff.revision import RevisionError

    prog = "kas-tui diff"
    if (args.since is None) == (args.after is None):
        raise CommandError(
            "give two package folders (kas-tui diff A B) or one and a revision "
            "(kas-tui diff PKG --since REV)"
        )
    options = CheckOptions(agent_ready=args.agent_ready, today=args.today or dt.date.today())
    old = open_package(args.before, prog).root
    if args.since is not None:
        try:
            diff = diff_since(old, args.since, options)
        except RevisionError as exc:
            raise CommandError(str(exc)) from None
    else:
        new = open_package(args.after, prog).root
        diff = diff_folders(old, new, options)
    if args.format == "json":
        print(json.dumps(diff.to_json(), indent=2, ensure_ascii=False))
    elif args.format == "markdown":
        from kas_tui.features.diff.render import diff_markdown

        sys.stdout.write(diff_markdown(diff))
    else:
        from kas_tui.features.diff.render import diff_text

        colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        print_coloured(diff_text(diff, colour=colour))
    return 1 if diff.fails(args.fail_on) else 0
