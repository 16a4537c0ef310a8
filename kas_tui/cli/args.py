"""What every ``kas-tui`` verb shares: its parser, its argument types, its package.

- :class:`Parser`: argparse that exits with 2 and a one-line message on bad usage.
- Argument types (``type=`` of ``add_argument``): :func:`whole_number`,
  :func:`positive_number`, :func:`iso_date`, :func:`rule_codes`. A bad value is a usage
  error that quotes it and says what was expected.
- :func:`open_package`: the package at or above a path, or :class:`CommandError` with the
  one line that says why not (exit 2); every verb that takes a package calls it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kas_tui.text.wording import counted

if TYPE_CHECKING:
    from kas_tui.core.disk import Location


class Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and a one-line message on bad usage (its default too)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: {message}\n")


class CommandError(Exception):
    """A verb cannot go on: :func:`kas_tui.cli.main.main` prints ``kas-tui VERB: message``
    on stderr and exits with ``code`` (2: usage or I/O error)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def open_package(path: str | Path, prog: str, *, note: bool = True) -> Location:
    """The package ``path`` names (its folder, a file in it, or a folder below its root).

    A note about how it was found (``path`` was below the root) goes to stderr after
    ``prog`` (unless ``note`` is false: the TUI shows it in its own way); a path that is no package, cannot be read or does not exist raises
    :class:`CommandError` with the one line that says so.
    """
    from kas_tui.core.disk import PackageError, locate

    try:
        location = locate(path)
    except (PackageError, OSError) as exc:
        raise CommandError(str(exc)) from None
    if location.note and note:
        print(f"{prog}: {location.note}", file=sys.stderr)
    return location


def whole_number(minimum: int | None = None, unit: str = "") -> Callable[[str], int]:
    """A ``type`` for a whole number, no smaller than ``minimum`` when given; ``unit``
    names what it counts in the messages ("'0' must be at least 1 token")."""
    of = f" of {unit}s" if unit else ""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number{of}") from None
        if minimum is not None and value < minimum:
            least = counted(minimum, unit) if unit else f"{minimum:,}"
            raise argparse.ArgumentTypeError(f"{text!r} must be at least {least}")
        return value

    return parse


def positive_number(text: str) -> float:
    """A ``type`` for a number above 0 (seconds, megabytes)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
    return value


def iso_date(text: str) -> dt.date:
    """An argument's ``YYYY-MM-DD`` (``--today``), or a usage error naming it."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def rule_codes(text: str) -> list[str]:
    """Comma-separated rule codes or prefixes (``KAS03,OKF1``), upper-cased."""
    return [c.strip().upper() for c in text.split(",") if c.strip()]
