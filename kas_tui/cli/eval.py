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
        "--sessions",
        metavar="DIR",
        help="score the sessions `kas-tui serve` logged in DIR whose client named a question "
        "of the set, instead of running a navigator",
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
    parser.add_argument("--format", choices=("text", "json", "markdown", "csv"), default="text")
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
    agents_arguments(parser)


# --- real agents (--agent, --transcripts): kept together ------------------------------


def agents_arguments(parser: Parser) -> None:
    group = parser.add_argument_group("real agents (docs/agents-eval.md)")
    group.add_argument(
        "--agent",
        choices=("claude", "codex", "gemini"),
        help="run each question through this agent CLI, found on PATH, headless with "
        "read-only tools, the package installed as a project skill in a scratch folder",
    )
    group.add_argument(
        "--transcripts",
        metavar="DIR",
        help="score transcripts recorded elsewhere: DIR/<question id>.jsonl, Claude Code "
        "stream-json, codex exec --json or Gemini CLI stream-json (nothing is run)",
    )
    group.add_argument(
        "--timeout", type=float, default=600.0, metavar="SECONDS", help="per agent run (600)"
    )
    group.add_argument("--yes", action="store_true", help="start the agent runs without asking")


def agents_navigator(args: argparse.Namespace, package, questions: int, out_dir):  # type: ignore[no-untyped-def]
    """The navigator of ``--agent`` / ``--transcripts``, or the exit code when refused."""
    from kas_tui.features.agent.skill_catalog import catalog_entry

    said = lambda text: print(f"kas-tui eval: {text}", file=sys.stderr)  # noqa: E731
    if args.agent and args.transcripts:
        return said("--agent runs agents, --transcripts reads their runs: choose one") or 2
    if args.llm_base_url or args.ablate:
        flag = "--llm-base-url" if args.llm_base_url else "--ablate"
        return said(f"{flag} does not go with --agent or --transcripts") or 2
    skill = catalog_entry(package).name
    if args.transcripts:
        from kas_tui.features.evaluate.agent_runs import TranscriptNavigator

        if not os.path.isdir(args.transcripts):
            return said(f"{args.transcripts}: no such folder of transcripts") or 2
        return TranscriptNavigator(package, args.transcripts, skill=skill, budget=args.budget)
    from kas_tui.features.evaluate.agent_cli import AGENTS, AgentNavigator, find_program

    program = find_program(args.agent)
    if program is None:
        name = AGENTS[args.agent].label
        return said(f"no {args.agent!r} on PATH: install {name} or put its folder on PATH") or 2
    workers = args.workers or 1
    line = (
        f"{counted(questions, 'run')} of {args.agent} ({program}) will be made, one per "
        f"question, {workers} at a time, each up to {args.timeout:g} s, at the model's price"
    )
    if not args.yes:
        if not sys.stdin.isatty():
            return said(f"{line}; pass --yes to go on") or 2
        print(f"kas-tui eval: {line}. Go on? [y/N] ", end="", file=sys.stderr, flush=True)
        try:
            answer = input()
        except (EOFError, KeyboardInterrupt):
            answer = ""
            print(file=sys.stderr)
        if answer.strip().lower() not in ("y", "yes"):
            return said("nothing run") or 2
    else:
        said(line)
    return AgentNavigator(
        package,
        args.agent,
        program=program,
        timeout=args.timeout,
        budget=args.budget,
        transcripts=Path(out_dir) / "transcripts" if out_dir is not None else None,
    )


