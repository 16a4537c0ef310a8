"""A wikilink's syntax, as Obsidian, Logseq, Foam and a GitHub wiki write links between
notes: ``[[Note]]``, ``[[Note#Part|text]]``, an embed ``![[image.png]]``. What each
names is found by :mod:`kas_tui.features.importing.wikilinks`; here, its parts and its
words as a reader sees them."""

from __future__ import annotations

import re

#: A wikilink (Obsidian's, Logseq's): ``[[Note]]``, ``[[Note#Part|text]]``, an embed
#: ``![[image.png]]``; no brackets or line break inside. ``[[1]](#footnote-1)`` is a
#: link whose text is "[1]" (docutils' citations), and ``[[[packages]]](#packages)`` one
#: whose text is "[[packages]]": no wikilinks.
WIKILINK = re.compile(r"(?<!\[)(?P<embed>!?)\[\[(?P<inner>[^\[\]\n]+)\]\](?![(\]])")
#: What parts a wikilink's name from its text: ``|``, or ``\|`` in a table's cell.
_WIKILINK_BAR = re.compile(r"\\?\|")


def wikilink_parts(inner: str) -> tuple[str, str]:
    """(the name it links, its text, ``""`` when it has none) of a wikilink's
    ``inner`` part: ``Note#Part|the part`` -> ("Note#Part", "the part")."""
    parts = _WIKILINK_BAR.split(inner, maxsplit=1)
    return parts[0].strip(), parts[1].strip() if len(parts) > 1 else ""


def wikilink_words(text: str) -> str:
    """``text`` with each wikilink as its words: its text, or the note it names; an
    embed (an image) none."""

    def words(match: re.Match[str]) -> str:
        if match.group("embed"):
            return " "
        name, shown = wikilink_parts(match.group("inner"))
        return shown or name.split("#", 1)[0].strip()

    return WIKILINK.sub(words, text)
