"""A drafted description names the page's sections when it has room."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kas_tui.text import prose
from kas_tui.text.description_verdicts import more_than_one_sentence, not_one_line
from kas_tui.text.section_topics import common_headings, section_topics, with_topics

PAGE = """# Workers

In this chapter we explore concurrency and Textual's Worker API.

## Concurrency

Text.

## Overview

## Method 1: Cancel the worker.

### Thread workers

## 1.2.3

## Workers

## Examples

```python
## not a heading
```
"""


def test_sections_are_named_in_page_order_without_furniture() -> None:
    topics = section_topics(prose.blocks(PAGE), "Workers")
    assert topics == ["Concurrency", "Cancel the worker", "Thread workers"]


def test_a_site_wide_heading_is_furniture() -> None:
    pages = [
        list(prose.blocks(f"# P{n}\n\n## CSS\n\n## Python\n\n## Topic {n}\n")) for n in range(8)
    ]
    common = common_headings(pages)
    assert common == {"css", "python"}
    assert section_topics(pages[0], "P0", common) == ["Topic 0"]


def test_rare_headings_are_not_common() -> None:
    pages = [list(prose.blocks(f"# P{n}\n\n## Shared\n")) for n in range(4)]
    assert common_headings(pages) == frozenset()  # fewer than five pages share it


def test_topics_join_the_sentence_within_the_limit() -> None:
    text = with_topics("Explores concurrency.", ["Thread workers", "Cancelling", "Errors"], 200)
    assert text == "Explores concurrency; covers Thread workers, Cancelling and Errors."
    short = with_topics("Explores concurrency.", ["Thread workers", "Cancelling"], 45)
    assert short == "Explores concurrency; covers Thread workers."
    assert with_topics("Explores concurrency.", ["Thread workers"], 30) == "Explores concurrency."


def test_question_headings_stay_one_sentence() -> None:
    blocks = prose.blocks("# FAQ\n\n## Does it support images?\n\n## How can I copy text?\n")
    text = with_topics("Answers common questions.", section_topics(blocks, "FAQ"), 200)
    assert not more_than_one_sentence(text), text
    assert "Does it support images" in text


@given(
    st.text(min_size=1, max_size=150).filter(lambda s: s.strip()),
    st.lists(st.text(min_size=1, max_size=40), max_size=8),
    st.integers(min_value=20, max_value=260),
)
def test_never_over_the_limit_unless_the_sentence_is(
    sentence: str, topics: list, limit: int
) -> None:
    text = with_topics(sentence, topics, limit)
    assert text == sentence or len(text) <= limit
    assert text.startswith(sentence.rstrip().rstrip(".!?…")) or text == sentence


def test_a_drafted_description_is_one_line_of_an_index() -> None:
    text = with_topics(
        "Explores the topic of concurrency and how to use Textual's Worker API to make it easier.",
        section_topics(prose.blocks(PAGE), "Workers"),
        200,
    )
    assert not_one_line(text) is None
    assert "covers Concurrency" in text


def test_an_entry_names_sections_unless_its_description_does_already() -> None:
    from kas_tui.text.section_topics import entry_sentence

    assert entry_sentence("Set up groups.", ["Copy setups"], 200) == (
        "Set up groups; covers Copy setups."
    )
    drafted = "Explores workers; covers Thread workers."
    assert entry_sentence(drafted, ["Thread workers", "Errors"], 200) == drafted
    assert entry_sentence("Set up groups.", [], 200) == "Set up groups."


def test_a_faq_is_described_by_its_questions() -> None:
    """Textual's FAQ opened with "Here we try and answer any question that comes up
    frequently", and named three of its eleven questions after it."""
    from kas_tui.text.section_topics import questions_sentence

    page = (
        "# Frequently Asked Questions\n\nHere we try and answer any question that comes up.\n\n"
        "## Does Textual support images?\n\nNo.\n\n"
        "## How can I select and copy text in a Textual app?\n\nShift.\n\n"
        "## How do I fix WorkerDeclarationError?\n\nDecorate.\n\n"
        "## Why doesn't Textual look good on macOS?\n\nColours.\n"
    )
    said = questions_sentence(prose.blocks(page), 200)
    assert said == (
        "Answers: Does Textual support images; select and copy text in a Textual app; "
        "fix WorkerDeclarationError; Why doesn't Textual look good on macOS."
    )
    assert not more_than_one_sentence(said)
    assert questions_sentence(prose.blocks(page), 60) is None  # one question fits: no list
    guide = "# Guide\n\n## Install\n\n## Does it run on Windows?\n\n## Configure\n\n## Deploy\n"
    assert questions_sentence(prose.blocks(guide), 200) is None  # one question: no FAQ


def test_a_numbered_example_is_no_section_name() -> None:
    """PowerShell's cmdlet pages (PlatyPS): "covers Example 4, Example 5 and Example 6"."""
    page = "# Find-Module\n\n## Example 4\n\n## Example 5: Find a module by tag\n\n## Step 2\n"
    assert section_topics(prose.blocks(page), "Find-Module") == ["Find a module by tag"]


def _site(texts: list[str]) -> frozenset[str]:
    """common_headings of pages written as ``texts``, as the build calls it."""
    return common_headings(
        [list(prose.blocks(t)) for t in texts], [prose.sections(t) for t in texts]
    )


def test_a_section_several_pages_carry_word_for_word_is_furniture() -> None:
    """Business Central closes 91 of its 2,120 pages with "## Start a free trial"
    (an include) and the same banner under it: too few pages for a site-wide heading,
    but a section five pages carry word for word, heading and text, says nothing of any
    one of them ("Close fiscal years ...; covers Start a free trial")."""
    closing = "## Start a [free trial!](https://example.com/t)\n\n[Free modules](/training)\n"
    plain = [f"# Q{n}\n\n## Part {n}\n\nText.\n" for n in range(200)]
    closed = [
        f"# P{n}\n\n## Topic {n}\n\nText {n}.\n\n## Limits\n\nOwn {n}.\n\n{closing}"
        for n in range(8)
    ]
    common = _site(plain + closed)  # 8 of 208 pages: under the site-wide share
    assert common == {"start a free trial"}  # "Limits" differs on each page: each page's own
    page = prose.headings(closed[0])  # what the build reads of a page with its own description
    assert section_topics(page, "P0", common) == ["Topic 0", "Limits"]
    assert _site(plain + closed[:4]) == frozenset()  # four copies are not yet furniture


def test_sections_whose_tables_or_code_differ_are_not_copies() -> None:
    """The text under a heading is compared as written: "## Values" over each style's own
    table, "## Resolution 1" over its own sub-sections, are each page's own."""
    plain = [f"# Q{n}\n\n## Part {n}\n\nText.\n" for n in range(200)]
    own = [
        f"# P{n}\n\nOpening.\n\n## Values\n\n| value | {n} |\n|---|---|\n\n"
        f"## Example\n\n```css\nwidth: {n};\n```\n\n## Resolution 1\n\n### Step {n}\n\nDo it.\n"
        for n in range(8)
    ]
    assert _site(plain + own) == frozenset()
