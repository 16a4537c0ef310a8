"""Ctrl+C (SIGINT to the whole process group, as a terminal sends it) stops a command
at once: exit 130, one line, no traceback, no worker left behind, no hang."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.generate import generate_package
from kas_tui.cli.main import INTERRUPTED

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="finds worker processes in /proc"
)


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that just ended
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("interrupt") / "big-kb", 6000)


@contextlib.contextmanager
def ctrl_c_not_ignored() -> Iterator[None]:
    """Children started within get Ctrl+C as a terminal's foreground job has it. A
    suite started in the background (``pytest &`` from a script, ``nohup``) ignores
    SIGINT, as the shell has it, and its children inherit that: a command started so
    rightly goes on (a background job is not the terminal's to stop), and this test
    failed whenever the suite ran in the background. A handler of our own, unlike
    "ignore", is reset to the default across ``exec``."""
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def test_ctrl_c_during_a_check_stops_it_and_its_workers(big: Path) -> None:
    for _attempt in range(3):  # the check may end before its workers are seen
        with ctrl_c_not_ignored():
            process = subprocess.Popen(
                [sys.executable, "-m", "kas_tui", "check", "--no-cache", str(big)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,  # its own process group, as a terminal's job
            )
        workers: list[int] = []
        while process.poll() is None and not (workers and all(map(_ignores_ctrl_c, workers))):
            workers = children(process.pid)  # reading has begun: workers are forked...
        # ... and started (a signal landing inside os.fork() is lost to CPython's
        # at-fork hooks: the check then simply goes on)
        if process.poll() is not None:
            process.communicate()
            continue
        os.killpg(process.pid, signal.SIGINT)
        try:
            _, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raise AssertionError("the check hung after Ctrl+C") from None
        assert process.returncode == INTERRUPTED, err
        assert "Traceback" not in err and err.strip() == "kas-tui: interrupted"
        for worker in workers:
            assert not Path(f"/proc/{worker}").exists() or "zombie" in _state(worker)
        return
    pytest.skip("the check always ended before Ctrl+C could be sent")


def _ignores_ctrl_c(pid: int) -> bool:
    """Whether process ``pid`` ignores SIGINT (a worker that has started)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    ignored = int(status.split("SigIgn:")[1].split()[0], 16)
    return bool(ignored & (1 << (signal.SIGINT - 1)))


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0]
    except (OSError, IndexError):
        return "zombie"


PARENT = """
import multiprocessing, sys, threading
from kas_tui.core.workers import start_as_worker

def blocked():
    start_as_worker()
    threading.Event().wait()  # waits on nothing the parent holds: no pipe to see close

if __name__ == "__main__":
    child = multiprocessing.get_context("fork").Process(target=blocked)
    child.start()
    print(child.pid, flush=True)
    threading.Event().wait()
"""


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_worker_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    """kill -9 on the starting process: a worker blocked on something else than the
    parent's pipe (a pool's replacement worker waiting on the queue's lock) does not
    live on, orphaned."""
    script = tmp_path / "parent.py"
    script.write_text(PARENT, encoding="utf-8")
    with ctrl_c_not_ignored():  # "ignores SIGINT" is how the worker is seen to have started
        parent = subprocess.Popen(
            [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, start_new_session=True
        )
    try:
        worker = int(parent.stdout.readline())
        while not _ignores_ctrl_c(worker):  # it has started
            pass
        ended = os.pidfd_open(worker)  # readable once the worker has ended
        try:
            os.kill(parent.pid, signal.SIGKILL)
            parent.wait()
            readable, _, _ = select.select([ended], [], [], 30)
        finally:
            os.close(ended)
        assert readable, "the worker outlived its parent"
    finally:
        with contextlib.suppress(ProcessLookupError):  # whatever is left of the group
            os.killpg(parent.pid, signal.SIGKILL)
        parent.stdout.close()
