"""The one lexical scorer: SQLite FTS5's BM25 over an in-memory table.

Every lexical judgement of the evaluation is made here, so the navigator and the flat
baseline score the same way: words are split and folded by FTS5's ``unicode61``
tokenizer (diacritics removed) and stemmed by its ``porter`` tokenizer, and ranked by
FTS5's built-in ``bm25()`` (k1 = 1.2, b = 0.75), weighted per column. The standard
library's ``sqlite3`` carries FTS5, so nothing is written by hand here but the query.

A question becomes an FTS5 query of its content words joined by ``OR`` (each quoted, so
no word is read as an operator); a short list of English function words is left out,
as BM25's inverse document frequency alone cannot push down a word such as "how" when
the table holds only the few entries a navigator has been shown.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Sequence

#: FTS5 tokenizer: Porter stemming over Unicode word splitting, diacritics folded.
TOKENIZER = "porter unicode61 remove_diacritics 2"

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

#: Function words dropped from queries (not from the indexed text).
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "cannot",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "get",
        "gets",
        "got",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "lets",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        # words of questions' frames, not of their subject
        "true",
        "false",
        "also",
        "may",
        "might",
        "must",
        "need",
        "needs",
        "via",
        "using",
        "within",
        "without",
        "every",
        "another",
        "always",
        "never",
        "yes",
        "see",
        "etc",
        "else",
        "s",
        "t",
        "don",
        "isn",
        "doesn",
    ]
)


_COMPOUND = re.compile(r"\b([^\W_]+)-([^\W_]+)\b")


def with_compounds(text: str) -> str:
    """``text`` followed by the joined form of its hyphenated words ("on-call" adds
    "oncall", "e-mail" adds "email"), so either spelling matches the other."""
    joined = [a + b for a, b in _COMPOUND.findall(text)]
    return f"{text} {' '.join(joined)}" if joined else text


def words(text: str) -> list[str]:
    """The lower-cased words of ``text`` (letters and digits; ``_`` and ``-`` split)."""
    return _WORD.findall(text.lower())


def joined_pairs(text: str) -> list[str]:
    """The joined forms of ``text``'s adjacent words, each once, in order: "hand over"
    gives "handover", "fail over" "failover", "sign in" "signin": the one-word spelling
    an entry may use for what a question writes as two. Pairs of two stopwords, and joins
    of under five letters, are left out."""
    found = words(text)
    seen: dict[str, None] = {}
    for a, b in zip(found, found[1:], strict=False):
        joined = a + b
        if len(joined) >= 5 and not (a in STOPWORDS and b in STOPWORDS) and not joined.isdigit():
            seen.setdefault(joined, None)
    return list(seen)


def query_terms(text: str) -> list[str]:
    """The content words of ``text``, each once, in order: what a query asks for
    (hyphenated words also joined, see :func:`with_compounds`)."""
    seen: dict[str, None] = {}
    for word in words(with_compounds(text)):
        if word not in STOPWORDS and (len(word) > 1 or word.isdigit()):
            seen.setdefault(word, None)
    return list(seen)


def query_concepts(text: str) -> list[tuple[str, ...]]:
    """:func:`query_terms` grouped by the word of ``text`` they came from: a hyphenated
    word's parts and joined form are one group ("on-call": ``("call", "oncall")``), every
    other term a group of its own; in the order of the terms. What an answer is counted
    in: a question asks about "on-call" once, not twice."""
    terms = query_terms(text)
    group_of = {term: i for i, term in enumerate(terms)}
    members: dict[int, list[str]] = {i: [term] for i, term in enumerate(terms)}
    for a, b in _COMPOUND.findall(text):
        parts = [w for w in (a.lower(), b.lower(), (a + b).lower()) if w in group_of]
        for other in parts[1:]:  # merge each into the first part's group
            keep, gone = group_of[parts[0]], group_of[other]
            if keep == gone:
                continue
            for term in members.pop(gone):
                group_of[term] = keep
                members[keep].append(term)
    return [tuple(group) for _, group in sorted(members.items())]


def concepts_found(concepts: Sequence[Sequence[str]], found: Iterable[str]) -> int:
    """How many of ``concepts`` (:func:`query_concepts`) hold a term of ``found``."""
    have = set(found)
    return sum(1 for group in concepts if have.intersection(group))


def match_expression(terms: Iterable[str]) -> str:
    """An FTS5 query matching any of ``terms`` (each quoted as a phrase)."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


