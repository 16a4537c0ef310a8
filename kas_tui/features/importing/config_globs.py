"""Path globs as a site's config writes them (Sphinx's ``exclude_patterns``, a Jupyter
Book's, VitePress' ``srcExclude``, docfx's file globs), and the files they name."""

from __future__ import annotations

import re
from collections.abc import Iterable


def glob_regex(pattern: str, *, folders_or_none: bool = False) -> re.Pattern[str]:
    """A path glob as a site's config writes it: ``*`` and ``?`` within one name, ``**``
    across folders (Sphinx's ``exclude_patterns``); with ``folders_or_none``, ``**/`` is
    any folders or none, as fast-glob reads it (VitePress' ``srcExclude``)."""
    table = {"**/": "(?:.*/)?" if folders_or_none else ".*/", "**": ".*", "*": "[^/]*", "?": "[^/]"}
    parts = re.split(r"(\*\*/|\*\*|\*|\?)", pattern)
    return re.compile("".join(table.get(part) or re.escape(part) for part in parts))


def excluded_by(files: Iterable[str], folder: str, patterns: Iterable[str]) -> set[str]:
    """Those of ``files`` below ``folder`` that a glob of ``patterns`` (relative to that
    folder, :func:`glob_regex`) names, or that sit in a folder one names: how Sphinx
    reads ``exclude_patterns``, and a Jupyter Book's ``_config.yml`` its own."""
    rules = [glob_regex(p.strip().strip("/")) for p in patterns if p.strip()]
    prefix = folder + "/" if folder else ""
    out = set()
    for file in files:
        if not file.startswith(prefix):
            continue
        parts = file[len(prefix) :].split("/")
        heads = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        if any(rule.fullmatch(head) for rule in rules for head in heads):
            out.add(file)
    return out
