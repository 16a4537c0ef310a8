"""Descriptions compared and weighed: the checker's verdicts, shared with the editors.

Whether an index entry's description has drifted from its document's (rule KAS040),
whether a description tells an agent nothing it can choose by (KAS042), and whether it
runs to more than one sentence (KAS045). The checker, the navigation tree and the
editors ask these same functions, so the mark in the tree, the hint in an editor and the
finding in a report never disagree. Headless and pure: text in, verdict out.
"""

from __future__ import annotations

import re
import string
import unicodedata

# A sentence ends after a word of two lower-case letters or more (so "U.S.", "Dr." and
# "e.g." do not end one) or a closing bracket or quote, before a capital or a digit.
_SENTENCE_END = re.compile(r"(?:(?<=[a-z]{2}[.!?])|(?<=[A-Za-z0-9][)\]\"'][.!?]))(?=\s+[A-Z0-9])")
_EMPTY_MEANING = re.compile(
    r"^(?:(?:a |the |this |some )?"
    r"(?:document|doc|page|file|article|note|notes|text|info|information|description)"
    r" (?:about|on|for|regarding|describing|of)\b.{0,40}$"
    r"|(?:todo|tbd|tba|fixme|placeholder|lorem ipsum)\b.*"
    r"|(?:none|n/?a|description)(?: here| goes here| tbd| todo)?[ .!:]*$"
    r"|(?:this|the) (?:document|page|file|article) (?:is about|describes|covers|explains)\b.{0,40}$)",
    re.I,
)
_NOTE_PREFIX = re.compile(r"^\s*(?:\(?(?:deprecated|stale|legacy|draft)[^:)]*[:)]\s*)+", re.I)
_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~"
#: The same for ASCII bytes, lower-casing too: one table lookup a byte.
_ASCII_NORM = bytes.maketrans(
    (_PUNCT + string.ascii_uppercase).encode(),
    (" " * len(_PUNCT) + string.ascii_lowercase).encode(),
)

#: Characters past which a description is long (KAS045): one line of an index, which an
#: agent scans among many. The checker flags it, the editors warn at it, and the build
#: drafts within it (a folder's sentence may take more where its index has room, see
#: ``importing.summary.folder_room``).
LONG_DESCRIPTION = 200

#: How similar (rapidfuzz token-set ratio, 0-100) two descriptions must be to agree.
AGREE_SCORE = 80


def norm(text: str) -> str:
    """Lower-case words without punctuation, for comparing descriptions."""
    if text.isascii():  # the common case, without NFKC and a regex: a bytes table
        return " ".join(text.encode("ascii").translate(_ASCII_NORM).decode("ascii").split())
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def drifted(entry: str, document: str) -> bool:
    """Whether an index entry's description says something else than its document's.

    Both must say something: an empty side is a missing description (its own finding),
    not drift. A note in front of the entry (``Deprecated: ...``) is not counted.
    """
    entry, document = entry.strip(), document.strip()
    if not entry or not document or entry == document:
        return False
    from rapidfuzz import fuzz

    entry = _NOTE_PREFIX.sub("", entry)
    return fuzz.token_set_ratio(norm(entry), norm(document)) < AGREE_SCORE


def says_nothing(description: str, title: str = "") -> bool:
    """Whether ``description`` tells an agent nothing it can choose by.

    A placeholder ("TODO", "Document about X"), a repeat of the title, or fewer than
    three words.
    """
    words = norm(description)
    return bool(
        _EMPTY_MEANING.match(description.strip())
        or (title and words == norm(title))
        or len(words.split()) < 3
    )


def not_one_line(text: str, limit: int = LONG_DESCRIPTION) -> str | None:
    """What keeps ``text`` from being one line of an index (KAS045): "has 240
    characters" (over ``limit``: see ``folder_summary.description_limit`` for an entry),
    "has more than one sentence", or ``None``. The checker asks it of a document's
    description and of an index entry's, the editors as you type."""
    if len(text) > limit:
        return f"has {len(text)} characters"
    if more_than_one_sentence(text):
        return "has more than one sentence"
    return None


def more_than_one_sentence(text: str) -> bool:
    """Whether ``text`` holds a second sentence (abbreviations do not end one)."""
    body = text.rstrip(".!? ")
    if ". " not in body and "! " not in body and "? " not in body:
        return False
    return bool(_SENTENCE_END.search(body))
