"""Near-identical sibling descriptions (KAS041), found without comparing every pair.

The rule: two descriptions read alike when their words, sorted, score at least
:data:`SIMILAR` with RapidFuzz's ``fuzz.ratio`` (the same score as
``token_sort_ratio``). Each entry is reported against the earliest sibling it reads
like.

Comparing every pair costs the square of the folder: 15 s for one folder of 10,000
entries. Up to :data:`EVERY_PAIR_UP_TO` entries it is still done (exact, 0.1 s at most);
above, candidate pairs come from MinHash locality-sensitive hashing over word sets
(64 bands of 4 hashes): two descriptions land in one bucket of a band with the chance
of their word overlap (Jaccard) to the 4th power, so near-identical ones almost surely
meet somewhere and unrelated ones rarely do; only candidates are scored, in
RapidFuzz's C loop on both cores. The chance of missing a pair sharing 60 % of its
words is 1 in 7,700, at 80 % below 1 in 10^18; on the 2,448 descriptions of the shared
Microsoft corpus the near-identical pairs share at least 62 %. Cost grows with the
folder, not its square: 40 to 50 microseconds an entry from 5,000 to 50,000.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from kas_tui.text.description_verdicts import norm

#: the least ``fuzz.ratio`` of two word-sorted descriptions that reads as the same
SIMILAR = 90
#: folders up to this size are searched pair by pair (0.1 s at 1,000 entries)
EVERY_PAIR_UP_TO = 1000
#: MinHash numbers per description, read in bands of ROWS
HASHES, ROWS = 256, 4
#: in a band's bucket, each entry is scored against at most this many earlier ones
MAX_PER_BUCKET = 32
#: how many times a crowded bucket is split by further hash values
REFINE = 3


def sorted_words(description: str) -> str:
    """The description's words, normalised and sorted: what the score compares."""
    return " ".join(sorted(norm(description).split()))


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


def _signatures(texts: list[str]) -> Any:
    """MinHash signatures of each text's word set: HASHES numbers per text, the least
    of each hash function over its words (two sets share one with the chance of their
    Jaccard overlap). Deterministic: words are hashed by CRC-32, not Python's hash."""
    import numpy as np

    vocabulary: dict[str, int] = {}
    ids: list[int] = []
    starts = [0]
    for text in texts:
        ids.extend(vocabulary.setdefault(w, len(vocabulary)) for w in set(text.split()) or {""})
        starts.append(len(ids))
    keys = np.fromiter((zlib.crc32(w.encode()) for w in vocabulary), np.uint64, len(vocabulary))
    a = np.array(_constants(HASHES, 1), np.uint64) | np.uint64(1)
    c = np.array(_constants(HASHES, 2), np.uint64)
    # multiply-shift hashing: the top 32 bits of a*x + c (mod 2**64)
    table = ((keys[:, None] * a + c) >> np.uint64(32)).astype(np.uint32)
    word_ids, bounds = np.asarray(ids, np.int64), np.asarray(starts, np.int64)
    signatures = np.empty((len(texts), HASHES), np.uint32)
    for first in range(0, len(texts), 1024):  # a slice at a time: rows x HASHES stays small
        last = min(len(texts), first + 1024)
        rows = table[word_ids[bounds[first] : bounds[last]]]
        signatures[first:last] = np.minimum.reduceat(rows, bounds[first:last] - bounds[first])
    return signatures


def _band_keys(signatures: Any, rows: Any, band: int) -> Any:
    """One number per row for band ``band`` (its ROWS hash values mixed together)."""
    import numpy as np

    band %= HASHES // ROWS
    columns = slice(band * ROWS, (band + 1) * ROWS)
    picked = signatures[:, columns] if rows is None else signatures[rows, columns]
    cols = picked.astype(np.uint64)
    key = (cols[:, 0] << np.uint64(32)) | cols[:, 1]
    for k in range(2, ROWS, 2):
        key = key * np.uint64(0x9E3779B97F4A7C15) ^ ((cols[:, k] << np.uint64(32)) | cols[:, k + 1])
    return key


