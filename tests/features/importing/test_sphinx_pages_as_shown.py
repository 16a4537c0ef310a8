"""reStructuredText pages as their Sphinx site shows them, found by building pytest,
numpy, sqlalchemy, scrapy and ansible's docs (2026-12-07): code blocks had lost their
language (every one of them), math its exponents, headings after a ``.. contents::``
were links to anchors nothing held, a title came from the file name when an include
stood above the first heading, one undefined substitution failed a page, and
``exclude_patterns``, toctree entries written ``x.rst``, ``:doc:`` roles naming another
project's pages and sphinx-issues' roles were not read as Sphinx reads them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.convert import Limits, convert_here
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.UTC)

PAGE = """\
Solving equations
=================

.. contents::

.. code-block:: python

   import demo

::

   a plain literal block

.. math::

   x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}

The squares sum: :math:`a^2 + b^2 = c^2`.

How to run
----------

Run it.

.. autosummary::
   :toctree: generated/

   unique
   unique_counts
"""


def test_code_math_and_headings_read_as_the_site_shows_them(tmp_path: Path, capfd) -> None:
    path = tmp_path / "maths.rst"
    path.write_text(PAGE, "utf-8")
    text = convert_here(path, Limits()).markdown
    assert "```python\nimport demo\n```" in text  # the language the block names
    assert "```\na plain literal block\n```" in text
    assert "```math\nx = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}\n```" in text  # its LaTeX
    assert "The squares sum: `a^2 + b^2 = c^2`." in text
    assert "## How to run\n" in text and "toc-entry" not in text
    assert "* `unique`\n* `unique_counts`" in text  # the names it summarises, a list
    assert capfd.readouterr().out == ""  # docutils' math printed "Unknown command" before


def _project() -> dict[str, str | bytes]:
    return {
        "docs/conf.py": (
            'project = "Demo"\nversion = "2.5"\nextensions = ["sphinx_issues"]\n'
            'issues_github_path = "demo-org/demo"\n'
            'exclude_patterns = ["_build", "old_notes.rst", "**/unreleased*/*"]\n'
            'rst_epilog = """\n.. |product| replace:: Demo Cloud\n"""\n'
        ),
        "docs/index.rst": (
            "Demo |version| documentation\n============================\n\n"
            ".. toctree::\n\n   changes\n   manual\n   advanced/usecases.rst\n"
            "   platform\n   engine\n"
        ),
        "docs/changes.rst": (
            "Changelog\n=========\n\n- :issue:`1234`: Fixed the parser crash on empty input "
            "(thanks :user:`alice`, :pr:`1240`).\n"
        ),
        "docs/manual.rst": (
            "Manual\n======\n\nRequest metadata is :doc:`shallow copied <library/copy>` when "
            "the request is cloned; see :doc:`usecases <advanced/usecases>`.\n"
        ),
        "docs/advanced/usecases.rst": (
            "Advanced use cases\n==================\n\nWrap a C library with |product|.\n"
        ),
        "docs/platform.rst": (
            "Platform options & more\n=======================\n\n"
            "=================  =============\nSetting            Value\n"
            "=================  =============\n|enable_mode|      not supported\n"
            "=================  =============\n\n"
            ".. |enable_mode| replace:: Enable Mode |br| (Privilege Escalation)\n"
        ),
        "docs/engine.rst": (
            ".. include:: _topic.rst\n\n.. _engine:\n\n"
            "Establishing Connectivity - the Engine\n"
            "======================================\n\nThe engine holds a pool of connections.\n"
        ),
        "docs/_topic.rst": ".. topic:: Tutorial\n\n   This page is part of the tutorial.\n",
        "docs/old_notes.rst": "Old notes\n=========\n\nNo longer true.\n",
        "docs/changelog/unreleased_2/4321.rst": ":tags: bug\n\nA fix not released yet.\n",
        # sqlalchemy's orm/queryguide/_end_doctest.rst: the site makes an empty page of it
        "docs/_end_doctest.rst": ":orphan:\n\n..  Setup code, not for display\n\n"
        "    >>> session.close()\n",
    }


def test_a_project_read_as_its_conf_py_says(tmp_path: Path) -> None:
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", _project()), out, now=NOW, workers=1)
    assert result.errors == 0 and result.failed == [], result.failed  # no page fails
    pkg = Package(out)
    pkg.load()
    titles = {pkg.documents[p].title: p for p in pkg.documents}
    # exclude_patterns: the pages Sphinx leaves out are left out, and said so
    assert "Old notes" not in titles and not [p for p in pkg.documents if "4321" in p]
    assert [n for n in result.notes if "exclude_patterns" in n and "2 files" in n]
    # a title under an include is its first section's heading, not the file's name
    assert "Establishing Connectivity - the Engine" in titles
    assert "Demo 2.5 documentation" in titles  # Sphinx's |version|, as conf.py sets it
    assert "Platform options & more" in titles  # not "&amp;", as docutils HTML writes it
    platform = (out / titles["Platform options & more"]).read_text("utf-8")
    assert "Enable Mode (Privilege Escalation)" in platform  # |br| undefined: nothing
    changes = (out / titles["Changelog"]).read_text("utf-8")
    assert "[#1234](https://github.com/demo-org/demo/issues/1234)" in changes
    assert "[@alice](https://github.com/alice)" in changes
    assert "[#1240](https://github.com/demo-org/demo/pull/1240)" in changes
    usecases = (out / titles["Advanced use cases"]).read_text("utf-8")
    assert "Wrap a C library with Demo Cloud." in usecases  # rst_epilog's substitution
    manual = (out / titles["Manual"]).read_text("utf-8")
    assert "is shallow copied when" in manual and "library/copy" not in manual
    assert "[usecases](advanced/usecases.md)" in manual
    root = (out / "index.md").read_text("utf-8")
    assert "advanced/usecases.rst" not in root and ".rst.rst" not in root
    broken = [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == []
    assert [n for n in result.notes if "shallow copied <library/copy>" in n]
    # a page showing nothing is no failure and no document, and said so
    assert [n for n in result.notes if n.startswith("docs/_end_doctest.rst: its reStruc")]
    assert not [p for p in pkg.documents if "doctest" in p]


def test_a_page_the_toctree_lists_is_no_translation_by_its_name(tmp_path: Path) -> None:
    """numpy's ``user/basics.io.rst``, "I/O with NumPy", listed by ``basics.rst``'s
    toctree, was left out as a translation into Ido (``.io``) of ``basics.rst``, and the
    toctree's link to it broken."""
    files = {
        "doc/conf.py": 'project = "Demo"\n',
        "doc/index.rst": "Demo\n====\n\n.. toctree::\n\n   basics\n",
        "doc/basics.rst": "Basics\n======\n\n.. toctree::\n\n   basics.io\n   basics.types\n",
        "doc/basics.io.rst": "I/O with Demo\n=============\n\nRead and write arrays.\n",
        "doc/basics.types.rst": "Data types\n==========\n\nDemo supports many types.\n",
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    pkg = Package(out)
    pkg.load()
    assert "I/O with Demo" in {d.title for d in pkg.documents.values()}
    assert not [n for n in result.notes if "named by their language" in n]
    assert [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"] == []


def test_a_page_another_includes_is_still_a_page_when_the_toctree_lists_it(
    tmp_path: Path,
) -> None:
    """sqlalchemy's ``changelog_20.rst`` includes ``changelog_14.rst`` (and the older
    ones); the toctree lists each. Every one but the newest was shipped as a raw ``.rst``
    asset, 9 of its 16 changelog pages missing; then each page held all the older ones."""
    files = {
        "doc/conf.py": 'project = "Demo"\n',
        "doc/index.rst": "Demo\n====\n\n.. toctree::\n\n   changelog_2\n   changelog_1\n",
        "doc/changelog_1.rst": "1.0 Changelog\n=============\n\nFixed the 1.0 loader.\n",
        "doc/changelog_2.rst": (
            "2.0 Changelog\n=============\n\nFixed the 2.0 parser.\n\n"
            ".. include:: changelog_1.rst\n   :start-line: 3\n"
        ),
        "doc/_snippet.rst": "A snippet no toctree lists.\n",
        "doc/usage.rst": "Usage\n=====\n\n.. include:: _snippet.rst\n",
    }
    out = tmp_path / "kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    pkg = Package(out)
    pkg.load()
    titles = {d.title: p for p, d in pkg.documents.items()}
    assert "1.0 Changelog" in titles and "2.0 Changelog" in titles
    # linked where it is included, not copied: each of sqlalchemy's changelogs included
    # the one before, 5 MB a page
    newer = (out / titles["2.0 Changelog"]).read_text("utf-8")
    assert "See [1.0 Changelog](changelog-1.md)." in newer and "1.0 loader" not in newer
    assert not [p for p in pkg.documents if "snippet" in p]  # a snippet is no page
    assert "A snippet no toctree lists." in (out / titles["Usage"]).read_text("utf-8")


def test_an_included_page_shown_as_code_or_excluded_is_shown_not_linked(tmp_path: Path) -> None:
    """PEP 12 shows its template (``.. include:: pep-0012/pep-NNNN.rst`` with ``:code:
    rst``), which ``conf.py``'s ``exclude_patterns`` leaves out of the site though the
    toctree's glob names it: the page read "See [Abstract](pep-0012/pep-NNNN.rst).", a
    link to no page, and the template was gone."""
    files = {
        "doc/conf.py": 'project = "Demo"\nexclude_patterns = ["template/*"]\n',
        "doc/index.rst": (
            "Demo\n====\n\n.. toctree::\n   :glob:\n\n   *\n   template/*\n   changelog_1\n"
        ),
        "doc/template/page.rst": "Abstract\n========\n\n[A short summary.]\n",
        "doc/guide.rst": (
            "Guide\n=====\n\nStart from the template.\n\n"
            ".. include:: template/page.rst\n   :code: rst\n\n"
            ".. include:: changelog_1.rst\n   :literal:\n"
        ),
        "doc/changelog_1.rst": "1.0 Changelog\n=============\n\nFixed the 1.0 loader.\n",
    }
    out = tmp_path / "kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    pkg = Package(out)
    pkg.load()
    titles = {d.title: p for p, d in pkg.documents.items()}
    assert "Abstract" not in titles  # excluded: no page of the site
    guide = (out / titles["Guide"]).read_text("utf-8")
    assert "```rst\nAbstract\n========\n\n[A short summary.]\n```" in guide
    assert "](template/page" not in guide
    assert "Fixed the 1.0 loader." in guide  # :literal: shows a page of its own as text
    assert "1.0 Changelog" in titles  # and it stays a page


def test_version_is_sphinxs_own_even_when_conf_py_computes_it(tmp_path: Path) -> None:
    """scrapy's ``conf.py`` reads its version from its package: its home page was
    titled "Scrapy |version| documentation" (and so was the package)."""
    files = {
        "docs/conf.py": "import demo\nversion = demo.__version__\nrelease = demo.VERSION\n",
        "docs/index.rst": (
            "Demo |version| documentation\n============================\n\n"
            "Demo |release| crawls the web.\n"
        ),
    }
    out = tmp_path / "kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    pkg = Package(out)
    pkg.load()
    assert {d.title for d in pkg.documents.values()} == {"Demo documentation"}
    assert "|version|" not in (out / "SKILL.md").read_text("utf-8")


def test_a_directive_with_no_text_of_its_own_is_a_note(tmp_path: Path) -> None:
    """pip's ``.. pip-general-options::`` is drawn by pip's own Sphinx extension, from
    its code: the page showed nothing there, and nothing said so."""
    files = {
        "docs/conf.py": 'project = "Demo"\nextensions = ["pip_sphinxext"]\n',
        "docs/index.rst": (
            "Options\n=======\n\nThe options every command takes:\n\n"
            ".. pip-general-options::\n\n.. index:: options\n"
        ),
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    notes = "\n".join(result.notes)
    assert (
        "docs/index.rst: line 6: .. pip-general-options:: is not shown: it has no text of its own"
        in notes
    )
    assert ".. index::" not in notes  # a directive that shows nothing on the site either
