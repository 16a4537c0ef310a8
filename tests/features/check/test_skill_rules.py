"""SKILL.md validation: skills-ref's verdicts and words, without its known flaws."""

from __future__ import annotations

from pathlib import Path

import pytest

from kas_tui.core.okf.text import BOM, decode
from kas_tui.features.check.skill_rules import KINDS, SkillProblem, validate_skill

NAME = "acme-kb"
DESCRIPTION = "Acme handbook. Use when answering how Acme staff handle incidents."
ALLOWED = "['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name']"
BODY = "\n# Acme knowledge base\n\nStart at index.md.\n"


def skill(name: str = NAME, description: str = DESCRIPTION, extra: str = "", body: str = BODY):
    """A SKILL.md with ``name``, ``description`` and ``extra`` frontmatter lines."""
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}"


def problems(tmp_path: Path, text: str | bytes, folder: str = NAME) -> list[SkillProblem]:
    """Write ``text`` as ``<folder>/SKILL.md`` in ``tmp_path``, decode it and validate it."""
    root = tmp_path / folder
    root.mkdir(exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    (root / "SKILL.md").write_bytes(data)
    return validate_skill(root, decode(data).text)


def check(tmp_path: Path, text: str | bytes, folder: str = NAME) -> list[tuple[str, str]]:
    return [(p.kind, p.message) for p in problems(tmp_path, text, folder)]


# -- valid files --------------------------------------------------------------------------


def test_valid_minimal(tmp_path):
    assert check(tmp_path, "---\nname: acme-kb\ndescription: Acme handbook.\n---\n") == []


def test_valid_with_all_allowed_keys(tmp_path):
    extra = (
        "license: CC-BY-4.0\n"
        "compatibility: Needs a file reader; no network.\n"
        "allowed-tools: Read Grep\n"
        "metadata:\n"
        "  author: acme-docs\n"
        '  version: "2026.11"\n'
    )
    assert check(tmp_path, skill(extra=extra)) == []


def test_bom_file_is_valid(tmp_path):
    data = BOM + skill().encode("utf-8")
    assert decode(data).bom
    assert check(tmp_path, data) == []


def test_stray_bom_in_text_is_accepted(tmp_path):
    assert validate_skill(tmp_path / NAME, "\ufeff" + skill()) == []


def test_crlf_file_is_valid(tmp_path):
    assert check(tmp_path, skill().replace("\n", "\r\n")) == []


def test_crlf_file_lines_are_right(tmp_path):
    text = skill(extra="model: opus\n").replace("\n", "\r\n")
    assert [(p.kind, p.line) for p in problems(tmp_path, text)] == [("unexpected-fields", 4)]


def test_flow_collections_are_valid_yaml(tmp_path):
    extra = "allowed-tools: [Read, Grep, Glob]\nmetadata: {author: acme-docs, version: '1'}\n"
    assert check(tmp_path, skill(extra=extra)) == []


def test_block_list_allowed_tools_is_valid(tmp_path):
    assert check(tmp_path, skill(extra="allowed-tools:\n  - Read\n  - Grep\n")) == []


def test_anchors_and_tags_are_valid_yaml(tmp_path):
    text = f"---\nname: !!str {NAME}\ndescription: &d {DESCRIPTION}\nlicense: *d\n---\n"
    assert check(tmp_path, text) == []


def test_empty_optional_values_pass_as_in_skills_ref(tmp_path):
    assert check(tmp_path, skill(extra="compatibility:\nmetadata:\nlicense:\n")) == []


# -- the file and its frontmatter block -------------------------------------------------------


def test_missing_file(tmp_path):
    assert validate_skill(tmp_path, None) == [
        SkillProblem("missing-file", "Missing required file: SKILL.md", None)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "# Acme\n\nNo frontmatter.\n",
        "",
        "name: acme-kb\ndescription: d\n",
        "  ---\nname: acme-kb\n---\n",
        "----\nname: acme-kb\n---\n",
        "---name: acme-kb\ndescription: d\n---\n",
    ],
)
def test_no_frontmatter(tmp_path, text):
    assert [(p.kind, p.message, p.line) for p in problems(tmp_path, text)] == [
        ("no-frontmatter", "SKILL.md must start with YAML frontmatter (---)", 1)
    ]


def test_unclosed_frontmatter(tmp_path):
    assert check(tmp_path, "---\nname: acme-kb\ndescription: d\n\n# Body\n") == [
        ("unclosed", "SKILL.md frontmatter not properly closed with ---")
    ]


