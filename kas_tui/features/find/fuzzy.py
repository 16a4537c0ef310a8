"""Fuzzy finder over a package's documents: titles, tags, index entries, paths, descriptions.

Headless (no Textual): ``Finder(package).search("inc resp")`` returns ranked :class:`Hit` s
with the character spans to bold in the displayed title and path.

Query: words separated by spaces, all of which must match (each in any field). ``#word``
looks at tags only. A word with ``/`` matches a path by its parts, in order, each at a
word start after a ``/`` (``inc/sev`` finds ``incidents/severity-levels.md``; a leading
``/`` anchors at the root, a trailing one asks for a folder), or the other fields as it
is (``CI/CD``). Case and accents are ignored (``cafe`` finds ``Café``). An empty query
finds nothing: a finder UI shows its own default list.

Ranking, best first:

1. how every word matched: at the start of a word (so also a prefix), else inside a word
   (words of 3+ characters), else with a typo (4+ characters; one edit, two from 8
   characters; found with RapidFuzz against the package's vocabulary);
2. where, summed over the words: title 10, tag 8 (an exact ``#tag`` 10), index entry
   title 7, path 6 (7 for a ``/`` word), description 4;
3. then titles equal to the query, then starting with it, then holding it as a phrase;
4. then shorter titles, then path.

Lookups bisect sorted word-start keys whose posting lists are slices of one numpy array
per field, a word's documents are sorted arrays of document numbers, and ranking is
arithmetic over one score per document (numpy), so a keystroke costs no Python loop
over every document (except the first search of a word inside words, which scans each
field once). Results per word are cached, so typing on reuses them. The index is a
snapshot: build a new ``Finder`` when the package reloads.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA

if TYPE_CHECKING:
    from kas_tui.core.package import Package

Span = tuple[int, int]
# Document numbers, sorted, each once (int32). Shared by caches: never changed in place.
Docs = np.ndarray
# (weight, field, documents) for one query word, heaviest first.
Entries = list[tuple[int, str, Docs]]
# Titles holding the query at a word start, starting with it, equal to it.
Bonus = tuple[Docs, Docs, Docs]

WEIGHTS = {"title": 10, "tag": 8, "entry": 7, "path": 6, "description": 4}
FIELDS = tuple(WEIGHTS)
MAX_BONUS = 3
TIERS = {3: (60.0, 40.0), 2: (30.0, 30.0), 1: (0.0, 30.0)}  # tier: (lowest score, range)
INSIDE_MIN = 3  # shortest word matched inside words
TYPO_MIN = 4  # shortest word matched with a typo

_TOP = "\U0010ffff"
_MARKS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
# A word starting inside a whitespace chunk: 'levels' in 'severity-levels.md'.
_INNER = re.compile(r"(?<=[^\w\s]|_)[^\W_]")
_CHUNK = re.compile(r"\S+")
_WORD = re.compile(r"[^\W_]+")
_NONE: Docs = np.zeros(0, np.int32)
_NONE.flags.writeable = False
CACHED = 1 << 21  # document numbers a field keeps cached between keystrokes (8 MB)


def fold(text: str) -> str:
    """Lower case without accents: ``Café`` -> ``cafe`` (casefold, NFKD, marks dropped)."""
    if text.isascii():
        return text.lower()
    return _MARKS.sub("", unicodedata.normalize("NFKD", text.casefold()))


def fold_map(text: str) -> tuple[str, list[int] | None]:
    """``fold(text)`` and, unless ASCII, the index in ``text`` of each folded character."""
    if text.isascii():
        return text.lower(), None
    parts: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        piece = fold(char)
        parts.append(piece)
        where.extend([i] * len(piece))
    return "".join(parts), where


def at_start(text: str) -> str:
    """A regex finding ``text`` where a word (or leading punctuation) begins."""
    look = r"(?<![^\W_])" if _WORD.match(text) else r"(?<!\S)"
    return look + re.escape(text)


def _word_keys(text: str) -> set[str]:
    """Each whitespace chunk, and the rest of a chunk from each word start inside it."""
    keys = set(text.split())
    for match in _INNER.finditer(text):
        keys.add(_CHUNK.match(text, match.start()).group())  # type: ignore[union-attr]
    return keys


def _path_keys():
    """Keys of a path: those of each part, with the folders' keys computed once."""
    folders: dict[str, set[str]] = {}

    def keys_of(path: str) -> set[str]:
        folder, _, name = path.rpartition("/")
        if folder not in folders:
            folders[folder] = _word_keys(folder.replace("/", " "))
        return folders[folder] | _word_keys(name)

    return keys_of


