"""Background work gives way while the user waits (core/foreground.py)."""

from __future__ import annotations

import threading
import time

from kas_tui.core.foreground import Foreground


def test_idle_gives_way_at_once() -> None:
    gate = Foreground()
    started = time.monotonic()
    gate.give_way()
    assert time.monotonic() - started < 0.05 and not gate.waiting


def test_after_input_work_waits_for_the_quiet_period_then_goes_on() -> None:
    gate = Foreground(quiet=0.2, longest=5)
    gate.busy()
    assert gate.waiting
    started = time.monotonic()
    gate.give_way()
    took = time.monotonic() - started
    assert 0.15 <= took < 4 and not gate.waiting


def test_input_that_never_stops_holds_work_back_no_longer_than_longest() -> None:
    gate = Foreground(quiet=0.3, longest=0.2)
    stop = threading.Event()

    def typing() -> None:  # a key every 50 ms, for as long as the test runs
        while not stop.is_set():
            gate.busy()
            stop.wait(0.05)

    typist = threading.Thread(target=typing)
    typist.start()
    try:
        started = time.monotonic()
        gate.give_way()
        took = time.monotonic() - started
    finally:
        stop.set()
        typist.join()
    assert 0.15 <= took < 2  # waited, and ended although keys kept coming


def test_a_waiting_worker_goes_on_once_input_stops() -> None:
    gate = Foreground(quiet=0.1, longest=10)
    gate.busy()
    done = threading.Event()
    worker = threading.Thread(target=lambda: (gate.give_way(), done.set()))
    worker.start()
    assert done.wait(5)  # quiet for 0.1 s: it went on, well before ``longest``
    worker.join()
