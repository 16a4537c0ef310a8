"""A Sphinx page's ``.. include::`` and ``.. literalinclude::`` show the file they name,
as the site does. Before, the page said "Includes ../CHANGES.rst." and nothing more:
pallets/flask's changelog page was that one line, its licence page empty of the
licence; and a directive's options (``:lines: 2-3``) were read as words of its
argument."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from kas_tui.features.importing.build import build
from kas_tui.features.importing.convert import Limits, convert_here
from kas_tui.features.importing.rst_includes import include_targets, lines_picked
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)

INSTALL = """\
Installation
============

Install the package with pip.

.. include:: /_snippets/python-version.rst

.. literalinclude:: ../examples/app.py
   :language: python
   :lines: 2-3

.. include:: missing.rst
"""


def _site() -> dict[str, str | bytes]:
    return {
        "docs/conf.py": 'project = "Demo"\n',
        "docs/index.rst": "Demo\n====\n\n.. toctree::\n\n   installation\n   changes\n",
        "docs/installation.rst": INSTALL,
        "docs/_snippets/python-version.rst": ".. note::\n\n   Demo needs Python 3.11 or newer.\n",
        "docs/changes.rst": "Changes\n=======\n\n.. include:: ../CHANGES.rst\n"
        "   :start-after: .. changes-start\n",
        "CHANGES.rst": "Demo changelog\n--------------\n\n.. changes-start\n\n"
        "Version 2.0\n~~~~~~~~~~~\n\n- Builds twice as fast.\n",
        "examples/app.py": "import demo\napp = demo.App()\napp.run()\nprint('done')\n",
    }


def _page(kb: Path, name: str) -> str:
    return next(kb.rglob(name)).read_text("utf-8")


def test_included_files_are_shown_where_the_directive_stands(tmp_path: Path) -> None:
    result = build(write_sources(tmp_path / "src", _site()), tmp_path / "kb", now=NOW)
    kb = tmp_path / "kb"
    install = _page(kb, "installation.md")
    # /path from the folder of conf.py; the snippet's own directive read as the page's
    assert "Demo needs Python 3.11 or newer." in install
    assert "```python\napp = demo.App()\napp.run()\n```" in install  # :lines: 2-3
    assert ":lines:" not in install and "Includes ../examples" not in install
    changes = _page(kb, "changes.md")
    assert "## Version 2.0" in changes and "Builds twice as fast." in changes
    assert "Demo changelog" not in changes  # :start-after: the line holding its text
    # a file a page includes is a snippet, never a page of its own
    built = {p.relative_to(kb).as_posix() for p in kb.rglob("*.md")}
    assert not any("python-version" in p for p in built)
    # what is not shown is said in the page and by the build, by line
    assert "Includes missing.rst." in install
    assert (
        "docs/installation.rst: line 12: .. include:: missing.rst is not shown: "
        "the source has no such file"
    ) in result.notes


def test_a_changed_snippet_builds_the_pages_showing_it_again(tmp_path: Path) -> None:
    source = write_sources(tmp_path / "src", _site())
    build(source, tmp_path / "kb", now=NOW)
    (source / "docs/_snippets/python-version.rst").write_text(
        ".. note::\n\n   Demo needs Python 3.12 or newer.\n", "utf-8"
    )
    again = build(source, tmp_path / "kb", now=NOW)
    assert [Path(p).name for p in again.updated] == ["installation.md"]
    assert "Python 3.12 or newer" in _page(tmp_path / "kb", "installation.md")


def test_nothing_outside_the_source_and_no_pipe_is_read(tmp_path: Path) -> None:
    """A page may not pull a file from outside the source into the package, by a path
    (``../../secret``) or a symbolic link; a named pipe is never waited on; a page
    including itself stops."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET\n", "utf-8")
    files = _site()
    files["docs/installation.rst"] = (
        "Installation\n============\n\nSee below.\n\n"
        ".. literalinclude:: ../../secret.txt\n\n"
        ".. include:: linked.rst\n\n"
        ".. include:: pipe.rst\n\n"
        ".. include:: installation.rst\n"
    )
    source = write_sources(tmp_path / "src", files)
    os.symlink(secret, source / "docs/linked.rst")
    os.mkfifo(source / "docs/pipe.rst")
    result = build(source, tmp_path / "kb", now=NOW)
    install = _page(tmp_path / "kb", "installation.md")
    assert "TOP SECRET" not in install
    for written in ("../../secret.txt", "linked.rst", "pipe.rst", "installation.rst"):
        assert f"Includes {written}." in install
    said = "\n".join(n for n in result.notes if "installation.rst" in n)
    assert "line 6: .. literalinclude:: ../../secret.txt is not shown" in said
    assert "line 8: .. include:: linked.rst is not shown: it leads out of the source" in said
    assert "line 10: .. include:: pipe.rst is not shown" in said
    assert "line 12: .. include:: installation.rst is not shown" in said


