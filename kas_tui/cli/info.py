"""``kas-tui info PKG``: the package on one screen (:mod:`kas_tui.features.info`).
Exit 0; 2: usage or a folder that is not a package."""

from __future__ import annotations

import argparse
import datetime as dt
import json

from kas_tui.cli.args import Parser, iso_date, open_package


def info_arguments(parser: Parser) -> None:
    parser.description = (
        "The package on one screen: documents by type, trust tiers, statuses, "
        "staleness, the tokens an agent pays for the catalog entry and the indexes, and "
        "the largest indexes."
    )
    parser.add_argument("path", metavar="PKG", help="package folder")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--today", type=iso_date, help="the day staleness is judged on")


def run_info(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package
    from kas_tui.features.info import package_info

    location = open_package(args.path, "kas-tui info")
    info = package_info(Package.open(location.root), args.today or dt.date.today())
    if args.format == "json":
        print(json.dumps(info.to_json(), indent=2, ensure_ascii=False))
    else:
        print("\n".join(info.lines()))
    return 0
