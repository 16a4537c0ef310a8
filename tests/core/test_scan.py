"""The fast body scanner gives markdown-it's answer, or steps aside for it.

Four layers: hand-written bodies with their exact scan, a Hypothesis grammar of
Markdown compared with the markdown-it reference, the 652 examples of the CommonMark
spec (in several contexts), and every document of the demo package.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from kas_tui.core.okf.frontmatter import find_block
from kas_tui.core.okf.links import Link, _parser, extract_links
from kas_tui.core.okf.scan import BodyScan, scan_body, scan_body_fast, scan_body_reference
from kas_tui.core.okf.scan import common as scan_common
from tests.helpers.commonmark import SPEC_CONTEXTS, SPEC_EXAMPLES, bodies

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"


def fast(body: str, first_line: int = 1) -> BodyScan:
    """The fast path's scan, which must exist and equal the reference."""
    found = scan_body_fast(body, first_line=first_line)
    assert found is not None, "expected the fast path"
    assert found == scan_body_reference(body, first_line=first_line)
    assert scan_body(body, first_line=first_line) == found
    return found


def links(body: str, first_line: int = 1) -> list[tuple[str, str, int]]:
    return [tuple(link) for link in fast(body, first_line).links]


# --------------------------------------------------------------------------------------
# Hand-written cases: one construct each, exact answers.


def test_inline_links_images_and_titles():
    body = 'See [the guide](guide.md "Guide") and ![a *diagram*](img/flow.png).\n'
    assert links(body, 5) == [("guide.md", "the guide", 5), ("img/flow.png", "a *diagram*", 5)]


def test_destinations_are_normalized_like_markdown_it():
    body = (
        "[spaced](<my file.md>) [parens](a(b)c.md) [esc](a\\)b.md) "
        "[ent](a&amp;b.md) [uni](café.md) [pct](a%20b.md) [bad](%zz) [empty]()\n"
    )
    assert links(body) == [
        ("my%20file.md", "spaced", 1),
        ("a(b)c.md", "parens", 1),
        ("a)b.md", "esc", 1),
        ("a&b.md", "ent", 1),
        ("caf%C3%A9.md", "uni", 1),
        ("a%20b.md", "pct", 1),
        ("%25zz", "bad", 1),
        ("", "empty", 1),
    ]


def test_link_text_nested_brackets_emphasis_code_escapes_entities():
    body = "[a [nested] *em* **strong** `code` \\[x\\] &amp; a_b_c](t.md)\n"
    assert links(body) == [("t.md", "a [nested] em strong code [x] & a_b_c", 1)]


def test_a_link_inside_link_text_wins():
    assert links("[outer [inner](in.md)](out.md)\n") == [("in.md", "inner", 1)]


def test_image_inside_link_comes_first():
    assert links("[![logo](logo.png) home](index.md)\n") == [
        ("logo.png", "logo", 1),
        ("index.md", " home", 1),
    ]


def test_reference_links_full_collapsed_shortcut_case_and_whitespace():
    body = (
        "Use [the docs][Docs  Page], [docs page][] and [DOCS PAGE], not [missing].\n"
        "\n"
        '[docs page]: /docs/index.md "Docs"\n'
        "[docs page]: /ignored.md\n"
    )
    assert links(body) == [
        ("/docs/index.md", "the docs", 1),
        ("/docs/index.md", "docs page", 1),
        ("/docs/index.md", "DOCS PAGE", 1),
    ]


def test_reference_definition_on_several_lines():
    body = "[a][r]\n\n[r]:\n  <long target.md>\n  'title'\n"
    assert links(body) == [("long%20target.md", "a", 1)]


def test_autolinks():
    body = "Mail <ops@example.com>, <https://example.com/x>, not <https://a b> or <span>.\n"
    assert links(body) == [
        ("mailto:ops@example.com", "ops@example.com", 1),
        ("https://example.com/x", "https://example.com/x", 1),
    ]


def test_fenced_code_blocks_hide_links():
    body = (
        "```python\n[a](fenced.md)\n```\n"
        "\n"
        "   ~~~~ info\n[b](tilde.md)\n   ~~~\n[c](still.md)\n~~~~\n"
        "\n"
        "[d](after.md)\n"
        "\n"
        "````\n[e](unclosed.md)\n"
    )
    assert links(body) == [("after.md", "d", 11)]


def test_indented_code_but_not_list_continuations():
    body = "Para.\n\n    [code](indented.md)\n\n1. Item\n\n    [continued](item.md)\n"
    assert links(body) == [("item.md", "continued", 7)]


def test_code_spans_of_matching_length():
    body = "`[a](one.md)` ``[b](two.md) ` `` ``[c](three.md)` [d](four.md)\n"
    assert links(body) == [("three.md", "c", 1), ("four.md", "d", 1)]


