"""Sphinx's autodoc read from the source's Python files, found by building werkzeug's
repository (2026-12-07): its seven middleware pages, each one ``.. automodule::``, were
stubs of one line (the module's name), and every ``.. autoclass::`` of its API pages
showed a name and nothing of what the site shows. The code is read, never imported."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.autodoc import docstring_lines
from kas_tui.features.importing.build import build
from kas_tui.features.importing.sphinx_conf import rst_reading
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.UTC)

APP = '''\
"""The application object."""

import os  # imported, so no member of this module

from .base import Base


class App(Base):
    """The central object of a demo application.

    Parameters
    ----------
    name
        What the application is called.
    """

    #: How many requests one worker serves before it restarts.
    max_requests = 1000

    def __init__(self, name: str, debug: bool = False) -> None:
        #: What the application is called in logs.
        self.name = name
        self.debug: bool = debug  #: Whether errors show a traceback.
        self.workers = 4
        """How many workers serve it."""
        self._state = {}  # set without a doc comment: no member

    def run(self, host: str = "127.0.0.1", port: int = 5000) -> None:
        """Serve the application on ``host`` and ``port`` until stopped."""

    def _private(self):
        """Not for users."""

    def undocumented(self):
        pass

    @property
    def url(self) -> str:
        """Where the application listens."""
        return ""

    def __call__(self, environ, start_response):
        """The WSGI entry point."""


class AppError(RuntimeError):
    """Raised when the application cannot start."""


def create_app(config: dict | None = None) -> App:
    """Make an application from ``config``."""
    return App("demo")
'''

FILES: dict[str, str | bytes] = {
    "docs/conf.py": (
        "import os, sys\nsys.path.insert(0, os.path.abspath('..'))\n"
        'project = "Demo"\nextensions = ["sphinx.ext.autodoc"]\n'
        'autodoc_member_order = "bysource"\n'
    ),
    "docs/index.rst": "Demo\n====\n\n.. toctree::\n\n   api\n   proxy\n   gone\n   package\n   base\n",
    "docs/package.rst": "The package\n===========\n\n.. automodule:: demo\n   :members:\n",
    "docs/api.rst": (
        "API\n===\n\n.. module:: demo\n\n"
        ".. autoclass:: App\n   :members:\n   :inherited-members:\n\n"
        "   .. automethod:: __call__\n\n"
        ".. autoexception:: demo.app.AppError\n\n"
        ".. autofunction:: create_app\n\n"
        ".. class:: Handwritten(x)\n\n   A class the page describes itself.\n\n"
        ".. class:: App\n\n   .. automethod:: run\n"
    ),
    "docs/proxy.rst": ".. automodule:: demo.proxy\n",
    "docs/gone.rst": "Gone\n====\n\n.. autoclass:: elsewhere.Thing\n\n.. autofunction:: demo.nothing\n",
    "demo/__init__.py": (
        '"""Demo."""\nfrom .app import App as App\nfrom .app import create_app\n\n'
        '__all__ = ["create_app", "App"]\n'
    ),
    "demo/app.py": APP,
    "demo/base.py": (  # Python 3.12's syntax, read on 3.11 too
        "type Handler = int\n\n\ndef first[T](items: list[T]) -> T:\n"
        '    """The first of ``items``."""\n\n\n'
        "class Base:\n    #: What every application is called by default.\n"
        '    label: str = "base"\n\n'
        "    def close(self) -> None:\n"
        '        """Release what the application holds."""\n'
    ),
    "docs/base.rst": (
        "Bases\n=====\n\n.. module:: demo.app\n\n.. class:: App\n\n"
        "   .. autoattribute:: label\n\n.. autofunction:: demo.base.first\n"
    ),
    "demo/proxy.py": (
        '"""\nProxy Fix\n=========\n\nThis module adjusts the WSGI environ from '
        '``X-Forwarded-`` headers.\n\n.. autoclass:: ProxyFix\n"""\n\n\n'
        "class ProxyFix:\n"
        '    """Adjust the environ from the headers proxies set."""\n\n'
        "    def __init__(self, app, x_for=1):\n        self.app = app\n\n\n"
        'raise SystemExit("imported")  # never run: the build reads it\n'
    ),
}


