"""Link rewriting by the parser's spans: exactly the destinations markdown-it sees change."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kas_tui.core.okf.links import (
    _parser,
    destination_spans,
    extract_links,
    format_destination,
    rewrite_links,
)


def _new(target: str) -> str:
    return "new/" + target


BODY = """\
# Heading [h](h.md)

Text [plain](a.md), [titled](b.md "Title (b)") and [angle](<c d.md> 'T').
An image ![alt](img/e.png "pic") and a [![badge](f.png)](g.md) link of an image.
A [nested [brackets] text](n.md) and a [ref link][r] and a [shortcut].
Code `[span](code.md)` and ``[double](code2.md)`` and <https://auto.example/x>.

> quoted [q](q.md)
> - in a list [l](l.md)

- item
  [continued](i.md)

```
[fenced](fenced.md)
```

~~~md
[tilde](tilde.md)
~~~

    [indented](indented.md)

<div>
[html](html.md)
</div>

[r]: r.md "Ref title"
[shortcut]:
   <s t.md>
[unused]: u.md
"""


def test_only_the_destinations_markdown_it_sees_are_rewritten() -> None:
    out = rewrite_links(BODY, _new)
    for kept in (
        "`[span](code.md)`",
        "``[double](code2.md)``",
        "<https://auto.example/x>",
        "```\n[fenced](fenced.md)\n```",
        "~~~md\n[tilde](tilde.md)\n~~~",
        "    [indented](indented.md)",
        "<div>\n[html](html.md)\n</div>",
    ):
        assert kept in out
    for changed in (
        "# Heading [h](new/h.md)",
        "[plain](new/a.md)",
        '[titled](new/b.md "Title (b)")',  # the title as written
        "[angle](<new/c%20d.md> 'T')",  # still in <...>
        '![alt](new/img/e.png "pic")',  # images are links to assets
        "[![badge](new/f.png)](new/g.md)",
        "[nested [brackets] text](new/n.md)",
        "> quoted [q](new/q.md)",
        "> - in a list [l](new/l.md)",
        "  [continued](new/i.md)",
        '[r]: new/r.md "Ref title"',  # a reference link's destination is its definition's
        "[shortcut]:\n   <new/s%20t.md>",
        "[unused]: new/u.md",
    ):
        assert changed in out


def test_the_rewritten_text_reads_back_with_the_new_targets() -> None:
    before = {(link.text, link.target) for link in extract_links(BODY)}
    after = {(link.text, link.target) for link in extract_links(rewrite_links(BODY, _new))}
    assert after == {
        (text, target if target.startswith("https:") else "new/" + target)
        for text, target in before
    }


def test_crlf_text_keeps_its_line_endings() -> None:
    text = BODY.replace("\n", "\r\n")
    assert rewrite_links(text, _new) == rewrite_links(BODY, _new).replace("\n", "\r\n")


def test_keeping_every_destination_returns_the_same_object() -> None:
    assert rewrite_links(BODY, lambda target: None) is BODY
    assert rewrite_links(BODY, lambda target: target) is BODY


@pytest.mark.parametrize(
    ("dest", "written"),
    [
        ("a.md", "a.md"),
        ("a b.md", "<a b.md>"),
        ("f(1).md", "<f(1).md>"),
        ("a\\b", "a\\\\b"),
        ("x&amp;y", "x\\&amp;y"),
        ("x&y", "x&y"),
        ("<x>", "<\\<x\\>>"),
        ("", "<>"),
    ],
)
def test_a_new_destination_is_escaped_so_it_reads_back_as_given(dest: str, written: str) -> None:
    assert format_destination(dest) == written
    (link,) = extract_links(f"[x]({written})")
    assert link.target == _parser().normalizeLink(dest)


def test_a_line_break_cannot_be_a_destination() -> None:
    with pytest.raises(ValueError, match="line break"):
        format_destination("a\nb")


_PIECES = [
    "[a](x.md)", "[b](<y z.md> \"t\")", "![i](p.png 'u')", "[r]: d.md\n", "[r]", "[c][r]",
    "`", "```\n", "~~~\n", "    ", "> ", "- ", "1. ", "# ", "<div>\n", "<!-- ", " -->",
    "\n", "\n\n", "\r\n", "\t", "(", ")", "[", "]", "<", ">", "\\", "&amp;", "x",
]  # fmt: skip
_MARKDOWN = st.one_of(
    st.text(alphabet="[]()<>`!\\ \n\t#>-*&;:\"'xy.", max_size=60),
    st.lists(st.sampled_from(_PIECES), max_size=30).map("".join),
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(_MARKDOWN)
def test_rewriting_with_the_identity_changes_nothing(text: str) -> None:
    assert rewrite_links(text, lambda target: target) == text


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(_MARKDOWN)
def test_rewriting_changes_no_byte_outside_the_destinations(text: str) -> None:
    spans = destination_spans(text)
    out = rewrite_links(text, _new, spans)
    again = destination_spans(out)
    assert [s.target for s in again] == ["new/" + s.target for s in spans]
    assert _gaps(out, again) == _gaps(text, spans)


def _gaps(text: str, spans: list) -> list[str]:
    """The text between the destinations."""
    cuts = [0, *(n for span in spans for n in (span.start, span.end)), len(text)]
    return [text[a:b] for a, b in zip(cuts[::2], cuts[1::2], strict=True)]


# --------------------------------------------------------------------------------------
# The spans come from the fast body scanner: the same ones markdown-it's rules mark.

from kas_tui.core.okf import links as links_module  # noqa: E402
from kas_tui.core.okf.links import destination_spans_reference  # noqa: E402
from kas_tui.core.okf.scan import scan_destinations  # noqa: E402
from tests.helpers.commonmark import SPEC_CONTEXTS, SPEC_EXAMPLES, bodies  # noqa: E402

OFFICEDOCS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "officedocs-support"


def _same_spans(text: str) -> bool:
    """The scanner reads ``text`` (it does not step aside) and finds markdown-it's spans."""
    return scan_destinations(text) is not None and destination_spans(
        text
    ) == destination_spans_reference(text)


