"""MyST cross-references resolved as the site resolves them: a Sphinx + MyST site as
jupyterhub/jupyterhub keeps its ``docs/source/`` (``(label)=`` lines before headings,
``[](label)``, ``[text](label)``, ``[text](#label)``, ``{ref}`` with and without text,
``{doc}``, a reference definition naming a label, labels Sphinx's generated pages
define, roles in code left alone), and a Jupyter Book as executablebooks/jupyter-book
keeps its ``docs/`` (a notebook's labels and links, a figure's ``:name:`` and
``{numref}``, a glossary's ``{term}``, ``<project:...>``, ``{download}``, ``{kbd}``).

Built before, jupyterhub's package had 94 broken links (``[](oversubscription)`` read
as a file), its ``{ref}`` roles raw and every ``(label)=`` line in its pages' text."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import BuildResult, build
from kas_tui.features.importing.myst_pages import myst_index
from kas_tui.features.importing.myst_refs import References, role_text
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

CONF = """\
# Configuration file for Sphinx
project = "JupyterHub"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx_copybutton"]
root_doc = "index"
myst_heading_anchors = 2
"""
INDEX = """\
# JupyterHub

JupyterHub is the best way to serve Jupyter notebook for multiple users.

(index/distributions)=

## Distributions

JupyterHub also provides a {doc}`REST API <reference/rest-api>`.
See the {doc}`security basics <tutorial/security-basics>` first.
A spawner starts each server ({ref}`spawner-start`).

```{toctree}
:maxdepth: 2

explanation/capacity-planning
tutorial/security-basics
howto/rest
reference/rest-api
rbac/roles
rbac/scopes
reference/api/spawner
```

## Indices and tables

- {ref}`genindex`
- {ref}`modindex`
"""
CAPACITY = """\
(explanation:capacity-planning)=

# Capacity planning

General capacity planning advice for JupyterHub is hard to give.

## Limits

(limits-requests)=

### Limit vs Request for resources

A **Limit** enforces how much any given user can consume;
see [](oversubscription) for what happens beyond it.
This avoids **[oversubscription](oversubscription)** of resources.

(oversubscription)=

### Oversubscribed CPU is okay, running out of memory is bad

