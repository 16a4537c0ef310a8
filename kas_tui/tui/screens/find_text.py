"""The finder's full-text mode: its labels, and its rows made from an index's results.

Every text from a file becomes a :class:`rich.text.Text` (never markup), so a line such
as ``[draft] see [link](x.md)`` shows as written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from kas_tui.text.wording import counted

if TYPE_CHECKING:
    from kas_tui.features.find.fulltext import FullTextIndex, Hit, Results

#: Documents listed per full-text search (the index finds lines for each).
LIMIT = 30
#: What starts a full-text query in the fuzzy finder.
PREFIX = "?"
MATCH_STYLE = "bold reverse"


def labels(text: bool) -> tuple[str, str, str]:
    """The finder's (title, subtitle, placeholder) in full-text mode or not."""
    if text:
        return (
            "Find in text",
            'words · "a phrase" · ^f titles and paths · enter opens at the line',
            "words in titles, descriptions, tags and bodies…",
        )
    return (
        "Find",
        f"words · #tag · folder/name · {PREFIX}words or ^f full text · esc closes",
        f"title, description, #tag or path… ({PREFIX}word: full text)",
    )


def split(value: str, text: bool) -> tuple[bool, str]:
    """Whether ``value`` asks for full text, and the query without its prefix."""
    if value.startswith(PREFIX):
        return True, value[len(PREFIX) :]
    return text, value


def marked(text: str, spans: tuple[tuple[int, int], ...], style: str = "") -> Text:
    """``text`` (never read as markup) with ``spans`` in :data:`MATCH_STYLE`."""
    out = Text(text, style)
    for start, end in spans:
        out.stylize(MATCH_STYLE, start, end)
    return out


def rows(results: Results | None, index: FullTextIndex) -> tuple[list[tuple[Hit, Text, Text]], str]:
    """The finder's rows for ``results`` (``None``: nothing typed yet), and its count line."""
    done, total = index.progress
    building = f"indexing {done:,}/{total:,}" if done < total else ""
    if results is None:
        hint = "type words to find them in every document"
        return [], f"{building} · {hint}" if building else hint
    out = []
    for hit in results.hits:
        title = Text(hit.title or hit.path)
        title.append(f"  {hit.path}:{hit.line}", "bright_black")
        shown = marked(hit.text, hit.spans)
        if hit.field != "body":
            shown = Text.assemble((f"{hit.field}: ", "bright_black"), shown)
        out.append((hit, title, shown))
    count = f"{len(out)}+ documents" if len(out) == LIMIT else counted(len(out), "document")
    if results.note:
        count = results.note
    elif building:
        count = f"{building} · {count} so far"
    return out, count
