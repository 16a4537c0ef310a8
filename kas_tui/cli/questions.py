"""``kas-tui questions``: draft a question set from a package's own bodies."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kas_tui.cli.args import Parser, open_package, whole_number
from kas_tui.features.evaluate.drafting import DEFAULT_N


def questions_arguments(parser: Parser) -> None:
    parser.description = (
        "Draft a question set for kas-tui eval from the package's document "
        "bodies (section headings and opening sentences, troubleshooting symptoms, "
        "procedure goals; never titles, descriptions or index entries), deterministically "
        "and offline. Exit 0: written; 2: usage or I/O error."
    )
    parser.add_argument("path", metavar="PKG", help="package folder")
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="file to write: JSON Lines, or a .json file as an Agent Skills evals.json "
        "(default: the package's own evals/evals.json, which travels with the skill)",
    )
    parser.add_argument(
        "--n", type=whole_number(1), default=DEFAULT_N, help=f"how many questions ({DEFAULT_N})"
    )
    parser.add_argument(
        "--seed", type=whole_number(), default=0, help="another seed picks other sections (0)"
    )
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")


def run_questions(args: argparse.Namespace) -> int:
    from kas_tui.core.fileio import os_reason
    from kas_tui.core.package import Package
    from kas_tui.core.store import StoreError
    from kas_tui.features.evaluate.drafting import NOTHING_TO_ASK, draft_questions
    from kas_tui.features.evaluate.question_files import question_set_text
    from kas_tui.features.evaluate.skill_evals import numbered, package_evals

    location = open_package(args.path, "kas-tui questions")
    out = Path(args.out) if args.out else package_evals(location.root)
    if out.exists() and not args.force:
        print(
            f"kas-tui questions: {out} exists; choose another --out or add --force to replace it",
            file=sys.stderr,
        )
        return 2
    package = Package.open(location.root)
    questions = draft_questions(package, n=args.n, seed=args.seed)
    if not questions:
        print(f"kas-tui questions: {package.name}: {NOTHING_TO_ASK}", file=sys.stderr)
        return 2
    skill_name = package.skill.name if package.skill is not None else ""
    skill_name = skill_name or package.name
    if out.suffix.lower() == ".json":
        questions = numbered(questions)  # the format's ids are integers
    text = question_set_text(out, questions, skill_name)

    def replace(old: str | None) -> str:
        if old is not None and not args.force:  # made since it was looked for
            raise StoreError(out, "exists; add --force to replace it")
        return text

    try:  # through the store: atomic, and the package's evals/ folder made when missing
        package.store.apply(out, replace, create=True, parents=not args.out)
    except StoreError as exc:
        print(f"kas-tui questions: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(
            f"kas-tui questions: cannot write {out}: {os_reason(exc, writing=True)}",
            file=sys.stderr,
        )
        return 2
    documents = len({q.gold[0] for q in questions})
    short = f" (asked for {args.n}; no more usable sections)" if len(questions) < args.n else ""
    print(
        f"Wrote {len(questions)} question(s) from {documents} document(s) of {package.name} "
        f"to {os.fspath(out)}{short}."
    )
    return 0
