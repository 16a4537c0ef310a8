"""index.md: parsing every style seen in the wild, lossless rendering, one-line edits."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kas_tui.core.okf import index as ix
from kas_tui.core.okf.errors import EditError

WILD = """\
---
okf_version: "0.2"
---
# Bundles

Curator prose with a [link](foo.md) inline; it is not an entry.

* [On-call](oncall/) - How on-call works.
- [Incidents](incidents/index.md) -- Severity levels and response.
+ [Title with \\[brackets\\]](a.md) — Em dash separator.
* [Colon](b.md): Colon separator.
* [No description](c.md)
* [[bold] thing](d.md) - Nested brackets in the title.
* [Back\\\\slash](e.md) - A backslash in the title.
* [Angle](<my doc (1).md>) - Angle-bracket target.
* [Link title](f.md "The title") - Destination with a link title.
  * [Nested](g.md) - A nested item.
* [En dash](h.md) – En dash separator.
*   [Wide gap](i.md)    -    Wide separator.\x20\x20\x20

```
* [In fence](x.md) - ignored.
```

~~~markdown
- [In tilde fence](x2.md) - ignored.
~~~

    * [Indented code](y.md) - ignored.

<div>
* [In html](z.md) - ignored.
</div>

## Sub section
* [Sub](j.md) - Sub entry.
"""


def entries_by_title(text: str) -> dict[str, ix.Entry]:
    return {e.title: e for e in ix.parse_index(text).entries}


def line_of(text: str, needle: str) -> int:
    for n, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return n
    raise AssertionError(f"{needle!r} not in text")


# --- parsing -----------------------------------------------------------------------------


def test_parse_every_style_seen_in_the_wild():
    index = ix.parse_index(WILD)
    got = [
        (e.line, e.section, e.bullet, e.title, e.target, e.sep, e.description)
        for e in index.entries
    ]
    assert got == [
        (8, "Bundles", "*", "On-call", "oncall/", " - ", "How on-call works."),
        (
            9,
            "Bundles",
            "-",
            "Incidents",
            "incidents/index.md",
            " -- ",
            "Severity levels and response.",
        ),
        (10, "Bundles", "+", "Title with [brackets]", "a.md", " — ", "Em dash separator."),
        (11, "Bundles", "*", "Colon", "b.md", ": ", "Colon separator."),
        (12, "Bundles", "*", "No description", "c.md", "", ""),
        (13, "Bundles", "*", "[bold] thing", "d.md", " - ", "Nested brackets in the title."),
        (14, "Bundles", "*", "Back\\slash", "e.md", " - ", "A backslash in the title."),
        (15, "Bundles", "*", "Angle", "my doc (1).md", " - ", "Angle-bracket target."),
        (16, "Bundles", "*", "Link title", "f.md", " - ", "Destination with a link title."),
        (17, "Bundles", "*", "Nested", "g.md", " - ", "A nested item."),
        (18, "Bundles", "*", "En dash", "h.md", " – ", "En dash separator."),
        (19, "Bundles", "*", "Wide gap", "i.md", "    -    ", "Wide separator."),
        (36, "Sub section", "*", "Sub", "j.md", " - ", "Sub entry."),
    ]
    assert index.entries[9].indent == "  "
    assert index.entries[11].gap == "   "
    assert index.entries[11].trailing == "   \n"
    assert index.entries[2].title_raw == "Title with \\[brackets\\]"


def test_frontmatter_and_sections():
    index = ix.parse_index(WILD)
    assert index.frontmatter == {"okf_version": "0.2"}
    assert index.body_line == 4
    assert index.problems == []
    assert [(s.title, s.level, s.line) for s in index.sections] == [
        ("Bundles", 1, 4),
        ("Sub section", 2, 35),
    ]


def test_entries_inside_code_and_html_blocks_are_ignored():
    titles = set(entries_by_title(WILD))
    assert not titles & {"In fence", "In tilde fence", "Indented code", "In html"}
    # a heading inside a fence is not a section either
    text = "# Real\n\n```\n# Not a section\n* [X](x.md) - no\n```\n* [Y](y.md) - yes\n"
    index = ix.parse_index(text)
    assert [s.title for s in index.sections] == ["Real"]
    assert [(e.title, e.section) for e in index.entries] == [("Y", "Real")]


def test_curator_prose_is_preserved_byte_for_byte():
    assert ix.parse_index(WILD).render() == WILD
    crlf = WILD.replace("\n", "\r\n")
    index = ix.parse_index(crlf)
    assert index.render() == crlf
    assert index.newline == "\r\n"
    assert index.entries[0].trailing == "\r\n"
    assert (
        ix.parse_index("* [A](a.md) - no final newline").render()
        == "* [A](a.md) - no final newline"
    )


def test_not_entries():
    text = (
        "* plain item\n"
        "* [unclosed](a.md\n"
        "* [text only]\n"
        "* [ref style][r]\n"
        "*[no gap](a.md) - x\n"
        "1. [ordered](o.md) - x\n"
        "#hashtag is prose\n"
    )
    index = ix.parse_index(text)
    assert index.entries == []
    assert index.sections == []


def test_subfolder_links_both_styles():
    by_title = entries_by_title(WILD)
    assert by_title["On-call"].target == "oncall/"
    assert by_title["Incidents"].target == "incidents/index.md"


def test_escaped_target_and_parentheses():
    text = "* [A](a\\(1\\).md) - escaped parens\n* [B](b(2).md) - balanced parens\n"
    assert [e.target for e in ix.parse_index(text).entries] == ["a(1).md", "b(2).md"]


def test_form_feed_or_line_separator_inside_a_line_does_not_split_it():
    text = (
        "* [A](a.md) - x\x0cy\nProse\u2028more\n\n```\n* [F](f.md) - fenced\n```\n"
        "* [B](b.md) - real\n"
    )
    index = ix.parse_index(text)
    assert [(e.line, e.title, e.description) for e in index.entries] == [
        (1, "A", "x\x0cy"),
        (7, "B", "real"),
    ]
    assert index.render() == text
    assert ix.set_entry(text, 7, description="edited") == text.replace("- real", "- edited")


def test_broken_frontmatter_is_a_problem_not_an_exception():
    index = ix.parse_index("---\nokf_version: [\n---\n* [A](a.md) - a\n")
    assert len(index.problems) == 1
    assert index.problems[0].line is not None
    assert index.frontmatter is None


# --- rendering property ------------------------------------------------------------------

EXAMPLES = int(os.environ.get("KAS_TEST_EXAMPLES", "60"))
PROPERTY = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

words = st.text(
    st.characters(
        codec="utf-8",
        exclude_categories=("Cc", "Cs", "Zl", "Zp", "Zs"),
        exclude_characters="\\[]()<>`*_#|&!~",
    ),
    min_size=1,
    max_size=8,
)
phrase = st.lists(words, min_size=1, max_size=4).map(" ".join)
title_text = st.lists(
    st.one_of(words, st.sampled_from(["[", "]", "\\", "[bold]", "a]b", "`code`"])),
    min_size=1,
    max_size=4,
).map(" ".join)
path_part = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=10)


@st.composite
def entry_lines(draw):
    title = draw(title_text)
    title_raw = title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    parts = draw(st.lists(path_part, min_size=1, max_size=3))
    target = "/".join(parts)
    form = draw(st.sampled_from(["plain", "slash", "index", "rooted", "fragment", "angle"]))
    if form == "slash":
        target += "/"
    elif form == "index":
        target += "/index.md"
    elif form == "rooted":
        target = "/" + target + ".md"
    elif form == "fragment":
        target += ".md#part"
    dest = target
    if form == "angle":
        target = f"my {target} (1).md"
        dest = f"<{target}>"
    if draw(st.booleans()):
        dest += ' "A link title"'
    sep = draw(st.sampled_from([" - ", " -- ", " — ", " – ", ": ", "  -  "]))
    description = draw(st.one_of(st.just(""), phrase))
    bullet = draw(st.sampled_from("*-+"))
    indent = draw(st.sampled_from(["", "", "  "]))
    gap = draw(st.sampled_from([" ", " ", "   "]))
    trailing = draw(st.sampled_from(["", "", "  "]))
    line = f"{indent}{bullet}{gap}[{title_raw}]({dest}){sep if description else ''}{description}"
    expected = (title, target, description)
    return line + trailing, expected


@st.composite
def index_files(draw):
    """(text, expected entries) for a generated index with prose, headings and code."""
    blocks = draw(
        st.lists(
            st.one_of(
                entry_lines().map(lambda e: ("entry", e)),
                phrase.map(lambda p: ("prose", "Note " + p)),
                st.tuples(st.integers(1, 3), phrase).map(lambda h: ("heading", h)),
                entry_lines().map(lambda e: ("fence", e)),
                st.just(("blank", "")),
            ),
            max_size=25,
        )
    )
    lines: list[str] = []
    expected: list[tuple] = []
    section = None
    if draw(st.booleans()):
        lines += ["---", 'okf_version: "0.2"', "---"]
    for kind, value in blocks:
        if kind == "entry":
            lines.append(value[0])
            expected.append((len(lines), section, *value[1]))
        elif kind == "prose":
            lines += ["", value, ""]  # a paragraph, kept apart from lists
        elif kind == "heading":
            level, title = value
            lines.append("#" * level + " " + title)
            section = title
        elif kind == "fence":
            lines += ["", "```text", value[0], "```", ""]
        else:
            lines.append("")
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = newline.join(lines)
    if lines and draw(st.booleans()):
        text += newline
    return text, expected


@PROPERTY
@given(index_files())
def test_property_generated_index_round_trips_byte_identically(generated):
    text, expected = generated
    index = ix.parse_index(text)
    assert index.render() == text
    got = [(e.line, e.section, e.title, e.target, e.description) for e in index.entries]
    assert got == expected


@PROPERTY
@given(index_files(), st.data())
def test_property_set_entry_changes_exactly_one_line(generated, data):
    text, expected = generated
    if not expected:
        return
    line = data.draw(st.sampled_from([e[0] for e in expected]))
    title = data.draw(title_text)
    description = data.draw(phrase)
    out = ix.set_entry(text, line, title=title, description=description)
    old, new = text.splitlines(keepends=True), out.splitlines(keepends=True)
    assert len(old) == len(new)
    assert [n for n, (a, b) in enumerate(zip(old, new, strict=True), start=1) if a != b] in (
        [line],
        [],
    )
    entry = next(e for e in ix.parse_index(out).entries if e.line == line)
    assert (entry.title, entry.description) == (title.strip(), description.strip())


# --- set_entry -----------------------------------------------------------------------------

HOUSE = """\
# Triage

