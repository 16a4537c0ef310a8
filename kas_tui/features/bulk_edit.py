"""Bulk editing: pick documents by filter, then change one field or tag on all of them.

Headless. A :class:`Filter` selects documents by type, tag, status, trust tier,
staleness and a text over title and path; an operation (:class:`SetField`,
:class:`RemoveField`, :class:`AddTag`, :class:`RemoveTag`) changes one document through
the lossless editing API (``kas_tui.core.editing``); :func:`plan` turns an operation over many
documents into one edit for an :class:`~kas_tui.core.edit_session.EditSession` (one undoable action),
and :func:`preview` computes every file's diff first without writing anything.

Values typed as text are read the way YAML reads a scalar (``12`` is a number,
``2027-03-01`` a timestamp kept as written, ``[a, b]`` a list), except the keys whose
shape OKF fixes: ``type``, ``title``, ``description``... take the text as it is.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kas_tui.core import editing, field_schema
from kas_tui.core.fileio import Fingerprint
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.frontmatter import load_yaml
from kas_tui.core.okf.lifecycle import TrustTier, timestamp_problem
from kas_tui.core.okf.text import control_chars
from kas_tui.core.okf.timestamp import Timestamp
from kas_tui.core.okf.yaml_patch import same_value
from kas_tui.core.package import Package
from kas_tui.core.records import Document
from kas_tui.core.store import Change, StoreError

#: Trust tiers in the order a curator thinks of them.
TRUST_TIERS = tuple(reversed(TrustTier))
#: Staleness states (``Staleness.state``) and how the UI names them.
STALENESS = {
    "fresh": "fresh",
    "stale": "stale",
    "none": "no stale_after",
    "invalid": "stale_after not a date",
}
#: Keys whose value is text, whatever it looks like (``title: 2026`` stays a string).
TEXT_KEYS = frozenset({"type", "title", "description", "resource"})
#: Keys a bulk edit must not set: provenance is recorded per document, tags have their ops.
NOT_SETTABLE = {
    "tags": "use add tag or remove tag to change tags",
    "verified": "verification is recorded per document (V on the document)",
    "generated": "generated records who produced each document; edit it per document",
    "sources": "sources belong to each document; edit them per document",
}

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


class BulkError(ValueError):
    """An operation that cannot be run as given; ``message`` says why, for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- filtering -------------------------------------------------------------------------


@dataclass(frozen=True)
class Filter:
    """Which documents to show. ``None`` (or ``""`` for ``text``) means any.

    ``staleness`` is a :class:`~kas_tui.core.package.Staleness` state (fresh, stale, none,
    invalid); ``tag`` compares without case; ``text`` is words that must all occur in
    the title or the path (without case).
    """

    type: str | None = None
    tag: str | None = None
    status: str | None = None
    trust: str | None = None
    staleness: str | None = None
    text: str = ""

    @property
    def active(self) -> bool:
        return bool(
            self.type or self.tag or self.status or self.trust or self.staleness or self.words
        )

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.text.casefold().split())

    def matches(self, doc: Document, today: dt.date) -> bool:
        if self.type is not None and doc.type != self.type:
            return False
        if self.status is not None and doc.status != self.status:
            return False
        if self.tag:
            wanted = self.tag.strip().casefold()
            if not any(t.strip().casefold() == wanted for t in doc.tags):
                return False
        if self.trust is not None and doc.trust_tier != self.trust:
            return False
        if self.staleness is not None and doc.staleness(today).state != self.staleness:
            return False
        words = self.words
        if words:
            hay = f"{doc.title}\n{doc.path}".casefold()
            if not all(w in hay for w in words):
                return False
        return True


def filter_documents(package: Package, filter: Filter, today: dt.date) -> list[Document]:
    """The documents ``filter`` matches, sorted by path."""
    docs = package.documents
    return [docs[p] for p in sorted(docs) if filter.matches(docs[p], today)]


@dataclass(frozen=True)
class Choices:
    """What the package holds, for the filter menus: ``(value, count)`` pairs."""

    types: list[tuple[str, int]]
    tags: list[tuple[str, int]]
    statuses: list[tuple[str, int]]
    trust: list[tuple[str, int]]
    staleness: list[tuple[str, int]]
    keys: list[tuple[str, int]]


