"""When two descriptions read alike, and a growing set that is asked about new ones.

Two descriptions read alike when their words, sorted, score at least :data:`SIMILAR`
with RapidFuzz's ``fuzz.ratio`` (the same score as ``token_sort_ratio``). KAS041
reports sibling entries that do (:mod:`kas_tui.features.check.near_duplicates`), and a
build passes over a drafted description that reads like a sibling's
(:class:`AlikeSet`).

Most pairs are told apart without being scored: ``fuzz.ratio`` is
100 * (1 - d / (m + n)) for texts of m and n characters, d the characters to insert and
delete to turn one into the other, and d is at least the difference of the two lengths
and at least the difference of the texts' character counts, kind by kind
(:func:`letter_counts`, :func:`may_score`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from kas_tui.text.description_verdicts import norm

#: the least ``fuzz.ratio`` of two word-sorted descriptions that reads as the same
SIMILAR = 90
#: kinds of character counted (a character's kind is its code point modulo this)
LETTER_KINDS = 32
#: texts counted at a time
_SLICE = 4096


def sorted_words(description: str) -> str:
    """The description's words, normalised and sorted: what the score compares."""
    return " ".join(sorted(norm(description).split()))


def letter_counts(texts: list[str]) -> Any:
    """How many characters of each kind each text holds (len(texts) x LETTER_KINDS;
    each of a to z a kind of its own)."""
    import numpy as np

    if len(texts) == 1:  # a text asked about or added: no owners to sort out
        kinds = np.frombuffer(texts[0].encode("utf-32-le"), np.uint32) % LETTER_KINDS
        return np.bincount(kinds, minlength=LETTER_KINDS).astype(np.int32)[None, :]
    counts = np.zeros((len(texts), LETTER_KINDS), np.int32)
    for first in range(0, len(texts), _SLICE):
        part = texts[first : first + _SLICE]
        kinds = np.frombuffer("".join(part).encode("utf-32-le"), np.uint32) % LETTER_KINDS
        owner = np.repeat(np.arange(len(part)), np.fromiter(map(len, part), np.intp, len(part)))
        counts[first : first + len(part)] = np.bincount(
            owner * LETTER_KINDS + kinds, minlength=len(part) * LETTER_KINDS
        ).reshape(len(part), LETTER_KINDS)
    return counts


def may_score(length_a: Any, length_b: Any, counts_a: Any = None, counts_b: Any = None) -> Any:
    """Which pairs of texts may score SIMILAR, by their lengths (and, when given, their
    :func:`letter_counts` rows), pair by pair (numpy arrays, broadcast): a pair whose
    lengths, or whose character counts, differ by more than a tenth of both lengths
    together cannot."""
    import numpy as np

    both = np.add(length_a, length_b)
    apart = np.subtract(length_a, length_b)
    np.abs(apart, out=apart)
    allowed = np.multiply(apart, 10, out=apart) <= both
    if counts_a is not None:
        apart = np.subtract(counts_a, counts_b)
        np.abs(apart, out=apart)
        allowed &= 10 * apart.sum(axis=-1) <= both
    return allowed


class AlikeSet:
    """Descriptions gathered one by one (:meth:`add`), asked whether a new one reads
    like any of them (:meth:`reads_like`).

    The answer is the one scoring it against each would give (a test holds it to
    that). Beyond a few dozen descriptions, their lengths and character counts are kept
    in arrays, and one look rules out all but a few before any is scored: a folder of
    4,000 pages asks 4,000 times in a fraction of a second, where scoring each pair
    took seconds.
    """

    #: below this many, the descriptions are simply scored one by one
    ARRAYS_FROM = 64

    def __init__(self, descriptions: Iterable[str] = ()) -> None:
        self._given: list[str] = []
        self._texts: list[str] = []
        self._lengths: Any = None
        self._counts: Any = None
        for description in descriptions:
            self.add(description)

    def __iter__(self) -> Iterator[str]:
        """The descriptions added, as given."""
        return iter(self._given)

    def __len__(self) -> int:
        return len(self._given)

    def add(self, description: str) -> None:
        """Take ``description`` in (an empty one is kept, never compared)."""
        self._given.append(description)
        if not description:
            return
        text = sorted_words(description)
        self._texts.append(text)
        n = len(self._texts)
        if n < self.ARRAYS_FROM:
            return
        import numpy as np

        if self._lengths is None:
            self._lengths = np.fromiter(map(len, self._texts), np.int64, n)
            self._counts = letter_counts(self._texts)
            return
        if n > len(self._lengths):
            self._lengths = np.resize(self._lengths, 2 * n)
            self._counts = np.resize(self._counts, (2 * n, LETTER_KINDS))
        self._lengths[n - 1] = len(text)
        self._counts[n - 1] = letter_counts([text])[0]

    def reads_like(self, description: str) -> bool:
        """Whether ``description`` reads like one of those added."""
        if not self._texts:
            return False
        from rapidfuzz import fuzz

        mine = sorted_words(description)
        n = len(self._texts)
        if self._lengths is None:
            return any(fuzz.ratio(mine, other) >= SIMILAR for other in self._texts)
        lengths = self._lengths[:n]
        close = may_score(lengths, len(mine)).nonzero()[0]  # lengths first: one number each
        if not len(close):
            return False
        counts = letter_counts([mine])[0]
        near = close[may_score(lengths[close], len(mine), self._counts[close], counts)]
        texts = self._texts
        return any(fuzz.ratio(mine, texts[i]) >= SIMILAR for i in near.tolist())
