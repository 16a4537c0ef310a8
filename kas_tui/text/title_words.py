"""The words of a title that name its topic: what a folder's sentence is drawn from.

A title's topic words leave out function words, page kinds, what every troubleshooting
title says and the abbreviations reports' titles cut ("Serv.", "Acctg."); a pair is two
such words written next to each other, folded (plurals made singular), and a pair cut
from a longer, more common name ("Analysis Power" of "... Analysis Power BI") is no
topic of its own. :mod:`.folder_summary` weighs them into a folder's sentence.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import Counter
from collections.abc import Sequence

import snowballstemmer

from kas_tui.text import prose
from kas_tui.text.grouping import TASK_WORDS, fold, phrases
from kas_tui.text.lexical import STOPWORDS

#: Words that name no topic in a title, besides English function words
#: (:data:`..lexical.STOPWORDS`, the one list of those) and what a task title does
#: (:data:`.grouping.TASK_WORDS`, "Create", "Manage": no group's name either):
#: contractions, page kinds, and what every troubleshooting title says.
_STOP_WORDS = """cant can't wont won't doesnt doesn't dont don't onto vs use used user users
    getting set sets new old one two three error errors issue issues problem problems fix
    fixes fixed fail fails failed failure unable occurs occur message messages appears
    appear working work works incorrect wrong unexpected troubleshoot troubleshooting
    resolve resolved resolution support article articles document documents page pages
    guide how-to faq overview information info describes description something went
    sorry shown correctly properly trouble additional related adding check run running
    per across versus"""
_STOP = frozenset(_STOP_WORDS.split()) | STOPWORDS | TASK_WORDS


def topical(word: str) -> bool:
    """A word worth naming a topic by: no stop word, number or contraction."""
    return (
        (len(word) > 2 or (len(word) == 2 and word.isupper()))  # "BI", "AI": acronyms
        and word.lower() not in _STOP
        and not word.isdigit()
        and "'" not in word
        and "’" not in word
    )


#: A short capitalised word cut with a period inside a title: "Serv. Contract",
#: "Cost Acctg. Statement", "VAT Registration No. Check" (reports' titles abbreviate);
#: at its end, a shorter one only ("Inventory - Qty.", not "... in Excel.").
_ABBREVIATION = re.compile(r"(?<![\w.])(?:[A-Z][a-z]{0,5}\.(?=\s+\W*\w)|[A-Z][a-z]{0,3}\.(?=\W*$))")


def _title_parts(title: str) -> list[str]:
    """A title cut at its abbreviations, which name no topic ("Serv", "Acctg") and join
    no pair."""
    return _ABBREVIATION.split(title)


def topic_words(title: str) -> list[str]:
    return [t for part in _title_parts(title) for t in prose.words(part) if topical(t)]


@functools.lru_cache(maxsize=1 << 14)
def _runs(title: str) -> tuple[tuple[str, ...], ...]:
    """The runs of topical words of a title, folded ("Sales Analysis Power BI report"
    is one run; a stop word or an abbreviation ends one)."""
    runs: list[tuple[str, ...]] = []
    for part in _title_parts(title):
        run: list[str] = []
        for word in prose.words(part):
            if topical(word):
                run.append(fold(word))
            elif run:
                runs.append(tuple(run))
                run = []
        if run:
            runs.append(tuple(run))
    return tuple(runs)


def cut_pairs(titles: Sequence[str], counts: Counter[str]) -> set[str]:
    """The pairs that are pieces of a longer name: every title writing the pair goes on
    into the same word (or comes from it), and that word's pair with it is the more
    common ("Analysis Power" of "Sales Analysis Power BI", "BI report" of "Power BI
    report", beside "Power BI" in many titles)."""
    after: dict[str, Counter[str]] = {}
    before: dict[str, Counter[str]] = {}
    for title in titles:
        for run in _runs(title):
            for i in range(len(run) - 1):
                pair = f"{run[i]} {run[i + 1]}"
                after.setdefault(pair, Counter())[run[i + 2] if i + 2 < len(run) else ""] += 1
                before.setdefault(pair, Counter())[run[i - 1] if i else ""] += 1
    cut: set[str] = set()
    for pair, n in counts.items():
        first, _, second = pair.partition(" ")
        if not second:
            continue
        going_on, _ = after.get(pair, Counter({"": 1})).most_common(1)[0]
        coming_from, _ = before.get(pair, Counter({"": 1})).most_common(1)[0]
        if (
            going_on and after[pair][going_on] == n and counts.get(f"{second} {going_on}", 0) > n
        ) or (
            coming_from
            and before[pair][coming_from] == n
            and counts.get(f"{coming_from} {first}", 0) > n
        ):
            cut.add(pair)
    return cut


def phrase_key(text: str) -> str:
    """A topic as compared with others: its words folded ("Mailboxes" and "mailbox",
    "Public folders" and "public folder" are one topic)."""
    return " ".join(fold(w) for w in prose.words(text))


@functools.lru_cache(maxsize=1 << 14)
def written_phrases(title: str) -> dict[str, str]:
    """The words of a title worth naming a topic by, and the pairs of them written next
    to each other ("Sign in to Microsoft 365" makes no "sign Microsoft"), folded, each
    with the way the title writes it ("outstanding balance" -> "Outstanding Balances").
    Remembered: a build weighs each title again at every level above its folder."""
    out: dict[str, str] = {}
    for part in _title_parts(title):
        for phrase, written in phrases(part, split=prose.words, keep=topical).items():
            out.setdefault(phrase, written)
    return out


@functools.lru_cache(maxsize=1 << 14)
def title_phrases(title: str) -> frozenset[str]:
    """The folded phrases of :func:`written_phrases`."""
    return frozenset(written_phrases(title))


_STEMMERS = threading.local()  # a Snowball stemmer keeps state: one per thread


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A word's English stem (Snowball's): "Integrating", "integration" and "Integrate"
    are one word to a folder's sentence ("integr"), as "Synchronization" and
    "synchronize" are."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word.lower())


def stems(phrase: str) -> frozenset[str]:
    """The stems of a phrase's words."""
    return frozenset(stem(w) for w in phrase.split())


#: Where an identifier's next word starts: a hump ("mouse|Down"), an acronym's end
#: ("HTTP|Server"), or a separator.
_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z][A-Z])(?=[A-Z][a-z])")


def identifier_words(name: str) -> str:
    """An identifier as the words a person writes it with: "MouseDown" -> "mouse down",
    "scroll_view" -> "scroll view", "coreConceptsSidebar" -> "core concepts sidebar",
    "HTTPServer" -> "HTTP server" (an acronym keeps its case)."""
    words = re.split(r"[\s_\-]+", _HUMP.sub(" ", name))
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words if w)
