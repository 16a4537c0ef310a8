"""Near-identical sibling descriptions (KAS041), found without comparing every pair.

The rule (:mod:`kas_tui.text.alike`): two descriptions read alike when their words,
sorted, score at least :data:`SIMILAR` with RapidFuzz's ``fuzz.ratio``. Each entry is
reported against the earliest sibling it reads like.

Comparing every pair costs the square of the folder: 15 s for one folder of 10,000
entries. Up to :data:`EVERY_PAIR_UP_TO` entries it is still done (exact, 0.1 s at most);
above, candidate pairs come from MinHash locality-sensitive hashing over word sets
(64 bands of 4 hashes): two descriptions land in one bucket of a band with the chance
of their word overlap (Jaccard) to the 4th power, so near-identical ones almost surely
meet somewhere and unrelated ones rarely do. Candidates are held once each, and only
those whose lengths and character counts leave a score of 90 possible are scored, in
RapidFuzz's C loop on both cores. The chance of missing a pair sharing 60 % of its
words is 1 in 7,700, at 80 % below 1 in 10^18; on the 2,448 descriptions of the shared
Microsoft corpus the near-identical pairs share at least 62 %. Time and memory grow
with the folder, not its square: at 50,000 entries about 20 microseconds and 1 KB an
entry (it was 65 microseconds and 4 KB before the signatures were taken a slice at a
time and the candidates filtered as they are made).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from itertools import chain
from typing import Any

from kas_tui.text.alike import SIMILAR, letter_counts, may_score, sorted_words

#: folders up to this size are searched pair by pair (0.1 s at 1,000 entries)
EVERY_PAIR_UP_TO = 1000
#: MinHash numbers per description, read in bands of ROWS
HASHES, ROWS = 256, 4
#: in a band's bucket, each entry is scored against at most this many earlier ones
MAX_PER_BUCKET = 32
#: how many times a crowded bucket is split by further hash values
REFINE = 3
#: bands of ROWS hash values
BANDS = HASHES // ROWS
#: rows hashed at a time, and candidate pairs scored at a time: bounds the memory
SLICE, SCORE_CHUNK = 4096, 1 << 14
#: odd 64-bit multipliers that mix a band's values into one number
MIX = (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9)


def earliest_alike(descriptions: Sequence[str], same: Sequence[object]) -> dict[int, int]:
    """For each entry that reads like an earlier one, the earliest such entry.

    ``same[i] == same[j]`` marks two entries that may not be compared (two entries for
    one document). Returns ``{i: j}`` with ``j < i``.
    """
    texts = [sorted_words(d) for d in descriptions]
    if len(texts) <= EVERY_PAIR_UP_TO:
        return _every_pair(texts, same)
    return _hashed(texts, same)


def _every_pair(texts: list[str], same: Sequence[object]) -> dict[int, int]:
    from rapidfuzz import fuzz
    from rapidfuzz.process import extract

    found: dict[int, int] = {}
    for i in range(1, len(texts)):
        close = extract(texts[i], texts[:i], scorer=fuzz.ratio, score_cutoff=SIMILAR, limit=None)
        earlier = [j for _, _, j in close if same[j] != same[i]]
        if earlier:
            found[i] = min(earlier)
    return found


def _constants(count: int, seed: int) -> list[int]:
    """``count`` fixed 64-bit numbers (SplitMix64): the same on every machine and version."""
    out, state, mask = [], seed, (1 << 64) - 1
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out


def _band_keys(texts: list[str]) -> Any:
    """Each text's MinHash signature, read as one 32-bit number per band:
    ``keys[band]`` holds every text's.

    The signature is HASHES numbers, the least of each hash function over the text's
    words (two word sets share one with the chance of their Jaccard overlap), words
    hashed by CRC-32 and multiply-shift, so every run finds the same. Texts with as
    many words are taken together, a slice at a time, one ``minimum`` per word
    position; each slice's signatures become its band numbers at once, so only those
    are held (a quarter of the size)."""
    import numpy as np

    # word ids, a slice of texts at a time (every word of every text as a string at
    # once would be the largest thing held); a word twice in a text changes no least
    # value, so the words are taken as they come
    vocabulary: dict[str, int] = {}
    sizes = np.empty(len(texts), np.intp)
    parts = []
    for first in range(0, len(texts), SLICE):
        words = [text.split() or [""] for text in texts[first : first + SLICE]]
        sizes[first : first + len(words)] = [len(w) for w in words]
        flat = list(chain.from_iterable(words))
        new = [w for w in dict.fromkeys(flat) if w not in vocabulary]
        vocabulary.update(zip(new, range(len(vocabulary), len(vocabulary) + len(new)), strict=True))
        parts.append(np.fromiter(map(vocabulary.__getitem__, flat), np.int32, len(flat)))
    ids = np.concatenate(parts) if parts else np.empty(0, np.int32)
    starts = np.cumsum(sizes) - sizes
    hashes = np.fromiter((zlib.crc32(w.encode()) for w in vocabulary), np.uint64, len(vocabulary))
    del vocabulary
    a = np.array(_constants(HASHES, 1), np.uint64) | np.uint64(1)
    c = np.array(_constants(HASHES, 2), np.uint64)
    # multiply-shift hashing: the top 32 bits of a*x + c (mod 2**64)
    table = np.empty((len(hashes), HASHES), np.uint32)
    for first in range(0, len(hashes), SLICE):
        part = hashes[first : first + SLICE, None]
        table[first : first + SLICE] = (part * a + c) >> np.uint64(32)
    keys = np.empty((BANDS, len(texts)), np.uint32)
    for size in np.unique(sizes).tolist():
        members = np.flatnonzero(sizes == size)
        for first in range(0, len(members), SLICE):
            rows = members[first : first + SLICE]
            least = table[ids[starts[rows]]]
            for k in range(1, size):
                np.minimum(least, table[ids[starts[rows] + k]], out=least)
            keys[:, rows] = _mixed(least)
    return keys


def _mixed(signatures: Any) -> Any:
    """Each band's ROWS values of ``signatures`` mixed into one 32-bit number, band by
    band (BANDS x rows). Rows agreeing on a band's values get the same number; others
    do with the chance 1 in 2**32 (a candidate more, scored and dropped)."""
    import numpy as np

    mix, mix2 = (np.uint64(m) for m in MIX)
    cols = signatures.reshape(-1, BANDS, ROWS).astype(np.uint64)
    key = (cols[:, :, 0] << np.uint64(32)) | cols[:, :, 1]
    for k in range(2, ROWS, 2):
        key = key * mix ^ ((cols[:, :, k] << np.uint64(32)) | cols[:, :, k + 1])
    key = (key ^ (key >> np.uint64(29))) * mix2
    return (key >> np.uint64(32)).T


def _bucket_pairs(rows: Any, key: Any) -> tuple[Any, Any, list[Any]]:
    """``rows`` (ascending) grouped by ``key``, each group in row order: every row with
    the first MAX_PER_BUCKET rows of its group, as (later, earlier), and the groups too
    crowded for that (more than MAX_PER_BUCKET + 1 rows), each as its rows."""
    import numpy as np

    packed = (key.astype(np.uint64) << np.uint64(32)) | rows.astype(np.uint64)
    packed.sort()  # by key, then row: the rows are below 2**32
    order = (packed & np.uint64(0xFFFFFFFF)).astype(np.int32)
    bucket = packed >> np.uint64(32)
    del packed
    new_run = np.empty(len(order), bool)
    new_run[:1] = True
    new_run[1:] = bucket[1:] != bucket[:-1]
    del bucket
    starts = np.flatnonzero(new_run).astype(np.int32)
    sizes = np.diff(np.append(starts, np.int32(len(order))))
    run_start = np.repeat(starts, sizes)
    # the k-th row of a group is paired with the min(k, MAX_PER_BUCKET) rows before it
    count = np.minimum(np.arange(len(order), dtype=np.int32) - run_start, MAX_PER_BUCKET)
    firsts = np.cumsum(count, dtype=np.int64) - count
    earlier = np.arange(int(count.sum(dtype=np.int64)), dtype=np.int64)
    earlier -= np.repeat(firsts, count)
    earlier += np.repeat(run_start, count)
    earlier = order[earlier]
    later = np.repeat(order, count)
    crowded = [
        order[start : start + size]
        for start, size in zip(
            starts[sizes > MAX_PER_BUCKET + 1].tolist(),
            sizes[sizes > MAX_PER_BUCKET + 1].tolist(),
            strict=True,
        )
    ]
    return later, earlier, crowded


def _candidates(keys: Any, may_match: Any) -> Any:
    """Pairs whose signatures agree on all ROWS numbers of a band (``keys``, as
    :func:`_band_keys` makes them) and that
    ``may_match(later, earlier)`` lets through, as sorted ``later * n + earlier``.

    An entry is paired with the first MAX_PER_BUCKET entries of its bucket (templated
    descriptions find their partner there). A bucket holding more (entries sharing only
    a few very common words) is split by the next band's numbers, and so on REFINE
    times, so buckets stay small and pairs grow with the folder, not its square. Each
    band's pairs are filtered as they are made: only those that may score are held."""
    import numpy as np

    n = keys.shape[1]
    held = np.empty(0, np.int64)  # the pairs so far, sorted, each once
    fresh: list = []
    waiting = 0
    work = [(np.arange(n), band, 0) for band in range(BANDS)]
    while work:
        rows, band, depth = work.pop()
        later, earlier, crowded = _bucket_pairs(rows, keys[(band + depth) % BANDS][rows])
        keep = may_match(later, earlier)
        fresh.append(later[keep].astype(np.int64) * n + earlier[keep])
        waiting += len(fresh[-1])
        if depth < REFINE:
            work.extend((subset, band, depth + 1) for subset in crowded)
        if waiting > max(len(held), 1 << 18) or not work:
            # near-identical pairs meet in many bands: merged now and then, each is
            # held once, and what is held stays about the number of distinct pairs
            held = _distinct(np.concatenate([held, *fresh]))
            fresh, waiting = [], 0
    return held