def choices(package: Package, today: dt.date) -> Choices:
    """Types, tags (most used first), statuses, trust tiers, staleness states and keys."""
    types: dict[str, int] = {}
    tags: dict[str, int] = {}
    statuses: dict[str, int] = {}
    trust: dict[str, int] = {}
    stale: dict[str, int] = {}
    keys: dict[str, int] = {}
    for doc in package.documents.values():
        types[doc.type] = types.get(doc.type, 0) + 1
        for tag in dict.fromkeys(doc.tags):
            tags[tag] = tags.get(tag, 0) + 1
        statuses[doc.status] = statuses.get(doc.status, 0) + 1
        trust[doc.trust_tier] = trust.get(doc.trust_tier, 0) + 1
        state = doc.staleness(today).state
        stale[state] = stale.get(state, 0) + 1
        for key in doc.meta:
            if isinstance(key, str):
                keys[key] = keys.get(key, 0) + 1

    def ordered(counts: dict[str, int], order: Iterable[str]) -> list[tuple[str, int]]:
        known = [(v, counts[v]) for v in order if v in counts]
        return known + sorted((v, n) for v, n in counts.items() if v not in set(order))

    return Choices(
        types=sorted(types.items(), key=lambda item: (item[0] == "", item[0].casefold())),
        tags=sorted(tags.items(), key=lambda item: (-item[1], item[0].casefold())),
        statuses=ordered(statuses, field_schema.allowed_values("status")),
        trust=ordered(trust, TRUST_TIERS),
        staleness=ordered(stale, STALENESS),
        keys=sorted(keys.items(), key=lambda item: (-item[1], item[0])),
    )


# --- values ----------------------------------------------------------------------------


def check_text(text: str, what: str) -> None:
    """Refuse control characters (pasted terminal escapes, NULs) and line breaks."""
    if "\n" in text or "\r" in text:
        raise BulkError(f"{what}: one line only (no line breaks)")
    bad = control_chars(text) + [c for c in text if c == "\t"]
    if bad:
        shown = ", ".join(sorted({repr(c) for c in bad})[:3])
        hint = " (a terminal escape sequence?)" if "\x1b" in text else ""
        raise BulkError(f"{what}: contains control characters {shown}{hint}; remove them")


def check_key(key: str) -> str:
    """``key`` stripped, or :class:`BulkError` when it is not a plain frontmatter key."""
    key = key.strip()
    if not key:
        raise BulkError("give the field's key (e.g. status, owner, stale_after)")
    check_text(key, "key")
    if not _KEY.fullmatch(key):
        raise BulkError(
            f"{key!r} is not a plain YAML key: use letters, digits, _ . - "
            "and start with a letter or _"
        )
    return key


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)


def parse_value(key: str, text: str) -> Any:
    """The value the text ``text`` stands for as frontmatter ``key`` (YAML scalar typing).

    ``12`` is a number, ``true`` a boolean, ``2027-03-01`` a timestamp kept as written,
    ``[a, b]`` a list, ``"12"`` the string 12; an unquoted text YAML would read as
    something else (``a: b``, ``x # y``) is taken as written. OKF's text keys take the text
    as it is; ``status`` must be draft, stable or deprecated; ``stale_after`` a timestamp.
    """
    key = check_key(key)
    check_text(text, key)
    if key in NOT_SETTABLE:
        raise BulkError(f"{key} cannot be set in bulk: {NOT_SETTABLE[key]}")
    raw = text.strip()
    if not raw:
        if field_schema.is_required(key):
            raise BulkError(f"{key} cannot be empty: {field_schema.required_error(key)}")
        raise BulkError(f"give a value for {key} (to drop the field, use remove field)")
    if key in TEXT_KEYS:
        return raw
    if field_schema.allowed_values(key):
        if error := field_schema.value_error(key, raw):
            raise BulkError(error)
        return raw
    if key == "stale_after":
        if problem := timestamp_problem(raw):
            raise BulkError(f"stale_after is a date or a timestamp with its offset: {problem}")
        return Timestamp(raw)
    quoted = raw[0] in "\"'[{"
    try:
        value = load_yaml(raw)
    except FormatError as exc:
        if quoted:
            raise BulkError(f"{key}: {exc.message}") from None
        return raw
    plain_text = isinstance(value, (list, dict)) or (
        isinstance(value, str) and not isinstance(value, Timestamp)
    )
    if not quoted and plain_text:
        return raw  # YAML would drop "# comment" or read "a: b" as a map: keep what was typed
    for piece in _strings(value):
        check_text(piece, key)
    return value


# --- operations ------------------------------------------------------------------------


