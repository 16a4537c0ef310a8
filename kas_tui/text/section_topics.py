"""What a page's sections are about, as a description can name them.

A page's headings are its own table of contents: what it answers, in its writer's words
("Cancelling workers", "Thread workers", "How can I select and copy text?"). A drafted
description that opens with one sentence about the page leaves most of them unsaid, and
an agent scanning an index then cannot tell that the page about "Workers" is where a
frozen UI waiting on a request is explained. So a drafted sentence with room to spare
names the page's first sections: "Explores concurrency and the Worker API; covers the
work decorator, cancelling workers and thread workers."

Headings every page of a docs site may carry ("Overview", "See also", "Next steps",
"Symptoms", "Resolution") name no topic and are left out; so are headings of figures or
code, and the title itself.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from kas_tui.text import prose
from kas_tui.text.description_verdicts import norm

#: Section names that tell nothing of what one page holds that another does not: the
#: furniture of documentation pages (English, lower-case, compared after :func:`norm`).
_GENERIC_NAMES = (
    "overview, introduction, summary, conclusion, background, prerequisites, "
    "requirements, before you begin, next steps, see also, related articles, "
    "related topics, related content, related links, references, more information, "
    "additional information, additional notes, additional resources, learn more, "
    "further reading, "
    "resources, feedback, example, examples, sample, samples, usage, notes, note, "
    "important, tip, tips, warning, caution, applies to, in this article, contents, "
    "table of contents, symptoms, symptom, cause, causes, resolution, resolutions, "
    "workaround, workarounds, status, more details, details, description, reference, "
    "api reference, parameters, returns, remarks, syntax, getting help, help, support, "
    "contact us, questions, faq, frequently asked questions, whats next, try it, "
    "code example, code examples, screenshot, screenshots, demo, video, videos"
)
_GENERIC = frozenset(name.strip() for name in _GENERIC_NAMES.split(","))
#: A numbered lead-in that says nothing: "Step 2:", "Method 1 -", "3.", "Example 4" (a
#: PlatyPS cmdlet page's sections were "covers Example 4, Example 5 and Example 6").
_NUMBERED = re.compile(
    r"^(?:(?:step|method|option|part|solution|task|scenario|stage|phase|example|sample)\s+)?"
    r"\d+(?:[.:)\-–]?\s+|[.:)]?$)",
    re.I,
)
#: Longest heading worth naming in a description (longer ones are sentences).
_LONGEST = 70
#: The words that join the sections to the sentence before them.
JOIN = "; covers "


#: A heading on at least this share of a site's pages (and on at least ``_LEAST`` of
#: them) is that site's furniture ("CSS" and "Python" over every example's tabs); so is
#: a section that ``_LEAST`` pages or more carry word for word, heading and text (a
#: call to action every page closes with: "Start a free trial", then the same banner).
_COMMON_SHARE = 0.05
_LEAST = 5


def common_headings(
    pages: Iterable[Iterable[prose.Block]],
    texts: Iterable[Iterable[tuple[prose.Block, str]]] = (),
) -> frozenset[str]:
    """The section headings (as :func:`norm` writes them) that many of a site's pages
    carry (``pages``: each page's blocks), or that several carry with the same text
    under them (``texts``: each page's :func:`prose.sections`): furniture of that
    site, learned from the site rather than listed."""
    counts: Counter[str] = Counter()
    total = 0
    for blocks in pages:
        total += 1
        counts.update({norm(b.text) for b in blocks if b.kind == "heading" and b.level >= 2})
    least = max(_LEAST, _COMMON_SHARE * total)
    common = {key for key, n in counts.items() if n >= least}
    # a heading with nothing under it (sub-sections follow) is shown to be no copy, and
    # only a heading five pages carry can head five copies: only those texts are compared
    headed = [[(norm(b.text), t) for b, t in page if b.level >= 2 and t] for page in texts]
    on_pages = Counter(k for page in headed for k in {k for k, _t in page})
    copies: Counter[tuple[str, str]] = Counter()  # (heading, the text under it) -> pages
    for page in headed:
        copies.update({(k, " ".join(t.split())) for k, t in page if on_pages[k] >= _LEAST})
    common.update(key for (key, _text), n in copies.items() if n >= _LEAST)
    return frozenset(common)


def section_topics(
    blocks: Iterable[prose.Block], title: str, common: frozenset[str] = frozenset()
) -> list[str]:
    """The page's section headings (below its title's level) worth naming, in page
    order, cleaned ("Method 1: Reset the cache." -> "Reset the cache"), without
    repeats, the title, furniture (:data:`_GENERIC`, and ``common``: the site's own, from
    :func:`common_headings`) or headings of figures and code."""
    out: list[str] = []
    seen = {norm(title)}
    for block in blocks:
        if block.kind != "heading" or block.level < 2:
            continue
        text = _NUMBERED.sub("", block.text.strip()).strip(" .:;,!?-–—")
        key = norm(text)
        if not key or key in seen or key in _GENERIC or len(text) > _LONGEST:
            continue
        if key in common or norm(block.text) in common:
            continue
        if prose.letter_count(text) < len(text) * 0.6:
            continue  # a figure, a version number, a code path
        seen.add(key)
        out.append(text)
    return out


def with_topics(sentence: str, topics: list[str], limit: int) -> str:
    """``sentence`` followed by as many of ``topics`` as fit in ``limit`` characters
    ("...; covers A, B and C."), or ``sentence`` itself when none fits. One sentence
    still: the topics are a clause of it."""
    body = sentence.rstrip().rstrip(".!?…")
    if not topics or not body:
        return sentence
    named: list[str] = []
    for topic in topics:
        if len(_joined(body, [*named, topic])) > limit:
            break
        named.append(topic)
    return _joined(body, named) if named else sentence


#: An asking lead-in a question's topic does without ("How can I", "How do I").
_ASKING = re.compile(r"^(?:how (?:can|do|should|would) (?:i|we|you)|how to)\s+", re.I)
#: Questions among a page's sections from which on its sections are its questions (a FAQ).
_LEAST_QUESTIONS = 3
_QUESTION_SHARE = 0.6
#: The words that open a description made of a page's questions.
ANSWERS = "Answers: "


def asked_questions(
    blocks: Iterable[prose.Block], common: frozenset[str] = frozenset()
) -> list[str]:
    """The questions a FAQ's sections ask, in page order: a page is one when at least
    ``_LEAST_QUESTIONS`` of its sections, and most of them, are questions (a reference
    page closing with a few "Why was a dependency included?" is none); else none.
    Questions many of the site's pages ask (``common``) are not this page's."""
    sections = [
        b.text.strip()
        for b in blocks
        if b.kind == "heading" and b.level >= 2 and norm(b.text) not in common
    ]
    questions = [text for text in sections if text.endswith("?")]
    if len(questions) < _LEAST_QUESTIONS or len(questions) < _QUESTION_SHARE * len(sections):
        return []
    return questions


def questions_sentence(
    blocks: Iterable[prose.Block], limit: int, common: frozenset[str] = frozenset()
) -> str | None:
    """A FAQ's description: the questions its sections ask, as many as fit in ``limit``
    characters ("Answers: Does Textual support images; fix ImportError cannot import
    name ComposeResult; select and copy text in a Textual app."), when at least
    ``_LEAST_QUESTIONS`` of its sections, and most of them, are questions; else ``None``.
    Its opening line ("Here we try and answer any question that comes up frequently")
    says less than its questions do. Questions many of the site's pages ask
    (``common``: "How do you know this worked?") are not this page's."""
    questions = asked_questions(blocks, common)
    if not questions:
        return None
    named: list[str] = []
    for question in questions:
        topic = _ASKING.sub("", question.rstrip("?").strip()).strip(" .;,")
        if not topic or len(ANSWERS + "; ".join([*named, topic]) + ".") > limit:
            break
        named.append(topic)
    return ANSWERS + "; ".join(named) + "." if len(named) >= 2 else None


def entry_sentence(description: str, topics: Iterable[str], limit: int) -> str:
    """What a page's index entry says: its ``description``, naming the page's sections
    (``topics``, from :func:`section_topics`) as far as ``limit`` allows, unless the
    description names sections already (a drafted one does). A description its writer
    gave stays as written in the page; the index, where an agent chooses, says more."""
    if JOIN in description:
        return description
    return with_topics(description, list(topics), limit)


def _joined(body: str, named: list[str]) -> str:
    listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    return f"{body}{JOIN}{listed}."
