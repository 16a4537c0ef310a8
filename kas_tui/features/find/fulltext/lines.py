"""Which line of a found document matched, and which of its words to highlight.

FTS5 ranks whole documents (:mod:`.index`); this finds the line to show and open at. A
line's words are folded and stemmed by the index's own tokenizer (asked through
:class:`~kas_tui.text.lexical.Stems`, each word once), so a line matches exactly
when FTS5 would say it does: ``rotate`` finds ``Rotation``, a prefix being typed finds
the words it starts (as FTS5 does, after stemming the prefix). The best line holds the
most of the query's words, then the rarest (by their inverse document frequency); a body
line beats the title, description and tags (they are shown anyway, and the body is what
opens); among equals the first wins.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from kas_tui.features.find.fulltext.query import Query
from kas_tui.features.find.fuzzy import fold
from kas_tui.text.lexical import Stems

Span = tuple[int, int]
_TOKEN = re.compile(r"[^\W_]+")
# Control characters (a tab, an escape sequence from a file) shown as spaces, one for one,
# so a terminal never receives them.
_CONTROLS = dict.fromkeys([*range(0x20), 0x7F, *range(0x80, 0xA0)], " ")
#: Characters of a long line shown around its first match.
WINDOW = 120
ELLIPSIS = "…"


@dataclass(frozen=True)
class Line:
    """A matching line: its 1-based number in the file, the field it belongs to
    (``body``, ``title``, ``description``, ``tags``), the text shown (a long line cut
    around its first match) and the (start, end) spans of the matched words in it."""

    number: int
    field: str
    text: str
    spans: tuple[Span, ...]


class Matcher:
    """The stems one query looks for (``last``: this word, exact, for the last term)."""

    def __init__(
        self,
        stems: Stems,
        query: Query,
        last: str | None = None,
        rarity: Callable[[str], float] | None = None,
    ) -> None:
        words = query.words
        if last is not None:
            words[-1] = last
        mapped = stems.mapping(words)
        self.stems = stems
        self.prefix = ""
        wanted = [mapped[w] for w in words]
        if query.prefix and last is None and wanted:
            self.prefix = wanted.pop() or words[-1]
        self.exact = {s for s in wanted if s}
        self.size = len(self.exact) + bool(self.prefix and self.prefix not in self.exact)
        # A word with one of these stems holds its key: Porter rewrites at most the last
        # letters of a word (``possibility`` -> ``possibl``), so a line holding no key
        # holds no match and is never split into words.
        self.keys = {_key(s) for s in [*self.exact, self.prefix] if s}
        # a stem's weight: how rare it is (a half-typed word, in no document: the rarest)
        every = [*self.exact, self.prefix] if self.prefix else list(self.exact)
        self.weight = {s: rarity(s) if rarity else 1.0 for s in every}

    def which(self, stem: str) -> str | None:
        """The query stem that ``stem`` (a word's) matches, if any."""
        if stem in self.exact:
            return stem
        if self.prefix and stem.startswith(self.prefix):
            return self.prefix
        return None

    def best(self, page: Page) -> Line | None:
        """The best row of ``page``, ``None`` when none matches."""
        best: tuple[tuple[bool, int, float], int, list[Span]] | None = None
        for i, (_text, _number, field) in enumerate(page.rows):
            if not any(key in page.folded[i] for key in self.keys):
                continue
            spans, hit = [], set()
            for start, end, stem in page.words(i, self.stems):
                matched = self.which(stem)
                if matched is not None:
                    spans.append((start, end))
                    hit.add(matched)
            key = (field == "body", len(hit), sum(self.weight[h] for h in hit))
            if hit and (best is None or key > best[0]):
                best = (key, i, spans)
                if key[:2] == (True, self.size):
                    break  # a body line holding every word: none can be better
        if best is None:
            return None
        text, number, field = page.rows[best[1]]
        shown, spans = window(text, best[2])
        return Line(number, field, shown, spans)


class Page:
    """A document's rows (text, line number, field) ready for matching: each folded
    once, and split into stemmed words when first looked into. A page is kept between
    keystrokes (the same documents come back as a query grows)."""

    def __init__(self, rows: Sequence[tuple[str, int, str]]) -> None:
        self.rows = rows
        self.folded = [fold(text) for text, _, _ in rows]
        self._words: list[list[tuple[int, int, str]] | None] = [None] * len(rows)

    def words(self, i: int, stems: Stems) -> list[tuple[int, int, str]]:
        """(start, end, stem) of each word of row ``i``."""
        found = self._words[i]
        if found is None:
            text = self.rows[i][0]
            spans = [(m.start(), m.end(), m.group().lower()) for m in _TOKEN.finditer(text)]
            mapped = stems.mapping(word for _, _, word in spans)
            found = self._words[i] = [(start, end, mapped[word]) for start, end, word in spans]
        return found


def _key(stem: str) -> str:
    return stem[: max(2, len(stem) - 2)]


def printable(text: str) -> str:
    """``text`` with its control characters as spaces (one for one)."""
    return text.translate(_CONTROLS)


def window(text: str, spans: Iterable[Span], size: int = WINDOW) -> tuple[str, tuple[Span, ...]]:
    """``text`` without its surrounding blanks, cut to about ``size`` characters around
    the first span (an ellipsis marks a cut), and the spans moved along."""
    spans = sorted(spans)
    text = text.translate(_CONTROLS)
    lead = len(text) - len(text.lstrip())
    text = text.strip()
    spans = [(s - lead, e - lead) for s, e in spans]
    if len(text) <= size:
        return text, tuple(spans)
    first = spans[0][0] if spans else 0
    start = max(0, min(first - size // 3, len(text) - size))
    if start:
        space = text.find(" ", start, first)
        start = space + 1 if space != -1 else start
    end = min(len(text), start + size)
    if end < len(text):
        space = text.rfind(" ", max(start, spans[0][1] if spans else start), end)
        end = space if space > start else end
    head = ELLIPSIS if start else ""
    shift = len(head) - start
    shown = head + text[start:end] + (ELLIPSIS if end < len(text) else "")
    kept = tuple((s + shift, e + shift) for s, e in spans if s >= start and e <= end)
    return shown, kept
