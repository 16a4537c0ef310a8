"""Making sure a forked helper does some of the work (:func:`kas_tui.core.workers.map_chunks_in_two`)."""

from __future__ import annotations

import os
import select
from collections.abc import Callable
from typing import Any

import pytest

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
