"""markdown-include-variants (FastAPI, SQLModel, Typer): ``{* path ln[..] hl[..] *}``.

A line of its own (no indentation: the extension's preprocessor matches whole lines from
their first character) such as ``{* ./docs_src/app_py310.py ln[1:8,12:14] hl[3] *}``
shows a Python file in a code block. The site shows the file named (or, when that file
is missing, its preferred variant: ``name_an_py310.py``, ``name_an_py39.py``,
``name_an.py``, ``name_py310.py``, ``name_py39.py``, as the extension orders them);
``ln[...]`` keeps those lines (``a:b`` a range, ``a`` one line), with the extension's
"Code above omitted", "Code here omitted" and "Code below omitted" comments between
them. ``hl[...]`` only highlights, so nothing of it shows here. The site's collapsed
"Full file preview" and "Other versions and variants" tabs repeat the file: a package
keeps the block a reader sees first.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

#: The directive, as the extension matches it (its ``re_line``).
VARIANTS = re.compile(r"^\{\*\s*(?P<path>\S+)\s*(?P<config>.*)\*\}$")
_CONFIG = re.compile(r"(\w+)\[([^\]]+)\]")
#: The extension's order of preference among a file's variants.
_SUFFIXES = ("_an_py310", "_an_py39", "_an", "_py310", "_py39", "")
ABOVE = "# Code above omitted 👆"
BETWEEN = "# Code here omitted 👈"
BELOW = "# Code below omitted 👇"


def line_ranges(config: str) -> list[tuple[int, int]]:
    """The ``ln[...]`` ranges of a directive's configuration, sorted (``ln[1:8,12]`` ->
    [(1, 8), (12, 12)]); ``ValueError`` naming what is not a line number."""
    ranges: list[tuple[int, int]] = []
    for name, written in _CONFIG.findall(config):
        if name != "ln":
            continue
        for part in written.split(","):
            start, colon, end = part.strip().partition(":")
            try:
                first = int(start)
                last = int(end) if colon else first
            except ValueError:
                raise ValueError(
                    f"ln[{written}] holds {part.strip()!r}, not a line or a range a:b"
                ) from None
            ranges.append((first, last))
    return sorted(ranges)


def variant_names(name: str) -> list[str]:
    """The files the directive may show, in order: the one it names, then its variants."""
    stem, _ext = posixpath.splitext(name)
    return list(dict.fromkeys([name, *(f"{stem}{suffix}.py" for suffix in _SUFFIXES)]))


def code_block(lines: Sequence[str], ranges: Sequence[tuple[int, int]]) -> list[str]:
    """The fenced block the site shows of a file's ``lines``: every line, or the ``ranges``
    (1-based, inclusive) with the omission comments around and between them."""
    body: list[str] = []
    if not ranges:
        body = list(lines)
    for index, (start, end) in enumerate(ranges):
        if index == 0 and start > 1:
            body += [ABOVE, ""]
        if index:
            body += ["", BETWEEN, ""]
        body += lines[max(0, start - 1) : max(0, end)]
        if index == len(ranges) - 1 and end < len(lines):
            body += ["", BELOW]
    fence = "```"
    while any(line.lstrip().startswith(fence) for line in body):
        fence += "`"
    return [f"{fence}python", *body, fence]
