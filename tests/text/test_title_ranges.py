"""Sub-bundles by title range: the last resort for a folder too large for one index."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kas_tui.text.title_ranges import title_ranges

HEALTH_SETS = [
    "ActiveSync",
    "AD",
    "Antimalware",
    "Autodiscover",
    "Classification",
    "Compliance",
    "DataProtection",
    "DiskSpace",
    "EWS",
    "IMAP",
    "MailboxSpace",
    "MailboxTransport",
    "Mailflow",
    "Memory",
    "OAB",
    "Outlook",
    "OWA",
    "POP",
    "RPS",
    "UM",
]


def _health_sets() -> list[tuple[str, str]]:
    titles = [f"Troubleshooting {name} Health Set" for name in HEALTH_SETS]
    titles.append("Exchange 2013 Management Pack Health Sets")
    return [(f"{n:02d}.md", t) for n, t in enumerate(titles)]


def test_runs_are_named_by_the_words_that_tell_them_apart() -> None:
    runs = title_ranges(_health_sets(), capacity=8)
    # "Troubleshooting", which most titles open with, names no run; the overview page
    # is filed under its own first word
    assert [g.label for g in runs] == [
        "ActiveSync to Classification",
        "Compliance to Exchange",
        "IMAP to OAB",
        "Outlook to UM",
    ]
    assert all(len(g.members) <= 8 for g in runs)


def test_a_cut_falls_where_the_first_word_changes_when_one_is_near() -> None:
    titles = [f"Alpha item {i:02d}" for i in range(7)] + [f"Beta item {i:02d}" for i in range(7)]
    runs = title_ranges([(t, t) for t in titles], capacity=10)
    assert [g.members for g in runs] == [titles[:7], titles[7:]]
    # titles of one first word: the run says where in them it starts and ends
    same = [f"Alert {w} latency" for w in ["bugan", "gis", "kobor", "tro"]]
    same += [f"Zeta {w} latency" for w in ["bugan", "gis", "kobor", "tro"]]
    labels = [g.label for g in title_ranges([(t, t) for t in same], capacity=3)]
    assert labels == [
        "Alert bugan to Alert gis",
        "Alert kobor to Alert tro",
        "Zeta bugan to Zeta gis",
        "Zeta kobor to Zeta tro",
    ]
    # when most titles open with the same word, it names no run
    alike = [(t, t) for t in same[:4]]
    assert [g.label for g in title_ranges(alike, capacity=3)] == ["Bugan to gis", "Kobor to tro"]


def test_numbers_in_titles_are_ordered_as_numbers() -> None:
    titles = [f"Case {n}" for n in range(1, 13)]
    runs = title_ranges([(t, t) for t in reversed(titles)], capacity=9)
    assert [g.members for g in runs] == [titles[:6], titles[6:]]
    assert [g.label for g in runs] == ["Case 1 to Case 6", "Case 7 to Case 12"]  # the word kept


def test_too_few_members_give_no_runs() -> None:
    assert title_ranges([], capacity=5) == []
    assert title_ranges([("a.md", "A")], capacity=5) == []


titles = st.lists(
    st.text(st.sampled_from("ab cdé-ZX"), min_size=0, max_size=12), min_size=2, max_size=300
)


@settings(max_examples=300, deadline=None)
@given(titles, st.integers(min_value=2, max_value=80))
def test_every_member_is_in_one_run_in_title_order_and_each_run_fits(
    names: list[str], capacity: int
) -> None:
    members = [(f"{n}.md", t) for n, t in enumerate(names)]
    runs = title_ranges(members, capacity)
    keys = [k for g in runs for k in g.members]
    assert sorted(keys) == sorted(k for k, _t in members)  # each once, none left out
    assert len(runs) >= 2
    assert all(g.members for g in runs)
    assert all(len(g.members) <= capacity for g in runs), [len(g.members) for g in runs]
    assert all(g.label.strip() for g in runs)


def test_two_families_of_titles_keep_the_words_that_name_them() -> None:
    """Biome's 526 lint rules are "No ..." and "Use ...": "No" was dropped as the lead
    most titles share, and the two families were filed together ("Unknown to Use array
    literals")."""
    nos = [f"No {w} check" for w in ("access", "alert", "bitwise", "console", "debugger", "eval")]
    uses = [f"Use {w} rule" for w in ("array", "await", "const", "yield")]
    runs = title_ranges([(t, t) for t in nos + uses], capacity=5)
    # each end of a run's name keeps its family's word, and the families are not
    # interleaved: every "No" rule comes before every "Use" one
    for group in runs:
        start, _, end = group.label.partition(" to ")
        assert start.split()[0] in ("No", "Use") and end.split()[0] in ("No", "Use"), group
    assert [m for g in runs for m in g.members] == nos + uses
