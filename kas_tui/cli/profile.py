"""``kas-tui profile init PKG``: draft a package's house rules (``.kas-tui.yaml``) from
what it already does (:mod:`kas_tui.features.house_rules_draft`). Exit 0: written (or,
with ``--print``, printed); 1: a file is already there (``--force`` replaces it); 2: usage."""

from __future__ import annotations

import argparse
import sys

from kas_tui.cli.args import CommandError, Parser, open_package


def profile_arguments(parser: Parser) -> None:
    parser.description = (
        "House rules a package declares for itself in .kas-tui.yaml (required fields, "
        "allowed types and tags, freshness by type, a description cap), which check then "
        "enforces. 'init' drafts them from what the package's documents already do."
    )
    parser.add_argument("action", choices=("init",), help="init: draft .kas-tui.yaml")
    parser.add_argument("path", metavar="PKG", help="package folder")
    parser.add_argument("--print", action="store_true", help="print the draft, write nothing")
    parser.add_argument("--force", action="store_true", help="replace an existing .kas-tui.yaml")


def run_profile(args: argparse.Namespace) -> int:
    from kas_tui.core.house_rules import HOUSE_RULES_FILE, parse_house_rules
    from kas_tui.core.package import Package
    from kas_tui.core.store import StoreError
    from kas_tui.features.house_rules_draft import draft_house_rules, house_rules_text

    location = open_package(args.path, "kas-tui profile")
    package = Package.open(location.root)
    text = house_rules_text(draft_house_rules(package), package)
    parse_house_rules(text)  # what is written is always a file check can read
    if args.print:
        sys.stdout.write(text)
        return 0
    target = package.root / HOUSE_RULES_FILE
    exists = target.exists()
    if exists and not args.force:
        print(
            f"kas-tui profile: {target} is already there; --force replaces it, --print shows "
            "the draft",
            file=sys.stderr,
        )
        return 1
    try:
        package.store.apply(target, lambda _old: text, create=not exists)
    except (StoreError, OSError) as exc:
        raise CommandError(f"cannot write {target}: {exc}") from None
    print(f"wrote {target}: edit it, then kas-tui check {package.root}")
    return 0
