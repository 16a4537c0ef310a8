"""House rules a package declares for itself: ``.kas-tui.yaml`` at its root.

A team keeps its own rules on top of OKF: every runbook has an owner and a verified
date, tags come from a fixed vocabulary, policies go stale after 180 days, descriptions
stay under 160 characters. The package states them in one hidden file (never a
document, never copied by ``install``)::

    profile:
      enforce: false                                 # true: findings are errors
      fields:
        owner: {required: true}                      # every document
        tags: {values: [billing, on-call, security]} # a vocabulary
      types: [Runbook, Policy, FAQ, Procedure]       # allowed types
      by_type:
        Runbook: {required: [verified, stale_after], freshness_days: 90}
        Policy: {freshness_days: 180}
      description: {max_chars: 160}

:func:`read_house_rules` reads it into :class:`HouseRules`, every rule with the line of
the file it comes from, or raises :class:`HouseRulesError` naming the file, the line
and what to write: malformed YAML, an unknown key, a value of the wrong kind, a field
``by_type`` requires that is neither an OKF field nor one ``fields`` declares. The
checker (``features/check/house_rules.py``) enforces the rules; the form and ``S`` ask
them too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kas_tui.core.field_schema import FIELDS
from kas_tui.core.fileio import read_regular

#: The file, at the package root.
HOUSE_RULES_FILE = ".kas-tui.yaml"


class HouseRulesError(Exception):
    """A ``.kas-tui.yaml`` that cannot be used: where and what to write instead."""

    def __init__(self, line: int | None, message: str) -> None:
        where = f"{HOUSE_RULES_FILE}, line {line}" if line else HOUSE_RULES_FILE
        super().__init__(f"{where}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class FieldRule:
    """What the profile says of one field: ``required`` of every document, and the
    ``values`` it may take (a vocabulary: each tag of ``tags``, or the one value)."""

    key: str
    line: int
    required: bool = False
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class TypeRule:
    """What the profile says of documents of one type."""

    type: str
    line: int
    required: tuple[str, ...] = ()
    freshness_days: int | None = None


@dataclass
class HouseRules:
    """A package's declared rules, each with its line in :data:`HOUSE_RULES_FILE`."""

    enforce: bool = False
    fields: dict[str, FieldRule] = field(default_factory=dict)
    types: tuple[str, ...] = ()
    types_line: int = 0
    by_type: dict[str, TypeRule] = field(default_factory=dict)
    max_chars: int | None = None
    max_chars_line: int = 0
    #: The file's bytes, for what caches a check (the memo) to notice a change.
    digest: str = ""

    def required_for(self, doc_type: str) -> list[tuple[str, int]]:
        """The fields a document of ``doc_type`` must hold, each with its rule's line."""
        found = [(key, rule.line) for key, rule in self.fields.items() if rule.required]
        rule = self.type_rule(doc_type)
        if rule is not None:
            found += [(key, rule.line) for key in rule.required if key not in dict(found)]
        return found

    def type_rule(self, doc_type: str) -> TypeRule | None:
        """The rule for ``doc_type``, the type's case ignored (``runbook`` is ``Runbook``)."""
        wanted = doc_type.strip().casefold()
        return next((r for t, r in self.by_type.items() if t.casefold() == wanted), None)

    def required_notes(self, doc_type: str) -> dict[str, str]:
        """Field -> what a form says of it: required by the package, and where."""
        return {
            key: f"required by this package ({HOUSE_RULES_FILE}, line {line})"
            for key, line in self.required_for(doc_type)
        }

    def allowed_first(self, types: list[str], tags: list[str]) -> tuple[list[str], list[str]]:
        """``types`` and ``tags`` to offer, what the package allows first."""
        vocabulary = self.vocabulary("tags")
        return (
            [*self.types, *(t for t in types if t not in self.types)],
            [*vocabulary, *(t for t in tags if t not in vocabulary)],
        )

    def vocabulary(self, key: str) -> tuple[str, ...]:
        rule = self.fields.get(key)
        return rule.values if rule is not None else ()

    def freshness_days(self, doc_type: str) -> int | None:
        rule = self.type_rule(doc_type)
        return rule.freshness_days if rule is not None else None


class RulesFile:
    """The rules file of the package at ``root``, read again when it changes."""

    def __init__(self, root: Path | str) -> None:
        self.root = root
        self._seen: tuple[tuple[int, int] | None, HouseRules | None] | None = None

    def current(self) -> HouseRules | None:
        """The rules as the file holds them now (``None``: no file). Raises
        :class:`HouseRulesError` for a file that cannot be used."""
        try:
            st = os.stat(os.path.join(self.root, HOUSE_RULES_FILE))
            key: tuple[int, int] | None = (st.st_size, st.st_mtime_ns)
        except OSError:
            key = None
        if self._seen is None or self._seen[0] != key:
            self._seen = (key, read_house_rules(self.root) if key is not None else None)
        return self._seen[1]


# --- reading -----------------------------------------------------------------------------

_TOP = {"profile"}
_PROFILE = {"enforce", "fields", "types", "by_type", "description"}
_FIELD = {"required", "values"}
_TYPE = {"required", "freshness_days"}
_DESCRIPTION = {"max_chars"}


