"""Waiting for a condition, never for a time: :func:`wait_until` in plain tests,
:func:`pilot_wait_until` in Textual's Pilot tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

#: How long a condition may take to come true (generous: a slow, shared CI machine).
WAIT_TIMEOUT = 30.0
_POLL = 0.01  # between two looks at the condition; never a wait for the thing itself


def wait_until(predicate: Callable[[], object], *, timeout: float = WAIT_TIMEOUT) -> None:
    """Poll ``predicate`` until it is true; fail, naming it, after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"still false after {timeout:g} s: {_name(predicate)}")
        time.sleep(_POLL)  # not a wait: the poll interval


async def pilot_wait_until(
    pilot, predicate: Callable[[], object], *, timeout: float = WAIT_TIMEOUT
) -> None:
    """:func:`wait_until` inside a Textual test: the app runs (and its messages drain) between looks."""
    deadline = time.monotonic() + timeout
    await pilot.pause()
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"still false after {timeout:g} s: {_name(predicate)}")
        await asyncio.sleep(_POLL)  # not a wait: the poll interval (timers, threads run)
        await pilot.pause()


def _name(predicate: Callable[[], object]) -> str:
    code = getattr(predicate, "__code__", None)
    where = f" ({code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno})" if code else ""
    return f"{getattr(predicate, '__qualname__', predicate)!s}{where}"
