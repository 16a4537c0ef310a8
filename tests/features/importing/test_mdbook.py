"""An mdBook as rust-lang/mdBook's own guide is written: ``book.toml`` (its title and
description), ``src/SUMMARY.md`` (``# Summary``, an introduction, part headings over
nested lists of chapters, a draft chapter with no page). Built, its root was two
bundles "Guide helper" and "Src"; the summary was built as a page."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import read_toc
from tests.helpers.build_sources import built_clean, source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
SUMMARY = """\
# Summary

[Introduction](README.md)

# User guide

- [Installation](guide/installation.md)
- [Reading books](guide/reading.md)

# Reference guide

- [Command-line tool](cli/README.md)
    - [init](cli/init.md)
    - [Draft chapter]()
- [Gone](cli/gone.md)
"""


def page(title: str) -> str:
    return f"# {title}\n\n{title} explains one part of writing a book.\n"


def book() -> dict[str, str | bytes]:
    return {
        "book.toml": '[book]\ntitle = "mdBook Documentation"\n'
        'description = "Create book from markdown files."\n',
        "src/SUMMARY.md": SUMMARY,
        "src/README.md": page("Introduction"),
        "src/guide/installation.md": page("Installation"),
        "src/guide/reading.md": page("Reading books"),
        "src/cli/README.md": page("Command-line tool"),
        "src/cli/init.md": page("The init command"),
        "guide-helper/Cargo.toml": '[package]\nname = "guide-helper"\n',
    }


def test_the_summary_is_the_books_table_of_contents(tmp_path: Path) -> None:
    root = write_sources(tmp_path / "src", book())
    names = source_files(root)
    toc = read_toc("src/SUMMARY.md", lambda r: (root / r).read_text("utf-8"), names)
    assert toc is not None and toc.kind == "summary" and toc.docs_dir == "src"
    assert list(toc.order()) == [
        "src/README.md",
        "src/guide/installation.md",
        "src/guide/reading.md",
        "src/cli/README.md",
        "src/cli/init.md",
    ]
    # "# Summary" names no part; the parts do
    assert toc.sections()["src/README.md"] == []
    assert toc.sections()["src/cli/init.md"] == ["Reference guide", "Command-line tool"]
    assert toc.problems == [
        "src/SUMMARY.md:15: names the page cli/gone.md, which is not in the book; fix the "
        "link or add the page"
    ]
    # a page called SUMMARY.md that links no pages is a page
    other = write_sources(tmp_path / "other", {"SUMMARY.md": page("Summary of findings")})
    assert read_toc("SUMMARY.md", lambda r: (other / r).read_text("utf-8"), {"SUMMARY.md"}) is None


def test_an_mdbook_builds_as_its_summary_orders_it(tmp_path: Path) -> None:
    result = build(write_sources(tmp_path / "src", book()), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert "summary.md" not in pkg.documents and not any("cargo" in d for d in pkg.documents)
    text = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert text.splitlines()[3] == "# mdBook Documentation"
    root = parse_index(text)
    assert root.entries[0].title == "Introduction"
    skill = (tmp_path / "kb" / "SKILL.md").read_text("utf-8")
    assert "mdBook Documentation: Create book from markdown files." in skill


def test_a_book_kept_in_a_folder_of_a_repository_is_found_from_its_root(tmp_path: Path) -> None:
    """rust-lang/mdBook keeps its guide in ``guide/`` (``guide/book.toml``,
    ``guide/src/SUMMARY.md``) beside its crates, tests (389 test books' pages) and a
    ``.cargo/config.toml``, which read as a second site's config: built from the
    repository's root, the package was its tests and crates."""
    files = {f"guide/{rel}": text for rel, text in book().items()}
    files |= {
        ".cargo/config.toml": '[alias]\nxtask = "run --package xtask --"\n',
        "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
        "crates/mdbook-core/README.md": "# mdbook-core\n\nThe core of mdBook, as a library.\n",
        "tests/testsuite/books/basic/book.toml": "[book]\ntitle = 'basic'\n",
        "tests/testsuite/books/basic/src/SUMMARY.md": "- [Chapter 1](chapter_1.md)\n",
        "tests/testsuite/books/basic/src/chapter_1.md": page("Chapter 1"),
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not any(p.startswith(("tests/", "crates/")) for p in pkg.documents), sorted(
        pkg.documents
    )
    root = parse_index((tmp_path / "kb" / "index.md").read_text("utf-8"))
    assert [e.title for e in root.entries][:2] == ["Introduction", "User guide"]
    assert any("outside the docs folder" in n for n in result.notes)
    # a SUMMARY entry with a page and chapters below it names its folder ("Cli" was
    # the folder's name): the site's sidebar shows "Command-line tool"
    assert "* [Command-line tool](cli/) - " in (tmp_path / "kb" / "index.md").read_text("utf-8")


def test_links_to_the_rendered_html_name_the_markdown_pages(tmp_path: Path) -> None:
    """mdBook's guide links ``../cli/index.html`` (the rendered ``cli/README.md``) and
    ``init.html``: three broken links in the package."""
    files = book()
    files["src/guide/reading.md"] = (
        "# Reading books\n\nBuilt with [the CLI](../cli/index.html#commands); start with\n"
        "[init](../cli/init.html) and [installing](installation.html).\n"
    )
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    reading = next((tmp_path / "kb").rglob("reading.md")).read_text("utf-8")
    assert "[the CLI](../cli/readme.md#commands)" in reading
    assert "[init](../cli/init.md) and [installing](installation.md)" in reading
    pkg = Package(tmp_path / "kb")
    pkg.load()
    from kas_tui.features.check import check

    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_include_directives_show_the_lines_the_book_shows(tmp_path: Path) -> None:
    """mdBook's ``{{#include}}``: rust-lang/mdBook's ``cli/watch.md`` shows
    ``arg-watcher.md`` (which the build had made a page of its own, though SUMMARY does
    not list it); the Rust book shows its listings from ``listings/`` by line ranges and
    anchors. ``\\{{#include x}}``, escaped, is how the guide shows the syntax itself."""
    from kas_tui.features.importing.mdbook_includes import expand_mdbook_includes

    files = book()
    files["src/cli/arg-watcher.md"] = "#### `--watcher`\n\nPick the file watcher.\n"
    files["src/cli/init.md"] = (
        "# The init command\n\nCreates a book.\n\n{{#include arg-watcher.md}}\n\n"
        "```rust\n{{#rustdoc_include ../../listings/main.rs:greeting}}\n```\n\n"
        "```rust\n{{#include ../../listings/main.rs:2:3}}\n```\n\n"
        "Write `\\{{#include file.rs}}` to show a file; {{#include gone.rs}} is missing.\n"
    )
    files["listings/main.rs"] = (
        'fn main() {\n    // ANCHOR: greeting\n    println!("Hello");\n'
        "    // ANCHOR_END: greeting\n}\n"
    )
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    init = next((tmp_path / "kb").rglob("init.md")).read_text("utf-8")
    assert "Pick the file watcher." in init
    assert '```rust\n    println!("Hello");\n```' in init  # the anchor's lines, no marker
    assert '```rust\n    println!("Hello");\n    // ANCHOR_END' not in init
    assert "Write `{{#include file.rs}}` to show a file" in init
    assert "{{#include gone.rs}} is missing" in init
    assert [n for n in result.notes if "gone.rs" in n] == [
        "src/cli/init.md:15: {{#include}} names gone.rs, which is not a file of the source: "
        "the directive was left as it was; build from the folder holding it, or add it"
    ]
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not any("arg-watcher" in p for p in pkg.documents)  # shown in a page, no page
    # line ranges: ":2" is line 2 alone, "::2" up to it, "2:" from it
    lines = {
        "f.rs": "one\ntwo\nthree\n",
        "p.md": "{{#include f.rs:2}}|{{#include f.rs::2}}|{{#include f.rs:2:}}",
    }
    shown, _problems = expand_mdbook_includes(lines["p.md"], "p.md", lines.get)
    assert shown == "two|one\ntwo|two\nthree"
    loop = {"a.md": "{{#include b.md}}", "b.md": "{{#include a.md}}"}
    shown, problems = expand_mdbook_includes(loop["a.md"], "a.md", loop.get)
    assert shown == "{{#include a.md}}" and "loops" in problems[0].message


def test_a_repositorys_own_book_is_found_beside_older_editions(tmp_path: Path) -> None:
    """rust-lang/book: ``book.toml`` and ``src/SUMMARY.md`` at the root, and older
    editions beside them, each a book of its own (``first-edition/book.toml``): no
    table of contents was chosen and 770 files were built, editions and all."""
    files = dict(book())
    files["first-edition/book.toml"] = '[book]\ntitle = "The first edition"\n'
    files["first-edition/src/SUMMARY.md"] = "- [Old intro](intro.md)\n"
    files["first-edition/src/intro.md"] = page("Old intro")
    files["2018-edition/book.toml"] = '[book]\ntitle = "The 2018 edition"\n'
    files["2018-edition/src/SUMMARY.md"] = "- [Intro 2018](intro.md)\n"
    files["2018-edition/src/intro.md"] = page("Intro 2018")
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not any("edition" in p for p in pkg.documents), sorted(pkg.documents)
    assert "\n# mdBook Documentation\n" in (tmp_path / "kb" / "index.md").read_text("utf-8")


def test_a_repository_keeping_two_books_in_its_doc_folder_builds_the_larger(
    tmp_path: Path,
) -> None:
    """rust-lang/cargo: ``doc/book/`` (The Cargo Book, 100 pages) and ``doc/contrib/``
    (the contributors' guide, 28) beside ``doc/man/`` templates, and 2,800 files of
    crates and tests around ``doc/``: no book holds most of the repository's pages, so
    it was built whole (its tests' fixtures, licenses and crates' READMEs as pages,
    ``.tgz`` fixtures failing). ``doc/`` holds most, and The Cargo Book most of
    ``doc/``'s: it is the package, titled as its ``book.toml`` titles it."""
    files: dict[str, str | bytes] = {
        "doc/book/book.toml": '[book]\ntitle = "The Cargo Book"\n',
        "doc/book/src/SUMMARY.md": (
            "# Summary\n\n[Introduction](index.md)\n\n"
            + "".join(f"- [Chapter {n}](guide/chapter-{n}.md)\n" for n in range(8))
        ),
        "doc/book/src/index.md": page("The Cargo Book"),
        "doc/contrib/book.toml": '[book]\ntitle = "Cargo Contributor Guide"\n',
        "doc/contrib/src/SUMMARY.md": "# Summary\n\n- [Process](process.md)\n- [Design](design.md)\n",
        "doc/contrib/src/process.md": page("Process"),
        "doc/contrib/src/design.md": page("Design"),
        "Cargo.toml": '[package]\nname = "cargo"\n',
        "LICENSE-MIT": "Permission is hereby granted, free of charge...\n",
        "benches/workspaces/servo.tgz": b"\x1f\x8b\x08\x00binary",
    }
    for n in range(8):
        files[f"doc/book/src/guide/chapter-{n}.md"] = page(f"Chapter {n}")
    for n in range(9):
        files[f"tests/testsuite/cargo_add/case_{n}/README.md"] = page(f"Add case {n}")
    files["crates/mdman/README.md"] = page("mdman")
    result, pkg = built_clean(tmp_path, files)
    titles = {d.meta.get("title") for d in pkg.documents.values()}
    assert {"Chapter 0", "Chapter 7"} <= titles, titles
    assert not {"Add case 0", "mdman", "Process"} & titles, titles
    assert (tmp_path / "kb" / "index.md").read_text("utf-8").splitlines()[3] == "# The Cargo Book"
    assert any("outside the docs folder" in n and "doc/book/src/" in n for n in result.notes)


def test_the_first_heading_is_the_books_title_whatever_it_says(tmp_path: Path) -> None:
    """The Rust book's summary opens with ``# The Rust Programming Language``, which
    mdBook reads as the summary's title, as it reads ``# Summary``. Read as a part, it
    put each chapter's own page under a heading of that name in the chapter's index,
    after the chapter's sections ("Getting Started" last in "Getting Started")."""
    files = {
        "book.toml": '[book]\ntitle = "The Rust Programming Language"\n',
        "src/SUMMARY.md": "<!-- the book's own words -->\n"
        "# The Rust Programming Language\n\n"
        "[Foreword](foreword.md)\n\n"
        "- [Getting Started](ch01-00-getting-started.md)\n"
        "  - [Installation](ch01-01-installation.md)\n"
        "  - [Hello, World!](ch01-02-hello-world.md)\n"
        "- [Guessing Game](ch02-00-guessing-game.md)\n\n"
        "# Advanced topics\n\n"
        "- [Macros](ch20-05-macros.md)\n",
        "src/foreword.md": page("Foreword"),
        "src/ch01-00-getting-started.md": page("Getting Started"),
        "src/ch01-01-installation.md": page("Installation"),
        "src/ch01-02-hello-world.md": page("Hello, World!"),
        "src/ch02-00-guessing-game.md": page("Programming a Guessing Game"),
        "src/ch20-05-macros.md": page("Macros"),
    }
    more = ""  # a book's length: its chapters become bundles
    for c in range(3, 15):
        more += f"- [Chapter {c}](ch{c:02}-00.md)\n"
        files[f"src/ch{c:02}-00.md"] = page(f"Chapter {c}")
        for n in range(1, 5):
            more += f"  - [Part {n} of chapter {c}](ch{c:02}-{n:02}.md)\n"
            files[f"src/ch{c:02}-{n:02}.md"] = page(f"Part {n} of chapter {c}")
    summary = str(files["src/SUMMARY.md"])
    files["src/SUMMARY.md"] = summary.replace("\n# Advanced", more + "\n# Advanced")
    root = write_sources(tmp_path / "src", files)
    toc = read_toc("src/SUMMARY.md", lambda r: (root / r).read_text("utf-8"), source_files(root))
    assert toc is not None
    sections = toc.sections()
    assert sections["src/ch01-00-getting-started.md"] == []
    assert sections["src/ch01-01-installation.md"] == ["Getting Started"]
    assert sections["src/ch20-05-macros.md"] == ["Advanced topics"]  # a later h1 is a part
    result = build(root, tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    index = (tmp_path / "kb" / "getting-started" / "index.md").read_text("utf-8")
    assert "## " not in index, index
    titles = [e.title for e in parse_index(index).entries]
    assert titles[0].startswith("Getting Started"), titles
    # GitBook's summary keeps its rule: only a title that says so is no part
    gitbook = write_sources(tmp_path / "gb", {k: v for k, v in files.items() if k != "book.toml"})
    toc = read_toc(
        "src/SUMMARY.md", lambda r: (gitbook / r).read_text("utf-8"), source_files(gitbook)
    )
    assert toc is not None
    assert toc.sections()["src/ch01-00-getting-started.md"] == ["The Rust Programming Language"]
