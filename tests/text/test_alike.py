"""When descriptions read alike: the bound that rules pairs out before scoring, and the
growing set a build asks, against scoring every pair."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from kas_tui.text.alike import SIMILAR, AlikeSet, letter_counts, may_score, sorted_words

ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789 éßøπ中-"


@st.composite
def text_and_edit(draw) -> tuple[str, str]:
    """A text and a copy with up to eight characters inserted or deleted."""
    letters = st.sampled_from(ALPHABET)
    text = draw(st.text(letters, max_size=80))
    other = list(text)
    for _ in range(draw(st.integers(0, 8))):
        k = draw(st.integers(0, len(other)))
        if draw(st.booleans()) and k < len(other):
            del other[k]
        else:
            other.insert(k, draw(letters))
    return text, "".join(other)


@settings(max_examples=500, deadline=None)
@given(st.lists(text_and_edit(), min_size=1, max_size=20))
def test_no_pair_that_scores_is_ruled_out(pairs):
    texts = [t for pair in pairs for t in pair]
    counts = letter_counts(texts)
    length = np.array([len(t) for t in texts])
    a, b = np.arange(0, len(texts), 2), np.arange(1, len(texts), 2)
    allowed = may_score(length[a], length[b], counts[a], counts[b])
    for (x, y), ok in zip(pairs, allowed.tolist(), strict=True):
        assert ok or fuzz.ratio(x, y) < SIMILAR


def test_pairs_far_apart_are_ruled_out():
    texts = ["aaaa bbbb cccc dddd", "eeee ffff gggg hhhh", "aaaa bbbb cccc dddx", "aaaa bbbb"]
    counts, length = letter_counts(texts), np.array([len(t) for t in texts])
    first, others = np.array([0, 0, 0]), np.array([1, 2, 3])
    allowed = may_score(length[first], length[others], counts[first], counts[others])
    assert allowed.tolist() == [False, True, False]
    assert may_score(np.array([10, 10]), np.array([12, 13])).tolist() == [True, False]


WORDS = [
    "the",
    "a",
    "to",
    "error",
    "sign",
    "in",
    "outlook",
    "teams",
    "meeting",
    "mailbox",
    "sync",
    "fails",
    "open",
    "reset",
]


def _description(rng: random.Random, earlier: list[str]) -> str:
    if earlier and rng.random() < 0.3:  # an edited copy of an earlier one
        words = rng.choice(earlier).split()
        for _ in range(rng.randint(0, 3)):
            k = rng.randrange(len(words) + 1)
            if rng.random() < 0.5 and k < len(words):
                del words[k]
            else:
                words.insert(k, rng.choice(WORDS))
        return " ".join(words)
    if rng.random() < 0.05:
        return ""
    return " ".join(rng.choices(WORDS, k=rng.randint(1, 14))).capitalize() + "."


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 200))
def test_the_set_answers_as_scoring_every_description_would(seed, count):
    """Below and beyond the size at which it keeps arrays, asked after every addition."""
    rng = random.Random(seed)
    alike = AlikeSet()
    added: list[str] = []
    for _ in range(count):
        asked = _description(rng, added)
        mine = sorted_words(asked)
        expected = any(fuzz.ratio(mine, sorted_words(d)) >= SIMILAR for d in added if d)
        assert alike.reads_like(asked) == expected
        new = _description(rng, added)
        alike.add(new)
        added.append(new)
    assert list(alike) == added and len(alike) == len(added)


def test_a_set_made_at_once_answers_as_one_grown():
    rng = random.Random(5)
    descriptions: list[str] = []
    for _ in range(300):
        descriptions.append(_description(rng, descriptions))
    grown = AlikeSet()
    for d in descriptions:
        grown.add(d)
    made = AlikeSet(descriptions)
    for _ in range(200):
        asked = _description(rng, descriptions)
        assert made.reads_like(asked) == grown.reads_like(asked)
