"""Frontmatter: finding the block, loading it safely, keeping timestamps as written."""

from __future__ import annotations

import time
import tracemalloc

import pytest
import yaml

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.frontmatter import Timestamp


def _yaml_of(text: str) -> str:
    block = fm.find_block(text)
    assert block is not None
    return text[block.yaml_start : block.yaml_end]


def _body_of(text: str) -> str:
    block = fm.find_block(text)
    assert block is not None
    return text[block.end :]


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """The "billion laughs": ``levels`` anchors, each a list of ``width`` aliases."""
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def no_recursion_error(function, *args):
    """Call ``function``; a RecursionError fails the test without a 2000-frame traceback."""
    try:
        return function(*args)
    except RecursionError:
        failed = True
    if failed:
        pytest.fail("RecursionError escaped (it must be a FormatError or a result)", pytrace=False)


# --- find_block ------------------------------------------------------------------------


def test_find_block_none_without_opening_line():
    assert fm.find_block("# Title\n\nNo frontmatter here.\n") is None
    assert fm.find_block("") is None
    assert fm.find_block("text\n---\nkey: value\n---\n") is None  # --- must be line 1
    assert fm.find_block(" ---\ntype: x\n---\n") is None  # indented is not a delimiter
    assert fm.find_block("----\ntype: x\n---\n") is None
    assert fm.parse("# Title\n") is None


def test_find_block_offsets():
    text = "---\ntype: Note\ntitle: T\n---\n# Body\n"
    block = fm.find_block(text)
    assert text[block.yaml_start : block.yaml_end] == "type: Note\ntitle: T\n"
    assert text[block.yaml_end : block.end] == "---\n"
    assert text[block.end :] == "# Body\n"


def test_unterminated_block_is_a_format_error_on_line_1():
    with pytest.raises(FormatError) as info:
        fm.find_block("---\ntype: Note\ntitle: never closed\n\n# Body\n")
    assert info.value.line == 1
    assert "never closed" in info.value.message
    assert info.value.hint  # tells the user how to fix it
    with pytest.raises(FormatError) as info:
        fm.parse("---\ntype: Note\n")
    assert info.value.line == 1


def test_dashes_inside_a_value_do_not_close_the_block():
    text = "---\ntitle: a --- b\ntype: Note\n---\nbody\n"
    assert _yaml_of(text) == "title: a --- b\ntype: Note\n"
    assert fm.parse(text).data == {"title": "a --- b", "type": "Note"}
    # nor does a line that merely starts with ---
    text = "---\ntype: Note\n--- not a delimiter: x\n---\nbody\n"
    with pytest.raises(FormatError):  # it is YAML (a document marker), but not a close
        fm.parse(text)


def test_dashes_in_an_indented_block_scalar_do_not_close_the_block():
    text = "---\ndescription: |\n  ---\n  still text\ntype: Note\n---\nbody\n"
    assert fm.parse(text).data == {"description": "---\nstill text\n", "type": "Note"}
    assert _body_of(text) == "body\n"


def test_crlf_block():
    text = "---\r\ntype: Note\r\ntitle: CRLF\r\n---\r\n# Body\r\n"
    assert _yaml_of(text) == "type: Note\r\ntitle: CRLF\r\n"
    assert _body_of(text) == "# Body\r\n"
    parsed = fm.parse(text)
    assert parsed.data == {"type": "Note", "title": "CRLF"}
    assert parsed.first_line == 2


def test_trailing_spaces_on_delimiters():
    text = "---  \ntype: Note\n--- \t\nbody\n"
    assert _yaml_of(text) == "type: Note\n"
    assert _body_of(text) == "body\n"
    text = "--- \r\ntype: Note\r\n---  \r\nbody\r\n"
    assert _yaml_of(text) == "type: Note\r\n"
    assert _body_of(text) == "body\r\n"


