"""mdx_include, the include directive of FastAPI, SQLModel and Typer's docs: ``{!path!}``
in a code fence was left as written, so 82 of FastAPI's and 41 of SQLModel's pages
showed the directive where the site shows the example's code."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.include_syntax import mdx_bases
from kas_tui.features.importing.includes import expand_includes, targets
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)
CODE = "from sqlmodel import SQLModel\n\n\nclass Hero(SQLModel):\n    name: str\n    age: int\n"


def _reader(files: dict[str, str]):
    def read(rel: str) -> str | None:
        assert not rel.startswith(("/", "../")), f"read outside: {rel}"
        return files.get(rel)

    return read


def test_a_directive_is_the_lines_it_names_with_its_indentation() -> None:
    files = {"docs_src/hero.py": CODE}
    page = (
        "```Python\n{!./docs_src/hero.py!}\n```\n\n"
        "* Step one:\n\n    ```Python\n    {!./docs_src/hero.py[ln:4-5]!}\n    ```\n\n"
        "Escaped: \\{!not/a/file!} and {!missing.py!}\n"
    )
    done = expand_includes(page, "docs/tutorial/create.md", _reader(files))
    assert "```Python\nfrom sqlmodel import SQLModel\n\n\nclass Hero(SQLModel):\n" in done.text
    assert "    ```Python\n    class Hero(SQLModel):\n        name: str\n    ```" in done.text
    assert "Escaped: {!not/a/file!} and {!missing.py!}" in done.text  # as written
    assert done.included == ["docs_src/hero.py"]
    assert [(p.line, p.target) for p in done.problems] == [(11, "missing.py")]
    assert "missing.py is not in the source" in done.problems[0].message


def test_a_latex_argument_opening_with_a_bang_is_no_directive() -> None:
    """A note's Shapley value, ``\\frac{!(M-|S|-1)!}{M}`` in ``$$`` math, was read as
    an include of ``(M-|S|-1)`` and said missing."""
    page = "$$\n\\phi_i = \\sum \\left[ \\frac{!(M-|S|-1)!}{M} \\right]\n$$\n"
    done = expand_includes(page, "notes/shap.md", _reader({}))
    assert done.text == page and done.problems == [] and done.included == []


def test_paths_start_beside_the_page_then_from_the_sites_folders() -> None:
    """FastAPI's ``docs/en/docs/tutorial/first-steps.md`` names
    ``../../../docs_src/first_steps/tutorial001.py``: from its docs folder, the
    repository's ``docs_src``; never a path out of the source."""
    bases = mdx_bases(["docs/en/mkdocs.yml", "docs/en/docs/index.md"])
    assert bases == ["docs/en", "docs/en/docs"]
    page = "docs/en/docs/tutorial/first-steps.md"
    text = "{!../../../docs_src/first_steps/tutorial001.py!}\n{!../../../../../etc/passwd!}\n"
    assert targets(text, page, mdx_bases=bases) == [
        "docs/docs_src/first_steps/tutorial001.py",  # beside the page, first
        "docs_src/first_steps/tutorial001.py",
    ]
    files = {"docs_src/first_steps/tutorial001.py": "app = FastAPI()\n"}
    done = expand_includes(text, page, _reader(files), mdx_bases=bases)
    assert done.text.startswith("app = FastAPI()\n")
    assert "{!../../../../../etc/passwd!}" in done.text and len(done.problems) == 1


def _built(tmp_path: Path, example: str, code_file: str, config: str = "") -> tuple[str, Package]:
    """A SQLModel-shaped site whose tutorial page shows ``example`` (a directive naming
    ``code_file``, which holds CODE), built: the page's body and the package."""
    source = write_sources(
        tmp_path / "src",
        {
            "mkdocs.yml": "site_name: SQLModel\nnav:\n  - Create: tutorial/create.md\n" + config,
            "docs/tutorial/create.md": "# Create a Table\n\nDefine the model first.\n\n" + example,
            code_file: CODE,
        },
    )
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0 and result.failed == []
    pkg = Package(out)
    pkg.load()
    return (out / "tutorial/create.md").read_text("utf-8"), pkg


