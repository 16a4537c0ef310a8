"""Bytes to text and back, keeping what the author wrote: a BOM and the line endings."""

from __future__ import annotations

import codecs
import re
from collections import Counter
from dataclasses import dataclass

from kas_tui.core.okf.errors import FormatError

BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Decoded:
    """A file's text without its BOM, and whether it had one."""

    text: str
    bom: bool

    @property
    def newline(self) -> str:
        return newline_of(self.text)


def decode(data: bytes, *, final: bool = True) -> Decoded:
    """Decode UTF-8 ``data``; a binary or non-UTF-8 file raises a located :class:`FormatError`.

    With ``final=False`` the data may be a prefix of the file: a multi-byte character cut
    at the end is left out rather than reported.
    """
    bom = data.startswith(BOM)
    if bom:
        data = data[len(BOM) :]
    nul = data.find(b"\0")
    if nul != -1:
        raise FormatError(
            "binary file: it contains NUL bytes, so it is not Markdown text",
            line=data.count(b"\n", 0, nul) + 1,
            hint="move it out of the package or give it another extension",
        )
    try:
        if final:
            text = data.decode("utf-8")
        else:
            text = codecs.getincrementaldecoder("utf-8")("strict").decode(data, False)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FormatError(
            f"not valid UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}",
            line=line,
            hint="re-save the file as UTF-8",
        ) from None
    return Decoded(text, bom)


def encode(text: str, bom: bool) -> bytes:
    """Encode ``text`` as UTF-8, restoring a BOM when the file had one."""
    data = text.encode("utf-8")
    return BOM + data if bom else data


def newline_of(text: str) -> str:
    """The line ending a file uses: CRLF when its first line break is CRLF, else LF."""
    i = text.find("\n")
    return "\r\n" if i > 0 and text[i - 1] == "\r" else "\n"


def split_lines(text: str) -> list[str]:
    """``text`` cut after each ``\\n``, line breaks kept.

    Unlike :meth:`str.splitlines`, a form feed, NEL or U+2028 inside a line does not end
    it, so line numbers agree with :func:`line_of`, editors and the Markdown parser.
    """
    lines = [line + "\n" for line in text.split("\n")]
    last = lines.pop()[:-1]
    if last:
        lines.append(last)
    return lines


def line_of(text: str, offset: int) -> int:
    """1-based line number of character ``offset`` in ``text``."""
    return text.count("\n", 0, offset) + 1


def line_start(text: str, offset: int) -> int:
    """Offset of the start of the line holding ``offset``."""
    return text.rfind("\n", 0, offset) + 1


def line_end(text: str, offset: int) -> int:
    """Offset just past the line break ending the line holding ``offset``."""
    i = text.find("\n", offset)
    return len(text) if i == -1 else i + 1


#: C0 and C1 controls but tab and LF.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def control_chars(value: str) -> list[str]:
    """Characters in ``value`` that have no place in metadata: C0/C1 controls but tab and LF."""
    return _CONTROL.findall(value)


#: Each character :func:`control_chars` finds, as a space.
_AS_SPACES = {c: " " for c in [*range(32), *range(0x7F, 0xA0)] if chr(c) not in "\t\n"}


#: The characters that reorder how bidirectional text shows (embeddings, overrides,
#: isolates): in a title they can make it read as another ("Trojan Source").
_BIDI_CONTROLS = {c: None for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def without_controls(value: str) -> str:
    """``value`` with each character :func:`control_chars` finds made a space, and
    without bidirectional embeddings, overrides and isolates (text drafted from a
    file's name or body, before it becomes metadata)."""
    if control_chars(value):  # a terminal's colour codes are no words ("\x1b[31m")
        value = _ESCAPES.sub("", value).translate(_AS_SPACES)
    return value.translate(_BIDI_CONTROLS) if _BIDI.search(value) else value


_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: A terminal's escape sequence (colours, cursor moves): CSI ... final byte, or ESC and one.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]?")
#: A form feed (a PDF's page break) is a paragraph's end, a vertical tab (a slide's line
#: break) a line's; other controls (BEL, BS, NUL...) are no text.
_BODY_CONTROLS = {0x0C: "\n\n", 0x0B: "\n"} | {
    c: None for c in [*range(32), *range(0x7F, 0xA0)] if chr(c) not in "\t\n\r\x0b\x0c"
}
_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x1B: "ESC", 0x7F: "DEL"}


def dropped_controls(text: str) -> str:
    """What :func:`body_controls` drops from ``text`` that is no line or page break,
    named ("ESC x 4, BEL"); ``""`` when nothing."""
    if not _CONTROL.search(text):
        return ""
    found = Counter(c for c in control_chars(text) if c not in "\r\x0b\x0c")
    return ", ".join(
        (_NAMES.get(ord(c)) or f"U+{ord(c):04X}") + (f" x {n}" if n > 1 else "")
        for c, n in sorted(found.items())
    )


def body_controls(text: str) -> str:
    """``text`` (a converted body) without terminal controls: escape sequences and C0
    and C1 controls dropped, a form feed a blank line, a vertical tab a line break;
    tab, carriage return and line feed kept."""
    if not _CONTROL.search(text):
        return text
    return _ESCAPES.sub("", text).translate(_BODY_CONTROLS)
