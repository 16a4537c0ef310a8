"""log.md: date groups newest first, problems with their lines, appending entries."""

from __future__ import annotations

import pytest

from kas_tui.core.okf import log as lg
from kas_tui.core.okf.errors import EditError

LOG = """\
---
title: Update log
---
# Update log

## 2026-11-30: Quarterly review
* **Update**: Revised [Incident response](/incidents/incident-response.md) severity table.
* **Creation**: Imported [Refund policy](/billing/refund-policy.md) from refund-policy.pdf.
- plain bullet without a kind

## 2026-11-02
* **Initialization** Created the package.
"""


def test_parse_groups_bullets_kinds_and_summary():
    log = lg.parse_log(LOG)
    assert log.title == "Update log"
    assert log.problems == []
    assert [(g.date, g.line, g.summary) for g in log.groups] == [
        ("2026-11-30", 6, "Quarterly review"),
        ("2026-11-02", 11, None),
    ]
    first, second = log.groups
    assert [(b.line, b.kind, b.bullet) for b in first.bullets] == [
        (7, "Update", "*"),
        (8, "Creation", "*"),
        (9, None, "-"),
    ]
    assert first.bullets[0].text == (
        "**Update**: Revised [Incident response](/incidents/incident-response.md) severity table."
    )
    assert [(b.line, b.kind) for b in second.bullets] == [(12, "Initialization")]


def test_frontmatter_is_tolerated_and_crlf_read():
    crlf = LOG.replace("\n", "\r\n")
    log = lg.parse_log(crlf)
    assert log.problems == []
    assert [g.date for g in log.groups] == ["2026-11-30", "2026-11-02"]
    assert log.groups[0].bullets[0].text.endswith("severity table.")
    without = lg.parse_log(LOG.split("---\n", 2)[2])
    assert [g.line for g in without.groups] == [3, 8]


def test_broken_frontmatter_is_a_problem():
    log = lg.parse_log("---\ntitle: [\n---\n# Log\n\n## 2026-01-01\n* x\n")
    assert len(log.problems) == 1
    assert log.problems[0].line is not None


def test_problems_carry_their_lines():
    text = """\
# Log

## November 2026
* x

## 2026-10-01
* a

## 2026-11-01
* b

## 2026-09-01

## 2026-02-30
* not a real day

## 2026-08-01
* c
"""
    problems = [(p.line, p.message) for p in lg.parse_log(text).problems]
    assert problems == [
        (3, "log heading '## November 2026' is not an ISO date"),
        (14, "log heading '## 2026-02-30' is not an ISO date"),
        (9, "log date 2026-11-01 comes after the older 2026-10-01; newest must come first"),
        (12, "log date group 2026-09-01 has no entries"),
    ]
    for problem in lg.parse_log(text).problems:
        assert problem.hint


def test_bullets_in_a_fence_and_before_any_group_do_not_count():
    text = "# Log\n\n* stray bullet\n\n## 2026-01-01\n```\n* fenced\n```\n"
    log = lg.parse_log(text)
    assert log.groups[0].bullets == []
    assert [p.message for p in log.problems] == ["log date group 2026-01-01 has no entries"]


def test_line_separator_characters_do_not_shift_lines():
    text = "# Log\n\n## 2026-01-02\n* **Update**: a\u2028b\x0cc\n\n## 2026-01-01\n* x\n"
    log = lg.parse_log(text)
    assert [(g.date, g.line) for g in log.groups] == [("2026-01-02", 3), ("2026-01-01", 6)]
    assert log.groups[0].bullets[0].text == "**Update**: a\u2028b\x0cc"
    out = lg.append_log_entry(text, "2026-01-02", "Update", "new")
    assert out == text.replace("b\x0cc\n", "b\x0cc\n* **Update**: new\n")


# --- appending ---------------------------------------------------------------------------


def test_same_day_goes_after_the_days_bullets():
    out = lg.append_log_entry(LOG, "2026-11-30", "Update", "Same day.")
    assert out == LOG.replace(
        "- plain bullet without a kind\n",
        "- plain bullet without a kind\n* **Update**: Same day.\n",
    )


