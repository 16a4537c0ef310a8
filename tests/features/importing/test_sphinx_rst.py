"""A Sphinx site written in reStructuredText (pallets/flask's docs): its pages are read
as the site shows them, and its toctrees are its tree. Before, every ``.rst`` page was
copied as raw text (``.. code-block:: python``, ``:class:`~flask.Flask```), the root
was alphabetical, and nothing said so."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.convert import Limits, convert_here
from kas_tui.features.importing.toc import find_toc
from tests.helpers.build_sources import built_clean, write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)

QUICKSTART = """\
Quickstart
==========

Eager to get started? Follow :doc:`installation` to set up a project, then
create an instance of the :class:`~flask.Flask` class.

.. code-block:: python

    app = Flask(__name__)

.. versionadded:: 2.0
    The ``--app`` option.

.. autofunction:: flask.url_for

.. include:: ../CHANGES.rst

See :ref:`the tutorial <tutorial>` and :issue:`5001` for more.
"""

INDEX = """\
Welcome to Flask
================

Flask is a lightweight WSGI web application framework.

User's Guide
------------

.. toctree::
   :maxdepth: 2

   installation
   quickstart
   tutorial/index
   templating
   testing

API Reference
-------------

.. toctree::

   api
"""

TUTORIAL = """\
Tutorial
========

This tutorial walks you through creating a blog application called Flaskr.

.. toctree::
    :caption: Contents:
    :maxdepth: 1

    layout
    factory
