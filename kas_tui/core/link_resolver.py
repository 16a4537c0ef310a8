"""Where a package's links lead, resolved once: :class:`LinkResolver`.

A package holds a hundred thousand links and far fewer targets: each target is resolved
once per folder it is written in (``/``-rooted ones once), and whether a path stays
inside the package (following symlinks: a system call per folder of the path) once per
path, until the package or a file is read again (:meth:`LinkResolver.forget`).
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from kas_tui.core.okf.links import Target, resolve


class LinkResolver:
    """Links of the package at ``root`` resolved, with a symlink that leaves ``outside``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._inside: dict[str, bool] = {}  # root-relative path -> stays in the package
        self._resolved: dict[tuple[str, str], Target] = {}  # (folder or '/', link) -> target
        self._real_root: str | None = None

    def forget(self, rel: str | None = None) -> None:
        """Forget what was resolved: everything, or what file ``rel`` changes (it may have
        become, or stopped being, a symlink)."""
        if rel is None:
            self._inside.clear()
            self._real_root = None
        else:
            self._inside.pop(rel, None)
        self._resolved.clear()

    def stays_inside(self, rel: str) -> bool:
        """Whether root-relative ``rel`` is inside the package, symlinks followed."""
        if self._real_root is None:
            self._real_root = os.path.realpath(self.root)
        real_root = self._real_root
        real = os.path.realpath(self.root / rel)
        return real == real_root or real.startswith(real_root + os.sep)

    def resolve(self, source: str, target: str) -> Target:
        """Resolve a link found in ``source``; a symlink leaving the root is ``outside``."""
        key = ("/" if target[:1] == "/" else posixpath.dirname(source), target)
        found = self._resolved.get(key)
        if found is not None:
            return found
        result = resolve(source, target)
        if result.kind == "internal" and result.path:
            inside = self._inside.get(result.path)
            if inside is None:
                inside = self._inside[result.path] = self.stays_inside(result.path)
            if not inside:
                result = Target("outside", result.path, result.fragment)
        if result.kind != "anchor":  # an anchor's path is its source's
            self._resolved[key] = result
        return result
