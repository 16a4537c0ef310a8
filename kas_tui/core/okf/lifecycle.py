"""OKF trust and lifecycle (§5.3-§5.5): the verdicts derived from frontmatter, in one place.

Signals are stored, verdicts are derived: the trust tier comes from ``verified``, the
status from ``status``, staleness from ``stale_after``. Every timestamp-valued key in
OKF is an ISO 8601 datetime with an explicit UTC offset (``2026-09-23T00:00:00Z``);
:func:`parse_timestamp` is the one reading of such a value, and extending freshness
writes one, whatever was there before.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from kas_tui.core.okf.timestamp import Timestamp

UTC = dt.timezone.utc


#: Words that tell a reader of an index entry the document is deprecated or stale.
_ENTRY_NOTE = re.compile(
    r"deprecat|supersed|replace[sd]|retired|obsolete|legacy|stale|outdated|archiv|review", re.I
)
#: The same words for lower-cased ASCII text: a case-sensitive search is ten times faster.
_ENTRY_NOTE_LOWER = re.compile(_ENTRY_NOTE.pattern)
#: What a curator's key puts before an entry's description when it deprecates the document.
DEPRECATED_NOTE = "Deprecated: "
#: A note opening an entry's description: "(Stale: price review overdue.) ..." or
#: "Deprecated: ...", "Stale - ..."; the lifecycle word is group ``state``.
_OPENING_NOTE = re.compile(
    r"^\s*(?:\((?P<p>deprecated|stale)\b[^)]*\)\s*|(?P<c>deprecated|stale)\s*[:\u2013\u2014-]\s*)",
    re.I,
)


def opening_note(description: str) -> tuple[str, str] | None:
    """The lifecycle note an entry's description opens with: ``(state, description
    without it)``, ``state`` ``deprecated`` or ``stale``; ``None`` without one. What
    ``D`` writes is such a note; when the document is no longer so, the note is false."""
    match = _OPENING_NOTE.match(description)
    if match is None:
        return None
    state = (match.group("p") or match.group("c")).lower()
    rest = description[match.end() :]
    return state, rest[:1].upper() + rest[1:]


def entry_says_lifecycle(title: str, description: str) -> bool:
    """Whether an index entry already tells the reader its document is deprecated or
    stale (KAS044 asks for that; the TUI's ``D`` offers to add it)."""
    text = f"{title} {description}"
    if text.isascii():  # case folds as lower() does only in ASCII (re.I matches "ſ" for "s")
        return _ENTRY_NOTE_LOWER.search(text.lower()) is not None
    return _ENTRY_NOTE.search(text) is not None


#: What :func:`entry_note_problem` finds: the entry does not say what its document is,
#: or it opens with a note its document no longer deserves.
UNSAID, FALSE_NOTE = "unsaid", "false"


def lifecycle_state(doc_status: Any, stale_state: str) -> str | None:
    """What an index entry listing a document should tell the reader: ``deprecated``
    (status wins), ``stale`` (its :func:`staleness` state is ``stale``) or ``None``."""
    if doc_status == Status.DEPRECATED:
        return "deprecated"
    return "stale" if stale_state == "stale" else None


def entry_note_problem(title: str, description: str, state: str | None) -> str | None:
    """The one rule for an index entry and its document's lifecycle (KAS044, and what
    ``D`` and ``S`` offer to fix): :data:`UNSAID` when the document is ``state``
    (:func:`lifecycle_state`) and the entry does not say so, :data:`FALSE_NOTE` when
    the entry opens with a note (:func:`opening_note`) the document no longer deserves
    (any note will do on a deprecated one), ``None`` when they agree."""
    if state and not entry_says_lifecycle(title, description):
        return UNSAID
    said = opening_note(description)
    if said is not None and state != "deprecated" and said[0] != state:
        return FALSE_NOTE
    return None


def agreeing_description(title: str, description: str, state: str | None) -> str:
    """``description`` as it agrees with ``state``: a false opening note dropped, a
    deprecated document's note (:data:`DEPRECATED_NOTE`) added; a stale one's missing
    note is left to the curator (only they know why it is stale)."""
    problem = entry_note_problem(title, description, state)
    if problem == FALSE_NOTE:
        rest = opening_note(description)[1]  # type: ignore[index]
        return agreeing_description(title, rest, state)  # "Stale: Deprecated: ..." too
    if problem == UNSAID and state == "deprecated":
        return DEPRECATED_NOTE + description
    return description


# --- trust tier (§5.3) and status (§5.4) -------------------------------------------------


class TrustTier(StrEnum):
    """The trust tier derived from ``verified``, lowest to highest (a ``str``)."""

    UNVERIFIED = "unverified"
    MACHINE_CONFIRMED = "machine-confirmed"
    HUMAN_REVIEWED = "human-reviewed"


class Status(StrEnum):
    """A concept's ``status`` (a ``str``); absent means :attr:`STABLE`."""

    DRAFT = "draft"
    STABLE = "stable"
    DEPRECATED = "deprecated"


#: The statuses OKF defines, in the order the spec lists them.
STATUSES: tuple[Status, ...] = tuple(Status)


def trust_tier(meta: dict[str, Any]) -> TrustTier:
    """The tier of a concept's ``verified`` (a bare mapping is a one-element list, §5.2)."""
    verified = meta.get("verified")
    if isinstance(verified, dict):
        verified = [verified]
    if not isinstance(verified, list) or not verified:
        return TrustTier.UNVERIFIED
    actors = [str(v.get("by", "")) for v in verified if isinstance(v, dict)]
    if any(a.startswith("human:") for a in actors):
        return TrustTier.HUMAN_REVIEWED
    return TrustTier.MACHINE_CONFIRMED if actors else TrustTier.UNVERIFIED


def status(meta: dict[str, Any]) -> Status | str:
    """The concept's :class:`Status` (``stable`` when absent); a value OKF does not
    define is returned as written (the check reports it, OKF105)."""
    value = meta.get("status")
    if not isinstance(value, str) or not value:
        return Status.STABLE
    return Status(value) if value in STATUSES else value


# --- timestamps (§5) -------------------------------------------------------------------


class Form(StrEnum):
    """How a timestamp value is written."""

    INSTANT = "instant"  # a datetime with its offset: what OKF asks for
    DATE_ONLY = "date-only"  # a date alone: reported, read as the start of that day in UTC
    NO_OFFSET = "no-offset"  # a datetime without offset: reported, read as UTC
    INVALID = "invalid"  # no ISO 8601 date or datetime


@dataclass(frozen=True)
class Reading:
    """A timestamp value as read: its :class:`Form`, the instant it names (aware, or
    ``None`` when invalid) and, when invalid, why (a phrase for a message)."""

    form: Form
    when: dt.datetime | None = None
    error: str = ""


_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_DATETIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?"
    r"\s*(?:(Z)|([+-])(\d{2}):?(\d{2}))?"
)
#: How to write a timestamp, for messages.
TIMESTAMP_HELP = "write YYYY-MM-DD or a time with its offset, like 2027-01-01T00:00:00Z"
_NOT_A_TIMESTAMP = Reading(Form.INVALID, error=f"not a timestamp: {TIMESTAMP_HELP}")


