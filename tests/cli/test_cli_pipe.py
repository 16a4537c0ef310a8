"""A command whose reader went away (``kas-tui check PKG | head -1``) stops without a
traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kas_tui.cli.main import PIPE_CLOSED


@pytest.mark.parametrize("command", [["check"], ["rules"]])
def test_output_to_a_closed_pipe_ends_quietly(root: Path, command: list[str]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # no one will ever read: the first write fails
    try:
        args = [*command, str(root)] if command[0] == "check" else command
        result = subprocess.run(
            [sys.executable, "-m", "kas_tui", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert result.returncode == PIPE_CLOSED
    assert result.stderr == ""
