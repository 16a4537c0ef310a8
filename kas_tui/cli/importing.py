"""``kas-tui import`` and ``kas-tui build``: their options, their runs, their summaries.

Exit codes: 0 done, 1 some files failed, 2 usage or I/O error.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from kas_tui.cli.args import Parser, positive_number, whole_number
from kas_tui.text.prose import clip
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET
from kas_tui.text.wording import counted, visible


def _limit_options(parser: argparse.ArgumentParser) -> None:
    from kas_tui.features.importing.convert_model import (
        DEFAULT_MAX_BYTES,
        DEFAULT_MAX_MEMORY,
        DEFAULT_TIMEOUT,
    )

    parser.add_argument(
        "--timeout",
        type=positive_number,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"time limit of one file's conversion; a converter running longer is stopped "
        f"(default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-size",
        type=positive_number,
        default=DEFAULT_MAX_BYTES / 2**20,
        metavar="MB",
        help=f"larger files are not converted (default {DEFAULT_MAX_BYTES / 2**20:g})",
    )
    parser.add_argument(
        "--max-memory",
        type=positive_number,
        default=DEFAULT_MAX_MEMORY / 2**20,
        metavar="MB",
        help="memory one conversion process may use; a conversion needing more fails "
        f"(default {DEFAULT_MAX_MEMORY / 2**20:g})",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1),
        default=None,
        metavar="N",
        help="conversion processes in parallel (default: one per CPU, at most 8)",
    )
    parser.add_argument(
        "--type",
        help="the type of documents that have none of their own (default: inferred from each)",
    )


def import_arguments(parser: Parser) -> None:
    parser.description = (
        "Convert files (PDF, Word, PowerPoint, Excel, HTML, EPUB, CSV, text, "
        "Markdown) into documents of a package: each gets drafted frontmatter (status: draft), "
        "an entry in its bundle's index.md and a log.md entry. A file already imported is "
        "never imported twice. Exit 0: every file imported (or already there, unchanged); "
        "1: some files failed or need --yes; 2: usage error."
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


def build_arguments(parser: Parser) -> None:
    parser.description = (
        "Build a Knowledge-as-Skill package from a folder of documents: convert "
        "every file (keeping the folder structure), draft frontmatter, write an index.md per "
        "folder, SKILL.md and log.md, then check the result. Run it again to take in changed "
        "sources: only what changed is converted, and values a curator edited are kept. "
        "Exit 0: built, no errors; 1: some files failed or the check found errors; 2: usage."
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
        type=whole_number(1, "token"),
        default=INDEX_TOKEN_BUDGET,
        help="most tokens one index may take; a folder whose index would take more is "
        f"split into topical sub-bundles (default {INDEX_TOKEN_BUDGET:,})",
    )
    parser.add_argument(
        "--no-check", action="store_true", help="skip the agent-ready check at the end"
    )
    parser.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="list every build note (by default they are counted by kind)",
    )
    _limit_options(parser)


def _limits(args: argparse.Namespace) -> Any:
    from kas_tui.features.importing.convert import Limits

    return Limits(
        timeout=args.timeout,
        max_bytes=int(args.max_size * 2**20),
        max_memory=int(args.max_memory * 2**20),
    )


def _package_for(target: Path) -> Path | None:
    """The root (holding SKILL.md) of the package ``target`` is in or would be in.

    Raises ``OSError`` for a folder on the way that cannot be read.
    """
    from kas_tui.core.disk import skill_file

    anchor = target
    while not os.path.lexists(anchor) and anchor != anchor.parent:
        anchor = anchor.parent
    if anchor.is_file():
        return None
    with os.scandir(anchor):  # the bundle itself must be listable
        pass
    for folder in (anchor, *anchor.parents):
        if skill_file(folder):
            return folder
    return None


def run_import(args: argparse.Namespace) -> int:
    from kas_tui.core.fileio import path_kind
    from kas_tui.core.package import Package
    from kas_tui.core.store import os_reason
    from kas_tui.features.importing.importer import (
        ImportFailed,
        bundle_of,
        confirm_update,
        plan_import,
        preview_import,
        write_import,
    )
    from kas_tui.features.importing.progress import Progress
    from kas_tui.text.wording import visible

    for name in args.files:
        if os.path.isdir(name):
            print(
                f"kas-tui import: {name}: a folder, not a file; import the files in it "
                f"(kas-tui import {name}/*) or build a package from it (kas-tui build)",
                file=sys.stderr,
            )
            return 2
        kind = path_kind(name)
        if kind is not None:
            print(
                f"kas-tui import: {visible(name)}: a {kind}, not a regular file: never opened; "
                "import regular files",
                file=sys.stderr,
            )
            return 2
    target = Path(os.path.abspath(args.into))
    try:
        if target.exists() and not target.is_dir():
            print(f"kas-tui import: {args.into}: not a folder", file=sys.stderr)
            return 2
        root = _package_for(target)
    except OSError as exc:
        where = exc.filename or target
        print(f"kas-tui import: {where}: cannot be read ({os_reason(exc)})", file=sys.stderr)
        return 2
    if root is None:
        print(
            f"kas-tui import: {args.into} is not inside a package (no SKILL.md in it or above "
            "it); create one with kas-tui build, or import into a package folder",
            file=sys.stderr,
        )
        return 2
    pkg = Package(root)
    pkg.load()
    try:
        bundle = bundle_of(pkg, target)
    except ValueError as exc:
        print(f"kas-tui import: {exc}", file=sys.stderr)
        return 2
    progress = Progress("converting", len(args.files)) if len(args.files) > 3 else None
    done = 0

    def on_result(_i: int, _result: Any) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress.update(done)

    plans = plan_import(
        pkg,
        [Path(f) for f in args.files],
        bundle,
        type=args.type,
        limits=_limits(args),
        update=args.yes,
        workers=args.workers,
        on_result=on_result,
    )
    if progress is not None:
        progress.finish()
    if not args.dry_run and sys.stdin.isatty() and any(p.action == "duplicate" for p in plans):
        plans = [_ask_update(p, confirm_update) for p in plans]
    if args.dry_run:
        sys.stdout.write(preview_import(pkg, plans).diff)
    else:
        try:
            write_import(pkg, plans)
        except ImportFailed as exc:
            print(f"kas-tui import: {exc}", file=sys.stderr)
            return 1
    return _import_summary(plans, dry_run=args.dry_run)


def _ask_update(plan: Any, confirm: Any) -> Any:
    if plan.action != "duplicate" or plan.existing is None:
        return plan
    print(visible(plan.message), file=sys.stderr)
    try:
        answer = input(f"Update {plan.existing} from {visible(plan.source.name)}? [y/N] ")
    except EOFError:
        answer = ""
    return confirm(plan) if answer.strip().lower() in ("y", "yes") else plan


def _import_summary(plans: list[Any], *, dry_run: bool) -> int:
    would = "would be " if dry_run else ""
    verbs = {"create": f"{would}imported", "update": f"{would}updated"}
    counts: dict[str, int] = {}
    for plan in plans:
        counts[plan.action] = counts.get(plan.action, 0) + 1
        if plan.action in verbs:
            draft = plan.draft
            print(
                visible(
                    f"{verbs[plan.action]}: {plan.source} -> {plan.path} "
                    f"({draft.type}: {draft.title})"
                )
            )
            for note in draft.notes:
                print(visible(f"  {plan.source.name}: {note}"), file=sys.stderr)
        elif plan.action == "unchanged":
            print(visible(f"unchanged: {plan.message}"))
        else:
            failed = "failed" if plan.action == "failed" else "skipped"
            print(visible(f"{failed}: {plan.message}"), file=sys.stderr)
    parts = [
        f"{counts[k]} {label}"
        for k, label in (
            ("create", f"{would}imported"),
            ("update", f"{would}updated"),
            ("unchanged", "unchanged"),
            ("duplicate", "already imported (use --yes to update)"),
            ("failed", "failed"),
        )
        if counts.get(k)
    ]
    tail = "; nothing was written" if dry_run else ""
    print(f"{', '.join(parts) or 'nothing to import'}{tail}.", file=sys.stderr)
    return 1 if counts.get("failed") or counts.get("duplicate") else 0


def run_build(args: argparse.Namespace) -> int:
    from kas_tui.features.importing.build import BuildError, build
    from kas_tui.features.importing.progress import Progress

    bars: dict[str, Progress] = {}
    labels = {"convert": "converting", "draft": "drafting", "write": "writing"}

    def report(stage: str, done: int, total: int) -> None:
        if stage not in labels or total == 0:
            return
        bar = bars.get(stage)
        if bar is None:
            bar = bars[stage] = Progress(labels[stage], total)
        bar.update(done)
        if done >= total:
            bar.finish()

    try:
        result = build(
            Path(args.source),
            Path(args.out),
            name=args.name,
            limits=_limits(args),
            workers=args.workers,
            type=args.type,
            progress=report,
            validate=not args.no_check,
            link_base=args.link_base,
            index_budget=args.index_budget,
        )
    except BuildError as exc:
        print(f"kas-tui build: {exc}", file=sys.stderr)
        return 2
    return _build_summary(result, verbose=getattr(args, "verbose", False))


#: Most notes a build lists one by one without --verbose; more are counted by kind.
_NOTES_LISTED = 5
#: A note's place ("docs/a.md:12: ", "SKILL.md: ", "Office and NAV.md:1: ").
_NOTE_PLACE = re.compile(r"^[^:]+?(?::\d+)?:\s+")
#: A path: a word holding a "/" or ending in an extension ("a/b", "CALCDATE-Function--Date-.md").
_NOTE_PATH = re.compile(r"[^\s:;,()']*(?:\w/\w|\.[A-Za-z][A-Za-z0-9]{0,4}\b)[^\s:;,()']*")
#: Quoted or bracketed words and counts; a digit inside a word stays ("UTF-8", "H2").
_NOTE_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\([^)]*\)|(?<![\w-])\d[\d,.]*")


#: A note's line in its file, after its place ("line 12: ", "line 3 of _topic.rst: ").
_NOTE_LINE = re.compile(r"^line \d+(?: of [^:]+)?:\s+")
#: A directive a page's note is about, which names its kind (".. autoclass:: x is not
#: shown: ..." -> ".. autoclass:: not shown").
_NOTE_DIRECTIVE = re.compile(r"^(\.\. [\w:-]+::|:::)(?= ).*? is not shown\b")


def note_kind(note: str) -> str:
    """What a build note says, without where: ``docs/a.md:12: docs/x.svg is an
    image: ...`` -> "is an image"; the kind notes are counted by."""
    text = _NOTE_LINE.sub("", _NOTE_PLACE.sub("", note, count=1), count=1)
    directive = _NOTE_DIRECTIVE.match(text)
    if directive:
        return f"{directive.group(1)} not shown"
    text = _NOTE_PATH.sub("…", text)
    text = re.sub(r"…(?:\s*…)+", "…", _NOTE_QUOTED.sub("…", text))
    return re.split(r"[:;]", text, maxsplit=1)[0].strip(" ,.…") or "other"


def _notes_summary(notes: list[str], err: Any) -> None:
    kinds = Counter(note_kind(n) for n in notes)
    print(f"  notes: {len(notes):,} (--verbose lists each)", file=err)
    for kind, n in kinds.most_common():
        example = next(note for note in notes if note_kind(note) == kind)
        if n == 1:  # a kind of one note: the note itself, whole
            print(f"    {visible(example)}", file=err)
        else:
            print(f"    {n:,} x {kind} (e.g. {clip(visible(example), 110)})", file=err)


def _build_summary(result: Any, *, verbose: bool = False) -> int:
    err = sys.stderr
    verb = "Built" if result.first else "Updated"
    total = sum(result.seconds.values())
    print(
        f"{verb} {visible(str(result.out))} from {counted(result.sources, 'source file')} "
        f"in {total:.1f} s: "
        f"{len(result.created):,} created, {len(result.updated):,} updated, "
        f"{result.unchanged:,} unchanged, {len(result.failed):,} failed"
        + (f", {counted(result.assets, 'asset')} copied" if result.assets else "")
        + ".",
        file=err,
    )
    stages = ", ".join(f"{k} {v:.1f} s" for k, v in result.seconds.items())
    print(f"  time: {stages}", file=err)
    if result.failed:
        print(f"{len(result.failed)} file(s) could not be converted:", file=err)
        for error in result.failed:
            print(f"  {visible(error.message)}", file=err)
    for note in result.kept:
        print(f"  kept: {visible(note)}", file=err)
    if verbose or len(result.notes) <= _NOTES_LISTED:
        for note in result.notes:
            print(f"  note: {visible(note)}", file=err)
    else:
        _notes_summary(result.notes, err)
    if result.report is not None:
        report = result.report
        counts = Counter(f.code for f in report.findings if f.severity != "info")
        worst = ", ".join(f"{code} x{n}" for code, n in counts.most_common(6))
        print(
            f"check --agent-ready: {report.count('error')} errors, {report.count('warning')} "
            f"warnings, {report.count('info')} info" + (f" ({worst})" if worst else ""),
            file=err,
        )
        for finding in [f for f in report.findings if f.severity == "error"][:20]:
            where = f"{finding.path}:{finding.line}" if finding.line else finding.path
            print(f"  {visible(where)}: {finding.code} {visible(finding.message)}", file=err)
    return 1 if result.failed or result.errors else 0
