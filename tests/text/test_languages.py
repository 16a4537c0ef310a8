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


def test_another_languages_function_words_are_found_by_its_titles() -> None:
    """PostgreSQL's manual in German was grouped into bundles "Das", "Die", "Für" and
    "Und"; English titles, and too few words, find none."""
    from kas_tui.text.languages import other_function_words

    german = [
        "1. Erste Schritte",
        "2. Die SQL-Sprache",
        "8. Datentypen und Funktionen für die Datenbank",
        "16. Installation aus Binärpaketen mit der Paketverwaltung",
        "26. Hochverfügbarkeit, Lastverteilung und Replikation",
        "29. Logische Replikation für das System",
        "51. Überblick über die Interna von PostgreSQL",
    ]
    found = other_function_words(german)
    assert {"die", "und", "für", "das"} <= found and "replikation" not in found
    english = ["Set up the mail server", "Configure the DNS records for your domain"] * 3
    assert other_function_words(english) == frozenset()
    assert other_function_words(["Die Sprache"]) == frozenset()  # too few words


def test_a_german_folder_is_not_grouped_by_its_function_words() -> None:
    from kas_tui.text.grouping import Member, group

    words = ["die", "und", "für"]
    titles = [
        f"{n}. {topic} {words[n % 3]} {thing}"
        for n, (topic, thing) in enumerate(
            (t, e)
            for t in ("Replikation", "Sicherung", "Abfragen", "Indizes")
            for e in ("Server", "Tabellen", "Rollen", "Archive", "Pläne", "Protokolle")
        )
    ]
    members = [Member(key=t, title=t, description="") for t in titles]
    groups, _kept = group(members, capacity=8, parent_room=8)
    labels = {g.label.casefold() for g in groups}
    assert labels == {"replikation", "sicherung", "abfragen", "indizes"}, labels
