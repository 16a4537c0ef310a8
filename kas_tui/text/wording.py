"""How kas-tui words things: a count ("1 document", "2 documents"), a place in a file
("questions.jsonl, line 3"), a path or a text cut to fit."""

from __future__ import annotations

import re


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``count`` and ``word``, the word in the plural unless the count is one
    ("1 warning", "2 warnings", "1,204 documents"); ``plural`` when the plural is not
    the word and an ``s`` ("1 entry", "3 entries")."""
    many = plural if plural is not None else f"{word}s"
    return f"{count:,} {word if count == 1 else many}"


def size_text(size: int) -> str:
    """A size in bytes as people say it: "512 bytes", "256 KB", "190.7 MB"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{size / 1024:.0f} KB" if size >= 1024 else f"{size} bytes"


def visible(text: str) -> str:
    """``text`` safe to print on one line: control characters (a terminal escape in a
    file name, a line break, a NUL) escaped as Python writes them (``\\x1b``, ``\\n``)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


#: what a terminal acts on rather than shows: C0 controls but tab and line feed, DEL,
#: C1 controls, and the bidirectional overrides that reorder a line ("Trojan Source")
_ACTIVE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _written_out(match: re.Match[str]) -> str:
    char = match.group()
    return repr(char)[1:-1] if char < "\x7f" else f"\\u{ord(char):04x}"


def terminal_text(text: str) -> str:
    """``text`` as it may reach a terminal: lines and tabs kept, every character the
    terminal would act on (an escape sequence setting the title or colours, a carriage
    return overwriting the line) written out as ``\\x1b``, ``\\r``, ``\\u202e``. JSON stays
    JSON: its text never holds a raw C0 control, and ``\\u0085`` means what U+0085 did."""
    return _ACTIVE.sub(_written_out, text)


def json_kind(value: object) -> str:
    """What a JSON value is, as a message names it: "a string", "a number", "an object",
    "a list", "a boolean" or "null"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    names = {dict: "an object", list: "a list", str: "a string"}
    return names.get(type(value), type(value).__name__)


def at_line(source: str, line: int) -> str:
    """Where a line-numbered problem is: ``source, line N``, or ``source`` alone for the
    whole file (``line`` 0)."""
    return f"{source}, line {line}" if line else source


def elide_path(path: str, width: int) -> str:
    """``path`` in at most ``width`` characters, its file name whole: the middle of the
    folders gives way first ("billing-support/…/refund-policy.md"), then the start of
    the name when even that is too long ("…refund-policy.md")."""
    if width <= 0 or len(path) <= width:
        return path
    head, _, name = path.rpartition("/")
    if not head or len(name) + 2 > width:
        return "…" + path[-(width - 1) :] if width > 1 else "…"
    room = width - len(name) - 2  # "…/" before the name
    first = head.split("/", 1)[0]
    if len(first) + 1 <= room:
        return f"{first}/…/{name}" if len(first) + 3 + len(name) <= width else f"…/{name}"
    # a scrap of a folder name ("in…/") says nothing: then only the name
    return f"{head[:room]}…/{name}" if room >= 4 else f"…/{name}"


def elide_words(text: str, width: int) -> str:
    """``text`` within ``width`` columns, cut after a whole word with an ellipsis
    ("the entry does…", never "the entry does not…" cut to "the entry does n…"); a
    first word longer than the width is cut where it must be."""
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    head = text[: width - 1]
    cut = head.rfind(" ")
    if cut > 0 and text[width - 1] != " ":
        head = head[:cut]
    return head.rstrip(" ,;:—-") + "…"


def wrap_words(text: str, width: int, lines: int) -> list[str]:
    """``text`` wrapped at words into at most ``lines`` lines of ``width`` columns, the
    last ending with an ellipsis after a whole word when the text does not fit (a word
    longer than the width is cut where it must be)."""
    import textwrap

    wrapped = textwrap.wrap(text, max(1, width), break_on_hyphens=False) or [""]
    if len(wrapped) <= lines:
        return wrapped
    rest = " ".join(wrapped[lines - 1 :])  # what the last line would hold
    return [*wrapped[: lines - 1], elide_words(rest, max(1, width))]


def holds_words(text: str, query: str) -> bool:
    """Whether ``text`` holds every word of ``query`` (case folded, anywhere in it): how a
    list is narrowed as the user types (``"refund pol"`` keeps ``refunds/refund-policy.md``)."""
    folded = text.casefold()
    return all(word in folded for word in query.casefold().split())
