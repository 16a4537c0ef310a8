"""``kas-tui install``: a package copied (or linked) into the skill folders agents read.

The folders each client documents (checked December 2026):

- ``claude``: Claude Code, ``~/.claude/skills/`` (user) and ``.claude/skills/`` (project);
- ``agents``: the Agent Skills standard's shared folder, ``~/.agents/skills/`` and
  ``.agents/skills/``, read by Codex, Gemini CLI (an alias of its own), Cursor, Copilot;
- ``codex``: OpenAI Codex, which reads ``.agents/skills/`` (the same folder);
- ``gemini``: Gemini CLI, ``~/.gemini/skills/`` and ``.gemini/skills/``.

Each package goes into a subfolder named by SKILL.md's ``name`` (clients require the two
to match), whatever the source folder is called. A copy holds what an agent serving the
package could read (:meth:`~kas_tui.features.agent.sandbox.Sandbox.walk`): hidden files
and the build manifest are left out, and so, named, are symlinks that leave the package
or point at nothing and anything that is not a regular file or a folder (a named pipe, a
socket, a device: never opened); a symlink inside the package is copied as what it
points to. A copy carries a marker, ``.kas-install.json``, naming its source (relative
to the project, or to the home folder as ``~/...``, so a committed project install
names no one's home): a later install of the same source replaces it, a different
package of the same name is refused without ``replace``. A link install leaves a
marker beside the link (``.NAME.kas-link.json``), so ``uninstall`` and ``installed``
touch only the links kas-tui made. A copy is made beside its target and renamed into
place, so an agent never sees half a package.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from kas_tui.core.fileio import read_regular
from kas_tui.core.package import Package
from kas_tui.features.agent.sandbox import LeftOut, Sandbox
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
    and what a copy left out (a symlink leaving the package, a named pipe, ...)."""

    target: Path
    entry: CatalogEntry
    skipped: tuple[LeftOut, ...] = ()


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
    source = package.root.resolve()
    current = describe(target)
    if current is not None and current.source != source and not replace:
        said = f"from {current.source}" if current.source else "not installed by kas-tui"
        raise InstallError(
            f"{target} already holds a package named {name} ({said}); --replace overwrites it"
        )
    folder.mkdir(parents=True, exist_ok=True)
    staged = folder / f".{name}.kas-install-{os.getpid()}"
    _remove(staged)
    skipped: list[LeftOut] = []
    try:
        if link:
            staged.symlink_to(source, target_is_directory=True)
        else:
            skipped = _copy(package.root, staged)
        _swap(staged, target)
    finally:
        _remove(staged)
    link_marker = _link_marker(target)
    if link:
        record = {"source": _recorded(source, folder), "installed": _now()}
        link_marker.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    else:
        link_marker.unlink(missing_ok=True)
    entry = catalog_entry(package, target / package.skill_file)
    return Placed(target, entry, tuple(skipped))


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()


def _link_marker(target: Path) -> Path:
    return target.with_name(f".{target.name}.kas-link.json")


def _recorded(source: Path, folder: Path) -> str:
    """``source`` as the marker records it: relative to the skills folder when the two
    share a project (``../../kb``), ``~/...`` under the home folder, else absolute."""
    home = Path.home().resolve()
    real = folder.resolve()
    for base in (real.parent.parent, real.parent):  # the project of .claude/skills
        if base != home and source.is_relative_to(base) and base != Path(base.anchor):
            return os.path.relpath(source, real)
    if source.is_relative_to(home):
        return "~/" + source.relative_to(home).as_posix()
    return str(source)


def _source_of(recorded: str, folder: Path) -> Path:
    """The source folder a marker's ``recorded`` text names (see :func:`_recorded`)."""
    if recorded.startswith("~/"):
        return Path.home() / recorded[2:]
    path = Path(recorded)
    return path if path.is_absolute() else (folder / path).resolve()


def _copy(root: Path, staged: Path) -> list[LeftOut]:
    """Copy what an agent could read of the package; return what was left out."""
    files, left = Sandbox(root).walk()
    staged.mkdir()
    for rel in files:
        destination = staged.joinpath(*rel.split("/"))
        destination.parent.mkdir(parents=True, exist_ok=True)
        try:
            data = read_regular(root.joinpath(*rel.split("/")))
        except OSError as exc:
            raise InstallError(
                f"{root / rel}: cannot be read ({exc.strerror or exc}); nothing was installed"
            ) from None
        destination.write_bytes(data)
    record = {
        "source": _recorded(root.resolve(), staged.parent),
        "installed": _now(),
        "digest": _digest(root, files),
    }
    (staged / MARKER).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return left


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


def _digest(root: Path, files: list[str] | None = None) -> str:
    """What a copy's freshness is judged by: the path and bytes of every file it holds."""
    digest = hashlib.sha256()
    for rel in Sandbox(root).walk()[0] if files is None else files:
        digest.update(rel.encode() + b"\0")
        try:
            digest.update(hashlib.sha256(read_regular(root.joinpath(*rel.split("/")))).digest())
        except OSError:
            digest.update(b"?")
    return digest.hexdigest()


def describe(target: Path) -> Installed | None:
    """What is installed at ``target`` (``None``: nothing). A link or a copy without
    kas-tui's marker is someone else's: its ``source`` is ``None``."""
    if target.is_symlink():
        try:
            record = json.loads(_link_marker(target).read_text(encoding="utf-8"))
            made = _source_of(record["source"], target.parent)
        except (OSError, ValueError, KeyError, TypeError):
            made = None
        source = target.resolve()
        mine = made is not None and made.resolve() == source
        return Installed(target.name, target, True, source if mine else None, False)
    if not target.is_dir():
        return None
    try:
        record = json.loads((target / MARKER).read_text(encoding="utf-8"))
        source = _source_of(record["source"], target.parent)
    except (OSError, ValueError, KeyError, TypeError):
        return Installed(target.name, target, False, None, None)
    behind = None
    if source.is_dir():
        source = source.resolve()
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
            f"{target} was not installed by kas-tui (no {MARKER} marker); --force removes it anyway"
        )
    _remove(target)
    _link_marker(target).unlink(missing_ok=True)
    return target
