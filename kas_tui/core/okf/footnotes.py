"""Footnotes made readable where a Markdown renderer without footnotes shows them.

Textual's Markdown widget has no footnotes: ``[^sev-rfc]`` shows as written and the
definitions as paragraphs starting ``[^sev-rfc]:``. :func:`footnotes_for_display`
rewrites a body for display only (never for a file): each reference becomes a numbered
marker linking to a *Footnotes* section at the end, which lists each note by number;
a reference with no definition in the body shows the ``sources`` entry of that id (OKF
footnotes name a ``sources`` id). Definitions are blanked where they stood, line for line,
so every other line keeps its number (the body pane goes to a line by its number).

Found by markdown-it with the footnote plugin (the parser the checks use), so a
``[^x]`` in code is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from kas_tui.core.okf.links import code_spans

#: The heading the notes are listed under, and the anchor a marker links to.
HEADING = "Footnotes"
ANCHOR = "#footnotes"
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_REF = re.compile(r"\[\^([^\]\s]+)\]")


def marker(number: int) -> str:
    return str(number).translate(_SUPERSCRIPT)


def footnotes_for_display(body: str, sources: Mapping[str, str] | None = None) -> str:
    """``body`` with its footnotes shown as numbered markers and a list at the end
    (``body`` itself when it has none). ``sources``: a ``sources`` id -> how to name it."""
    if "[^" not in body:
        return body
    from kas_tui.core.okf.scan import _footnote_parser

    tokens = _footnote_parser().parse(body)
    numbers: dict[str, int] = {}  # label -> its number, in the order first referred to
    ref_lines: dict[int, set[str]] = {}  # 0-based line -> labels referred to on it
    notes: dict[str, str] = {}  # label -> the note's text
    blanked: set[int] = set()
    label = None
    for token in tokens:
        if token.type == "footnote_reference_open":
            label = token.meta["label"]
            if token.map:
                blanked.update(range(*token.map))
        elif token.type == "footnote_reference_close":
            label = None
        elif token.type == "inline":
            if label is not None:
                text = " ".join(token.content.split())
                notes[label] = f"{notes[label]} {text}" if label in notes else text
            for child in token.children or ():
                if child.type == "footnote_ref" and token.map:
                    ref = child.meta["label"]
                    numbers.setdefault(ref, len(numbers) + 1)
                    for line in range(*token.map):
                        ref_lines.setdefault(line, set()).add(ref)
    if not numbers and not notes:
        return body
    in_code = [(span.start, span.end) for span in code_spans(body)]
    lines = body.splitlines(keepends=True)
    out: list[str] = []
    at = 0
    for index, line in enumerate(lines):
        start, at = at, at + len(line)
        if index in blanked:
            out.append("\n" if line.endswith(("\n", "\r")) else "")
            continue
        labels = ref_lines.get(index)
        if labels:
            line = _mark(line, start, labels, numbers, in_code)
        out.append(line)
    text = "".join(out)
    return text + _notes_section(text, numbers, notes, sources or {})


def _mark(line: str, start: int, labels: set[str], numbers: dict[str, int], in_code: list) -> str:
    def replace(hit: re.Match[str]) -> str:
        where = start + hit.start()
        if hit.group(1) not in labels or any(a <= where < b for a, b in in_code):
            return hit.group(0)
        return f"[{marker(numbers[hit.group(1)])}]({ANCHOR})"

    return _REF.sub(replace, line)


def _notes_section(
    text: str, numbers: dict[str, int], notes: dict[str, str], sources: Mapping[str, str]
) -> str:
    rows = []
    for label, number in sorted(numbers.items(), key=lambda item: item[1]):
        if label in notes:
            note = notes[label]
        elif label in sources:
            note = f"source `{label}`: {sources[label]}"
        else:
            note = f"`{label}`: not defined in this document"
        rows.append(f"{number}. {note}")
    unreferenced = [label for label in notes if label not in numbers]
    for label in unreferenced:
        rows.append(f"- `{label}` (not referred to): {notes[label]}")
    ending = "" if text.endswith("\n") else "\n"
    return f"{ending}\n---\n\n### {HEADING}\n\n" + "\n".join(rows) + "\n"