def parse_timestamp(value: Any) -> Reading:
    """Read an OKF timestamp: ``2026-06-30T14:00:00Z`` (or ``+02:00``; seconds optional).

    A date alone (``2026-06-30``) and a datetime without offset are read, as the start
    of that day and as UTC (OKF §11: constraints are soft guidance, a concept is never
    rejected), but their :class:`Form` says so, for a check to report.
    """
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            return Reading(Form.NO_OFFSET, value.replace(tzinfo=UTC))
        return Reading(Form.INSTANT, value)
    if isinstance(value, dt.date):
        return Reading(Form.DATE_ONLY, dt.datetime(value.year, value.month, value.day, tzinfo=UTC))
    if not isinstance(value, str):
        return _NOT_A_TIMESTAMP
    return _parse_text(value.strip())


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> Reading:
    if match := _DATE.fullmatch(text):
        try:
            day = dt.date(*map(int, match.groups()))
        except ValueError as exc:
            return Reading(Form.INVALID, error=f"not a date: {exc}")
        return Reading(Form.DATE_ONLY, dt.datetime(day.year, day.month, day.day, tzinfo=UTC))
    match = _DATETIME.fullmatch(text)
    if match is None:
        return _NOT_A_TIMESTAMP
    year, month, day, hour, minute = map(int, match.groups()[:5])
    second, fraction, zulu, sign, off_h, off_m = match.groups()[5:]
    micro = round(float(fraction) * 1_000_000) if fraction else 0
    if sign and (int(off_h) > 23 or int(off_m) > 59):
        return Reading(
            Form.INVALID, error=f"the offset {sign}{off_h}:{off_m} is not a time zone offset"
        )
    if zulu:
        zone = UTC
    elif sign:
        delta = dt.timedelta(hours=int(off_h), minutes=int(off_m))
        zone = dt.timezone(delta if sign == "+" else -delta)
    else:
        zone = None
    try:
        when = dt.datetime(
            year, month, day, hour, minute, int(second or 0), min(micro, 999_999), zone
        )
    except ValueError as exc:
        return Reading(Form.INVALID, error=f"not a date and time: {exc}")
    if zone is None:
        return Reading(Form.NO_OFFSET, when.replace(tzinfo=UTC))
    return Reading(Form.INSTANT, when)


