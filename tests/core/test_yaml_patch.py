"""Byte-minimal frontmatter edits: set_field / remove_field."""

from __future__ import annotations

import datetime as dt
import difflib
import io
import os

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf import yaml_patch as yp
from kas_tui.core.okf.errors import EditError
from kas_tui.core.okf.frontmatter import Timestamp
from kas_tui.core.okf.text import decode, encode
from kas_tui.core.store import Store

DOC = """\
---
type: Runbook   # the kind of document
title: "Incident response"
description: 'How we respond.'
tags:
  - incidents
  # keep this list short
  - response
generated: { by: human:ana, at: 2026-06-20T09:00:00Z }
verified:
  - { by: human:a, at: 2026-06-25T09:00:00Z }
status: stable
x-owner: team:sre
---
# Body

Text.
"""


def lines_changed(old: str, new: str) -> list[tuple[str, list[str], list[str]]]:
    """The non-equal line ranges between two texts (op, old lines, new lines)."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [
        (op, a[i1:i2], b[j1:j2]) for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"
    ]


# --- scalars ---------------------------------------------------------------------------


def test_change_double_quoted_scalar_keeps_quotes_and_everything_else():
    out = yp.set_field(DOC, "title", "Incident handling")
    assert out == DOC.replace('title: "Incident response"', 'title: "Incident handling"')


def test_change_plain_scalar_keeps_its_comment():
    out = yp.set_field(DOC, "type", "Procedure")
    assert out == DOC.replace(
        "type: Runbook   # the kind of document", "type: Procedure   # the kind of document"
    )


def test_change_single_quoted_scalar_escapes_in_its_style():
    out = yp.set_field(DOC, "description", "It's fine.")
    assert out == DOC.replace("description: 'How we respond.'", "description: 'It''s fine.'")


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("a: b", "'a: b'"),
        ("#x", "'#x'"),
        ("[draft] X", "'[draft] X'"),
        ("0.2", "'0.2'"),
        ("yes", "'yes'"),
        ("2026-01-01", "'2026-01-01'"),
        ("Café ☕ — ok", "Café ☕ — ok"),
        ("", "''"),
        ("trail ", "'trail '"),
        (True, "true"),
        (None, "null"),
        (42, "42"),
        (1.5, "1.5"),
    ],
)
def test_plain_scalar_values_are_quoted_only_when_needed(value, written):
    text = "---\ntype: Note\nstatus: stable\n---\n"
    out = yp.set_field(text, "status", value)
    assert out == f"---\ntype: Note\nstatus: {written}\n---\n"
    assert fm.parse(out).data["status"] == value


def test_setting_the_current_value_changes_nothing():
    for key, value in fm.parse(DOC).data.items():
        assert yp.set_field(DOC, key, value) == DOC
    quoted = "---\ndescription: 'first line\n\n  second line'\n---\n"
    assert yp.set_field(quoted, "description", "first line\nsecond line") == quoted
    escaped = '---\ntitle: "caf\\u00e9"\n---\n'
    assert yp.set_field(escaped, "title", "café") == escaped


def test_setting_a_string_over_an_equal_timestamp_is_a_change():
    text = "---\nstale_after: 2027-01-01\n---\n"
    assert yp.set_field(text, "stale_after", Timestamp("2027-01-01")) == text
    out = yp.set_field(text, "stale_after", "2027-01-01")
    assert out == "---\nstale_after: '2027-01-01'\n---\n"
    assert type(fm.parse(out).data["stale_after"]) is str


# --- lists -----------------------------------------------------------------------------


def test_add_tag_keeps_existing_item_lines_and_interleaved_comment():
    out = yp.set_field(DOC, "tags", ["incidents", "response", "sev1"])
    assert out == DOC.replace("  - response\n", "  - response\n  - sev1\n")


def test_insert_tag_in_the_middle():
    out = yp.set_field(DOC, "tags", ["incidents", "paging", "response"])
    assert out == DOC.replace("  - response\n", "  - paging\n  - response\n")


def test_remove_a_tag():
    out = yp.set_field(DOC, "tags", ["incidents"])
    assert out == DOC.replace("  - response\n", "")
    # a comment line after an item travels with that item
    out = yp.set_field(DOC, "tags", ["response"])
    assert out == DOC.replace("  - incidents\n  # keep this list short\n", "")


def test_indentless_block_list_keeps_its_style():
    text = "---\ntype: Note\ntags:\n- a\n- b\nstatus: stable\n---\n"
    assert yp.set_field(text, "tags", ["a", "b", "c"]) == text.replace("- b\n", "- b\n- c\n")
    # a new list key follows the file's list indentation
    out = yp.set_field(text, "aliases", ["x", "y"])
    assert out == text.replace("status: stable\n", "status: stable\naliases:\n- x\n- y\n")


def test_append_to_verified_list_of_padded_flow_mappings():
    when = dt.datetime(2026, 7, 1, 12, 0, tzinfo=dt.timezone.utc)
    value = [
        {"by": "human:a", "at": Timestamp("2026-06-25T09:00:00Z")},
        {"by": "process:sync", "at": when},
    ]
    out = yp.set_field(DOC, "verified", value)
    assert out == DOC.replace(
        "  - { by: human:a, at: 2026-06-25T09:00:00Z }\n",
        "  - { by: human:a, at: 2026-06-25T09:00:00Z }\n"
        "  - { by: process:sync, at: 2026-07-01T12:00:00Z }\n",
    )
    at = fm.parse(out).data["verified"][1]["at"]
    assert isinstance(at, Timestamp)
    assert at == "2026-07-01T12:00:00Z"


def test_append_to_unpadded_flow_mappings():
    text = "---\nverified:\n  - {by: human:a, at: 2026-06-25}\n---\n"
    out = yp.set_field(
        text,
        "verified",
        [
            {"by": "human:a", "at": Timestamp("2026-06-25")},
            {"by": "human:b", "at": dt.date(2026, 7, 1)},
        ],
    )
    assert out == (
        "---\nverified:\n  - {by: human:a, at: 2026-06-25}\n"
        "  - {by: human:b, at: 2026-07-01}\n---\n"
    )


def test_flow_list_stays_flow():
    text = "---\ntags: [a, b]\ntype: x\n---\n"
    assert yp.set_field(text, "tags", ["a", "b", "c"]) == "---\ntags: [a, b, c]\ntype: x\n---\n"
    assert yp.set_field(text, "tags", ["a b", "c: d"]) == "---\ntags: [a b, 'c: d']\ntype: x\n---\n"
    padded = "---\ntags: [ a, b ]\n---\n"
    assert yp.set_field(padded, "tags", ["a", "c"]) == "---\ntags: [ a, c ]\n---\n"


def test_flow_values_stay_editable():
    """Every loader must read what set_field writes (PyYAML's pure loader ends at ``?``)."""
    text = "---\ntags: []\nverified:\n  - {by: human:a, at: 2026-01-01}\n---\n"
    out = yp.set_field(text, "tags", ["0?", "a?b", "ok"])
    assert (
        out == "---\ntags: ['0?', 'a?b', ok]\nverified:\n  - {by: human:a, at: 2026-01-01}\n---\n"
    )
    assert pure_load(out) == fm.parse(out).data
    out = yp.set_field(out, "verified", [{"by": "process:x?y", "at": Timestamp("2026-01-01")}])
    assert pure_load(out)["verified"] == [{"by": "process:x?y", "at": "2026-01-01"}]
    out = yp.set_field(out, "tags", ["again"])  # the edited file can be edited again
    assert pure_load(out)["tags"] == ["again"]


def pure_load(text: str):
    """Load frontmatter with the pure-Python loader the editor uses."""
    block = fm.find_block(text)
    node = fm.compose(text[block.yaml_start : block.yaml_end], loader=fm.MarkLoader)
    return fm.construct(node, loader=fm.MarkLoader)


def test_list_to_scalar_and_back():
    text = "---\ntags:\n  - a\n  - b\nx: 1\n---\n"
    assert yp.set_field(text, "tags", "a") == "---\ntags: a\nx: 1\n---\n"
    assert yp.set_field("---\ntags: a\nx: 1\n---\n", "tags", ["a", "b"]) == text
    assert yp.set_field(text, "tags", []) == "---\ntags: []\nx: 1\n---\n"


def test_empty_value_gets_filled_in():
    assert yp.set_field("---\ntags:\ntype: x\n---\n", "tags", ["a"]) == (
        "---\ntags:\n  - a\ntype: x\n---\n"
    )
    assert yp.set_field("---\ntitle:\ntype: x\n---\n", "title", "Hi") == (
        "---\ntitle: Hi\ntype: x\n---\n"
    )


# --- keys ------------------------------------------------------------------------------


def test_new_key_goes_at_the_end():
    out = yp.set_field(DOC, "stale_after", dt.date(2027, 3, 1))
    assert out == DOC.replace("x-owner: team:sre\n", "x-owner: team:sre\nstale_after: 2027-03-01\n")
    assert fm.parse(out).data["stale_after"] == Timestamp("2027-03-01")


def test_new_mapping_key_is_written_in_block_style():
    out = yp.set_field(
        "---\ntype: x\n---\n", "generated", {"by": "kas-tui/0.3.0", "at": dt.date(2026, 1, 2)}
    )
    assert out == "---\ntype: x\ngenerated:\n  by: kas-tui/0.3.0\n  at: 2026-01-02\n---\n"


def test_new_key_when_the_yaml_does_not_end_with_a_newline():
    assert yp.set_field("---\na: 1\n---", "b", 2) == "---\na: 1\nb: 2\n---"


@pytest.mark.parametrize(
    ("key", "gone"),
    [
        ("tags", "tags:\n  - incidents\n  # keep this list short\n  - response\n"),
        ("type", "type: Runbook   # the kind of document\n"),
        ("x-owner", "x-owner: team:sre\n"),
        ("verified", "verified:\n  - { by: human:a, at: 2026-06-25T09:00:00Z }\n"),
    ],
)
def test_remove_key_removes_its_lines_only(key, gone):
    out = yp.remove_field(DOC, key)
    assert out == DOC.replace(gone, "")
    assert key not in fm.parse(out).data


def test_remove_absent_key_or_without_frontmatter_is_a_no_op():
    assert yp.remove_field(DOC, "nothing") == DOC
    assert yp.remove_field("# no frontmatter\n", "type") == "# no frontmatter\n"


def test_document_without_frontmatter_gets_a_block():
    assert (
        yp.set_field("# Hello\n\nText.\n", "type", "Note")
        == "---\ntype: Note\n---\n# Hello\n\nText.\n"
    )
    assert yp.set_field("", "type", "Note") == "---\ntype: Note\n---\n"
    assert yp.set_field("# Hi\r\n", "type", "Note") == "---\r\ntype: Note\r\n---\r\n# Hi\r\n"


def test_crlf_file_stays_crlf_everywhere():
    crlf = DOC.replace("\n", "\r\n")
    edits = [
        yp.set_field(crlf, "title", "New"),
        yp.set_field(crlf, "tags", ["incidents", "response", "sev1"]),
        yp.set_field(crlf, "tags", ["incidents"]),
        yp.set_field(crlf, "notes", "line one\nline two"),
        yp.set_field(crlf, "description", "multi\nline"),
        yp.set_field(crlf, "sources", [{"resource": "https://x.example", "title": "X"}]),
        yp.remove_field(crlf, "tags"),
    ]
    for out in edits:
        assert out != crlf
        assert "\n" not in out.replace("\r\n", "")
        assert out.endswith("---\r\n# Body\r\n\r\nText.\r\n")
    assert edits[3] == crlf.replace(
        "x-owner: team:sre\r\n", "x-owner: team:sre\r\nnotes: |-\r\n  line one\r\n  line two\r\n"
    )


def test_multi_line_string():
    out = yp.set_field(DOC, "description", "Line one.\nLine two.")
    assert out == DOC.replace(
        "description: 'How we respond.'\n", "description: |-\n  Line one.\n  Line two.\n"
    )
    out = yp.set_field(DOC, "notes", "kept\n---\nnot a delimiter\n")
    assert out.endswith("notes: |\n  kept\n  ---\n  not a delimiter\n---\n# Body\n\nText.\n")
    assert fm.parse(out).data["notes"] == "kept\n---\nnot a delimiter\n"


def test_dates_and_datetimes():
    text = "---\nstale_after: 2026-01-01\n---\n"
    assert (
        yp.set_field(text, "stale_after", dt.date(2027, 3, 1))
        == "---\nstale_after: 2027-03-01\n---\n"
    )
    when = dt.datetime(2027, 3, 1, 8, 30, tzinfo=dt.timezone.utc)
    assert (
        yp.set_field(text, "stale_after", when) == "---\nstale_after: 2027-03-01T08:30:00Z\n---\n"
    )
    plus2 = dt.datetime(2027, 3, 1, 8, 30, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert yp.set_field(text, "stale_after", plus2) == (
        "---\nstale_after: 2027-03-01T08:30:00+02:00\n---\n"
    )


def test_datetime_without_timezone_is_refused():
    with pytest.raises(EditError, match="UTC offset"):
        yp.set_field(DOC, "stale_after", dt.datetime(2027, 3, 1, 8, 30))


@pytest.mark.parametrize(
    "value",
    [
        "red \x1b[31malert\x1b[0m",
        "nul\x00byte",
        "bell\x07",
        "c1 \x9b control",
        "carriage\rreturn",
        ["ok", "bad\x1b[2J"],
        {"by": "human:a\x1b]0;title\x07"},
    ],
)
def test_control_characters_are_refused(value):
    with pytest.raises(EditError, match="control characters"):
        yp.set_field(DOC, "title", value)


@pytest.mark.parametrize("value", [object(), {1: "a"}, b"bytes", {"a": object()}, {1, 2}])
def test_values_yaml_cannot_hold_are_refused(value):
    with pytest.raises(EditError):
        yp.set_field(DOC, "title", value)


def test_value_that_would_not_read_back_is_refused():
    with pytest.raises(EditError, match="read back"):
        yp.set_field(DOC, "score", float("nan"))


def test_duplicate_key_is_refused():
    text = "---\ntype: Note\ntitle: a\ntitle: b\n---\n"
    with pytest.raises(EditError, match="more than once"):
        yp.set_field(text, "title", "c")
    with pytest.raises(EditError, match="more than once"):
        yp.remove_field(text, "title")


@pytest.mark.parametrize(
    "text",
    [
        "---\ntype: [\n---\n",  # invalid YAML
        "---\n- a\n---\n",  # not a mapping
        "---\n{type: Note}\n---\n",  # one flow mapping
        "---\ntype: Note\n",  # never closed
    ],
)
def test_unreadable_frontmatter_is_not_edited(text):
    with pytest.raises(EditError):
        yp.set_field(text, "title", "x")


def test_normalize():
    assert yp.normalize(("a", dt.date(2026, 1, 2))) == ["a", Timestamp("2026-01-02")]
    assert yp.normalize({"at": dt.date(2026, 1, 2)}) == {"at": "2026-01-02"}
    with pytest.raises(EditError, match="keys must be strings"):
        yp.normalize({1: "a"})


# --- property tests ----------------------------------------------------------------------

KEYS = [
    "type",
    "title",
    "description",
    "tags",
    "sources",
    "generated",
    "verified",
    "status",
    "stale_after",
    "resource",
    "x-custom",
    "okf_note",
    "usage_count",
]
TRICKY = [
    "a: b",
    "#x",
    "[draft] X",
    "Café — ☕",
    "yes",
    "null",
    "0.2",
    "2026-01-01",
    "x #y",
    "'q'",
    '"dq"',
    "- dash",
    "a, b",
    "{b}",
    "@at",
    "`tick`",
    "%p",
    "!bang",
    "*star",
    "&amp",
    "  lead",
    "trail ",
    "tab\there",
    "",
    "~",
    "back\\slash",
    "--- x",
    "a --- b",
    "ß ünï cødé",
    "a?b",
    "0?",
]
MULTI_LINE = ["multi\nline", "trailing newline\n", "a\n\nb"]

texts = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=16),
)
timestamps = st.sampled_from(
    ["2026-06-30T14:00:00Z", "2026-06-30", "2027-03-18T00:00:00+02:00", "2026-06-30 14:00:00"]
).map(Timestamp)
scalars = st.one_of(
    texts,
    st.integers(-(10**6), 10**6),
    st.booleans(),
    timestamps,
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
)
by_at = st.fixed_dictionaries(
    {"by": st.sampled_from(["human:ana", "process:sync", "kas-tui/0.3.0"]), "at": timestamps}
)
values = st.one_of(
    scalars,
    st.sampled_from(MULTI_LINE),
    st.lists(texts, max_size=4),
    st.lists(by_at, max_size=3),
    by_at,
)
mappings = st.dictionaries(st.sampled_from(KEYS), values, min_size=1, max_size=7)
styles = st.fixed_dictionaries(
    {
        "flow": st.booleans(),
        "pad": st.booleans(),
        "indent": st.sampled_from([0, 2, 4]),
        "quote": st.sampled_from([None, "'", '"']),
        "comments": st.booleans(),
        "crlf": st.booleans(),
    }
)


