"""The anchor a heading gets, as GitHub (and Textual's Markdown viewer, the TUI's) makes
it: ``#capacity-planning`` for "Capacity planning", ``#setup-1`` for a page's second
"Setup"; what a link's ``#fragment`` names.

The heading's plain text (its inline markup left out) is lower-cased, punctuation but
``-`` and ``_`` dropped, pictographs dropped, each whitespace character made ``-``,
the rest percent-encoded as a link writes it (``caf%C3%A9``).
"""

from __future__ import annotations

import re
from string import punctuation
from urllib.parse import quote

_NON_LINGUAL = (
    r"\U000024C2-\U0001F251"
    r"\U00002702-\U000027B0"
    r"\U0001F1E0-\U0001F1FF"
    r"\U0001F300-\U0001F5FF"
    r"\U0001F600-\U0001F64F"
    r"\U0001F680-\U0001F6FF"
    r"\U0001F900-\U0001F9FF"
    r"\u200D"
    r"\u2640-\u2642"
)
_REMOVED = re.compile(
    "[" + re.escape(punctuation.replace("-", "").replace("_", "")) + _NON_LINGUAL + "]+"
)
_WHITESPACE = re.compile(r"\s")


def anchor(title: str) -> str:
    """The anchor of a heading whose plain text is ``title`` (the first one so titled
    on its page)."""
    return quote(_WHITESPACE.sub("-", _REMOVED.sub("", title.strip().lower())))


class Anchors:
    """The anchors of one page's headings, in order: a title met again gets ``-1``,
    ``-2``, ... as GitHub numbers them."""

    def __init__(self) -> None:
        self._used: dict[str, int] = {}

    def next(self, title: str) -> str:
        """The anchor of the page's next heading, titled ``title``."""
        made = anchor(title)
        used = self._used.get(made, 0)
        self._used[made] = used + 1
        return f"{made}-{used}" if used else made
