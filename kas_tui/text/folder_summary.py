"""Words about many documents at once: folder descriptions and the SKILL.md draft.

A folder's index entry says what the folder holds, in one sentence drawn from its
documents: how many, of what type, and the topics their titles share most (phrases
weighed against the rest of the package, so "error" does not describe every folder).
The SKILL.md draft says what the package covers and when to use it, and its body holds
the usage rules an agent needs (scope, exclusions, navigation, entry points, freshness,
when to stop), all drafted from the package's own bundles, types and sources.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kas_tui.text import prose
from kas_tui.text.description_verdicts import LONG_DESCRIPTION, norm
from kas_tui.text.grouping import fold, prefer_first
from kas_tui.text.languages import other_function_words
from kas_tui.text.title_words import (
    cut_pairs,
    phrase_key,
    stem,
    stems,
    title_phrases,
    written_phrases,
)
from kas_tui.text.tokens import CHARS_PER_TOKEN, INDEX_TOKEN_BUDGET
from kas_tui.text.wording import counted

_TYPE_PHRASES = {
    "troubleshooting": ("troubleshooting article", "troubleshooting articles"),
    "procedure": ("procedure", "procedures"),
    "runbook": ("runbook", "runbooks"),
    "reference": ("reference document", "reference documents"),
    "faq": ("FAQ", "FAQs"),
    "dataset": ("dataset", "datasets"),
    "presentation": ("slide deck", "slide decks"),
    "policy": ("policy", "policies"),
    "concept": ("concept article", "concept articles"),
    "tutorial": ("tutorial", "tutorials"),
    "notebook": ("notebook", "notebooks"),
    "snippet": ("snippet", "snippets"),
    "glossary": ("glossary", "glossaries"),
}
#: Longest description of a folder (KAS045's threshold), unless its index has room.
MAX_DESCRIPTION = LONG_DESCRIPTION
#: Bundles side by side from which on a bundle's topics are weighed against its siblings'.
SIBLINGS_TO_WEIGH = 4
#: Longest description of a folder whose parent's index has room for it.
MAX_FOLDER_DESCRIPTION = 600
#: Share of an index's token budget its folder entries may fill when each takes its room.
_FOLDER_SHARE = 0.4


def folder_room(folders: int, budget: int = INDEX_TOKEN_BUDGET) -> int:
    """How many characters a folder's description may take in its parent's index, which
    lists ``folders`` sub-bundles of its own: the usual ``MAX_DESCRIPTION`` (KAS045's
    threshold), and more, up to ``MAX_FOLDER_DESCRIPTION``, when the index lists few
    bundles. A bundle standing for hundreds of documents then names more of the topics a
    question may ask about (measured with ``kas-tui eval``: see docs/importing-and-building.md,
    "Index budgets"), and its parent's bundle entries still spend at most
    ``_FOLDER_SHARE`` of its budget. Its pages' entries take no room from them: each has
    its own sentence of ``MAX_DESCRIPTION``, and an index of too many pages is split."""
    share = int(budget * CHARS_PER_TOKEN * _FOLDER_SHARE) // max(1, folders)
    return max(MAX_DESCRIPTION, min(MAX_FOLDER_DESCRIPTION, share))


def description_limit(bundle: bool, folders: int) -> int:
    """How many characters an index entry's description may take before it is long
    (KAS045): a document's, ``MAX_DESCRIPTION``; a bundle's, :func:`folder_room` of the
    ``folders`` (sub-bundles) its index lists. The checker and the entry editor ask this one."""
    return folder_room(folders) if bundle else MAX_DESCRIPTION


def count_phrase(n: int, doc_type: str | None) -> str:
    """``412 troubleshooting articles``, ``1 procedure``, ``3 documents``."""
    one, many = _TYPE_PHRASES.get((doc_type or "").lower(), ("document", "documents"))
    return f"{n:,} {one if n == 1 else many}"


def mixture_phrase(n: int, types: Counter[str]) -> str:
    """How many documents, by the types they actually have: "412 troubleshooting
    articles" when every one is; "51 documents, mostly procedures" when 60% or more
    are; "51 documents" otherwise. A count never claims a type the documents lack."""
    counts = Counter({t: c for t, c in types.items() if t and c > 0})
    if counts and len(counts) == 1 and sum(counts.values()) == n:
        return count_phrase(n, next(iter(counts)))
    main = main_type(counts.elements())
    if main is not None:
        _one, many = _TYPE_PHRASES.get(main.lower(), ("", ""))
        if many:
            return f"{count_phrase(n, None)}, mostly {many}"
    return count_phrase(n, None)


def main_type(types: Iterable[str]) -> str | None:
    """The type most documents share, when at least 60% do."""
    counts = Counter(t for t in types if t)
    if not counts:
        return None
    name, n = counts.most_common(1)[0]
    return name if n >= 0.6 * sum(counts.values()) else None


@dataclass
class Weights:
    """How common each title phrase is across the package's folders (for idf)."""

    folders: int = 1
    df: Counter[str] = field(default_factory=Counter)
    #: the package's own subject, folded words ("business", "central"): said once, by
    #: SKILL.md, it tells no bundle of the package apart
    subject: frozenset[str] = frozenset()

    def idf(self, phrase: str) -> float:
        return math.log((1 + self.folders) / (1 + self.df.get(phrase, 0))) + 1.0

    def common(self, phrase: str) -> bool:
        """Whether the titles of most folders hold ``phrase`` (of ``SIBLINGS_TO_WEIGH``
        folders or more): a word such as "open" or "Microsoft" tells no folder apart."""
        return self.folders >= SIBLINGS_TO_WEIGH and 2 * self.df.get(phrase, 0) > self.folders