def _scalar(value, quote=None) -> str:
    if isinstance(value, Timestamp):
        return str(value)
    if isinstance(value, str):
        out = yaml.safe_dump(value, default_style=quote, allow_unicode=True, width=10**9)
    else:
        out = yaml.safe_dump(value)
    return out[:-5] if out.endswith("\n...\n") else out.rstrip("\n")


def _flow_item(value) -> str:
    if isinstance(value, Timestamp):
        return str(value)
    return yaml.safe_dump([value], default_flow_style=True, allow_unicode=True, width=10**9)[1:-2]


def _flow_map(mapping: dict, pad: bool) -> str:
    inner = ", ".join(f"{k}: {_flow_item(v)}" for k, v in mapping.items())
    return f"{{ {inner} }}" if pad else f"{{{inner}}}"


def render(mapping: dict, style: dict) -> str:
    """Hand-written frontmatter for ``mapping`` in one of several house styles."""
    ind = " " * style["indent"]
    out: list[str] = []
    for i, (key, value) in enumerate(mapping.items()):
        if style["comments"] and i % 2:
            out.append(f"# comment {i}\n")
        if isinstance(value, list) and not value:
            out.append(f"{key}: []\n")
        elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
            out.append(f"{key}:\n")
            for item in value:
                if style["flow"]:
                    out.append(f"{ind}- {_flow_map(item, style['pad'])}\n")
                else:
                    for j, (k, v) in enumerate(item.items()):
                        out.append(f"{ind}{'- ' if j == 0 else '  '}{k}: {_scalar(v)}\n")
        elif isinstance(value, list) and style["flow"]:
            items = ", ".join(_flow_item(v) for v in value)
            out.append(f"{key}: [ {items} ]\n" if style["pad"] else f"{key}: [{items}]\n")
        elif isinstance(value, list):
            out.append(f"{key}:\n")
            if style["comments"]:
                out.append(f"{ind or '  '}# about {key}\n")
            quote = style["quote"]
            out.extend(
                f"{ind}- {_scalar(v, quote if isinstance(v, str) else None)}\n" for v in value
            )
        elif isinstance(value, dict):
            if style["flow"]:
                out.append(f"{key}: {_flow_map(value, style['pad'])}\n")
            else:
                out.append(f"{key}:\n")
                out.extend(f"  {k}: {_scalar(v)}\n" for k, v in value.items())
        elif isinstance(value, str) and "\n" in value:
            buf = io.StringIO()
            dumper = yaml.SafeDumper(buf, allow_unicode=True, width=10**9)
            dumper.open()
            node = dumper.represent_data({key: value})
            node.flow_style = False
            if style["quote"]:
                node.value[0][1].style = style["quote"]
            dumper.serialize(node)
            dumper.close()
            out.append(buf.getvalue())
        else:
            is_text = isinstance(value, str) and not isinstance(value, Timestamp)
            line = f"{key}: {_scalar(value, style['quote'] if is_text else None)}"
            if style["comments"] and i % 3 == 0:
                line += "  # note"
            out.append(line + "\n")
    text = "---\n" + "".join(out) + "---\n# Body\n\nSee [x](/x.md).\n"
    return text.replace("\n", "\r\n") if style["crlf"] else text


