"""Conversions in worker processes, each under a time limit.

A converter that hangs (a pathological PDF) or crashes (a native library) takes its
worker process with it, never the caller: the pool kills a worker whose conversion
outlives ``Limits.timeout``, reports the file, and starts a fresh worker for the rest.
``concurrent.futures`` cannot kill one task, hence this small pool of its own.

Workers come from a ``forkserver`` that has imported MarkItDown once (where the platform
has one; ``spawn`` elsewhere), so a new worker starts in milliseconds instead of paying
the second or more MarkItDown takes to import. The clock of a conversion starts when the
worker says it has begun, so the import is never counted against a file.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from kas_tui.core.workers import map_chunks_in_two, start_as_worker
from kas_tui.features.importing.convert import (
    ConversionError,
    Limits,
    Result,
    check_size,
    convert_here,
    default_workers,
    needs_markitdown,
)

#: Seconds a new worker may take to report that it started a conversion.
STARTUP_GRACE = 120.0


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["kas_tui.features.importing.convert", "markitdown"])
        return ctx
    return multiprocessing.get_context("spawn")


def _cap_memory(limit: int) -> None:
    """Cap this process's data memory (heap and anonymous mappings) where the OS can.

    Elsewhere the time limit still stops a runaway conversion, only later.
    """
    if limit <= 0:
        return
    try:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
    except (ImportError, AttributeError, ValueError, OSError):
        pass


def _serve(conn: Connection, limits: Limits, convert: Callable[[Path, Limits], Result]) -> None:
    """A worker: convert each path received, until told to stop or the pipe closes."""
    start_as_worker()
    _cap_memory(limits.max_memory)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if message is None:
            return
        path = Path(message)
        with contextlib.suppress(ImportError):
            from kas_tui.features.importing.convert import needs_markitdown

            if needs_markitdown(path):
                import markitdown  # noqa: F401  (imported before the clock starts)
        conn.send(("start", str(path)))
        try:
            result: Result = convert(path, limits)
        except MemoryError:
            result = ConversionError(
                path,
                "memory",
                f"{path.name}: the conversion needed more than {limits.max_memory / 2**20:g} MB "
                "of memory and was stopped (raise the limit with --max-memory)",
            )
        except BaseException as exc:  # never let one file end the worker silently
            result = ConversionError(path, "crashed", f"{path.name}: the converter failed ({exc})")
        try:
            conn.send(("done", result))
        except Exception as exc:  # an unpicklable result
            conn.send(("done", ConversionError(path, "crashed", f"{path.name}: {exc}")))


class _Worker:
    def __init__(self, ctx: Any, limits: Limits, convert: Callable[[Path, Limits], Result]) -> None:
        parent, child = ctx.Pipe()
        self.conn: Connection = parent
        self.process = ctx.Process(target=_serve, args=(child, limits, convert), daemon=True)
        self.process.start()
        child.close()
        self.task: tuple[int, Path] | None = None
        self.deadline: float | None = None
        self.started = False

    def give(self, index: int, path: Path, now: float) -> None:
        self.task = (index, path)
        self.started = False
        self.deadline = now + STARTUP_GRACE  # until the worker says it started
        self.conn.send(str(path))

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(None)
        self.process.join(2)
        if self.process.is_alive():
            self.kill()
        with contextlib.suppress(Exception):
            self.conn.close()


class ConverterPool:
    """Worker processes converting files under :class:`Limits`.

    Use as a context manager; :meth:`close` (or leaving the ``with``) kills whatever is
    still running, so a cancelled import leaves no process behind. ``convert`` is the
    function a worker runs on each path (a module-level function, as workers import it
    by name; tests pass one that hangs or crashes).
    """

    def __init__(
        self,
        limits: Limits | None = None,
        workers: int | None = None,
        *,
        convert: Callable[[Path, Limits], Result] = convert_here,
    ) -> None:
        self.limits = limits or Limits()
        self.convert = convert
        self.size = max(1, workers or default_workers())
        self._ctx = _context()
        self._workers: list[_Worker] = []

    def __enter__(self) -> ConverterPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every worker (killing those still converting)."""
        workers, self._workers = self._workers, []
        for worker in workers:
            if worker.task is not None:
                worker.kill()
            else:
                worker.stop()

    def imap(
        self, paths: Sequence[Path], *, should_stop: Callable[[], bool] | None = None
    ) -> Iterator[tuple[int, Result]]:
        """Convert ``paths``; yield ``(position in paths, result)`` as each one finishes.

        ``should_stop`` is asked between results; when it says so, the running
        conversions are killed and nothing more is yielded.
        """
        pending = deque(enumerate(Path(p) for p in paths))
        while pending or any(w.task for w in self._workers):
            if should_stop is not None and should_stop():
                self.close()
                return
            busy_count = sum(1 for w in self._workers if w.task is not None)
            while len(self._workers) < min(self.size, len(pending) + busy_count):
                self._workers.append(_Worker(self._ctx, self.limits, self.convert))
            now = time.monotonic()
            for worker in self._workers:
                if worker.task is None and pending:
                    index, path = pending.popleft()
                    try:
                        worker.give(index, path, now)
                    except OSError:  # the worker died while idle: drop it, retry the file
                        self._drop(worker)
                        pending.appendleft((index, path))
                        break
            busy = [w for w in self._workers if w.task is not None]
            if not busy:
                continue
            timeout = max(0.0, min(w.deadline or now for w in busy) - time.monotonic())
            ready = wait([w.conn for w in busy], timeout=min(timeout, 0.5))
            for worker in busy:
                if worker.conn in ready:
                    yield from self._receive(worker)
            now = time.monotonic()
            for worker in [w for w in self._workers if w.task is not None]:
                if worker.deadline is not None and now >= worker.deadline:
                    yield self._expire(worker)

    def _receive(self, worker: _Worker) -> Iterator[tuple[int, Result]]:
        assert worker.task is not None
        index, path = worker.task
        try:
            kind, payload = worker.conn.recv()
        except (EOFError, OSError):
            worker.process.join(1)
            code = worker.process.exitcode
            how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            self._drop(worker)
            yield (
                index,
                ConversionError(
                    path,
                    "crashed",
                    f"{path.name}: the converter crashed ({how}); nothing was written",
                ),
            )
            return
        if kind == "start":
            worker.started = True
            worker.deadline = time.monotonic() + self.limits.timeout
            return
        worker.task, worker.deadline = None, None
        yield index, payload

    def _expire(self, worker: _Worker) -> tuple[int, Result]:
        assert worker.task is not None
        index, path = worker.task
        started = worker.started
        self._drop(worker)
        if not started:
            message = f"{path.name}: the converter did not start within {STARTUP_GRACE:.0f} s"
        else:
            message = (
                f"{path.name}: conversion took longer than {self.limits.timeout:g} s and was "
                "stopped (raise the limit with --timeout)"
            )
        return index, ConversionError(path, "timeout", message)

    def _drop(self, worker: _Worker) -> None:
        """Kill ``worker`` and forget it; the loop starts a fresh one when work remains."""
        worker.kill()
        worker.task = None
        self._workers.remove(worker)