def test_a_single_page_imported_alone_reads_no_file(tmp_path: Path) -> None:
    (tmp_path / "note.rst").write_text("Shared note.\n", "utf-8")
    page = tmp_path / "page.rst"
    page.write_text("Page\n====\n\n.. include:: note.rst\n", "utf-8")
    converted = convert_here(page, Limits())
    assert "Includes note.rst." in converted.markdown
    assert "Shared note." not in converted.markdown


def test_an_included_file_including_itself_stops_and_says_where(tmp_path: Path) -> None:
    (tmp_path / "a.rst").write_text("From a.\n\n.. include:: b.rst\n", "utf-8")
    (tmp_path / "b.rst").write_text("From b.\n\n.. include:: a.rst\n", "utf-8")
    page = tmp_path / "page.rst"
    page.write_text("Page\n====\n\n.. include:: a.rst\n", "utf-8")
    converted = convert_here(page, Limits(include_root=str(tmp_path)))
    assert converted.markdown.count("From a.") == 1 and "From b." in converted.markdown
    assert converted.notes == [
        "line 3 of b.rst: .. include:: a.rst is not shown: it includes itself (a loop)"
    ]


@pytest.mark.parametrize(
    ("options", "picked"),
    [
        ({"lines": "2-3"}, "two\nthree"),
        ({"lines": "1,4-"}, "one\nfour\nfive"),
        ({"start-line": "3"}, "four\nfive"),
        ({"start-after": "two"}, "three\nfour\nfive"),
        ({"start-at": "thr"}, "three\nfour\nfive"),
        ({"end-before": "four"}, "one\ntwo\nthree"),
        ({"end-at": "fou"}, "one\ntwo\nthree\nfour"),
        ({"start-after": "one", "end-before": "four"}, "two\nthree"),
        ({"start-after": "nowhere"}, None),
    ],
)
def test_options_pick_lines_as_sphinx_does(options: dict[str, str], picked: str | None) -> None:
    assert lines_picked("one\ntwo\nthree\nfour\nfive", options) == picked


def test_the_build_finds_what_a_page_includes_without_converting_it() -> None:
    text = "T\n=\n\n.. include:: /_s/a.rst\n\n  .. literalinclude:: ../x.py\n\n.. include:: <isonum.txt>\n"
    named = include_targets(text, "docs/guide/page.rst", lambda r: r == "docs/conf.py")
    assert [(n.line, n.target) for n in named] == [
        (4, "docs/_s/a.rst"),
        (6, "docs/x.py"),
        (8, None),  # docutils' own substitution set
    ]


def test_a_doc_link_shows_the_pages_title_as_sphinx_does(tmp_path: Path) -> None:
    """``:doc:`installation``` shows "Installation", the page's title, on the site; the
    package showed the name written ("installation", "/cli"). A page's new title builds
    the pages showing it again."""
    files = _site()
    files["docs/quickstart.rst"] = (
        "Quickstart\n==========\n\nFollow :doc:`installation` first, then read "
        ":doc:`the changelog <changes>` and :doc:`/guide/cli`.\n"
    )
    files["docs/guide/cli.rst"] = (
        "=======================\nCommand Line Interface\n=======================\n\nRun it.\n"
    )
    files["docs/index.rst"] += "   quickstart\n   guide/cli\n"
    source = write_sources(tmp_path / "src", files)
    build(source, tmp_path / "kb", now=NOW)
    page = _page(tmp_path / "kb", "quickstart.md")
    assert "Follow [Installation](installation.md) first" in page
    assert "[the changelog](changes.md)" in page  # titled: its own words
    assert "[Command Line Interface](guide/cli.md)" in page
    (source / "docs/installation.rst").write_text(
        INSTALL.replace("Installation\n============", "Installing Demo\n==============="), "utf-8"
    )
    again = build(source, tmp_path / "kb", now=NOW)
    assert "quickstart.md" in [Path(p).name for p in again.updated]
    assert "Follow [Installing Demo](installation.md)" in _page(tmp_path / "kb", "quickstart.md")