@pytest.mark.parametrize(
    ("yaml_text", "line"),
    [("- name\n- description\n", 2), ("just text\n", 2), ("", 1), ("\n\n", 1)],
)
def test_not_a_mapping(tmp_path, yaml_text, line):
    assert [(p.kind, p.message, p.line) for p in problems(tmp_path, f"---\n{yaml_text}---\n")] == [
        ("not-mapping", "SKILL.md frontmatter must be a YAML mapping", line)
    ]


def test_invalid_yaml(tmp_path):
    text = '---\nname: acme-kb\ndescription: "never closed\n---\n'
    assert [(p.kind, p.message, p.line) for p in problems(tmp_path, text)] == [
        (
            "invalid-yaml",
            # blamed on the line the quote was opened on (issue 16.12)
            "Invalid YAML in frontmatter: a quoted value opened on this line is not closed "
            "with its closing quote (found on line 4)",
            3,
        )
    ]


def test_invalid_yaml_bad_indentation(tmp_path):
    found = check(tmp_path, "---\nname: acme-kb\n  description: d\n---\n")
    assert [kind for kind, _ in found] == ["invalid-yaml"]
    assert found[0][1].startswith("Invalid YAML in frontmatter: ")


def test_duplicate_key_is_invalid_yaml(tmp_path):
    text = skill(extra="name: other\n")
    assert [(p.kind, p.message, p.line) for p in problems(tmp_path, text)] == [
        ("invalid-yaml", "Invalid YAML in frontmatter: duplicate key 'name' (first on line 2)", 4)
    ]


def test_duplicate_key_in_metadata_is_invalid_yaml(tmp_path):
    text = skill(extra="metadata:\n  author: a\n  author: b\n")
    assert check(tmp_path, text) == [
        ("invalid-yaml", "Invalid YAML in frontmatter: duplicate key 'author' (first on line 5)")
    ]


def test_dashes_inside_a_value_do_not_close_the_block(tmp_path):
    assert check(tmp_path, skill(description="Before --- after. Use when asked.")) == []
    # the whole value counts: skills-ref would have cut it at the first ---
    long = "x" * 1020 + " --- " + "y" * 10
    assert check(tmp_path, skill(description=long)) == [
        ("description-too-long", "Description exceeds 1024 character limit (1035 chars)")
    ]


def test_dashes_inside_a_folded_block_do_not_close_it(tmp_path):
    description = ">\n  First part.\n  ---\n  Second part.\n"
    text = f"---\nname: {NAME}\ndescription: {description}license: MIT\n---\n{BODY}"
    assert check(tmp_path, text) == []
    long = f">\n  {'x' * 600}\n  ---\n  {'y' * 600}\n"
    text = f"---\nname: {NAME}\ndescription: {long}license: MIT\n---\n{BODY}"
    assert check(tmp_path, text) == [
        ("description-too-long", "Description exceeds 1024 character limit (1206 chars)")
    ]


# -- keys -----------------------------------------------------------------------------------


def test_unexpected_fields_sorted_in_one_message(tmp_path):
    text = skill(extra="when_to_use: On incidents.\nmodel: opus\n")
    assert [(p.kind, p.message, p.line) for p in problems(tmp_path, text)] == [
        (
            "unexpected-fields",
            f"Unexpected fields in frontmatter: model, when_to_use. Only {ALLOWED} are allowed.",
            4,
        )
    ]


def test_missing_name(tmp_path):
    assert check(tmp_path, f"---\ndescription: {DESCRIPTION}\n---\n") == [
        ("missing-field", "Missing required field in frontmatter: name")
    ]


def test_missing_description(tmp_path):
    assert check(tmp_path, f"---\nname: {NAME}\n---\n") == [
        ("missing-field", "Missing required field in frontmatter: description")
    ]


def test_missing_both(tmp_path):
    assert check(tmp_path, "---\nlicense: MIT\n---\n") == [
        ("missing-field", "Missing required field in frontmatter: name"),
        ("missing-field", "Missing required field in frontmatter: description"),
    ]


@pytest.mark.parametrize("value", ["123", "", "''", "'   '", "[acme-kb]", "true", "null"])
def test_name_not_a_non_empty_string(tmp_path, value):
    assert [(p.kind, p.message, p.line) for p in problems(tmp_path, skill(name=value))] == [
        ("field-type", "Field 'name' must be a non-empty string", 2)
    ]