def key_span(lines: list[str], key: str) -> tuple[int, int] | None:
    """[start, end) of the lines of top-level ``key`` (its value and nested comments)."""
    start = None
    for i, line in enumerate(lines):
        if i == 0:
            continue
        if start is None:
            if line.startswith(f"{key}:"):
                start = i
        elif line.rstrip("\r\n") == "---" or line[:1] not in (" ", "\t", "-", "\r", "\n"):
            return start, i
    return None if start is None else (start, len(lines))


#: More examples for a deep run: ``KAS_TEST_EXAMPLES=2000 pytest tests/test_yaml_patch.py``.
EXAMPLES = int(os.environ.get("KAS_TEST_EXAMPLES", "60"))
PROPERTY = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY
@given(mappings, styles)
def test_property_rendered_frontmatter_reads_back(mapping, style):
    text = render(mapping, style)
    parsed = fm.parse(text)
    assert parsed.data == mapping
    assert list(parsed.data) == list(mapping)


@PROPERTY
@given(mappings, styles)
def test_property_setting_every_existing_value_is_byte_identical(mapping, style):
    text = render(mapping, style)
    for key, value in mapping.items():
        assert yp.set_field(text, key, value) == text


@PROPERTY
@given(st.lists(st.tuples(st.sampled_from(KEYS), values), min_size=1, max_size=8))
def test_property_frontmatter_written_by_set_field_is_a_fixed_point(edits):
    text = "# Body\n"
    for key, value in edits:
        text = yp.set_field(text, key, value)
    data = fm.parse(text).data
    assert data == dict(edits)
    assert pure_load(text) == data  # libyaml and the editor's pure-Python loader agree
    for key, value in data.items():
        assert yp.set_field(text, key, value) == text


