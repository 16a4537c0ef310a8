"""The ``kas-tui`` command: ``kas-tui [PATH]`` opens the TUI, ``kas-tui VERB ...`` runs a
verb headless.

With no PATH the TUI opens the writable copy of the bundled demo (as ``kas-tui demo``).
The verbs are the table in :mod:`kas_tui.cli.verbs`; each loads only its own code, so
``kas-tui check`` imports neither Textual nor MarkItDown and starts fast. Exit codes: 0
done, 1 findings or failures the verb reports, 2 usage or I/O error, 130 interrupted,
141 output no longer read.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path

from kas_tui import __version__
from kas_tui.cli.args import CommandError, Parser, open_package
from kas_tui.cli.terminal import escaped_output
from kas_tui.cli.verbs import BY_NAME, Verb, verbs_help
from kas_tui.text.wording import visible


def tui_parser() -> Parser:
    parser = Parser(
        prog="kas-tui",
        description="The curator's workbench for Knowledge-as-Skill packages: "
        "kas-tui [PATH] opens the TUI on a package, kas-tui VERB runs a verb headless "
        "(kas-tui VERB --help says more).",
        epilog=verbs_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "path", nargs="?", help="package folder (default: the bundled demo, see kas-tui demo)"
    )
    parser.add_argument("--version", action="version", version=f"kas-tui {__version__}")
    return parser


def demo_arguments(parser: Parser) -> None:
    parser.description = (
        "Open the bundled demo package. The first run copies it to the user data "
        "folder (KAS_TUI_DATA_DIR overrides it) so edits stick; later runs reopen that copy."
    )
    parser.add_argument(
        "--reset", action="store_true", help="replace the copy with a fresh one (edits are lost)"
    )
    parser.add_argument(
        "--print-path", action="store_true", help="print the copy's folder instead of opening it"
    )


#: The exit code of a command whose output was no longer read (``kas-tui eval ... | head``),
#: a shell's for a program stopped by SIGPIPE.
PIPE_CLOSED = 141
#: The exit code of a command stopped by Ctrl+C (a shell's for SIGINT).
INTERRUPTED = 130


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code (a ``check`` run as the command ends
    the process itself, see below)."""
    ends_here = argv is None and sys.argv[1:2] == ["check"]
    if ends_here:
        from kas_tui.cli import check as check_command

        check_command.KEEP_UNTIL_EXIT = []  # the package lives until os._exit below
    try:
        code = _run(argv)
        sys.stdout.flush()  # here, not at exit: a reader gone away is noticed in the try
        if ends_here:
            # Everything is written and every file closed: freeing the package's
            # millions of objects one by one (0.2 s at 20,000 documents, half of it
            # as the check returns, half at interpreter exit) would only hand the
            # memory back to a process that is about to end.
            sys.stderr.flush()
            os._exit(code)
        return code
    except BrokenPipeError:  # the reader of our output went away: stop, without a word
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # what is still buffered goes nowhere
        return PIPE_CLOSED
    except KeyboardInterrupt:  # Ctrl+C: every write is whole (staged, then renamed)
        print("\nkas-tui: interrupted", file=sys.stderr)
        return INTERRUPTED


def _run(argv: list[str] | None) -> int:
    if argv is None:
        argv = sys.argv[1:]
        if argv[:1] == ["check"]:
            # The process ends with the check, which builds millions of small objects
            # that form no cycles: the cyclic collector would only walk them, again and
            # again (about 0.15 s a walk at 10,000 documents).
            gc.disable()
    verb = BY_NAME.get(argv[0]) if argv else None
    if verb is None or verb.name in ("serve", "demo"):  # the TUI, JSON-RPC on stdout
        return _run_verb(verb, argv)
    with escaped_output():
        return _run_verb(verb, argv)


def _run_verb(verb: Verb | None, argv: list[str]) -> int:
    prog = f"kas-tui {verb.name}" if verb else "kas-tui"
    try:
        if verb is None:
            _refuse_unknown_verb(argv)
            return run_tui(tui_parser().parse_args(argv))
        parser = Parser(prog=prog)
        verb.load("arguments")(parser)
        return verb.load("run")(parser.parse_args(argv[1:]))
    except CommandError as exc:  # the verb cannot go on: one line says why
        print(f"{prog}: {visible(str(exc))}", file=sys.stderr)
        return exc.code
    except SystemExit as exc:  # argparse: --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else 2


def _refuse_unknown_verb(argv: list[str]) -> None:
    """``kas-tui checkk``: a word that names neither a verb nor something on disk is a
    mistyped verb, not a package path."""
    word = argv[0] if argv else ""
    if not word or word.startswith("-") or os.sep in word or "/" in word or "." in word:
        return
    if os.path.lexists(word):
        return
    import difflib

    close = difflib.get_close_matches(word, list(BY_NAME), n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else "; kas-tui --help lists the commands"
    raise CommandError(f"unknown command {word!r}{hint}")


def run_tui(args: argparse.Namespace) -> int:
    if args.path is not None:
        return open_tui(Path(args.path))
    from kas_tui.core.recent import recent_packages

    recent = recent_packages()
    demo = argparse.Namespace(reset=False, print_path=False)
    if not recent:  # the first run: straight into the demo
        return run_demo(demo)
    from kas_tui.tui.start import DEMO, StartApp

    chosen = StartApp(recent).run()
    if chosen is None:
        return 0
    return run_demo(demo) if chosen == DEMO else open_tui(Path(chosen))


def run_demo(args: argparse.Namespace) -> int:
    from kas_tui.features.demo import DemoError, demo_copy

    try:
        root = demo_copy(reset=args.reset)
    except (DemoError, OSError) as exc:
        print(f"kas-tui demo: {exc}", file=sys.stderr)
        return 2
    if args.print_path:
        print(root)
        return 0
    return open_tui(root)


def open_tui(path: Path) -> int:
    location = open_package(path, "kas-tui", note=False)  # the app shows the note
    from kas_tui.core.recent import remember

    remember(location.root)  # for the start screen of the next kas-tui without a path
    from kas_tui.core.memory import freeze_after_loads
    from kas_tui.core.records import compact_frontmatter
    from kas_tui.tui.app import open_app  # Textual is imported only for the TUI

    freeze_after_loads()  # this process is the TUI: keys never wait on the collector
    compact_frontmatter()  # ... and holds big packages in a third of the memory
    open_app(location).run()
    return 0
