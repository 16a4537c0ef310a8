"""Descriptions made comparable: ``norm`` of ASCII text by one bytes table."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kas_tui.text import description_verdicts
from kas_tui.text.description_verdicts import norm

PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~"


def spelled_out(text: str) -> str:
    """What ``norm`` says of ASCII text: lower case, punctuation made spaces, words
    joined by one space."""
    return " ".join(text.lower().translate(str.maketrans(dict.fromkeys(PUNCTUATION, " "))).split())


@given(st.text(st.characters(max_codepoint=127), max_size=60))
def test_ascii_text_is_normalised_by_one_table_as_spelled_out(text):
    assert norm(text) == spelled_out(text)


def test_the_ascii_table_lower_cases_and_blanks_punctuation_byte_by_byte():
    table = description_verdicts._ASCII_NORM
    assert bytes(range(128)).translate(table) == spelled_out_bytes()
    assert norm("Reset a PASSWORD: (step-by-step)!") == "reset a password step by step"
    assert norm("Ça marche, déjà") == "ça marche déjà"  # not ASCII: NFKC and a regex


def spelled_out_bytes() -> bytes:
    return bytes(
        32 if chr(b) in PUNCTUATION else ord(chr(b).lower()) if b < 128 else b for b in range(128)
    )
