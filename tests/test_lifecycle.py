"""Extending freshness (``S``, the form's +30/+90/+365): never shorter, always an OKF instant."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import make_package
from hypothesis import given
from hypothesis import strategies as st

from kas_tui import editing
from kas_tui.okf.lifecycle import extend_stale_after, instant
from kas_tui.package import Package

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