def weights_for(folders: Iterable[Sequence[str]], subject: str = "") -> Weights:
    """:class:`Weights` from the titles of each folder's documents, and the package's
    title (``subject``)."""
    weights = Weights(0, subject=frozenset(fold(w) for w in prose.words(subject)))
    for titles in folders:
        weights.folders += 1
        seen: set[str] = set()
        for title in titles:
            seen |= title_phrases(title)
        weights.df.update(seen)
    weights.folders = max(weights.folders, 1)
    return weights


def topics(
    titles: Sequence[str], *, exclude: str = "", limit: int = 4, weights: Weights | None = None
) -> list[str]:
    """The phrases the titles share most, weighed by how rare they are elsewhere, each
    as the titles write it. A phrase of the folder's own name (``exclude``) in another
    form ("Integrating" in "Integrate with other applications") or of the package's own
    subject (``weights.subject``: "Business Central" in every bundle of its package)
    says nothing of the folder; of phrases with one stem ("Synchronization" and
    "synchronize") the first is named."""
    if not titles:
        return []
    skip = set(norm(exclude).split())
    skip |= {fold(w) for w in skip | other_function_words(titles)}  # "der", "und"
    skip_stems = {stem(w) for w in skip}
    skip_starts = {w[:2] for w in skip}  # a stem keeps its word's first two letters
    counts: Counter[str] = Counter()
    surface: defaultdict[str, Counter[str]] = defaultdict(Counter)
    titles = list(dict.fromkeys(titles))  # the same title twice is one vote
    for title in titles:
        written = written_phrases(title)
        counts.update(written.keys())
        for phrase, form in written.items():
            surface[phrase][form] += 1
    weights = weights or Weights()
    cut = cut_pairs(titles, counts)
    scored = []
    for phrase, n in counts.items():
        if phrase in cut:
            continue
        parts = phrase.split()
        if any(p in skip or (p[:2] in skip_starts and stem(p) in skip_stems) for p in parts):
            continue  # the folder's own name again, or a pair cut from it ("details Item")
        if weights.subject and all(p in weights.subject for p in parts):
            continue
        if n < 2 and (len(titles) > 3 or len(parts) == 2):
            continue
        if any(weights.common(p) for p in {phrase, *parts}):
            continue
        bonus = 1.3 if len(parts) == 2 else 1.0
        scored.append((n * weights.idf(phrase) * bonus, phrase))
    scored.sort(key=lambda x: (-x[0], x[1]))
    chosen: list[str] = []
    for _score, phrase in scored:
        words = set(phrase.split())
        if any(words <= set(c.split()) or set(c.split()) <= words for c in chosen):
            continue  # "journal" beside "general journal"
        if any(stems(phrase) == stems(c) for c in chosen):
            continue  # "synchronize" beside "Synchronization"
        chosen.append(phrase)
        if len(chosen) == limit:
            break
    return [_surface(phrase, surface) for phrase in chosen]