def _distinct(values: np.ndarray, count: int) -> Docs:
    """``values`` (document numbers below ``count``) sorted, each once."""
    if len(values) < count >> 6:  # a few: sorting them beats a pass over every document
        return np.unique(values).astype(np.int32, copy=False)
    mask = np.zeros(count, bool)
    mask[values] = True
    return np.flatnonzero(mask).astype(np.int32)


def _union(parts: list[Docs], count: int) -> Docs:
    """The documents in any of ``parts`` (of a package of ``count`` documents)."""
    parts = [p for p in parts if len(p)]
    if len(parts) < 2:
        return parts[0] if parts else _NONE
    return _distinct(np.concatenate(parts), count)


def _common(parts: list[Docs], count: int) -> Docs:
    """The documents in every one of ``parts`` (of a package of ``count`` documents)."""
    if len(parts) == 1 or not all(len(p) for p in parts):
        return parts[0] if len(parts) == 1 else _NONE
    if sum(len(p) for p in parts) < count >> 6:  # a few: sorting them beats a pass
        found = parts[0]
        for part in parts[1:]:
            found = np.intersect1d(found, part, assume_unique=True)
        return found
    seen = np.zeros(count, np.int8)
    for part in parts:
        seen[part] += 1
    return np.flatnonzero(seen == len(parts)).astype(np.int32)


def _has(docs: Docs, doc: int) -> bool:
    """Whether ``doc`` is one of ``docs``."""
    at = int(docs.searchsorted(doc))
    return at < len(docs) and int(docs[at]) == doc


class _Keys:
    """Sorted keys of one field, each with the documents holding it; prefix lookups.

    The posting lists are slices of one int32 array (``offsets[k]:offsets[k + 1]`` for
    ``keys[k]``, in document order): 4 bytes a posting, no tuple of ints per key.
    """

    def __init__(self, texts: list[str], keys_of=_word_keys) -> None:
        postings: dict[str, list[int]] = {}
        for doc, text in enumerate(texts):
            for key in keys_of(text) if text else ():
                found = postings.get(key)
                if found is None:
                    postings[key] = [doc]
                else:
                    found.append(doc)
        self.count = len(texts)
        self.keys = sorted(postings)
        sizes = np.fromiter((len(postings[k]) for k in self.keys), np.int64, len(self.keys))
        self.offsets = np.zeros(len(self.keys) + 1, np.int64)
        np.cumsum(sizes, out=self.offsets[1:])
        self.postings = np.fromiter(
            chain.from_iterable(postings[k] for k in self.keys), np.int32, int(self.offsets[-1])
        )
        self.postings.flags.writeable = False  # lookups hand out views of it
        self._cache: dict[str, Docs] = {}
        self._cached = 0
        self._chars: frozenset[str] | None = None

    @property
    def chars(self) -> frozenset[str]:
        """Every character of the field but whitespace (those of its keys)."""
        if self._chars is None:
            self._chars = frozenset("".join(self.keys))
        return self._chars

    def find(self, prefix: str) -> Docs:
        """Documents with a key starting with ``prefix`` (shared: do not change it)."""
        found = self._cache.get(prefix)
        if found is None:
            lo = bisect_left(self.keys, prefix)
            hi = bisect_left(self.keys, prefix + _TOP, lo)
            found = self.postings[self.offsets[lo] : self.offsets[hi]]
            if hi - lo > 1:
                found = _distinct(found, self.count)
            if self._cached > CACHED:
                self._cache.clear()
                self._cached = 0
            self._cache[prefix] = found
            self._cached += len(found)
        return found

    def exact(self, key: str) -> Docs:
        """Documents with the key ``key``."""
        lo = bisect_left(self.keys, key)
        if lo < len(self.keys) and self.keys[lo] == key:
            return self.postings[self.offsets[lo] : self.offsets[lo + 1]]
        return _NONE