# --- many files ------------------------------------------------------------------------------


def convert_files(
    paths: Sequence[Path],
    limits: Limits | None = None,
    *,
    workers: int | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Iterator[tuple[int, Result]]:
    """Convert ``paths``; yield ``(position in paths, result)`` as each one is done.

    Markdown and text are read in this process; the rest is converted by a pool of
    ``workers`` processes under ``limits`` (see :class:`ConverterPool`).
    ``should_stop`` is asked between files: a cancelled run kills its workers.
    """
    limits = limits or Limits()
    heavy: list[int] = []
    if should_stop is None and len(paths) >= HERE_IN_TWO_MIN:
        yield from _here_in_two(paths, limits, heavy)
    else:
        for i, raw in enumerate(paths):
            if should_stop is not None and should_stop():
                return
            path = Path(raw)
            problem = check_size(path, limits)
            if problem is not None:
                yield i, problem
            elif needs_markitdown(path):
                heavy.append(i)
            else:
                yield i, convert_here(path, limits)
    if heavy:
        with ConverterPool(limits, workers) as pool:
            for j, result in pool.imap([Path(paths[i]) for i in heavy], should_stop=should_stop):
                yield heavy[j], result


#: From this many files on (and when nothing may stop the run), :func:`convert_files`
#: reads Markdown and text in this process and a forked helper.
HERE_IN_TWO_MIN = 300


def _here_in_two(
    paths: Sequence[Path], limits: Limits, heavy: list[int]
) -> Iterator[tuple[int, Result]]:
    """:func:`convert_files`' loop over the files it converts itself, done in two
    processes (:func:`map_chunks_in_two`): the same results, in the same order; the
    files MarkItDown converts are put in ``heavy``."""
    results: dict[int, Result] = {}
    here: list[int] = []
    for i, raw in enumerate(paths):
        path = Path(raw)
        problem = check_size(path, limits)
        if problem is not None:
            results[i] = problem
        elif needs_markitdown(path):
            heavy.append(i)
        else:
            here.append(i)
    done = map_chunks_in_two(
        lambda chunk: [convert_here(Path(paths[i]), limits) for i in chunk], here, chunk=32
    )
    results.update(zip(here, done, strict=True))
    yield from sorted(results.items())


def convert_file(path: Path | str, limits: Limits | None = None) -> Result:
    """Convert one file under ``limits`` (in a worker process when it needs MarkItDown)."""
    for _i, result in convert_files([Path(path)], limits, workers=1):
        return result
    return ConversionError(Path(path), "crashed", f"{Path(path).name}: nothing was converted")
