"""OKF trust and lifecycle: tiers, statuses, the one timestamp parser, staleness, and
extending freshness (``S``, the form's +30/+90/+365): never shorter, always an OKF instant."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kas_tui.core import editing
from kas_tui.core.okf.lifecycle import (
    STATUSES,
    Form,
    Staleness,
    Status,
    TrustTier,
    extend_stale_after,
    instant,
    parse_timestamp,
    staleness,
    status,
    timestamp_problem,
    trust_tier,
)
from kas_tui.core.package import Package
from tests.helpers.acme import make_package

TODAY = dt.date(2026, 12, 2)


@pytest.mark.parametrize(
    ("current", "days", "expected"),
    [
        # the case: fresh until 2027-01-31, "+30" gave 2026-12-31 (shorter)
        ("2027-01-31", 30, "2027-03-02T00:00:00Z"),
        ("2027-01-31T00:00:00Z", 30, "2027-03-02T00:00:00Z"),
        # an offset is kept, and so is the time of day
        ("2027-01-31T09:30:00+02:00", 90, "2027-05-01T09:30:00+02:00"),
        # already stale, or not set, or not a timestamp: counted from today
        ("2026-10-15T00:00:00Z", 30, "2027-01-01T00:00:00Z"),
        (None, 365, "2027-12-02T00:00:00Z"),
        ("soon", 30, "2027-01-01T00:00:00Z"),
        (dt.date(2027, 1, 31), 30, "2027-03-02T00:00:00Z"),
    ],
)
def test_extend_starts_from_the_later_of_today_and_stale_after(current, days, expected) -> None:
    assert extend_stale_after(current, days, TODAY) == expected


@given(
    current=st.datetimes(
        min_value=dt.datetime(2020, 1, 1),
        max_value=dt.datetime(2040, 1, 1),
        timezones=st.sampled_from(
            [
                dt.timezone.utc,
                dt.timezone(dt.timedelta(hours=2)),
                dt.timezone(-dt.timedelta(hours=5)),
            ]
        ),
    ),
    days=st.sampled_from([30, 90, 365]),
)
def test_extending_never_moves_stale_after_earlier(current: dt.datetime, days: int) -> None:
    text = current.replace(microsecond=0).isoformat().replace("+00:00", "Z")
    extended = extend_stale_after(text, days, TODAY)
    after = instant(extended)
    assert after is not None and after.tzinfo is not None
    assert after >= instant(text) + dt.timedelta(days=days)
    assert after >= dt.datetime(2026, 12, 2, tzinfo=dt.timezone.utc) + dt.timedelta(days=days)
    assert "T" in extended and (extended.endswith("Z") or extended[-6] in "+-")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("stale_after: 2027-01-31", "stale_after: 2027-03-02T00:00:00Z"),
        ("stale_after: '2027-01-31'", "stale_after: '2027-03-02T00:00:00Z'"),
        ('stale_after: "2027-01-31T00:00:00Z"', 'stale_after: "2027-03-02T00:00:00Z"'),
    ],
)
def test_the_written_value_keeps_its_quoting(tmp_path, line, expected) -> None:
    root = make_package(tmp_path)
    doc = next(p for p in sorted(root.rglob("*.md")) if "stale_after:" in p.read_text())
    rel = doc.relative_to(root).as_posix()
    text = doc.read_text()
    old = next(x for x in text.splitlines() if x.startswith("stale_after:"))
    doc.write_text(text.replace(old, line))
    pkg = Package.open(root)
    until = extend_stale_after(pkg.documents[rel].meta.get("stale_after"), 30, TODAY)
    editing.set_field(pkg, rel, "stale_after", until)
    assert expected in doc.read_text().splitlines()
    assert doc.read_text() == text.replace(old, expected), "only that line changed"


@pytest.mark.parametrize(
    ("verified", "tier"),
    [
        (None, "unverified"),
        ([], "unverified"),
        ("human:a", "unverified"),
        ([{"by": "process:sync"}], "machine-confirmed"),
        ([{"by": "kas-tui/0.3.0"}, {"by": "process:x"}], "machine-confirmed"),
        ([{"by": "process:sync"}, {"by": "human:ana"}], "human-reviewed"),
        ({"by": "human:ana", "at": "2026-01-01"}, "human-reviewed"),
        ({"by": "process:sync"}, "machine-confirmed"),
        (["human:ana"], "unverified"),
        ([{"at": "2026-01-01"}], "machine-confirmed"),
    ],
)
def test_trust_tier(verified, tier):
    meta = {} if verified is None else {"verified": verified}
    assert trust_tier(meta) == tier


STALE_TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("stale_after", "state", "days", "text"),
    [
        (None, "none", 0, "no stale_after"),
        ("2026-12-31", "fresh", 30, "fresh for 30 days"),
        ("2026-12-02", "fresh", 1, "fresh for 1 day"),
        ("2026-12-01", "stale", 0, "stale since today"),
        ("2026-11-30", "stale", -1, "stale since 1 day"),
        ("2026-11-21T10:00:00Z", "stale", -10, "stale since 10 days"),
        ("2026-12-02T01:00:00+02:00", "stale", 0, "stale since today"),  # 23:00 UTC on the 1st
        ("2027-03-18T00:00:00Z", "fresh", 107, "fresh for 107 days"),
        ("next spring", "invalid", 0, "stale_after is not a date"),
        (20261231, "invalid", 0, "stale_after is not a date"),
        (dt.date(2026, 12, 11), "fresh", 10, "fresh for 10 days"),
    ],
)
def test_staleness(stale_after, state, days, text):
    meta = {} if stale_after is None else {"stale_after": stale_after}
    result = staleness(meta, STALE_TODAY)
    assert result == Staleness(state, days)
    assert result.describe() == text


UTC = dt.timezone.utc


@pytest.mark.parametrize(
    ("value", "form", "when"),
    [
        ("2026-06-30T14:00:00Z", Form.INSTANT, dt.datetime(2026, 6, 30, 14, tzinfo=UTC)),
        (
            "2026-06-30T14:00:00.250+02:00",
            Form.INSTANT,
            dt.datetime(2026, 6, 30, 14, 0, 0, 250_000, dt.timezone(dt.timedelta(hours=2))),
        ),
        ("2026-06-30T14:00Z", Form.INSTANT, dt.datetime(2026, 6, 30, 14, tzinfo=UTC)),
        (
            dt.datetime(2026, 6, 30, 14, tzinfo=UTC),
            Form.INSTANT,
            dt.datetime(2026, 6, 30, 14, tzinfo=UTC),
        ),
        # OKF asks for an offset datetime; these are read (start of day, UTC) and reported
        ("2026-06-30", Form.DATE_ONLY, dt.datetime(2026, 6, 30, tzinfo=UTC)),
        (dt.date(2026, 6, 30), Form.DATE_ONLY, dt.datetime(2026, 6, 30, tzinfo=UTC)),
        ("2026-06-30 14:00:00", Form.NO_OFFSET, dt.datetime(2026, 6, 30, 14, tzinfo=UTC)),
        (dt.datetime(2026, 6, 30, 14), Form.NO_OFFSET, dt.datetime(2026, 6, 30, 14, tzinfo=UTC)),
        ("2026-13-01", Form.INVALID, None),
        ("2026-06-30T14:00:00+24:00", Form.INVALID, None),
        ("June 2026", Form.INVALID, None),
        (None, Form.INVALID, None),
        (20261231, Form.INVALID, None),
    ],
)
def test_one_timestamp_parser(value, form, when) -> None:
    reading = parse_timestamp(value)
    assert (reading.form, reading.when) == (form, when)
    assert bool(reading.error) is (form is Form.INVALID)
    assert instant(value) == when


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("2027-01-01T00:00:00Z", None),
        ("2027-01-01", None),
        ("2027-01-01T00:00:00", "add the UTC offset: 2027-01-01T00:00:00Z (UTC)"),
        ("2027-02-30", "not a date: day is out of range for month"),
        ("soon", "not a timestamp: write YYYY-MM-DD"),
    ],
)
def test_what_may_be_written(value, problem) -> None:
    found = timestamp_problem(value)
    assert found is None if problem is None else found.startswith(problem)


def test_tiers_and_statuses_are_str_enums() -> None:
    """Existing string comparisons and JSON output keep working."""
    assert trust_tier({"verified": {"by": "human:ana"}}) is TrustTier.HUMAN_REVIEWED
    assert TrustTier.HUMAN_REVIEWED == "human-reviewed"
    assert json.dumps([TrustTier.UNVERIFIED, Status.DRAFT]) == '["unverified", "draft"]'
    assert f"{Status.DEPRECATED}" == "deprecated"
    assert STATUSES == ("draft", "stable", "deprecated")
    assert status({}) is Status.STABLE and status({"status": ""}) is Status.STABLE
    assert status({"status": "draft"}) is Status.DRAFT
    assert status({"status": "archived"}) == "archived", "kept as written, for OKF105"


# --- an entry that already says its document is deprecated or stale ------------------------

LIFECYCLE_WORDS = ["Deprecated", "SUPERSEDED", "replaces", "retired", "legacy", "STALE", "archive"]


@given(
    st.lists(
        st.sampled_from([*LIFECYCLE_WORDS, "review", "revie", "x", " ", ":", "Z"]), max_size=5
    ),
    st.text(st.characters(max_codepoint=127), max_size=20),
)
def test_an_entry_says_lifecycle_in_any_case_as_the_case_blind_search_finds(words, noise):
    from kas_tui.core.okf.lifecycle import _ENTRY_NOTE, entry_says_lifecycle

    title, description = "".join(words), noise + " ".join(words)
    expected = _ENTRY_NOTE.search(f"{title} {description}") is not None
    assert entry_says_lifecycle(title, description) is expected


def test_an_entry_says_lifecycle_beyond_ascii_as_unicode_case_folding_reads_it():
    from kas_tui.core.okf.lifecycle import _ENTRY_NOTE_LOWER, entry_says_lifecycle

    assert entry_says_lifecycle("Old page", "ſtale since May")  # long s folds to s
    assert entry_says_lifecycle("Ancienne page", "Déjà ARCHIVÉE")
    assert not entry_says_lifecycle("Ça va", "tout est à jour")
    assert _ENTRY_NOTE_LOWER.search("stale") and not _ENTRY_NOTE_LOWER.search("STALE")
