"""Draft a question set from a package's own bodies, deterministically, offline.

A question is made from what a document *says*, never from what its title, description
or index entry say about it (a question copied from a description would only measure
whether the navigator can read its own cue). Three kinds, the ones a heading states
plainly enough to be asked without guessing, tried in this order:

- ``faq``: a heading that is itself a question ("Can a customer pay by invoice?"),
  asked as written; the answer is the sentence under it.
- ``symptom``: a troubleshooting article's symptom, the opening sentence under a
  symptom heading ("Symptoms", "Problem"...), asked as "What should I do when ...?"; the
  reference answer is the opening sentence under its fix heading ("Resolution",
  "Workaround"...) when there is one.
- ``goal``: a section goal, a heading that states a task: "How to rotate the key" or
  "To rotate the key" (any words after the prefix), or a heading that starts with a
  procedure verb and names two things it acts on ("Rotate the signing key"), asked as
  "How do I rotate the signing key?"; the answer is the sentence under it.

Left out: every other section (a heading over a statement, "Refund channels" over
"Refunds go back to the original payment method only."). Turning a statement into a
question needs English rules for each way a sentence is built (instructions,
conditions, prohibitions, asides) and the drafter grew one special case per sentence of
the package it was tried on; the questions came out as "Heading: is it true that
<the page's sentence>?", which reuse the page's words and are easier for a word-matching
reader than anything a person asks (see docs/navigability.md, "Drafted and
human-written questions"). A package whose headings state no goal, symptom or question
gets few drafted questions or none: write a question set by hand.

The words the kinds are recognised by (symptom and fix headings, procedure verbs, a
heading's labels, the words that start a clause...) are data, not code:
``data/question_words.json``, read by :mod:`.question_words`.

The document's first heading (its title) is never used, nor is a heading two documents
share (a template's, "Symptoms" aside: a question under one would not say which
document it means); a symptom's sentence under 5 or over 40 words is skipped, and so is
a question whose content words all appear in the document's title and description.

Documents are visited in an order shuffled by ``seed`` (``random.Random``, over the
sorted paths), one question per document until every document with a usable section
has one, then a second round, up to ``n``. The same package, ``n`` and ``seed`` give the
same questions, byte for byte. Each question's ``tags`` are ``("drafted", KIND,
DOCUMENT_TYPE)``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt

from kas_tui.core.okf import frontmatter as fm
from kas_tui.features.evaluate.passages import answers, passages
from kas_tui.features.evaluate.question_words import alternation, words_of
from kas_tui.features.evaluate.runs import Question
from kas_tui.text import prose
from kas_tui.text.lexical import Stems, query_concepts, query_terms, with_compounds, words

if TYPE_CHECKING:
    from kas_tui.core.package import Package

DEFAULT_N = 50
#: Why a package gave no question (the CLI and the evaluation screen say it).
NOTHING_TO_ASK = (
    "no section of its documents gives a question: a question is drafted only from a "
    "heading that asks a question, states a task ('How to ...', 'Rotate the key') or "
    "heads a troubleshooting article's symptom, other than the title, that no other "
    "document shares, must say something the title and description do not, and is left "
    "out when more than three documents answer it alike; write a question set by hand "
    "and run kas-tui eval PKG --questions FILE"
)
FAQ, SYMPTOM, GOAL = "faq", "symptom", "goal"
#: The kinds drafted, in the order of preference (see the module docstring).
KINDS = (FAQ, SYMPTOM, GOAL)
MIN_WORDS, MAX_WORDS = 5, 40

_INLINE_NOISE = re.compile(
    r"\[\^[^\]]*\]|\[!(?:INCLUDE|NOTE|TIP|IMPORTANT|WARNING|CAUTION)[^\]]*\]"
)
#: A reference-style link whose reference is not defined in the page (MkDocs'
#: cross-references, "[clear][textual.widgets.DataTable.clear]"): its text is what it says.
_REF_LINK = re.compile(r"\[([^\[\]]+)\]\[[^\[\]]*\]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(A-Z0-9])")
_DIRECTIVE = re.compile(r"^\s*(?:>\s*)?\[!|^:::")
_CHECKBOX = re.compile(r"^\[[ xX]\]\s*")
#: A heading's number or label ("2.", "Step 3:", "Method 1:", "Option B -",
#: "Workaround:", "Resolution - Step 2:"; the labels are the data's ``heading_labels``),
#: left out of the words asked: "Method 1: Use the /resetfolders switch" is a goal.
_LABELS = alternation("heading_labels")
_NUMBERED = re.compile(
    # "Resolution - Step 2: ...", "Resolution Method 2 -Refresh ..."
    rf"^(?:(?:{_LABELS})\s*(?:[-–—:]\s+(?=\S)|\s(?=(?:{_LABELS})\b)))?"
    rf"(?:(?:{_LABELS})\s+(?:\d+|(?-i:[A-Z]))\b\s*[.:)\-–—]?|\d+(?:[.:)]|(?=\s)))?\s*",
    re.I,
)
#: Content words a goal names besides its verb when nothing else says it is a goal
#: ("Find the charge", "Open questions" may be noun phrases after all).
MIN_OBJECTS = 2


@dataclass(frozen=True)
class _Section:
    level: int
    heading: str
    sentence: str  # the opening sentence of its first paragraph ('' when none)


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    return MarkdownIt("commonmark")


def _plain(token) -> str:  # noqa: ANN001 - a markdown-it inline token
    """An inline token's text without markup: link texts, code spans' content."""
    parts: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    text = _REF_LINK.sub(r"\1", _INLINE_NOISE.sub("", "".join(parts)))
    return " ".join(text.split())


def sections(body: str) -> list[_Section]:
    """The body's headings, each with the opening sentence of the paragraph after it."""
    tokens = _md().parse(body)
    found: list[_Section] = []
    heading: tuple[int, str] | None = None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open":
            if heading is not None:
                found.append(_Section(heading[0], heading[1], ""))
            heading = (int(token.tag[1]), _plain(tokens[i + 1]))
            i += 3
            continue
        if token.type == "paragraph_open" and heading is not None and token.level <= 2:
            inline = tokens[i + 1]
            if not _DIRECTIVE.match(inline.content):
                text = _CHECKBOX.sub("", _plain(inline))
                found.append(_Section(heading[0], heading[1], first_sentence(text)))
                heading = None
        i += 1
    if heading is not None:
        found.append(_Section(heading[0], heading[1], ""))
    return found


