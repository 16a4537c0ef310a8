"""Reading ``.kas-tui.yaml``: every rule with its line; a file that cannot be used is
refused with the line and what to write (issue 35)."""

from __future__ import annotations

import pytest

from kas_tui.core.house_rules import HouseRulesError, parse_house_rules

EXAMPLE = """profile:
  fields:
    owner: {required: true}                      # every document
    tags: {values: [billing, on-call, security]} # a vocabulary
  types: [Runbook, Policy, FAQ, Procedure]       # allowed types
  by_type:
    Runbook: {required: [verified, stale_after], freshness_days: 90}
    Policy: {freshness_days: 180}
  description: {max_chars: 160}
"""


def test_the_issues_example_is_read_with_each_rules_line() -> None:
    rules = parse_house_rules(EXAMPLE)
    assert rules.fields["owner"].required and rules.fields["owner"].line == 3
    assert rules.vocabulary("tags") == ("billing", "on-call", "security")
    assert rules.types == ("Runbook", "Policy", "FAQ", "Procedure") and rules.types_line == 5
    assert rules.required_for("runbook") == [("owner", 3), ("verified", 7), ("stale_after", 7)]
    assert rules.freshness_days("Policy") == 180 and rules.freshness_days("FAQ") is None
    assert (rules.max_chars, rules.max_chars_line, rules.enforce) == (160, 9, False)


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        ("profile:\n  fieldz: {}\n", 2, "unknown key 'fieldz' in profile; the keys are"),
        ("profile:\n  types: [Runbook\n", 3, "not valid YAML"),
        ("profile:\n  by_type:\n    Runbook: {required: [ownr]}\n", 3, "requires 'ownr'"),
        ("profile:\n  description: {max_chars: -3}\n", 2, "a whole number above 0"),
        ("profile:\n  fields:\n    owner: {required: sure}\n", 3, "must be true or false"),
        ("profile:\n  enforce: 1\n", 2, "enforce must be true or false"),
        ("profile:\n  types: {a: b}\n", 2, "types must be a list of names"),
        ("profile:\n  fields: {owner: {required: true}}\n  fields: {}\n", 3, "written twice"),
        ("- a list\n", 1, "the file must be a mapping"),
    ],
)
def test_a_file_that_cannot_be_used_names_the_line_and_what_to_write(
    text: str, line: int, said: str
) -> None:
    with pytest.raises(HouseRulesError) as caught:
        parse_house_rules(text)
    assert caught.value.line == line
    assert said in str(caught.value) and str(caught.value).startswith(
        f".kas-tui.yaml, line {line}: "
    )


def test_a_field_declared_under_fields_may_be_required_by_type() -> None:
    text = "profile:\n  fields: {owner: {}}\n  by_type: {Runbook: {required: [owner]}}\n"
    assert parse_house_rules(text).required_for("Runbook") == [("owner", 3)]


def test_an_empty_file_declares_nothing() -> None:
    rules = parse_house_rules("# nothing yet\n")
    assert not rules.fields and not rules.types and rules.max_chars is None


def test_the_documented_json_schema_accepts_what_the_reader_accepts() -> None:
    import json
    from pathlib import Path

    import yaml

    schema = json.loads(
        (Path(__file__).resolve().parents[2] / "docs" / "house-rules.schema.json").read_text()
    )
    data = yaml.safe_load(EXAMPLE)
    profile = schema["properties"]["profile"]["properties"]
    assert set(data["profile"]) <= set(profile)
    assert set(data["profile"]["by_type"]["Runbook"]) <= set(
        profile["by_type"]["additionalProperties"]["properties"]
    )
    from kas_tui.core import house_rules

    assert set(profile) == house_rules._PROFILE  # one list of keys: the reader's and the schema's