def test_html_comments_and_html_blocks():
    body = (
        "<!-- [a](hidden.md)\n\n[b](still-hidden.md) -->\n"
        "\n"
        "text <!-- [c](inline.md) --> [d](shown.md)\n"
        "\n"
        "<div>\n[e](html.md)\n</div>\n"
    )
    assert links(body) == [("shown.md", "d", 5)]


def test_lists_block_quotes_and_tables():
    body = (
        "- [one](1.md)\n"
        "  - [two](2.md)\n"
        "lazy [three](3.md)\n"
        "\n"
        "> [four](4.md)\n"
        "> > [five](5.md)\n"
        "\n"
        "| a | [six](6.md) |\n"
        "|---|---|\n"
    )
    assert links(body) == [
        ("1.md", "one", 1),
        ("2.md", "two", 2),
        ("3.md", "three", 3),
        ("4.md", "four", 5),
        ("5.md", "five", 6),
        ("6.md", "six", 8),
    ]


def test_line_numbers_follow_markdown_it():
    # A line break inside a code span, an HTML tag or a destination is not a softbreak:
    # markdown-it counts one line less after it, and so do we.
    body = "intro\n\n[first](a.md) and [multi\nline](b.md), `code\nspan` [third](c.md)\n"
    assert links(body, 10) == [
        ("a.md", "first", 12),
        ("b.md", "multiline", 13),
        ("c.md", "third", 13),
    ]


def test_footnotes_references_and_definitions():
    body = (
        "A claim.[^src-1] Another [^ops], `[^code]`, [^src-1] again.\n"
        "\n"
        "```\n[^fenced]\n```\n"
        "\n"
        "[^src-1]: Source one\n"
        "[^ops]: The ops team, see [runbook](r.md)\n"
    )
    found = fast(body)
    assert found.footnotes == {"src-1", "ops"}
    assert found.footnote_definitions == {"src-1", "ops"}
    assert found.links == (Link("r.md", "runbook", 8),)


def test_undefined_footnotes_count():
    # OKF footnotes name frontmatter sources: there is no definition in the body.
    assert fast("Claim.[^pm-1]\n\n- item[^pm-2]\n").footnotes == {"pm-1", "pm-2"}


def test_headings_atx_and_setext():
    body = (
        "# Title #\n\nSetext\n======\n\n## [Linked](h.md) heading\n\n    # not a heading\n\n"
        "Two\nlines\n---\n"
    )
    found = fast(body, 3)
    assert found.headings == (
        (1, "Title", 3),
        (1, "Setext", 5),
        (2, "[Linked](h.md) heading", 8),
        (2, "Two\nlines", 12),
    )
    assert found.links == (Link("h.md", "Linked", 8),)


def test_crlf_and_empty_bodies():
    assert links("a\r\n\r\n[b](b.md)\r\n") == [("b.md", "b", 3)]
    assert fast("") == BodyScan()
    assert fast("   \n\n") == BodyScan()


@pytest.mark.parametrize(
    "body",
    [
        "- [^1]: a footnote definition inside a list item\n",
        "Text\n[^1]: a definition interrupting a paragraph\n",
        "[outer [^1]](x.md)\n",
        "x[^a`b] y\n",
        "[^1]: - a list inside a definition\n",
        "[^1]: first\n\n    indented, still the definition for the plugin\n",
        "[" * 30 + "deep" + "]" * 30 + "(x.md)\n",
    ],
)
def test_unsure_bodies_take_the_reference_path(body):
    assert scan_body_fast(body) is None
    assert scan_body(body) == scan_body_reference(body)


def test_reference_path_links_are_extract_links():
    body = "[a](a.md)\n\n```\n[b](b.md)\n```\n\n[c][r]\n\n[r]: c.md\n"
    assert list(scan_body_reference(body, first_line=4).links) == extract_links(body, first_line=4)


# --------------------------------------------------------------------------------------
# Hypothesis: a grammar of Markdown, fast path against markdown-it.


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies(), st.integers(1, 30))
def test_fast_path_equals_markdown_it(body, first_line):
    reference = scan_body_reference(body, first_line=first_line)
    assert list(reference.links) == extract_links(body, first_line=first_line)
    found = scan_body_fast(body, first_line=first_line)
    event("fast path" if found is not None else "reference path")
    if found is not None:
        assert found.links == reference.links
        assert found.footnotes == reference.footnotes
        assert found.footnote_definitions == reference.footnote_definitions
        assert found.headings == reference.headings
    assert scan_body(body, first_line=first_line) == reference