"""


def _page(title: str, text: str) -> str:
    return f"{title}\n{'=' * len(title)}\n\n{text}\n"


def _site() -> dict[str, str | bytes]:
    return {
        "docs/conf.py": "project = 'Flask'\nmaster_doc = 'index'\n",
        "docs/index.rst": INDEX,
        "docs/quickstart.rst": QUICKSTART,
        "docs/installation.rst": _page("Installation", "We recommend the latest Python."),
        "docs/api.rst": _page("API", "This part covers all the interfaces of Flask."),
        "docs/templating.rst": _page("Templates", "Flask leverages Jinja as its engine."),
        "docs/testing.rst": _page("Testing", "Flask provides utilities for testing."),
        "docs/tutorial/index.rst": TUTORIAL,
        "docs/tutorial/layout.rst": _page("Project Layout", "Create a project directory."),
        "docs/tutorial/factory.rst": _page("Application Setup", "A Flask app is an object."),
    }


def test_a_page_reads_as_its_site_shows_it(tmp_path: Path, capsys) -> None:
    path = tmp_path / "quickstart.rst"
    path.write_text(QUICKSTART, "utf-8")
    converted = convert_here(path, Limits())
    text = converted.markdown
    assert converted.kind == "markdown" and text.startswith("# Quickstart\n")
    assert "Follow [installation](installation.rst) to set up" in text  # rewritten later
    assert "instance of the `Flask` class" in text
    assert "```python\napp = Flask(__name__)\n```" in text  # its language kept
    assert "New in version 2.0: The `--app` option." in text
    assert "`flask.url_for`" in text and "Includes ../CHANGES.rst." in text
    assert "See the tutorial and `5001` for more." in text
    for raw in (".. code-block", ":class:", ".. versionadded", "System Message", ":issue:"):
        assert raw not in text, raw
    assert capsys.readouterr().err == ""  # docutils says nothing on the terminal


def test_the_toctrees_are_the_tree(tmp_path: Path) -> None:
    source = write_sources(tmp_path / "src", _site())
    toc = find_toc(
        [p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file()],
        lambda rel: (source / rel).read_text("utf-8"),
    )
    assert toc is not None and toc.kind == "sphinx"
    # the root document's sections name its toctrees; "Contents:" names nothing
    assert toc.sections()["docs/quickstart.rst"] == ["User's Guide"]
    assert toc.sections()["docs/api.rst"] == ["API Reference"]
    assert toc.sections()["docs/tutorial/layout.rst"] == ["User's Guide"]
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0 and result.failed == []
    root = parse_index((out / "index.md").read_text("utf-8"))
    headings = [s.title for s in root.sections]
    assert headings.index("User's Guide") < headings.index("API Reference")
    tutorial = parse_index((out / "tutorial/index.md").read_text("utf-8"))
    assert tutorial.sections[0].title == "Tutorial"  # not "Contents:"
    pkg = Package(out)
    pkg.load()
    titles = {pkg.documents[p].title for p in pkg.documents}
    assert {"Quickstart", "Installation", "Project Layout", "Application Setup"} <= titles
    broken = [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == []  # :doc:`installation` leads to the installation page


def test_a_repository_whose_sphinx_source_is_docs_source(tmp_path: Path) -> None:
    # jupyterhub: docs/source/conf.py (sphinx-quickstart's separate source folder), MyST
    # pages; built whole, its package-lock, pyproject and MANIFEST.in were documents
    files = {
        "docs/source/conf.py": 'project = "JupyterHub"\nroot_doc = "index"\n',
        "docs/source/index.md": "# JupyterHub\n\nServe notebooks to many users.\n\n"
        "```{toctree}\n:maxdepth: 1\n\ntutorial/index\n```\n",
        "docs/source/tutorial/index.md": "# Tutorials\n\nStart here.\n",
        "docs/Makefile": "html:\n\tsphinx-build source build\n",
        "pyproject.toml": "[project]\nname = 'jupyterhub'\n",
        "MANIFEST.in": "include README.md\n",
        "jupyterhub/app.py": "print('hub')\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    # tutorial/index.md alone in its folder is a page named as the folder
    assert sorted(pkg.documents) == ["index-page.md", "tutorial.md"]
    assert (tmp_path / "kb" / "index.md").read_text("utf-8").splitlines()[3] == "# JupyterHub"


def test_context_directives_show_nothing_and_build_files_are_left_out(tmp_path: Path) -> None:
    """pallets/flask's API pages open with ``.. currentmodule:: flask``: shown as
    "Currentmodule: flask" above the title, the page was titled by its file ("Cli");
    its ``Makefile`` was "a file the site serves as it is" and requests'
    ``requirements.txt`` a document ("Pinning to avoid unexpected breakages.")."""
    files = {
        "conf.py": "project = 'Flask'\nextensions = ['sphinx.ext.autodoc']\n",
        "index.rst": ".. rst-class:: hide-header\n\nWelcome to Flask\n================\n\n"
        "Flask is a lightweight WSGI web application framework.\n\n.. toctree::\n\n   cli\n",
        "cli.rst": (
            ".. currentmodule:: flask\n\nCommand Line Interface\n======================\n\n"
            "Installing Flask installs the ``flask`` script, a command line interface.\n"
        ),
        "Makefile": "html:\n\tsphinx-build -b html . _build\n",
        "requirements.txt": "# Pinning to avoid unexpected breakages.\nsphinx==7.2\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    pkg = Package(tmp_path / "kb")
    pkg.load()
    cli = next(d for p, d in pkg.documents.items() if p.endswith("cli.md"))
    assert cli.meta["title"] == "Command Line Interface"
    assert "Currentmodule" not in (tmp_path / "kb" / cli.path).read_text("utf-8")
    # the theme's class over the home page's title is no text: the title names the page
    home = pkg.documents["index-page.md"]
    assert home.meta["title"] == "Welcome to Flask", home.meta
    assert "hide-header" not in (tmp_path / "kb" / "index-page.md").read_text("utf-8")
    assert not any("requirements" in p or "makefile" in p.lower() for p in pkg.documents)
    assert not list((tmp_path / "kb").rglob("Makefile*"))
    assert (
        "2 build and tool files (Makefile, ...) configure the repository, no knowledge; left out"
        in result.notes
    )


def test_the_theme_templates_conf_py_names_are_no_pages(tmp_path: Path) -> None:
    """psf/requests keeps its sidebar template in ``docs/_templates/`` (``templates_path
    = ["_templates"]``): built as a page, "Templates / Sidebar", with a broken link to
    ``{{ pathto(root_doc) }}``."""
    files = {
        "docs/conf.py": "project = 'Requests'\ntemplates_path = ['_templates']\n"
        'html_theme_path = ["_themes"]\n',
        "docs/index.rst": "Requests\n========\n\nHTTP for Humans.\n\n.. toctree::\n\n   user\n",
        "docs/user.rst": "Quickstart\n==========\n\nMake a request with ``requests.get``.\n",
        "docs/_templates/sidebar.html": '<h3>Useful links</h3>\n<p><a href="{{ pathto(root_doc) }}">'
        "Home</a></p>\n",
        "docs/_themes/kr/layout.html": "{% extends 'basic/layout.html' %}\n",
    }
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not any("sidebar" in p or "layout" in p for p in pkg.documents), pkg.documents
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == []


def test_a_sphinx_project_one_folder_inside_the_docs_folder_is_found(tmp_path: Path) -> None:
    """pytest keeps its docs in ``doc/en/`` (``conf.py`` there): the whole repository
    was built (52 changelog fragments, test files, ``codecov.yml``), titled "Pytest
    dev+pytest", its root one "Doc" bundle instead of the toctrees' sections."""
    files = {
        "changelog/10128.bugfix.rst": "Fixed a crash.\n",
        "testing/test_x.py": "def test_x():\n    assert True\n",
        "doc/en/conf.py": 'project = "pytest"\n',
        "doc/en/index.rst": "pytest\n======\n\n.. toctree::\n\n   getting-started\n",
        "doc/en/getting-started.rst": "Get Started\n===========\n\nInstall pytest with pip.\n",
    }
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert sorted(pkg.documents) == ["getting-started.md", "index-page.md"]
    assert (tmp_path / "kb" / "index.md").read_text("utf-8").splitlines()[3] == "# pytest"


