"""The frontmatter form's headless checks: one field at a time, text in, (value, error) out."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kas_tui.core import form_fields as F
from kas_tui.core.okf.errors import EditError
from kas_tui.core.okf.timestamp import Timestamp

ROOT = Path(__file__).resolve().parents[2]
TODAY = dt.date(2026, 11, 30)

# --- control characters and terminal escapes ------------------------------------------------


@pytest.mark.parametrize(
    ("pasted", "clean", "removed"),
    [
        ("\x1b[31mred\x1b[0m", "red", ["\x1b[31m", "\x1b[0m"]),
        ("\x1b[1;38;5;196mbold\x1b[m", "bold", ["\x1b[1;38;5;196m", "\x1b[m"]),
        ("\x1b]0;evil title\x07x", "x", ["\x1b]0;evil title\x07"]),
        ("\x1b]8;;https://e.x\x1b\\link\x1b]8;;\x1b\\", "link", ["\x1b]8;;https://e.x\x1b\\"]),
        ("a\x1bcb", "ab", ["\x1bc"]),
        (
            "bell\x07 nul\x00 del\x7f c1\x9b2J",
            "bell nul del c1",
            ["\x9b2J", "\x07", "\x00", "\x7f"],
        ),
        ("tab\there", "tab here", []),
        ("two\nlines\r\nhere", "two lines here", []),
        ("plain — ünïcode ✓", "plain — ünïcode ✓", []),
    ],
)
def test_sanitize(pasted: str, clean: str, removed: list[str]) -> None:
    got, gone = F.sanitize(pasted)
    assert got == clean
    assert gone[: len(removed)] == removed


def test_sanitize_keeps_line_breaks_when_multiline() -> None:
    assert F.sanitize("a\r\nb\x1b[2Kc", multiline=True) == ("a\nbc", ["\x1b[2K"])


def test_describe_removed() -> None:
    _, removed = F.sanitize("\x1b[31mred\x1b[0m\x07")
    assert F.describe_removed(removed) == (
        "Removed 2 terminal escape sequences (\\x1b[31m, \\x1b[0m) and 1 control character "
        "from the pasted text"
    )
    assert F.describe_removed([]) == ""


@given(st.text())
def test_sanitize_leaves_no_control_character(text: str) -> None:
    clean, _ = F.sanitize(text)
    assert F.control_error(clean) is None
    assert "\n" not in clean and "\t" not in clean
    assert F.sanitize(clean) == (clean, []), "idempotent"


@given(st.text(st.characters(blacklist_categories=("Cc", "Cs"))))
def test_sanitize_keeps_plain_text(text: str) -> None:
    assert F.sanitize(text) == (text, [])


def test_control_error_names_the_characters() -> None:
    assert F.control_error("fine\ttext\n") is None
    assert F.control_error("a\x1b[31mb\x07") == (
        "contains control characters (\\x1b, \\x07); remove them (pasted terminal escapes?)"
    )


# --- one field at a time --------------------------------------------------------------------


def test_type_is_required() -> None:
    assert F.parse_type("  Runbook ") == ("Runbook", None)
    value, error = F.parse_type("   ")
    assert value is None and "type is required" in error
    assert "control characters" in F.parse_type("Run\x00book")[1]


def test_optional_text_empties_to_remove() -> None:
    assert F.parse_text(" Refund policy ") == ("Refund policy", None)
    assert F.parse_text("") == (F.REMOVE, None)
    assert F.parse_text("[bold]x[/bold]") == ("[bold]x[/bold]", None), "markup is just text"


def test_description_is_one_line() -> None:
    assert F.parse_description("One line\nand the rest. ") == ("One line and the rest.", None)
    assert F.parse_description(" \n ") == (F.REMOVE, None)


def test_description_notes() -> None:
    (level, count), *rest = F.description_notes("How support triages a disputed invoice.")
    assert (level, count) == ("info", "39 characters · ~10 tokens") and rest == []
    notes = dict(F.description_notes("First sentence here. Second one follows."))
    assert notes["warning"].startswith("more than one sentence")
    long = F.description_notes("word " * 400)
    assert long[0] == ("info", "1,999 characters · ~500 tokens")
    assert any("long: over ~200 characters" in m for _, m in long)
    assert any(
        "says nothing" in m for _, m in F.description_notes("Refund policy", "Refund policy")
    )
    assert F.description_notes("")[1] == (
        "hint",
        "empty: an agent choosing a path has nothing to go on",
    )


def test_tags() -> None:
    assert F.split_tags(" a, b ,, a,c d ,") == ["a", "b", "c d"]
    assert F.parse_tags("billing, refunds") == (["billing", "refunds"], None)
    assert F.parse_tags(" , ") == (F.REMOVE, None)
    assert "control characters" in F.parse_tags("ok, b\x1bad")[1]
    assert "tags are short words" in F.parse_tags("x" * 61)[1]


@given(st.lists(st.text(st.characters(blacklist_characters=",\n", blacklist_categories=("Cc",)))))
def test_tags_round_trip(tags: list[str]) -> None:
    wanted = list(dict.fromkeys(t.strip() for t in tags if t.strip()))
    assert F.split_tags(F.format_tags(wanted)) == wanted


def test_status() -> None:
    assert F.parse_status("draft") == ("draft", None)
    assert F.parse_status(None) == (F.REMOVE, None)
    assert "must be one of draft, stable, deprecated" in F.parse_status("Stable")[1]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2027-01-01", Timestamp("2027-01-01")),
        (" 2027-01-01T00:00:00Z ", Timestamp("2027-01-01T00:00:00Z")),
        ("2027-06-30T14:00:00+02:00", Timestamp("2027-06-30T14:00:00+02:00")),
        ("2027-06-30T14:00:00.250-05:30", Timestamp("2027-06-30T14:00:00.250-05:30")),
        # ISO 8601 without seconds: `check` always accepted it, now the form does too
        ("2027-01-01T00:00Z", Timestamp("2027-01-01T00:00Z")),
        ("", F.REMOVE),
    ],
)
def test_timestamps_accepted(text: str, value: object) -> None:
    parsed, error = F.parse_timestamp(text)
    assert error is None and parsed == value
    assert type(parsed) is type(value), "kept as the text written"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("2027-02-30", "not a date: day is out of range for month"),
        ("2027-13-01", "not a date: month must be in 1..12"),
        ("2027-01-01T00:00:00", "add the UTC offset: 2027-01-01T00:00:00Z (UTC)"),
        ("2027-01-01T25:00:00Z", "not a date and time: hour must be in 0..23"),
        ("2027-01-01T00:00:00+24:00", "the offset +24:00 is not a time zone offset"),
        ("next year", "not a timestamp: write YYYY-MM-DD"),
        ("27-1-1", "not a timestamp"),
    ],
)
def test_timestamps_refused(text: str, error: str) -> None:
    value, message = F.parse_timestamp(text)
    assert value is None and message.startswith(error)


def test_relative_dates() -> None:
    # from today (no current value): offset datetimes, as OKF writes every timestamp
    assert F.relative_date("+90", TODAY) == "2027-02-28T00:00:00Z"
    assert F.relative_date(" + 30 days", TODAY) == "2026-12-30T00:00:00Z"
    assert F.relative_date("+365d", TODAY) == "2027-11-30T00:00:00Z"
    assert F.relative_date("90", TODAY) is None
    assert F.parse_timestamp("+30", TODAY) == (Timestamp("2026-12-30T00:00:00Z"), None)
    # from the field's current value when it is later: extending never shortens
    assert F.relative_date("+30", TODAY, "2027-01-31") == "2027-03-02T00:00:00Z"
    assert F.parse_timestamp("+30", TODAY, "2026-01-01")[0] == "2026-12-30T00:00:00Z"
    assert F.parse_timestamp("+30")[1] is not None, "only with a today"
    assert F.days_from(TODAY, 365) == "2027-11-30T00:00:00Z"


def test_describe_stale_after() -> None:
    assert F.describe_stale_after("2027-01-01T00:00:00Z", TODAY) == "fresh for 32 days"
    assert F.describe_stale_after("2026-11-29", TODAY) == "stale since 1 day"
    assert F.describe_stale_after("", TODAY).startswith("no stale_after")
    assert F.describe_stale_after("soon", TODAY) == ""


# --- sources --------------------------------------------------------------------------------


def test_build_source_keeps_the_other_keys_in_order() -> None:
    base = {
        "id": "matrix",
        "resource": "/refunds.csv",
        "title": "Matrix",
        "author": "team:payments",
        "usage_count": 3,
    }
    entry, error = F.build_source(base, " /refunds-2027.csv ", "", "matrix")
    assert error is None
    assert list(entry) == ["id", "resource", "author", "usage_count"]
    assert entry["resource"] == "/refunds-2027.csv" and base["title"] == "Matrix"
    assert F.build_source(None, "https://x.example", "X", "") == (
        {"resource": "https://x.example", "title": "X"},
        None,
    )
    assert F.build_source(None, " ", "Title only", "")[1].startswith("a source needs a resource")
    assert "control characters" in F.build_source(None, "https://x", "a\x07", "")[1]


def test_source_text_and_duplicate_ids() -> None:
    assert F.source_text({"resource": "r", "id": 7}) == ("r", "", "7")
    assert F.source_text("https://plain.example") == ("https://plain.example", "", "")
    entries = [{"resource": "a", "id": "x"}, {"resource": "b"}, {"resource": "c", "id": "x"}]
    assert F.duplicate_ids(entries) == {2: "id 'x' is already used by source 1"}


# --- any other field ------------------------------------------------------------------------


def test_yaml_values() -> None:
    assert F.parse_yaml_value("team:sre") == ("team:sre", None)
    assert F.parse_yaml_value("[a, b]") == (["a", "b"], None)
    assert F.parse_yaml_value("{by: human:ana, at: 2026-06-25T09:00:00Z}") == (
        {"by": "human:ana", "at": Timestamp("2026-06-25T09:00:00Z")},
        None,
    )
    assert F.parse_yaml_value("") == (None, None)
    assert F.parse_yaml_value("[a")[1].startswith("not valid YAML")
    assert F.parse_yaml_value("{1: a}")[1] == "mapping keys must be strings, not int"
    assert "control characters" in F.parse_yaml_value('"\\e[31m"')[1]
    assert F.parse_yaml_value("!!python/object:os.system {}")[1].startswith("not valid YAML")


def test_format_yaml_value() -> None:
    assert F.format_yaml_value(None) == ""
    assert F.format_yaml_value("null") == "'null'"
    assert F.format_yaml_value(Timestamp("2026-01-01T00:00:00Z")) == "2026-01-01T00:00:00Z"
    assert F.format_yaml_value({"by": "human:x", "n": [1, 2]}) == "{by: human:x, n: [1, 2]}"
    assert F.format_yaml_value("two\nlines") == '"two\\nlines"'


_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")))
)
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(st.characters(blacklist_categories=("Cc", "Cs"))), inner, max_size=4
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300)
@given(_VALUE)
@example("\xa0")  # a lone no-break space is a value, not an empty field
def test_yaml_value_round_trip(value: object) -> None:
    """What the one-line editor shows reads back as the same value."""
    text = F.format_yaml_value(value)
    assert "\n" not in text
    assert F.parse_yaml_value(text) == (value, None)


# --- history, keys and whole blocks -----------------------------------------------------------


def test_history() -> None:
    meta = {
        "generated": {"by": "kas-tui/0.3.0", "at": Timestamp("2026-03-01T08:00:00Z")},
        "verified": {"by": "human:lena", "at": Timestamp("2026-07-02")},
    }
    assert F.history(meta) == [
        ("generated", "kas-tui/0.3.0", "2026-03-01T08:00:00Z"),
        ("verified", "human:lena", "2026-07-02"),
    ]
    assert F.history({"verified": ["human:x", {"by": "process:sync"}]}) == [
        ("verified", "human:x", ""),
        ("verified", "process:sync", ""),
    ]
    assert F.history({}) == []


def test_check_key() -> None:
    assert F.check_key("owner", ["type"]) is None
    assert F.check_key("owner", ["owner"]) == "owner is already a field of this document"
    assert F.check_key("sources", []) == "sources is already a field of this document"
    assert F.check_key("", []) == "name the field"
    assert F.check_key("two words", []).startswith("a field name is")


YAML = """\
type: Policy
title: Refund policy  # shown in the tree
tags: [billing, refunds]
owner: team:payments
"""


def test_apply_changes_is_byte_minimal() -> None:
    out = F.apply_changes(YAML, [("title", "Refunds"), ("owner", F.REMOVE), ("status", "draft")])
    assert out == (
        "type: Policy\ntitle: Refunds  # shown in the tree\ntags: [billing, refunds]\n"
        "status: draft\n"
    )
    assert F.apply_changes(YAML, []) == YAML
    crlf = YAML.replace("\n", "\r\n")
    assert F.apply_changes(crlf, [("type", "Runbook")]) == crlf.replace("Policy", "Runbook")


def test_apply_changes_names_the_key_it_cannot_write() -> None:
    with pytest.raises(EditError) as caught:
        F.apply_changes("owner: a\nowner: b\n", [("owner", "c")])
    assert caught.value.path == "owner" and "appears more than once" in caught.value.message


def test_frontmatter_text_and_parse_block() -> None:
    assert F.frontmatter_text("---\ntype: A\n---\nbody\n") == "type: A\n"
    assert F.frontmatter_text("# no frontmatter\n") is None
    assert F.parse_block(YAML)[0]["owner"] == "team:payments"
    assert F.parse_block("") == ({}, None, None)
    data, error, line = F.parse_block("type: A\nstatus: [stable\nowner: x\n")
    # The [ opened on line 2 is to blame, though PyYAML only notices it on line 3.
    assert data is None and line == 2 and error.startswith("invalid YAML")
    assert "not closed with ]" in error and "line 3" in error
    assert F.parse_block("- a\n- b\n")[1].startswith("the frontmatter must be a YAML mapping")


def test_check_meta() -> None:
    assert F.check_meta({"type": "Policy", "status": "stable", "tags": ["a"]}) == {}
    errors = F.check_meta(
        {"status": "done", "stale_after": "soon", "tags": "a", "description": "x"}
    )
    assert set(errors) == {"type", "status", "stale_after", "tags"}


def test_the_module_is_headless() -> None:
    script = (
        "import json, sys, kas_tui.core.form_fields; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'textual')))"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(result.stdout) == []
