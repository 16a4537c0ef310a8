"""What a Sphinx project's ``conf.py`` says about how its pages are read, read as Sphinx
reads it: Django's ``source_suffix = {".txt": "restructuredtext"}`` (its 670 pages are
``.txt``). Before, every one of them was copied as raw text (``=====`` underlines,
``.. module::``, ``:setting:`DEBUG```), its ``contents.txt`` toctree was not the tree
and the package's root was alphabetical."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.convert import Limits, convert_here
from kas_tui.features.importing.convert_model import RstPages
from kas_tui.features.importing.sphinx_conf import rst_pages, rst_suffixes
from tests.features.importing.test_import import pdf_bytes
from tests.helpers.build_sources import drafted, write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.UTC)


def _page(title: str, text: str) -> str:
    bar = "=" * len(title)
    return f"{bar}\n{title}\n{bar}\n\n{text}\n"


def _django() -> dict[str, str | bytes]:
    return {
        "docs/conf.py": (
            "import sys\n\n# The suffix of source filenames.\n"
            'source_suffix = {".txt": "restructuredtext"}\n\nroot_doc = "contents"\n'
        ),
        "docs/contents.txt": _page(
            "Django documentation contents",
            ".. toctree::\n    :hidden:\n\n    index\n\n"
            ".. toctree::\n    :maxdepth: 3\n\n    intro/index\n    topics/index\n    glossary\n",
        ),
        "docs/index.txt": _page("Django documentation", "Everything you need to know."),
        "docs/glossary.txt": _page(
            "Glossary", ".. glossary::\n\n    field\n        An attribute on a model.\n"
        ),
        "docs/intro/index.txt": _page(
            "Getting started",
            "New to Django?\n\n.. toctree::\n   :maxdepth: 1\n\n   install\n   tutorial01\n",
        ),
        "docs/intro/install.txt": _page(
            "Quick install guide",
            "Before you can use Django, you'll need to get it installed. Read\n"
            ":doc:`the tutorial </intro/tutorial01>` next, or :doc:`/topics/settings`.\n",
        ),
        "docs/intro/tutorial01.txt": _page(
            "Writing your first Django app, part 1",
            "Let's learn by example. See :ref:`settings-debug` and the :term:`field`.\n\n"
            ".. code-block:: console\n\n    $ python -m django --version\n",
        ),
        "docs/topics/index.txt": _page(
            "Using Django", ".. toctree::\n   :maxdepth: 1\n\n   settings\n"
        ),
        "docs/topics/settings.txt": _page(
            "Django settings",
            ".. module:: django.conf.settings\n   :synopsis: Settings.\n\n"
            "A settings file is a Python module with module-level variables.\n\n"
            ".. _settings-debug:\n\nDebugging\n=========\n\nNever deploy with DEBUG on.\n",
        ),
    }


def test_source_suffix_is_read_as_sphinx_reads_it() -> None:
    assert rst_suffixes('source_suffix = {".txt": "restructuredtext"}\n') == (".txt",)
    assert rst_suffixes("source_suffix = '.txt'\n") == (".txt",)
    assert rst_suffixes("source_suffix = ['.rst', '.md', '.rest']\n") == (".rest",)  # MyST's .md
    assert (
        rst_suffixes('source_suffix = {\n  ".rst": "restructuredtext",\n  ".md": "markdown",\n}\n')
        == ()
    )
    assert rst_suffixes("source_suffix = SUFFIXES\n") == ()  # no literal: nothing is run
    assert rst_suffixes("# source_suffix = '.txt'\n") == ()
    files = ["docs/conf.py", "docs/index.txt", "notes.txt"]
    found = rst_pages(files, lambda rel: "source_suffix = '.txt'\n" if rel.endswith(".py") else "")
    assert found == RstPages((("docs", ".txt"),))
    assert found.holds("docs/ref/settings.txt") and found.holds("api/x.rst")
    assert not found.holds("notes.txt") and not found.holds("docsy/a.txt")
    assert found.suffixes("docs/intro/install.txt") == (".txt", ".rst")
    assert found.suffixes("notes.txt") == (".rst",)


def test_only_the_projects_own_files_are_read_as_its_suffix_says(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    page = "=====\nTitle\n=====\n\nSee :doc:`intro`.\n"
    (tmp_path / "docs/page.txt").write_text(page, "utf-8")
    (tmp_path / "notes.txt").write_text(page, "utf-8")
    limits = Limits(include_root=str(tmp_path), rst_pages=RstPages((("docs", ".txt"),)))
    inside = convert_here(tmp_path / "docs/page.txt", limits)
    assert inside.markdown.startswith("# Title\n") and ":doc:" not in inside.markdown
    outside = convert_here(tmp_path / "notes.txt", limits)  # a text file, as always
    assert outside.kind == "text" and ":doc:`intro`" in outside.markdown


def test_a_project_of_txt_pages_builds_as_its_site(tmp_path: Path) -> None:
    source = write_sources(tmp_path / "src", _django())
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0 and result.failed == []
    pkg = Package(out)
    pkg.load()
    by_title = {pkg.documents[p].title: p for p in pkg.documents}
    assert {"Quick install guide", "Writing your first Django app, part 1"} <= set(by_title)
    install = (out / by_title["Quick install guide"]).read_text("utf-8")
    body = install.split("\n---\n", 1)[1]
    assert "====" not in body and ":doc:" not in body
    # :doc: links lead to the .txt pages' documents, titled as the role titles them
    assert "[the tutorial](tutorial01.md)" in body
    assert "[Django settings](../topics/settings.md)" in body
    tutorial = (out / by_title["Writing your first Django app, part 1"]).read_text("utf-8")
    assert "[Debugging](../topics/settings.md#debugging)" in tutorial  # :ref: to its label
    assert "[field](../glossary.md" in tutorial  # :term: to the glossary
    settings = (out / by_title["Django settings"]).read_text("utf-8")
    assert ".. module::" not in settings and "module-level variables" in settings
    # contents.txt's toctree is the tree: its entries in its order, named by their pages
    root = parse_index((out / "index.md").read_text("utf-8"))
    names = [e.title for e in root.entries]
    assert names.index("Getting started") < names.index("Using Django")
    broken = [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == []
    assert not [n for n in result.notes if "name no label" in n], result.notes


DJANGODOCS = """\
def setup(app):
    app.add_crossref_type(
        directivename="setting",
        rolename="setting",
        indextemplate="pair: %s; setting",
    )
    app.add_object_type("django-admin", "djadmin", parse_node=parse_django_admin_node)
