"""mdBook's include directives, expanded as the book renders them.

``{{#include file.rs}}`` stands for the file's text, wherever it is written (most often
inside a code fence: the Rust book shows every listing so), its path read from the
including page's folder: ``{{#include
file.rs::10}}`` to line 10, ``{{#include file.rs:2:}}`` from line 2, ``{{#include
file.rs:2}}`` line 2 alone, ``{{#include file.rs:2:10}}`` between (lines counted from 1,
both kept), ``{{#include file.rs:component}}`` the lines between ``ANCHOR: component``
and ``ANCHOR_END: component`` (every anchor line of the file dropped, as mdBook drops
them). ``{{#rustdoc_include ...}}`` shows the same lines (the book hides the rest behind
a button), ``{{#playground file.rs}}`` the whole file. An included file's own
directives are expanded too (up to ``max_depth``, never in a loop). ``\\{{#include
x}}``, escaped, is the directive's text (how mdBook's guide shows the syntax). A
directive naming no file of the source stays as written, with a problem by line.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from kas_tui.features.importing.include_nesting import expand_nested
from kas_tui.features.importing.includes import IncludeProblem

Read = Callable[[str], "str | None"]
#: A directive, escaped or not: its kind and what follows it (path, then ranges).
DIRECTIVE = re.compile(
    r"(?P<escape>\\)?\{\{#(?P<kind>include|rustdoc_include|playground)\s+(?P<spec>[^}\n]+?)\s*\}\}"
)
_ANCHOR = re.compile(r"\bANCHOR(?:_END)?:\s*(?P<name>[\w-]+)")


def mdbook_targets(text: str, page: str) -> list[str]:
    """The source-relative files ``text``'s directives name (unescaped ones), unread."""
    if "{{#" not in text:
        return []
    found = []
    for match in DIRECTIVE.finditer(text):
        if not match.group("escape"):
            target = _target(page, match.group("spec"))[0]
            if target:
                found.append(target)
    return list(dict.fromkeys(found))


def expand_mdbook_includes(
    text: str, page: str, read: Read, *, max_depth: int = 5
) -> tuple[str, list[IncludeProblem]]:
    """``text`` (the page ``page``) with each directive replaced by the lines it shows,
    and the problems, by the page's line."""
    if "{{#" not in text:
        return text, []

    def named(path: str, match: re.Match[str]) -> tuple[str | None, str, str, str] | str:
        if match.group("escape"):
            return match.group(0)[1:]  # \{{#include x}}: the directive's own text
        target, part = _target(path, match.group("spec"))
        written = match.group("spec").split(":", 1)[0]
        return target, part, written, f"{{{{#{match.group('kind')}}}}}"

    def shown(raw: str, _file: str, part: str) -> str:
        return _lines(raw.replace("\r\n", "\n"), part)

    return expand_nested(text, page, DIRECTIVE, named, shown, read, max_depth=max_depth)


def _target(page: str, spec: str) -> tuple[str | None, str]:
    """(the file a directive's ``spec`` names, from the page's folder; ``None`` when it
    leaves the source) and the part after its path (``2:10``, ``component``, "")."""
    written, _colon, part = spec.strip().partition(":")
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page), written.strip()))
    if target == ".." or target.startswith("../") or not written.strip():
        return None, part
    return target, part.strip()


def _lines(text: str, part: str) -> str:
    """The lines of ``text`` a directive's ``part`` picks, every anchor line dropped."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if part and not re.fullmatch(r"\d*(?::\d*)?", part):  # an anchor's name
        kept, inside = [], False
        for line in lines:
            anchor = _ANCHOR.search(line)
            if anchor and anchor.group("name") == part:
                inside = "ANCHOR_END" not in line
                if not inside:
                    break
                continue
            if inside and not anchor:
                kept.append(line)
        lines = kept
    elif part:
        start, sep, end = part.partition(":")
        first = int(start) - 1 if start else 0
        last = int(end) if end else (None if sep else int(start))  # "2": line 2 alone
        lines = lines[max(0, first) : last]
    return "\n".join(line for line in lines if not _ANCHOR.search(line))
