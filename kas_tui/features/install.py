"""``kas-tui install``: a package copied (or linked) into the skill folders agents read.

The folders each client documents (checked December 2026):

- ``claude``: Claude Code, ``~/.claude/skills/`` (user) and ``.claude/skills/`` (project);
- ``agents``: the Agent Skills standard's shared folder, ``~/.agents/skills/`` and
  ``.agents/skills/``, read by Codex, Gemini CLI (an alias of its own), Cursor, Copilot;
- ``codex``: OpenAI Codex, which reads ``.agents/skills/`` (the same folder);
- ``gemini``: Gemini CLI, ``~/.gemini/skills/`` and ``.gemini/skills/``.

Each package goes into a subfolder named by SKILL.md's ``name`` (clients require the two
to match). A copy leaves out hidden files, the build manifest, and anything that is not a
regular file or a folder (a named pipe, a socket, a device: never opened, and said so),
and carries a marker,
``.kas-install.json``, naming its source: a later install of the same source replaces
it, a different package of the same name is refused without ``replace``. A copy is made
beside its target and renamed into place, so an agent never sees half a package.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from kas_tui.core.fileio import path_kind, read_regular
from kas_tui.core.package import Package
from kas_tui.features.agent.skill_catalog import CatalogEntry, catalog_entry

CLIENT_FOLDERS = {
    "claude": ".claude/skills",
    "agents": ".agents/skills",
    "codex": ".agents/skills",
    "gemini": ".gemini/skills",
}
CLIENTS = tuple(CLIENT_FOLDERS)
MARKER = ".kas-install.json"


class InstallError(Exception):
    """An install or uninstall refused, with the reason and what to do."""


def skills_folder(client: str, *, project: Path | None = None, home: Path | None = None) -> Path:
    """The skills folder of ``client``: in ``project`` when given, else the home folder."""
    if client not in CLIENT_FOLDERS:
        raise InstallError(f"unknown client {client!r}; the clients are {', '.join(CLIENTS)}")
    base = project if project is not None else (home or Path.home())
    return Path(base) / CLIENT_FOLDERS[client]


@dataclass(frozen=True)
class Installed:
    """One installed package: ``source`` is the package it came from (``None``: unknown,
    not installed by kas-tui); ``behind`` whether its source changed since."""

    name: str
    path: Path
    linked: bool
    source: Path | None
    behind: bool | None


@dataclass(frozen=True)
class Placed:
    """Where :func:`install` put a package, the catalog entry the agent will see there,
    and what a copy left out: ``(path, kind)`` of each named pipe, socket or device."""

    target: Path
    entry: CatalogEntry
    skipped: tuple[tuple[str, str], ...] = ()


def install(
    package: Package,
    folder: Path,
    *,
    link: bool = False,
    replace: bool = False,
) -> Placed:
    """Put ``package`` into skills folder ``folder``. Raises :class:`InstallError` when
    refused."""
    entry = catalog_entry(package)
    name = entry.name
    if not name or "/" in name or name.startswith("."):
        raise InstallError(
            f"{package.root / package.skill_file}: the skill has no usable name ({name!r}); "
            "give SKILL.md a name (lowercase letters, digits and hyphens)"
        )
    target = folder / name
    current = describe(target)
    if current is not None and current.source != package.root.resolve() and not replace:
        said = f"from {current.source}" if current.source else "not installed by kas-tui"
        raise InstallError(
            f"{target} already holds a package named {name} ({said}); --replace overwrites it"
        )
    folder.mkdir(parents=True, exist_ok=True)
    staged = folder / f".{name}.kas-install-{os.getpid()}"
    _remove(staged)
    skipped: list[tuple[str, str]] = []
    try:
        if link:
            staged.symlink_to(package.root.resolve(), target_is_directory=True)
        else:
            skipped = _copy(package.root, staged)
        _swap(staged, target)
    finally:
        _remove(staged)
    entry = catalog_entry(package, target / package.skill_file)
    return Placed(target, entry, tuple(skipped))


def _copy(root: Path, staged: Path) -> list[tuple[str, str]]:
    """Copy the package; return the ``(path, kind)`` of each pipe or device left out."""
    skipped: list[tuple[str, str]] = []

    def left_out(folder: str, names: list[str]) -> list[str]:
        out = []
        for name in names:
            if name.startswith("."):
                out.append(name)
            elif (kind := path_kind(os.path.join(folder, name))) is not None:
                out.append(name)  # copying would open it: a pipe blocks, a device never ends
                rel = Path(folder, name).relative_to(root).as_posix()
                skipped.append((rel, kind))
        return out

    shutil.copytree(root, staged, ignore=left_out, symlinks=False)
    record = {
        "source": str(root.resolve()),
        "installed": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
        "digest": _digest(root),
    }
    (staged / MARKER).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return skipped


def _swap(staged: Path, target: Path) -> None:
    """Put ``staged`` at ``target``; what was there goes only once the new one is in."""
    if not target.exists() and not target.is_symlink():
        os.replace(staged, target)
        return
    old = target.with_name(f".{target.name}.kas-old-{os.getpid()}")
    _remove(old)
    os.replace(target, old)
    try:
        os.replace(staged, target)
    except OSError:
        os.replace(old, target)  # put the old one back
        raise
    _remove(old)


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _digest(root: Path) -> str:
    """What a copy's freshness is judged by: every non-hidden file's path and bytes."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(f for f in files if not f.startswith(".")):
            path = Path(folder, name)
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            try:
                digest.update(hashlib.sha256(read_regular(path)).digest())
            except OSError:  # a pipe or device too: never opened, never copied
                digest.update(b"?")
    return digest.hexdigest()


def describe(target: Path) -> Installed | None:
    """What is installed at ``target`` (``None``: nothing)."""
    if target.is_symlink():
        source = target.resolve()
        return Installed(target.name, target, True, source, False)
    if not target.is_dir():
        return None
    try:
        record = json.loads((target / MARKER).read_text(encoding="utf-8"))
        source = Path(record["source"])
    except (OSError, ValueError, KeyError, TypeError):
        return Installed(target.name, target, False, None, None)
    behind = None
    if source.is_dir():
        behind = _digest(source) != record.get("digest")
    return Installed(target.name, target, False, source, behind)


def installed_in(folder: Path) -> list[Installed]:
    """Every package in skills folder ``folder``, by name."""
    try:
        names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    except OSError:
        return []
    found = [describe(folder / name) for name in names]
    return [f for f in found if f is not None and (f.path / "SKILL.md").exists()]


def uninstall(folder: Path, name: str, *, force: bool = False) -> Path:
    """Remove package ``name`` from ``folder``; refused for a folder kas-tui did not put
    there, unless ``force``."""
    target = folder / name
    current = describe(target)
    if current is None:
        raise InstallError(f"nothing named {name} in {folder}")
    if current.source is None and not force:
        raise InstallError(
            f"{target} was not installed by kas-tui (no {MARKER}); --force removes it anyway"
        )
    _remove(target)
    return target
