"""SKILL.md parsing: problems use the reference validator's words."""

from __future__ import annotations

import pytest

from kas_tui.core.okf.skill import ALLOWED_KEYS, parse_skill
from kas_tui.core.okf.text import decode

SKILL = """\
---
name: acme-kb
description: Acme handbook. Use when answering Acme questions.
license: CC-BY-4.0
metadata:
  author: acme-docs
  version: "2026.11"
---

# Acme knowledge base

Start at index.md.
"""


def messages(text: str) -> list[tuple[str, int | None]]:
    return [(p.message, p.line) for p in parse_skill(text).problems]


def test_valid_skill():
    skill = parse_skill(SKILL)
    assert skill.problems == []
    assert skill.name == "acme-kb"
    assert skill.description == "Acme handbook. Use when answering Acme questions."
    assert skill.data["metadata"] == {"author": "acme-docs", "version": "2026.11"}
    assert skill.body == "\n# Acme knowledge base\n\nStart at index.md.\n"
    assert skill.body_line == 9


@pytest.mark.parametrize(
    "text",
    ["# No frontmatter\n", "", "  ---\nname: a\n---\n", "----\nname: a\n---\n", "name: a\n"],
)
def test_missing_frontmatter(text):
    assert messages(text) == [("SKILL.md must start with YAML frontmatter (---)", 1)]
    assert parse_skill(text).name == ""


def test_unclosed_frontmatter():
    assert messages("---\nname: acme-kb\ndescription: d\n") == [
        ("SKILL.md frontmatter not properly closed with ---", 1)
    ]


@pytest.mark.parametrize("yaml_text", ["- a\n- b\n", "just text\n"])
def test_frontmatter_not_a_mapping(yaml_text):
    assert messages(f"---\n{yaml_text}---\n") == [
        ("SKILL.md frontmatter must be a YAML mapping", 2)
    ]


def test_invalid_yaml_keeps_its_line():
    problems = parse_skill("---\nname: acme-kb\ndescription: a: b\n---\n").problems
    assert len(problems) == 1
    assert problems[0].message.startswith("invalid YAML")
    assert problems[0].line == 3


def test_bom_skill_parses_once_decoded():
    data = ("\ufeff" + SKILL.replace("\n", "\r\n")).encode("utf-8")
    decoded = decode(data)
    assert decoded.bom is True
    skill = parse_skill(decoded.text)
    assert skill.problems == []
    assert skill.name == "acme-kb"
    assert skill.body.startswith("\r\n# Acme knowledge base")


def test_dashes_inside_the_description_do_not_truncate_it():
    skill = parse_skill("---\nname: a\ndescription: before --- after\n---\n")
    assert skill.description == "before --- after"


def test_flow_lists_and_non_string_fields():
    skill = parse_skill("---\nname: 42\ndescription: [a, b]\nallowed-tools: [Read, Grep]\n---\n")
    assert skill.problems == []
    assert skill.name == ""  # not a string
    assert skill.description == ""
    assert skill.data["allowed-tools"] == ["Read", "Grep"]


def test_allowed_keys_are_the_specifications():
    assert sorted(ALLOWED_KEYS) == [
        "allowed-tools",
        "compatibility",
        "description",
        "license",
        "metadata",
        "name",
    ]