Start here.

- [Severity](severity-levels.md) -- SEV levels.
- [Escalation](../oncall/escalation.md) -- Who gets paged.

# Running

- [Response](incident-response.md) -- The procedure.
"""


def test_set_entry_description_changes_one_line():
    out = ix.set_entry(HOUSE, 5, description="  Definitions of SEV1 to SEV4.  ")
    assert out == HOUSE.replace("-- SEV levels.", "-- Definitions of SEV1 to SEV4.")


def test_set_entry_title_is_escaped():
    out = ix.set_entry(HOUSE, 5, title="Sev [levels] \\ x")
    assert out == HOUSE.replace("[Severity]", "[Sev \\[levels\\] \\\\ x]")
    assert entries_by_title(out)["Sev [levels] \\ x"].line == 5


def test_set_entry_without_separator_uses_the_house_one():
    text = HOUSE.replace(
        "- [Response](incident-response.md) -- The procedure.", "- [Response](r.md)"
    )
    out = ix.set_entry(text, 10, description="Now described.")
    assert out == text.replace("- [Response](r.md)", "- [Response](r.md) -- Now described.")
    # and clearing a description drops the separator
    assert ix.set_entry(out, 10, description="") == text


def test_set_entry_unchanged_returns_the_same_text():
    assert ix.set_entry(HOUSE, 5, title="Severity", description="SEV levels.") == HOUSE


def test_set_entry_keeps_crlf_and_other_parts():
    crlf = WILD.replace("\n", "\r\n")
    line = line_of(WILD, "[Link title]")
    out = ix.set_entry(crlf, line, description="Changed.")
    assert out == crlf.replace("- Destination with a link title.", "- Changed.")
    line = line_of(WILD, "[Wide gap]")
    out = ix.set_entry(WILD, line, title="Narrow")
    assert out == WILD.replace("[Wide gap](i.md)", "[Narrow](i.md)")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"title": "two\nlines"},
        {"description": "two\nlines"},
        {"description": "carriage\rreturn"},
        {"description": "escape \x1b[31m red"},
        {"title": "bell \x07"},
    ],
)
def test_set_entry_refuses_newlines_and_control_characters(kwargs):
    with pytest.raises(EditError):
        ix.set_entry(HOUSE, 5, **kwargs)


def test_set_entry_on_a_line_without_an_entry():
    with pytest.raises(EditError, match="no index entry on line 3"):
        ix.set_entry(HOUSE, 3, description="x")


# --- add_entry -----------------------------------------------------------------------------


def test_add_entry_follows_house_style_after_the_sections_last_entry():
    out = ix.add_entry(HOUSE, "New [draft]", "new doc.md", "A new one.", section="Triage")
    assert out == HOUSE.replace(
        "Who gets paged.\n", "Who gets paged.\n- [New \\[draft\\]](<new doc.md>) -- A new one.\n"
    )


def test_add_entry_defaults_to_the_last_section():
    out = ix.add_entry(HOUSE, "New", "new.md", "A new one.")
    assert out == HOUSE + "- [New](new.md) -- A new one.\n"


def test_add_entry_creates_a_missing_section_at_the_end():
    out = ix.add_entry(HOUSE, "New", "new.md", "A new one.", section="Later")
    assert out == HOUSE + "\n# Later\n\n- [New](new.md) -- A new one.\n"


def test_add_entry_into_an_existing_section_without_entries():
    text = "# Intro\n\n# Empty\n\nSome prose.\n"
    out = ix.add_entry(text, "X", "x.md", "D.", section="Intro")
    assert ix.parse_index(out).entries[0].section == "Intro"
    assert out.startswith("# Intro\n\n* [X](x.md) - D.\n")


def test_add_entry_creates_a_file():
    out = ix.add_entry(
        None, "Refund policy", "refund-policy.md", "Who approves refunds.", heading="Billing"
    )
    assert out == "# Billing\n\n* [Refund policy](refund-policy.md) - Who approves refunds.\n"
    out = ix.add_entry(None, "Sub", "sub/", "", heading="Billing")
    assert out == "# Billing\n\n* [Sub](sub/)\n"


def test_add_entry_keeps_crlf_and_separator_style():
    crlf = HOUSE.replace("\n", "\r\n")
    out = ix.add_entry(crlf, "New", "new.md", "A new one.", section="Triage")
    assert out == crlf.replace("paged.\r\n", "paged.\r\n- [New](new.md) -- A new one.\r\n")
    colon = "* [A](a.md): a.\n+ [B](b.md): b.\n"
    assert ix.add_entry(colon, "C", "c.md", "c.") == colon + "+ [C](c.md): c.\n"


def test_add_entry_to_a_file_without_final_newline():
    assert ix.add_entry("* [A](a.md) - a", "B", "b.md", "b") == "* [A](a.md) - a\n* [B](b.md) - b\n"


def test_add_entry_to_root_index_with_only_frontmatter():
    text = '---\nokf_version: "0.2"\n---\n'
    out = ix.add_entry(text, "A", "a/", "Bundle a.", heading="acme-kb")
    assert out == text + "\n# acme-kb\n\n* [A](a/) - Bundle a.\n"


@pytest.mark.parametrize(
    ("title", "target", "description"),
    [
        ("two\nlines", "a.md", "d"),
        ("t", "a.md", "two\nlines"),
        ("t", "a\n.md", "d"),
        ("t", "a<b>.md", "d"),
        ("esc\x1b[0m", "a.md", "d"),
        ("t", "a.md", "nul\x00"),
    ],
)
def test_add_entry_refuses_bad_text(title, target, description):
    with pytest.raises(EditError):
        ix.add_entry(HOUSE, title, target, description)


# --- remove and move ---------------------------------------------------------------------


def test_remove_entry_removes_that_line_only():
    assert ix.remove_entry(HOUSE, 6) == HOUSE.replace(
        "- [Escalation](../oncall/escalation.md) -- Who gets paged.\n", ""
    )
    with pytest.raises(EditError):
        ix.remove_entry(HOUSE, 1)  # a heading, not an entry


def test_move_entry_within_its_section():
    severity = "- [Severity](severity-levels.md) -- SEV levels.\n"
    escalation = "- [Escalation](../oncall/escalation.md) -- Who gets paged.\n"
    down = ix.move_entry(HOUSE, 5, 1)
    assert down == HOUSE.replace(severity + escalation, escalation + severity)
    assert ix.move_entry(down, 6, -1) == HOUSE
    assert ix.move_entry(HOUSE, 5, -1) == HOUSE  # already first
    assert ix.move_entry(HOUSE, 6, 1) == HOUSE  # the next entry is in another section


def test_move_entry_keeps_each_lines_ending():
    text = "* [A](a.md) - a\r\n* [B](b.md) - b\n"
    assert ix.move_entry(text, 1, 1) == "* [B](b.md) - b\r\n* [A](a.md) - a\n"
    text = "* [A](a.md) - a\n* [B](b.md) - b"
    assert ix.move_entry(text, 1, 1) == "* [B](b.md) - b\n* [A](a.md) - a"


def test_format_target_and_escape_title():
    assert ix.format_target("a.md") == "a.md"
    assert ix.format_target("my doc.md") == "<my doc.md>"
    assert ix.format_target("a(1).md") == "<a(1).md>"
    assert ix.escape_title(" [x] \\ ") == "\\[x\\] \\\\"


def _brackets_reference(text, i):
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return None


def _parens_reference(text, i):
    depth, quote, angle = 0, None, i < len(text) and text[i] == "<"
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if angle:
            angle = c != ">"
        elif quote:
            quote = None if c == quote else quote
        elif c in "\"'" and text[i - 1] in " \t":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return None


@given(st.text(alphabet="ab []()\\\"'<>", max_size=24))
def test_entry_scanners_shortcuts_agree_with_the_character_loops(text):
    assert ix._scan_brackets(text, 0) == _brackets_reference(text, 0)
    assert ix._scan_parens(text, 0) == _parens_reference(text, 0)
