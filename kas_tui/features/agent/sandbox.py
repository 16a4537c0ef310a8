"""The agent's view of the file system: paths as an agent writes them, kept in the package.

An agent names a file the way its tools let it: package-relative (``incidents/index.md``),
``/``-rooted from the package (``/incidents/index.md``), or absolute under the folder the
catalog location names (``/home/me/.claude/skills/orbit-handbook/incidents/index.md``).
:meth:`Sandbox.locate` turns any of these into a package-relative POSIX path and says
what is there: a ``file``, a ``folder``, nothing (``missing``), or a place the agent may
not go (``outside``: ``..`` escapes, ``~`` and drive paths, symlinks leaving the root,
``/``-rooted paths whose first folder is not one of the package's, such as
``/etc/passwd``, and paths holding a NUL or longer than 1,024 characters, which are never
handed to the file system). Backslashes separate folders, as Windows agents write them.
Hidden files and folders (``.git``) are not part of the package: they are ``missing``,
as they are for the loader.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass

from kas_tui.core.fileio import entry_kind, read_regular
from kas_tui.core.okf.text import decode

FILE = "file"
FOLDER = "folder"
MISSING = "missing"
OUTSIDE = "outside"

_WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]")

#: Longer path arguments are refused unread (no file system takes one this long).
MAX_PATH_CHARS = 1024


@dataclass(frozen=True)
class LeftOut:
    """A package entry :meth:`Sandbox.walk` leaves out, and why (``what``: "a symlink
    leaving the package", "a named pipe (FIFO), not a regular file", ...)."""

    path: str
    what: str
    #: what was never done to it: a symlink is never ``followed``, a pipe never ``opened``
    never: str = "opened"
    #: what the curator can do about it
    fix: str = "remove it from the package"


#: The package's own question set and its answers (the Agent Skills ``evals/`` folder at
#: the root): ``kas-tui eval`` reads it; an agent never sees it (a walk being measured
#: must not read the answers), so it is neither served, listed, read nor installed.
EVALS_FOLDER = "evals"


def unseen(path: str) -> bool:
    """Whether package-relative ``path`` is kept from agents: a hidden entry (``.x``) or
    under the root's :data:`EVALS_FOLDER`."""
    parts = path.split("/") if path else []
    return bool(parts) and (parts[0] == EVALS_FOLDER or any(p.startswith(".") for p in parts))


@dataclass(frozen=True)
class Location:
    """Where an agent's path argument points.

    ``path`` is package-relative POSIX (``''`` is the root); for an ``outside`` path it is
    the normalised text (``../secret.md``), never a place that is read.
    """

    arg: str
    path: str
    kind: str


class Sandbox:
    """Locates, reads and lists paths of the package at ``root``, and nothing else.

    ``location`` is the SKILL.md path the catalog shows; absolute paths under its folder
    are accepted as well as paths under ``root`` itself.
    """

    def __init__(self, root: str | os.PathLike[str], *, location: str | None = None) -> None:
        self.root = os.path.abspath(root)
        self.real_root = os.path.realpath(root)
        #: The skill folder as the agent knows it (from the catalog location).
        self.home = self.root
        prefixes = {self.root, self.real_root}
        if location and os.path.isabs(location):
            self.home = os.path.dirname(os.path.normpath(location))
            prefixes.add(self.home)
        self._prefixes = sorted(prefixes, key=len, reverse=True)

    # -- paths ----------------------------------------------------------------------------

    def locate(self, arg: str) -> Location:
        """Resolve a path as an agent wrote it (see the module docstring)."""
        text = arg.strip()
        if "\x00" in text or len(text) > MAX_PATH_CHARS:
            return Location(arg, "", OUTSIDE)  # never handed to the file system
        if text.startswith("file://"):
            text = text[len("file://") :]
        if text.startswith("~") or text.startswith("\\\\") or _WINDOWS_PATH.match(text):
            return Location(arg, text, OUTSIDE)
        text = text.replace("\\", "/")  # incidents\\index.md, as a Windows agent writes it
        rooted = False
        rel = text
        if text.startswith("/"):
            stripped = self._strip_prefix(text)
            rooted = stripped is None
            rel = text.lstrip("/") if stripped is None else stripped
        norm = posixpath.normpath(rel) if rel else "."
        norm = "" if norm == "." else norm
        if norm == ".." or norm.startswith("../"):
            return Location(arg, norm, OUTSIDE)
        kind = self.kind_of(norm)
        if kind == MISSING and rooted and "/" in norm:
            top = norm.split("/", 1)[0]
            if not top.startswith(".") and self.kind_of(top) == MISSING:
                # /etc/passwd: a file-system path, not a package path (and kept rooted,
                # so that the path it is known by never reads as one inside the package)
                return Location(arg, "/" + norm, OUTSIDE)
        return Location(arg, norm, kind)

    def _strip_prefix(self, text: str) -> str | None:
        for prefix in self._prefixes:
            if text == prefix or text == prefix + "/":
                return ""
            if text.startswith(prefix + "/"):
                return text[len(prefix) + 1 :]
        return None

    def kind_of(self, path: str) -> str:
        """``file``, ``folder``, ``missing`` or ``outside`` for a package-relative path."""
        if unseen(path):
            return MISSING
        full = self.full(path)
        if not self._inside(os.path.realpath(full)):
            return OUTSIDE
        if os.path.isdir(full):
            return FOLDER
        if os.path.isfile(full):
            return FILE
        return MISSING

    def full(self, path: str) -> str:
        """The file-system path of package-relative ``path``."""
        return os.path.join(self.root, *path.split("/")) if path else self.root

    def _inside(self, real: str) -> bool:
        return real == self.real_root or real.startswith(self.real_root + os.sep)

    # -- access ---------------------------------------------------------------------------

    def read_text(self, path: str) -> str:
        """The decoded text of a file (UTF-8, BOM dropped, line endings kept).

        Raises OSError, or FormatError for a binary or non-UTF-8 file.
        """
        return decode(read_regular(self.full(path))).text

    def listdir(self, path: str) -> list[str]:
        """A folder's entries, sorted by name, folders with a trailing ``/``.

        Hidden entries, symlinks leaving the package and what is neither a file nor a
        folder (a named pipe, a device: never opened) are left out. Raises OSError.
        """
        names: list[tuple[str, str]] = []
        with os.scandir(self.full(path)) as entries:
            for entry in entries:
                rel = f"{path}/{entry.name}" if path else entry.name
                if unseen(rel) or not self._inside(os.path.realpath(entry.path)):
                    continue
                if entry_kind(entry) is not None:
                    continue
                is_dir = os.path.isdir(entry.path)
                names.append((entry.name, entry.name + "/" if is_dir else entry.name))
        return [shown for _, shown in sorted(names)]

    def walk(self) -> tuple[list[str], list[LeftOut]]:
        """Every file an agent can read, package-relative and sorted, and what is left out.

        The one answer to "what is in this package" for whatever ships or serves it whole
        (``install``'s copy, the skills extension's resource list): hidden entries are
        not part of the package (left out without a word); a symlink that leaves the
        package, points at nothing, or leads back into a folder it is in, and a pipe, a
        socket or a device are left out and named. A symlink inside the package is what
        it points to.
        """
        files: list[str] = []
        left: list[LeftOut] = []
        self._walk("", {self.real_root}, files, left)
        return sorted(files), sorted(left, key=lambda item: item.path)

    def _walk(self, folder: str, seen: set[str], files: list[str], left: list[LeftOut]) -> None:
        try:
            entries = sorted(os.scandir(self.full(folder)), key=lambda entry: entry.name)
        except OSError as exc:
            left.append(
                LeftOut(folder or ".", f"a folder that cannot be read ({exc.strerror})", "read")
            )
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue
            rel = f"{folder}/{entry.name}" if folder else entry.name
            if unseen(rel):
                what = "the package's question set, with its answers"
                fix = "kas-tui eval reads it from the package"
                shown = rel + "/" if entry.is_dir() else rel
                left.append(LeftOut(shown, what, "given to an agent", fix))
                continue
            real = os.path.realpath(entry.path)
            if entry.is_symlink():
                if not self._inside(real):
                    left.append(LeftOut(rel, "a symlink leaving the package", "followed"))
                    continue
                if not os.path.exists(real):
                    left.append(LeftOut(rel, "a symlink to nothing", "followed"))
                    continue
            kind = entry_kind(entry)
            if kind is not None:
                left.append(LeftOut(rel, f"a {kind}, not a regular file"))
            elif os.path.isdir(entry.path):
                if real in seen:
                    left.append(LeftOut(rel, "a symlink back into a folder it is in", "followed"))
                    continue
                self._walk(rel, seen | {real}, files, left)
            else:
                files.append(rel)
