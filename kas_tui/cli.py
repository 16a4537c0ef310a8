"""The ``kas-tui`` command: ``kas-tui [PATH]`` opens the TUI on a package."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__
from .package import Package, PackageError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kas-tui",
        description="The curator's workbench for Knowledge-as-Skill packages.",
    )
    parser.add_argument("path", nargs="?", default=".", help="package folder (default: .)")
    parser.add_argument("--version", action="version", version=f"kas-tui {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code (2 for usage and I/O errors)."""
    args = _parser().parse_args(argv)
    try:
        package = Package.open(Path(args.path))
    except PackageError as exc:
        print(f"kas-tui: {exc}", file=sys.stderr)
        return 2
    from .tui.app import KasApp  # Textual is imported only for the TUI

    KasApp(package).run()
    return 0
