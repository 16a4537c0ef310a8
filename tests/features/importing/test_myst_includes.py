"""MyST's ``{include}`` and ``{literalinclude}`` in a Sphinx project's Markdown pages
(pallets/click's docs: changes.md and license.md were empty shells around the fence)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.features.importing.build import build
from kas_tui.features.importing.myst_includes import expand_myst_includes, myst_include_targets
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
FILES = {
    "docs/conf.py": 'extensions = ["myst_parser"]\nproject = "Demo"\n',
    "docs/index.md": "# Demo\n\nDemo parses options.\n\n```{toctree}\nchanges\nlicense\n```\n",
    "docs/changes.md": "# Changes\n\n```{include} ../CHANGES.md\n:start-after: <!-- start -->\n```\n",
    "docs/license.md": "# License\n\n```{literalinclude} ../LICENSE.txt\n:language: text\n"
    ":lines: 1-2\n```\n\n```{include} missing.md\n```\n",
    "CHANGES.md": "# Changelog\n\n<!-- start -->\n\n## 2.0\n\n- Dropped Python 3.8, see "
    "[the docs](docs/index.md).\n",
    "LICENSE.txt": "BSD-3-Clause License\n\nCopyright 2014 Pallets\n\nRedistribution...\n",
}


def test_includes_show_the_files_they_name() -> None:
    read = FILES.get
    text, problems = expand_myst_includes(FILES["docs/changes.md"], "docs/changes.md", read)
    assert "## 2.0" in text and "# Changelog" not in text and "{include}" not in text
    assert "[the docs](index.md)" in text  # its link, from the page
    text, problems = expand_myst_includes(FILES["docs/license.md"], "docs/license.md", read)
    assert "```text\nBSD-3-Clause License\n```" in text  # lines 1-2, blank line stripped
    assert "```{include} missing.md" in text
    assert [p.line for p in problems] == [8]
    assert myst_include_targets(FILES["docs/license.md"], "docs/license.md") == [
        "LICENSE.txt",
        "docs/missing.md",
    ]


def test_a_sphinx_build_shows_what_its_pages_include(tmp_path: Path) -> None:
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", FILES), out, now=NOW, workers=1)
    assert result.errors == 0
    changes = next(out.rglob("changes.md")).read_text("utf-8")
    assert "Dropped Python 3.8" in changes and "{include}" not in changes
    assert any("{include} names missing.md" in n for n in result.notes), result.notes
