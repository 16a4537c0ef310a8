"""``kas-tui eval``: measure how well agents find things in a package.

Exit codes as ``check``: 0 measured (and reach at least ``--min-reach``), 1 reach below
``--min-reach``, 2 usage or input error (a bad question set, an unreadable package).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from kas_tui.cli.args import Parser, open_package, whole_number
from kas_tui.cli.discovery import discovery_arguments, run_discovery
from kas_tui.features.evaluate.ablation import LAYERS
from kas_tui.text.wording import counted


def _layers(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return list(LAYERS)
    bad = [n for n in names if n not in LAYERS]
    if bad:
        raise argparse.ArgumentTypeError(
            f"unknown layer {', '.join(bad)}; choose from {', '.join(LAYERS)} or all"
        )
    return names


def _share(text: str) -> float:
    try:
        value = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number such as 0.9") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be between 0 and 1")
    return value


def eval_arguments(parser: Parser) -> None:
    parser.description = (
        "Measure navigability: run each question through a navigator that walks "
        "the package as an agent does (the catalog entry, then only what its listdir/readfile/"
        "peek calls return), beside a flat BM25 baseline over every body. Reports reach, "
        "turns, tokens and blame. Exit 0: measured; 1: reach below --min-reach; 2: usage."
    )
    parser.add_argument("path", metavar="PKG", help="package folder")
    parser.add_argument(
        "--questions",
        metavar="FILE",
        help="question set: JSON Lines, CSV or an Agent Skills evals.json (default: the "
        "package's evals/evals.json); with --discovery, trigger queries",
    )
    parser.add_argument(
        "--budget", type=whole_number(3, "turn"), default=15, help="turns per question (15)"
    )
    parser.add_argument(
        "--within", type=int, default=4, metavar="N", help="also report reach within N turns (4)"
    )
    parser.add_argument(
        "--no-peek",
        action="store_true",
        help="the navigator has no peek tool (listdir, readfile and submit_answer only)",
    )
    parser.add_argument(
        "--ablate",
        type=_layers,
        action="append",
        default=[],
        metavar="LAYER",
        help="also run without a layer: descriptions, frontmatter, indexes, or all "
        "(repeat or separate with commas)",
    )
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    parser.add_argument(
        "--min-reach", type=_share, metavar="SHARE", help="exit 1 when reach is below (0.9)"
    )
    parser.add_argument("--top", type=int, default=10, help="blamed entries shown (10)")
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="folder for trajectories and report.json (default: a new folder under the "
        "user data folder, which the TUI's evaluation screen reads)",
    )
    parser.add_argument("--no-save", action="store_true", help="write no trajectories")
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes running questions in parallel (default: one per CPU, at most 8; "
        "the LLM navigator always asks one question at a time)",
    )
    discovery_arguments(parser)
    llm = parser.add_argument_group("LLM navigator (any OpenAI-compatible endpoint)")
    llm.add_argument("--llm-base-url", metavar="URL", help="e.g. http://localhost:11434/v1")
    llm.add_argument("--llm-model", metavar="NAME", help="the model to ask")
    llm.add_argument(
        "--llm-key-env",
        default="OPENAI_API_KEY",
        metavar="VAR",
        help="environment variable holding the API key (OPENAI_API_KEY)",
    )
    llm.add_argument(
        "--llm-timeout", type=float, default=120.0, metavar="SECONDS", help="per request (120)"
    )


def run_eval(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package
    from kas_tui.features.evaluate.question_files import read_question_set
    from kas_tui.features.evaluate.report import (
        evaluation_record,
        format_json,
        format_markdown,
        format_text,
    )
    from kas_tui.features.evaluate.runner import evaluate, lexical_factory, new_eval_dir

    if args.discovery:
        return run_discovery(args)
    if bool(args.llm_base_url) != bool(args.llm_model):
        print("kas-tui eval: --llm-base-url and --llm-model go together", file=sys.stderr)
        return 2
    location = open_package(args.path, "kas-tui eval")
    package = Package.open(location.root)
    if not args.questions:
        from kas_tui.features.evaluate.skill_evals import EVALS_PATH, package_evals

        args.questions = package_evals(location.root)
        if not args.questions.is_file():
            print(
                f"kas-tui eval: {location.root} has no {EVALS_PATH}; give --questions FILE, or "
                f"draft one into the package with: kas-tui questions {args.path}",
                file=sys.stderr,
            )
            return 2
    qset = read_question_set(args.questions, package)
    if qset.problems:
        for problem in qset.problems:
            print(f"kas-tui eval: {problem}", file=sys.stderr)
        print(
            f"kas-tui eval: {counted(len(qset.problems), 'problem')} in {args.questions}; fix "
            "them and run again",
            file=sys.stderr,
        )
        return 2
    if not qset.questions:
        print(f"kas-tui eval: {args.questions} holds no questions", file=sys.stderr)
        return 2
    ablations = list(dict.fromkeys(layer for group in args.ablate for layer in group))
    if args.llm_base_url:
        from kas_tui.features.evaluate.llm import LLMNavigator, key_from_env

        key = key_from_env(args.llm_key_env)

        def factory(_package, sandbox, catalog):  # type: ignore[no-untyped-def]
            return LLMNavigator(
                sandbox,
                catalog,
                base_url=args.llm_base_url,
                model=args.llm_model,
                api_key=key,
                budget=args.budget,
                peek=not args.no_peek,
                timeout=args.llm_timeout,
            )
    else:
        factory = lexical_factory(budget=args.budget, peek=not args.no_peek)
    out_dir = None if args.no_save else Path(args.out) if args.out else new_eval_dir(location.root)
    try:
        ev = evaluate(
            package,
            qset.questions,
            factory=factory,
            ablations=ablations,
            budget=args.budget,
            within=args.within,
            out_dir=out_dir,
            questions_source=os.fspath(args.questions),
            progress=_progress() if sys.stderr.isatty() else None,
            workers=1 if args.llm_base_url else (args.workers or min(8, os.cpu_count() or 1)),
        )
        if out_dir is not None:
            from kas_tui.core.fileio import atomic_write
            from kas_tui.features.evaluate.skill_evals import write_benchmark

            record = json.dumps(evaluation_record(ev), indent=2, ensure_ascii=False) + "\n"
            atomic_write(Path(out_dir) / "report.json", record.encode("utf-8"))
            write_benchmark(ev, out_dir)
    except OSError as exc:
        from kas_tui.core.fileio import os_reason

        print(
            f"kas-tui eval: cannot write {out_dir}: {os_reason(exc, writing=True)}", file=sys.stderr
        )
        return 2
    if args.format == "json":
        print(format_json(ev))
    elif args.format == "markdown":
        print(format_markdown(ev, top=args.top), end="")
    else:
        print(format_text(ev, top=args.top))
    if args.min_reach is not None and ev.main.overall.reach < args.min_reach:
        return 1
    return 0


def _progress():  # pragma: no cover - a terminal only
    def show(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\r  {done}/{total} questions", end=end, file=sys.stderr, flush=True)

    return show