"""

EXTLINKS = """\
extlinks = {
    "commit": ("https://github.com/django/django/commit/%s", "%s"),
    "ticket": ("https://code.djangoproject.com/ticket/%s", "#%s"),
    "pypi": ("https://pypi.org/project/%s/", None),
}
if sphinx_version < (8, 1):
    extlinks["cve"] = ("https://www.cve.org/CVERecord?id=CVE-%s", "CVE-%s")
"""


def test_the_roles_a_project_adds_are_links(tmp_path: Path) -> None:
    """Django's ``:ticket:`` (1,146 uses), ``:setting:`` (2,039) and ``:djadmin:`` (442):
    before, each was its text in code, and each ``.. setting:: DEBUG`` target showed as a
    paragraph "Setting: DEBUG" (216 of them) above the heading it names."""
    files = _django()
    files["docs/conf.py"] += "\n" + EXTLINKS
    files["docs/_ext/djangodocs.py"] = DJANGODOCS
    files["docs/topics/settings.txt"] = _page(
        "Django settings",
        "Fixed in :ticket:`26401` (:commit:`the fix <abc123>`), see :cve:`2024-1234`,\n"
        "install :pypi:`asgiref`. Run :djadmin:`migrate` after changing :setting:`DEBUG`,\n"
        "or :setting:`the time zone <TIME_ZONE>`; :setting:`NOT_A_SETTING` is none,\n"
        ":setting:`!NO_LINK` is written to show no link.\n\n"
        ".. setting:: DEBUG\n\n``DEBUG``\n---------\n\nDefault: ``False``\n\n"
        ".. setting:: TIME_ZONE\n\n``TIME_ZONE``\n-------------\n\nDefault: ``'UTC'``\n\n"
        "``migrate``\n-----------\n\n.. django-admin:: migrate [app_label] [migration_name]\n\n"
        "Synchronizes the database state, as ``python -m django migrate`` does.\n\n"
        ".. _settings-debug:\n\nDebugging\n=========\n\nNever deploy with DEBUG on.\n",
    )
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0 and result.failed == []
    text = (out / "topics/settings.md").read_text("utf-8")
    assert "Fixed in [#26401](https://code.djangoproject.com/ticket/26401)" in text
    assert "([the fix](https://github.com/django/django/commit/abc123))" in text
    assert "[CVE-2024-1234](https://www.cve.org/CVERecord?id=CVE-2024-1234)" in text
    assert "install <https://pypi.org/project/asgiref/>." in text  # no caption: the address
    assert "Run [`migrate`](#migrate) after changing [`DEBUG`](#debug)" in text
    assert "[`the time zone`](#time_zone)" in text
    assert "`NOT_A_SETTING` is none" in text  # a setting no page defines: its text
    assert "`NO_LINK` is written" in text  # Sphinx's "!": no link, and nothing to say
    assert "Setting:" not in text and "\n`migrate [app_label] [migration_name]`\n" in text
    # docutils' pieces of a hyphenated literal no longer cut it short ("`python -m` django")
    assert "as `python -m django migrate` does" in text
    said = [n for n in result.notes if "NOT_A_SETTING" in n]
    assert said and "more" not in said[0], result.notes  # NO_LINK is no reference to miss


def test_files_a_sphinx_project_makes_no_pages_of_are_assets(tmp_path: Path) -> None:
    """Sphinx makes pages of its source suffixes only: Django's figure
    ``topics/http/_images/middleware.pdf`` was a document titled "middleware.graffle"
    whose text was the diagram's letters one by one."""
    files = _django()
    files["docs/topics/_images/middleware.pdf"] = pdf_bytes(
        ["HttpRequest", "process_request", "HttpResponse"], title="middleware.graffle"
    )
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    pkg = Package(out)
    pkg.load()
    assert not [p for p in pkg.documents if "middleware" in p]
    assert [a for a in result.notes if "middleware" in a] == []
    assert list(out.rglob("middleware.pdf"))  # copied, as the site serves it


