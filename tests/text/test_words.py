"""How kas-tui words counts and fits paths."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kas_tui.text.wording import counted, elide_path


def test_counted_is_singular_for_one_only() -> None:
    assert counted(1, "info") == "1 info"
    assert counted(0, "warning") == "0 warnings"
    assert counted(1204, "document") == "1,204 documents"
    assert counted(1, "entry", "entries") == "1 entry"
    assert counted(3, "entry", "entries") == "3 entries"


def test_a_long_path_keeps_its_file_name_and_loses_the_middle() -> None:
    path = "billing-support/refunds/archive/2025/refund-policy.md"
    assert elide_path(path, 80) == path
    assert elide_path(path, 36) == "billing-support/…/refund-policy.md"
    assert elide_path(path, 24) == "billin…/refund-policy.md"
    assert elide_path("refund-policy-for-enterprise-customers.md", 12) == "…ustomers.md"
    assert elide_path("incidents/severity-levels.md", 22) == "…/severity-levels.md"


_name = st.text(alphabet="abcdefghij-_.0123", min_size=1, max_size=30)


@given(st.lists(_name, min_size=1, max_size=6), st.integers(min_value=1, max_value=120))
def test_elided_paths_fit_and_keep_the_name_when_it_fits(parts: list[str], width: int) -> None:
    path = "/".join(parts)
    shown = elide_path(path, width)
    assert len(shown) <= max(width, 1)
    if len(path) <= width:
        assert shown == path
    elif "/" in path and len(parts[-1]) + 2 <= width:
        assert shown.endswith("/" + parts[-1]) and "…" in shown


def test_elide_words_cuts_after_a_whole_word() -> None:
    from kas_tui.text.wording import elide_words

    text = "release-checklist.md is deprecated but its entry does not say so"
    assert elide_words(text, 200) == text
    assert elide_words(text, 52) == "release-checklist.md is deprecated but its entry…"
    assert elide_words(text, 56) == "release-checklist.md is deprecated but its entry does…"
    for width in range(2, len(text)):
        cut = elide_words(text, width)
        assert len(cut) <= width and cut.endswith("…")
        words = cut[:-1].split()
        # every word kept is whole, except a first word longer than the room
        assert all(w in text.split() for w in words) or len(words) == 1
    assert elide_words("supercalifragilistic", 6) == "super…"


def test_wrap_words_wraps_at_words_and_ends_the_last_line_at_a_word() -> None:
    from kas_tui.text.wording import wrap_words

    text = "the entry does not say when to use the document, so an agent cannot decide"
    assert wrap_words("short", 20, 3) == ["short"]
    assert wrap_words(text, 80, 3) == [text]
    lines = wrap_words(text, 28, 2)
    assert len(lines) == 2 and all(len(line) <= 28 for line in lines)
    assert lines[0] == "the entry does not say when"
    assert lines[1].endswith("…") and text.startswith(" ".join(lines)[:-1].rstrip())
    assert wrap_words(text, 28, 3)[-1] == "agent cannot decide"
