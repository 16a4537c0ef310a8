"""What a move may not do: the refusals of :mod:`kas_tui.features.moves.planner`, each a message that
says what is wrong and what to do instead (nothing is written when one is raised).

A move stays inside the package; the root never moves (its folder's name is the skill's
name), nor do the files whose place is fixed (SKILL.md, index.md, log.md); a target
that exists is never overwritten; a renamed file keeps its type (a document stays a
``.md`` file, an asset keeps its extension); a folder holding a skill keeps its name
(the skill's ``name`` must equal it); hidden names are refused (the package never reads
them); a move goes into an existing folder (a new bundle is made by a split).
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from kas_tui.core.disk import SKILL_NAMES
from kas_tui.core.okf.errors import EditError
from kas_tui.core.okf.text import control_chars
from kas_tui.core.package import Package

#: Names a moved file may not take: each is read as something other than a document.
RESERVED = frozenset({"index.md", "log.md", *SKILL_NAMES})


def clean_path(pkg: Package, path: str, what: str, *, root_ok: bool = False) -> str:
    """``path`` (root-relative, or absolute inside the package) as a clean root-relative
    POSIX path; refused (:class:`EditError`) outside the package."""
    given = path.strip()
    if os.path.isabs(given):
        given = os.path.relpath(given, pkg.root)
    norm = posixpath.normpath(given.replace(os.sep, "/")) if given else "."
    if norm == ".." or norm.startswith("../") or norm.startswith("/"):
        raise EditError(f"{what} {path!r} is outside the package ({pkg.root})")
    norm = "" if norm == "." else norm
    if not norm and not root_ok:
        raise EditError(
            "the package root cannot be moved or renamed: its folder's name is the skill's "
            "name (rename the folder and SKILL.md's name together, outside kas-tui)"
        )
    return norm


def source_kind(pkg: Package, src: str) -> str:
    """``document``, ``asset`` or ``folder``; refused for anything else."""
    name = posixpath.basename(src)
    if src in pkg.documents:
        kind = "document"
    elif src in pkg.assets:
        kind = "asset"
    elif src in pkg.folders:
        kind = "folder"
    elif name == "index.md":
        raise EditError(f"{src} belongs to its folder; move or rename the folder instead")
    elif src in SKILL_NAMES:
        raise EditError(f"{src} is the skill's file; it stays at the package root")
    elif name == "log.md":
        raise EditError(f"{src} is the package's update log; it stays where it is")
    elif os.path.lexists(pkg.root / src):
        raise EditError(
            f"{src} is not a document, asset or folder of the package (hidden files, "
            "symlinks leaving it and files it cannot read are not moved)"
        )
    else:
        raise EditError(f"{src} does not exist in the package")
    if os.path.islink(pkg.root / src):
        raise EditError(f"{src} is a symlink; move the file it points at instead")
    return kind


def check_target(pkg: Package, src: str, dst: str, kind: str) -> None:
    name = posixpath.basename(dst)
    check_name(name, "the new name")
    parent = posixpath.dirname(dst)
    if dst == src:
        raise EditError(f"{src} is already there; nothing to do")
    if kind == "folder" and (dst + "/").startswith(src + "/"):
        raise EditError(f"{src} cannot be moved into itself ({dst})")
    if os.path.lexists(pkg.root / dst) and not _same_entry(pkg.root / src, pkg.root / dst):
        raise EditError(f"{dst} exists already; choose another name (nothing was written)")
    if any(part.startswith(".") for part in dst.split("/")):
        raise EditError(f"{dst}: a hidden name; the package never reads hidden files")
    if parent not in pkg.folders or os.path.islink(pkg.root / parent):
        raise EditError(
            f"{parent}/ is not a folder of the package; move into an existing bundle "
            "(kas-tui split makes a new one)"
        )
    if kind == "document" and not name.endswith(".md"):
        raise EditError(f"{dst}: a document's name ends in .md (else it would be an asset)")
    if kind == "asset" and _suffix(name) != _suffix(posixpath.basename(src)):
        raise EditError(
            f"{dst}: renaming keeps the file's type; keep its "
            f"{_suffix(posixpath.basename(src)) or 'lack of an'} extension"
        )
    skill = next((n for n in SKILL_NAMES if (pkg.root / src / n).is_file()), None)
    if kind == "folder" and skill and name != posixpath.basename(src):
        raise EditError(
            f"{src}/{skill} is a skill named after its folder; renaming the folder would "
            f"break the name rule (the name must equal the folder's, {posixpath.basename(src)})"
        )


def check_name(name: str, what: str) -> None:
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        raise EditError(f"{what} {name!r} is not a file or folder name")
    if control_chars(name) or name != name.strip():
        raise EditError(f"{what} {name!r} holds control characters or edge spaces")
    if name.startswith("."):
        raise EditError(f"{what} {name!r} is hidden; the package never reads hidden files")
    if name in RESERVED or name.lower() in RESERVED:
        raise EditError(f"{what} {name!r} is reserved (index.md, log.md, SKILL.md)")


def _suffix(name: str) -> str:
    return posixpath.splitext(name)[1].lower()


def _same_entry(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def children(pkg: Package, folder: str) -> list[str]:
    """The names in ``folder`` a merge moves: all but index.md and hidden ones."""
    names = sorted(
        e.name
        for e in os.scandir(pkg.root / folder)
        if not e.name.startswith(".") and e.name != "index.md"
    )
    skills = [n for n in names if n in SKILL_NAMES]
    if skills:
        raise EditError(f"{folder}/{skills[0]} is a skill's file; a skill's folder is not merged")
    return names
