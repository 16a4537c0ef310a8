"""AsciiDoc tables as Markdown tables (:mod:`.asciidoc`): ``|===`` and ``,===``
(CSV) blocks, their cells by ``|`` at a line's start or after a space (``\\|`` is a
bar in a cell), cell specs (``a|``, ``2+|``, ``.^|``) read for the cell's style and
span. A cell's lines and paragraphs are joined with ``<br>``; a table without a header
row gets an empty one (a Markdown table needs one).
"""

from __future__ import annotations

import re
from typing import Any

from kas_tui.features.importing.asciidoc_source import Line

_CELL = re.compile(
    r"(?:^|(?<=\s))((?:\d+\*)?(?:\d*(?:\.\d+)?\+)?[<^>]?(?:\.[<^>])?[adehlmsv]?)(?<!\\)\|"
)


def table(page: Any, inner: tuple[int, int], attrs: Any, kind: str) -> str:
    """A table block (its lines ``inner`` of ``page``) as a Markdown table: ``cols``
    counts its columns (else its first line's cells), ``%header`` or a first line
    followed by a blank one heads it, ``a|`` cells are read as blocks, ``n+|`` spans."""
    rows_text = page.lines[inner[0] : inner[1]]
    cells: list[tuple[str, Line, int, str]] = []  # spec, line, span, text
    first_row_cells = 0
    first_line_done = False
    header_implicit = False
    separator = "," if kind == "," or attrs.named.get("format") == "csv" else "|"
    for n, line in enumerate(rows_text):
        if not line.text.strip():
            if cells and not first_line_done:
                first_line_done = True
                header_implicit = n == 1  # the first line, all its cells, then a blank
            continue
        if separator == ",":
            parts = [("", p.strip()) for p in line.text.split(",")]
        else:
            parts = _cells(line.text)
        if not parts and cells:
            spec, at, span, said = cells[-1]
            cells[-1] = (spec, at, span, said + "\n" + line.text)
            continue
        for spec, said in parts:
            span = int(m.group(1)) if (m := re.match(r"(\d+)\+", spec)) else 1
            cells.append((spec, line, span, said))
        if not first_line_done and n == 0:
            first_row_cells = len(parts)
    columns = _columns(attrs.named.get("cols", "")) or first_row_cells or 1
    options = attrs.options()
    header = "header" in options or (header_implicit and "noheader" not in options)
    rows: list[list[str]] = []
    row: list[str] = []
    width = 0
    for spec, line, span, said in cells:
        if "a" in re.sub(r"[\d.+*]", "", spec):
            saved, page.lines = (
                page.lines,
                [Line(t, line.file, line.number) for t in said.split("\n")],
            )
            try:
                text = "<br>".join(page.blocks(0, len(page.lines)))
            finally:
                page.lines = saved
        else:
            text = "<br>".join(
                page.text(line, p.strip()) for p in re.split(r"\n\s*\n", said) if p.strip()
            )
        row.append(text.replace("\n", " ").replace("|", "\\|"))
        width += span
        if width >= columns:
            rows.append(row + [""] * (span - 1))
            row, width = [], 0
    if row:
        rows.append(row)
    if not rows:
        return ""
    columns = max(len(r) for r in rows)
    rows = [r + [""] * (columns - len(r)) for r in rows]
    head = rows.pop(0) if header else [""] * columns
    out = ["| " + " | ".join(head) + " |", "|" + " --- |" * columns]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def _cells(text: str) -> list[tuple[str, str]]:
    """The cells a table line starts: (spec, text); none when it continues a cell."""
    found = list(_CELL.finditer(text))
    if not found or found[0].start() != 0:
        return []
    out = []
    for n, match in enumerate(found):
        end = found[n + 1].start() if n + 1 < len(found) else len(text)
        out.append((match.group(1), text[match.end() : end].strip().replace("\\|", "|")))
    return out


def _columns(cols: str) -> int:
    if not cols.strip():
        return 0
    total = 0
    for part in cols.split(","):
        found = re.match(r"\s*(\d+)\*", part)
        total += int(found.group(1)) if found else 1
    return total
