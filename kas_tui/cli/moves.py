"""``kas-tui mv``, ``kas-tui split`` and ``kas-tui merge``: moves with every reference kept.

Paths are given as on the command line (relative to the working folder, or absolute);
the package is the one holding SRC (its SKILL.md found by walking up, as every command
finds it), or ``--package``. Exit 0: moved (or, with ``--dry-run``, the diff printed);
1: refused (the message says why; nothing was written); 2: usage or I/O error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kas_tui.cli.args import CommandError, Parser

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.features.moves.planner import MovePlan


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print the renames and the diff of every file it would write; write nothing",
    )
    parser.add_argument(
        "--package",
        metavar="PKG",
        help="the package's folder (default: the one whose SKILL.md is above the paths)",
    )
    parser.add_argument("--no-log", action="store_true", help="add no log.md entry")


def mv_arguments(parser: Parser) -> None:
    parser.description = (
        "Rename or move a document, an asset or a whole bundle inside its "
        "package, keeping every reference: Markdown links everywhere (relative ones "
        "recomputed), index entries (moved to the target bundle's index), paths SKILL.md "
        "and the indexes write as code, sources[].resource, and the links of the moved "
        "files themselves; one log.md entry. DST is the new path, or an existing folder to "
        "move into. Exit 0: moved; 1: refused; 2: usage or I/O error."
    )
    parser.add_argument("src", metavar="SRC", help="document, asset or folder to move")
    parser.add_argument("dst", metavar="DST", help="its new path, or a folder to move it into")
    _common(parser)


def split_arguments(parser: Parser) -> None:
    parser.description = (
        "Move chosen documents (or assets) of a bundle into a new sub-bundle: "
        "it gets an index.md listing them (their entries keep their descriptions) and an "
        "entry in the bundle's index.md; every reference is kept, as kas-tui mv keeps them. "
        "Exit 0: split; 1: refused; 2: usage or I/O error."
    )
    parser.add_argument("bundle", metavar="BUNDLE", help="the bundle's folder")
    parser.add_argument("name", metavar="NAME", help="the new sub-bundle's folder name")
    parser.add_argument(
        "documents", nargs="+", metavar="DOC", help="documents to move (paths, or names in BUNDLE)"
    )
    parser.add_argument(
        "--description", required=True, help="the new bundle's one-sentence index description"
    )
    parser.add_argument("--title", default="", help="its entry's title (default: from NAME)")
    _common(parser)


def merge_arguments(parser: Parser) -> None:
    parser.description = (
        "Move everything in bundle SOURCE into bundle TARGET: SOURCE's index "
        "entries join TARGET's index, SOURCE's index.md and its entry in its parent's index "
        "go, and links to SOURCE lead to TARGET; every reference is kept, as kas-tui mv "
        "keeps them. Exit 0: merged; 1: refused; 2: usage or I/O error."
    )
    parser.add_argument("source", metavar="SOURCE", help="the bundle to empty and remove")
    parser.add_argument("target", metavar="TARGET", help="the bundle that receives it")
    _common(parser)


def run_mv(args: argparse.Namespace) -> int:
    from kas_tui.features.moves.planner import into, plan_move

    def plan(pkg: Package) -> MovePlan:
        src = _inside(pkg, args.src)
        dst = args.dst
        if dst.endswith(("/", os.sep)) or os.path.isdir(dst):
            return plan_move(pkg, src, into(pkg, src, _inside(pkg, dst)), log=not args.no_log)
        return plan_move(pkg, src, _inside(pkg, dst), log=not args.no_log)

    return _run("mv", args, args.src, plan)


def run_split(args: argparse.Namespace) -> int:
    from kas_tui.features.moves.planner import plan_split

    def plan(pkg: Package) -> MovePlan:
        bundle = _inside(pkg, args.bundle)
        documents = [
            _inside(pkg, doc if os.path.exists(doc) else os.path.join(args.bundle, doc))
            for doc in args.documents
        ]
        return plan_split(
            pkg,
            bundle,
            documents,
            args.name,
            description=args.description,
            title=args.title,
            log=not args.no_log,
        )

    return _run("split", args, args.bundle, plan)


def run_merge(args: argparse.Namespace) -> int:
    from kas_tui.features.moves.planner import plan_merge

    def plan(pkg: Package) -> MovePlan:
        return plan_merge(
            pkg, _inside(pkg, args.source), _inside(pkg, args.target), log=not args.no_log
        )

    return _run("merge", args, args.source, plan)


def _inside(pkg: Package, path: str) -> str:
    """``path`` as given on the command line, root-relative (refused outside)."""
    from kas_tui.features.moves.refusals import clean_path

    return clean_path(pkg, os.path.abspath(path), "the path", root_ok=True)


def _run(command: str, args: argparse.Namespace, near: str, plan) -> int:  # noqa: ANN001
    from kas_tui.core.disk import PackageError, find_root, skill_file
    from kas_tui.core.okf.errors import EditError
    from kas_tui.core.package import Package
    from kas_tui.core.store import StoreError
    from kas_tui.features.moves.planner import apply_plan

    name = f"kas-tui {command}"
    start = Path(os.path.abspath(args.package or near))
    while not start.exists() and start != start.parent:  # a missing SRC is refused later
        start = start.parent
    try:
        root = find_root(start)
        if args.package is None and not skill_file(root):
            raise PackageError(
                f"no SKILL.md above {near}: give the package's folder with --package PKG"
            )
    except (PackageError, OSError) as exc:
        raise CommandError(str(exc)) from None
    pkg = Package.open(root, cache=True)
    try:
        planned = plan(pkg)
    except EditError as exc:
        print(f"{name}: refused: {exc}", file=sys.stderr)
        return 1
    for note in planned.notes:
        print(f"{name}: {note}", file=sys.stderr)
    if args.dry_run:
        sys.stdout.write(planned.diff())
        print(f"{planned.summary()}; nothing was written (--dry-run).", file=sys.stderr)
        return 0
    try:
        apply_plan(pkg, planned, reload=False)
    except StoreError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    print(f"{planned.label}: {planned.summary()}.")
    return 0