@dataclass(frozen=True)
class Hit:
    """One found document, best match first.

    ``title_spans`` and ``path_spans`` are ``(start, end)`` offsets into ``title`` and
    ``path`` as given here (display text) for a UI to bold. ``field`` says where the
    heaviest match was: ``title``, ``tag`` (``tag`` names it), ``entry`` (an index entry's
    title), ``path`` or ``description``. ``score`` runs from 0 to 100.
    """

    path: str
    title: str
    score: float
    field: str
    title_spans: tuple[Span, ...] = ()
    path_spans: tuple[Span, ...] = ()
    tag: str = ""


class _Word:
    """One query word: ``kind`` is ``word``, ``tag`` or ``path``; ``text`` is folded."""

    def __init__(self, finder: Finder, kind: str, text: str) -> None:
        self.finder, self.kind, self.text = finder, kind, text
        self.segments = [s for s in text.split("/") if s] if kind == "path" else []
        self.typos: list[str] = []  # word prefixes of the package within an edit or two
        self._exact: dict[int, Entries] = {}  # tier: matches at exactly that tier
        self._entries: dict[int, Entries] = {}  # tier: matches at that tier or better
        self._unions: dict[int, Docs] = {}

    @property
    def empty(self) -> bool:
        return not (self.segments if self.kind == "path" else self.text)

    def can(self, tier: int) -> bool:
        size = len(self.text.replace("/", ""))
        if tier == 2:
            return size >= INSIDE_MIN
        return tier == 3 or (self.kind != "path" and size >= TYPO_MIN)

    def entries(self, tier: int) -> Entries:
        """Matches at ``tier`` or better, heaviest first."""
        if tier not in self._entries:
            found: Entries = []
            for t in range(3, tier - 1, -1):
                if t not in self._exact:
                    self._exact[t] = self.finder._match(self, t) if self.can(t) else []
                found.extend(self._exact[t])
            self._entries[tier] = sorted(found, key=lambda e: -e[0])
        return self._entries[tier]

    def union(self, tier: int) -> Docs:
        """The documents this word matches at ``tier`` or better, in any field."""
        if tier not in self._unions:
            count = len(self.finder)
            self._unions[tier] = _union([e[2] for e in self.entries(tier)], count)
        return self._unions[tier]

    def inside(self, field: str) -> Docs | None:
        """Documents holding this word anywhere in ``field``, if already known."""
        if not self.can(2) or 2 not in self._exact:
            return None
        count = len(self.finder)
        return _union([e[2] for e in self._exact[2] if e[1] == field], count)

    def weights(self, tier: int) -> np.ndarray:
        """Per document, the heaviest weight with which this word matches it at ``tier``
        or better (0: no match)."""
        best = np.zeros(len(self.finder), np.int8)
        for weight, _field, docs in reversed(self.entries(tier)):  # the heaviest last
            best[docs] = weight
        return best

    def best(self, doc: int, tier: int) -> tuple[int, str]:
        """The heaviest (weight, field) where this word matches ``doc``."""
        for weight, field, docs in self.entries(tier):
            if _has(docs, doc):
                return weight, field
        return 0, ""

    def patterns(self, field: str, tier: int) -> list[str]:
        """Regexes finding this word in a folded title or path, best first."""
        if self.kind == "tag":
            return []
        if self.kind == "path" and field == "path":
            return [self.path_regex(starts=tier == 3), self.path_regex(starts=False)]
        found = [at_start(self.text)]
        if self.can(2):
            found.append(re.escape(self.text))
        return found + [at_start(t) for t in self.typos]

    def path_regex(self, starts: bool) -> str:
        """Each segment (a group) in order, each after a later ``/`` than the one before."""
        parts = [f"({at_start(s) if starts else re.escape(s)})" for s in self.segments]
        pattern = "(?:.*?/.*?)".join(parts)
        if self.text.startswith("/"):
            pattern = "^" + pattern
        if self.text.endswith("/"):
            pattern += "[^/]*/"
        return pattern


