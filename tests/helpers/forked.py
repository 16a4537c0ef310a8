"""Making sure a forked helper does some of the work (:func:`kas_tui.core.workers.map_chunks_in_two`)."""

from __future__ import annotations

import os
import select
from collections.abc import Callable
from typing import Any

import pytest

from kas_tui.core import workers
from tests.helpers.waiting import WAIT_TIMEOUT


class HelperFirst:
    """``work`` for ``map_chunks_in_two`` whose first chunk in this process starts only
    once the forked helper has started ``chunks`` of its own (a condition, not a time:
    this process reads the byte the helper writes as it starts each): with 2, the
    helper has sent its first chunk's results, which this process then takes. Give it
    more than one chunk of items (with one, nothing is forked), and small results (a
    helper sending more than a pipe holds would wait for this process)."""

    def __init__(self, work: Callable[[list[Any]], list[Any]], chunks: int = 1) -> None:
        self.work = work
        self.chunks = chunks
        self.me = os.getpid()
        self.read_end, self.write_end = os.pipe()
        self.waited = False

    def __call__(self, chunk: list[Any]) -> list[Any]:
        if os.getpid() != self.me:
            os.write(self.write_end, b"x")
        elif not self.waited:
            self.waited = True
            for _ in range(self.chunks):
                ready, _, _ = select.select([self.read_end], [], [], WAIT_TIMEOUT)
                if not ready:  # no helper was forked (one chunk), or it stopped
                    pytest.fail(f"the forked helper did not start {self.chunks} chunks")
                os.read(self.read_end, 1)
        return self.work(chunk)

    def close(self) -> None:
        os.close(self.read_end)
        os.close(self.write_end)


def helper_first_map(
    real: Callable[..., list[Any]], calls: list[int], *, chunk: int | None = None
) -> Callable[..., list[Any]]:
    """A stand-in for a module's ``map_chunks_in_two``: records how many items each call
    maps in ``calls``, and runs ``real`` with the helper starting first
    (:class:`HelperFirst`; where forking is not possible, as ``real`` does), in chunks
    of ``chunk`` when given, else of the caller's."""

    def both_processes(work: Callable[[list[Any]], list[Any]], items, *, chunk: int):
        calls.append(len(items))
        first = HelperFirst(work) if workers.fork_possible() else work
        try:
            return real(first, items, chunk=size or chunk)
        finally:
            if isinstance(first, HelperFirst):
                first.close()

    size = chunk
    return both_processes