@pytest.mark.parametrize("value", ["42", "", "'  '", "{a: b}"])
def test_description_not_a_non_empty_string(tmp_path, value):
    assert [(p.kind, p.message, p.line) for p in problems(tmp_path, skill(description=value))] == [
        ("field-type", "Field 'description' must be a non-empty string", 3)
    ]


# -- name rules -------------------------------------------------------------------------------


def test_name_64_chars_ok_65_too_long(tmp_path):
    assert check(tmp_path, skill(name="a" * 64), folder="a" * 64) == []
    name = "a" * 65
    assert check(tmp_path, skill(name=name), folder=name) == [
        ("name-too-long", f"Skill name '{name}' exceeds 64 character limit (65 chars)")
    ]


def test_name_uppercase(tmp_path):
    assert check(tmp_path, skill(name="Acme-KB"), folder="Acme-KB") == [
        ("name-case", "Skill name 'Acme-KB' must be lowercase")
    ]


@pytest.mark.parametrize("name", ["-acme-kb", "acme-kb-"])
def test_name_hyphen_at_an_edge(tmp_path, name):
    assert check(tmp_path, skill(name=name), folder=name) == [
        ("name-hyphen-edge", "Skill name cannot start or end with a hyphen")
    ]


def test_name_double_hyphen(tmp_path):
    assert check(tmp_path, skill(name="acme--kb"), folder="acme--kb") == [
        ("name-double-hyphen", "Skill name cannot contain consecutive hyphens")
    ]


@pytest.mark.parametrize(
    ("name", "written"), [("my_skill", "my_skill"), ("my skill", "'my skill'")]
)
def test_name_invalid_characters(tmp_path, name, written):
    assert check(tmp_path, skill(name=written), folder=name) == [
        (
            "name-chars",
            f"Skill name '{name}' contains invalid characters. "
            "Only letters, digits, and hyphens are allowed.",
        )
    ]


@pytest.mark.parametrize("name", ["ñandú", "wissens-basis-ä", "知识库", "kb2"])
def test_unicode_lowercase_letters_and_digits_accepted(tmp_path, name):
    assert check(tmp_path, skill(name=name), folder=name) == []


def test_name_is_nfkc_normalised_and_stripped(tmp_path):
    # fullwidth letters normalise to ASCII; the quoted spaces are stripped
    assert check(tmp_path, skill(name="' ａｃｍｅ-kb '")) == []


def test_many_name_rules_at_once_in_reference_order(tmp_path):
    assert check(tmp_path, skill(name="My_Skill-"), folder="upper") == [
        ("name-case", "Skill name 'My_Skill-' must be lowercase"),
        ("name-hyphen-edge", "Skill name cannot start or end with a hyphen"),
        (
            "name-chars",
            "Skill name 'My_Skill-' contains invalid characters. "
            "Only letters, digits, and hyphens are allowed.",
        ),
        ("name-dir-mismatch", "Directory name 'upper' must match skill name 'My_Skill-'"),
    ]


def test_directory_mismatch(tmp_path):
    assert [(p.kind, p.message, p.line) for p in problems(tmp_path, skill(), folder="other")] == [
        ("name-dir-mismatch", "Directory name 'other' must match skill name 'acme-kb'", 2)
    ]


def test_dot_resolves_to_the_real_folder_name(tmp_path, monkeypatch):
    root = tmp_path / NAME
    root.mkdir()
    monkeypatch.chdir(root)
    assert validate_skill(Path("."), skill()) == []
    (root / "sub").mkdir()
    monkeypatch.chdir(root / "sub")
    assert validate_skill(Path(".."), skill()) == []
    assert validate_skill(Path("."), skill()) == [
        SkillProblem("name-dir-mismatch", "Directory name 'sub' must match skill name 'acme-kb'", 2)
    ]


# -- description, compatibility, metadata ----------------------------------------------------


def test_description_1024_ok_1025_too_long(tmp_path):
    assert check(tmp_path, skill(description="d" * 1024)) == []
    assert check(tmp_path, skill(description="d" * 1025)) == [
        ("description-too-long", "Description exceeds 1024 character limit (1025 chars)")
    ]


def test_compatibility_500_ok_501_too_long(tmp_path):
    assert check(tmp_path, skill(extra=f"compatibility: {'c' * 500}\n")) == []
    assert [
        (p.kind, p.message, p.line)
        for p in problems(tmp_path, skill(extra=f"compatibility: {'c' * 501}\n"))
    ] == [("compatibility-too-long", "Compatibility exceeds 500 character limit (501 chars)", 4)]


