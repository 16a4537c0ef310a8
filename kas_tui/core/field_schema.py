"""The one field schema: what each frontmatter field is, whether it is required, what
values it takes (OKF v0.2 §4, §5).

The loader (a missing required field is a problem on the file), the document rules (a
value the field does not take is a finding), the form (a field it marks and refuses) and
bulk edit (a field it will not remove or set to a wrong value) all ask here, so a field's
rule is written once. Functions read :data:`FIELDS` when they are called: a package's own
rules can extend it without any of its readers changing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kas_tui.core.okf.lifecycle import STATUSES


@dataclass(frozen=True)
class Field:
    """One frontmatter field."""

    key: str
    #: What its value is: ``text`` (one line), ``tags`` (a list of strings), ``choice``
    #: (one of :attr:`values`), ``timestamp``, ``sources``, ``verified`` or ``actor``.
    kind: str
    #: What the field is for, in a few words (shown in the form and in messages).
    what: str
    required: bool = False
    #: The values a ``choice`` takes, in the order they are offered.
    values: tuple[str, ...] = ()
    #: An example line for a message that asks for the field ("type: Reference").
    example: str = ""
    #: Values to name when the field is asked for ("Runbook, Policy, Reference").
    examples: str = ""
    #: Whose rule makes it required (said in messages).
    required_by: str = "OKF"


FIELDS: dict[str, Field] = {
    f.key: f
    for f in (
        Field(
            "type",
            "text",
            "the kind of concept consumers route on",
            required=True,
            example="type: Reference",
            examples="Runbook, Policy, Reference",
        ),
        Field("title", "text", "the name the index entry and the tree show"),
        Field("description", "text", "one sentence an agent chooses by"),
        Field("tags", "tags", "short words to find the document by"),
        Field("status", "choice", "draft, stable or deprecated", values=tuple(STATUSES)),
        Field("resource", "text", "what the concept is about, as a URI"),
        Field("stale_after", "timestamp", "when the content needs review"),
        Field("generated", "actor", "who or what produced it, and when"),
        Field("verified", "verified", "who checked it, and when"),
        Field("sources", "sources", "what it was written from"),
    )
}


def field(key: str) -> Field | None:
    """The schema's field ``key``, or ``None`` for a key it does not define."""
    return FIELDS.get(key)


def required_keys() -> tuple[str, ...]:
    """The keys every concept document must hold, in the schema's order."""
    return tuple(f.key for f in FIELDS.values() if f.required)


def is_required(key: str) -> bool:
    spec = FIELDS.get(key)
    return spec is not None and spec.required


def allowed_values(key: str) -> tuple[str, ...]:
    """The values a ``choice`` field takes (empty for any other field)."""
    spec = FIELDS.get(key)
    return spec.values if spec is not None else ()


def no_value(value: Any) -> bool:
    """Whether a field holds nothing: absent (``None``), blank text, an empty list or
    mapping (``owner:``, ``owner: ''``, ``tags: []``)."""
    if isinstance(value, str):
        return not value.strip()
    return value is None or (isinstance(value, (list, dict)) and not value)


def missing(meta: Mapping[str, Any]) -> list[str]:
    """The required keys ``meta`` lacks, or holds as no value (``type:``, ``type: ''``);
    a required text field also when its value is no text (``type: 5``, ``type: [a]``)."""
    found = []
    for key in required_keys():
        value = meta.get(key)
        if no_value(value) or (FIELDS[key].kind == "text" and not isinstance(value, str)):
            found.append(key)
    return found


def missing_message(key: str) -> tuple[str, str]:
    """The message and the hint for a document without the required ``key``."""
    spec = FIELDS[key]
    example = spec.example or f"{key}: ..."
    return (
        f"missing {key!r}: every concept needs a non-empty {key}",
        f"add a line such as {example!r} to the frontmatter",
    )


def required_error(key: str) -> str:
    """What a form or a bulk edit says of a required field left empty or removed."""
    spec = FIELDS[key]
    like = f": a word like {spec.examples}" if spec.examples else ""
    return f"{key} is required by {spec.required_by}{like}"


def value_error(key: str, value: Any) -> str | None:
    """What is wrong with ``value`` as field ``key`` by its kind and values, or ``None``
    (``None`` too for a key the schema does not define: any value goes)."""
    spec = FIELDS.get(key)
    if spec is None or value is None:
        return None
    if spec.kind == "choice" and spec.values and value not in spec.values:
        return f"{key} must be one of {', '.join(spec.values)}, not {value!r}"
    if spec.kind == "tags":
        if isinstance(value, str):
            return f"{key} is the string {value!r}, not a list"
        if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
            return f"{key} must be a list of strings"
    if spec.kind == "text" and not isinstance(value, str):
        return f"{key} must be text"
    return None
