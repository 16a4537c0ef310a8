"""``kas-tui new``: create a document, a bundle or a SKILL.md from the command line.

    kas-tui new doc BUNDLE --title T --description D [--type X] [--tags a,b] [--file NAME]
    kas-tui new bundle PATH --title T --description D
    kas-tui new skill FOLDER --description D [--name N]

``--dry-run`` prints the diff and writes nothing. Exit 0: created (or the diff printed);
1: refused (an input breaks a rule, the file exists, a file changed meanwhile); 2: usage
or I/O (no such folder, not a package, a write the system refused).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kas_tui.cli.args import Parser, iso_date, open_package

if TYPE_CHECKING:
    from kas_tui.core.package import Package

PROG = "kas-tui new"


def new_arguments(parser: Parser) -> None:
    parser.description = (
        "Create a draft document, a bundle or a SKILL.md: the file, its index "
        "entry (in the section the index layout picks) and one log.md entry. Exit 0: "
        "created; 1: refused; 2: usage or I/O error."
    )
    kinds = parser.add_subparsers(dest="kind", metavar="doc|bundle|skill", parser_class=Parser)
    kinds.required = True
    doc = kinds.add_parser(
        "doc", help="a new draft document in a bundle", description="A new draft document."
    )
    doc.add_argument("target", metavar="BUNDLE", help="the bundle's folder (in a package)")
    doc.add_argument("--title", required=True, help="the document's title")
    doc.add_argument("--description", required=True, help="one sentence: what it covers")
    doc.add_argument(
        "--type", help="its type (default: the type most used in the bundle, else Reference)"
    )
    doc.add_argument("--tags", default="", metavar="A,B", help="comma-separated tags")
    doc.add_argument(
        "--runtime",
        default="",
        metavar="NAME",
        help="for --type 'Attested Computation' (required there): how it runs "
        "(bigquery, postgres, dbt, python...)",
    )
    doc.add_argument(
        "--file", metavar="NAME", help="its file name (default: drafted from the title)"
    )
    bundle = kinds.add_parser(
        "bundle",
        help="a new bundle: folder, index.md, entry in the parent",
        description="A new bundle: its folder, its index.md and its entry in the parent index.",
    )
    bundle.add_argument("target", metavar="PATH", help="the new folder (its parent must exist)")
    bundle.add_argument("--title", required=True, help="the bundle's title")
    bundle.add_argument(
        "--description", required=True, help="one sentence: what its documents cover"
    )
    skill = kinds.add_parser(
        "skill",
        help="a SKILL.md for a folder of documents that has none",
        description="A SKILL.md: name, description and a usage skeleton (scope, exclusions, "
        "navigation, entry points, freshness, when to stop).",
    )
    skill.add_argument("target", metavar="FOLDER", help="the package's folder")
    skill.add_argument(
        "--description", required=True, help="what the package covers and when to use it"
    )
    skill.add_argument("--name", help="the skill's name (default and rule: the folder's name)")
    for sub in (doc, bundle, skill):
        sub.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
        sub.add_argument("--today", type=iso_date, help="the log.md date (default: today)")


def run_new(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package

    given = Path(args.target)
    opened = given.parent if args.kind == "bundle" else given
    location = open_package(opened, PROG)
    pkg = Package.open(location.root)
    rel = _relative(given, location.root)
    if rel is None:
        return _fail(f"{given} is not inside the package {location.root}", 2)
    return _create(pkg, args, rel)


def _relative(path: Path, root: Path) -> str | None:
    """``path`` (existing or not) relative to ``root``, POSIX; ``None`` when outside."""
    real = os.path.realpath(path)
    base = os.path.realpath(root)
    if real == base:
        return ""
    if not real.startswith(base + os.sep):
        return None
    return Path(os.path.relpath(real, base)).as_posix()


def _create(pkg: Package, args: argparse.Namespace, rel: str) -> int:
    from kas_tui.core import editing
    from kas_tui.core.okf.errors import EditError
    from kas_tui.core.store import ConflictError, StoreError
    from kas_tui.features.create import (
        CreateError,
        default_type,
        plan_bundle,
        plan_document,
        plan_skill,
        write_bundle,
        write_document,
        write_skill,
    )

    try:
        if args.kind == "doc":
            plan: Any = plan_document(
                pkg,
                rel,
                title=args.title,
                description=args.description,
                type=args.type if args.type is not None else default_type(pkg, rel),
                tags=args.tags.split(","),
                file_name=args.file,
                runtime=args.runtime,
            )
            write: Any = write_document
            done = [f"created {plan.path} ({plan.frontmatter['type']}, status: draft)"]
            done.append(f"listed in {plan.placement.describe()}")
        elif args.kind == "bundle":
            plan = plan_bundle(pkg, rel, title=args.title, description=args.description)
            write = write_bundle
            done = [f"created {plan.folder}/ and {plan.index}"]
            done.append(f"listed in {plan.placement.describe()}")
        else:
            plan = plan_skill(pkg, description=args.description, name=args.name)
            write = write_skill
            done = [f"created SKILL.md for the skill {plan.name}"]
        if args.dry_run:
            print(editing.preview(pkg, lambda p: write(p, plan, today=args.today)), end="")
            print(f"{PROG}: dry run, nothing written", file=sys.stderr)
            return 0
        write(pkg, plan, today=args.today)
    except CreateError as exc:
        option = _OPTIONS.get(exc.field)
        return _fail(f"{option}: {exc.message}" if option else str(exc), 1)
    except (EditError, ConflictError) as exc:
        return _fail(str(exc), 1)
    except (StoreError, OSError) as exc:
        return _fail(str(exc), 2)
    for line in [*done, "logged in log.md"]:
        print(line)
    return 0


#: The option or argument each :class:`CreateError` field comes from.
_OPTIONS = {
    "title": "--title",
    "description": "--description",
    "type": "--type",
    "tags": "--tags",
    "file-name": "--file",
    "folder": "PATH",
    "bundle": "BUNDLE",
    "name": "--name",
}


def _fail(message: str, code: int) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return code