_TIE_MARGIN = 16


class LexicalIndex:
    """Rows of text under a key, scored against a question by BM25.

    ``columns`` name the fields of a row; ``weights`` multiply each column's BM25
    contribution (a title usually counts more than a description). Keys are strings;
    adding a key again replaces its row. The table lives in memory and is private to
    the object (one connection each; not shared between threads).
    """

    def __init__(
        self, columns: Sequence[str] = ("text",), weights: Sequence[float] | None = None
    ) -> None:
        if not columns or not all(c.isidentifier() for c in columns):
            raise ValueError(f"columns must be identifiers, not {columns!r}")
        self.columns = tuple(columns)
        self.weights = tuple(weights) if weights is not None else (1.0,) * len(columns)
        if len(self.weights) != len(self.columns):
            raise ValueError("one weight per column")
        self._db = sqlite3.connect(":memory:")
        names = ", ".join(self.columns)
        self._db.execute(f"CREATE VIRTUAL TABLE t USING fts5({names}, tokenize='{TOKENIZER}')")
        self._rowid: dict[str, int] = {}
        self._key: dict[int, str] = {}
        weights_sql = ", ".join(repr(float(w)) for w in self.weights)
        # the table's rank is bm25 with these weights, so ORDER BY rank LIMIT n is fast
        self._db.execute(f"INSERT INTO t(t, rank) VALUES('rank', 'bm25({weights_sql})')")
        self._vocab: Stems | None = None  # made by the first frequencies() call
        self._rank_sql = "SELECT rowid, rank FROM t WHERE t MATCH ?"
        self._top_sql = "SELECT rowid, rank FROM t WHERE t MATCH ? ORDER BY rank LIMIT ?"

    def __len__(self) -> int:
        return len(self._rowid)

    def __contains__(self, key: str) -> bool:
        return key in self._rowid

    def add(self, key: str, *fields: str) -> None:
        """Index ``fields`` (one per column) under ``key``, replacing an earlier row."""
        self.add_many([(key, fields)])

    def add_many(self, rows: Iterable[tuple[str, Sequence[str]]]) -> None:
        """Index many rows at once (a key already in the table has its row replaced)."""
        batch, replaced = [], []
        for key, fields in rows:
            if len(fields) != len(self.columns):
                raise ValueError(f"{len(self.columns)} fields expected, got {len(fields)}")
            rowid = self._rowid.get(key)
            if rowid is None:
                rowid = len(self._key) + 1
                self._rowid[key] = rowid
                self._key[rowid] = key
            else:
                replaced.append((rowid,))
            batch.append((rowid, *(with_compounds(f) for f in fields)))
        if replaced:
            self._db.executemany("DELETE FROM t WHERE rowid = ?", replaced)
        marks = ", ".join("?" * len(self.columns))
        sql = f"INSERT INTO t(rowid, {', '.join(self.columns)}) VALUES (?, {marks})"
        self._db.executemany(sql, batch)

    def scores(self, terms: Sequence[str]) -> dict[str, float]:
        """BM25 score of every row matching any of ``terms`` (higher is better, > 0)."""
        if not terms or not self._rowid:
            return {}
        rows = self._db.execute(self._rank_sql, (match_expression(terms),)).fetchall()
        # FTS5's bm25() is negative, lower is better; its idf is floored at 1e-6.
        return {self._key[rowid]: -score for rowid, score in rows}

    def frequencies(self, words_: Iterable[str]) -> dict[str, int]:
        """How many rows hold each of ``words_`` (lower-cased words, matched by stem as a
        query matches them; 0 for a word no row holds)."""
        words_ = list(dict.fromkeys(words_))
        if not words_:
            return {}
        if self._vocab is None:
            self._db.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, t, 'row')")
            self._vocab = Stems()
        stem_of = self._vocab.mapping(words_)
        stems = sorted({stem for stem in stem_of.values() if stem})
        marks = ", ".join("?" * len(stems))
        rows = self._db.execute(f"SELECT term, doc FROM temp.v WHERE term IN ({marks})", stems)
        counts = dict(rows.fetchall())
        return {w: counts.get(stem_of[w], 0) if stem_of[w] else 0 for w in words_}

    def order(self, key: str) -> int:
        """When ``key`` was first added (1 for the first key)."""
        return self._rowid[key]

    def search(self, terms: Sequence[str], limit: int | None = None) -> list[tuple[str, float]]:
        """Matching keys, best first (ties in the order the keys were added)."""
        if limit is not None and terms and self._rowid:
            # FTS5 sorts by rank itself; a margin of rows past the limit lets rows tied
            # with the last one kept be ordered as without a limit (by when they were added)
            query = (match_expression(terms), limit + _TIE_MARGIN)
            rows = self._db.execute(self._top_sql, query).fetchall()
            scores = {self._key[rowid]: -rank for rowid, rank in rows}
        else:
            scores = self.scores(terms)
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], self._rowid[kv[0]]))
        return ranked[:limit] if limit is not None else ranked

    def matched(self, key: str, terms: Sequence[str], column: str | None = None) -> list[str]:
        """Which of ``terms`` occur (after stemming) in ``key``'s row (in ``column`` only,
        when given)."""
        rowid = self._rowid.get(key)
        if rowid is None:
            return []
        found = []
        for term in terms:
            row = self._db.execute(
                "SELECT 1 FROM t WHERE t MATCH ? AND rowid = ?",
                ((f"{column} : " if column else "") + match_expression([term]), rowid),
            ).fetchone()
            if row is not None:
                found.append(term)
        return found

    def hits(self, terms: Sequence[str], keys: Iterable[str] | None = None) -> dict[str, list[str]]:
        """For every row matching any of ``terms`` (of ``keys`` only, when given):
        which of them it holds (after stemming), in the order of ``terms``. One query
        per term, so a question is judged against many passages at once."""
        only = ""
        if keys is not None:
            ids = [self._rowid[k] for k in keys if k in self._rowid]
            if not ids:
                return {}
            only = f" AND rowid IN ({','.join(map(str, ids))})"
        found: dict[str, list[str]] = {}
        for term in dict.fromkeys(terms):
            rows = self._db.execute(
                "SELECT rowid FROM t WHERE t MATCH ?" + only, (match_expression([term]),)
            ).fetchall()
            for (rowid,) in rows:
                found.setdefault(self._key[rowid], []).append(term)
        return found

    def close(self) -> None:
        if self._vocab is not None:
            self._vocab.close()
        self._db.close()


