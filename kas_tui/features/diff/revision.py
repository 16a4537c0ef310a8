"""A package as a git revision held it, copied into a temporary folder.

``kas-tui diff PKG --since REV`` compares the package's folder with the same folder at
``REV`` of the repository holding it. The old side is read with ``git`` only: ``git
ls-tree`` lists the folder's files at the revision and ``git cat-file --batch`` hands
over their bytes as committed (no checkout, no index change, the work tree untouched).
Regular files are copied; symlinks and submodules are left out (a package's files are
regular files). Every failure is a :class:`RevisionError` with the one line to print:
no ``git``, not a repository, no such revision, no such folder in it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: git file modes copied: a plain and an executable file
_REGULAR = (b"100644", b"100755", b"100664")


class RevisionError(Exception):
    """The revision cannot be read; ``str()`` is the one line to print."""


@dataclass(frozen=True)
class Revision:
    """Where the old side was read: the folder, and how to name it."""

    folder: Path
    #: what the user gave (``main``, ``HEAD~1``)
    name: str
    #: the commit it named, abbreviated
    commit: str
    #: the sha256 of each file written, by path below the folder
    digests: dict[str, str]

    @property
    def label(self) -> str:
        return self.name if self.name.startswith(self.commit) else f"{self.name} ({self.commit})"


def _git(root: Path, *args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    git = shutil.which("git")
    if git is None:
        raise RevisionError("git is not installed; --since needs it (or give two folders)")
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    try:
        return subprocess.run(
            [git, "-C", str(root), *args], input=data, capture_output=True, env=env, check=False
        )
    except OSError as exc:
        raise RevisionError(f"git could not run: {exc.strerror or exc}") from None


def _said(done: subprocess.CompletedProcess[bytes]) -> str:
    """git's first line of complaint, without its ``fatal:``."""
    text = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return text[0].removeprefix("fatal: ").strip() if text else f"exit {done.returncode}"


def locate_in_repository(root: Path) -> tuple[str, str]:
    """The repository's top folder and ``root``'s path in it (``""`` or ``"a/b/"``)."""
    done = _git(root, "rev-parse", "--show-toplevel", "--show-prefix")
    if done.returncode != 0:
        reason = _said(done)
        if "not a git repository" in reason:
            raise RevisionError(
                f"{root} is not in a git repository; --since needs one "
                "(to compare two folders: kas-tui diff A B)"
            )
        raise RevisionError(f"git cannot read the repository of {root}: {reason}")
    top, prefix = (done.stdout.decode("utf-8", "surrogateescape").split("\n") + ["", ""])[:2]
    return top, prefix


def _plausible(rev: str) -> None:
    """Refuse what git would read as an option, or that is no name at all."""
    if not rev or rev.startswith("-") or not rev.isprintable():
        raise RevisionError(f"{rev!r} is not a revision (give a branch, a tag or a commit)")


def resolve_commit(root: Path, rev: str) -> str:
    """The full commit id ``rev`` names in the repository holding ``root``."""
    _plausible(rev)
    done = _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if done.returncode != 0:
        top, _ = locate_in_repository(root)
        raise RevisionError(
            f"{rev!r} names no commit of the repository {top} "
            "(give a branch, a tag or a commit: git log --oneline lists them)"
        )
    return done.stdout.decode().strip()


def _tree_files(root: Path, commit: str, prefix: str, rev: str) -> list[tuple[str, str]]:
    """``(object id, path below prefix)`` of every regular file of the folder at ``commit``."""
    done = _git(root, "ls-tree", "-r", "-z", "--full-tree", f"{commit}:{prefix}")
    if done.returncode != 0:
        where = prefix.rstrip("/") or "the repository's top folder"
        raise RevisionError(
            f"{where} was not in {rev}: the package did not exist there (give a later revision)"
        )
    files = []
    for record in done.stdout.split(b"\0"):
        if not record:
            continue
        head, _, name = record.partition(b"\t")
        mode, kind, oid = head.split(b" ")
        if kind != b"blob" or mode not in _REGULAR:
            continue  # a symlink or a submodule: a package holds plain files
        path = name.decode("utf-8", "surrogateescape")
        parts = path.split("/")
        if path.startswith("/") or any(p in ("", ".", "..") for p in parts):
            continue  # git never stores these; never written outside the folder
        files.append((oid.decode(), path))
    return files


def _write_blobs(root: Path, files: list[tuple[str, str]], into: Path) -> dict[str, str]:
    """The bytes of every file of ``files``, written below ``into``; their sha256 by path."""
    digests: dict[str, str] = {}
    if not files:
        return digests
    done = _git(root, "cat-file", "--batch", data="".join(f"{o}\n" for o, _ in files).encode())
    if done.returncode != 0:
        raise RevisionError(f"git could not read the files of the revision: {_said(done)}")
    out, at = done.stdout, 0
    made: set[str] = set()
    for oid, path in files:
        end = out.index(b"\n", at)
        header = out[at:end].split(b" ")
        if len(header) != 3 or header[0].decode() != oid:
            raise RevisionError(f"git gave no content for {path} ({oid[:12]})")
        size = int(header[2])
        start, at = end + 1, end + 1 + size + 1  # the content is followed by a line feed
        folder, _, _ = path.rpartition("/")
        if folder and folder not in made:
            os.makedirs(os.path.join(into, folder), exist_ok=True)
            made.add(folder)
        data = memoryview(out)[start : start + size]
        with open(os.path.join(into, path), "wb") as file:
            file.write(data)
        digests[path] = hashlib.sha256(data).hexdigest()
    return digests


@contextmanager
def package_at(root: Path, rev: str) -> Iterator[Revision]:
    """The package at ``root`` as revision ``rev`` held it, in a temporary folder named
    as ``root`` is (removed on leaving the block)."""
    _plausible(rev)
    _, prefix = locate_in_repository(root)
    commit = resolve_commit(root, rev)
    files = _tree_files(root, commit, prefix, rev)
    with tempfile.TemporaryDirectory(prefix="kas-tui-diff-") as temp:
        folder = Path(temp) / (root.name or "package")
        folder.mkdir()
        digests = _write_blobs(root, files, folder)
        yield Revision(folder, rev, commit[:10], digests)
