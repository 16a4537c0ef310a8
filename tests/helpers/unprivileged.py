"""Running a command as a user without root's right to read anything (``setpriv``), so a
test can see what a curator without read rights sees."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SETPRIV = shutil.which("setpriv")
#: The prefix that runs a command without root's permission overrides.
UNPRIVILEGED = (
    [SETPRIV, "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"]
    if os.geteuid() == 0 and SETPRIV
    else []
)
needs_unprivileged = pytest.mark.skipif(
    os.name != "posix" or (os.geteuid() == 0 and SETPRIV is None),
    reason="running as root without setpriv: root reads unreadable folders anyway",
)


def run_unprivileged(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*UNPRIVILEGED, sys.executable, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
