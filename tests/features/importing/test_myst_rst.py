"""A MyST page's reStructuredText read as a Sphinx page's is, found by building
jupyterhub's repository (2026-12-07): its API pages are MyST, each class an
```` ```{eval-rst} ```` block holding ``.. autoclass::``, and every block was shown as
code, nothing of the classes. Autodoc reads the source's code, never runs it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.myst_directives import shown_directives
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.UTC)


class RecordingRstReaderDouble:
    """A stand-in rST reader: records what it is handed, shows a fixed line."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], int]] = []

    def __call__(self, lines: list[str], at: int) -> list[str] | None:
        self.calls.append((lines, at))
        return [f"READ {len(self.calls)}"]


def test_rst_blocks_and_rst_only_directives_reach_the_reader_with_their_lines() -> None:
    page = (
        "# API\n"  # 1
        "\n"  # 2
        "```{eval-rst}\n"  # 3
        ".. automodule:: hub.services\n"  # 4
        "```\n"  # 5
        "\n"  # 6
        "```{autoclass} Service\n"  # 7
        ":members: name, url\n"  # 8
        "\n"  # 9
        "More words.\n"  # 10
        "```\n"  # 11
        "\n"  # 12
        "````md\n"  # 13: MyST's docs show the syntax in a code block: no directive
        "```{eval-rst}\n"
        ".. autoclass:: Shown\n"
        "```\n"
        "````\n"
        "\n"
        ":::{note}\n"
        "```{eval-rst}\n"
        ".. note:: nested\n"
        "```\n"
        ":::\n"
    )
    reader = RecordingRstReaderDouble()
    shown = shown_directives(page, reader)
    assert [lines for lines, _at in reader.calls] == [
        [".. automodule:: hub.services"],
        [".. autoclass:: Service", "   :members: name, url", "", "   More words."],
        [".. note:: nested"],
    ]
    # the page's line before the rST's first: line 4 is the automodule, 7 the autoclass
    assert [at for _lines, at in reader.calls][:2] == [3, 6]
    assert (
        "READ 1" in shown and "READ 2" in shown and "```{eval-rst}\n.. autoclass:: Shown" in shown
    )
    assert ":::{note}\nREAD 3\n:::" in shown
    # without a reader, as written (as before)
    assert shown_directives(page).count("```{eval-rst}") == 3


CODE = '''\
"""Services: processes that talk to the hub."""


class Service:
    """A process the hub starts or talks to.

    It has a name and, unless managed, a URL.
    """

    #: What the hub calls it.
    name = ""


class Spawner:
    """Starts single-user servers."""
'''

FILES: dict[str, str | bytes] = {
    "docs/conf.py": (
        "import os, sys\nsys.path.insert(0, os.path.abspath('..'))\n"
        'project = "Hub"\nextensions = ["myst_parser", "sphinx.ext.autodoc"]\n'
    ),
    "docs/index.md": "# Hub\n\n```{toctree}\napi\n```\n",
    "docs/api.md": (
        "# Services API\n\n"
        "```{eval-rst}\n.. automodule:: hub.services\n```\n\n"
        "## Service\n\n"
        "```{eval-rst}\n.. autoclass:: Service\n   :members:\n```\n\n"
        "```{autoclass} Spawner\n```\n\n"
        "```{eval-rst}\n.. autoclass:: Missing\n```\n"
    ),
    "hub/__init__.py": "",
    "hub/services.py": CODE,
}


def test_a_myst_pages_rst_shows_what_the_code_says(tmp_path: Path) -> None:
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", FILES), out, now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0
    pkg = Package(out)
    pkg.load()
    path = next(p for p, d in pkg.documents.items() if d.title == "Services API")
    text = (out / path).read_text("utf-8")
    assert "Services: processes that talk to the hub." in text  # the module's docstring
    # the class named in a later block, in the module an earlier block set
    assert "`class Service`" in text and "A process the hub starts or talks to." in text
    assert "What the hub calls it." in text  # its :members:
    assert "`class Spawner`" in text and "Starts single-user servers." in text
    assert "eval-rst" not in text and ".. autoclass::" not in text
    notes = "\n".join(result.notes)
    assert "docs/api.md:18: .. autoclass:: Missing is not shown" in notes