URL_CHARS = "abcXYZ019-._~:/?#[]@!$&'()*+,;=% \\éü<>\"{}|^`"


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.text(alphabet=URL_CHARS, max_size=20),
        st.builds(
            lambda a, b: a + b,
            st.sampled_from(["http://", "https://", "//", ""]),
            st.text(alphabet=URL_CHARS, max_size=20),
        ),
    )
)
def test_normalize_link_shortcut_is_exact(url):
    assert scan_common._normalize_link(url) == _parser().normalizeLink(url)
    assert scan_common._normalize_link(url) == _parser().normalizeLink(url)  # remembered


def test_normalized_links_are_remembered_within_a_bound(monkeypatch):
    monkeypatch.setattr(scan_common, "_NORMALIZED", {})
    monkeypatch.setattr(scan_common, "_NORMALIZED_MAX", 8)
    urls = [f"../a b/{n}.md" for n in range(20)]
    assert [scan_common._normalize_link(u) for u in urls] == [f"../a%20b/{n}.md" for n in range(20)]
    assert 0 < len(scan_common._NORMALIZED) <= 8
    assert scan_common._NORMALIZED["../a b/19.md"] == "../a%20b/19.md"


# --------------------------------------------------------------------------------------
# The CommonMark spec examples (tests/data/commonmark/README.md says where from).


def test_the_spec_examples_are_all_there():
    assert [e["example"] for e in SPEC_EXAMPLES] == list(range(1, 653))


@pytest.mark.parametrize("context", SPEC_CONTEXTS)
def test_commonmark_spec_examples_fast_path_equals_markdown_it(context):
    place, first_line = SPEC_CONTEXTS[context]
    wrong = []
    on_fast_path = 0
    for example in SPEC_EXAMPLES:
        body = place(example["markdown"])
        reference = scan_body_reference(body, first_line=first_line)
        found = scan_body_fast(body, first_line=first_line)
        on_fast_path += found is not None
        if list(reference.links) != extract_links(body, first_line=first_line):
            wrong.append(f"example {example['example']} ({example['section']}): reference links")
        if found is not None and found != reference:
            wrong.append(
                f"example {example['example']} ({example['section']}): {found} != {reference}"
            )
        elif scan_body(body, first_line=first_line) != reference:
            wrong.append(f"example {example['example']} ({example['section']}): scan_body")
    assert wrong == []
    assert on_fast_path >= 0.9 * len(SPEC_EXAMPLES), "the fast path steps aside too often"


# --------------------------------------------------------------------------------------
# The demo package.


def demo_bodies() -> list[tuple[str, str, int]]:
    found = []
    for path in sorted(DEMO.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        block_ = find_block(text)
        first = text.count("\n", 0, block_.end) + 1 if block_ else 1
        found.append((str(path.relative_to(DEMO)), text[block_.end :] if block_ else text, first))
    return found


def test_demo_package_fast_equals_reference():
    docs = demo_bodies()
    assert docs
    on_fast_path = 0
    for path, body, first in docs:
        reference = scan_body_reference(body, first_line=first)
        found = scan_body_fast(body, first_line=first)
        if found is not None:
            on_fast_path += 1
            assert found == reference, path
        assert scan_body(body, first_line=first) == reference, path
    assert on_fast_path >= 0.9 * len(docs)


# --------------------------------------------------------------------------------------
# Paragraphs of plain links, found without the inline machinery.


@pytest.mark.parametrize(
    ("paragraph", "plain"),
    [
        ("See [related](/a/b.md) and [the policy](../index.md).", True),
        ("two lines: [one](a.md)\nand [two](b%20c.md?x=1#y)\n[three](&amp;.md)", True),
        ("[x](https://example.com/a b) [y](c.md)", False),  # a space: not a plain link
        ("[a [nested] one](a.md)", False),
        ("an image ![a](b.png) and [c](d.md)", False),
        ("`[code](a.md)` then [real](b.md)", False),
        ("an escape \\[x](a.md)", False),
        ("an autolink <https://x.org> and [a](b.md)", False),
        ("[a](b(c).md)", False),  # balanced parentheses: the full parser
        ("[a] alone, then [b](c.md)", False),  # a bracket that opens no plain link
        ("[^1](a.md) with footnotes on", False),
    ],
)
def test_plain_link_paragraphs_skip_the_inline_machinery_with_its_answer(paragraph, plain):
    """``_simple_links`` takes a paragraph whose only inline tokens are plain
    ``[text](destination)`` links and gives the links the full inline scan gives; any
    other paragraph it leaves to that scan, untouched."""
    from kas_tui.core.okf.scan import flat
    from kas_tui.core.okf.scan.inline import _Inline

    fn = "[^" in paragraph
    mine: list[Link] = []
    assert flat._simple_links(paragraph, 7, fn, mine) is plain
    theirs: list[Link] = []
    _Inline(paragraph, {}, fn, (), ()).scan(7, theirs, set())
    assert mine == (theirs if plain else [])
    if plain:
        assert mine and fast(paragraph + "\n", 7).links == tuple(theirs)