def _surface(phrase: str, surface: dict[str, Counter[str]]) -> str:
    """How a folded phrase is written in the titles: its most common lower-case spelling
    when at least half its uses are in lower case (a title's first word is capitalised
    by position only), else its most common spelling (``OneDrive``, ``Power BI``)."""
    forms = surface.get(phrase)
    if not forms:
        return phrase
    lower = [(n, f) for f, n in forms.items() if f == f.lower()]
    if lower and 2 * sum(n for n, _f in lower) >= sum(forms.values()):
        return max(lower, key=lambda nf: (nf[0], prefer_first(nf[1])))[1]
    return max(forms.items(), key=lambda fn: (fn[1], prefer_first(fn[0])))[0]


def join_words(items: Sequence[str], *, more: int = 0) -> str:
    """``A, B and C`` (``A, B and 2 more``); items holding a comma of their own
    ("Security, privacy, and compliance") are parted by semicolons, so each reads whole."""
    items = [i for i in items if i]
    sep = "; " if any("," in i for i in items) else ", "
    if more:
        return f"{sep.join(items)} and {more:,} more"
    if len(items) <= 1:
        return "".join(items)
    return f"{sep.join(items[:-1])}{';' if sep == '; ' else ''} and {items[-1]}"


def folder_description(
    title: str,
    documents: Sequence[tuple[str, str]],
    subfolders: Sequence[tuple[str, int]] = (),
    *,
    total: int | None = None,
    weights: Weights | None = None,
    doc_type: str | None = None,
    all_titles: Sequence[str] = (),
    types: Counter[str] | None = None,
    deeper: Sequence[tuple[str, int]] = (),
    room: int = MAX_DESCRIPTION,
) -> str:
    """One sentence on what a folder holds, naming as many of its topics as fit.

    ``documents``: (title, type) of the documents directly in it; ``subfolders``:
    (title, documents in it at any depth) of its sub-bundles; ``total``: documents at
    any depth (default: counted from the two); ``doc_type``: the type most of those
    documents share (default: from ``documents``); ``deeper``: (title, documents) of
    the bundles below its sub-bundles, whose names are the words a question asks
    with ("PowerPoint" under "Office / Client"); ``types``: every type of its
    documents at any depth with its count (the count is then said by
    :func:`mixture_phrase`); ``all_titles``: the titles of its
    documents at any depth, whose shared phrases say what the sub-bundles are about
    (a sub-bundle's name alone rarely holds the words a question asks with); ``room``:
    the characters it may take (:func:`folder_room`), the more the more topics it names.
    """
    many = max(8, room // 25)  # topics sought: about one per 25 characters of room
    total = total if total is not None else len(documents) + sum(n for _t, n in subfolders)
    doc_type = doc_type or main_type(t for _title, t in documents)
    titles = [t for t, _type in documents]
    if subfolders:
        names = [t for t, _n in sorted(subfolders, key=lambda s: (-s[1], s[0].lower()))]
        counted = (
            mixture_phrase(total, types) if types is not None else count_phrase(total, doc_type)
        )
        if 2 * len(documents) > total and len(topics(titles, exclude=title, weights=weights)) < 2:
            # most of its documents are its own, titled with no phrase to say them by: its
            # sub-bundles and its pages' titles, as a folder of pages is said (hugoDocs'
            # "Content management: 24 reference documents on Content organization and
            # Image processing: Markdown." named two sub-bundles of one page each, and
            # none of the 22 pages it holds: Archetypes, Front matter, Menus...)
            listed = [*names, *_listed_titles(titles, title)]
            return _finish(_fitting(f"{counted} on {title}", ": ", listed, room), room)
        lead = f"{title}: {counted} on "
        # the sub-bundles' names are the words an agent routes by: as many as fit in
        # half the room, the largest first, the rest counted
        shown = min(3, len(names))
        while shown < len(names) and len(lead + join_words(names[: shown + 1], more=1)) < room // 2:
            shown += 1
        lead += join_words(names[:shown], more=len(names) - shown)
        exclude = " ".join([title, *names])
        named = [t for t, _n in sorted(deeper, key=lambda d: (-d[1], d[0].lower()))]
        said = topics(list(all_titles) or titles, exclude=exclude, limit=many, weights=weights)
        found = [x for pair in itertools.zip_longest(said, named) for x in pair if x]
        seen: set[str] = {phrase_key(n) for n in names} | {phrase_key(title)}
        unique = [f for f in found if not (phrase_key(f) in seen or seen.add(phrase_key(f)))]
        return _finish(_fitting(lead, ": ", unique[: 2 * many], room), room)
    counted = (
        mixture_phrase(len(documents), Counter(t for _title, t in documents))
        if types is not None
        else count_phrase(len(documents), doc_type)
    )
    lead = f"{counted} on {title}"
    if len(documents) <= 3:
        listed = [prose.clip(t, 70).rstrip(".") for t in titles]
        return _finish(f"{lead}: {'; '.join(listed)}")
    others = _listed_titles(titles, title)
    every = f"{lead}: {join_words(others)}"
    if len(every) < room - 1:  # the titles themselves, when every one fits
        return _finish(every, room)
    found = topics(titles, exclude=title, limit=many, weights=weights)
    if len(found) >= 2:
        return _finish(_fitting(lead, ", covering ", found, room), room)
    # titles share no phrase ("App Basics", "Layout", "Input"): they are the topics
    return _finish(_fitting(lead, ": ", others, room), room)


def _listed_titles(titles: Sequence[str], title: str) -> list[str]:
    """A folder's page titles as its sentence lists them: each once, cut short, not the
    folder's own title again."""
    named = [prose.clip(t, 60).rstrip(".") for t in dict.fromkeys(titles) if t.strip()]
    return [t for t in named if t.lower() != title.lower()]


def _fitting(lead: str, joiner: str, found: Sequence[str], room: int = MAX_DESCRIPTION) -> str:
    """``lead`` and as many of ``found`` as fit in ``room``, joined as a list."""
    for n in range(len(found), 0, -1):
        text = f"{lead}{joiner}{join_words(found[:n])}"
        if len(text) < room - 1:
            return text
    return lead


def _finish(text: str, room: int = MAX_DESCRIPTION) -> str:
    text = prose.clip(" ".join(text.split()), room - 1)
    if text and text[-1] not in ".!?…":
        text += "."
    return prose.sentence_start(text)


# --- SKILL.md ------------------------------------------------------------------------------------


@dataclass
class PackageFacts:
    """What the SKILL.md draft is made from."""

    name: str
    title: str
    documents: int
    bundles: list[tuple[str, str, str, int]]  # (folder path, title, description, documents)
    root_documents: list[tuple[str, str, str]]  # (path, title, description)
    types: Counter[str]
    kinds: Counter[str]
    source: str
    failed: list[str] = field(default_factory=list)  # "file: reason"
    topics: list[str] = field(default_factory=list)
    #: what the pages say they are about (``appliesto``, ``ms.service``), most common first
    products: list[str] = field(default_factory=list)
    #: (path, title, description) of the documents most linked to, most first
    most_linked: list[tuple[str, str, str]] = field(default_factory=list)
    #: the package has a root ``index.md`` (an entry point of its own)
    root_index: bool = False
    #: what the source says it is about, in its own words (a docs site's description)
    summary: str = ""


_WHEN = {
    "troubleshooting": "symptoms, error messages, causes and fixes",
    "procedure": "how to carry out a task step by step",
    "runbook": "how to carry out an operational task",
    "reference": "facts, settings and reference material",
    "faq": "common questions and their answers",
    "dataset": "figures held in its tables",
    "presentation": "what its slide decks present",
    "policy": "what the policies allow or require",
    "concept": "how things work and why",
}
_KIND_WORDS = {
    "markdown": "Markdown",
    "text": "text",
    "code": "data",
    "pdf": "PDF",
    "docx": "Word",
    "pptx": "PowerPoint",
    "xlsx": "Excel",
    "xls": "Excel",
    "csv": "CSV",
    "html": "HTML",
    "epub": "EPUB",
    "ipynb": "notebook",
    "msg": "email",
    "file": "other",
}


def _names_first(summary: str, title: str) -> bool:
    """Whether ``summary`` opens with the word or words ``title``."""
    head = summary[: len(title)]
    return (
        bool(title)
        and head.casefold() == title.casefold()
        and not summary[len(title) :][:1].isalnum()
    )


def _summary_within(summary: str, limit: int) -> str:
    """The site's own summary in at most ``limit`` characters: its first sentences
    that fit, else the first clipped ("... AI tasks…", never "tasks…."); ending in a
    full stop or the clip's mark."""
    kept = ""
    for sentence in prose.sentences(summary):
        longer = f"{kept} {sentence}".strip()
        if len(longer) > limit:
            break
        kept = longer
    text = kept or prose.clip(summary, limit)
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "…")) else text.rstrip(" ,;:") + "."