def _document(pkg: Package, rel: str) -> Document:
    doc = pkg.documents.get(rel)
    if doc is None:
        raise EditError("not a document of this package (moved or deleted?)", path=rel)
    if doc.broken:
        raise EditError("its frontmatter cannot be read; fix it by hand first", path=rel)
    return doc


def _tag_list(doc: Document) -> list[Any]:
    tags = doc.meta.get("tags")
    if tags is None:
        return []
    if isinstance(tags, str):
        return [tags]
    if isinstance(tags, list):
        return list(tags)
    raise EditError(f"tags is a {type(tags).__name__}, not a list; fix it by hand", path=doc.path)


@dataclass(frozen=True)
class SetField:
    """Set frontmatter ``key`` to ``value`` (already typed: see :func:`parse_value`)."""

    key: str
    value: Any

    @classmethod
    def parse(cls, key: str, text: str) -> SetField:
        return cls(check_key(key), parse_value(key, text))

    def check(self) -> None:
        key = check_key(self.key)
        if key in NOT_SETTABLE:
            raise BulkError(f"{key} cannot be set in bulk: {NOT_SETTABLE[key]}")
        if key == "type" and not (isinstance(self.value, str) and self.value.strip()):
            raise BulkError("type cannot be empty (OKF requires it)")
        if field_schema.allowed_values(key) and (
            error := field_schema.value_error(key, self.value)
        ):
            raise BulkError(error)
        if key == "stale_after" and (problem := timestamp_problem(self.value)):
            raise BulkError(f"stale_after is a date or a timestamp with its offset: {problem}")
        for piece in _strings(self.value):
            check_text(piece, key)

    def apply(self, pkg: Package, rel: str) -> Change | None:
        doc = _document(pkg, rel)
        if self.key in doc.meta and same_value(doc.meta[self.key], self.value):
            return None
        return editing.set_field(pkg, rel, self.key, self.value)

    def describe(self) -> str:
        return f"set {self.key} to {_shown(self.value)}"

    def log_message(self, count: int) -> str:
        return f"Bulk: set {self.key} to {_shown(self.value)} in {_documents(count)}."


@dataclass(frozen=True)
class RemoveField:
    """Remove frontmatter ``key`` (documents without it are left alone)."""

    key: str

    def check(self) -> None:
        key = check_key(self.key)
        if field_schema.is_required(key):
            raise BulkError(
                f"{key} cannot be removed: {field_schema.required_error(key)}; "
                f"set another {key} instead"
            )

    def apply(self, pkg: Package, rel: str) -> Change | None:
        doc = _document(pkg, rel)
        if self.key not in doc.meta:
            return None
        return editing.remove_field(pkg, rel, self.key)

    def describe(self) -> str:
        return f"remove {self.key}"

    def log_message(self, count: int) -> str:
        return f"Bulk: removed {self.key} from {_documents(count)}."


@dataclass(frozen=True)
class AddTag:
    """Append ``tag`` to ``tags`` (created when missing); documents holding it are left alone."""

    tag: str

    def check(self) -> None:
        _check_tag(self.tag)

    def apply(self, pkg: Package, rel: str) -> Change | None:
        doc = _document(pkg, rel)
        tags = _tag_list(doc)
        tag = self.tag.strip()
        if any(str(t) == tag for t in tags):
            return None
        return editing.set_field(pkg, rel, "tags", [*tags, tag])

    def describe(self) -> str:
        return f"add tag {self.tag.strip()}"

    def log_message(self, count: int) -> str:
        return f"Bulk: added tag {self.tag.strip()} to {_documents(count)}."


@dataclass(frozen=True)
class RemoveTag:
    """Remove ``tag`` from ``tags``; the last tag going removes the ``tags`` field."""

    tag: str

    def check(self) -> None:
        _check_tag(self.tag)

    def apply(self, pkg: Package, rel: str) -> Change | None:
        doc = _document(pkg, rel)
        tags = _tag_list(doc)
        tag = self.tag.strip()
        kept = [t for t in tags if str(t) != tag]
        if len(kept) == len(tags):
            return None
        if not kept:
            return editing.remove_field(pkg, rel, "tags")
        return editing.set_field(pkg, rel, "tags", kept)

    def describe(self) -> str:
        return f"remove tag {self.tag.strip()}"

    def log_message(self, count: int) -> str:
        return f"Bulk: removed tag {self.tag.strip()} from {_documents(count)}."


Operation = SetField | RemoveField | AddTag | RemoveTag


def _check_tag(tag: str) -> None:
    if not tag.strip():
        raise BulkError("give the tag")
    check_text(tag, "tag")


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value if len(value) <= 40 else value[:39] + "…"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _documents(count: int) -> str:
    return f"{count:,} document{'s' * (count != 1)}"