def _distinct(pairs: Any) -> Any:
    """``pairs`` sorted, each once."""
    import numpy as np

    pairs.sort()
    return pairs[np.append(True, pairs[1:] != pairs[:-1])] if len(pairs) else pairs


def _score(texts: list[str], pairs: Any) -> dict[int, int]:
    """Each later entry's earliest partner among ``pairs`` (sorted ``later * n +
    earlier``) that score SIMILAR, SCORE_CHUNK pairs at a time. Pairs that
    :func:`~kas_tui.text.alike.may_score` rules out are not scored (most candidates from crowded
    buckets: 96 % in a generated folder of 50,000)."""
    import numpy as np
    from rapidfuzz import fuzz
    from rapidfuzz.process import cpdist

    n = len(texts)
    length = np.fromiter(map(len, texts), np.int64, n)
    counts = letter_counts(texts)
    found: dict[int, int] = {}
    for first in range(0, len(pairs), SCORE_CHUNK):
        later, earlier = np.divmod(pairs[first : first + SCORE_CHUNK], n)
        near = may_score(length[later], length[earlier], counts[later], counts[earlier])
        later, earlier = later[near], earlier[near]
        if not len(later):
            continue
        scores = cpdist(
            [texts[i] for i in later.tolist()],
            [texts[j] for j in earlier.tolist()],
            scorer=fuzz.ratio,
            score_cutoff=SIMILAR,
            workers=-1,
            dtype=np.uint8,
        )
        hit = scores >= SIMILAR
        for i, j in zip(later[hit].tolist(), earlier[hit].tolist(), strict=True):
            found.setdefault(i, j)  # sorted: the first is the earliest
    return found


def _hashed(texts: list[str], same: Sequence[object]) -> dict[int, int]:
    import numpy as np

    groups: dict[object, int] = {}
    group = np.fromiter((groups.setdefault(s, len(groups)) for s in same), np.int64, len(same))
    length = np.fromiter(map(len, texts), np.int64, len(texts))

    def may_match(later: Any, earlier: Any) -> Any:
        return (group[later] != group[earlier]) & may_score(length[later], length[earlier])

    return _score(texts, _candidates(_band_keys(texts), may_match))
