"""A draft given a new body renders as it would afresh (what a build does to every page it
moves into a sub-bundle: its links change, its frontmatter does not)."""

from __future__ import annotations

import copy
import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kas_tui.features.importing.convert import Converted
from kas_tui.features.importing.draft import draft_document

NOW = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)
BODY = "# Refunds\n\nCustomers on a paid plan can ask for a refund within thirty days.\n"


def _converted(kind: str, yaml_text: str | None, meta: dict | None) -> Converted:
    return Converted(
        source=Path("/sources/refunds.md"),
        markdown=BODY,
        kind=kind,
        sha256="0" * 64,
        size=len(BODY),
        mtime=1_700_000_000.0,
        frontmatter=meta,
        frontmatter_text=yaml_text,
    )


SOURCES = {
    "markdown without frontmatter": ("markdown", None, None),
    "markdown with its own keys": (
        "markdown",
        "title: Refunds\nms.topic: how-to # kept as written\n",
        {"title": "Refunds", "ms.topic": "how-to"},
    ),
    "markdown whose description is empty": (
        "markdown",
        "title: Refunds\ndescription: ''\n",
        {"title": "Refunds", "description": ""},
    ),
    "markdown with a list": (
        "markdown",
        "title: Refunds\ntags:\n- billing\n- refunds\n",
        {"title": "Refunds", "tags": ["billing", "refunds"]},
    ),
    "a web page": ("html", None, None),
}

bodies = st.text(st.sampled_from("ab #-\n[]()./:`*_>"), max_size=60)


@pytest.mark.parametrize("name", sorted(SOURCES))
@settings(max_examples=40, deadline=None)
@given(first=bodies, second=bodies)
def test_a_new_body_renders_as_afresh(name, first, second):
    draft = draft_document(_converted(*SOURCES[name]), None, "billing", root=Path("/kb"), now=NOW)
    fresh = copy.deepcopy(draft)
    draft.body = first
    text = draft.render()
    got = draft.with_body(second, text)
    fresh.body = second
    assert got == fresh.render()
    assert draft.body == second


def test_an_emoji_in_drafted_metadata_is_written_as_itself() -> None:
    """libyaml's emitter escapes a character beyond the Basic Multilingual Plane: a
    title "Eye 👁 watch" was written ``"Eye \\U0001F441 watch"``."""
    from kas_tui.features.importing.draft import dump_yaml

    assert dump_yaml({"title": "Eye 👁 watch", "note": "café"}) == (
        "title: Eye 👁 watch\nnote: café\n"
    )
    assert dump_yaml({"path": "C:\\Users\\x"}) == "path: C:\\Users\\x\n"