# --- the change as typed ----------------------------------------------------------------


def typed_operation(kind: str, key: str, value: str) -> Operation:
    """The change the curator typed (``kind``: ``add_tag``, ``remove_tag``, ``set_field``
    or ``remove_field``; the field ``key`` and the ``value`` as text), checked;
    :class:`BulkError` says what is wrong."""
    op: Operation
    if kind == "add_tag":
        op = AddTag(value.strip())
    elif kind == "remove_tag":
        op = RemoveTag(value.strip())
    elif kind == "set_field":
        op = SetField.parse(key, value)
    else:
        op = RemoveField(key.strip())
    op.check()
    return op


def still_missing(kind: str, key: str, value: str) -> str:
    """What the change still needs typed, if anything (a hint, not an error)."""
    key, value = key.strip(), value.strip()
    if kind in ("add_tag", "remove_tag") and not value:
        return f"Type the tag to {'add' if kind == 'add_tag' else 'remove'}."
    if kind in ("set_field", "remove_field") and not key:
        return f"Type the field to {'set' if kind == 'set_field' else 'remove'}."
    if kind == "set_field" and not value:
        return f"Type the value to give {key}."
    return ""


def suggested_values(package: Package, key: str, found: Choices | None = None) -> list[str]:
    """Values to offer for field ``key``: the statuses, the package's types (from
    ``found``), else up to 50 plain values the documents give it."""
    key = key.strip()
    if allowed := field_schema.allowed_values(key):
        return list(allowed)
    if key == "type":
        return [t for t, _ in found.types if t] if found is not None else []
    if not key:
        return []
    seen: dict[str, None] = {}
    for doc in package.documents.values():
        value = doc.meta.get(key)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            seen[str(value)] = None
        if len(seen) >= 50:
            break
    return sorted(seen)


# --- planning --------------------------------------------------------------------------


Edit = Callable[[Package], list[Change | None]]


def plan(package: Package, paths: Iterable[str], operation: Operation) -> Edit:
    """One edit applying ``operation`` to every document of ``paths`` (in the order given).

    The operation is checked now (:class:`BulkError`); the edit raises EditError or
    StoreError naming the file that cannot be changed, as any edit does.
    """
    operation.check()
    targets = list(dict.fromkeys(paths))
    missing = [rel for rel in targets if rel not in package.documents]
    if missing:
        raise BulkError(f"not documents of this package: {', '.join(missing[:3])}")

    def edit(pkg: Package) -> list[Change | None]:
        return [operation.apply(pkg, rel) for rel in targets]

    return edit


@dataclass
class Preview:
    """What a bulk edit would do, file by file: nothing has been written."""

    diffs: dict[str, str] = field(default_factory=dict)  # path -> its unified diff
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # path -> (+, -) lines
    unchanged: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # path -> why it cannot change
    #: each changed file as the preview read it: writing it is based on that (a file
    #: changed on disk after the preview is a conflict, not overwritten)
    bases: dict[str, Fingerprint] = field(default_factory=dict)

    @property
    def changed(self) -> list[str]:
        return list(self.diffs)

    @property
    def diff(self) -> str:
        """Every file's diff, one after the other."""
        return "".join(self.diffs.values())


def preview(
    package: Package,
    paths: Iterable[str],
    operation: Operation,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Preview:
    """Each document's diff under ``operation``, computed with ``editing.preview_files``
    (no write), and its lines added and removed.

    A document that cannot be changed (unreadable frontmatter, moved) is ``refused`` with
    the reason rather than stopping the rest. ``progress(done, total)`` hears each file.
    """
    operation.check()
    targets = list(dict.fromkeys(paths))
    out = Preview()
    for done, rel in enumerate(targets, start=1):
        try:
            pending = editing.preview_files(package, lambda pkg, rel=rel: operation.apply(pkg, rel))
        except (EditError, StoreError, OSError) as exc:
            out.refused[rel] = getattr(exc, "message", None) or str(exc)
        else:
            if pending:
                out.diffs[rel] = "".join(f.diff for f in pending)
                counted = [f.counts for f in pending]
                out.counts[rel] = (sum(a for a, _ in counted), sum(r for _, r in counted))
                if (base := package.fingerprint(rel)) is not None:
                    out.bases[rel] = base
            else:
                out.unchanged.append(rel)
        if progress is not None:
            progress(done, len(targets))
    return out
