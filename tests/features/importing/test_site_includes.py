"""kas_tui.features.importing.includes: include directives expanded as the docs site renders them.

Each test builds a small source in ``tmp_path`` and reads it through a closure, as the
build does; the closure refuses (and records) any path that would leave the source.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kas_tui.features.importing.includes import (
    INCLUDE_DIRS,
    Expanded,
    IncludeProblem,
    expand_includes,
    is_include_target,
    targets,
)

CORPUS = Path("/work/shared/corpora/textual-docs")


class Source:
    """Files written under ``root``; ``read`` as the build gives it, recording calls."""

    def __init__(self, root: Path, files: dict[str, str]) -> None:
        self.root = root
        self.calls: list[str] = []
        for rel, text in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")

    def read(self, rel: str) -> str | None:
        self.calls.append(rel)
        assert not rel.startswith(("/", "../")) and rel != "..", f"read outside: {rel}"
        try:
            return (self.root / rel).read_text("utf-8")
        except OSError:
            return None


def expand(tmp_path: Path, files: dict[str, str], page: str, text: str, **kw) -> Expanded:
    return expand_includes(text, page, Source(tmp_path / "src", files).read, **kw)


def lines_of(done: Expanded) -> list[tuple[int, str]]:
    return [(p.line, p.target) for p in done.problems]


# --- docfx ---------------------------------------------------------------------------------


def test_docfx_whole_line_and_inline_with_and_without_space(tmp_path: Path) -> None:
    files = {
        "includes/note.md": "---\nms.topic: include\n---\n> [!NOTE]\n> Back up first.\n",
        "includes/name.md": "---\ntitle: x\n---\nContoso Mail\n",
    }
    page = (
        "# Restore\n\n[!INCLUDE [note](../includes/note.md)]\n\n"
        "Open [!INCLUDE[product](../includes/name.md)] and restore.\n"
    )
    done = expand(tmp_path, files, "guide/restore.md", page)
    assert done.text == (
        "# Restore\n\n> [!NOTE]\n> Back up first.\n\nOpen Contoso Mail and restore.\n"
    )
    assert done.included == ["includes/note.md", "includes/name.md"]
    assert done.problems == []


def test_docfx_lowercase_url_encoded_angle_and_rooted_paths(tmp_path: Path) -> None:
    files = {"shared/my note.md": "Note text.\n", "shared/b.md": "B\n", "shared/c.md": "C\n"}
    page = (
        "[!include[n](../shared/my%20note.md)]\n"
        "[!INCLUDE[b](<../shared/b.md>)] and [!INCLUDE[c](~/shared/c.md)] and "
        '[!INCLUDE[c](/shared/c.md "title")]\n'
    )
    done = expand(tmp_path, files, "docs/page.md", page)
    assert done.text == "Note text.\nB and C and C\n"
    assert done.included == ["shared/my note.md", "shared/b.md", "shared/c.md"]


def test_docfx_inline_text_is_trimmed_and_joined_into_the_line(tmp_path: Path) -> None:
    files = {"x.md": "\n  Two lines\n  of text.  \n\n"}
    done = expand(tmp_path, files, "p.md", "| a | [!INCLUDE[x](x.md)] |\n")
    assert done.text == "| a | Two lines of text. |\n"


def test_docfx_whole_line_in_a_quote_or_list_item_keeps_the_container(tmp_path: Path) -> None:
    files = {"i.md": "First paragraph.\n\nSecond paragraph.\n"}
    page = "> [!INCLUDE[i](i.md)]\n\n1. [!INCLUDE[i](i.md)]\n2. Next\n"
    done = expand(tmp_path, files, "p.md", page)
    assert done.text == (
        "> First paragraph.\n>\n> Second paragraph.\n\n"
        "1. First paragraph.\n\n   Second paragraph.\n2. Next\n"
    )


def test_docfx_nested_includes_resolve_from_the_included_file(tmp_path: Path) -> None:
    files = {
        "shared/outer.md": "See [the FAQ](faq.md#top).\n\n[!INCLUDE[inner](inner/deep.md)]\n",
        "shared/inner/deep.md": "Deep, see [setup](../setup.md).\n",
        "shared/faq.md": "# FAQ\n",
        "shared/setup.md": "# Setup\n",
    }
    done = expand(tmp_path, files, "docs/page.md", "[!INCLUDE[o](../shared/outer.md)]\n")
    # links lead to the same files from the page the text now shows in
    assert done.text == (
        "See [the FAQ](../shared/faq.md#top).\n\nDeep, see [setup](../shared/setup.md).\n"
    )
    assert done.included == ["shared/outer.md", "shared/inner/deep.md"]


def test_docfx_in_fences_indented_code_and_code_spans_stays_as_written(
    tmp_path: Path,
) -> None:
    files = {"x.md": "X"}
    page = (
        "```md\n[!INCLUDE[x](x.md)]\n```\n\n"
        "~~~~\n```\n[!INCLUDE[x](x.md)]\n~~~~\n\n"
        "Indented code:\n\n    [!INCLUDE[x](x.md)]\n\n"
        "- item\n\n  ```\n  [!INCLUDE[x](x.md)]\n  ```\n\n"
        "Write `[!INCLUDE[x](x.md)]` or ``[!INCLUDE[x](x.md)] ` `` to include; "
        "[!INCLUDE[x](x.md)] is expanded.\n"
    )
    done = expand(tmp_path, files, "a.md", page)
    assert done.text == page.replace("; [!INCLUDE[x](x.md)] is", "; X is")
    assert done.included == ["x.md"]


def test_docfx_missing_files_are_problems_with_their_line(tmp_path: Path) -> None:
    page = "one\ntwo [!INCLUDE[gone](gone.md)]\n\n[!INCLUDE[also](sub/also.md)]\n"
    done = expand(tmp_path, {}, "guide/p.md", page)
    assert done.text == page
    assert done.problems == [
        IncludeProblem(
            2,
            "gone.md",
            "guide/gone.md does not exist: the directive was left as it was; "
            "fix the path or add the file",
        ),
        IncludeProblem(
            4,
            "sub/also.md",
            "guide/sub/also.md does not exist: the directive was left as it was; "
            "fix the path or add the file",
        ),
    ]


def test_paths_leaving_the_source_are_never_read(tmp_path: Path) -> None:
    source = Source(tmp_path / "src", {"x.md": "X"})
    (tmp_path / "secret.md").write_text("SECRET", "utf-8")
    page = (
        "[!INCLUDE[up](../../secret.md)]\n"
        '--8<-- "../secret.md"\n'
        '--8<-- "/etc/passwd"\n'
        '--8<-- "docs/../../secret.md"\n'
    )
    done = expand_includes(page, "guide/p.md", source.read)
    assert done.text == page and "SECRET" not in done.text
    assert lines_of(done) == [
        (1, "../../secret.md"),
        (2, "../secret.md"),
        (3, "/etc/passwd"),
        (4, "docs/../../secret.md"),
    ]
    outside, up, rooted, up_again = (p.message for p in done.problems)
    assert "leads outside the source" in outside and "leads outside the source" in rooted
    # from the base docs/ these two name a file of the root: pymdownx refuses it too
    assert "climbs out of every snippet base path (the source root, docs/)" in up
    assert "climbs out of every snippet base path" in up_again
    assert source.calls == []


def test_include_loops_stop_and_name_the_chain(tmp_path: Path) -> None:
    files = {"a.md": "A starts\n[!INCLUDE[b](b.md)]\n", "b.md": "B\n[!INCLUDE[a](a.md)]\n"}
    done = expand(tmp_path, files, "p.md", "top\n[!INCLUDE[a](a.md)]\n")
    assert done.text == "top\nA starts\nB\n[!INCLUDE[a](a.md)]\n"
    assert done.included == ["a.md", "b.md"]
    (problem,) = done.problems
    assert (problem.line, problem.target) == (2, "a.md")  # the line in the page
    assert "include loop p.md -> a.md -> b.md -> a.md" in problem.message
    assert "(in b.md, line 2)" in problem.message


def test_a_page_including_itself_is_a_loop(tmp_path: Path) -> None:
    done = expand(tmp_path, {}, "p.md", "[!INCLUDE[me](p.md)]\n")
    assert done.text == "[!INCLUDE[me](p.md)]\n" and done.included == []
    assert "include loop p.md -> p.md" in done.problems[0].message


def test_nesting_deeper_than_max_depth_stops_there(tmp_path: Path) -> None:
    files = {"1.md": "one [!INCLUDE[x](2.md)]", "2.md": "two [!INCLUDE[x](3.md)]", "3.md": "three"}
    deep = expand(tmp_path, files, "p.md", "[!INCLUDE[x](1.md)]\n")
    assert deep.text == "one two three\n" and deep.problems == []
    shallow = expand(tmp_path, files, "p.md", "[!INCLUDE[x](1.md)]\n", max_depth=2)
    assert shallow.text == "one two [!INCLUDE[x](3.md)]\n"
    assert shallow.included == ["1.md", "2.md"]
    (problem,) = shallow.problems
    assert problem.line == 1 and problem.target == "3.md"
    assert "nest deeper than 2 (p.md -> 1.md -> 2.md -> 3.md)" in problem.message


# --- MkDocs snippets -----------------------------------------------------------------------

CODE = "import x\n\n# --8<-- [start:app]\nclass App:\n    pass\n# --8<-- [end:app]\nrun()\n"


def test_snippet_lines_with_either_quote_and_indentation(tmp_path: Path) -> None:
    files = {"docs/examples/app.py": "a = 1\n\nb = 2\n", "docs/snippets/intro.md": "Intro.\n"}
    page = (
        '--8<-- "docs/snippets/intro.md"\n\n'
        "```python\n--8<-- 'docs/examples/app.py'\n```\n\n"
        '=== "app.py"\n\n    ```py\n    --8<-- "docs/examples/app.py"\n    ```\n'
        '\t-8<- "docs/snippets/intro.md"\n'
    )
    done = expand(tmp_path, files, "docs/guide/app.md", page)
    assert done.text == (
        "Intro.\n\n```python\na = 1\n\nb = 2\n```\n\n"
        '=== "app.py"\n\n    ```py\n    a = 1\n\n    b = 2\n    ```\n'
        "    Intro.\n"
    )
    assert done.included == ["docs/snippets/intro.md", "docs/examples/app.py"]
    assert done.problems == []


def test_snippet_paths_try_the_root_then_docs_then_given_bases(tmp_path: Path) -> None:
    files = {"docs/examples/a.py": "from docs\n", "examples/b.py": "from root\n"}
    page = '--8<-- "examples/a.py"\n--8<-- "examples/b.py"\n'
    done = expand(tmp_path, files, "docs/p.md", page)
    assert done.text == "from docs\nfrom root\n"
    assert done.included == ["docs/examples/a.py", "examples/b.py"]
    only_site = expand(tmp_path, files, "docs/p.md", page, snippet_bases=("site", "docs"))
    assert only_site.text == 'from docs\n--8<-- "examples/b.py"\n'
    assert "looked for site/examples/b.py, docs/examples/b.py" in only_site.problems[0].message


def test_snippet_block_form(tmp_path: Path) -> None:
    files = {"a.md": "A\n", "b.md": "B\n", "c.py": "c = 1\n"}
    page = "top\n--8<--\na.md\n\nb.md\n; c.py\n  c.py\n--8<--\nend\n"
    done = expand(tmp_path, files, "p.md", page)
    assert done.text == "top\nA\n\nB\n  c = 1\nend\n"
    assert done.included == ["a.md", "b.md", "c.py"]
    assert targets(page, "p.md", snippet_bases=("",)) == ["a.md", "b.md", "c.py"]


def test_an_unclosed_snippet_block_is_left_as_written(tmp_path: Path) -> None:
    page = "top\n--8<--\na.md\nmore text\n"
    done = expand(tmp_path, {"a.md": "A"}, "p.md", page)
    assert done.text == page and done.included == []
    assert lines_of(done) == [(2, "--8<--")]
    assert "no --8<-- line closes" in done.problems[0].message


def test_snippet_line_ranges(tmp_path: Path) -> None:
    files = {"n.txt": "".join(f"{n}\n" for n in range(1, 11))}
    cases = {
        "n.txt:3:5": "3\n4\n5",
        "n.txt:8": "8\n9\n10",
        "n.txt::2": "1\n2",
        "n.txt:-2": "9\n10",
        "n.txt:1:2,9:10": "1\n2\n9\n10",
        "n.txt:9:99": "9\n10",
    }
    for spec, expected in cases.items():
        done = expand(tmp_path, files, "p.md", f'--8<-- "{spec}"\n')
        assert done.text == expected + "\n", spec
        assert done.included == ["n.txt"] and done.problems == []


def test_snippet_named_sections_behind_any_comment(tmp_path: Path) -> None:
    files = {
        "docs/app.py": CODE,
        "docs/app.tcss": "/* --8<-- [start:css] */\nScreen { }\n/* --8<-- [end:css] */\nX { }\n",
        "docs/page.html": "<!-- --8<-- [start:body] -->\n<p>Hi</p>\n<!-- --8<-- [end:body] -->\n",
    }
    page = '--8<-- "docs/app.py:app"\n--8<-- "docs/app.tcss:css"\n--8<-- "docs/page.html:body"\n'
    done = expand(tmp_path, files, "docs/p.md", page)
    assert done.text == "class App:\n    pass\nScreen { }\n<p>Hi</p>\n"


def test_section_markers_never_show_and_a_missing_section_is_a_problem(tmp_path: Path) -> None:
    nested = (
        "# --8<-- [start:outer]\nbefore\n# --8<-- [start:inner]\ninside\n"
        "# --8<-- [end:inner]\nafter\n# --8<-- [end:outer]\n"
    )
    files = {"app.py": CODE, "nested.py": nested}
    page = '--8<-- "app.py"\n---\n--8<-- "nested.py:outer"\n---\n--8<-- "app.py:gone"\n'
    done = expand(tmp_path, files, "p.md", page)
    assert done.text == (
        "import x\n\nclass App:\n    pass\nrun()\n---\nbefore\ninside\nafter\n---\n"
        '--8<-- "app.py:gone"\n'
    )
    assert lines_of(done) == [(5, "app.py:gone")]
    assert "app.py has no section gone" in done.problems[0].message


def test_commented_out_and_escaped_snippets(tmp_path: Path) -> None:
    files = {"a.md": "A\n"}
    page = '--8<-- ";a.md"\nkept\n;--8<-- "a.md"\n;;--8<-- "a.md"\n'
    done = expand(tmp_path, files, "p.md", page)
    assert done.text == 'kept\n--8<-- "a.md"\n;--8<-- "a.md"\n'
    assert done.included == [] and done.problems == []


def test_images_urls_and_missing_snippets_are_left_with_a_problem(tmp_path: Path) -> None:
    files = {"docs/images/shot.svg": "<svg/>"}
    page = (
        "intro\n"
        '--8<-- "docs/images/shot.svg"\n'
        '--8<-- "https://example.com/x.md"\n'
        '    --8<-- "docs/examples/gone.py"\n'
    )
    done = expand(tmp_path, files, "docs/p.md", page)
    assert done.text == page and done.included == []
    assert lines_of(done) == [
        (2, "docs/images/shot.svg"),
        (3, "https://example.com/x.md"),
        (4, "docs/examples/gone.py"),
    ]
    image, url, missing = (p.message for p in done.problems)
    assert "an image cannot be included as text" in image
    assert "remote snippets are not downloaded" in url
    assert "is not in the source" in missing and "fix the path or add the file" in missing


def test_nested_snippets_resolve_from_the_bases_and_loops_stop(tmp_path: Path) -> None:
    files = {
        "docs/snippets/outer.md": 'Outer\n--8<-- "snippets/inner.md"\n',
        "docs/snippets/inner.md": 'Inner\n--8<-- "docs/snippets/outer.md"\n',
    }
    done = expand(tmp_path, files, "docs/guide/p.md", '--8<-- "docs/snippets/outer.md"\n')
    assert done.text == 'Outer\nInner\n--8<-- "docs/snippets/outer.md"\n'
    assert done.included == ["docs/snippets/outer.md", "docs/snippets/inner.md"]
    (problem,) = done.problems
    assert problem.line == 1
    assert "docs/guide/p.md -> docs/snippets/outer.md -> docs/snippets/inner.md -> " in (
        problem.message
    )
    assert "(in docs/snippets/inner.md, line 2)" in problem.message


def test_snippet_links_stay_as_written(tmp_path: Path) -> None:
    # pymdownx inserts the text before Markdown is read: links are the including page's
    files = {"docs/snippets/see_also.md": "- [`border`](./border.md)\n"}
    done = expand(tmp_path, files, "docs/styles/outline.md", '--8<-- "docs/snippets/see_also.md"\n')
    assert done.text == "- [`border`](./border.md)\n"


def test_each_included_file_is_listed_once(tmp_path: Path) -> None:
    files = {"a.md": "A", "b.md": "B [!INCLUDE[a](a.md)]"}
    page = '[!INCLUDE[a](a.md)]\n[!INCLUDE[b](b.md)]\n--8<-- "a.md"\n'
    done = expand(tmp_path, files, "p.md", page)
    assert done.text == "A\nB A\nA\n"
    assert done.included == ["a.md", "b.md"]


def test_text_without_directives_is_returned_as_is(tmp_path: Path) -> None:
    source = Source(tmp_path, {})
    text = "# Title\n\nNo includes: [a link](x.md), `--8<--`.\n"
    done = expand_includes(text, "p.md", source.read)
    assert done.text == text and done.included == [] and done.problems == []
    assert source.calls == []


def test_include_folders_and_targets() -> None:
    assert {"includes", "_includes", "snippets", "_snippets", "includes-shared"} == INCLUDE_DIRS
    assert is_include_target("docs/snippets/x.md") and is_include_target("Includes/n.md")
    assert not is_include_target("snippets.md") and not is_include_target("guide/app.md")
    page = '[!INCLUDE[n](../includes/n.md)]\n--8<-- "examples/a.py:3:4"\n;--8<-- "no.md"\n'
    assert targets(page, "guide/p.md") == [
        "includes/n.md",
        "examples/a.py",
        "docs/examples/a.py",
    ]


# --- the real corpus -----------------------------------------------------------------------


def test_every_snippet_of_the_textual_docs_resolves_but_images_and_absent_files() -> None:
    if not (CORPUS / "docs").is_dir():
        pytest.skip(f"{CORPUS} is not here")
    read: Callable[[str], str | None] = _disk_reader(CORPUS)
    pages = resolved = 0
    left: dict[str, int] = {"image": 0, "absent": 0}
    for page in sorted(CORPUS.glob("docs/**/*.md")):
        rel = page.relative_to(CORPUS).as_posix()
        text = page.read_text("utf-8")
        if "--8<--" not in text:
            continue
        pages += 1
        done = expand_includes(text, rel, read)
        for problem in done.problems:
            if "an image cannot be included as text" in problem.message:
                left["image"] += 1
            else:  # only files the corpus does not ship (its SOURCE.txt: pages and snippets)
                assert "is not in the source" in problem.message, (rel, problem)
                assert not (CORPUS / problem.target).exists()
                assert not (CORPUS / "docs" / problem.target).exists()
                left["absent"] += 1
        before = sum(1 for line in text.split("\n") if line.strip().startswith("--8<--"))
        after = sum(1 for line in done.text.split("\n") if line.strip().startswith("--8<--"))
        assert after == len(done.problems), rel
        resolved += before - after
    assert pages > 100 and resolved > 500
    assert left["image"] > 0 and left["absent"] <= 10
    print(f"textual-docs: {pages} pages, {resolved} snippets resolved, left: {left}")


def _disk_reader(root: Path) -> Callable[[str], str | None]:
    def read(rel: str) -> str | None:
        try:
            return (root / rel).read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    return read


def test_nested_problems_name_the_line_in_the_included_file(tmp_path: Path) -> None:
    files = {
        "inc/a.md": "---\ntitle: A\n---\nA text\n\n[!INCLUDE[gone](gone.md)]\n",
        "code.py": 'one\ntwo\nthree\n--8<-- "missing.py"\n',
    }
    page = 'x\n[!INCLUDE[a](inc/a.md)]\n--8<-- "code.py:3:4"\n'
    done = expand(tmp_path, files, "p.md", page)
    # the unresolved directive, now in p.md, still names inc/gone.md (rebased as a link)
    assert done.text == 'x\nA text\n\n[!INCLUDE[gone](inc/gone.md)]\nthree\n--8<-- "missing.py"\n'
    assert lines_of(done) == [(2, "gone.md"), (3, "missing.py")]
    assert done.problems[0].message.endswith("(in inc/a.md, line 6)")  # frontmatter counted
    assert done.problems[1].message.endswith("(in code.py, line 4)")  # not line 2 of the range


def test_a_selection_of_no_line_and_a_quoted_snippet_in_a_block_are_problems(
    tmp_path: Path,
) -> None:
    files = {"n.txt": "1\n2\n", "a.md": "A\n"}
    page = '--8<-- "n.txt:5:9"\n--8<--\na.md\n--8<-- "a.md"\n--8<--\n'
    done = expand(tmp_path, files, "p.md", page)
    assert done.text == '--8<-- "n.txt:5:9"\nA\n'
    assert lines_of(done) == [(1, "n.txt:5:9"), (4, "a.md")]
    assert "selects no line of n.txt" in done.problems[0].message
    assert "inside a --8<-- block is ignored" in done.problems[1].message


def test_a_snippet_climbing_out_of_its_base_paths_is_not_read(tmp_path: Path) -> None:
    source = Source(tmp_path / "src", {"README.md": "Read me\n"})
    done = expand_includes(
        '--8<-- "../README.md"\n', "docs/p.md", source.read, snippet_bases=("docs",)
    )
    assert done.text == '--8<-- "../README.md"\n' and source.calls == []
    assert "climbs out of every snippet base path (docs/)" in done.problems[0].message