def test_a_page_grouping_its_toctrees_under_headings_makes_sections(tmp_path: Path) -> None:
    """Django's releases/index.txt lists its 389 release notes under headings, one a
    series ("6.0 release", "5.2 release"); they were split by title into ranges
    ("Django 4.2.13 to Django 5.1.5")."""
    files = _django()
    series = {"6.0": ["6.0.1", "6.0"], "5.2": ["5.2.2", "5.2.1", "5.2"]}
    body = "Release notes for the official Django releases.\n\n"
    for name, versions in series.items():
        body += f"{name} release\n{'-' * (len(name) + 8)}\n.. toctree::\n   :maxdepth: 1\n\n"
        body += "".join(f"   {v}\n" for v in versions) + "\n"
        for v in versions:
            files[f"docs/releases/{v}.txt"] = _page(
                f"Django {v} release notes", f"Django {v} fixes several bugs in {name}."
            )
    files["docs/releases/index.txt"] = _page("Release notes", body)
    files["docs/contents.txt"] = files["docs/contents.txt"].replace(
        "    glossary\n", "    glossary\n    releases/index\n"
    )
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0
    listing = parse_index((out / "releases/index.md").read_text("utf-8"))
    groups = [s.title for s in listing.sections] + [e.title for e in listing.entries]
    assert "6.0 release" in groups and "5.2 release" in groups
    assert groups.index("6.0 release") < groups.index("5.2 release")


def test_a_sentence_going_on_from_the_one_before_is_no_description() -> None:
    """Django's "Getting started" opens "New to Django? Or to web development in
    general? Well, you came to the right place: read this material to quickly get up
    and running.": it was described "Or to web development in general?". A page opening
    with a question of its own keeps it (Textual's "Render and compose")."""
    said = drafted(
        "# Getting started\n\nNew to Django? Or to web development in general? Well, you "
        "came to the right place: read this material to quickly get up and running.\n",
        "index.md",
        "intro",
    ).description
    assert "read this material to quickly get up and running" in said, said
    assert not said.startswith("Or ")
    asked = drafted(
        "# Render and compose\n\nA common question that comes up on the Discord server is "
        "what is the difference between render and compose methods on a widget? This "
        "article clarifies the differences.\n",
        "render-and-compose.md",
        "blog",
    ).description
    assert asked.startswith("A common question that comes up"), asked


def test_a_projects_prolog_is_read_with_its_own_pages_only(tmp_path: Path) -> None:
    """The sphinx repository built whole: its test project ``tests/roots/test-prolog``
    sets ``rst_prolog = "*Hello world*."``, and every page of its docs opened with it."""
    files = {
        "doc/conf.py": 'project = "Demo"\nrst_epilog = ".. |product| replace:: Demo"\n',
        "doc/index.rst": "Demo\n====\n\n.. toctree::\n\n   usage\n",
        "doc/usage.rst": "Usage\n=====\n\nRun |product| from a terminal.\n",
        "tests/roots/test-prolog/conf.py": 'rst_prolog = "*Hello world*."\n',
        "tests/roots/test-prolog/index.rst": "Prolog\n======\n\nA test page.\n",
    }
    out = tmp_path / "kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    usage = (out / "usage.md").read_text("utf-8")
    assert "Hello world" not in usage and "Run Demo from a terminal." in usage