def test_a_toctree_shown_as_an_example_is_no_toctree(tmp_path: Path, capfd) -> None:
    """python/devguide's markup guide and Sphinx's own docs show a toctree as an example
    in a literal block ("Consider this example::") and in a code-block: each of its
    entries (``intro``, ``strings``, ``numeric``...) was reported as a missing page.
    And a page of a title and a toctree only (its index) gave MarkItDown no HTML, which
    wrote "Some characters could not be decoded..." to the terminal."""
    files: dict[str, str | bytes] = {
        "conf.py": 'project = "Guide"\n',
        "index.rst": "Guide\n=====\n\n.. toctree::\n   :maxdepth: 1\n\n   markup\n   setup\n",
        "setup.rst": "Setup\n=====\n\nInstall the tools the guide needs, then build it.\n",
        "markup.rst": (
            "Markup\n======\n\nThe toctree directive lists pages. Consider this example::\n\n"
            "   .. toctree::\n      :maxdepth: 2\n\n      intro\n      strings\n\n"
            "Or, highlighted:\n\n.. code-block:: rst\n\n   .. toctree::\n\n      numeric\n\n"
            "And ``::`` alone:\n\n::\n\n   .. toctree::\n\n      datatypes\n\n"
            "The real one follows.\n\n.. toctree::\n\n   setup\n"
        ),
    }
    source = write_sources(tmp_path / "src", files)
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0 and result.failed == []
    said = "\n".join(result.notes)
    for example in ("intro", "strings", "numeric", "datatypes"):
        assert f"the toctree names {example}" not in said, said
    toc = find_toc(list(files), lambda rel: str(files[rel]))
    assert toc is not None and set(toc.order()) == {"index.rst", "markup.rst", "setup.rst"}
    assert "REPLACEMENT CHARACTER" not in capfd.readouterr().err


