"""SKILL.md against the Agent Skills specification, in the reference validator's words.

:func:`validate_skill` returns :class:`SkillProblem` values whose ``kind`` is a stable
name (see :data:`KINDS`) the caller maps to a rule code, and whose ``message`` is, for
every check the reference validator ``skills-ref`` (agentskills/agentskills,
``skills-ref/src/skills_ref/validator.py`` and ``parser.py``) also makes, its message
word for word, so a user can cross-check the two tools.

Checks run in the reference validator's order, and like it we stop at the first
problem of the file itself:

1. ``missing-file``; then, stopping there, ``no-frontmatter``, ``unclosed``,
   ``invalid-yaml`` (syntax, or a duplicate key) and ``not-mapping`` (a list, a
   scalar, or an empty block).
2. ``unexpected-fields`` (one problem naming every other key, sorted).
3. ``name``: ``missing-field``, or ``field-type`` (then no further name check), or
   each of ``name-too-long``, ``name-case``, ``name-hyphen-edge``,
   ``name-double-hyphen``, ``name-chars``, ``name-dir-mismatch`` that applies. The
   name is stripped and NFKC-normalised first; letters are Unicode letters
   (:meth:`str.isalnum`), so ``ñandú`` is a valid lowercase name.
4. ``description``: ``missing-field``, or ``field-type``, or ``description-too-long``.
5. ``compatibility`` (when present): ``field-type`` or ``compatibility-too-long``.
6. ``metadata`` (when present): ``metadata-type``, one per offending key (ours).
7. Body budget (ours): ``body-lines``, ``body-tokens``.

Where we differ from skills-ref
-------------------------------

Deliberately, so that valid files pass and the verdicts do not hinge on its bugs:

- **BOM accepted.** skills-ref reads a UTF-8 BOM as text, so the file no longer starts
  with ``---`` and "has no frontmatter". The caller decodes with
  :func:`kas_tui.core.okf.text.decode`, which drops the BOM; a stray ``\\ufeff`` is dropped
  here too.
- **Flow collections accepted.** skills-ref parses with strictyaml, which refuses flow
  lists (``allowed-tools: [Read, Write]``) and flow mappings, anchors/aliases and tags,
  although all are valid YAML. We parse with PyYAML's safe loader.
- **``---`` inside a value.** skills-ref splits the file on the first two ``---``
  anywhere, so ``description: a --- b`` (or a folded block holding an indented
  ``---``) is silently truncated. Our closing delimiter is a line that is exactly
  ``---`` (:func:`kas_tui.core.okf.frontmatter.find_block`); the opening line must be
  exactly ``---`` too (``---name: x`` has no frontmatter).
- **Resolved directory name.** ``skills-ref validate .`` compares the name with
  ``Path('.').name``, the empty string. We compare with ``Path(root).resolve().name``.
- **Body budget checks added**: over 500 lines or about 5,000 tokens (the
  specification's recommendations; skills-ref does not check the body).
- **YAML types count.** strictyaml reads every scalar as a string; PyYAML types them,
  so ``name: 123`` or ``description: true`` is reported as ``field-type`` ("must be a
  non-empty string"), and a ``metadata`` value such as ``version: 1.0`` as
  ``metadata-type`` (the specification says a map of string to string; skills-ref
  stringifies whatever it finds). An empty value (``compatibility:``,
  ``metadata:``) is read as strictyaml reads it, an empty string, and passes.
- **YAML error text.** Invalid YAML keeps the ``Invalid YAML in frontmatter:`` prefix,
  but the rest is PyYAML's one-line account, not strictyaml's multi-line one.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.skill import ALLOWED_KEYS
from kas_tui.core.okf.text import line_of, split_lines
from kas_tui.text.tokens import estimate_tokens

#: Every ``SkillProblem.kind``; stable, the caller maps them to rule codes.
KINDS = (
    "missing-file",
    "no-frontmatter",
    "unclosed",
    "not-mapping",
    "invalid-yaml",
    "unexpected-fields",
    "missing-field",
    "field-type",
    "name-too-long",
    "name-case",
    "name-hyphen-edge",
    "name-double-hyphen",
    "name-chars",
    "name-dir-mismatch",
    "description-too-long",
    "compatibility-too-long",
    "metadata-type",
    "body-lines",
    "body-tokens",
)

MAX_NAME_CHARS = 64
MAX_DESCRIPTION_CHARS = 1024
MAX_COMPATIBILITY_CHARS = 500
#: The specification's recommended SKILL.md body budget.
MAX_BODY_LINES = 500
MAX_BODY_TOKENS = 5_000

_YAML_PREFIX = "Invalid YAML in frontmatter: "


@dataclass(frozen=True)
class SkillProblem:
    """One problem of a SKILL.md: a stable ``kind``, a message, a 1-based file line.

    ``line`` is ``None`` only when the file is missing.
    """

    kind: str
    message: str
    line: int | None


def validate_skill(root: Path, text: str | None) -> list[SkillProblem]:
    """Check the SKILL.md of the package at ``root``.

    ``text`` is the file's decoded text (BOM stripped), or ``None`` when it is missing.
    Problems come in the order the checks run (see the module docstring).
    """
    if text is None:
        return [SkillProblem("missing-file", "Missing required file: SKILL.md", None)]
    if text.startswith("\ufeff"):
        text = text[1:]

    try:
        block = fm.find_block(text)
    except FormatError:
        return [SkillProblem("unclosed", "SKILL.md frontmatter not properly closed with ---", 1)]
    if block is None:
        return [
            SkillProblem("no-frontmatter", "SKILL.md must start with YAML frontmatter (---)", 1)
        ]

    first_line = line_of(text, block.yaml_start)
    yaml_text = text[block.yaml_start : block.yaml_end]
    try:
        node = fm.compose(yaml_text, first_line=first_line, loader=fm.MarkLoader)
        duplicate = _first_duplicate_key(node, first_line)
        if duplicate is not None:
            return [duplicate]
        data = fm.construct(node, first_line=first_line, loader=fm.MarkLoader)
    except FormatError as exc:
        return [SkillProblem("invalid-yaml", _yaml_message(exc.message), exc.line or first_line)]
    if not isinstance(node, yaml.MappingNode) or not isinstance(data, dict):
        line = first_line + node.start_mark.line if node is not None else 1
        return [SkillProblem("not-mapping", "SKILL.md frontmatter must be a YAML mapping", line)]

    lines = _key_lines(node, first_line)
    problems: list[SkillProblem] = []
    problems += _check_fields(data, lines)
    problems += _check_name(data, lines, Path(root).resolve())
    problems += _check_description(data, lines)
    problems += _check_compatibility(data, lines)
    problems += _check_metadata(data, lines, node, first_line)
    problems += _check_body(text, block.end)
    return problems


# -- frontmatter keys -------------------------------------------------------------------


def _check_fields(data: dict[Any, Any], lines: dict[Any, int]) -> list[SkillProblem]:
    extra = [key for key in data if key not in ALLOWED_KEYS]
    if not extra:
        return []
    names = ", ".join(sorted(str(key) for key in extra))
    message = f"Unexpected fields in frontmatter: {names}. Only {sorted(ALLOWED_KEYS)} are allowed."
    line = min(lines.get(key, 1) for key in extra)
    return [SkillProblem("unexpected-fields", message, line)]


def _check_name(data: dict[Any, Any], lines: dict[Any, int], root: Path) -> list[SkillProblem]:
    if "name" not in data:
        return [SkillProblem("missing-field", "Missing required field in frontmatter: name", 1)]
    line = lines.get("name", 1)
    value = data["name"]
    if not value or not isinstance(value, str) or not value.strip():
        return [SkillProblem("field-type", "Field 'name' must be a non-empty string", line)]

    name = unicodedata.normalize("NFKC", value.strip())
    problems: list[SkillProblem] = []

    def report(kind: str, message: str) -> None:
        problems.append(SkillProblem(kind, message, line))

    if len(name) > MAX_NAME_CHARS:
        report(
            "name-too-long",
            f"Skill name '{name}' exceeds {MAX_NAME_CHARS} character limit ({len(name)} chars)",
        )
    if name != name.lower():
        report("name-case", f"Skill name '{name}' must be lowercase")
    if name.startswith("-") or name.endswith("-"):
        report("name-hyphen-edge", "Skill name cannot start or end with a hyphen")
    if "--" in name:
        report("name-double-hyphen", "Skill name cannot contain consecutive hyphens")
    if not all(c.isalnum() or c == "-" for c in name):
        report(
            "name-chars",
            f"Skill name '{name}' contains invalid characters. "
            "Only letters, digits, and hyphens are allowed.",
        )
    if unicodedata.normalize("NFKC", root.name) != name:
        report("name-dir-mismatch", f"Directory name '{root.name}' must match skill name '{name}'")
    return problems


def _check_description(data: dict[Any, Any], lines: dict[Any, int]) -> list[SkillProblem]:
    if "description" not in data:
        return [
            SkillProblem("missing-field", "Missing required field in frontmatter: description", 1)
        ]
    line = lines.get("description", 1)
    value = data["description"]
    if not value or not isinstance(value, str) or not value.strip():
        return [SkillProblem("field-type", "Field 'description' must be a non-empty string", line)]
    if len(value) > MAX_DESCRIPTION_CHARS:
        return [
            SkillProblem(
                "description-too-long",
                f"Description exceeds {MAX_DESCRIPTION_CHARS} character limit ({len(value)} chars)",
                line,
            )
        ]
    return []


def _check_compatibility(data: dict[Any, Any], lines: dict[Any, int]) -> list[SkillProblem]:
    if "compatibility" not in data:
        return []
    line = lines.get("compatibility", 1)
    value = data["compatibility"]
    if value is None:  # ``compatibility:`` with no value: strictyaml reads "" and passes it
        return []
    if not isinstance(value, str):
        return [SkillProblem("field-type", "Field 'compatibility' must be a string", line)]
    if len(value) > MAX_COMPATIBILITY_CHARS:
        return [
            SkillProblem(
                "compatibility-too-long",
                f"Compatibility exceeds {MAX_COMPATIBILITY_CHARS} character limit "
                f"({len(value)} chars)",
                line,
            )
        ]
    return []


def _check_metadata(
    data: dict[Any, Any], lines: dict[Any, int], root_node: yaml.MappingNode, first_line: int
) -> list[SkillProblem]:
    """``metadata`` is a map of string to string (specification); not in skills-ref."""
    if "metadata" not in data:
        return []
    line = lines.get("metadata", 1)
    value = data["metadata"]
    if value is None:  # ``metadata:`` with no value: nothing to check
        return []
    if not isinstance(value, dict):
        return [
            SkillProblem(
                "metadata-type",
                "Field 'metadata' must be a mapping of string keys to string values, "
                f"not a {_kind(value)}",
                line,
            )
        ]
    meta_node = _value_node(root_node, "metadata")
    meta_lines = _key_lines(meta_node, first_line) if meta_node is not None else {}
    value_nodes = _value_nodes(meta_node)
    problems: list[SkillProblem] = []
    for key, item in value.items():
        key_line = meta_lines.get(key, line)
        if not isinstance(key, str):
            problems.append(
                SkillProblem(
                    "metadata-type",
                    f"Field 'metadata' key {key!r} must be a string, not a {_kind(key)} "
                    f'(quote it: "{key}")',
                    key_line,
                )
            )
        if not isinstance(item, str):
            label = key if isinstance(key, str) else repr(key)
            message = f"Field 'metadata' value of '{label}' must be a string, not a {_kind(item)}"
            node = value_nodes.get(key)
            if isinstance(node, yaml.ScalarNode):
                message += f' (quote it: {label}: "{node.value}")'
            problems.append(SkillProblem("metadata-type", message, key_line))
    return problems


# -- body --------------------------------------------------------------------------------


def _check_body(text: str, body_start: int) -> list[SkillProblem]:
    """The specification recommends a body under 500 lines and about 5,000 tokens."""
    body = text[body_start:]
    content = body.strip()
    if not content:
        return []
    line = line_of(text, body_start + len(body) - len(body.lstrip()))
    problems: list[SkillProblem] = []
    count = len(split_lines(content))
    if count > MAX_BODY_LINES:
        problems.append(
            SkillProblem(
                "body-lines",
                f"SKILL.md body is {count:,} lines, over the recommended {MAX_BODY_LINES:,}: "
                "keep it to navigation rules and move the detail into the package's documents",
                line,
            )
        )
    tokens = estimate_tokens(content)
    if tokens > MAX_BODY_TOKENS:
        problems.append(
            SkillProblem(
                "body-tokens",
                f"SKILL.md body is about {tokens:,} tokens, over the recommended "
                f"{MAX_BODY_TOKENS:,}: an agent reads all of it whenever the skill is used, "
                "so move the detail into the package's documents",
                line,
            )
        )
    return problems


# -- YAML helpers ------------------------------------------------------------------------


def _yaml_message(message: str) -> str:
    """Our YAML error, worded with skills-ref's prefix."""
    for prefix in ("invalid YAML value: ", "invalid YAML: "):
        if message.startswith(prefix):
            return _YAML_PREFIX + message[len(prefix) :]
    return _YAML_PREFIX + message


