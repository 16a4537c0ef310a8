"""OKF lifecycle (§5.5): what a ``stale_after`` instant is, and how freshness is extended.

Every timestamp-valued key in OKF is an ISO 8601 datetime with an explicit UTC offset
(``2026-09-23T00:00:00Z``). Extending freshness writes one, whatever was there before.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from .timestamp import Timestamp

UTC = dt.timezone.utc


def instant(value: Any) -> dt.datetime | None:
    """``value`` as an aware datetime, or ``None`` when it is no timestamp.

    A date alone (``2027-01-31``, which OKF consumers are told to ignore, §11) is read
    as the start of that day in UTC, the instant its author most likely meant; a time
    without an offset is read as UTC.
    """
    if isinstance(value, dt.datetime):
        when = value
    elif isinstance(value, dt.date):
        when = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        text = value.strip()
        try:
            if len(text) == 10:
                day = dt.date.fromisoformat(text)
                when = dt.datetime(day.year, day.month, day.day)
            else:
                when = dt.datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T", 1))
        except ValueError:
            return None
    else:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def format_instant(when: dt.datetime) -> Timestamp:
    """``when`` as OKF writes it: seconds, and ``Z`` for UTC or the ``+hh:mm`` offset."""
    text = when.replace(microsecond=0).isoformat()
    return Timestamp(text[:-6] + "Z" if text.endswith("+00:00") else text)


def extend_stale_after(current: Any, days: int, today: dt.date) -> Timestamp:
    """The ``stale_after`` that keeps a document fresh ``days`` longer.

    Counted from the later of the start of ``today`` (UTC) and the ``current`` value,
    so extending never shortens freshness; a current value with an offset keeps it.
    """
    start = dt.datetime(today.year, today.month, today.day, tzinfo=UTC)
    now_set = instant(current)
    if now_set is not None and now_set > start:
        start = now_set
    return format_instant(start + dt.timedelta(days=days))
