"""Finding a package's root and listing its files, without reading any of them.

Kept apart from the readers so that a check whose report is remembered (see
``checks/memo.py``) imports nothing heavier than this.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path

from kas_tui.core.fileio import entry_kind, is_plain_file, is_temp_name, path_kind
from kas_tui.core.fileio import os_reason as _os_reason
from kas_tui.text.wording import visible

RESERVED = frozenset({"index.md", "log.md"})
#: The names of a skill's file, in the order the reference validator ``skills-ref``
#: (``parser.find_skill_md``) looks for them in the skill's folder: exactly these two.
SKILL_NAMES = ("SKILL.md", "skill.md")


def skill_file(folder: Path) -> str | None:
    """The name of ``folder``'s skill file as ``skills-ref`` finds it, else ``None``.

    Raises ``OSError`` when ``folder`` cannot be searched (no permission).
    """
    for name in SKILL_NAMES:
        try:
            os.stat(folder / name)
        except (FileNotFoundError, NotADirectoryError):
            continue
        return name
    return None


class PackageError(Exception):
    """The path cannot be opened as a package at all (not a folder, several skills...)."""


@dataclass
class Problem:
    """Something wrong with one file, found while loading.

    ``code`` is a stable loader id (``frontmatter``, ``encoding``, ``unreadable``, ...);
    ``path`` is root-relative POSIX (``""`` for the package itself).
    """

    path: str
    message: str
    line: int | None = None
    hint: str = ""
    severity: str = "error"
    code: str = "load"

    def __str__(self) -> str:
        where = f"{self.path or '.'}:{self.line}" if self.line else (self.path or ".")
        text = f"{where}: {self.message}"
        return visible(f"{text} ({self.hint})" if self.hint else text)


@dataclass
class Walk:
    """What is on disk under a root (root-relative POSIX paths)."""

    documents: list[str] = field(default_factory=list)
    indexes: list[str] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)
    assets: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    skill: str | None = None  # the skill file: SKILL.md, else a lowercase skill.md
    ignored_skill: str | None = None  # a skill.md beside SKILL.md: neither skill nor document
    problems: list[Problem] = field(default_factory=list)
    stats: dict[str, tuple[int, int]] = field(default_factory=dict)  # .md files' (size, mtime)
    #: kas-tui's own temporary files (absolute paths): never documents; the loader
    #: removes those whose writer died (``fileio.remove_stale_temps``).
    temps: list[str] = field(default_factory=list)


def is_hidden(name: str) -> bool:
    """A file or folder name the package does not hold (``.git``, editors' swap files,
    our own temporary files): never listed, never news to live reload."""
    return name.startswith(".")


def size_mtime(st: os.stat_result) -> tuple[int, int]:
    """What tells a file changed without reading it: its size and modification time."""
    return st.st_size, st.st_mtime_ns


def walk(root: Path, *, stat: bool = False) -> Walk:
    """List the package's files; symlinks leaving the root or looping are problems, and
    so is anything that is neither a regular file nor a folder (a named pipe, a socket, a
    device, or an in-package symlink to one): it is listed nowhere, so nothing opens it.

    With ``stat``, the sizes and modification times of the ``.md`` files are collected too.
    """
    out = Walk(folders=[""])
    real_root = os.path.realpath(root)
    stack = [("", str(root))]
    while stack:
        rel_dir, abs_dir = stack.pop()
        try:
            entries = sorted(os.scandir(abs_dir), key=lambda e: e.name)
        except OSError as exc:
            out.problems.append(
                Problem(rel_dir, f"cannot list folder: {_os_reason(exc)}", code="unreadable")
            )
            continue
        subdirs = []
        for entry in entries:
            if is_hidden(entry.name):
                if is_temp_name(entry.name) and is_plain_file(entry):
                    out.temps.append(entry.path)
                continue
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            problem = _symlink_problem(entry, rel, real_root) if entry.is_symlink() else None
            if problem is not None:
                out.problems.append(problem)
                continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if entry.is_symlink():
                    out.problems.append(
                        Problem(
                            rel,
                            "symlinked folder not followed (its files would be listed twice)",
                            severity="info",
                            code="symlink",
                        )
                    )
                    continue
                subdirs.append((rel, entry.path))
                out.folders.append(rel)
                continue
            kind = entry_kind(entry)
            if kind is not None:
                out.problems.append(special_problem(rel, kind))
                continue
            if entry.name in SKILL_NAMES and not rel_dir:
                if out.skill is None or entry.name == SKILL_NAMES[0]:
                    out.ignored_skill, out.skill = out.skill, rel
                else:
                    out.ignored_skill = rel
            elif entry.name in RESERVED:
                (out.indexes if entry.name == "index.md" else out.logs).append(rel)
            elif entry.name.endswith(".md"):
                out.documents.append(rel)
            else:
                out.assets.append(rel)
                continue  # only whether an asset exists matters, not its size
            if stat:
                try:  # noqa: SIM105 - per file: cheaper than contextlib.suppress
                    out.stats[rel] = size_mtime(entry.stat())
                except OSError:
                    pass
        stack.extend(reversed(subdirs))
    out.folders.sort()
    return out


def special_problem(rel: str, kind: str) -> Problem:
    """The problem of ``rel``, a named pipe, socket or device (``kind``): never opened."""
    return Problem(
        rel,
        f"a {kind}, not a regular file: never opened; remove it from the package",
        severity="warning",
        code="special-file",
    )


def _symlink_problem(entry: os.DirEntry, rel: str, real_root: str) -> Problem | None:
    """A problem for a symlink that loops, dangles or leaves the package, else ``None``."""
    try:
        os.stat(entry.path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Problem(rel, "symlink loop: the link points back to itself", code="symlink")
        return Problem(rel, "broken symlink: its target does not exist", code="symlink")
    target = os.path.realpath(entry.path)
    if target != real_root and not target.startswith(real_root + os.sep):
        return Problem(
            rel,
            f"symlink leaves the package (to {target}); not followed",
            hint="copy the file into the package instead of linking it",
            code="symlink",
        )
    parent = os.path.realpath(os.path.dirname(entry.path))
    if os.path.isdir(target) and (parent == target or parent.startswith(target + os.sep)):
        return Problem(
            rel, "symlink loop: the folder links back to its own ancestor", code="symlink"
        )
    return None


def find_root(path: Path) -> Path:
    """The package root for ``path``.

    The folder holding the skill file (``SKILL.md``, see :data:`SKILL_NAMES`) at or above
    ``path``; else the one sub-folder that holds one (a skills folder with one skill); else
    ``path`` itself. A file stands for its folder. :class:`PackageError` says, in one line,
    why there is no root: no such path, a folder that cannot be read, several skills.
    """
    path = Path(os.path.abspath(path))
    try:
        if not path.exists():
            raise PackageError(f"{path}: no such file or folder")
        if not path.is_dir():  # a file, or a pipe or device (never opened)
            path = path.parent
    except OSError as exc:
        raise PackageError(f"{path}: cannot be read ({_os_reason(exc)})") from None
    for folder in (path, *path.parents):
        try:
            if skill_file(folder):
                return folder
        except OSError as exc:
            if folder == path:
                raise PackageError(_unlistable(path, exc)) from None
    try:
        skills = [c for c in sorted(path.iterdir()) if not c.name.startswith(".") and c.is_dir()]
    except OSError as exc:
        raise PackageError(_unlistable(path, exc)) from None
    found = []
    for child in skills:
        try:
            if skill_file(child):
                found.append(child)
        except OSError as exc:
            raise PackageError(
                f"{child}: cannot be read ({_os_reason(exc)}), so whether it is a skill is "
                "unknown; fix its permissions or open the skill's own folder"
            ) from None
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        names = ", ".join(s.name for s in found)
        raise PackageError(f"{path} holds {len(found)} skills ({names}); open one of them")
    return path


@dataclass(frozen=True)
class Location:
    """What a path given to ``kas-tui PATH`` or ``kas-tui check PATH`` opens.

    ``root`` is the package root; ``note`` a line to show on opening (a root without a
    skill file), else empty.
    """

    root: Path
    note: str = ""


def locate(path: str | os.PathLike[str]) -> Location:
    """Decide what ``path`` is, for every face that opens a package (one rule, one home).

    A package root, a folder inside one, or a skills folder with one skill: its root. A
    folder of documents without a skill file: itself, with a note. Everything else raises
    :class:`PackageError` with the one-line message to print: no such path, a file, a
    folder that cannot be read, an empty folder, a folder holding no Markdown, several
    skills.
    """
    given = Path(os.path.abspath(path))
    try:
        is_file = given.exists() and not given.is_dir()
    except OSError as exc:
        raise PackageError(f"{given}: cannot be read ({_os_reason(exc)})") from None
    if is_file:
        try:
            above = find_root(given)
            hint = f"give its package's folder, {above}" if skill_file(above) else ""
        except (PackageError, OSError):
            hint = ""
        kind = path_kind(given)
        what = f"a {kind}, not a folder (it is never opened)" if kind else "a file, not a folder"
        raise PackageError(
            f"{given}: {what}; " + (hint or "give the folder that holds the package's SKILL.md")
        )
    root = find_root(given)
    _check_listable(root)
    if skill_file(root):
        return Location(root)
    markdown, unreadable = _holds_markdown(root)
    if markdown:
        return Location(
            root,
            f"{root} has no SKILL.md: opened as OKF documents without a skill "
            "(add SKILL.md to make it one; check --agent-ready reports it)",
        )
    if unreadable is not None:
        raise PackageError(unreadable)
    try:
        empty = not any(not e.name.startswith(".") for e in os.scandir(root))
    except OSError as exc:  # pragma: no cover - listed a moment ago
        raise PackageError(_unlistable(root, exc)) from None
    if empty:
        raise PackageError(
            f"{root}: an empty folder, not a package; build one into it with "
            f"kas-tui build SOURCE_DIR {root}"
        )
    raise PackageError(f"{root} is not a package: it holds no SKILL.md, index.md or .md document")


def _unlistable(folder: Path, exc: OSError) -> str:
    return f"{folder}: cannot list the folder ({_os_reason(exc)}); fix its permissions"


def _check_listable(folder: Path) -> None:
    try:
        with os.scandir(folder):
            pass
    except OSError as exc:
        raise PackageError(_unlistable(folder, exc)) from None


def _holds_markdown(root: Path) -> tuple[bool, str | None]:
    """Whether a ``.md`` file is anywhere under ``root`` (stops at the first), and the
    message of the first folder that could not be listed on the way."""
    stack = [str(root)]
    unreadable = None
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.name.startswith("."):
                        continue
                    if entry.name.endswith(".md") and entry.is_file():
                        return True, None
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError as exc:
            unreadable = unreadable or _unlistable(Path(folder), exc)
    return False, unreadable