def _buckets(key: Any) -> tuple[Any, Any, Any]:
    """Rows grouped by key, each group in row order: (order, start of each row's group
    in ``order``, whether a group starts there)."""
    import numpy as np

    order = np.argsort(key, kind="stable")
    ordered = key[order]
    new_run = np.empty(len(order), bool)
    new_run[:1] = True
    new_run[1:] = ordered[1:] != ordered[:-1]
    run_start = np.maximum.accumulate(np.where(new_run, np.arange(len(order)), 0))
    return order, run_start, new_run


def _first_pairs(order: Any, run_start: Any, later: list, earlier: list) -> Any:
    """Each row with the first MAX_PER_BUCKET rows of its group; the rows' positions."""
    import numpy as np

    position = np.arange(len(order)) - run_start
    for q in range(MAX_PER_BUCKET):
        mask = position > q
        if not mask.any():
            break
        later.append(order[mask])
        earlier.append(order[run_start[mask] + q])
    return position


def _candidates(signatures: Any) -> tuple[Any, Any]:
    """Pairs (later, earlier) whose signatures agree on all ROWS numbers of a band.

    An entry is paired with the first MAX_PER_BUCKET entries of its bucket (templated
    descriptions find their partner there). A bucket holding more (entries sharing only
    a few very common words) is split by the next band's numbers, and so on REFINE
    times, so buckets stay small and pairs grow with the folder, not its square."""
    import numpy as np

    later: list = []
    earlier: list = []
    everyone = np.arange(len(signatures))
    work = [(None, band, 0) for band in range(HASHES // ROWS)]
    while work:
        subset, band, depth = work.pop()
        rows = everyone if subset is None else subset
        order, run_start, new_run = _buckets(_band_keys(signatures, subset, band + depth))
        position = _first_pairs(rows[order], run_start, later, earlier)
        if depth == REFINE:
            continue
        ends = np.flatnonzero(np.append(new_run[1:], True))
        for start in np.unique(run_start[position > MAX_PER_BUCKET]).tolist():
            end = int(ends[np.searchsorted(ends, start)]) + 1
            work.append((rows[order[start:end]], band, depth + 1))
    if not later:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    return np.concatenate(later), np.concatenate(earlier)


def _score(texts: list[str], group: Any, later: Any, earlier: Any) -> dict[int, int]:
    """Each later entry's earliest partner among the pairs that score SIMILAR."""
    import numpy as np
    from rapidfuzz import fuzz
    from rapidfuzz.process import cpdist

    n = len(texts)
    pairs = np.sort(later * n + earlier)  # by later entry, then earlier
    if len(pairs):
        pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]
    later, earlier = pairs // n, pairs % n
    length = np.fromiter(map(len, texts), np.int64, n)
    short = np.minimum(length[later], length[earlier])
    long = np.maximum(length[later], length[earlier])
    # fuzz.ratio >= 90 needs the shorter text at least 9/11 of the longer
    keep = (group[later] != group[earlier]) & (11 * short >= 9 * long)
    later, earlier = later[keep], earlier[keep]
    scores = cpdist(
        [texts[i] for i in later],
        [texts[j] for j in earlier],
        scorer=fuzz.ratio,
        score_cutoff=SIMILAR,
        workers=-1,
        dtype=np.uint8,
    )
    hit = scores >= SIMILAR
    later, earlier = later[hit], earlier[hit]
    entries, first = np.unique(later, return_index=True)
    return dict(zip(entries.tolist(), earlier[first].tolist(), strict=True))


def _hashed(texts: list[str], same: Sequence[object]) -> dict[int, int]:
    import numpy as np

    groups: dict[object, int] = {}
    group = np.fromiter((groups.setdefault(s, len(groups)) for s in same), np.int64, len(same))
    return _score(texts, group, *_candidates(_signatures(texts)))
