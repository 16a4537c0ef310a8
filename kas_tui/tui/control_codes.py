"""No text the TUI shows can act on the terminal.

A document's title, a file name or a line of a body can hold an escape sequence (a
YAML ``"\\e]0;...\\a"`` sets the terminal's title; ``"\\e[2J"`` clears it). Textual
and Rich remove BEL, backspace, VT, FF and CR from every piece of text they show
(Textual's ``Content``: labels, Markdown, static text; Rich's ``Text``: the tree, tables
and what we assemble) but let ESC and the other controls through to the terminal.
:func:`show_control_codes` extends those two tables, so every remaining C0 control, DEL and every C1 control is shown as its Unicode
control picture (``␛``, ``␀``, ``␡``) or ``�``: one character for one, so the text's
styled spans keep their places, and the reader sees that something is there.
"""

from __future__ import annotations

from rich import control as _rich_control
from textual import content as _content

#: what Textual already removes: BEL, BS, VT, FF, CR (line ends of CRLF text among them)
TEXTUAL_STRIPS = frozenset((7, 8, 11, 12, 13))


def pictures() -> dict[int, str]:
    """Each control character Textual would pass, and what is shown instead."""
    shown = {code: chr(0x2400 + code) for code in range(32) if code not in (9, 10)}
    shown[0x7F] = "\u2421"  # ␡
    shown.update({code: "\ufffd" for code in range(0x80, 0xA0)})
    return {code: char for code, char in shown.items() if code not in TEXTUAL_STRIPS}


def show_control_codes() -> None:
    """Make Textual's and Rich's control-code tables show the controls they let through
    (idempotent)."""
    shown = pictures()
    _content._CONTROL_STRIP_TRANSLATE.update(shown)
    _rich_control._CONTROL_STRIP_TRANSLATE.update(shown)