def test_the_build_shows_the_examples_and_keeps_their_files_as_assets(tmp_path: Path) -> None:
    example = "```Python\n{!./docs_src/hero.py[ln:4-6]!}\n```\n"
    body, pkg = _built(tmp_path, example, "docs_src/hero.py")
    assert "class Hero(SQLModel):\n    name: str\n    age: int\n```" in body
    assert "{!" not in body and list(pkg.documents) == ["tutorial/create.md"]


# -- markdown-include-variants: {* path ln[..] hl[..] *} ------------------------------------------
# SQLModel's docs name their examples so 234 times; the package showed the directive as written.

LONG = "".join(f"line_{n} = {n}\n" for n in range(1, 21))


def test_a_variants_directive_is_the_block_the_site_shows_first() -> None:
    files = {"docs_src/app_py310.py": LONG}
    page = (
        "Intro.\n\n{* ./docs_src/app_py310.py ln[3:4,8] hl[4] *}\n\nWhole:\n\n"
        "{* ./docs_src/app_py310.py *}\n\n    {* ./docs_src/app_py310.py *}\n"
    )
    done = expand_includes(page, "docs/tutorial/one.md", _reader(files), mdx_bases=["", "docs"])
    lines = done.text.split("\n")
    first = lines.index("```python")
    assert lines[first : first + 11] == [
        "```python",
        "# Code above omitted 👆",
        "",
        "line_3 = 3",
        "line_4 = 4",
        "",
        "# Code here omitted 👈",
        "",
        "line_8 = 8",
        "",
        "# Code below omitted 👇",
    ]
    assert "```python\n" + LONG + "```" in done.text  # no ln[]: the whole file, no comment
    assert "    {* ./docs_src/app_py310.py *}" in done.text  # indented: not a directive
    assert done.included == ["docs_src/app_py310.py"] and done.problems == []


def test_a_missing_file_shows_its_preferred_variant_and_bad_lines_stay_with_a_problem() -> None:
    """The extension's order: the Annotated Python 3.10 variant first, the plain file last."""
    files = {
        "docs_src/query/tutorial001.py": "old = True\n",
        "docs_src/query/tutorial001_py39.py": "py39 = True\n",
        "docs_src/query/tutorial001_an_py39.py": "an_py39 = True\n",
    }
    page = (
        "{* ../../docs_src/query/tutorial001.py *}\n"
        "{* ../../docs_src/query/tutorial002.py *}\n"
        "{* ../../docs_src/query/tutorial001.py ln[a:3] *}\n"
    )
    done = expand_includes(page, "docs/tutorial/query.md", _reader(files), mdx_bases=["docs"])
    assert done.text.startswith("```python\nold = True\n```\n")  # the file named, when it is
    files.pop("docs_src/query/tutorial001.py")
    again = expand_includes(page, "docs/tutorial/query.md", _reader(files), mdx_bases=["docs"])
    assert again.text.startswith("```python\nan_py39 = True\n```\n")
    assert [(p.line, p.target) for p in again.problems] == [
        (2, "../../docs_src/query/tutorial002.py"),
        (3, "../../docs_src/query/tutorial001.py"),
    ]
    assert "not a file of the source" in again.problems[0].message
    assert "'a:3'" in again.problems[1].message and "ln[1:8,12]" in again.problems[1].message
    assert "{* ../../docs_src/query/tutorial002.py *}" in again.text  # left as written
    assert targets(page, "docs/tutorial/query.md", mdx_bases=["docs"])[:2] == [
        "docs_src/query/tutorial001.py",
        "docs_src/query/tutorial001_an_py310.py",
    ]


def test_the_build_shows_a_variants_example(tmp_path: Path) -> None:
    example = "{* ./docs_src/hero_py310.py ln[4:5] hl[4] *}\n"
    config = "markdown_extensions:\n  markdown_include_variants:\n"
    body, pkg = _built(tmp_path, example, "docs_src/hero_py310.py", config)
    assert "```python\n# Code above omitted 👆\n\nclass Hero(SQLModel):\n    name: str\n\n" in body
    assert "{*" not in body and list(pkg.documents) == ["tutorial/create.md"]
