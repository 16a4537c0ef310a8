"""Include directives that nest: a file's own directives expanded in turn, loops and
too deep a nest said by line (mdBook's ``{{#include}}``, VitePress' ``<!--@include:-->``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kas_tui.features.importing.includes import IncludeProblem, not_in_source


def expand_nested(
    text: str,
    page: str,
    directive: re.Pattern[str],
    named: Callable[[str, re.Match[str]], tuple[str | None, Any, str, str] | str],
    shown: Callable[[str, str, Any], str],
    read: Callable[[str], str | None],
    *,
    max_depth: int = 5,
) -> tuple[str, list[IncludeProblem]]:
    """``text`` (the page ``page``) with each match of ``directive`` replaced by what
    it includes, an included file's own directives too (up to ``max_depth``, never in
    a loop); and the problems, by the page's line. ``named(path, match)`` says what a
    directive in the file ``path`` names: (the source file or ``None``, the part it
    shows, the path as written, the directive as the page writes its kind), or the text
    that stands for it (an escaped one's own); ``shown(text, file, part)`` is what it
    shows of the file. A file the source lacks, a loop or too deep a nest leaves the
    directive as written. mdBook's and VitePress' includes are expanded so."""
    problems: list[IncludeProblem] = []

    def expand(body: str, path: str, chain: tuple[str, ...], at: int | None) -> str:
        def swap(match: re.Match[str]) -> str:
            found = named(path, match)
            if isinstance(found, str):
                return found
            target, part, written, kind = found
            line = at if at is not None else body.count("\n", 0, match.start()) + 1
            raw = read(target) if target else None
            where = f" (in {path})" if len(chain) > 1 else ""
            if raw is None or target is None:
                problems.append(not_in_source(line, written, kind, where))
                return match.group(0)
            if target in chain or len(chain) > max_depth:
                why = f"{kind} of {written} loops or nests too deeply{where}: left as it was"
                problems.append(IncludeProblem(line, written, why))
                return match.group(0)
            return expand(shown(raw, target, part), target, (*chain, target), line)

        return directive.sub(swap, body)

    return expand(text, page, (page,), None), problems
