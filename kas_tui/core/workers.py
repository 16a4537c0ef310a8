"""What every worker process does first: it leaves Ctrl+C to the process that started
it, and, on Linux, ends when that process is gone.

A terminal's Ctrl+C interrupts the whole foreground process group, workers included. A
worker interrupted mid-task died with a traceback of its own. Workers ignore the
interrupt instead; the starting process stops them when it is interrupted (leaving a
pool's ``with`` block terminates it), and says so once.

A pool torn down while its handler thread was replacing a worker can leave the new
worker behind, waiting for a task forever, after the program has exited (one Ctrl+C
in six left ``kas-tui check`` so: its shell never got the prompt back). On Linux the
kernel ends a worker when the thread that started it ends (``PR_SET_PDEATHSIG``), which
also covers a parent killed outright.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from kas_tui.core.libc import libc_function

#: prctl option: the signal a process gets when the thread that forked it ends.
_PR_SET_PDEATHSIG = 1

T = TypeVar("T")
R = TypeVar("R")


def start_as_worker() -> None:
    """First thing in a worker process: on Linux, end with the thread that started it;
    then ignore SIGINT (Ctrl+C, the parent decides). In that order, a worker seen to
    ignore SIGINT ends with its parent (the parent's Ctrl+C blocked meanwhile, see
    :func:`forking`, is never raised here)."""
    parent = os.getppid()
    prctl = libc_function("prctl")
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent ended before the request was made
            os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def forking() -> Iterator[None]:
    """Around starting worker processes: Ctrl+C waits until they are started.

    CPython runs the at-fork hooks of ``os.fork()`` in the parent, and an interrupt
    raised inside one of them is printed as "Exception ignored" and lost: the command
    went on as if Ctrl+C had not been pressed. Blocked meanwhile, the interrupt is
    raised on the line after this block instead."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def fork_possible() -> bool:
    """Whether worker processes may be forked from this process: the platform forks, and
    this process runs one thread (a fork copies only the calling thread; locks another
    held would stay held in the child)."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def map_chunks_in_two(
    work: Callable[[list[T]], list[R]], items: Sequence[T], *, chunk: int
) -> list[R]:
    """``work`` over ``items`` a chunk of ``chunk`` at a time, in this process and one
    forked helper, the results in the order of ``items``: the same list as
    ``work(items)`` when ``work`` maps each item on its own, whatever state it reads
    (the helper reads a copy of this process as it was when forked) and whatever it
    caches on the way.

    Both processes claim the next chunk from a shared counter, so a core that is busier
    simply claims fewer; only the helper's results cross a pipe (pickled, so ``R`` must
    pickle), taken between this process's own chunks as far as they have arrived in
    full (never waiting for the rest of one: on a busy machine the helper may be
    descheduled mid-write, and a wait for it every chunk made the whole slower than one
    process). Once every chunk is claimed, this
    process does the ones the helper has not sent yet itself, rather than wait (on a
    busy machine the helper may wait long for a core), and stops the helper: a chunk
    is done twice at worst, and one the helper never sends (it died) is done here.
    With one chunk, or where forking is not possible (:func:`fork_possible`),
    everything is done here.
    """
    chunks = [list(items[i : i + chunk]) for i in range(0, len(items), chunk)]
    if len(chunks) < 2 or not fork_possible():
        return work(list(items))
    context = multiprocessing.get_context("fork")
    counter = context.Value("i", 0)

    def claim() -> int | None:
        return claim_next(counter, len(chunks))

    read_end, write_end = os.pipe()
    with contextlib.suppress(ImportError, OSError):  # room for many chunks (Linux)
        import fcntl

        fcntl.fcntl(write_end, _F_SETPIPE_SZ, _PIPE_SIZE)

    def helper() -> None:
        start_as_worker()
        os.close(read_end)
        try:
            while (number := claim()) is not None:
                data = pickle.dumps((number, work(chunks[number])), pickle.HIGHEST_PROTOCOL)
                _write_all(write_end, len(data).to_bytes(8, "little") + data)
        except Exception:  # noqa: S110 - what it did not send is done by the parent
            pass

    try:
        with forking():
            process = context.Process(target=helper, daemon=True)
            process.start()
    finally:
        os.close(write_end)  # the helper holds the only writing end
    done: dict[int, list[R]] = {}
    received = bytearray()
    os.set_blocking(read_end, False)

    def take_sent() -> None:
        """The chunks the helper has sent in full so far (never waiting for more)."""
        while True:
            try:
                data = os.read(read_end, _PIPE_SIZE)
            except OSError:  # nothing more yet (EAGAIN)
                break
            if not data:  # the helper has ended
                break
            received.extend(data)
        while len(received) >= 8:
            size = int.from_bytes(received[:8], "little")
            if len(received) < 8 + size:
                break
            try:
                number, results = pickle.loads(received[8 : 8 + size])
            except Exception:  # noqa: S110 - what does not unpickle is done here
                pass
            else:
                done[number] = results
            del received[: 8 + size]

    try:
        while (number := claim()) is not None:
            done[number] = work(chunks[number])
            take_sent()
        # the chunks the helper has not sent yet are done here rather than waited for:
        # on a busy machine a helper may wait long for a core (what it sends meanwhile
        # is taken)
        for number, part in enumerate(chunks):
            take_sent()
            if number not in done:
                done[number] = work(part)
    finally:
        os.close(read_end)
        if process.is_alive():
            process.kill()  # it writes nothing but the pipe: its work is not needed
        process.join()
    return [result for number in range(len(chunks)) for result in done[number]]


#: Linux's fcntl to set a pipe's size, and the size asked for (the default maximum).
_F_SETPIPE_SZ = 1031
_PIPE_SIZE = 1 << 20


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def claim_next(counter: Any, total: int) -> int | None:
    """The number of the next of ``total`` chunks nobody has claimed, taken from the
    shared ``counter`` (a ``multiprocessing.Value``) under its lock; ``None`` when every
    chunk is taken. How processes share a job a chunk at a time."""
    with counter.get_lock():
        number = counter.value
        if number >= total:
            return None
        counter.value = number + 1
    return number
