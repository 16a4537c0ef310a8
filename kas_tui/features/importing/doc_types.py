"""A document's type (OKF ``type``): a hint in its metadata (``ms.topic``,
``topic_type``), the shape of its content (Symptoms/Cause/Resolution, a spreadsheet,
questions), the section it sits in (``tutorials/``), else its bundle's; spelled as the
bundle already spells it."""

from __future__ import annotations

from collections import Counter

from kas_tui.features.importing.convert import Converted
from kas_tui.text import prose
from kas_tui.text.section_topics import asked_questions

#: Types that follow from a file's format alone: they say nothing about its neighbours.
FORMAT_TYPES = frozenset({"Dataset", "Presentation", "Notebook", "Email", "Data"})
_TYPE_HINT_KEYS = ("ms.topic", "topic_type", "doc_type", "doctype", "content_type")
_TYPE_HINTS = {
    "troubleshooting": "Troubleshooting",
    "troubleshoot": "Troubleshooting",
    "how-to": "Procedure",
    "howto": "Procedure",
    "how-to-guide": "Procedure",
    "procedure": "Procedure",
    "tutorial": "Tutorial",
    "quickstart": "Tutorial",
    "how-to-guide-article": "Procedure",
    "install-set-up-deploy": "Procedure",
    "upgrade-and-migration-article": "Procedure",
    "conceptual": "Concept",
    "concept": "Concept",
    "concept-article": "Concept",
    "overview": "Concept",
    "landing-page": "Concept",
    "hub-page": "Concept",
    "whats-new": "Release notes",
    "release-notes": "Release notes",
    "reference-architecture": "Reference",
    "sample": "Example",
    "troubleshooting-general": "Troubleshooting",
    "troubleshooting-known-issue": "Troubleshooting",
    "error-reference": "Reference",
    "faq-article": "FAQ",
    "reference": "Reference",
    "faq": "FAQ",
    "include": "Snippet",
    "policy": "Policy",
    "runbook": "Runbook",
    "glossary": "Glossary",
    # the names Diátaxis sites give their quarters, and their like
    "explanation": "Concept",
    "quick-start": "Tutorial",
    "api-reference": "Reference",
    "changelog": "Release notes",
}
#: Types that mean the same; the bundle's own spelling wins.
_SYNONYMS = [
    {"procedure", "runbook", "how-to", "howto", "guide", "playbook", "instructions"},
    {"troubleshooting", "troubleshooter", "issue", "known issue", "kb", "problem"},
    {"reference", "article", "documentation", "doc", "document"},
    {"faq", "faqs", "q&a"},
    {"dataset", "data", "table", "spreadsheet"},
    {"presentation", "slides", "slide deck", "deck"},
    {"concept", "overview", "explanation"},
]
_TROUBLE_HEADINGS = {
    "symptom",
    "symptoms",
    "cause",
    "causes",
    "resolution",
    "workaround",
    "solution",
    "fix",
    "more information",
    "status",
}


def infer_type(
    converted: Converted,
    title: str,
    parsed: list[prose.Block],
    existing: Counter[str] | None = None,
) -> str:
    """The document's type: a hint in its metadata, the shape of its content, its bundle.

    A strong signal (a troubleshooting article's Symptoms/Cause/Resolution headings, a
    spreadsheet, an FAQ) decides; otherwise the bundle's most common type, else
    ``Reference``. A type the bundle already spells another way is spelled its way.
    ``existing`` may count documents with no signal under ``""``: when they are the
    most, two FAQ pages among thirty do not make the other 28 FAQs.
    """
    existing = existing or Counter()
    guess = content_type(converted, title, parsed)
    if guess is None:
        top = existing.most_common(1)[0][0] if existing else ""
        guess = top or "Reference"
    return _bundle_spelling(guess, existing)


def content_type(converted: Converted, title: str, parsed: list[prose.Block]) -> str | None:
    """The type the document itself makes evident (its hints, format, headings), if any."""
    foreign = converted.frontmatter or {}
    for key in _TYPE_HINT_KEYS:
        hint = foreign.get(key)
        if isinstance(hint, str) and hint.strip().lower() in _TYPE_HINTS:
            return _TYPE_HINTS[hint.strip().lower()]
    kind = converted.kind
    if kind in ("xlsx", "xls", "csv"):
        return "Dataset"
    if kind == "pptx":
        return "Presentation"
    if kind == "ipynb":
        return "Notebook"
    if kind == "msg":
        return "Email"
    lowered = title.lower()
    headings = {b.text.lower().rstrip(":") for b in parsed if b.kind == "heading"}
    if len(headings & _TROUBLE_HEADINGS) >= 2 or lowered.startswith(("troubleshoot", "fix ")):
        return "Troubleshooting"
    if "faq" in lowered.split() or "frequently asked" in lowered or asked_questions(parsed):
        return "FAQ"
    if "glossary" in lowered:
        return "Glossary"
    if "policy" in lowered.split() or "policies" in lowered.split():
        return "Policy"
    if "release notes" in lowered or "changelog" in lowered:
        return "Release notes"
    if lowered.startswith(("how to ", "how do ")) or headings & {"steps", "procedure"}:
        return "Procedure"
    if kind == "code":
        return "Data"
    return None


#: Type hints that name no kind of page when a section is named so: an "Overview" or a
#: hub section holds every kind, as do "Guide", "Topics" and "Getting started".
_NOT_SECTION_TYPES = frozenset({"overview", "landing-page", "hub-page", "include"})


def section_type(path: str) -> str | None:
    """The type the sections holding the page at ``path`` (a package path) name, the
    nearest first, as a type hint names it (``_TYPE_HINTS``, a plural too): a page
    under ``tutorials/`` is a tutorial whatever its shape, one under ``how-to-guides/``
    a procedure, one under ``explanation/`` a concept; ``None`` when no section says."""
    for folder in reversed(path.split("/")[:-1]):
        name = folder.lower()
        for hint in (name, name[:-1] if name.endswith("s") else name):
            if hint in _TYPE_HINTS and hint not in _NOT_SECTION_TYPES:
                return _TYPE_HINTS[hint]
    return None


def _bundle_spelling(guess: str, existing: Counter[str]) -> str:
    lowered = guess.lower()
    group = next((g for g in _SYNONYMS if lowered in g), {lowered})
    for name, _count in existing.most_common():
        if name.lower() == lowered or name.lower() in group:
            return name
    return guess
