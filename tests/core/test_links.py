"""Markdown links: extraction with a real parser, resolution inside the package."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kas_tui.core.okf import links
from kas_tui.core.okf.links import Link, Target, extract_links, relative_link, resolve

BODY = """\
Intro [rooted](/incidents/a.md) and ![diagram](img/flow.png "Flow") and `[code](c.md)`.
Second line [relative](../b.md#frag).

```
[fenced](fenced.md)
```

~~~
[tilde](tilde.md)
~~~

    [indented](indented.md)

A [ref link][r1], a [collapsed][] one and <https://auto.example/x>.

[r1]: /ref/target.md
[collapsed]: c.md "Title"

* [list item](l.md)
> [quoted](q.md)

Text with ``[double code](dc.md)`` and [text with `code`](tc.md).
"""


def test_extract_links_skips_code_and_reports_lines():
    links = extract_links(BODY, first_line=10)
    assert links == [
        Link("/incidents/a.md", "rooted", 10),
        Link("img/flow.png", "diagram", 10),
        Link("../b.md#frag", "relative", 11),
        Link("/ref/target.md", "ref link", 23),
        Link("c.md", "collapsed", 23),
        Link("https://auto.example/x", "https://auto.example/x", 23),
        Link("l.md", "list item", 28),
        Link("q.md", "quoted", 29),
        Link("tc.md", "text with code", 31),
    ]


def test_extract_links_default_first_line_and_empty():
    assert extract_links("[a](a.md)\n\n[b](b.md)\n") == [Link("a.md", "a", 1), Link("b.md", "b", 3)]
    assert extract_links("") == []
    assert extract_links("no links here") == []


def test_file_and_windows_path_links_are_extracted_and_outside():
    body = "[a](file:///etc/passwd)\n\n[b](C:\\Windows\\win.ini)\n\n<file:///etc/shadow>\n"
    links = extract_links(body)
    assert [link.line for link in links] == [1, 3, 5]
    assert [resolve("doc.md", link.target).kind for link in links] == ["outside"] * 3


def test_extracted_targets_are_url_encoded_by_the_parser_and_decoded_by_resolve():
    (link,) = extract_links("[spaced](<my doc.md>)")
    assert resolve("dir/x.md", link.target) == Target("internal", "dir/my doc.md")


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/a/b.md", Target("internal", "a/b.md")),
        ("b.md", Target("internal", "dir/b.md")),
        ("./b.md", Target("internal", "dir/b.md")),
        ("../c.md", Target("internal", "c.md")),
        ("sub/../b.md", Target("internal", "dir/b.md")),
        ("b.md#frag", Target("internal", "dir/b.md", "frag")),
        ("b.md?x=1#f", Target("internal", "dir/b.md", "f")),
        ("b.md?x=1", Target("internal", "dir/b.md")),
        ("my%20doc.md", Target("internal", "dir/my doc.md")),
        ("caf%C3%A9.md", Target("internal", "dir/café.md")),
        ("sub/", Target("internal", "dir/sub")),
        ("./", Target("internal", "dir")),
        ("/", Target("internal", "")),
        ("..", Target("internal", "")),
        ("/etc/passwd", Target("internal", "etc/passwd")),
        ("#top", Target("anchor", "dir/doc.md", "top")),
        ("", Target("anchor", "dir/doc.md", "")),
        ("../../etc/passwd", Target("outside", "../etc/passwd")),
        ("../../../x.md", Target("outside", "../../x.md")),
        ("/../x.md", Target("outside", "../x.md")),
        ("%2e%2e/%2e%2e/etc", Target("outside", "../etc")),
        ("file:///etc/passwd", Target("outside", "file:///etc/passwd")),
        ("FILE:///etc/passwd", Target("outside", "FILE:///etc/passwd")),
        ("C:\\Windows\\win.ini", Target("outside", "C:\\Windows\\win.ini")),
        ("c:/x.md", Target("outside", "c:/x.md")),
        ("\\\\server\\share", Target("outside", "\\\\server\\share")),
        ("http://x.example", Target("external", "http://x.example")),
        ("HTTPS://x.example/a#b", Target("external", "HTTPS://x.example/a#b")),
        ("mailto:a@b.example", Target("external", "mailto:a@b.example")),
        ("//cdn.example/x", Target("external", "//cdn.example/x")),
    ],
)
def test_resolve(target, expected):
    assert resolve("dir/doc.md", target) == expected


def test_resolve_from_the_root():
    assert resolve("doc.md", "../x.md").kind == "outside"
    assert resolve("doc.md", "x.md") == Target("internal", "x.md")
    assert resolve("index.md", "incidents/") == Target("internal", "incidents")
    assert resolve("a/b/c.md", "../../x.md") == Target("internal", "x.md")
    assert resolve("a/b/c.md", "../../../x.md").kind == "outside"


def test_relative_link():
    assert (
        relative_link("incidents/index.md", "billing/refund-policy.md")
        == "../billing/refund-policy.md"
    )
    assert relative_link("index.md", "glossary.md") == "glossary.md"
    assert (
        relative_link("index.md", "incidents/postmortems", folder=True) == "incidents/postmortems/"
    )
    assert relative_link("incidents/index.md", "incidents", folder=True) == "./"
    assert relative_link("a/index.md", "b", folder=True) == "../b/"


_NAME = st.text(alphabet="ab-_.9%#?:\\ ", min_size=1, max_size=6)


@given(
    source=st.sampled_from(["index.md", "a/index.md", "a/b/doc.md", "x.md"]),
    target=st.lists(_NAME, min_size=1, max_size=4).map("/".join),
)
def test_resolve_shortcut_for_plain_paths_agrees_with_normpath(source, target):
    # "./" sends the same target down the general path (posixpath.normpath)
    if links._PLAIN_RELATIVE.fullmatch(target):
        assert resolve(source, target) == resolve(source, "./" + target)


@pytest.mark.parametrize(
    ("source", "target", "path"),
    [
        ("index.md", "doc.md", "doc.md"),
        ("a/index.md", "doc.md", "a/doc.md"),
        ("a/index.md", "sub/", "a/sub"),
        ("a/b/doc.md", "c/d.md", "a/b/c/d.md"),
        ("a/index.md", "..doc.md", "a/..doc.md"),  # a name, not a parent step
    ],
)
def test_resolve_plain_relative_paths(source, target, path):
    assert resolve(source, target) == Target("internal", path)
