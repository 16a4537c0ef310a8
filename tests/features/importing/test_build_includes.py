"""Include directives (docfx ``[!INCLUDE]``, MkDocs ``--8<--``) expanded as the site does."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.includes import expand_includes, targets
from tests.helpers.build_sources import article, write_sources

NOW = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)


def _reader(files: dict[str, str]):
    return files.get


def test_docfx_includes_on_their_own_line_and_inline() -> None:
    files = {
        "includes/note.md": "---\nms.topic: include\n---\n> [!NOTE]\n> Back up first.\n",
        "includes/name.md": "Contoso Mail\n",
    }
    page = (
        "# Restore\n\n[!INCLUDE [note](../includes/note.md)]\n\n"
        "Open [!INCLUDE[product](../includes/name.md)] and restore.\n"
    )
    done = expand_includes(page, "guide/restore.md", _reader(files))
    assert (
        done.text == "# Restore\n\n> [!NOTE]\n> Back up first.\n\nOpen Contoso Mail and restore.\n"
    )
    assert done.included == ["includes/note.md", "includes/name.md"]
    assert done.problems == []


def test_docfx_directives_in_code_stay_as_written() -> None:
    page = "```md\n[!INCLUDE[x](x.md)]\n```\n\nWrite `[!INCLUDE[x](x.md)]` to include.\n"
    done = expand_includes(page, "a.md", _reader({"x.md": "X"}))
    assert done.text == page and done.included == []


def test_nested_includes_resolve_from_the_included_file_and_links_are_rebased() -> None:
    files = {
        "shared/outer.md": "See [the FAQ](faq.md#top) first.\n\n[!INCLUDE[inner](inner/deep.md)]\n",
        "shared/inner/deep.md": "Deep text.\n",
        "shared/faq.md": "# FAQ\n",
    }
    done = expand_includes("[!INCLUDE[o](../shared/outer.md)]\n", "docs/page.md", _reader(files))
    assert done.text == "See [the FAQ](../shared/faq.md#top) first.\n\nDeep text.\n"
    assert done.included == ["shared/outer.md", "shared/inner/deep.md"]


def test_loops_missing_files_and_paths_leaving_the_source_are_problems_by_line() -> None:
    files = {"a.md": "[!INCLUDE[b](b.md)]", "b.md": "[!INCLUDE[a](a.md)]"}
    page = "one\n[!INCLUDE[a](a.md)]\n[!INCLUDE[gone](gone.md)]\n[!INCLUDE[up](../../x.md)]\n"
    done = expand_includes(page, "p.md", _reader(files))
    lines = {(p.line, p.target) for p in done.problems}
    assert lines == {(2, "a.md"), (3, "gone.md"), (4, "../../x.md")}
    messages = " ".join(p.message for p in done.problems)
    assert "include loop p.md -> a.md -> b.md -> a.md" in messages
    assert "gone.md does not exist" in messages and "leads outside the source" in messages
    assert "[!INCLUDE[gone](gone.md)]" in done.text  # left as written


def test_mkdocs_snippets_with_lines_sections_indent_and_comments() -> None:
    code = "import x\n# --8<-- [start:app]\nclass App:\n    pass\n# --8<-- [end:app]\nrun()\n"
    files = {"docs/examples/app.py": code, "docs/snippets/intro.md": "Intro text.\n"}
    page = (
        '--8<-- "docs/snippets/intro.md"\n\n'
        '```python\n--8<-- "docs/examples/app.py:3:4"\n```\n\n'
        '    --8<-- "examples/app.py:app"\n\n'
        '--8<-- ";docs/examples/app.py"\n'
        '--8<-- "docs/images/shot.svg"\n'
    )
    done = expand_includes(page, "docs/guide/app.md", _reader(files))
    assert done.text == (
        "Intro text.\n\n```python\nclass App:\n    pass\n```\n\n"
        "    class App:\n        pass\n\n"
        '--8<-- "docs/images/shot.svg"\n'
    )
    assert done.included == ["docs/snippets/intro.md", "docs/examples/app.py"]
    assert [p.line for p in done.problems] == [10]  # the image


def test_targets_are_found_without_reading() -> None:
    page = '[!INCLUDE[n](../includes/n.md)]\n--8<-- "examples/a.py"\n'
    assert targets(page, "guide/p.md") == ["includes/n.md", "examples/a.py", "docs/examples/a.py"]


def _site(tmp_path: Path, note: str = "Third-party tools are not supported.") -> Path:
    return write_sources(
        tmp_path / "src",
        {
            "includes/disclaimer.md": f"{note}\n",
            "Mail/restore.md": article(
                "Restore a deleted mailbox",
                "How to restore a deleted mailbox within 30 days.",
                "# Restore\n\n[!INCLUDE[d](../includes/disclaimer.md)]\n\nRun Restore-Mailbox.\n",
            ),
            "docs/examples/hello.py": "print('hello')\n",
            "docs/hello.md": article(
                "Hello example",
                "The smallest app that prints a greeting.",
                '# Hello\n\n```python\n--8<-- "docs/examples/hello.py"\n```\n',
            ),
        },
    )


def test_the_build_shows_included_text_and_keeps_snippets_as_assets(tmp_path: Path) -> None:
    out = tmp_path / "kb"
    result = build(_site(tmp_path), out, now=NOW, workers=1)
    assert result.errors == 0
    pkg = Package(out)
    pkg.load(scan=True)
    assert sorted(pkg.documents) == ["docs/hello.md", "mail/restore.md"]
    restore = (out / "mail/restore.md").read_text("utf-8")
    assert "Third-party tools are not supported." in restore and "[!INCLUDE" not in restore
    assert "print('hello')" in (out / "docs/hello.md").read_text("utf-8")
    assert (out / "assets/includes/disclaimer.txt").is_file()  # the root holds bundles
    assert (out / "docs/examples/hello.py").is_file()


def test_a_changed_snippet_rebuilds_the_pages_that_show_it(tmp_path: Path) -> None:
    out = tmp_path / "kb"
    build(_site(tmp_path), out, now=NOW, workers=1)
    _site(tmp_path, note="Third-party tools are supported on weekdays.")
    again = build(tmp_path / "src", out, now=NOW + dt.timedelta(days=1), workers=1)
    assert again.updated == ["mail/restore.md"]
    assert "supported on weekdays" in (out / "mail/restore.md").read_text("utf-8")


def test_a_page_without_snippets_expands_as_one_with_a_snippet_marker_would() -> None:
    """A page with no ``--8<--`` line has only its docfx lines looked at; the result is
    the one the line-by-line reading of every directive kind gives (forced here by a
    line holding ``8<`` that is no directive)."""
    import random

    files = {
        "includes/name.md": "Contoso [Mail](../guide/mail.md)\n",
        "includes/note.md": "> [!NOTE]\n> Back up [!INCLUDE[n](name.md)] first.\n",
        "includes/loop.md": "[!INCLUDE[l](loop.md)]\n",
        "guide/mail.md": "# Mail\n",
    }
    pieces = [
        "[!INCLUDE[n](../includes/name.md)]",
        "Open [!INCLUDE[n](../includes/name.md)] now, `[!INCLUDE[x](x.md)]` stays.",
        "> [!INCLUDE[note](../includes/note.md)]",
        "- [!INCLUDE[note](../includes/note.md)]",
        "    [!INCLUDE[n](../includes/name.md)]",
        "```\n[!INCLUDE[n](../includes/name.md)]\n```",
        "[!INCLUDE[gone](../includes/gone.md)]",
        "[!INCLUDE[up](../../../up.md)]",
        "[!INCLUDE[loop](../includes/loop.md)]",
        "> [!TIP]\n> A tip.",
        "Plain text with [a link](mail.md).",
        "",
    ]
    rng = random.Random(7)
    for _ in range(200):
        page = "\n".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12))) + "\n"
        fast = expand_includes(page, "guide/page.md", _reader(files))
        full = expand_includes(page + "x 8< y\n", "guide/page.md", _reader(files))
        assert full.text == fast.text + "x 8< y\n"
        assert (full.included, full.problems) == (fast.included, fast.problems)


def test_an_include_problem_names_the_line_of_the_page_not_of_its_body(tmp_path: Path) -> None:
    """The line counted from the page's first line, its frontmatter included (it was
    counted from the body's: a curator opening the file at the line said found another
    line)."""
    page = article("Restore", "How to restore a mailbox.", "# Restore\n\n[!INCLUDE[g](gone.md)]\n")
    source = write_sources(tmp_path / "src", {"restore.md": "\n" + page})
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    line = 1 + page.split("\n").index("[!INCLUDE[g](gone.md)]") + 1  # a blank line above
    assert [n for n in result.notes if "gone.md" in n] == [
        f"restore.md:{line}: gone.md does not exist: the directive was left as it was; "
        "fix the path or add the file"
    ]