def fenced_templates(body: str) -> list[list[_Section]]:
    """The headings of each Markdown template a body shows in a fenced block
    (```` ```markdown ````): a postmortem process's template prescribes "What went well"
    to every postmortem, so it is a template heading even where one postmortem has it."""
    return [
        sections(token.content)
        for token in _md().parse(body)
        if token.type == "fence" and token.info.strip().lower() in ("markdown", "md")
    ]


def first_sentence(text: str) -> str:
    return _SENTENCE_END.split(text, maxsplit=1)[0].strip() if text else ""


#: Words a question keeps of a sentence: a person asks about the point, not every detail.
ASK_WORDS = 16
#: Words past :data:`ASK_WORDS` a sentence may run to be kept whole, and how far a cut
#: may look for the start of a clause.
ASK_SLACK = 6


def first_clause(sentence: str) -> str:
    """The sentence up to its first ``;`` (or a ``:`` after its third word), shortened
    when it runs past :data:`ASK_WORDS` words (by more than :data:`ASK_SLACK`): at a
    comma in the second half of those words, else before the last word that starts a
    clause, else not at all. It is never cut inside a phrase ("... hits the")."""
    text = sentence.split(";", 1)[0]
    colon = text.find(":")
    if colon != -1 and len(text[:colon].split()) >= 3:
        text = text[:colon]
    parts = text.split()
    if len(parts) > ASK_WORDS + ASK_SLACK:
        cut = " ".join(parts[:ASK_WORDS])
        comma = cut.rfind(",")
        if comma > len(cut) // 2:
            text = cut[:comma]
        else:
            starts = [
                i
                for i in range(ASK_WORDS // 2, ASK_WORDS + ASK_SLACK)
                if parts[i].lower().strip("(\"'") in words_of("clause_words")
            ]
            if starts:
                cut_at = starts[-1]
                if cut_at > 1 and parts[cut_at - 1].lower() == "even":  # "even though"
                    cut_at -= 1
                text = " ".join(parts[:cut_at])
    return text.strip().rstrip(".!,:")


#: How a symptom's first sentence may set its scene (the data's ``scene_words``), left out of "What should I do when
#: ...?" ("When you open ...", "Assume that you use ...", "If a user ...").
_SCENE = re.compile(rf"^(?:{alternation('scene_words')})\s+", re.I)


def symptom_clause(clause: str) -> str:
    """A symptom's clause as "What should I do when ...?" asks it: without the words
    setting its scene, which the question's own "when" says already."""
    rest = _SCENE.sub("", clause, count=1)
    return rest if len(rest.split()) >= 3 else clause


#: A sentence pointing at its own page ("follow these steps", "the method shown
#: above", "run the command above"; the data's ``pointing_phrases`` and
#: ``pointing_words``): asked out of its page, it says nothing.
_POINTING = alternation("pointing_words")
_DEICTIC = re.compile(
    rf"\b(?:{alternation('pointing_phrases')})\b"
    rf"|\bthe (?:[\w-]+ ){{1,2}}(?:{_POINTING})\b(?!\s*[\d$€£])"  # "the command above"
    rf"|\b(?:{_POINTING})\W*$",
    re.I,
)


def _sized(sentence: str) -> bool:
    """A sentence worth asking about: 5 to 40 words, starting with a letter, ending a
    statement (not a colon leading into a list), not pointing at its own page."""
    return (
        MIN_WORDS <= len(sentence.split()) <= MAX_WORDS
        and sentence[:1].isalpha()
        and not sentence.rstrip().endswith(":")
        and not _DEICTIC.search(sentence)
    )


def heading_key(heading: str) -> str:
    """A heading as compared across documents: numbering, case and punctuation dropped."""
    return " ".join(words(_NUMBERED.sub("", heading)))


#: A heading's qualifier ("Contributing factors (preliminary)") and the slash between
#: two headings written as one ("What went well / what went poorly").
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")
_ALTERNATIVES = re.compile(r"\s+/\s+")


def heading_keys(heading: str) -> frozenset[str]:
    """Every key a heading is compared by (:func:`heading_key`): as written, without a
    trailing qualifier in parentheses, and each of the headings a slash joins. A
    template's heading stays one when a document qualifies it or merges two."""
    plain = _QUALIFIER.sub("", heading)
    forms = {heading, plain, *_ALTERNATIVES.split(plain)}
    return frozenset(k for k in (heading_key(f) for f in forms) if k)


def candidates(
    body: str, template: frozenset[str] = frozenset(), secs: list[_Section] | None = None
) -> Iterator[tuple[str, str, str]]:
    """``(kind, question, answer)`` drafts from a body, in the order of preference.

    Sections under a heading in ``template`` (see :func:`template_headings`) are not
    asked about, except a troubleshooting article's symptom (and its fix is its answer)."""
    secs = sections(body) if secs is None else secs
    body_secs = secs[1:] if secs and secs[0].level == 1 else secs
    symptom_headings = words_of("symptom_headings")
    answer_headings = words_of("answer_headings")
    symptoms = [s for s in body_secs if s.heading.lower().strip(" :") in symptom_headings]
    # every troubleshooting article has its "Resolution": a template heading, still the fix
    answer = next(
        (s.sentence for s in body_secs if s.heading.lower().strip(" :") in answer_headings),
        "",
    )
    body_secs = [s for s in body_secs if not heading_keys(s.heading) & template]
    for sec in body_secs:
        heading = sec.heading.strip()
        if heading.endswith("?") and len(heading.split()) >= 4:
            yield FAQ, heading, sec.sentence
    for sec in symptoms:
        if _sized(sec.sentence):
            symptom = prose.lower_first(symptom_clause(first_clause(sec.sentence)), body)
            yield SYMPTOM, f"What should I do when {symptom}?", answer or ""
    for sec in body_secs:
        goal = _goal(sec.heading)
        if goal:
            yield GOAL, f"How do I {prose.lower_first(goal, body)}?", sec.sentence


#: Words that make a heading a symptom, whatever verb it starts with (``failure_words``).
_FAILURE = re.compile(rf"\b(?:{alternation('failure_words')})\b", re.I)
#: A heading that states what a thing does ("Import job shows skipped items", "Import job
#: is stuck"): its first word is a noun, not the verb of a procedure (``statement_verbs``).
_STATEMENT = re.compile(rf"^\S+ \S+ (?:{alternation('statement_verbs')})\b", re.I)
#: A goal stated by its prefix ("How to rotate the key", "To rotate the key").
_GOAL_PREFIX = re.compile(rf"^(?:{alternation('goal_prefixes')})\s+", re.I)


def _goal(heading: str) -> str:
    """The goal a heading states ("To rotate the key" -> "rotate the key"), or ''.

    A prefix ("How to", "To") says it is a goal: one thing named after it is enough.
    Without one, the heading's first word must be a procedure verb and name
    :data:`MIN_OBJECTS` things besides ("Open questions" is a noun phrase)."""
    text = _NUMBERED.sub("", heading.strip()).rstrip(" .:")
    text = re.sub(r"\s*\([^)]*\)$", "", text)  # "Schedule (UTC)" -> "Schedule"
    prefixed = _GOAL_PREFIX.match(text)
    if prefixed:
        text = text[prefixed.end() :]
    elif text.lower().split(" ", 1)[0] not in words_of("procedure_verbs"):
        return ""
    if _FAILURE.search(text) or _STATEMENT.match(text):
        return ""  # "Archive mailbox doesn't appear", "Import job shows ...": a symptom
    pronouns = words_of("pronouns")
    objects = [w for w in query_terms(text)[1:] if w not in pronouns]
    return text if len(objects) >= (1 if prefixed else MIN_OBJECTS) else ""


def template_headings(section_lists: Iterable[list[_Section]]) -> frozenset[str]:
    """Headings that two or more documents share ("How to verify the fix" in every
    runbook), or a document and a template shown in a fenced block
    (:func:`fenced_templates`): a template's, not a topic's. A question under one would
    not say which document it is about, so no question is drafted from them."""
    counts: Counter[str] = Counter()
    for secs in section_lists:
        counts.update({key for s in secs for key in heading_keys(s.heading)})
    return frozenset(key for key, count in counts.items() if count >= 2)


_NONE: frozenset[int] = frozenset()
#: Most gold documents a question has (the question format's limit).
MAX_GOLD = 3


class _Answers:
    """Which other documents answer a drafted question as well: those with a passage the
    navigator would take for an answer (:func:`.passages.answers`, the one test of what
    answers a question: a question whose answer the walk may find in two documents has
    both as gold). Words are matched after FTS5's folding and stemming
    (:class:`.lexical.Stems`), in memory."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.stems = Stems()
        self.doc: list[str] = []  # passage number -> its document
        self.postings: dict[str, set[int]] = {}  # stem -> passages holding it
        for path, text in texts.items():
            for passage in passages(text):
                number = len(self.doc)
                self.doc.append(path)
                for stem in set(self.stems.of(words(with_compounds(passage)))):
                    self.postings.setdefault(stem, set()).add(number)

    def also(self, path: str, question: str) -> tuple[str, ...] | None:
        """The other documents that answer as well (in path order), or ``None`` when
        more than :data:`MAX_GOLD` documents would be gold (too ambiguous to ask)."""
        # counted as the navigator counts: each of the question's words (a hyphenated
        # word's forms are one, see query_concepts) found by one of its stems (two
        # words of one stem count twice, a word with none never)
        concepts = query_concepts(question)
        stem_of = self.stems.mapping([t for group in concepts for t in group])
        held: list[AbstractSet[int]] = []  # per word: the passages holding one of its stems
        for group in concepts:
            stems = [self.postings.get(stem, _NONE) for stem in {stem_of[t] for t in group}]
            held.append(stems[0] if len(stems) == 1 else set().union(*stems))  # no copy of one
        enough = next((n for n in range(1, len(held) + 1) if answers(n, len(held))), 0)
        if not enough:
            return ()
        # a passage holding `enough` of the n words holds one of any n - enough + 1 of
        # them: only the passages holding one of that many of the rarest are counted
        order = sorted(range(len(held)), key=lambda i: (len(held[i]), i))
        candidates: set[int] = set()
        for i in order[: len(held) - enough + 1]:
            candidates |= held[i]
        counts: Counter[int] = Counter()
        for passages_of in held:
            counts.update(passages_of & candidates)
        others = sorted({self.doc[n] for n, c in counts.items() if c >= enough} - {path})
        return tuple(others) if len(others) < MAX_GOLD else None

    def close(self) -> None:
        self.stems.close()


def _body(text: str) -> str:
    """A document's text without its frontmatter."""
    return text[fm.body_start(text) :]


def draft_questions(package: Package, n: int = DEFAULT_N, seed: int = 0) -> list[Question]:
    """Up to ``n`` questions drafted from ``package``'s bodies (see the module docstring)."""
    if n < 1:
        return []
    rng = random.Random(seed)
    paths = sorted(package.documents)
    rng.shuffle(paths)
    texts: dict[str, str] = {}
    for path in paths:
        try:
            texts[path] = package.read_text(path)
        except (OSError, ValueError):
            continue
    bodies = {path: _body(text) for path, text in texts.items()}
    parsed = {path: sections(body) for path, body in bodies.items()}
    shown = [t for body in bodies.values() if "```" in body for t in fenced_templates(body)]
    template = template_headings([*parsed.values(), *shown])
    pools: dict[str, list[tuple[str, str, str]]] = {}
    for path, body in bodies.items():
        doc = package.documents[path]
        known = {w[:6] for w in words(f"{doc.title} {doc.description}")}
        seen: set[str] = set()
        pool = []
        for kind, text, answer in candidates(body, template, parsed[path]):
            terms = query_terms(text)
            if not terms or text in seen or all(t[:6] in known for t in terms):
                continue  # nothing the title and description do not already say
            seen.add(text)
            pool.append((kind, text, answer))
        if pool:
            pools[path] = pool
    answers = _Answers(texts)
    chosen: list[tuple[str, str, str, str, tuple[str, ...]]] = []
    round_ = 0
    try:
        while len(chosen) < n and any(len(pool) > round_ for pool in pools.values()):
            for path in paths:
                pool = pools.get(path, [])
                if round_ == 0 and pool:
                    best = min(KINDS.index(kind) for kind, _, _ in pool)
                    first = [c for c in pool if KINDS.index(c[0]) == best]
                    pick = first[rng.randrange(len(first))]
                    pool.remove(pick)
                    pool.insert(0, pick)
                while len(pool) > round_:
                    kind, text, answer = pool[round_]
                    others = answers.also(path, text)
                    if others is not None:
                        break
                    del pool[round_]  # other documents answer it as well: ambiguous
                else:
                    continue
                chosen.append((path, kind, text, answer, others))
                if len(chosen) == n:
                    break
            round_ += 1
    finally:
        answers.close()
    questions = []
    for number, (path, kind, text, answer, others) in enumerate(chosen, start=1):
        doc_type = package.documents[path].type.strip().lower() or "document"
        questions.append(
            Question(
                id=f"q{number:04d}",
                question=text,
                gold=(path, *others),
                answer=answer,
                tags=("drafted", kind, doc_type),
            )
        )
    return questions
