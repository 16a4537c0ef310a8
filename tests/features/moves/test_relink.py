"""relink: one file's references to moved paths, rewritten byte-minimally (pure text)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kas_tui.core.okf.errors import EditError
from kas_tui.core.okf.links import code_spans, resolve
from kas_tui.core.okf.yaml_patch import set_in
from kas_tui.features.moves.relink import PathMap, may_refer, relink_text


def test_a_path_map_moves_folders_with_all_below_them() -> None:
    paths = PathMap([("a/b", "c"), ("a/b/d.md", "e/d.md"), ("x.md", "y.md")])
    assert paths.new("a/b") == "c"
    assert paths.new("a/b/z/q.md") == "c/z/q.md"
    assert paths.new("a/b/d.md") == "e/d.md", "the nearest moved path decides"
    assert paths.new("a/bc.md") is None
    assert paths.new("") is None and paths.final("a") == "a"
    assert paths.names == {"b", "d.md", "x.md"}


def test_may_refer_never_leaves_out_an_escaped_reference() -> None:
    assert may_refer(b"see [x](a/b.md)", {"b.md"})
    assert not may_refer(b"nothing here", {"b.md"})
    for escaped in (b"[x](a/b%2Emd)", b"[x](a/b&#46;md)", b"[x](a/b\\.md)"):
        assert may_refer(escaped, {"b.md"})


def test_links_in_code_and_html_are_never_touched() -> None:
    text = "---\ntitle: t\n---\n[x](b.md) `[y](b.md)` <a href='b.md'>z</a>\n\n```\n[f](b.md)\n```\n"
    out = relink_text(text, "a/doc.md", PathMap([("a/b.md", "a/c.md")]))
    assert out == text.replace("[x](b.md)", "[x](c.md)", 1)


def test_frontmatter_is_not_read_as_markdown() -> None:
    text = "---\ntitle: '[x](b.md)'\n---\n[x](b.md)\n"
    out = relink_text(text, "doc.md", PathMap([("b.md", "c.md")]))
    assert out == "---\ntitle: '[x](b.md)'\n---\n[x](c.md)\n"


def test_code_paths_in_navigation_files() -> None:
    text = "| Q | `/a/b.md` |\n| R | `a/b.md`, `b.md`, `/a/b.md --flag` |\n"
    out = relink_text(text, "SKILL.md", PathMap([("a/b.md", "c/b.md")]), code=True)
    assert out == "| Q | `/c/b.md` |\n| R | `c/b.md`, `b.md`, `/a/b.md --flag` |\n"


def test_root_relative_resources_of_kas_tui_0_1_stay_root_relative() -> None:
    text = "---\nsources:\n  - resource: references/r.pdf\n---\nbody\n"
    known = {"references/r.pdf", "docs/doc.md"}
    out = relink_text(
        text,
        "docs/doc.md",
        PathMap([("references/r.pdf", "assets/r.pdf")]),
        known=known,
        frontmatter=True,
    )
    assert out == "---\nsources:\n  - resource: assets/r.pdf\n---\nbody\n"


def test_set_in_changes_one_scalar_in_place() -> None:
    text = (
        '---\n# a comment\nsources:\n  - resource: "/a.md"  # kept\n    title: A\n'
        "  - {resource: /b.md, title: B}\n---\nbody\n"
    )
    assert set_in(text, ("sources", 0, "resource"), "/c.md") == text.replace('"/a.md"', '"/c.md"')
    assert set_in(text, ("sources", 1, "resource"), "/c, d.md") == text.replace(
        "{resource: /b.md,", "{resource: '/c, d.md',"
    )
    with pytest.raises(EditError, match="no such value"):
        set_in(text, ("sources", 5, "resource"), "x")


def test_code_spans_are_found_where_markdown_it_finds_them() -> None:
    text = "a `x.md` b ``y `z` .md`` c\r\n\r\n```\n`not.md`\n```\n\n> `q.md`\n"
    found = [(text[s.start : s.end], s.target, s.line) for s in code_spans(text)]
    assert found == [("x.md", "x.md", 1), ("y `z` .md", "y `z` .md", 1), ("q.md", "q.md", 7)]


_NAME = st.text("abcdefgh-", min_size=1, max_size=5)
_PATH = st.lists(_NAME, min_size=1, max_size=3).map("/".join)


@given(source=_PATH, target=_PATH, moved_to=_PATH, rooted=st.booleans(), anchor=st.booleans())
def test_a_rewritten_link_leads_to_the_moved_file(
    source: str, target: str, moved_to: str, rooted: bool, anchor: bool
) -> None:
    source, target, moved_to = source + ".md", target + ".md", moved_to + ".md"
    if len({source, target, moved_to}) < 3:
        return
    from kas_tui.core.okf.links import relative_link

    written = "/" + target if rooted else relative_link(source, target)
    written += "#part" if anchor else ""
    text = f"Go [there]({written}).\n"
    out = relink_text(text, source, PathMap([(target, moved_to)]))
    new = out[len("Go [there](") : -len(").\n")]
    found = resolve(source, new)
    assert found.path == moved_to and found.fragment == ("part" if anchor else "")
    assert new.startswith("/") == rooted