def test_block_closing_at_end_of_file_and_empty_block():
    text = "---\ntype: Note\n---"
    block = fm.find_block(text)
    assert block.end == len(text)
    assert fm.parse(text).data == {"type": "Note"}
    empty = fm.parse("---\n---\nbody\n")
    assert empty.data == {}
    assert fm.parse("---\n# only a comment\n---\n").data == {}


# --- load_yaml -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written",
    ["2026-06-30T14:00:00Z", "2026-06-30", "2027-03-18T00:00:00+02:00", "2026-06-30 14:00:00"],
)
def test_timestamps_stay_the_text_the_author_wrote(written):
    data = fm.load_yaml(
        f"stale_after: {written}\nverified:\n  - {{ by: human:a, at: {written} }}\n"
    )
    value = data["stale_after"]
    assert isinstance(value, Timestamp)
    assert isinstance(value, str)
    assert value == written
    assert str(value) == written
    nested = data["verified"][0]["at"]
    assert isinstance(nested, Timestamp)
    assert nested == written


def test_timestamp_repr_and_plain_values():
    assert repr(Timestamp("2026-06-30")) == "Timestamp('2026-06-30')"
    data = fm.load_yaml('a: "2026-06-30"\nb: 0.2\nc: "0.2"\nd: yes\ne: ~\nf: 12\n')
    assert data == {"a": "2026-06-30", "b": 0.2, "c": "0.2", "d": True, "e": None, "f": 12}
    assert type(data["a"]) is str  # quoted: a plain string, not a Timestamp


def test_invalid_yaml_error_points_at_the_file_line():
    text = "---\ntype: Note\ntitle: ok\ndescription: a: b\nstatus: stable\n---\n"
    with pytest.raises(FormatError) as info:
        fm.parse(text)
    assert info.value.line == 4  # the description line of the file, not of the YAML
    assert info.value.message.startswith("invalid YAML")
    # the offset of the block is added to the YAML error line
    with pytest.raises(FormatError) as info:
        fm.load_yaml("type: Note\ntitle: ok\ndescription: a: b\n", first_line=10)
    assert info.value.line == 12


def test_invalid_yaml_error_line_with_bad_indentation():
    text = "---\ntype: Note\ntags:\n  - a\n - b\n---\n"
    with pytest.raises(FormatError) as info:
        fm.parse(text)
    assert info.value.line == 5


def test_format_error_str_names_file_and_line():
    with pytest.raises(FormatError) as info:
        fm.parse("---\ntype: [\n---\n")
    err = info.value.located("docs/a.md")
    assert str(err).startswith(f"docs/a.md:{err.line}: invalid YAML")
    assert err.located("other.md").path == "docs/a.md"  # a set path is kept


@pytest.mark.parametrize(
    ("yaml_text", "kind"),
    [("- a\n- b\n", "list"), ("just a string\n", "string"), ("42\n", "int")],
)
def test_non_mapping_frontmatter(yaml_text, kind):
    with pytest.raises(FormatError) as info:
        fm.parse(f"---\n{yaml_text}---\nbody\n")
    assert "must be a YAML mapping" in info.value.message
    assert f"not a {kind}" in info.value.message
    assert info.value.line == 2


def test_alias_bomb_is_refused_fast_without_expanding():
    bomb = alias_bomb(9, 9)
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(FormatError) as info:
            fm.load_yaml(bomb, first_line=2)
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < 1.0
    assert peak < 20 * 1024 * 1024  # 9**9 expanded values would need gigabytes
    assert "alias" in info.value.message
    assert info.value.line == 2
    with pytest.raises(FormatError, match="alias"):
        fm.parse("---\ntype: Note\n" + bomb + "---\n")


def test_modest_aliases_are_fine():
    data = fm.load_yaml("base: &b {by: human:a, at: 2026-01-01}\nverified:\n  - *b\n  - *b\n")
    assert data["verified"] == [data["base"], data["base"]]


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(FormatError, match="nest"):
        fm.load_yaml("a: " + "[" * 5000 + "]" * 5000 + "\n")
    expected: list = []
    for _ in range(49):
        expected = [expected]
    assert fm.load_yaml("a: " + "[" * 50 + "]" * 50 + "\n") == {"a": expected}


