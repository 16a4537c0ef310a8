"""The suite waits for conditions, never for time: no fixed sleeps or timed pauses.

A test that sleeps is slow on a fast machine and flaky on a slow one; poll for the
condition instead (``conftest.wait_until``, ``conftest.pilot_wait_until``) or use
``pilot.pause()`` without a delay. A line that must sleep for another reason (a stand-in
for a hung program) says so with a ``# not a wait:`` comment.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
FIXED_WAIT = re.compile(r"\b(?:time\.sleep|asyncio\.sleep|sleep)\(|\.pause\(\s*[^)\s]")


def test_no_test_waits_for_a_fixed_time() -> None:
    found = [
        f"{path.relative_to(TESTS)}:{number}: {line.strip()}"
        for path in sorted(TESTS.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if FIXED_WAIT.search(line) and "# not a wait:" not in line and "FIXED_WAIT" not in line
    ]
    assert not found, "fixed waits (poll for the condition instead):\n" + "\n".join(found)