def test_the_scanner_finds_the_spans_without_markdown_it(monkeypatch) -> None:
    texts = [BODY, BODY.replace("\n", "\r\n"), "no label (x.md) <https://a.b>"]
    expected = [destination_spans_reference(text) for text in texts]

    def no_markdown_it() -> None:
        raise AssertionError("destination_spans parsed the text with markdown-it")

    monkeypatch.setattr(links_module, "_span_parser", no_markdown_it)
    assert [destination_spans(text) for text in texts] == expected
    assert len(expected[0]) == 14 and expected[2] == []


@pytest.mark.parametrize("text", [BODY, BODY.replace("\n", "\r\n"), BODY.replace("\n", "\r")])
def test_scanner_spans_equal_markdown_it_spans_on_the_sample(text: str) -> None:
    assert _same_spans(text)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_MARKDOWN, bodies()))
def test_scanner_spans_equal_markdown_it_spans(text: str) -> None:
    assert destination_spans(text) == destination_spans_reference(text)


@pytest.mark.parametrize("context", SPEC_CONTEXTS)
def test_scanner_spans_equal_markdown_it_spans_on_the_spec_examples(context: str) -> None:
    place, _first_line = SPEC_CONTEXTS[context]
    wrong = [e["example"] for e in SPEC_EXAMPLES if not _same_spans(place(e["markdown"]))]
    assert wrong == []


@pytest.mark.skipif(not OFFICEDOCS.is_dir(), reason="the shared officedocs corpus is absent")
def test_scanner_spans_equal_markdown_it_spans_on_the_officedocs_corpus() -> None:
    paths = sorted(OFFICEDOCS.rglob("*.md"))
    assert len(paths) > 2000
    wrong = [
        str(path.relative_to(OFFICEDOCS))
        for path in paths
        if not _same_spans(path.read_text(encoding="utf-8"))
    ]
    assert wrong == []
