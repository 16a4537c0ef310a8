"""Named pipes planted in a package, and a watch that no one opens them.

Opening a named pipe (FIFO) to read blocks until something opens it to write; a test
of code that wrongly opens one would hang, not fail. :class:`PipeWatch` makes such a
regression a failure: a thread keeps trying to open each pipe it watches for writing
without blocking, which succeeds only while a reader has it open (or waits in
``open``). When it does, the pipe was opened: that is recorded, and the write end is
closed at once, so the reader sees an empty file and goes on instead of hanging.
"""

from __future__ import annotations

import errno
import os
import socket
import threading
from pathlib import Path

#: How often the watch looks for a reader (the poll interval, not a wait for anything).
_POLL = 0.01


class PipeWatch:
    """Makes named pipes and records every one something opened (see the module)."""

    def __init__(self) -> None:
        self.pipes: list[Path] = []
        self.opened: list[str] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="pipe watch", daemon=True)
        self._thread.start()

    def mkfifo(self, path: Path) -> Path:
        """A named pipe at ``path``, watched from now on."""
        os.mkfifo(path)
        with self._lock:
            self.pipes.append(path)
        return path

    def _watch(self) -> None:
        while not self._stop.wait(_POLL):  # not a wait: the poll interval
            with self._lock:
                pipes = list(self.pipes)
            for pipe in pipes:
                try:
                    fd = os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
                except OSError as exc:
                    if exc.errno not in (errno.ENXIO, errno.ENOENT):  # ENXIO: no reader
                        self.opened.append(f"{pipe}: {exc}")
                    continue
                os.close(fd)  # the reader gets end-of-file: it goes on, not hangs
                self.opened.append(str(pipe))

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


def bind_socket(folder: Path, name: str) -> socket.socket:
    """A Unix socket bound at ``folder/name`` (bound from inside the folder: a socket's
    path may hold only about 100 characters). Close it when done."""
    sock = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(folder)
    try:
        sock.bind(name)
    finally:
        os.chdir(here)
    return sock
