"""Frontmatter fields as a form sees them: parse, check and show one value at a time.

Each ``parse_*`` function takes what the user typed and returns ``(value, error)``:
``error`` is ``None`` when the value can be written, else a message for the field. The
value :data:`REMOVE` means "the key goes" (an emptied optional field). The form keeps
the text; nothing here writes a file (``kas_tui.core.editing`` does) or imports Textual.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

import yaml

from kas_tui.core import field_schema
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf import yaml_patch
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.lifecycle import extend_stale_after, staleness, timestamp_problem
from kas_tui.core.okf.text import newline_of
from kas_tui.core.okf.timestamp import Timestamp
from kas_tui.text.description_verdicts import LONG_DESCRIPTION, more_than_one_sentence, says_nothing
from kas_tui.text.tokens import estimate_tokens


class _Remove:
    """The key is removed from the frontmatter (an emptied optional field)."""

    _instance: _Remove | None = None

    def __new__(cls) -> _Remove:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "REMOVE"

    def __bool__(self) -> bool:
        return False


REMOVE: Any = _Remove()

#: The fields the form gives their own input, in the order it shows them.
FORM_FIELDS = ("type", "title", "description", "tags", "status", "stale_after", "resource")
#: Fields shown read-only as history (edited by the verify action or the YAML editor).
HISTORY_FIELDS = ("generated", "verified")
#: Every key with a place of its own in the form; any other key is an "other field".
KNOWN_FIELDS = (*FORM_FIELDS, "sources", *HISTORY_FIELDS)


# --- control characters and terminal escapes --------------------------------------------

_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves (ESC [ 31 m)
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: titles, hyperlinks (ESC ] ... BEL)
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[ -/]*[0-~]?"  # two-character escapes (ESC c, ESC ( B), or a lone ESC
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _is_control(char: str) -> bool:
    code = ord(char)
    return (code < 32 and char not in "\t\n") or 0x7F <= code < 0xA0


def sanitize(text: str, *, multiline: bool = False) -> tuple[str, list[str]]:
    """``text`` without terminal escape sequences and control characters, and what went.

    Tabs become spaces; line breaks are kept when ``multiline``, else each run of them
    becomes one space. ``\\r\\n`` counts as a line break, not a control character.
    """
    removed: list[str] = []

    def drop(match: re.Match[str]) -> str:
        removed.append(match.group())
        return ""

    text = text.replace("\r\n", "\n")
    text = _ESCAPE.sub(drop, text)
    text = text.replace("\t", " ")
    if not multiline:
        text = re.sub(r"\s*\n\s*", " ", text)
    text = _CONTROL.sub(drop, text)
    return text, removed


def describe_removed(removed: list[str]) -> str:
    """A message naming what :func:`sanitize` took out (for the field's note)."""
    escapes = [r for r in removed if r[:1] in ("\x1b", "\x9b") and len(r) > 1]
    controls = len(removed) - len(escapes)
    parts = []
    if escapes:
        shown = ", ".join(_visible(e) for e in escapes[:2])
        parts.append(
            f"{len(escapes)} terminal escape sequence{'s' * (len(escapes) != 1)} ({shown})"
        )
    if controls:
        parts.append(f"{controls} control character{'s' * (controls != 1)}")
    return "Removed " + " and ".join(parts) + " from the pasted text" if parts else ""


def _visible(text: str) -> str:
    """``text`` with control characters written as escapes (``\\x1b[31m``)."""
    return "".join(f"\\x{ord(c):02x}" if _is_control(c) else c for c in text)


def control_error(text: str) -> str | None:
    """An error when ``text`` holds control characters (line breaks and tabs excepted)."""
    bad = [c for c in text if _is_control(c)]
    if not bad:
        return None
    shown = ", ".join(dict.fromkeys(_visible(c) for c in bad))
    return f"contains control characters ({shown}); remove them (pasted terminal escapes?)"


def plain_text(value: Any) -> bool:
    """Whether ``value`` fits a text input as it is (no control characters, not a list)."""
    return value is None or (isinstance(value, str) and control_error(value) is None)


def by_use(values: Iterable[str]) -> list[str]:
    """Distinct non-empty ``values``, the most used first (then alphabetically): the
    choices a field offers (types, tags) in the order a package uses them."""
    counts = Counter(v for v in values if v)
    return sorted(counts, key=lambda v: (-counts[v], v.casefold()))


# --- one field at a time ------------------------------------------------------------------


def parse_type(text: str) -> tuple[Any, str | None]:
    """``type``: a required, non-empty word from an open vocabulary (OKF §4)."""
    return parse_field("type", text)


def parse_field(key: str, text: str) -> tuple[Any, str | None]:
    """A one-line text field ``key`` (``type``, ``title``, ``resource``...): empty removes
    the key, or is an error when the schema requires it."""
    if field_schema.is_required(key):
        value = text.strip()
        if not value:
            return None, field_schema.required_error(key)
        return value, control_error(value)
    return parse_text(text)


def parse_text(text: str) -> tuple[Any, str | None]:
    """An optional one-line text (``title``, ``resource``): empty removes the key."""
    value = text.strip()
    if not value:
        return REMOVE, None
    return value, control_error(value)


def parse_title(text: str) -> tuple[Any, str | None]:
    """A required one-line ``title`` (a new document's, a draft's): empty is an error."""
    value, error = parse_text(text)
    if value is REMOVE:
        return None, "a title is required: the index entry and the tree show it"
    return value, error


def parse_description(text: str) -> tuple[Any, str | None]:
    """``description``: one line (line breaks become spaces); empty removes the key."""
    value = " ".join(text.split("\n")).strip()
    if not value:
        return REMOVE, None
    return value, control_error(value)


def description_notes(text: str, title: str = "") -> list[tuple[str, str]]:
    """``(level, message)`` notes on a description: ``info``, ``hint`` or ``warning``.

    The count, then the checker's own verdicts (KAS042 says nothing, KAS045 long or more
    than one sentence), so the form and ``kas-tui check`` never disagree.
    """
    value = " ".join(text.split("\n")).strip()
    count = len(value)
    notes = [
        ("info", f"{count:,} character{'s' * (count != 1)} · ~{estimate_tokens(value):,} tokens")
    ]
    if not value:
        notes.append(("hint", "empty: an agent choosing a path has nothing to go on"))
        return notes
    if says_nothing(value, title):
        notes.append(
            (
                "warning",
                "says nothing an agent can choose by: name what it covers and when to read it",
            )
        )
    if count > LONG_DESCRIPTION:
        notes.append(
            (
                "warning",
                f"long: over ~{LONG_DESCRIPTION} characters; index entries copy it and "
                "every agent that reads the index pays for it",
            )
        )
    if more_than_one_sentence(value):
        notes.append(("warning", "more than one sentence: an index entry says one thing"))
    return notes


def split_tags(text: str) -> list[str]:
    """The tags in comma-separated ``text``: trimmed, empty ones dropped, duplicates once."""
    tags = (t.strip() for t in text.replace("\n", ",").split(","))
    return list(dict.fromkeys(t for t in tags if t))


def format_tags(tags: Iterable[Any]) -> str:
    return ", ".join(str(t) for t in tags)


def parse_tags(text: str) -> tuple[Any, str | None]:
    """``tags``: a comma-separated list of short strings; no tags removes the key."""
    tags = split_tags(text)
    if not tags:
        return REMOVE, None
    for tag in tags:
        error = control_error(tag)
        if error:
            return None, f"tag {_visible(tag)!r} {error}"
        if len(tag) > 60:
            return None, f"tag {tag[:20]!r}... is {len(tag)} characters; tags are short words"
    return tags, None


def parse_status(value: Any) -> tuple[Any, str | None]:
    """``status``: ``draft``, ``stable`` or ``deprecated``; ``None`` or empty removes it."""
    if value is None or value == "":
        return REMOVE, None
    error = field_schema.value_error("status", value)
    return (None, error) if error else (value, None)


_RELATIVE = re.compile(r"\+\s*(\d{1,5})\s*(?:d|days?)?", re.IGNORECASE)


def relative_date(text: str, today: dt.date, current: Any = None) -> str | None:
    """``+90`` (or ``+90d``, ``+ 90 days``): freshness extended by that many days.

    Counted from the later of ``today`` and ``current`` (the value the field started
    from), written as an offset datetime (see ``okf.lifecycle.extend_stale_after``).
    """
    match = _RELATIVE.fullmatch(text.strip())
    return days_from(today, int(match.group(1)), current) if match else None


def parse_timestamp(
    text: str, today: dt.date | None = None, current: Any = None
) -> tuple[Any, str | None]:
    """An OKF timestamp kept as written: ``2027-01-01`` or ``2027-01-01T00:00:00Z``.

    What may be written is ``okf.lifecycle.timestamp_problem``'s to say (a time needs
    its offset, ``Z`` or ``+02:00``). Empty removes the key. With
    ``today``, ``+90`` extends freshness by 90 days (from ``current`` when later).
    """
    value = text.strip()
    if not value:
        return REMOVE, None
    if today is not None and (relative := relative_date(value, today, current)):
        return Timestamp(relative), None
    error = timestamp_problem(value)
    return (None, error) if error else (Timestamp(value), None)


def days_from(today: dt.date, days: int, current: Any = None) -> str:
    """``stale_after`` extended by ``days``, as the form and the ``S`` key write it."""
    return extend_stale_after(current, days, today)


def describe_stale_after(text: str, today: dt.date, current: Any = None) -> str:
    """What a ``stale_after`` value means on ``today`` (``fresh for 91 days``, ...)."""
    value, error = parse_timestamp(text, today, current)
    if error:
        return ""
    if value is REMOVE:
        return "no stale_after: the document never goes stale"
    return staleness({"stale_after": value}, today).describe()


# --- sources --------------------------------------------------------------------------------

SOURCE_FIELDS = ("resource", "title", "id")


def source_text(entry: Any) -> tuple[str, str, str]:
    """The resource, title and id of a ``sources`` entry, as text for three inputs."""
    if isinstance(entry, dict):
        return tuple(_plain(entry.get(k)) for k in SOURCE_FIELDS)  # type: ignore[return-value]
    return _plain(entry), "", ""


def _plain(value: Any) -> str:
    return "" if value is None else str(value)


def build_source(
    base: Any, resource: str, title: str, source_id: str
) -> tuple[dict[str, Any] | None, str | None]:
    """A ``sources`` entry from three inputs, keeping the other keys of ``base``.

    ``base`` is the entry as it was (``None`` for a new one); its other keys (``author``,
    ``usage_count``, ``last_modified``, ...) stay, in their order. ``resource`` is
    required; an empty title or id removes that key.
    """
    entry: dict[str, Any] = dict(base) if isinstance(base, dict) else {}
    for key, text in zip(SOURCE_FIELDS, (resource, title, source_id), strict=True):
        value = text.strip()
        error = control_error(value)
        if error:
            return None, f"{key} {error}"
        if value:
            entry[key] = value
        else:
            entry.pop(key, None)
    if "resource" not in entry:
        return None, "a source needs a resource: a URL or a path in the package"
    return entry, None


def duplicate_ids(entries: list[Any]) -> dict[int, str]:
    """Position -> error for each entry repeating an earlier entry's ``id``."""
    seen: dict[str, int] = {}
    errors = {}
    for i, entry in enumerate(entries):
        if isinstance(entry, dict) and entry.get("id") not in (None, ""):
            key = str(entry["id"])
            if key in seen:
                errors[i] = f"id {key!r} is already used by source {seen[key] + 1}"
            else:
                seen[key] = i
    return errors


# --- any other field: one line of YAML -----------------------------------------------------


# The dumper the patches write with: timestamps plain as written, ``{by: human:ana}``
# unquoted, no anchors; so the one-line editor shows a value as a patch would write it.
class _FlowDumper(yaml_patch._Dumper):
    """Multi-line text in double quotes (``"a\\nb"``), never a block: one line it is."""


_FlowDumper.add_representer(
    str,
    lambda dumper, value: dumper.represent_scalar(
        "tag:yaml.org,2002:str", value, style='"' if "\n" in value else None
    ),
)


def format_yaml_value(value: Any) -> str:
    """``value`` as one line of YAML (flow style), the way the one-line editor shows it."""
    if value is None:
        return ""
    text = yaml.dump(
        value,
        Dumper=_FlowDumper,
        default_flow_style=True,
        width=1 << 30,
        allow_unicode=True,
        sort_keys=False,
    )
    text = text.rstrip("\n")
    return text[: -len("\n...")] if text.endswith("\n...") else text


def parse_yaml_value(text: str) -> tuple[Any, str | None]:
    """One line of YAML (``team:sre``, ``[a, b]``, ``{by: x}``): its value, or the error.

    Empty text is ``null``. Values are loaded safely (no tags that build objects), kept
    as the project loads frontmatter (timestamps stay text), and must be writable back:
    string keys, no control characters.
    """
    if not text.strip(" \t"):  # YAML's own blanks: a lone no-break space is a value
        return None, None
    try:
        value = fm.load_yaml(text)
    except FormatError as exc:
        message = exc.message.removeprefix("invalid YAML: ")
        return None, f"not valid YAML: {message}"
    try:
        yaml_patch.normalize(value)
    except EditError as exc:
        return None, exc.message.removeprefix("value: ")
    return value, None


# --- history ------------------------------------------------------------------------------


def history(meta: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(what, who, when)`` rows from ``generated`` and ``verified``, oldest first."""
    rows = []
    generated = meta.get("generated")
    if isinstance(generated, dict):
        rows.append(("generated", _plain(generated.get("by")), _plain(generated.get("at"))))
    elif generated is not None:
        rows.append(("generated", format_yaml_value(generated), ""))
    verified = meta.get("verified")
    if isinstance(verified, dict):
        verified = [verified]
    if isinstance(verified, list):
        for entry in verified:
            if isinstance(entry, dict):
                rows.append(("verified", _plain(entry.get("by")), _plain(entry.get("at"))))
            else:
                rows.append(("verified", format_yaml_value(entry), ""))
    elif verified is not None:
        rows.append(("verified", format_yaml_value(verified), ""))
    return rows


# --- keys and whole blocks ------------------------------------------------------------------

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")


def check_key(key: str, existing: Iterable[str]) -> str | None:
    """An error for a new field name, or ``None`` when it can be added."""
    key = key.strip()
    if not key:
        return "name the field"
    if not _KEY.fullmatch(key):
        return "a field name is a letter or _ then letters, digits, _ . or - (at most 64)"
    if key in set(existing) or key in KNOWN_FIELDS:
        return f"{key} is already a field of this document"
    return None


def apply_changes(yaml_text: str, changes: Iterable[tuple[str, Any]]) -> str:
    """``yaml_text`` with each ``(key, value)`` set (or removed for :data:`REMOVE`).

    The same byte-minimal patches ``kas_tui.core.editing`` writes, done on text in memory:
    what the YAML editor shows for the form, and a check that every change can be
    written before any is. Raises :class:`EditError` naming the key that cannot.
    """
    nl = newline_of(yaml_text) if "\n" in yaml_text else "\n"
    if yaml_text and not yaml_text.endswith("\n"):
        yaml_text += nl
    text = f"---{nl}{yaml_text}---{nl}"
    for key, value in changes:
        try:
            if value is REMOVE:
                text = yaml_patch.remove_field(text, key)
            else:
                text = yaml_patch.set_field(text, key, value)
        except EditError as exc:
            raise EditError(exc.message, path=key) from None
    block = fm.find_block(text)
    assert block is not None
    return text[block.yaml_start : block.yaml_end]


def frontmatter_text(text: str) -> str | None:
    """The YAML between a document's ``---`` lines, or ``None`` without a block."""
    block = fm.find_block(text)
    return None if block is None else text[block.yaml_start : block.yaml_end]


def parse_block(yaml_text: str) -> tuple[dict[str, Any] | None, str | None, int | None]:
    """``(mapping, error, line)`` for the YAML of a frontmatter block (raw editing).

    Lines count from the first line of ``yaml_text``.
    """
    try:
        data = fm.load_yaml(yaml_text, first_line=1)
    except FormatError as exc:
        hint = f" ({exc.hint})" if exc.hint else ""
        return None, f"{exc.message}{hint}", exc.line
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return None, "the frontmatter must be a YAML mapping (key: value lines)", 1
    for key in data:
        if not isinstance(key, str):
            return None, f"the key {key!r} is not text; quote it", None
    return data, None, None


def check_meta(meta: dict[str, Any]) -> dict[str, str]:
    """Key -> error for the form's fields that hold a value the form would refuse."""
    errors = {key: field_schema.required_error(key) for key in field_schema.missing(meta)}
    checks = {
        "status": lambda v: parse_status(v)[1],
        "stale_after": lambda v: parse_timestamp(str(v))[1] if v is not None else None,
    }
    for key in field_schema.required_keys():  # present (else missing): text to check
        if key not in errors and (error := parse_field(key, meta[key])[1]):
            errors[key] = error
    for key, check in checks.items():
        if key in meta and key not in errors and (error := check(meta[key])):
            errors[key] = error
    tags = meta.get("tags")
    if tags is not None and not (
        isinstance(tags, list) and all(isinstance(t, str) and not control_error(t) for t in tags)
    ):
        errors["tags"] = "tags must be a list of short strings"
    return errors
