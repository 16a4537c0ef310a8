"""KAS041's search for near-identical sibling descriptions, against comparing every pair."""

from __future__ import annotations

import random
import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from benchmarks.generate import descriptions
from kas_tui.features.check import near_duplicates
from kas_tui.features.check.near_duplicates import SIMILAR, earliest_alike, sorted_words

WORDS = [
    "the",
    "a",
    "to",
    "of",
    "and",
    "in",
    "for",
    "you",
    "when",
    "how",
    "error",
    "sign",
    "outlook",
    "teams",
    "meeting",
    "mailbox",
    "calendar",
    "sync",
    "fails",
    "cannot",
    "open",
    "message",
    "update",
    "license",
    "admin",
    "portal",
    "share",
    "onedrive",
    "file",
    "folder",
    "permission",
    "password",
    "reset",
    "account",
    "user",
    "install",
    "crash",
]


def every_pair(
    descriptions: list[str], same: list[object], *, overlap: float = 0
) -> dict[int, int]:
    """The rule by brute force: each entry's earliest sibling scoring SIMILAR or more
    (with ``overlap``, only siblings sharing that part of their words, Jaccard)."""
    texts = [sorted_words(d) for d in descriptions]
    sets = [frozenset(t.split()) or frozenset({""}) for t in texts]
    found = {}
    for i in range(len(texts)):
        for j in range(i):
            if same[i] == same[j] or fuzz.ratio(texts[i], texts[j]) < SIMILAR:
                continue
            if len(sets[i] & sets[j]) < overlap * len(sets[i] | sets[j]):
                continue
            found[i] = j
            break
    return found


def _edit(rng: random.Random, text: str) -> str:
    words = text.split()
    for _ in range(rng.randint(0, 3)):
        move = rng.choice(["insert", "delete", "replace", "typo"])
        k = rng.randrange(len(words))
        if move == "insert":
            words.insert(k, rng.choice(WORDS))
        elif move == "delete" and len(words) > 1:
            del words[k]
        elif move == "replace":
            words[k] = rng.choice(WORDS)
        elif move == "typo" and len(words[k]) > 2:
            words[k] = words[k][:-1]
    return " ".join(words)


@st.composite
def folders(draw):
    """Descriptions as a folder holds them: many unrelated, some edited copies of
    others (a word added, dropped, swapped or misspelt), some empty, some twice for
    one document."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    n = draw(st.integers(2, 60))
    descriptions: list[str] = []
    for _ in range(n):
        if descriptions and rng.random() < 0.4:
            descriptions.append(_edit(rng, rng.choice(descriptions) or "error"))
        elif rng.random() < 0.05:
            descriptions.append("")
        else:
            descriptions.append(
                " ".join(rng.choices(WORDS, k=rng.randint(1, 16))).capitalize() + "."
            )
    same = [rng.randrange(n) if rng.random() < 0.1 else 1000 + i for i in range(n)]
    return descriptions, same


@settings(max_examples=300, deadline=None)
@given(folders())
def test_small_folders_are_compared_pair_by_pair(folder):
    descriptions, same = folder
    assert earliest_alike(descriptions, same) == every_pair(descriptions, same)


@settings(max_examples=300, deadline=None)
@given(folders())
def test_hashed_search_finds_alike_pairs_and_only_real_ones(folder):
    """The search large folders use: every pair it reports scores SIMILAR, never a
    document with itself, never later than the earliest there is; every entry with an
    alike sibling sharing 80 % of its words is found (a miss has odds below 1e-18)."""
    descriptions, same = folder
    texts = [sorted_words(d) for d in descriptions]
    got = near_duplicates._hashed(texts, same)
    exact = every_pair(descriptions, same)
    for i, j in got.items():
        assert j < i and same[i] != same[j]
        assert fuzz.ratio(texts[i], texts[j]) >= SIMILAR
        assert exact[i] <= j
    for i, j in every_pair(descriptions, same, overlap=0.8).items():
        assert i in got and got[i] <= j


def test_templated_descriptions_each_name_the_first():
    """1,201 entries: the hashed search."""
    descriptions = [f"Fixes error 0x8004{k:04x} when you sign in to OneDrive." for k in range(1200)]
    descriptions.insert(50, "Explains how licences are assigned to guests in Teams meetings.")
    got = earliest_alike(descriptions, list(range(len(descriptions))))
    assert 50 not in got
    assert got == {i: 0 for i in range(1, len(descriptions)) if i != 50}


def test_one_document_listed_twice_is_not_its_own_duplicate():
    text = "Reset a user's password from the admin centre."
    assert earliest_alike([text, text], ["a.md", "a.md"]) == {}
    assert earliest_alike([text, text, text], ["a.md", "a.md", "b.md"]) == {2: 0}


def test_empty_descriptions_read_alike():
    assert earliest_alike(["", "Something else entirely here.", ""], [1, 2, 3]) == {2: 0}


def test_common_words_only_are_still_compared():
    """1,500 entries written with a dozen words: most pairs look alike to the hashes;
    what is found is real, and every entry with a sibling sharing 80 % of its words and
    reading alike is found."""
    rng = random.Random(3)
    descriptions = [" ".join(rng.choices(WORDS[:12], k=10)) for _ in range(1500)]
    same = list(range(1500))
    texts = [sorted_words(d) for d in descriptions]
    got = earliest_alike(descriptions, same)
    exact = every_pair(descriptions, same)
    assert len(got) >= 0.95 * len(exact)
    for i, j in got.items():
        assert fuzz.ratio(texts[i], texts[j]) >= SIMILAR and exact[i] <= j
    for i, j in every_pair(descriptions, same, overlap=0.8).items():
        assert i in got and got[i] <= j


def test_a_large_folder_is_searched_in_little_memory():
    """20,000 generated descriptions: the hashed search holds less than 2 KB an entry
    at its peak (it held 3 KB: every signature and every candidate pair at once)."""
    texts = [sorted_words(d) for d in descriptions(20000)]
    same = list(range(len(texts)))
    near_duplicates._hashed(texts[:1200], same[:1200])  # numpy and RapidFuzz imported
    tracemalloc.start()
    try:
        found = near_duplicates._hashed(texts, same)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * 1024 * len(texts)
    assert found  # the templated ones
    for i, j in found.items():
        assert j < i and fuzz.ratio(texts[i], texts[j]) >= SIMILAR