def test_site_rooted_paths_below_conf_py_name_the_folder_sphinx_builds(tmp_path: Path) -> None:
    """readthedocs.org keeps one ``docs/conf.py`` and builds ``docs/user/`` or
    ``docs/dev/`` (an environment variable chooses): ``.. include::
    /shared/business.rst`` in ``user/badges.rst`` is ``user/shared/business.rst``, and
    ``:doc:`/code-of-conduct``` in ``dev/contribute.rst`` is ``dev/code-of-conduct.rst``.
    Read from ``docs/``, 23 includes were not shown and 554 links were broken."""
    files = {
        "docs/conf.py": 'import os\nproject = os.environ.get("PROJECT", "user")\n',
        "docs/user/index.rst": "User docs\n=========\n\n.. toctree::\n\n   badges\n",
        "docs/user/badges.rst": "Badges\n======\n\n.. include:: /shared/business.rst\n",
        "docs/user/shared/business.rst": ".. note::\n\n   Only on Read the Docs for Business.\n",
        "docs/dev/index.rst": "Dev docs\n========\n\n.. toctree::\n\n   contribute\n",
        "docs/dev/contribute.rst": "Contributing\n============\n\nFollow our :doc:`/code-of-conduct`.\n",
        "docs/dev/code-of-conduct.rst": "Code of conduct\n===============\n\nBe kind.\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    kb = tmp_path / "kb"
    assert "Only on Read the Docs for Business." in _page(kb, "badges.md")
    assert not any("is not shown" in note for note in result.notes), result.notes
    contribute = _page(kb, "contribute.md")
    assert "Follow our [Code of conduct](code-of-conduct.md)." in contribute


def test_ref_roles_are_links_titled_as_the_site_shows_them(tmp_path: Path) -> None:
    """scrapy's pages cross-reference each other's sections with ``:ref:`` (1,139
    references): each was its label's words ("See topics-scheduler for"), no link;
    the site shows a link titled by the section ("See Scheduler for")."""
    files = _site()
    files["docs/index.rst"] += "   scheduler\n   settings\n"
    files["docs/scheduler.rst"] = (
        ".. _topics-scheduler:\n\nScheduler\n=========\n\nThe scheduler orders requests.\n\n"
        ".. _scheduler-priority:\n\nPriority queues\n---------------\n\nHigher first.\n"
    )
    files["docs/settings.rst"] = (
        "Settings\n========\n\nSee :ref:`topics-scheduler` for the class and "
        ":ref:`the queues <scheduler-priority>` for order; :ref:`tox:parallel_mode` is "
        "another project's.\n\nSCHEDULER\n    The class. See :ref:`topics-scheduler`.\n"
    )
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    page = _page(tmp_path / "kb", "settings.md")
    assert "See [Scheduler](scheduler.md) for the class" in page
    assert "[the queues](scheduler.md#priority-queues) for order" in page
    assert "tox:parallel_mode is" in page  # no target here: its words
    assert "{ref}" not in page and ":ref:" not in page  # in a definition too
    said = [n for n in result.notes if "names no label" in n]
    assert said == [
        "docs/settings.rst:4: :ref:`tox:parallel_mode` names no label, page or term of the "
        "source (Sphinx's genindex, an API object autodoc documents, another project's docs "
        "through intersphinx): shown as their text; a .. _label: line before the heading "
        "they mean defines one"
    ]


def test_a_page_may_show_a_part_of_itself(tmp_path: Path) -> None:
    """scrapy's settings page shows a part of itself again (``.. include:: settings.rst``
    with ``:start-after:`` and ``:end-before:``): refused as a loop, the part was lost."""
    page = tmp_path / "settings.rst"
    page.write_text(
        "Settings\n========\n\n.. queue-common-starts\n\nQueues are kept in memory.\n\n"
        ".. queue-common-ends\n\nOther queue\n-----------\n\n"
        ".. include:: settings.rst\n    :start-after: queue-common-starts\n"
        "    :end-before: queue-common-ends\n",
        "utf-8",
    )
    converted = convert_here(page, Limits(include_root=str(tmp_path)))
    assert converted.markdown.count("Queues are kept in memory.") == 2
    assert converted.notes == []


def test_an_image_of_any_format_is_the_one_the_source_has(tmp_path: Path) -> None:
    """pytest's fixtures reference shows ``.. image:: /example/fixtures/order.*``: Sphinx
    picks the format it has (an SVG); the package kept ``order.*``, 10 broken images."""
    files = _site()
    files["docs/installation.rst"] = (
        "Installation\n============\n\n.. image:: /example/order.*\n\n"
        ".. image:: pics/flow.*\n\nDone.\n"
    )
    files["docs/example/order.svg"] = '<svg xmlns="http://www.w3.org/2000/svg"/>\n'
    files["docs/example/order.pdf"] = b"%PDF-1.4\n"
    files["docs/pics/flow.png"] = b"\x89PNG\r\n\x1a\n"
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    from kas_tui.core.package import Package
    from kas_tui.features.check import check

    pkg = Package(tmp_path / "kb")
    pkg.load()
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == []
    page = _page(tmp_path / "kb", "installation.md")
    assert ".*)" not in page and "order.svg" in page and "flow.png" in page
