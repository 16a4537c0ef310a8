"""``kas-tui eval --discovery``: which catalog entry a router picks for each trigger query."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kas_tui.cli.args import open_package
from kas_tui.text.wording import counted

AGAINST = ("decoys", "installed", "both")


def discovery_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("discovery (does an agent pick this skill from the catalog?)")
    group.add_argument(
        "--discovery",
        action="store_true",
        help="route should-trigger and should-not-trigger queries (--questions FILE in the "
        "Agent Skills trigger form, or drafted from the package) over the catalog and report "
        "precision, recall and the words the description lacks",
    )
    group.add_argument(
        "--against",
        choices=AGAINST,
        default="decoys",
        help="the other catalog entries: a bundled decoy set (default), the skills installed "
        "for you (~/.claude/skills, ~/.agents/skills, ~/.gemini/skills and the project's), or both",
    )


def run_discovery(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package
    from kas_tui.features.agent.skill_catalog import catalog_entry
    from kas_tui.features.evaluate.discovery import (
        decoy_skills,
        discover,
        discovery_record,
        format_discovery_json,
        format_discovery_text,
        installed_catalog,
    )
    from kas_tui.features.evaluate.trigger_queries import (
        draft_trigger_queries,
        read_trigger_queries,
    )

    prog = "kas-tui eval --discovery"
    if getattr(args, "llm_base_url", None):
        print(f"{prog}: routes with the lexical router only; leave out --llm-*", file=sys.stderr)
        return 2
    location = open_package(args.path, prog)
    package = Package.open(location.root)
    entry = catalog_entry(package)
    decoys = decoy_skills()
    others = [] if args.against == "installed" else [e for e, _ in decoys]
    if args.against != "decoys":
        others += installed_catalog()
    if not [e for e in others if e.name != entry.name]:
        print(
            f"{prog}: no other skill is installed for you; use --against decoys",
            file=sys.stderr,
        )
        return 2
    if args.questions:
        tset = read_trigger_queries(args.questions)
        for problem in tset.problems:
            print(f"{prog}: {problem}", file=sys.stderr)
        if tset.problems:
            print(
                f"{prog}: {counted(len(tset.problems), 'problem')} in {args.questions}; fix them "
                "and run again",
                file=sys.stderr,
            )
            return 2
        queries, source = tset.queries, str(args.questions)
    else:
        queries, source = draft_trigger_queries(package, entry, decoys), "drafted"
    if not any(q.should_trigger for q in queries):
        print(f"{prog}: no should-trigger query to route; give --questions FILE", file=sys.stderr)
        return 2
    found = discover(entry, others, queries, against=args.against, source=source)
    if args.out and not args.no_save:
        from kas_tui.core.fileio import atomic_write, os_reason

        text = json.dumps(discovery_record(found), indent=2, ensure_ascii=False) + "\n"
        try:
            Path(args.out).mkdir(parents=True, exist_ok=True)
            atomic_write(Path(args.out) / "discovery.json", text.encode("utf-8"))
        except OSError as exc:
            print(
                f"{prog}: cannot write {args.out}: {os_reason(exc, writing=True)}", file=sys.stderr
            )
            return 2
    if args.format == "json":
        print(format_discovery_json(found))
    else:
        print(format_discovery_text(found, top=args.top))
    return 0
