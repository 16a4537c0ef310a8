"""When a source last changed, as its git repository says: the time of the last commit
that changed it.

A file checked out of git carries the time of the checkout, not of its last change: a
fresh clone made every page "changed today", and the review queue then listed every
verified document as changed since its verification. So a source in a git work tree is
dated by its newest commit (``git log``, newest first, read until every file is
dated); a file with changes not committed yet (``git status``), one git does not track,
and every file when git is not installed or the folder is no work tree, keeps its file
time.

Git is asked only to read: ``GIT_OPTIONAL_LOCKS=0`` (``status`` writes no index) and
``core.fsmonitor`` off (a repository's own config could name a program for it to run).
A history too long to read in ``TIMEOUT`` seconds leaves the files it did not reach
their file times, and says so; so does a shallow clone, whose oldest commit dates
every file it did not change since.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Collection, Sequence
from pathlib import Path

from kas_tui.features.importing.convert import Converted
from kas_tui.text.wording import counted

#: Longest a build waits for git's history (seconds).
TIMEOUT = 10.0
_SAFE = (
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.untrackedCache=false",
    "-c",
    "log.showSignature=false",
)
#: What :func:`_run` answers when git took over ``TIMEOUT`` seconds (no output of git's).
_SLOW = "\0slow"
_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}


def date_by_commits(converted: Sequence[Converted], folder: Path | None = None) -> list[str]:
    """Date each of ``converted`` by its last commit where git has one (its ``mtime``,
    which drafting writes as ``sources[].last_modified``); the notes on what could not
    be. ``folder``: the build's source folder, around every file (one history read);
    without it, files are looked up by the folder each is in (an import's files may
    come from anywhere)."""
    groups: dict[Path, list[tuple[str, Converted]]] = {}
    for item in converted:
        path = Path(os.path.abspath(item.source))
        base = folder if folder is not None else path.parent
        try:
            rel = path.relative_to(os.path.abspath(base)).as_posix()
        except ValueError:
            rel, base = path.name, path.parent
        groups.setdefault(Path(base), []).append((rel, item))
    notes: list[str] = []
    for base, items in groups.items():
        times, said = commit_times(base, [rel for rel, _item in items])
        notes += said
        for rel, item in items:
            if rel in times:
                item.mtime = times[rel]
    return notes


def commit_times(
    folder: Path, files: Collection[str], *, timeout: float = TIMEOUT
) -> tuple[dict[str, float], list[str]]:
    """``files`` (relative to ``folder``, POSIX) -> the time of the newest commit that
    changed each (seconds since the epoch), for those git tracks unchanged; and notes
    on what could not be dated so. Nothing when ``folder`` is in no git work tree."""
    git = shutil.which("git")
    if git is None or not files:
        return {}, []
    env = {**os.environ, **_ENV}
    top = _run([git, *_SAFE, "-C", str(folder), "rev-parse", "--show-toplevel"], env)
    if top is None or top == _SLOW:
        return {}, []
    root = Path(top.strip())
    try:
        inner = Path(os.path.realpath(folder)).relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        return {}, []
    prefix = "" if inner == "." else inner + "/"
    status = _run(
        [
            git,
            *_SAFE,
            "-C",
            str(root),
            "status",
            "--porcelain=v1",
            "-z",
            "--no-renames",
            "--untracked-files=all",
            "--",
            prefix or ".",
        ],
        env,
    )
    if status == _SLOW:
        return {}, [
            f"{root}: git took over {TIMEOUT:.0f} s to list the changed files: every "
            "source is dated by its file time"
        ]
    if status is None:
        return {}, []
    dirty = {entry[3:] for entry in status.split("\0") if len(entry) > 3}
    wanted = {prefix + f: f for f in files if prefix + f not in dirty}
    found, complete = _log(git, root, prefix, set(wanted), env, timeout)
    notes = []
    if not complete:
        left = len(wanted) - len(found)
        notes.append(
            f"{folder}: git's history took over {timeout:.0f} s to read: {counted(left, 'source')} "
            "not reached are dated by their file times"
        )
    shallow = _run([git, *_SAFE, "-C", str(root), "rev-parse", "--is-shallow-repository"], env)
    if shallow is not None and shallow.strip() == "true":
        notes.append(
            f"{root}: a shallow clone: sources its history does not show changing are dated "
            "by its oldest commit; fetch its whole history (git fetch --unshallow) for "
            "their own dates"
        )
    return {wanted[path]: when for path, when in found.items()}, notes


def _run(command: list[str], env: dict[str, str]) -> str | None:
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            env=env,
            timeout=TIMEOUT,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return _SLOW
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8", "surrogateescape") if done.returncode == 0 else None


def _log(
    git: str, root: Path, prefix: str, wanted: set[str], env: dict[str, str], timeout: float
) -> tuple[dict[str, float], bool]:
    """The newest commit time of each of ``wanted`` (repository paths), reading the
    history newest first until all are dated; and whether it was read to the end (or
    every file dated) within ``timeout``."""
    command = [
        git,
        *_SAFE,
        "-C",
        str(root),
        "log",
        "--format=%x00%ct",
        "--name-only",
        "-z",
        "--no-renames",
        "--",
        prefix or ".",
    ]
    try:
        proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=env,
        )
    except OSError:
        return {}, True
    found: dict[str, float] = {}
    late = threading.Event()

    def stop() -> None:  # a read waiting on git ends when git is killed
        late.set()
        proc.kill()

    timer = threading.Timer(timeout, stop)
    timer.start()
    assert proc.stdout is not None
    buffer, previous, when = b"", b"x", 0.0
    try:
        while len(found) < len(wanted):
            chunk = proc.stdout.read1(1 << 16)
            if not chunk:
                break
            *tokens, buffer = (buffer + chunk).split(b"\0")
            for token in tokens:
                if not previous and token.isdigit():
                    when = float(token)  # a commit: the files after it are its
                elif token:
                    path = token.removeprefix(b"\n").decode("utf-8", "surrogateescape")
                    if path in wanted and path not in found:
                        found[path] = when
                previous = token
        return found, not late.is_set()
    finally:
        timer.cancel()
        proc.kill()
        proc.wait()
        proc.stdout.close()