@PROPERTY
@given(mappings, styles, st.sampled_from(KEYS), values)
def test_property_setting_one_field_changes_only_its_lines(mapping, style, key, value):
    text = render(mapping, style)
    out = yp.set_field(text, key, value)
    expected = dict(mapping)
    expected[key] = value
    parsed = fm.parse(out).data
    assert parsed == expected
    assert list(parsed) == list(expected)  # order kept; a new key goes last
    if style["crlf"]:
        assert "\n" not in out.replace("\r\n", "")
    old_lines, new_lines = text.splitlines(keepends=True), out.splitlines(keepends=True)
    closing = next(i for i, line in enumerate(old_lines) if i and line.rstrip("\r\n") == "---")
    old_start, old_end = key_span(old_lines, key) or (closing, closing)  # a new key goes last
    new_start, new_end = key_span(new_lines, key)
    # every line outside the key's old/new span is identical, in place
    assert new_start == old_start
    assert new_lines[:new_start] == old_lines[:old_start]
    assert new_lines[new_end:] == old_lines[old_end:], "".join(
        difflib.unified_diff(old_lines, new_lines)
    )


@PROPERTY
@given(mappings, styles, st.data())
def test_property_removing_one_field_removes_only_its_lines(mapping, style, data):
    text = render(mapping, style)
    key = data.draw(st.sampled_from(sorted(mapping)))
    out = yp.remove_field(text, key)
    assert fm.parse(out).data == {k: v for k, v in mapping.items() if k != key}
    old_lines, new_lines = text.splitlines(keepends=True), out.splitlines(keepends=True)
    start, end = key_span(old_lines, key)
    cut = start + len(old_lines) - len(new_lines)  # lines [start, cut) were removed
    assert start < cut <= end
    assert new_lines == old_lines[:start] + old_lines[cut:]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("crlf-bom") / "doc.md"


@PROPERTY
@given(mapping=mappings, style=styles, key=st.sampled_from(KEYS), value=values, bom=st.booleans())
def test_property_crlf_and_bom_survive_an_edit_through_the_store(
    scratch, mapping, style, key, value, bom
):
    style = dict(style, crlf=True)
    before = encode(render(mapping, style), bom)
    scratch.write_bytes(before)
    store = Store()
    change = store.apply(scratch, lambda text: yp.set_field(text, key, value))
    after = scratch.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf") == bom
    assert after.count(b"\xef\xbb\xbf") == int(bom)
    assert b"\n" not in after.replace(b"\r\n", b"")
    decoded = decode(after)
    assert fm.parse(decoded.text).data == {**mapping, key: value}
    if change is None:
        assert after == before
    else:
        assert change.before == before and change.after == after