def run_eval(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package
    from kas_tui.features.evaluate.question_files import read_question_set
    from kas_tui.features.evaluate.report import format_markdown, format_text
    from kas_tui.features.evaluate.runner import evaluate, lexical_factory, new_eval_dir

    if args.discovery:
        return run_discovery(args)
    if bool(args.llm_base_url) != bool(args.llm_model):
        print("kas-tui eval: --llm-base-url and --llm-model go together", file=sys.stderr)
        return 2
    if args.sessions and (args.llm_base_url or args.ablate):
        print(
            "kas-tui eval: --sessions scores logged sessions; it runs no navigator "
            "(leave out --llm-base-url and --ablate)",
            file=sys.stderr,
        )
        return 2
    if args.sessions and not Path(args.sessions).is_dir():
        print(f"kas-tui eval: {args.sessions}: no such folder (--sessions)", file=sys.stderr)
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
    progress = _progress() if sys.stderr.isatty() else None
    if args.llm_base_url:
        from kas_tui.features.evaluate.llm import LLMNavigator, key_from_env

        key = key_from_env(args.llm_key_env)
        progress, turns = _llm_progress(len(qset.questions) * (1 + len(ablations)))

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
                report=turns,
            )
    else:
        factory = lexical_factory(budget=args.budget, peek=not args.no_peek)
    out_dir = None if args.no_save else Path(args.out) if args.out else new_eval_dir(location.root)
    agents = bool(args.agent or args.transcripts)
    if agents:
        navigator = agents_navigator(args, package, len(qset.questions), out_dir)
        if isinstance(navigator, int):
            return navigator
        factory = lambda *_: navigator  # noqa: E731
    found = None
    try:
        if args.sessions:
            from kas_tui.features.evaluate.sessions import evaluate_sessions

            ev, found = evaluate_sessions(
                package,
                qset.questions,
                args.sessions,
                budget=args.budget,
                within=args.within,
                questions_source=os.fspath(args.questions),
                out_dir=out_dir,
            )
            if not found.runs:
                print(
                    f"kas-tui eval: no session in {args.sessions} names a question of "
                    f"{args.questions} (a client names it in clientInfo's questionId or in "
                    '_meta "kas-tui/question": see docs/navigability.md)',
                    file=sys.stderr,
                )
                return 2
        else:
            ev = evaluate(
                package,
                qset.questions,
                factory=factory,
                ablations=ablations,
                budget=args.budget,
                within=args.within,
                out_dir=out_dir,
                questions_source=os.fspath(args.questions),
                progress=progress,
                workers=1
                if args.llm_base_url
                else (args.workers or (1 if agents else min(8, os.cpu_count() or 1))),
            )
        if out_dir is not None:
            from kas_tui.core.fileio import atomic_write
            from kas_tui.features.evaluate.skill_evals import write_benchmark

            text = json.dumps(_record(ev, found), indent=2, ensure_ascii=False) + "\n"
            atomic_write(Path(out_dir) / "report.json", text.encode("utf-8"))
            write_benchmark(ev, out_dir)
    except OSError as exc:
        from kas_tui.core.fileio import os_reason

        print(
            f"kas-tui eval: cannot write {out_dir}: {os_reason(exc, writing=True)}", file=sys.stderr
        )
        return 2
    for problem in getattr(navigator, "problems", []) if agents else []:
        print(f"kas-tui eval: {problem}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(_record(ev, found), indent=2, ensure_ascii=False))
    elif args.format == "csv":
        from kas_tui.features.evaluate.report import format_csv

        print(format_csv(ev), end="")
    elif args.format == "markdown":
        print(format_markdown(ev, top=args.top), end="")
    else:
        print(format_text(ev, top=args.top))
        if found is not None:
            from kas_tui.features.evaluate.sessions import sessions_text

            print("\n".join(["", *sessions_text(found, args.top)]))
    if args.min_reach is not None and ev.main.overall.reach < args.min_reach:
        return 1
    return 0


def _record(ev, found):  # type: ignore[no-untyped-def]
    """The JSON report, with what was read of the session logs (``--sessions``)."""
    from kas_tui.features.evaluate.report import evaluation_record

    record = evaluation_record(ev)
    if found is not None:
        from kas_tui.features.evaluate.sessions import sessions_record

        record["sessions"] = sessions_record(found)
    return record


def _llm_progress(total: int):  # type: ignore[no-untyped-def]
    """Questions done and each turn's line on stderr: a model may take a minute a turn,
    so a log (not a terminal) gets a line per turn too, not one every few seconds."""
    from kas_tui.features.importing.progress import Progress

    bar = Progress("questions", total, every=0.0)

    def question_done(done: int, total: int) -> None:
        bar.update(done)
        if done >= total:
            bar.finish()

    return question_done, lambda note: bar.update(bar.done, note)


def _progress():  # pragma: no cover - a terminal only
    def show(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\r  {done}/{total} questions", end=end, file=sys.stderr, flush=True)

    return show
