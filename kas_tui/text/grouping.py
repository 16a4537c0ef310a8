"""Topical sub-bundles: a folder too large for one index, split by its own words.

An index an agent reads in one call must stay within a token budget
(:data:`kas_tui.text.tokens.INDEX_TOKEN_BUDGET`). When a folder's documents do not fit, the
build groups them into sub-bundles named by a phrase their titles share ("Mail flow",
"Calendar", "Public folders"), chosen greedily:

1. Every document offers phrases: the words and two-word phrases of its title (weight
   3), its tags (2), its description (1) and its headings (0.5), content words only,
   folded to a simple singular ("mailboxes" and "mailbox" are one phrase). Words of the
   folder's own title and its parents' are left out: they are what every member is
   about.
2. A phrase is a candidate label when it is in the titles of at least ``min_size``
   documents and of at most half of the folder (a word every title holds, such as the
   product's name, tells nothing apart).
3. The label covering most documents not yet grouped (counting up to ``capacity``, so a
   label too broad to fit one index does not always win; ties: more title weight, then
   alphabetical) is taken (or a two-word phrase holding it that covers three quarters as
   many: "Free busy" over "Busy"), its documents grouped, and so on, until the groups would no
   longer fit in the parent's index or no candidate covers ``min_size`` documents.
4. Each document joins the taken label it holds with most weight (ties: the most
   specific, held by fewest documents, then the label taken first); documents holding no label join the group whose labels' phrases they share
   most, or stay in the folder itself when they share none.

Named groups, not anonymous clusters: a label is a word an agent's question can match,
and it is the group's title. Deterministic: the same documents give the same groups
(sorted input, no randomness). Only the standard library: the phrases are few per
document, and a vector-space clustering (scikit-learn's k-means over TF-IDF) would
still need this labelling step to name what it made.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kas_tui.text.languages import MARKS, other_function_words
from kas_tui.text.lexical import STOPWORDS

#: Weights of where a phrase was found in a document.
TITLE, TAGS, DESCRIPTION, HEADINGS = 3.0, 2.0, 1.0, 0.5
#: A word: letters, digits and marks on them (:data:`~kas_tui.text.languages.MARKS`),
#: with ``'.+#-`` inside ("C#", "e-mail", "Node.js").
_WORD = re.compile(rf"[^\W_](?:[\w'’.+#{MARKS}-]*(?:[^\W_]|[{MARKS}]))?")
#: What a task title does, not what it is about ("Add", "Create", "Specify": Business
#: Central's flat folder and NAV's were grouped into bundles of them, and its bundles
#: described as "covering ..., View and Create"): no group's name, no folder's topic
#: (:mod:`.title_words` adds them to its own).
TASK_WORDS = frozenset(
    [
        "add",
        "adding",
        "create",
        "creating",
        "change",
        "changing",
        "specify",
        "specifying",
        "define",
        "defining",
        "modify",
        "modifying",
        "edit",
        "editing",
        "delete",
        "deleting",
        "remove",
        "removing",
        "enable",
        "enabling",
        "disable",
        "disabling",
        "view",
        "viewing",
        "manage",
        "managing",
    ]
)
#: Words that name no group: question words, page kinds, what every troubleshooting
#: title says, and :data:`TASK_WORDS`.
_GENERIC = TASK_WORDS | frozenset(
    [
        "use",
        "using",
        "used",
        "how",
        "what",
        "why",
        "when",
        "where",
        "which",
        "who",
        "can",
        "cannot",
        "can't",
        "error",
        "errors",
        "issue",
        "issues",
        "problem",
        "problems",
        "fix",
        "fixes",
        "fixed",
        "troubleshoot",
        "troubleshooting",
        "resolve",
        "resolved",
        "guide",
        "overview",
        "introduction",
        "article",
        "articles",
        "reference",
        "learn",
        "about",
        "help",
        "support",
        "new",
        "doesn't",
        "don't",
        "isn't",
        "won't",
        "aren't",
        "unable",
        "fail",
        "fails",
        "failed",
        "failure",
        "occurs",
        "occur",
        "message",
        "messages",
        "get",
        "gets",
        "set",
        "sets",
        "work",
        "works",
        "working",
        "not",
        "no",
        "you",
        "your",
        "microsoft",
        "docs",
        "documentation",
        "page",
        "pages",
        "topic",
        "topics",
    ]
)


@dataclass(frozen=True)
class Member:
    """A document as the grouping sees it."""

    key: str
    title: str
    description: str = ""
    tags: tuple[str, ...] = ()
    headings: tuple[str, ...] = ()


@dataclass
class Group:
    """A sub-bundle: its label (a phrase its members' titles share) and members."""

    label: str
    members: list[str] = field(default_factory=list)


@functools.lru_cache(maxsize=1 << 16)
def fold(word: str) -> str:
    """A word in the form phrases are compared in: lower case, a plain plural made
    singular ("mailboxes" -> "mailbox", "policies" -> "policy"; not "access", "status").
    Remembered: a folder's titles and descriptions repeat their words thousands of times."""
    w = word.lower().strip(".'’-")
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("xes", "ches", "shes", "sses")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is", "os")):
        return w[:-1]
    return w


@functools.lru_cache(maxsize=1 << 16)
def _content(word: str) -> bool:
    """A word a group may be named by: no function word, page-kind word or number."""
    low = word.lower()
    return not (low in STOPWORDS or low in _GENERIC or low.isdigit() or len(low) < 3)


def phrases(
    text: str,
    *,
    split: Callable[[str], list[str]] = _WORD.findall,
    keep: Callable[[str], bool] = _content,
) -> dict[str, str]:
    """Folded phrase -> its surface form: the words of ``text`` (as ``split`` cuts them)
    that ``keep`` accepts, and every pair of such words written next to each other."""
    out: dict[str, str] = {}
    previous = ""
    for raw in split(text):
        if not keep(raw):
            previous = ""
            continue
        out.setdefault(fold(raw), raw)
        if previous:
            out.setdefault(f"{fold(previous)} {fold(raw)}", f"{previous} {raw}")
        previous = raw
    return out


@functools.lru_cache(maxsize=1 << 15)
def _phrase_items(text: str) -> tuple[tuple[str, str], ...]:
    """:func:`phrases` of ``text`` as the grouping cuts it, remembered: a document is
    weighed again in every group it lands in."""
    return tuple(phrases(text).items())


def group(
    members: Sequence[Member],
    *,
    capacity: int,
    parent_room: int,
    min_size: int = 3,
    context: str = "",
) -> tuple[list[Group], list[str]]:
    """Groups of ``members`` (each at most about ``capacity`` entries; at most
    ``parent_room`` groups and kept documents together), and the keys kept in the
    folder itself. ``context`` is the folder's title and its parents' ("Access",
    "Client", "Office"): their words name what every member is about, so they name no
    group. No groups when nothing can be told apart."""
    members = sorted(members, key=lambda m: m.key)
    shared = {fold(w) for w in _WORD.findall(context)}
    weight: dict[str, dict[str, float]] = {}
    written: dict[str, list[tuple[tuple[str, str], ...]]] = {}  # each text's (phrase, form)
    in_titles: Counter[str] = Counter()
    for m in members:
        w: dict[str, float] = {}
        written[m.key] = parts = []
        for text, value in (
            (m.title, TITLE),
            (" ".join(m.tags), TAGS),
            (m.description, DESCRIPTION),
            (" ".join(m.headings), HEADINGS),
        ):
            items = _phrase_items(text)
            parts.append(items)
            for phrase, _form in items:
                if w.get(phrase, 0.0) < value:  # the most a phrase weighs in the member
                    w[phrase] = value
        weight[m.key] = w
        in_titles.update(p for p, v in w.items() if v >= TITLE)
    limit = max(min_size, len(members) // 2)
    # another language's function words name no group ("Die", "Und": a German manual)
    shared |= {fold(w) for w in other_function_words(m.title for m in members)}
    candidates = sorted(
        p for p, n in in_titles.items() if min_size <= n <= limit and not set(p.split()) & shared
    )
    holders: dict[str, list[str]] = defaultdict(list)
    candidate_set = set(candidates)
    for m in members:  # each member's own phrases, not every candidate: a large folder
        for p, w in weight[m.key].items():  # has thousands
            if w >= DESCRIPTION and p in candidate_set:
                holders[p].append(m.key)
    # each candidate's members not grouped yet, and their weight (sums of 3, 2, 1 and
    # 0.5 are exact, so kept up to date they equal a sum made afresh)
    fresh_count = {p: len(holders[p]) for p in candidates}
    fresh_weight = {p: sum(weight[k][p] for k in holders[p]) for p in candidates}
    taken: list[str] = []
    grouped: set[str] = set()
    while len(taken) < parent_room - 1:
        best, best_score = None, (0, 0.0)
        for p in candidates:  # the most fresh members (up to capacity), then weight,
            count = fresh_count[p]  # then the alphabetically first
            if count < min_size or p in taken:
                continue
            score = (min(count, capacity), fresh_weight[p])
            if (
                best is None
                or score > best_score
                or (score == best_score and prefer_first(p) > prefer_first(best))
            ):
                best, best_score = p, score
        if best is None:
            break
        fresh = fresh_count[best]
        for p in candidates:  # "free busy" over "busy" when it says the same
            wider = " " in p and best in p.split() and p not in taken
            if wider and fresh_count[p] * 4 >= fresh * 3:
                best = p
                break
        taken.append(best)
        for k in holders[best]:
            if k not in grouped:
                grouped.add(k)
                for p, w in weight[k].items():
                    if w >= DESCRIPTION and p in candidate_set:
                        fresh_count[p] -= 1
                        fresh_weight[p] -= w
        left = len(members) - len(grouped)
        if left + len(taken) <= parent_room and left < min_size:
            break
    if len(taken) < 2:
        return [], [m.key for m in members]
    # how each label is written, counted over every text that holds it
    surface: dict[str, Counter[str]] = {p: Counter() for p in taken}
    for m in members:
        for items in written[m.key]:
            for phrase, form in items:
                if phrase in surface:
                    surface[phrase][form] += 1
    groups = {p: Group(_label(p, surface[p])) for p in taken}
    loose: list[Member] = []
    for m in members:
        # the label it holds with most weight; of equals, the most specific one
        held = [(weight[m.key].get(p, 0.0), -len(holders[p]), -i, p) for i, p in enumerate(taken)]
        top = max(held)
        if top[0] > 0:
            groups[top[3]].members.append(m.key)
        else:
            loose.append(m)
    kept: list[str] = []
    # how many of a group's first 200 members hold each phrase: a loose member's overlap
    # with the group is the sum over its own phrases (kept up to date as members join)
    sample = {p: Counter(q for k in groups[p].members[:200] for q in weight[k]) for p in taken}
    for m in loose:
        words = weight[m.key]
        scores = []
        for i, p in enumerate(taken):
            held = sample[p]
            overlap = sum(held[q] for q in words if q != p and q in held)
            scores.append((overlap / math.sqrt(len(groups[p].members) + 1), -i, p))
        top = max(scores)
        if top[0] > 0:
            joined = groups[top[2]].members
            joined.append(m.key)
            if len(joined) <= 200:
                sample[top[2]].update(weight[m.key].keys())  # one each, not the weights
        else:
            kept.append(m.key)
    result = [g for g in (groups[p] for p in taken) if g.members]
    return result, kept


def prefer_first(text: str) -> str:
    """A key that makes ``max`` prefer the alphabetically first text."""
    return "".join(chr(0x10FFFF - ord(c)) for c in text)


def _label(phrase: str, forms: Counter[str]) -> str:
    """A phrase's most common surface form, capitalised as a title ("mail flow" ->
    "Mail flow"; "OneDrive" kept)."""
    form = max(forms.items(), key=lambda kv: (kv[1], prefer_first(kv[0])))[0] if forms else phrase
    return form[:1].upper() + form[1:]
