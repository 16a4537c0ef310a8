"""Work shared with one forked helper (``map_chunks_in_two``): the same list as doing it
all in this process, whichever process does which chunk, whether the helper finishes,
dies on the way, or cannot be forked at all."""

from __future__ import annotations

import os
import random
import threading

import pytest

from kas_tui.core import workers
from kas_tui.core.workers import map_chunks_in_two
from tests.helpers.forked import HelperFirst


def _square_with_pid(chunk: list[int]) -> list[tuple[int, int]]:
    return [(n * n, os.getpid()) for n in chunk]


@pytest.mark.parametrize("seed", range(5))
def test_the_results_are_the_plain_maps_in_order(seed: int) -> None:
    rng = random.Random(seed)
    items = [rng.randrange(10**6) for _ in range(rng.randrange(0, 400))]
    chunk = rng.choice([1, 3, 16, 64])
    got = map_chunks_in_two(_square_with_pid, items, chunk=chunk)
    assert [square for square, _pid in got] == [n * n for n in items]


def test_the_helper_does_chunks_of_its_own() -> None:
    """This process takes its first chunk only once the helper has sent one: both did."""
    if not workers.fork_possible():  # (then this process would wait for no helper)
        pytest.skip("this platform or process cannot fork")
    work = HelperFirst(_square_with_pid, chunks=2)
    try:
        got = map_chunks_in_two(work, list(range(200)), chunk=4)
    finally:
        work.close()
    assert [square for square, _pid in got] == [n * n for n in range(200)]
    assert {pid for _square, pid in got} - {os.getpid()}, "the helper did no chunk"


def test_chunks_a_dying_helper_never_sent_are_done_here() -> None:
    me = os.getpid()

    def work(chunk: list[int]) -> list[tuple[int, int]]:
        if os.getpid() != me:
            os._exit(3)  # the helper dies with the chunk it claimed
        return _square_with_pid(chunk)

    got = map_chunks_in_two(work, list(range(300)), chunk=8)
    assert got == [(n * n, me) for n in range(300)]


def test_a_helper_that_raises_is_quiet_and_its_chunks_are_done_here(capfd) -> None:
    me = os.getpid()

    def work(chunk: list[int]) -> list[tuple[int, int]]:
        if os.getpid() != me:
            raise ValueError("only in the helper")
        return _square_with_pid(chunk)

    got = map_chunks_in_two(work, list(range(100)), chunk=5)
    assert got == [(n * n, me) for n in range(100)]
    assert "Traceback" not in capfd.readouterr().err


def test_with_another_thread_running_nothing_is_forked(monkeypatch) -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not workers.fork_possible()
        got = map_chunks_in_two(_square_with_pid, list(range(100)), chunk=4)
    finally:
        stop.set()
        other.join()
    assert got == [(n * n, os.getpid()) for n in range(100)]


def test_a_helper_that_gets_no_core_is_not_waited_for() -> None:
    """A helper stuck in its first chunk (as on a machine too busy to give it a core):
    this process does every chunk itself and stops the helper."""
    me = os.getpid()
    never = os.pipe()  # nothing is ever written: the helper's read never returns

    def work(chunk: list[int]) -> list[tuple[int, int]]:
        if os.getpid() != me:
            os.read(never[0], 1)
        return _square_with_pid(chunk)

    try:
        got = map_chunks_in_two(work, list(range(300)), chunk=8)
    finally:
        os.close(never[0])
        os.close(never[1])
    assert got == [(n * n, me) for n in range(300)]