def test_compatibility_not_a_string(tmp_path):
    assert check(tmp_path, skill(extra="compatibility: [claude, codex]\n")) == [
        ("field-type", "Field 'compatibility' must be a string")
    ]


def test_metadata_values_not_strings(tmp_path):
    extra = (
        "metadata:\n  author: acme-docs\n  version: 1.10\n  tags: [ops, billing]\n  draft: yes\n"
    )
    found = problems(tmp_path, skill(extra=extra))
    assert [(p.kind, p.message, p.line) for p in found] == [
        (
            "metadata-type",
            "Field 'metadata' value of 'version' must be a string, not a number "
            '(quote it: version: "1.10")',
            6,
        ),
        ("metadata-type", "Field 'metadata' value of 'tags' must be a string, not a list", 7),
        (
            "metadata-type",
            "Field 'metadata' value of 'draft' must be a string, not a boolean "
            '(quote it: draft: "yes")',
            8,
        ),
    ]


def test_metadata_key_not_a_string(tmp_path):
    assert check(tmp_path, skill(extra="metadata:\n  2026: launch\n")) == [
        (
            "metadata-type",
            "Field 'metadata' key 2026 must be a string, not a integer (quote it: \"2026\")",
        )
    ]


@pytest.mark.parametrize(("value", "kind"), [("just text", "string"), ("[a, b]", "list")])
def test_metadata_not_a_mapping(tmp_path, value, kind):
    assert check(tmp_path, skill(extra=f"metadata: {value}\n")) == [
        (
            "metadata-type",
            f"Field 'metadata' must be a mapping of string keys to string values, not a {kind}",
        )
    ]


# -- body budget -----------------------------------------------------------------------------


def test_body_500_lines_ok_501_too_long(tmp_path):
    assert check(tmp_path, skill(body="\n" + "line\n" * 500)) == []
    found = problems(tmp_path, skill(body="\n" + "line\n" * 501))
    assert [(p.kind, p.message, p.line) for p in found] == [
        (
            "body-lines",
            "SKILL.md body is 501 lines, over the recommended 500: keep it to navigation "
            "rules and move the detail into the package's documents",
            6,
        )
    ]


def test_body_over_token_budget(tmp_path):
    paragraph = "word " * 199 + "word\n"  # 1,000 characters
    body = "\n" + paragraph * 24  # 24,000 characters: about 6,000 tokens
    assert check(tmp_path, skill(body=body)) == [
        (
            "body-tokens",
            "SKILL.md body is about 6,000 tokens, over the recommended 5,000: an agent reads "
            "all of it whenever the skill is used, so move the detail into the package's documents",
        )
    ]


def test_body_budget_still_checked_when_keys_are_wrong(tmp_path):
    found = check(tmp_path, skill(name="Acme", body="\n" + "line\n" * 600), folder="Acme")
    assert [kind for kind, _ in found] == ["name-case", "body-lines"]


# -- order and kinds --------------------------------------------------------------------------


def test_checks_run_in_reference_order(tmp_path):
    text = (
        "---\n"
        f"compatibility: {'c' * 501}\n"
        f"description: {'d' * 1025}\n"
        "zeta: 1\n"
        "name: Acme\n"
        "alpha: 2\n"
        "metadata: {version: 2}\n"
        "---\n"
    )
    assert [(p.kind, p.line) for p in problems(tmp_path, text)] == [
        ("unexpected-fields", 4),
        ("name-case", 5),
        ("name-dir-mismatch", 5),
        ("description-too-long", 3),
        ("compatibility-too-long", 2),
        ("metadata-type", 7),
    ]


def test_every_kind_is_declared_and_reachable(tmp_path):
    texts = [
        "",
        "---\nname: acme-kb\n",
        "---\n- a\n---\n",
        '---\nname: "\n---\n',
        skill(name="-Bad--Name_" + "x" * 60, description="d" * 1100, extra="x: 1\n"),
        skill(
            extra=f"compatibility: {'c' * 501}\nmetadata: [a]\n",
            body=("w" * 49 + "\n") * 600,
        ),
        "---\nlicense: MIT\n---\n",
        "---\nname: 1\ndescription: 2\n---\n",
    ]
    kinds = {p.kind for text in texts for p in problems(tmp_path, text)}
    kinds |= {p.kind for p in validate_skill(tmp_path, None)}
    assert kinds == set(KINDS)
    assert len(KINDS) == len(set(KINDS)) == 19