class Finder:
    """A search index over the documents of ``package`` (see the module docstring)."""

    def __init__(self, package: Package, give_way: Callable[[], object] | None = None) -> None:
        """``give_way``: called between the build's steps (the app's screen goes first)."""
        from kas_tui.core.memory import paused_gc

        self._give_way = give_way or (lambda: None)
        with paused_gc():  # hundreds of thousands of strings and lists, no cycles
            self._build(package)

    def _build(self, package: Package) -> None:
        give_way = self._give_way
        docs = sorted(package.documents.values(), key=lambda d: d.path)
        self._docs = docs
        self.paths = [d.path for d in docs]
        # a hit's title is looked up when shown (a compact package keeps no title string)
        entries: list[set[str]] = [set() for _ in docs]
        described: list[set[str]] = [set() for _ in docs]
        number = {p: i for i, p in enumerate(self.paths)}
        for index_file in package.indexes.values():
            for listing in index_file.listings:
                i = number.get(listing.path) if listing.kind == "document" else None
                if i is not None:
                    entries[i].add(" ".join(fold(listing.entry.title).split()))
                    described[i].add(fold(listing.entry.description))
        give_way()
        titles = [" ".join(fold(d.title).split()) for d in docs]
        descriptions = [fold(d.description) for d in docs]
        give_way()
        self.text = {  # folded, per field; multiple values one a line
            "title": titles,
            "tag": ["\n".join(sorted({fold(t).strip() for t in d.tags})) for d in docs],
            "entry": ["\n".join(sorted(e - {t, ""})) for e, t in zip(entries, titles, strict=True)],
            "path": [_same(fold(p), p) for p in self.paths],
            "description": [
                "\n".join([d, *sorted(more - {d, ""})])
                for d, more in zip(descriptions, described, strict=True)
            ],
        }
        del entries, described, number
        self._keys = {}
        for field in [f for f in self.text if f != "path"] + ["path"]:  # path last, as ever
            give_way()
            keys_of = _path_keys() if field == "path" else _word_keys
            self._keys[field] = _Keys(self.text[field], keys_of=keys_of)
        self._whole_titles = _Keys(titles, keys_of=lambda t: {t})
        self._whole_tags = _Keys(self.text["tag"], keys_of=lambda t: set(t.split("\n")))
        give_way()
        # the words a typo may stand for: numbers are not misspelt (a typo of 'doc-14063'
        # is not 'doc-14064')
        vocabulary = {m.group() for k in self._keys.values() for m in map(_WORD.match, k.keys) if m}
        self._vocabulary = sorted(w for w in vocabulary if not w.isdigit())
        self._prefixes: dict[int, list[str]] = {}
        # the documents are in path order: a stable sort by title length ranks them by
        # (length, path)
        ranked = np.argsort(np.fromiter(map(len, titles), np.int32, len(titles)), kind="stable")
        self._order = np.empty(len(docs), np.int64)
        self._order[ranked] = np.arange(len(docs))
        self._words: dict[tuple[str, str], _Word] = {}

    def __len__(self) -> int:
        return len(self.paths)

    # -- searching ----------------------------------------------------------------------

    def search(self, query: str, limit: int = 50) -> list[Hit]:
        """The best ``limit`` documents for ``query``, best first (none for an empty query)."""
        words = self._parse(query)
        if not words or limit <= 0:
            return []
        bonus = self._bonus(" ".join(fold(query).split()), words)
        found: list[tuple[int, int]] = []
        taken = np.zeros(len(self), bool)
        for tier in (3, 2, 1):
            if tier < 3 and not any(w.can(tier) for w in words):
                continue
            candidates = _common([w.union(tier) for w in words], len(self))
            candidates = candidates[~taken[candidates]]
            if len(candidates):
                taken[candidates] = True
                top = self._rank(words, tier, candidates, bonus, limit - len(found))
                found.extend((doc, tier) for doc in top)
            if len(found) >= limit:
                break
        return [self._hit(doc, tier, words, bonus) for doc, tier in found]

    def _parse(self, query: str) -> list[_Word]:
        words = []
        for raw in fold(query).split():
            if raw.startswith("#"):
                key = ("tag", raw.lstrip("#"))
            else:
                key = ("path" if "/" in raw else "word", raw)
            word = self._words.get(key)
            if word is None:
                if len(self._words) > 512:
                    self._words.clear()
                word = self._words[key] = _Word(self, *key)
            if not word.empty:
                words.append(word)
        return words

    def _bonus(self, phrase: str, words: list[_Word]) -> Bonus:
        """Titles holding the query at a word start, starting with it, equal to it."""
        titles = self._keys["title"]
        if any(w.kind != "word" for w in words):
            holds = _NONE
        elif len(words) == 1:
            holds = titles.find(phrase)
        else:  # a phrase: look among the titles holding every word
            regex, texts = re.compile(at_start(phrase)), self.text["title"]
            pool = _common([titles.find(w.text) for w in words], len(self))
            holds = _docs(i for i in pool.tolist() if phrase in texts[i] and regex.search(texts[i]))
        return holds, self._whole_titles.find(phrase), self._whole_titles.exact(phrase)

    def _rank(
        self, words: list[_Word], tier: int, candidates: Docs, bonus: Bonus, n: int
    ) -> list[int]:
        """The best ``n`` of ``candidates``: by summed weight, then title bonus (tier 3),
        then rank (shorter title, then path)."""
        total = np.zeros(len(candidates), np.int64)
        for word in words:
            total += word.weights(tier)[candidates]
        level = np.zeros(len(self), np.int64)
        if tier == 3:  # equal to the query 3, starting with it 2, holding it 1
            for rank, docs in enumerate(bonus, 1):
                level[docs] = rank
        key = (total * -(MAX_BONUS + 1) - level[candidates]) * len(self) + self._order[candidates]
        if len(key) > n:
            best = np.argpartition(key, n - 1)[:n]
            best = best[np.argsort(key[best])]
        else:
            best = np.argsort(key)
        return candidates[best].tolist()

    # -- matching one word --------------------------------------------------------------

    def _match(self, word: _Word, tier: int) -> Entries:
        """The documents matching ``word`` at exactly ``tier``, per field."""
        fields: tuple[str, ...] = ("tag",) if word.kind == "tag" else FIELDS
        if word.kind == "path":  # its parts in the path, or the whole word in any other field
            fields = tuple(f for f in FIELDS if f != "path")
            return self._match_path(word, tier) + self._match_in(word, tier, fields)
        return self._match_in(word, tier, fields)

    def _match_in(self, word: _Word, tier: int, fields: tuple[str, ...]) -> Entries:
        if tier == 3:
            entries = [(WEIGHTS[f], f, self._keys[f].find(word.text)) for f in fields]
            if word.kind == "tag":
                entries.insert(0, (WEIGHTS["title"], "tag", self._whole_tags.exact(word.text)))
        elif tier == 2:
            entries = [(WEIGHTS[f], f, self._inside(f, word)) for f in fields]
        else:
            word.typos = self._typos(word.text)
            entries = [
                (WEIGHTS[f], f, _union([self._keys[f].find(t) for t in word.typos], len(self)))
                for f in fields
            ]
        return [e for e in entries if len(e[2])]

    def _match_path(self, word: _Word, tier: int) -> Entries:
        regex = re.compile(word.path_regex(starts=tier == 3))
        paths = self.text["path"]
        if tier == 3:
            pool = _common([self._keys["path"].find(s) for s in word.segments], len(self))
            docs = _docs(i for i in pool.tolist() if regex.search(paths[i]))
        else:  # a cheap test first: the longest segment anywhere in the path
            longest = max(word.segments, key=len)
            docs = _docs(i for i, p in enumerate(paths) if longest in p and regex.search(p))
        return [(WEIGHTS["path"] + 1, "path", docs)] if len(docs) else []

    def _inside(self, field: str, word: _Word) -> Docs:
        """Documents whose ``field`` holds ``word`` anywhere (narrowed from a shorter word)."""
        texts, text = self.text[field], word.text
        if not self._keys[field].chars.issuperset(text):  # 'rel/' where no text has a '/'
            return _NONE
        pool: Docs | None = None
        for (kind, other), known in self._words.items():
            if kind == word.kind and other != text and other in text:
                docs = known.inside(field)
                if docs is not None and (pool is None or len(docs) < len(pool)):
                    pool = docs
        if pool is None:
            return _docs(i for i, t in enumerate(texts) if text in t)
        return _docs(i for i in pool.tolist() if text in texts[i])

    def _typos(self, text: str) -> list[str]:
        """Word prefixes in the package within one edit (two from 8 characters) of ``text``."""
        edits = 1 if len(text) < 8 else 2
        found: list[tuple[int, str]] = []
        for size in (len(text) - 1, len(text), len(text) + 1):
            for prefix, distance, _ in process.extract(
                text, self._prefixes_of(size), scorer=OSA.distance, score_cutoff=edits, limit=None
            ):
                if prefix != text:
                    found.append((int(distance), prefix))
        return [p for _, p in sorted(found)[:20]]

    def _prefixes_of(self, size: int) -> list[str]:
        if size not in self._prefixes:
            self._prefixes[size] = sorted({w[:size] for w in self._vocabulary if len(w) >= size})
        return self._prefixes[size]

    # -- results ------------------------------------------------------------------------

    def _hit(self, doc: int, tier: int, words: list[_Word], bonus: Bonus) -> Hit:
        total, heaviest, field = 0, 0, ""
        for word in words:
            weight, where = word.best(doc, tier)
            total += weight
            if weight > heaviest:
                heaviest, field = weight, where
        levels = bonus[::-1] if tier == 3 else ()  # equal 3, starts with 2, holds 1
        extra = next((3 - i for i, level in enumerate(levels) if _has(level, doc)), 0)
        low, span = TIERS[tier]
        score = low + span * (total / len(words) + extra) / (WEIGHTS["title"] + MAX_BONUS)
        tag = ""
        if field == "tag":
            tags = self._docs[doc].tags
            tag = next((t for t in tags if _names_tag(fold(t).strip(), words)), "")
        title, path = self._docs[doc].title, self.paths[doc]
        return Hit(
            path=path,
            title=title,
            score=round(min(score, low + span), 1),
            field=field,
            title_spans=_spans(title, "title", words, tier),
            path_spans=_spans(path, "path", words, tier),
            tag=tag,
        )