def test_new_day_goes_on_top():
    out = lg.append_log_entry(LOG, "2026-12-01", "Update", "  New day.  ")
    assert out == LOG.replace(
        "## 2026-11-30: Quarterly review\n",
        "## 2026-12-01\n* **Update**: New day.\n\n## 2026-11-30: Quarterly review\n",
    )
    assert lg.parse_log(out).problems == []


def test_a_past_day_keeps_the_log_newest_first():
    text = "# Log\n\n## 2026-11-30\n* a\n\n## 2026-11-02\n* b\n"
    middle = lg.append_log_entry(text, "2026-11-15", "Update", "mid")
    assert middle == text.replace(
        "## 2026-11-02\n", "## 2026-11-15\n* **Update**: mid\n\n## 2026-11-02\n"
    )
    oldest = lg.append_log_entry(text, "2026-10-15", "Update", "old")
    assert oldest == text + "\n## 2026-10-15\n* **Update**: old\n"
    assert lg.parse_log(middle).problems == []
    assert lg.parse_log(oldest).problems == []


def test_new_file():
    assert lg.append_log_entry(None, "2026-12-01", "Initialization", "Created.") == (
        "# Update log\n\n## 2026-12-01\n* **Initialization**: Created.\n"
    )
    assert lg.append_log_entry("", "2026-12-01", "Update", "x") == (
        "# Update log\n\n## 2026-12-01\n* **Update**: x\n"
    )
    assert lg.append_log_entry("# Update log\n", "2026-12-01", "Update", "x") == (
        "# Update log\n\n## 2026-12-01\n* **Update**: x\n"
    )


def test_crlf_is_kept():
    text = "# Update log\r\n\r\n## 2026-11-02\r\n* **Init**: x\r\n"
    assert lg.append_log_entry(text, "2026-12-01", "Update", "y") == (
        "# Update log\r\n\r\n## 2026-12-01\r\n* **Update**: y\r\n\r\n"
        "## 2026-11-02\r\n* **Init**: x\r\n"
    )
    assert lg.append_log_entry(text.rstrip("\r\n"), "2026-11-02", "Update", "y") == (
        text + "* **Update**: y\r\n"
    )


def test_bullet_style_is_followed():
    text = "# Update log\n\n## 2026-11-02\n- **Init**: x\n"
    assert lg.append_log_entry(text, "2026-11-02", "Update", "y") == text + "- **Update**: y\n"
    assert lg.append_log_entry(text, "2026-11-03", "Update", "y").count("- **Update**: y\n") == 1
    plus = text.replace("- **Init**", "+ **Init**")
    assert lg.append_log_entry(plus, "2026-11-02", "Update", "y") == plus + "+ **Update**: y\n"


@pytest.mark.parametrize(
    ("date", "kind", "message"),
    [
        ("2026-1-1", "Update", "m"),
        ("yesterday", "Update", "m"),
        ("2026-01-01", "Up\ndate", "m"),
        ("2026-01-01", "Up\x1bdate", "m"),
    ],
)
def test_bad_entries_are_refused(date, kind, message):
    with pytest.raises(EditError):
        lg.append_log_entry(LOG, date, kind, message)


def test_format_bullet():
    assert lg.format_bullet(" Update ", " text ") == "* **Update**: text"
    assert lg.format_bullet("Update", "text", "-") == "- **Update**: text"


@pytest.mark.parametrize(
    ("message", "written"),
    [
        ("two\nlines", "two\\nlines"),
        ("clear \x1b[2J screen", "clear \\x1b[2J screen"),
        ("moved bad\rname\x1b]0;pwned\x07.md", "moved bad\\rname\\x1b]0;pwned\\x07.md"),
    ],
)
def test_a_message_naming_a_hostile_file_stays_one_line_written_out(message, written):
    """A message names files, and a file name may hold anything (issue 30, item 4)."""
    text = lg.append_log_entry(LOG, "2026-11-02", "Update", message)
    assert f"* **Update**: {written}\n" in text
    assert "\x1b" not in text and "\r" not in text