def test_autodoc_shows_what_the_code_says(tmp_path: Path) -> None:
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", FILES), out, now=NOW, workers=1)
    assert result.failed == []
    pkg = Package(out)
    pkg.load()
    titles = {pkg.documents[p].title: p for p in pkg.documents}
    api = (out / titles["API"]).read_text("utf-8")
    # the class as Sphinx shows it: its __init__'s signature, its docstring
    assert "`class App(name: str, debug: bool=False)`" in api
    assert "The central object of a demo application." in api
    assert "Parameters" in api and "What the application is called." in api
    # members: documented public ones, in source order, with their signatures
    assert "`run(host: str='127.0.0.1', port: int=5000)`" in api
    assert "`max_requests = 1000`" in api
    assert api.index("max_requests") < api.index("`run(") < api.index("`property url`")
    assert "How many requests one worker serves" in api  # the #: comment above it
    assert "_private" not in api and "undocumented" not in api
    assert "`close()`" in api and "Release what the application holds." in api  # inherited
    assert "The WSGI entry point." in api  # the automethod in the class's content
    assert "`exception demo.app.AppError`" in api and "cannot start" in api
    assert "`create_app(config: dict | None=None)`" in api  # re-exported by __init__
    assert "`class Handwritten(x)`" in api and "describes itself" in api  # Sphinx's class
    assert "import os" not in api
    # what __init__ sets on self with a doc comment or docstring, as autodoc's analyzer
    assert "What the application is called in logs." in api
    assert "`debug: bool`" in api and "Whether errors show a traceback." in api
    assert "`workers`" in api and "How many workers serve it." in api
    assert "_state" not in api
    assert api.index("`max_requests = 1000`") < api.index("`debug: bool`") < api.index("`run(")
    assert api.count("Serve the application on") == 2  # the automethod in the class's text
    # a module's docstring is the page: its title, and what it names next
    proxy = titles["Proxy Fix"]
    text = (out / proxy).read_text("utf-8")
    assert "adjusts the WSGI environ" in text and "`class ProxyFix(app, x_for=1)`" in text
    assert pkg.documents[proxy].description.startswith("This module adjusts the WSGI environ")
    # a package's members are its __all__, read where they are defined
    package = (out / titles["The package"]).read_text("utf-8")
    assert package.index("`create_app(") < package.index("`class App(")  # bysource: __all__
    # an attribute a base class sets; a function of Python 3.12's syntax
    bases = (out / titles["Bases"]).read_text("utf-8")
    assert "What every application is called by default." in bases
    assert "`label: str = 'base'`" in bases
    assert "`demo.base.first(items: list[T])`" in bases and "The first of `items`." in bases
    # what cannot be shown is said, by file and line, and shows its name as before
    gone = (out / titles["Gone"]).read_text("utf-8")
    assert "`class elsewhere.Thing`" in gone
    notes = "\n".join(result.notes)
    assert "docs/gone.rst: line 4: .. autoclass:: elsewhere.Thing is not shown: the module" in notes
    assert "demo/__init__.py does not define demo.nothing" in notes


def test_conf_py_says_where_and_how_autodoc_reads() -> None:
    conf = (
        "import os, sys\nsys.path.insert(0, os.path.abspath('../src'))\n"
        "sys.path.append(os.path.abspath('/etc'))\n"
        'autodoc_member_order = "groupwise"\n'
        'autodoc_default_options = {"members": True, "undoc-members": None,'
        ' "exclude-members": "__weakref__", "private-members": False}\n'
    )
    reading = rst_reading(["docs/conf.py"], lambda _path: conf)
    assert reading.python_paths == ("src",)  # an absolute path is none of the source's
    assert reading.autodoc_order == "groupwise"
    assert reading.autodoc_options == {
        "members": "",
        "undoc-members": "",
        "exclude-members": "__weakref__",
    }


def test_a_numpy_docstrings_sections_are_rubrics() -> None:
    doc = "Sum two arrays.\n\n    Returns\n    -------\n    out : ndarray\n        The sum.\n"
    assert docstring_lines(doc) == [
        "Sum two arrays.",
        "",
        ".. rubric:: Returns",
        "",
        "out : ndarray",
        "    The sum.",
    ]


def test_code_that_is_no_python_is_said_and_never_run(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "conf.py": 'project = "Demo"\n',
        "index.rst": "Demo\n====\n\n.. automodule:: broken\n   :members:\n",
        "broken.py": "def f(:\n    raise SystemExit('ran')\n",
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0
    assert [n for n in result.notes if "broken.py cannot be read as Python" in n]


def test_a_docstring_naming_its_own_module_shows_it_once(tmp_path: Path) -> None:
    """A module whose docstring holds ``.. automodule::`` of itself read itself into the
    page again and again: the build never ended."""
    files: dict[str, str | bytes] = {
        "conf.py": 'project = "Demo"\n',
        "index.rst": "Demo\n====\n\n.. automodule:: loop\n",
        "loop.py": '"""Loops over the input.\n\n.. automodule:: loop\n"""\n',
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.failed == []
    body = (out / "index-page.md").read_text("utf-8").split("\n---\n", 1)[1]
    assert body.count("Loops over the input.") == 1
    assert [n for n in result.notes if "shown above on this page" in n]


def test_an_extensions_autodoc_of_a_class_is_read_as_autoclass(tmp_path: Path) -> None:
    # jupyterhub's 15 .. autoconfigurable:: (autodoc_traits) showed the class's name only
    files: dict[str, str | bytes] = {
        **FILES,
        "docs/index.rst": "Demo\n====\n\n.. toctree::\n\n   traits\n",
        "docs/traits.rst": (
            "Traits\n======\n\n.. module:: demo.app\n\n.. autoconfigurable:: App\n\n"
            ".. autoconfigurable:: NotThere\n\n.. autoprogram:: demo.cli:parser\n"
        ),
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    pkg = Package(out)
    pkg.load()
    path = next(p for p, d in pkg.documents.items() if d.title == "Traits")
    text = (out / path).read_text("utf-8")
    assert "`class App(name: str, debug: bool=False)`" in text
    assert "The central object of a demo application." in text
    assert "`NotThere`" in text and "`demo.cli:parser`" in text  # their names, as before
    assert not [n for n in result.notes if "traits.rst" in n]  # an extension's: no note