def _docs(numbers) -> Docs:
    """Document numbers given in increasing order, as :data:`Docs`."""
    return np.fromiter(numbers, np.int32)


def _same(folded: str, text: str) -> str:
    """``text`` itself when folding did not change it (one string kept, not two)."""
    return text if folded == text else folded


def _names_tag(tag: str, words: list[_Word]) -> bool:
    """Whether one of ``words`` matches ``tag`` (at a word start, inside, or with a typo)."""
    return any(
        re.search(pattern, tag)
        for w in words
        if w.kind != "path"
        for pattern in [at_start(w.text), re.escape(w.text), *map(at_start, w.typos)]
    )


def _spans(text: str, field: str, words: list[_Word], tier: int) -> tuple[Span, ...]:
    """Where ``words`` occur in ``text``, a title or path (display offsets), merged and sorted."""
    folded, where = fold_map(text)
    found: list[Span] = []
    for word in words:
        for pattern in word.patterns(field, tier):
            match = re.search(pattern, folded)
            if match:
                count = len(match.groups())
                found.extend(match.span(g) for g in (range(1, count + 1) if count else [0]))
                break
    merged: list[Span] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        elif end > start:
            merged.append((start, end))
    if where is None:
        return tuple(merged)
    return tuple((where[s], where[e - 1] + 1) for s, e in merged)