This relates to [Limits and Requests](limits-requests) and to [](#limits-requests).
Set the limit with {attr}`~jupyterhub.spawner.Spawner.mem_limit`.

## Limits

A second section of the same name, anchored apart.
"""
SECURITY = """\
(security-basics)=

# Security settings

You should not run JupyterHub without SSL encryption on a public network.

1. {ref}`SSL encryption <ssl-encryption>` (to enable HTTPS)
2. {ref}`cookie-secret`
3. The {ref}`REST API <jupyterhub-rest-API>` needs a token.

(ssl-encryption)=

## Enabling SSL encryption

Since JupyterHub includes authentication, use SSL.

(cookie-secret)=

## Cookie secret

The cookie secret is an encryption key.

Write the role as `` {ref}`cookie-secret` ``, or in a fence:

```md
(not-a-label)=
See {ref}`cookie-secret`.
```
"""
REST = """\
(howto:rest-api)=

# Using JupyterHub's REST API

Using the [JupyterHub REST API](jupyterhub-rest-API), you can act on the Hub.
Pages come back paginated ([pagination]), see the [JupyterHub.db_url](JupyterHub.db_url)
setting and the [REST API reference](../reference/rest-api.md).

[pagination]: api-pagination

(api-pagination)=

## Pagination

Responses are paginated.
"""
REST_API = """\
(jupyterhub-rest-API)=

# JupyterHub REST API

The REST API is described by an OpenAPI spec.
"""
ROLES = """\
# Roles

Identify the specific [scopes][] you want server environments to have access to.

[scopes]: available-scopes-target
"""
SCOPES = """\
# Scopes in JupyterHub

(available-scopes-target)=

## Available scopes

The table below lists every scope.
"""
SPAWNER_RST = """\
.. _spawners-reference:

Spawners
========

.. _spawner-start:

Starting a server
-----------------

The spawner starts the single-user server.
"""


def jupyterhub_docs() -> dict[str, str | bytes]:
    return {
        "docs/source/conf.py": CONF,
        "docs/source/index.md": INDEX,
        "docs/source/explanation/capacity-planning.md": CAPACITY,
        "docs/source/tutorial/security-basics.md": SECURITY,
        "docs/source/howto/rest.md": REST,
        "docs/source/reference/rest-api.md": REST_API,
        "docs/source/rbac/roles.md": ROLES,
        "docs/source/rbac/scopes.md": SCOPES,
        "docs/source/reference/api/spawner.rst": SPAWNER_RST,
        "docs/Makefile": "html:\n\tsphinx-build source build\n",
    }


def _built(tmp_path: Path, files: dict[str, str | bytes]) -> tuple[BuildResult, Package]:
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    return result, pkg


def _body(pkg: Package, title: str) -> str:
    """The text of the document titled ``title``, its frontmatter left out."""
    path = next(p for p, d in pkg.documents.items() if d.meta.get("title") == title)
    return (pkg.root / path).read_text("utf-8").split("\n---\n", 1)[1]


def test_a_sphinx_myst_sites_references_lead_to_their_pages(tmp_path: Path) -> None:
    result, pkg = _built(tmp_path, jupyterhub_docs())
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    capacity = _body(pkg, "Capacity planning")
    # a label before a heading is that heading's anchor; an empty text is its title
    assert (
        "see [Oversubscribed CPU is okay, running out of memory is bad]"
        "(#oversubscribed-cpu-is-okay-running-out-of-memory-is-bad) for what" in capacity
    )
    assert "**[oversubscription](#oversubscribed-cpu-is-okay-running-out-of-memory-is-bad)**" in (
        capacity
    )
    assert "[Limits and Requests](#limit-vs-request-for-resources)" in capacity
    assert "[Limit vs Request for resources](#limit-vs-request-for-resources)" in capacity
    assert "`mem_limit`" in capacity and "{attr}" not in capacity
    assert ")=" not in capacity  # the label lines are no words of the page
    security = _body(pkg, "Security settings")
    assert "1. [SSL encryption](#enabling-ssl-encryption) (to enable HTTPS)" in security
    assert "2. [Cookie secret](#cookie-secret)" in security
    # across pages, to the page as the package names it (a page's title: no anchor)
    assert "The [REST API](../reference/rest-api.md) needs a token." in security
    # a role in code is the code's
    assert "`` {ref}`cookie-secret` ``" in security
    assert "(not-a-label)=\nSee {ref}`cookie-secret`." in security
    index = _body(pkg, "JupyterHub")
    assert "a [REST API](reference/rest-api.md)." in index
    assert "the [security basics](tutorial/security-basics.md) first" in index
    assert "([Starting a server](reference/api/spawner.md#starting-a-server))" in index
    assert "- genindex\n- modindex" in index  # Sphinx's generated pages: their names
    rest = _body(pkg, "Using JupyterHub's REST API")
    assert "[JupyterHub REST API](../reference/rest-api.md)" in rest
    assert "[pagination]: #pagination" in rest
    assert "the JupyterHub.db_url\nsetting" in rest  # an API object autodoc documents
    roles = _body(pkg, "Roles")
    assert "[scopes]: scopes.md#available-scopes" in roles
    notes = [n for n in result.notes if "MyST cross-references" in n]
    assert notes == [
        "docs/source/index.md:27: {ref}`genindex` and 2 more MyST cross-references name no label, "
        "page or term of the source (Sphinx's genindex, an API object autodoc documents, "
        "another project's docs through intersphinx): shown as their text; a (label)= line before the heading they mean defines one"
    ]


BOOK_TOC = """\
format: jb-book
root: intro
chapters:
- file: content/references
- file: content/figures
- file: file-types/notebooks
- file: reference/glossary
"""


def _notebook(*cells: str) -> str:
    return json.dumps(
        {
            "cells": [
                {"cell_type": "markdown", "metadata": {}, "source": cell.splitlines(True)}
                for cell in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def jupyter_book_docs() -> dict[str, str | bytes]:
    return {
        "_toc.yml": BOOK_TOC,
        "_config.yml": "title: Jupyter Book\n",
        "intro.md": "# Books with Jupyter\n\nStart with <project:content/references.md#labels>"
        " and {download}`the sample notebook <file-types/notebooks.ipynb>`.\n",
        "content/references.md": """\
# References and cross-references

(content:references:labels)=

## Labels

Press {kbd}`Ctrl` to see {numref}`Figure %s <my-fig-ref>` and {ref}`my-fig-ref`;
a {term}`MyST` page links to [](../file-types/notebooks.ipynb) and to <project:#labels>.
""",
        "content/figures.md": """\
# Images and figures

````{example}
```{figure} ../images/cool.jpg
:name: my-fig-ref

My figure title.
```
````

:::{figure-md} markdown-fig
<img src="../images/fun-fish.png" alt="fishy">

A caption in **Markdown**!
:::

[Go to the fish!](markdown-fig)
""",
        "file-types/notebooks.ipynb": _notebook(
            "(file-types:notebooks)=\n# Jupyter Notebook files\n\n"
            "See [](./markdown-notes.md) and {ref}`the labels <content:references:labels>`.",
        ),
        "file-types/markdown-notes.md": "# Markdown files\n\nWrite in Markdown.\n",
        "reference/glossary.md": """\
# Glossary

```{glossary}
MyST
  Markedly Structured Text, a flavour of Markdown.

Jupyter Book
  A tool to build books.
```
""",
        "images/cool.jpg": b"\xff\xd8\xff\xe0 fake",
        "images/fun-fish.png": b"\x89PNG\r\n\x1a\n fake",
    }


def test_a_jupyter_books_references_lead_to_their_pages(tmp_path: Path) -> None:
    result, pkg = _built(tmp_path, jupyter_book_docs())
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    references = _body(pkg, "References and cross-references")
    assert "Press `Ctrl` to see [Figure](figures.md) and [Figure](figures.md);" in references
    assert "a [MyST](../reference/glossary.md) page links to " in references
    assert "[Jupyter Notebook files](../file-types/notebooks.md)" in references
    assert "and to [Labels](#labels)." in references
    intro = _body(pkg, "Books with Jupyter")
    assert "Start with [Labels](content/references.md#labels)" in intro
    assert "[the sample notebook](file-types/notebooks.md)" in intro
    assert "[Go to the fish!](figures.md)" in _body(pkg, "Images and figures")
    notebook = _body(pkg, "Jupyter Notebook files")
    # a notebook's cells are Markdown: its labels go, its links lead to the pages
    assert "(file-types:notebooks)=" not in notebook
    assert notebook.count("# Jupyter Notebook files") == 1
    assert "See [Markdown files](markdown-notes.md) and " in notebook
    assert "[the labels](../content/references.md#labels)" in notebook
    assert not [n for n in result.notes if "MyST cross-references" in n]


def test_references_name_labels_case_ignored_and_unknown_roles_read_as_text() -> None:
    files = {
        "a.md": "(Upper-Label)=\n# Page A\n\nSee {ref}`upper-label` and [](#UPPER-label).\n",
        "b.md": "# Page B\n\n{ref}`Text <nowhere>`, {py:class}`~pkg.mod.Klass`, {abbr}`CSS (Cascading Style Sheets)`.\n",
    }
    refs = References(myst_index(files, files.get), set(files), "")
    text, unresolved = refs.resolve(files["a.md"], "a.md")
    assert text == "# Page A\n\nSee [Page A](a.md) and [Page A](a.md).\n"
    text, unresolved = refs.resolve(files["b.md"], "b.md")
    assert text == "# Page B\n\nText, `Klass`, CSS (Cascading Style Sheets).\n"
    assert [(u.line, u.target) for u in unresolved] == [(3, "{ref}`Text <nowhere>`")]
    assert role_text("math", "x^2") == "$x^2$"
    assert role_text("kbd", "Ctrl+`") == "`` Ctrl+` ``"


def test_a_page_is_built_again_when_what_it_names_is_retitled(tmp_path: Path) -> None:
    _built(tmp_path, jupyterhub_docs())
    scopes = tmp_path / "src" / "docs" / "source" / "rbac" / "scopes.md"
    scopes.write_text(SCOPES.replace("## Available scopes", "## Every scope"), "utf-8")
    result = build(tmp_path / "src", tmp_path / "kb", now=NOW, workers=1)
    # roles.md is as it was, but the heading its definition names is not
    assert sorted(result.updated) == ["rbac/roles.md", "rbac/scopes.md"]
    roles = (tmp_path / "kb" / "rbac" / "roles.md").read_text("utf-8")
    assert roles.endswith("[scopes]: scopes.md#every-scope\n")