def timestamp_problem(value: Any) -> str | None:
    """Why ``value`` may not be written as a timestamp, or ``None`` when it may.

    An instant may, and so may a date alone (older bundles are full of them); a time
    without its offset names different instants in different places, so it may not.
    """
    reading = parse_timestamp(value)
    if reading.form is Form.INVALID:
        return reading.error
    if reading.form is Form.NO_OFFSET:
        text = str(value).strip()
        return f"add the UTC offset: {text}Z (UTC) or {text}+01:00"
    return None


def instant(value: Any) -> dt.datetime | None:
    """``value`` as an aware datetime (see :func:`parse_timestamp`), or ``None``."""
    return parse_timestamp(value).when


def days_since(value: Any, today: dt.date) -> int | None:
    """Whole days from the timestamp ``value`` to ``today``, counted in UTC as staleness
    is (0 on the day itself, negative for a later value), or ``None`` when ``value`` is
    not a timestamp."""
    when = instant(value)
    return None if when is None else (today - when.astimezone(UTC).date()).days


def format_instant(when: dt.datetime) -> Timestamp:
    """``when`` as OKF writes it: seconds, and ``Z`` for UTC or the ``+hh:mm`` offset."""
    text = when.replace(microsecond=0).isoformat()
    return Timestamp(text[:-6] + "Z" if text.endswith("+00:00") else text)


def now_timestamp(now: dt.datetime | None = None) -> Timestamp:
    """``now`` (default: the current time) as an OKF timestamp in UTC: ``...T...Z``."""
    return format_instant((now or dt.datetime.now(UTC)).astimezone(UTC))


# --- staleness (§5.5) ------------------------------------------------------------------


@dataclass(frozen=True)
class Staleness:
    """``state`` is ``none`` (no stale_after), ``invalid``, ``fresh`` or ``stale``.

    ``days`` counts from ``today`` to the ``stale_after`` date (in UTC): positive while
    fresh, zero or negative once stale.
    """

    state: str
    days: int = 0

    def describe(self) -> str:
        if self.state == "stale":
            n = -self.days
            return "stale since today" if n == 0 else f"stale since {n} day{'s' * (n != 1)}"
        if self.state == "fresh":
            return f"fresh for {self.days} day{'s' * (self.days != 1)}"
        return "no stale_after" if self.state == "none" else "stale_after is not a date"


def staleness(meta: dict[str, Any], today: dt.date) -> Staleness:
    """Whether a concept is stale on ``today``: once today >= stale_after, in UTC (§5.5)."""
    raw = meta.get("stale_after")
    if raw is None:
        return Staleness("none")
    when = instant(raw)
    if when is None:
        return Staleness("invalid")
    days = (when.astimezone(UTC).date() - today).days
    return Staleness("stale" if days <= 0 else "fresh", days)


#: The extensions of freshness offered (the S key, the form's +N d buttons), in days.
FRESHNESS_DAYS = (30, 90, 365)


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
