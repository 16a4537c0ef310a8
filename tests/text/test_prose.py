"""Reading Markdown lines as plain text: the fast paths answer as the straightforward
ones."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kas_tui.text import prose


def every_pattern(text: str) -> str:
    """:func:`prose.inline_text` as it was written first: every pattern run on every
    line, whether or not the line holds its character."""
    text = prose._COMMENT.sub(" ", text)
    text = prose._CALLOUT.sub(" ", text)
    text = prose._IMAGE.sub(" ", text)
    text = prose._LINK.sub(r"\1", text)
    text = prose._REF_LINK.sub(r"\1", text)
    text = prose._AUTOLINK.sub(" ", text)
    text = prose._FOOTNOTE.sub("", text)
    text = prose._HTML.sub(" ", text)
    text = prose._CODE.sub(r"\1", text)
    for _ in range(2):
        text = prose._EMPHASIS.sub(r"\2", text)
    text = prose._ESCAPE.sub(r"\1", text)
    text = text.replace("&nbsp;", " ").replace("&amp;", "&").replace("&lt;", "<")
    text = text.replace("&gt;", ">").replace("&quot;", '"').replace("&#39;", "'")
    return prose._SPACES.sub(" ", text).strip()


MARKUP = st.one_of(
    st.sampled_from(list("ab <>[]()!`*_~\\&;#^-:/.\n\t")),
    st.sampled_from(
        [
            "<!--",
            "-->",
            "[!NOTE]",
            "](x.md)",
            "![i](p.png)",
            "<https://a.b>",
            "[^1]",
            "&amp;",
            "&lt;",
            "&nbsp;",
            "**",
            "~~",
            "é",
            "中",
        ]
    ),
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(MARKUP, max_size=30).map("".join))
def test_inline_text_is_every_pattern_run(line):
    assert prose.inline_text(line) == every_pattern(line)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_letters_are_counted_as_isalpha_counts_them(text):
    assert prose.letter_count(text) == sum(c.isalpha() for c in text)


def test_ascii_letters():
    assert prose.letter_count("Reset 2 passwords, then sign in!") == 24
    assert prose.letter_count("") == 0