def _first_duplicate_key(node: yaml.Node | None, first_line: int) -> SkillProblem | None:
    """The first key written twice in one mapping (strictyaml refuses those; PyYAML
    silently keeps the last)."""
    duplicates = fm.duplicate_keys(node, first_line)
    if not duplicates:
        return None
    key, first, line = duplicates[0]
    return SkillProblem(
        "invalid-yaml", f"{_YAML_PREFIX}duplicate key '{key}' (first on line {first})", line
    )


def _constructed_keys(node: yaml.MappingNode) -> list[tuple[Any, yaml.Node, yaml.Node]]:
    """``(key value, key node, value node)`` for each pair, keys built as PyYAML builds them.

    Called after :func:`kas_tui.core.okf.frontmatter.construct`, which has already flattened
    merge keys and proved every key hashable.
    """
    loader = fm.MarkLoader("")
    try:
        return [(loader.construct_object(k, deep=True), k, v) for k, v in node.value]
    finally:
        loader.dispose()


def _key_lines(node: yaml.MappingNode, first_line: int) -> dict[Any, int]:
    """File line of each key of ``node`` (the last one wins, as in the loaded mapping)."""
    return {key: first_line + k.start_mark.line for key, k, _ in _constructed_keys(node)}


def _value_nodes(node: yaml.Node | None) -> dict[Any, yaml.Node]:
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {key: v for key, _, v in _constructed_keys(node)}


def _value_node(node: yaml.MappingNode, key: str) -> yaml.MappingNode | None:
    value = _value_nodes(node).get(key)
    return value if isinstance(value, yaml.MappingNode) else None


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, str):
        return "string"
    return type(value).__name__
