"""Which code made a cached result: the version, and the files of the rules themselves.

The metadata cache keeps each document's one-document findings, and the report memo a
whole check's findings. Both were keyed on the version alone, so a checkout or a
``pip install`` of newer code with the same version number served the findings of the
old rules. :func:`code_stamp` adds the size and modification time of every module
whose code decides a finding (the rules, the readers, the language helpers): about 50
``stat`` calls, once a process.
"""

from __future__ import annotations

import functools
import hashlib
import os

from kas_tui import __version__

#: the parts of kas_tui (folders, package-relative) whose code decides a finding
RULE_CODE = ("text", "core", "core/okf", "core/okf/scan", "features/check")


@functools.cache
def code_stamp() -> str:
    """``__version__`` and a digest of the rule code's files (see the module docstring)."""
    return stamp_of(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def stamp_of(base: str) -> str:
    """The stamp of the kas_tui package folder ``base``."""
    digest = hashlib.blake2b(digest_size=10)
    for folder in RULE_CODE:
        where = os.path.join(base, *folder.split("/"))
        try:
            names = sorted(n for n in os.listdir(where) if n.endswith(".py"))
        except OSError:
            continue
        for name in names:
            try:
                st = os.stat(os.path.join(where, name))
            except OSError:
                continue
            digest.update(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return f"{__version__}+{digest.hexdigest()}"