def test_a_folder_the_toc_opens_with_its_landing_page_is_named_by_that_page(
    tmp_path: Path,
) -> None:
    """sphinx-doc/sphinx: ``extdev/index.rst`` ("Sphinx API") lists ``extdev/*`` in its
    toctree, and the site's navigation shows the folder by that title; the bundle was
    "Extdev" (``man/`` "Man", not "Command-line tools")."""
    files = {
        "doc/conf.py": "project = 'Sphinx'\n",
        "doc/index.rst": "Sphinx\n======\n\nThe docs.\n\n.. toctree::\n   :caption: Reference\n\n"
        "   extdev/index\n   man/index\n",
        "doc/extdev/index.rst": "Sphinx API\n==========\n\nHow to extend Sphinx with your own "
        "code.\n\n.. toctree::\n\n   appapi\n   events\n",
        "doc/extdev/appapi.rst": "Application API\n===============\n\nEach extension gets the "
        "application object.\n",
        "doc/extdev/events.rst": "Event callbacks\n===============\n\nExtensions connect to "
        "the core events.\n",
        "doc/man/index.rst": "Command-line tools\n==================\n\nThe programs Sphinx "
        "installs.\n\n.. toctree::\n\n   sphinx-build\n   sphinx-quickstart\n",
        "doc/man/sphinx-quickstart.rst": "sphinx-quickstart\n=================\n\nStart a "
        "project by answering questions.\n",
        "doc/man/sphinx-build.rst": "sphinx-build\n============\n\nBuild the documentation "
        "from its sources.\n",
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0 and result.failed == []
    root = parse_index((out / "index.md").read_text("utf-8"))
    titles = {e.title: e.target for e in root.entries}
    assert titles.get("Sphinx API") == "extdev/", titles
    assert titles.get("Command-line tools") == "man/", titles
    # the root lists the bundles' pages too: each landing page says it opens its bundle
    assert titles.get("Sphinx API (main page)") == "extdev/index-page.md", titles
    assert "Extdev" not in titles and "Man" not in titles


GLOSSARY = """\
.. _glossary:

Glossary
========

.. glossary::
   :sorted:

   builder
      A class that takes parsed documents and performs an action on them.

      See :doc:`/installation` for the ones it ships.

   configuration directory
   confdir
      The directory containing ``conf.py``; by default the :term:`source directory`.

   source directory
      The directory which, including its subdirectories, contains all source files.
"""


def test_a_glossarys_terms_are_what_term_roles_link_to(tmp_path: Path) -> None:
    """sphinx-doc/sphinx's ``doc/glossary.rst`` defines the terms 50 ``:term:`` roles
    over its pages name; none was known, so each was its text and the build's note said
    it named "no label, page or term of the source" (84 such in all)."""
    files = {
        **_site(),
        "docs/glossary.rst": GLOSSARY,
        "docs/api.rst": _page(
            "API", "Run it from the :term:`Configuration Directory`, or the :term:`confdir`."
        ),
    }
    files["docs/index.rst"] = INDEX.replace("   api\n", "   api\n   glossary\n")
    result = build(write_sources(tmp_path / "src", files), tmp_path / "pkg", now=NOW)
    api = next((tmp_path / "pkg").rglob("api.md")).read_text("utf-8")
    assert "[Configuration Directory](" in api and "glossary.md)" in api
    assert "[confdir](" in api
    glossary = next((tmp_path / "pkg").rglob("glossary.md")).read_text("utf-8")
    assert "[source directory](glossary.md)" in glossary
    # a definition's second paragraph is no code block (four spaces in): its link is
    # rewritten and checked as every other
    assert "See [Installation](installation.md) for the ones it ships." in glossary
    assert "* **builder**" in glossary and "\n    " not in glossary.split("---", 2)[2]
    assert not [n for n in result.notes if "name no label" in n], result.notes


def test_pages_the_toctree_lists_are_pages_though_named_as_repository_files(
    tmp_path: Path,
) -> None:
    """sphinx-doc/sphinx lists ``support`` ("Get support") and ``authors`` in its root
    toctree; in ``doc/``, the folder around everything, their names are a repository's
    SUPPORT and AUTHORS files: both were copied as files, named by no note."""
    files = {
        **_site(),
        "docs/support.rst": _page("Get support", "Ask on the forum or open an issue."),
        "docs/authors.rst": _page("Flask authors", "The maintainers and contributors."),
    }
    files["docs/index.rst"] = INDEX.replace("   api\n", "   api\n   support\n   authors\n")
    build(write_sources(tmp_path / "src", files), tmp_path / "pkg", now=NOW)
    index = (tmp_path / "pkg" / "index.md").read_text("utf-8")
    assert "[Get support](support.md)" in index and "[Flask authors](authors.md)" in index
    assert not list((tmp_path / "pkg").rglob("support.rst"))


def test_definition_and_field_lists_are_items_opening_with_their_term(tmp_path: Path) -> None:
    """Written ``term`` over ``:   definition``, a definition's second paragraph was an
    indented code block in CommonMark; a field list the same."""
    path = tmp_path / "lists.rst"
    path.write_text(
        "Lists\n=====\n\nconfdir : path\n   The directory.\n\n   Its second paragraph.\n\n"
        ":Version: 2.0\n:Author: The team\n",
        "utf-8",
    )
    text = convert_here(path, Limits()).markdown
    assert "* **confdir** (path)\n\n  The directory.\n\n  Its second paragraph." in text
    assert "* **Version:**\n\n  2.0" in text and "* **Author:**\n\n  The team" in text
    assert "\n    " not in text and "\n:   " not in text


def test_a_visible_toctree_is_the_list_of_pages_the_site_shows(tmp_path: Path) -> None:
    """pypa/packaging.python.org's ``guides/section-install.rst`` is a title and a
    toctree, which Sphinx shows as a list of links to the pages it names. Read as no
    text, the page was described "Document whose text opens with “Installation”". A
    ``:hidden:`` toctree shows nothing, a caption heads its list, an entry may title
    its page (``Title <page>``) or name an address."""
    files = {
        "conf.py": 'project = "Packaging"\nroot_doc = "index"\n',
        "index.rst": (
            "Packaging\n=========\n\nWelcome to the guide.\n\n"
            ".. toctree::\n   :hidden:\n\n   guides/section-install\n"
        ),
        "guides/section-install.rst": (
            "============\nInstallation\n============\n\n"
            ".. toctree::\n   :titlesonly:\n   :caption: Installing\n\n"
            "   installing-using-pip\n   Virtual environments <installing-using-virtualenv>\n"
            "   installing-tools\n   PyPI <https://pypi.org>\n"
        ),
        "guides/installing-using-pip.rst": "Install packages with pip\n=========================\n\nUse pip.\n",
        "guides/installing-using-virtualenv.rst": "Using virtualenv\n================\n\nUse it.\n",
        "guides/installing-tools.rst": "Installing command line tools\n=============================\n\nUse pipx.\n",
    }
    result, pkg = built_clean(tmp_path, files)
    [section] = [d for d, doc in pkg.documents.items() if doc.meta.get("title") == "Installation"]
    text = (tmp_path / "kb" / section).read_text("utf-8")
    assert "**Installing**" in text
    for title in (
        "Install packages with pip",
        "Virtual environments",
        "Installing command line tools",
    ):
        assert f"[{title}](" in text, text
    assert "[PyPI](https://pypi.org)" in text
    assert "Install packages with pip" in pkg.documents[section].meta["description"]
    [home] = [d for d, doc in pkg.documents.items() if doc.meta.get("title") == "Packaging"]
    assert "section-install" not in (tmp_path / "kb" / home).read_text("utf-8")
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_a_page_in_the_pep_format_is_titled_by_its_headers(tmp_path: Path) -> None:
    """python/peps: each page opens with RFC 2822 headers (docutils' PEP format); read as
    a paragraph, all 753 pages were titled by their file names ("Pep 0008") and grouped
    into number ranges. The headers are a list in the page; its status stays readable."""
    files = {
        "peps/pep-0008.rst": (
            "PEP: 8\nTitle: Style Guide for Python Code\nAuthor: Guido van Rossum,\n"
            "        Barry Warsaw\nStatus: Active\nType: Process\nPost-History:\n\n\n"
            "Introduction\n============\n\nThis document gives coding conventions for the "
            "Python code comprising the standard library.\n\n"
            "Code Lay-out\n============\n\nUse 4 spaces per indentation level.\n"
        ),
        "peps/notes.rst": "Note: not headers\nSee: the title below\n\nNotes\n=====\n\nText.\n",
    }
    result, pkg = built_clean(tmp_path, files)
    pep = next(d for p, d in pkg.documents.items() if p.endswith("pep-0008.md"))
    assert pep.meta["title"] == "PEP 8 – Style Guide for Python Code"
    assert pep.meta["description"].startswith("Gives coding conventions"), pep.meta
    text = (tmp_path / "kb" / pep.path).read_text("utf-8")
    assert "* **Status:**\n\n  Active" in text, text
    assert "Barry Warsaw" in text and "## Introduction" in text
    notes = next(d for p, d in pkg.documents.items() if p.endswith("notes.md"))
    assert notes.meta["title"] == "Notes"  # lines shaped like headers without a Title: text


def test_header_shaped_lines_with_trailing_spaces_never_hang(tmp_path: Path) -> None:
    """Twenty-five ``Key: value`` lines ending in spaces, with no blank line after them,
    made the PEP-header pattern try every way to split each line's trailing spaces: the
    conversion never ended. Run in a process of its own, so a hang fails, not stalls."""
    import subprocess
    import sys

    hostile = "".join(f"Key{n}: value{' ' * 12}\n" for n in range(25)) + "no blank line\n"
    page = tmp_path / "hostile.rst"
    page.write_text(hostile, encoding="utf-8")
    code = (
        "import sys; from kas_tui.features.importing.rst import to_html; "
        "print(to_html(open(sys.argv[1]).read(), sys.argv[1])[0] or 'untitled')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(page)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "untitled"