def skill_description(facts: PackageFacts) -> str:
    """What the package covers and when to use it, in at most about 600 characters:
    the source's own words for what it is about when it has them ("Pydantic: Data
    validation using Python type hints. 89 reference documents on ..."), the products
    its pages say they apply to when they say so, else its bundles or topics; every
    count true of every document it counts."""
    doc_type = main_type(facts.types.elements())
    names = [b[1] for b in sorted(facts.bundles, key=lambda b: (-b[3], b[1].lower()))]
    about = facts.products[:8] or names[:8]
    more = len(names) - len(about) if not facts.products and names else 0
    said = _summary_within(facts.summary, 160) if facts.summary else ""
    lead = f"{facts.title}: {said} " if said else f"{facts.title}: "
    if said and _names_first(said, facts.title):  # "FastAPI framework, high performance..."
        lead = f"{said} "  # not "FastAPI: FastAPI framework"
    covers = lead + mixture_phrase(facts.documents, facts.types)
    if about:
        covers += f" on {join_words(about, more=more)}"
    elif facts.topics:
        covers += f" on {join_words(facts.topics[:5])}"
    covers += "."
    if facts.products and names:
        covers += f" Bundles: {join_words(names[:8], more=len(names) - min(len(names), 8))}."
    what = _WHEN.get((doc_type or "").lower(), "what these documents say")
    subjects = join_words(about[:5]) if about else join_words(facts.topics[:4]) or facts.title
    when = (
        f" Use when a question concerns {subjects} and needs {what}, "
        "or when asked which document covers a topic."
    )
    return prose.clip(covers + when, 1000)  # never a name cut mid-word


