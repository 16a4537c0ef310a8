"""What a user typed, as an FTS5 query that can never be a syntax error.

A query is words (all must match, in any order and any field) and ``"quoted phrases"``
(their words next to each other). Everything else FTS5 would read as syntax (``AND``,
``OR``, ``NOT``, ``NEAR``, ``*``, ``^``, ``-``, ``:``, parentheses, a lone ``"``) is
plain text: words are made of letters and digits only (as the ``unicode61`` tokenizer
splits them) and each is quoted. The last word, while it is being typed (no space after
it), also matches as a prefix once it has two letters: ``rot`` finds ``rotation``.

Porter stemming and prefixes do not mix while a word is half typed: ``rotati`` is no
prefix of the indexed stem ``rotat`` (of ``rotating``, ``rotation``). :func:`parse`
therefore also offers, for the typed word, its shorter forms (down to three letters
fewer) for :class:`~kas_tui.features.find.fulltext.fts_index.FullTextIndex` to fall back on when the
prefix finds nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kas_tui.text.lexical import words

_PHRASE = re.compile(r'"([^"]*)"')
#: A half-typed word is retried without up to this many of its last letters.
TRIM = 3
#: ... but never shorter than this.
TRIM_MIN = 3
#: The shortest word matched as a prefix (FTS5 keeps prefix indexes of 2 and 3 letters).
PREFIX_MIN = 2


@dataclass(frozen=True)
class Query:
    """A parsed query: ``terms`` are phrases (tuples of words; a word is a 1-tuple).

    ``prefix``: the last term is being typed and matches as a prefix. ``trimmed``: the
    last word's shorter forms, longest first, to try when the prefix finds nothing.
    """

    terms: tuple[tuple[str, ...], ...] = ()
    prefix: bool = False
    trimmed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.terms)

    def match(self, last: str | None = None) -> str:
        """The FTS5 expression matching documents holding every term (``last``: use
        this word for the last term instead, exactly, not as a prefix)."""
        return " AND ".join(self._each(last))

    def any(self, last: str | None = None) -> str:
        """The FTS5 expression matching a line holding any of the terms."""
        return " OR ".join(self._each(last))

    def _each(self, last: str | None) -> list[str]:
        out = [_quote(term) for term in self.terms]
        if last is not None:
            out[-1] = _quote((last,))
        elif self.prefix:
            out[-1] += "*"
        return out

    @property
    def words(self) -> list[str]:
        """Every word of the query, in order."""
        return [w for term in self.terms for w in term]


def _quote(term: tuple[str, ...]) -> str:
    # words hold only letters and digits, so a quote cannot occur; doubled all the same
    return '"' + " ".join(term).replace('"', '""') + '"'


def parse(text: str) -> Query:
    """The query in ``text`` (see the module docstring); empty when it has no words."""
    terms: list[tuple[str, ...]] = []
    # balanced quotes make phrases; an odd one out is ignored
    quotes = text.count('"')
    pieces = _PHRASE.split(text) if quotes % 2 == 0 else [text.replace('"', " ")]
    last_is_phrase = False
    for i, piece in enumerate(pieces):
        found = words(piece)
        if i % 2:  # inside quotes
            if found:
                terms.append(tuple(found))
                last_is_phrase = True
        else:
            terms.extend((w,) for w in found)
            last_is_phrase = last_is_phrase and not found
    if not terms:
        return Query()
    typing = (
        not last_is_phrase
        and not text[-1].isspace()
        and text[-1] != '"'
        and len(terms[-1][0]) >= PREFIX_MIN
    )
    trimmed: tuple[str, ...] = ()
    if typing and len(terms[-1]) == 1:
        word = terms[-1][0]
        shortest = max(TRIM_MIN, len(word) - TRIM)
        trimmed = tuple(word[:n] for n in range(len(word) - 1, shortest - 1, -1))
    return Query(tuple(terms), prefix=typing, trimmed=trimmed)
