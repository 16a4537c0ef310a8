"""The package's own rules (``.kas-tui.yaml``, :mod:`kas_tui.core.house_rules`), checked.

One finding per document and rule, in the ``PRF`` family, run in either profile when the
package declares rules: warnings, or errors when the file says ``enforce: true``. Each
finding's fix names the line of ``.kas-tui.yaml`` the rule comes from, so a curator who
disagrees knows where to change the rule rather than the document.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from kas_tui.core.field_schema import no_value
from kas_tui.core.house_rules import HOUSE_RULES_FILE, HouseRules
from kas_tui.core.okf.lifecycle import parse_timestamp
from kas_tui.features.check.findings import Finding, Rule

if TYPE_CHECKING:
    from kas_tui.core.records import Document

HOUSE = "house rules"

HOUSE_RULES: tuple[Rule, ...] = (
    Rule(
        "PRF000",
        "error",
        HOUSE,
        "The package's rules file cannot be used",
        f"{HOUSE_RULES_FILE} is malformed YAML, has a key kas-tui does not know, a value of "
        "the wrong kind, or requires a field neither OKF nor the file declares. Its rules "
        "are not checked until it is fixed (kas-tui check exits 2 on it).",
        "Fix the line the message names, as it says.",
    ),
    Rule(
        "PRF001",
        "warning",
        HOUSE,
        "A field the package requires is missing",
        f"The package's {HOUSE_RULES_FILE} requires the field of every document (fields: "
        "KEY: {required: true}) or of every document of its type (by_type: TYPE: "
        "{required: [...]}).",
        "Add the field to the document's frontmatter, or change the rule.",
    ),
    Rule(
        "PRF002",
        "warning",
        HOUSE,
        "A value is not in the package's vocabulary",
        f"The package's {HOUSE_RULES_FILE} lists the values a field may take (fields: KEY: "
        "{values: [...]}): each tag of 'tags', or the one value of any other field.",
        "Use one of the listed values, or add the value to the list.",
    ),
    Rule(
        "PRF003",
        "warning",
        HOUSE,
        "A type the package does not allow",
        f"The package's {HOUSE_RULES_FILE} lists the types its documents may have (types: "
        "[...]); agents and tools route on a fixed set.",
        "Give the document one of the allowed types, or add its type to the list.",
    ),
    Rule(
        "PRF004",
        "warning",
        HOUSE,
        "A description longer than the package allows",
        f"The package's {HOUSE_RULES_FILE} caps descriptions (description: {{max_chars: N}}), "
        "stricter than the usual 200 characters of one index line.",
        "Shorten the description to one sentence within the limit.",
    ),
    Rule(
        "PRF005",
        "warning",
        HOUSE,
        "Not reviewed as often as its type asks",
        f"The package's {HOUSE_RULES_FILE} asks documents of a type to be reviewed every N "
        "days (by_type: TYPE: {freshness_days: N}): the latest 'verified' (or, never "
        "verified, 'generated') is older, and no 'stale_after' says when to look again.",
        "Review the document and mark it verified (V in the TUI), or set stale_after.",
    ),
)


BY_RULE = {rule.code: rule for rule in HOUSE_RULES}


def check_house_rules(checker: Any, rules: HouseRules) -> None:
    """Emit the findings of ``rules`` over every concept document of the package the
    ``checker`` (the engine's ``Checker``: its package, day, wanted codes, key lines and
    findings) checks."""
    severity = "error" if rules.enforce else "warning"
    for doc in checker.pkg.documents.values():
        if doc.has_frontmatter:
            for code, key, message, line in _broken(doc, rules, checker.today):
                if checker.wants(code):
                    where = checker.key_line(doc.path, key) if key else None
                    said = f"{message} ({HOUSE_RULES_FILE}:{line})"
                    checker.findings.append(
                        Finding(code, severity, doc.path, where or 1, said, BY_RULE[code].fix)
                    )


def _broken(
    doc: Document, rules: HouseRules, today: dt.date
) -> list[tuple[str, str | None, str, int]]:
    """``(code, frontmatter key, message, rule line)`` of each rule ``doc`` breaks."""
    meta = doc.meta
    found: list[tuple[str, str | None, str, int]] = []
    doc_type = meta.get("type") if isinstance(meta.get("type"), str) else ""
    for key, line in rules.required_for(doc_type):
        if no_value(meta.get(key)):
            whose = "every document" if _for_all(rules, key) else f"every {doc_type}"
            found.append(("PRF001", None, f"no {key!r}: the package requires it of {whose}", line))
    for key, rule in rules.fields.items():
        if not rule.values or no_value(meta.get(key)):
            continue
        given = meta.get(key)
        values = given if isinstance(given, list) else [given]
        outside = [str(v) for v in values if str(v) not in rule.values]
        if outside:
            said = ", ".join(repr(v) for v in outside)
            found.append(
                (
                    "PRF002",
                    key,
                    f"{key} {said} not in the package's list ({', '.join(rule.values)})",
                    rule.line,
                )
            )
    if rules.types and doc_type and doc_type not in rules.types:
        allowed = ", ".join(rules.types)
        found.append(
            (
                "PRF003",
                "type",
                f"type {doc_type!r} is not one the package allows ({allowed})",
                rules.types_line,
            )
        )
    description = meta.get("description")
    if (
        rules.max_chars
        and isinstance(description, str)
        and len(description.strip()) > rules.max_chars
    ):
        found.append(
            (
                "PRF004",
                "description",
                f"description has {len(description.strip())} characters; the package allows {rules.max_chars}",
                rules.max_chars_line,
            )
        )
    rule = rules.type_rule(doc_type)
    if rule is not None and rule.freshness_days and "stale_after" not in meta:
        last = _last_review(meta)
        if last is None or (today - last).days > rule.freshness_days:
            since = "never reviewed" if last is None else f"last reviewed {last.isoformat()}"
            found.append(
                (
                    "PRF005",
                    "verified" if "verified" in meta else None,
                    f"{since}: a {rule.type} is reviewed every {rule.freshness_days} days",
                    rule.line,
                )
            )
    return found


def _for_all(rules: HouseRules, key: str) -> bool:
    rule = rules.fields.get(key)
    return rule is not None and rule.required


def _day(at: Any) -> dt.date | None:
    when = parse_timestamp(at).when if at is not None else None
    return when.date() if when is not None else None


def _last_review(meta: dict[str, Any]) -> dt.date | None:
    """The day the document was last verified, else generated, else ``None``."""
    verified = meta.get("verified")
    items = verified if isinstance(verified, list) else [verified]
    days = [d for i in items if isinstance(i, dict) and (d := _day(i.get("at"))) is not None]
    if not days:
        generated = meta.get("generated")
        day = _day(generated.get("at")) if isinstance(generated, dict) else None
        days = [day] if day is not None else []
    return max(days) if days else None
