"""A MyST page's directives as its site shows them, found by building jupyterhub's docs
(2026-12-07): its 25 notes were code blocks (```` ```{note} ````) to every Markdown
reader, the links in them neither resolved nor checked, and admonitions written as colon
fences were read as the page's own words ("This page could be missing cross-links..."
described a page)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.myst_directives import shown_directives
from kas_tui.text import prose
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.UTC)


def test_directives_read_as_the_site_shows_them() -> None:
    page = (
        "```{note}\nSee [roles](define-role-target).\n```\n\n"
        "````{tab-set}\n```{tab-item} pip\n:sync: pip\n\nRun `pip install demo`.\n```\n````\n\n"
        "```{versionadded} 2.0\nThe `--app` option.\n```\n\n"
        "```{code-block} bash\n:caption: Install\necho hi\n```\n\n"
        ":::{figure} img/cat.png\n:alt: A cat\n\nThe caption.\n:::\n\n"
        "```{eval-rst}\n.. autoclass:: Demo\n```\n"
    )
    assert shown_directives(page) == (
        ":::{note}\nSee [roles](define-role-target).\n:::\n\n"
        "::::{tab-set}\n:::{tab-item} pip\n\nRun `pip install demo`.\n:::\n::::\n\n"
        "*New in version 2.0:* The `--app` option.\n\n"
        "```bash\necho hi\n```\n\n"
        "![A cat](img/cat.png)\n\nThe caption.\n\n"
        "```{eval-rst}\n.. autoclass:: Demo\n```\n"  # read elsewhere: as written
    )


def test_nothing_in_a_code_block_is_a_directive() -> None:
    page = "````markdown\n```{note}\nHow to write a note.\n```\n````\n\n```{note}\nUnclosed"
    assert shown_directives(page) == (
        "````markdown\n```{note}\nHow to write a note.\n```\n````\n\n:::{note}\nUnclosed\n:::"
    )
    assert shown_directives("No directive {here}.\n") == "No directive {here}.\n"


def test_an_admonitions_words_describe_no_page() -> None:
    text = (
        ":::{important}\nThis page could be missing cross-links.\n:::\n\nThe hub spawns servers.\n"
    )
    assert [b.text for b in prose.blocks(text)] == ["The hub spawns servers."]
    tabs = "::::{tab-set}\n:::{tab-item} pip\nInstall it with pip.\n:::\n::::\n"
    assert [b.text for b in prose.blocks(tabs)] == ["Install it with pip."]


def test_a_myst_sites_notes_are_text_and_their_links_lead_to_pages(tmp_path: Path) -> None:
    files = {
        "docs/conf.py": 'project = "Hub"\nextensions = ["myst_parser"]\n',
        "docs/index.md": "# Hub\n\n```{toctree}\nroles\nsharing\n```\n",
        "docs/roles.md": "(define-role-target)=\n# Roles\n\nA role is a set of scopes.\n",
        "docs/sharing.md": (
            "# Sharing\n\n```{important}\nThis page could be missing cross-links.\n```\n\n"
            "Users share servers with each other.\n\n"
            "```{note}\nAssign [roles](define-role-target) to the users who share.\n```\n"
        ),
    }
    out = tmp_path / "kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    pkg = Package(out)
    pkg.load()
    sharing = next(p for p, d in pkg.documents.items() if d.title == "Sharing")
    text = (out / sharing).read_text("utf-8")
    assert "[roles](roles.md)" in text and "```{note}" not in text
    assert pkg.documents[sharing].description.startswith("Users share servers")
    assert [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"] == []


def test_a_version_note_describes_no_page() -> None:
    """pip's "Installation Report" opens with a ```{versionchanged}``; read as words, it
    described the page ("Changed in version 23.0: version has been bumped...")."""
    from kas_tui.features.importing.convert import Converted
    from kas_tui.features.importing.heuristics import draft_description

    page = shown_directives(
        "# Installation Report\n\n```{versionchanged} 23.0\nThe format is declared stable.\n"
        "```\n\nThe --report option of pip install writes a JSON report of what it did.\n"
    )
    converted = Converted(Path("report.md"), page, "markdown", "", 0, 0.0)
    described = draft_description(converted, "Installation Report", list(prose.blocks(page)))
    assert described.startswith("The --report option of pip install writes")


def test_directives_nested_hundreds_deep_end_without_a_traceback() -> None:
    """A page of 600 notes nested in each other exhausted Python's stack: past 20 levels
    they stay as written."""
    n = 600
    page = "".join(":" * (n + 3 - i) + "{note}\n" for i in range(n)) + "deep\n"
    page += "".join(":" * (4 + i) + "\n" for i in range(n))
    shown = shown_directives(page)
    assert "deep" in shown and ":" * (n + 3 - 25) + "{note}" in shown  # deeper: as written
