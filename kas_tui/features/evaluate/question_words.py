"""The words the question drafter reads headings and sentences by, loaded once from the
data file shipped with the package (``data/question_words.json``): each list there says
what it is for. The drafter (:mod:`.drafting`) keeps only the mechanism; no rule in it
names a word.

A list is ``{"about": "...", "words": [...]}``; :func:`question_words` returns them as
frozensets by name (``"procedure_verbs"`` ...). The file is part of the package: a
missing or malformed one is a broken installation, not bad input, so it raises.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from types import MappingProxyType

WORDS_DATA = "data/question_words.json"

#: Every list the drafter reads (the data file holds exactly these).
LISTS = (
    "symptom_headings",
    "answer_headings",
    "goal_prefixes",
    "procedure_verbs",
    "heading_labels",
    "failure_words",
    "statement_verbs",
    "pronouns",
    "clause_words",
    "scene_words",
    "pointing_phrases",
    "pointing_words",
)


@lru_cache(maxsize=1)
def question_words() -> Mapping[str, frozenset[str]]:
    """Each list of the data file, lower-cased, by name."""
    text = (resources.files(__package__) / WORDS_DATA).read_text(encoding="utf-8")
    data = json.loads(text)
    found = {
        name: frozenset(w.lower() for w in entry["words"])
        for name, entry in data.items()
        if isinstance(entry, dict)
    }
    if set(found) != set(LISTS):
        raise ValueError(f"{WORDS_DATA}: lists {sorted(found)}, expected {sorted(LISTS)}")
    return MappingProxyType(found)


def words_of(name: str) -> frozenset[str]:
    return question_words()[name]


def alternation(name: str) -> str:
    """A list as a regular expression's alternatives, longest first (so "does not" is
    tried before "not"), spaces matching any run of spaces, apostrophes either quote."""
    forms = sorted(words_of(name), key=lambda w: (-len(w), w))
    return "|".join(re.sub(r"['’]", "['’]", re.escape(w).replace(r"\ ", r"\s+")) for w in forms)
