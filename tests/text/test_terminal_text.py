"""``terminal_text``: what may reach a terminal is shown, never acted on."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from kas_tui.text.wording import terminal_text


def active(text: str) -> list[str]:
    return [
        c
        for c in text
        if (ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) < 0xA0 or c in "\u202e\u2066"
    ]


def test_escapes_are_written_out_lines_and_tabs_kept() -> None:
    shown = terminal_text("a\x1b]0;pwned\x07b\r\n\tc\x9bd\u202ee")
    assert shown == "a\\x1b]0;pwned\\x07b\\r\n\tc\\u009bd\\u202ee"


def test_ordinary_text_is_unchanged() -> None:
    text = "Procédure à suivre — 手順 👩‍👩‍👧 (ZWJ kept)\n\tnext line"
    assert terminal_text(text) == text


@given(st.text())
def test_no_active_character_survives(text: str) -> None:
    assert active(terminal_text(text)) == []


@given(st.dictionaries(st.text(), st.text()))
def test_json_stays_the_same_json(value: dict[str, str]) -> None:
    for ascii_only in (True, False):
        dumped = json.dumps(value, ensure_ascii=ascii_only)
        assert json.loads(terminal_text(dumped)) == value