class Stems:
    """Words folded and stemmed exactly as the FTS5 tokenizer folds and stems them,
    by asking it (a scratch table and its ``fts5vocab``): for matching many words
    against many passages in Python, where one FTS5 query per word would walk every
    row holding a common word. Each word is asked once."""

    def __init__(self) -> None:
        self._db = sqlite3.connect(":memory:")
        self._db.execute(f"CREATE VIRTUAL TABLE s USING fts5(w, tokenize='{TOKENIZER}')")
        self._db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(s, 'instance')")
        self._stem: dict[str, str] = {}

    def of(self, words_: Iterable[str]) -> list[str]:
        """The stems of ``words_`` (lower-cased words, as :func:`words` gives them), in
        order; a word the tokenizer makes nothing of is left out."""
        words_ = list(words_)
        new = list(dict.fromkeys(w for w in words_ if w not in self._stem))
        if new:
            self._db.executemany("INSERT INTO s(rowid, w) VALUES (?, ?)", enumerate(new, 1))
            for doc, term in self._db.execute("SELECT doc, term FROM v ORDER BY doc, offset"):
                self._stem.setdefault(new[doc - 1], term)
            self._db.execute("DELETE FROM s")
            for word in new:
                self._stem.setdefault(word, "")
        return [self._stem[w] for w in words_ if self._stem[w]]

    def mapping(self, words_: Iterable[str]) -> dict[str, str]:
        """Each of ``words_`` (lower-cased) and its stem, ``""`` when the tokenizer makes
        nothing of it."""
        words_ = list(dict.fromkeys(words_))
        self.of(words_)
        return {w: self._stem[w] for w in words_}

    def close(self) -> None:
        self._db.close()
