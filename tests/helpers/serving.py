"""``kas-tui serve`` in a child process, for the serve tests: its environment, a free
port, waiting until it listens, and what it holds open."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parents[2]


def serve_env() -> dict[str, str]:
    """The child's environment: this checkout first on the path, and the test's own
    private user folders (read now, after the fixtures set them)."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_http(
    root: Path, log_dir: Path, port: int, *, max_files: int | None = None
) -> subprocess.Popen[bytes]:
    """``kas-tui serve ROOT --http 127.0.0.1:PORT --log-dir LOG_DIR``, with at most
    ``max_files`` open files when given (``ulimit -n``)."""

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (max_files, max_files))

    return subprocess.Popen(
        [sys.executable, "-m", "kas_tui", "serve", str(root), "--http", f"127.0.0.1:{port}"]
        + ["--log-dir", str(log_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=serve_env(),
        preexec_fn=limit if max_files else None,
    )


async def listening(process: subprocess.Popen[bytes], port: int) -> None:
    """Return once the server accepts connections (a condition, not a fixed wait)."""
    with anyio.fail_after(60):
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return
            except OSError:
                assert process.poll() is None, process.stderr.read().decode()
                await anyio.sleep(0.05)  # not a wait: the poll interval


def open_files(pid: int) -> int:
    """How many file descriptors process ``pid`` holds (Linux)."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def logs(folder: Path) -> list[list[dict]]:
    """Each session log in ``folder`` (oldest first), as its JSON lines."""
    found = sorted(folder.glob("*.jsonl"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    return [[json.loads(line) for line in p.read_text().splitlines()] for p in found]