def skill_body(facts: PackageFacts) -> str:
    """The SKILL.md body: usage rules for an agent, no domain knowledge.

    A built package (``facts.source`` names the folder it was built from) says so and
    what was converted; a curated one (no ``source``: a SKILL.md written for documents
    already there) points at its root index first and explains the trust fields its
    curators write (``status``, ``verified``) instead.
    """
    built = bool(facts.source)
    types = ", ".join(f"{t} ({n:,})" for t, n in facts.types.most_common(6))
    lines = [f"# {facts.title}", ""]
    if built:
        kinds = ", ".join(
            counted(n, f"{_KIND_WORDS.get(k, k)} file") for k, n in facts.kinds.most_common() if n
        )
        lines.append(
            f"{counted(facts.documents, 'document')} built by kas-tui from `{facts.source}` "
            f"({kinds}; `log.md` says when). Every document has YAML frontmatter (`type`, `title`, "
            "`description`, `status`, `sources`) and every folder an `index.md`."
        )
    else:
        lines.append(
            f"{facts.documents:,} documents in the Open Knowledge Format (OKF): each has YAML "
            "frontmatter (`type`, `title`, `description`) and every folder an `index.md`. This "
            "file says how to use the package; the knowledge lives in the documents."
        )
    lines += ["", "## Scope", ""]
    if facts.bundles:
        lines.append("The package covers these subjects, one bundle each:")
        lines.append("")
        by_title = sorted(facts.bundles, key=lambda b: b[1].lower())
        for _path, title, description, count in by_title[:30]:
            lines.append(f"- **{title}** ({count:,}): {_without_title(description, title)}")
        if len(facts.bundles) > 30:
            lines.append(f"- ... and {len(facts.bundles) - 30} more bundles, listed in `index.md`.")
    else:
        lines.append(f"The package covers {join_words(facts.topics[:6]) or facts.title}.")
    if types:
        lines += ["", f"Document types: {types}."]
    lines += [
        "",
        "## Exclusions",
        "",
        "- Anything the indexes do not list is outside this package: do not answer from "
        "general knowledge as if it came from here.",
    ]
    if built:
        lines.append(
            "- The documents are drafts converted from the source files (`status: draft`): "
            "titles and descriptions were drafted by a machine, not reviewed."
        )
    else:
        lines.append(
            "- Live state (what is happening now, one customer's or user's data): the "
            "documents cannot know it; say so."
        )
    if facts.failed:
        shown = facts.failed[:8]
        lines.append(
            f"- {len(facts.failed):,} source file(s) could not be converted and are missing: "
            + "; ".join(f"`{f}`" for f in shown)
            + (
                f"; and {len(facts.failed) - len(shown)} more."
                if len(facts.failed) > len(shown)
                else "."
            )
        )
    lines += [
        "",
        "## Navigation",
        "",
        "1. Start at `index.md`: each entry is a link and one sentence on what it holds.",
        "2. Open the `index.md` of the bundle whose sentence matches the question; go down "
        "one level at a time.",
        "3. Read a document's frontmatter (`title`, `description`, `type`, `status`) "
        "before its body, and read the body only when the description matches.",
        "4. Links starting with `/` are relative to the package root.",
        "",
        "## Entry points",
        "",
    ]
    if facts.root_index:
        lines.append("- [Root index](index.md): every bundle of the package, one sentence each.")
    for path, title, description, _count in sorted(
        facts.bundles, key=lambda b: (-b[3], b[1].lower())
    )[:12]:
        lines.append(f"- [{title}]({path}/index.md): {_without_title(description, title)}")
    for path, title, description in facts.root_documents[:8]:
        lines.append(f"- [{title}]({path}): {description}")
    if facts.most_linked:
        lines += ["", "The documents the others link to most:", ""]
        for path, title, description in facts.most_linked:
            lines.append(f"- [{title}]({path}): {description}")
    lines += ["", "## Freshness", ""]
    if built:
        lines += [
            "- `sources[].last_modified` is when a document's source file last changed; "
            "`generated.at` is when it was converted. `log.md` lists every build and edit, "
            "newest first.",
            "- A document whose `stale_after` date has passed may be out of date: say so when "
            "you use it. Treat `status: deprecated` documents as history only.",
        ]
    else:
        lines += [
            "- A document whose `stale_after` date has passed may be out of date: say so when "
            "you use it.",
            "- `status: draft` is not reviewed yet: present it as provisional. `status: "
            "deprecated` is history only: do not give its instructions as current. No "
            "`status` means stable.",
            "- `verified` says who checked a document: a `human:` verifier weighs more than a "
            "`process:` one; none means unverified. `log.md` lists the changes, newest first.",
        ]
    lines += [
        "",
        "## When to stop",
        "",
        "- When no entry of the root index and of one bundle index matches the question, "
        "say that this package does not cover it.",
    ]
    if built:
        lines.append(
            "- When two documents disagree, prefer the one with the newer "
            "`sources[].last_modified` and mention the conflict."
        )
    else:
        lines.append(
            "- When two documents disagree, prefer the human-verified, more recently verified "
            "one and mention the conflict."
        )
    lines += [
        "- Do not read every document of a bundle looking for an answer: if the "
        "descriptions do not point to one, stop and say so.",
        "",
    ]
    return "\n".join(lines)


def _without_title(description: str, title: str) -> str:
    """``Exchange: 710 articles...`` shown after the title ``Exchange`` as ``710 articles...``."""
    rest = description.removeprefix(f"{title}: ")
    return rest[:1].upper() + rest[1:] if rest != description else description