def test_nesting_through_aliases_counts_every_level():
    # each half is within the limit; the alias stacks them to 122 levels
    half = 60
    text = f"x: &x {'[' * half}1{']' * half}\ny: {'[' * half}*x{']' * half}\n"
    with pytest.raises(FormatError, match="nested more than 100 levels"):
        fm.load_yaml(text)
    assert fm.load_yaml(f"x: &x {'[' * half}1{']' * half}\ny: [*x]\n")["y"][0] is not None


@pytest.mark.parametrize("depth", [90, 950])
def test_deep_nesting_with_an_alias_does_not_exhaust_the_stack(depth):
    # 950: under libyaml's nesting limit, over Python's default recursion limit: the alias
    # bomb guard used to recurse once per level and raise RecursionError; now refused
    text = "---\ntype: Note\nb: &x 1\na: " + "[" * depth + "*x" + "]" * depth + "\n---\n"
    if depth > fm.MAX_NESTING:
        with pytest.raises(FormatError, match="nested more than 100 levels"):
            no_recursion_error(fm.parse, text)
        return
    parsed = no_recursion_error(fm.parse, text)
    assert parsed.data["type"] == "Note"
    inner = parsed.data["a"]
    for _ in range(depth - 1):
        (inner,) = inner
    assert inner == [1]


def test_unhashable_key_is_a_format_error():
    with pytest.raises(FormatError) as info:
        fm.parse("---\ntype: Note\n? [a, b]\n: c\n---\n")
    assert "unhashable" in info.value.message
    assert info.value.line == 3


def test_oversized_frontmatter_is_refused():
    big = "type: Note\n" + "x: " + "a" * (fm.MAX_FRONTMATTER_CHARS + 1) + "\n"
    with pytest.raises(FormatError, match="limit"):
        fm.load_yaml(big)


def test_unsafe_tags_are_refused():
    with pytest.raises(FormatError):
        fm.load_yaml("a: !!python/object/apply:os.system ['true']\n")


def test_compose_uses_marks_for_edits():
    node = fm.compose("type: Note\ntitle: T\n", loader=fm.MarkLoader)
    assert isinstance(node, yaml.MappingNode)
    assert [k.value for k, _ in node.value] == ["type", "title"]
    assert fm.compose("") is None
    assert fm.construct(None) is None


def test_parse_reports_every_repeated_key_with_both_lines() -> None:
    """Outside the fast subset too (a block scalar), and at any depth, in file order."""
    text = "---\ntype: Reference\nnote: |\n  text\nmeta:\n  a: 1\n  a: 2\ntype: Policy\n---\n"
    parsed = fm.parse(text)
    assert parsed is not None and parsed.data["type"] == "Policy"
    assert parsed.duplicates == (fm.DuplicateKey("a", 6, 7), fm.DuplicateKey("type", 2, 8))
    assert fm.parse("---\ntype: Reference\ntitle: T\n---\n").duplicates == ()


def test_a_control_character_in_yaml_is_reported_on_one_line():
    """PyYAML puts 'in "<unicode string>", position 27' on a line of its own; a build's
    summary then showed it as a second, unindented line."""
    with pytest.raises(FormatError) as caught:
        fm.parse("---\ntitle: a\ndescription: Says \x07 x\n---\nbody\n")
    assert "\n" not in str(caught.value)
    assert "control characters are not allowed" in str(caught.value)


def test_control_chars_are_the_c0_and_c1_controls_but_tab_and_line_feed():
    from kas_tui.core.okf.text import control_chars, without_controls

    every = "".join(chr(c) for c in range(0x3000))
    expected = [c for c in every if (ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) < 0xA0]
    assert control_chars(every) == expected and len(expected) == 63
    # a terminal's colour code is no words: gone whole, not "a [31mb"
    assert without_controls("a\x1b[31mb\tc\x85d") == "ab\tc d"
    assert without_controls("Title \u202eevil\u202c") == "Title evil"  # no bidi override
