"""The argument parser every ``kas-tui`` command uses."""

from __future__ import annotations

import argparse
import datetime as dt
import sys


class Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and a one-line message on bad usage (its default too)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: {message}\n")


def iso_date(text: str) -> dt.date:
    """An argument's ``YYYY-MM-DD`` (``--today``), or a usage error naming it."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def at_least(minimum: int):
    """An argparse ``type`` for a whole number no smaller than ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} must be at least {minimum}")
        return value

    return parse
