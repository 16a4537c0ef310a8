"""The topical grouping of a large folder gives exactly what the straightforward way
gives (``tests/helpers/grouping_reference.py``)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kas_tui.text.grouping import Member, group
from tests.helpers.grouping_reference import reference_group

WORDS = [
    "mail",
    "flow",
    "calendar",
    "mailbox",
    "mailboxes",
    "sharing",
    "permission",
    "policy",
    "policies",
    "sync",
    "outlook",
    "teams",
    "meeting",
    "license",
    "admin",
    "portal",
    "onedrive",
    "folder",
    "folders",
    "file",
    "password",
    "reset",
    "account",
    "install",
    "update",
    "crash",
    "printer",
    "network",
    "wifi",
    "vpn",
    "token",
    "audit",
    "report",
]
FILLER = ["the", "a", "to", "in", "how", "error", "when", "you", "cannot", "fix"]


def _text(rng: random.Random, low: int, high: int, vocabulary: list[str]) -> str:
    words = [rng.choice(vocabulary + FILLER) for _ in range(rng.randint(low, high))]
    return " ".join(words).capitalize()


def _members(seed: int, count: int, spread: int) -> list[Member]:
    """``count`` documents whose titles draw on ``spread`` words of the vocabulary (few:
    many share phrases; many: most stay loose)."""
    rng = random.Random(seed)
    vocabulary = WORDS[: max(3, spread)]
    out = []
    for i in range(count):
        tags = tuple(rng.sample(vocabulary, k=min(len(vocabulary), rng.randint(0, 2))))
        headings = tuple(_text(rng, 1, 3, vocabulary) for _ in range(rng.randint(0, 3)))
        out.append(
            Member(
                f"doc-{i:04d}.md",
                _text(rng, 0, 6, vocabulary),
                _text(rng, 0, 14, vocabulary) if rng.random() < 0.9 else "",
                tags,
                headings,
            )
        )
    rng.shuffle(out)
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(0, 400),
    st.integers(3, len(WORDS)),
    st.integers(4, 60),
    st.integers(2, 40),
    st.sampled_from(["", "Mail flow", "Outlook calendar"]),
)
def test_groups_are_what_the_straightforward_way_makes(
    seed, count, spread, capacity, room, context
):
    members = _members(seed, count, spread)
    kwargs = {"capacity": capacity, "parent_room": room, "context": context}
    assert group(members, **kwargs) == reference_group(members, **kwargs)


def test_a_folder_of_thousands_is_grouped_as_before():
    """3,000 documents, most of them loose at first (their members join groups one by
    one, each changing the next one's choice)."""
    members = _members(11, 3000, len(WORDS))
    kwargs = {"capacity": 120, "parent_room": 30}
    got = group(members, **kwargs)
    assert got == reference_group(members, **kwargs)
    assert len(got[0]) >= 2