def read_house_rules(root: Path | str) -> HouseRules | None:
    """The rules of the package at ``root``; ``None`` when it declares none. Raises
    :class:`HouseRulesError` for a file that cannot be used."""
    import hashlib

    path = os.path.join(root, HOUSE_RULES_FILE)
    if not os.path.lexists(path):
        return None
    try:
        data = read_regular(path)
    except OSError as exc:
        raise HouseRulesError(None, f"cannot be read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise HouseRulesError(None, "not UTF-8 text: save it as UTF-8") from None
    rules = parse_house_rules(text)
    rules.digest = hashlib.blake2b(data, digest_size=12).hexdigest()
    return rules


def parse_house_rules(text: str) -> HouseRules:
    """The rules ``text`` declares (see the module docstring for the shape)."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise HouseRulesError(
            mark.line + 1 if mark else None, f"not valid YAML ({problem}); fix the line"
        ) from None
    rules = HouseRules()
    if node is None:
        return rules
    top = _mapping(node, "the file", _TOP, "profile:")
    profile = top.get("profile")
    if profile is None:
        return rules
    body = _mapping(profile, "profile", _PROFILE, "fields:, types:, by_type:, description:")
    if "enforce" in body:
        rules.enforce = _boolean(body["enforce"], "enforce")
    if "fields" in body:
        for key, spec in _mapping(
            body["fields"], "fields", None, "owner: {required: true}"
        ).items():
            rules.fields[key] = _field_rule(key, spec)
    if "types" in body:
        rules.types = _strings(body["types"], "types", "[Runbook, Policy]")
        rules.types_line = _line(body["types"])
    if "by_type" in body:
        known = set(FIELDS) | set(rules.fields)
        for name, spec in _mapping(body["by_type"], "by_type", None, "Runbook: {...}").items():
            rules.by_type[name] = _type_rule(name, spec, known)
    if "description" in body:
        spec = _mapping(body["description"], "description", _DESCRIPTION, "max_chars: 160")
        if "max_chars" in spec:
            rules.max_chars = _whole(spec["max_chars"], "description.max_chars")
            rules.max_chars_line = _line(spec["max_chars"])
    return rules


def _line(node: Any) -> int:
    return node.start_mark.line + 1


def _mapping(node: Any, what: str, keys: set[str] | None, example: str) -> dict[str, Any]:
    import yaml

    if not isinstance(node, yaml.MappingNode):
        raise HouseRulesError(_line(node), f"{what} must be a mapping, like {example}")
    out: dict[str, Any] = {}
    for key_node, value in node.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if not isinstance(key, str) or not key:
            raise HouseRulesError(_line(key_node), f"a key of {what} must be a name")
        if keys is not None and key not in keys:
            said = ", ".join(sorted(keys))
            raise HouseRulesError(
                _line(key_node), f"unknown key {key!r} in {what}; the keys are {said}"
            )
        if key in out:
            raise HouseRulesError(_line(key_node), f"{key!r} is written twice in {what}")
        out[key] = value
    return out


def _value(node: Any) -> Any:
    import yaml

    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def _boolean(node: Any, what: str) -> bool:
    value = _value(node)
    if not isinstance(value, bool):
        raise HouseRulesError(_line(node), f"{what} must be true or false")
    return value


def _whole(node: Any, what: str) -> int:
    value = _value(node)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise HouseRulesError(_line(node), f"{what} must be a whole number above 0, like 160")
    return value


def _strings(node: Any, what: str, example: str) -> tuple[str, ...]:
    value = _value(node)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise HouseRulesError(_line(node), f"{what} must be a list of names, like {example}")
    return tuple(v.strip() for v in value)


def _field_rule(key: str, node: Any) -> FieldRule:
    spec = _mapping(node, f"fields.{key}", _FIELD, "{required: true}")
    required = _boolean(spec["required"], f"fields.{key}.required") if "required" in spec else False
    values: tuple[str, ...] = ()
    if "values" in spec:
        values = _strings(spec["values"], f"fields.{key}.values", "[billing, security]")
    return FieldRule(key, _line(node), required, values)


def _type_rule(name: str, node: Any, known: set[str]) -> TypeRule:
    spec = _mapping(node, f"by_type.{name}", _TYPE, "{required: [owner], freshness_days: 90}")
    required: tuple[str, ...] = ()
    if "required" in spec:
        required = _strings(spec["required"], f"by_type.{name}.required", "[verified]")
        for key in required:
            if key not in known:
                raise HouseRulesError(
                    _line(spec["required"]),
                    f"by_type.{name} requires {key!r}, which is neither an OKF field nor one "
                    f"declared under fields: add '{key}: {{}}' under fields, or fix the name",
                )
    days = None
    if "freshness_days" in spec:
        days = _whole(spec["freshness_days"], f"by_type.{name}.freshness_days")
    return TypeRule(name, _line(node), required, days)


def as_mapping(rules: HouseRules) -> Mapping[str, Any]:
    """The rules as the YAML mapping they were read from (what ``profile init`` writes)."""
    profile: dict[str, Any] = {}
    if rules.enforce:
        profile["enforce"] = True
    if rules.fields:
        profile["fields"] = {
            key: {
                **({"required": True} if rule.required else {}),
                **({"values": list(rule.values)} if rule.values else {}),
            }
            for key, rule in rules.fields.items()
        }
    if rules.types:
        profile["types"] = list(rules.types)
    if rules.by_type:
        profile["by_type"] = {
            name: {
                **({"required": list(rule.required)} if rule.required else {}),
                **({"freshness_days": rule.freshness_days} if rule.freshness_days else {}),
            }
            for name, rule in rules.by_type.items()
        }
    if rules.max_chars:
        profile["description"] = {"max_chars": rules.max_chars}
    return {"profile": profile}
