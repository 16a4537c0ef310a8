"""Words of scripts whose letters carry combining marks stay whole words."""

from __future__ import annotations

import unicodedata

from kas_tui.text.grouping import Member, group, phrases
from kas_tui.text.languages import MARKS, reads_as_english


def test_marks_are_every_combining_mark_of_the_scripts_sites_write() -> None:
    for code in (0x0301, 0x09CD, 0x09BE, 0x094D, 0x0E34, 0x064E, 0x05B8, 0x200C):
        assert any(a <= chr(code) <= b for a, b in zip(MARKS[::3], MARKS[2::3], strict=True))
    for a, b in zip(MARKS[::3], MARKS[2::3], strict=True):
        for code in range(ord(a), ord(b) + 1):
            assert unicodedata.category(chr(code))[0] == "M" or code in (0x200C, 0x200D)


def test_a_bengali_or_hindi_word_is_one_word() -> None:
    """Obsidian's Bengali help was summed up as "প্লাগইন, ... আপন, লেআউট, সমস, এনক":
    Python's ``\\w`` leaves out vowel signs and viramas, so each word fell apart."""
    titles = ["প্লাগইন সেটিংস", "প্লাগইন ইনস্টল", "প্লাগইন আপডেট", "हिन्दी प्लगइन"]
    found = phrases(titles[0])
    assert "প্লাগইন" in found and "সেটিংস" in found
    members = [Member(f"{n}.md", t, t) for n, t in enumerate(titles * 3)]
    labels = {g.label for g in group(members, capacity=4, parent_room=4)[0]}
    assert all(len(label) > 2 for label in labels), labels
    bengali = "প্লাগইন সেটিংস খুলুন এবং আপনার পছন্দের প্লাগইন চালু করুন। " * 10
    assert reads_as_english(bengali) is False
