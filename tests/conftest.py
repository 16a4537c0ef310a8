"""Shared fixtures: a small but realistic Knowledge-as-Skill package built in ``tmp_path``.

``make_package(tmp_path, name="acme-kb")`` writes the package and returns its root, so
any test (including the TUI tests) can build one and change it before opening it.
"""

# ruff: noqa: E501  (index entries and descriptions are one long line each, as in real packages)

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# The suite is the same on every run and every machine (CI passes or fails for a reason);
# HYPOTHESIS_PROFILE=explore draws new random examples to hunt for bugs.
settings.register_profile("stable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "stable"))


def _keep_compiled_modules() -> None:
    """Compiled modules kept between runs, outside the checkout, even where the environment
    asks for none to be written (``PYTHONDONTWRITEBYTECODE``, as in many containers).

    Without them every xdist worker compiled each module again, and rewrote the asserts
    of every test module (pytest keeps that rewrite only where bytecode may be written):
    collecting took 23 s of each worker's time instead of 8 s on the 2-core machine. They
    go under the temporary folder (``sys.pycache_prefix``), never beside the sources; a
    module is compiled again whenever its source changes, as always. Processes the tests
    start are left as the environment says. ``KAS_TUI_TESTS_NO_PYCACHE=1``: none kept.
    """
    if not sys.dont_write_bytecode or os.environ.get("KAS_TUI_TESTS_NO_PYCACHE"):
        return
    if sys.pycache_prefix is None:
        import tempfile

        sys.pycache_prefix = os.path.join(tempfile.gettempdir(), "kas-tui-tests-pycache")
    sys.dont_write_bytecode = False


_keep_compiled_modules()

ROOT = Path(__file__).resolve().parents[1]
try:  # the project may be run from a checkout without being installed
    import kas_tui  # noqa: F401
except ImportError:  # pragma: no cover - depends on how the suite is run
    sys.path.insert(0, str(ROOT))

from tests.helpers.acme import (  # noqa: E402
    DEMO,
    DOCUMENTS,
    FILES,
    changed,
    files,
    make_package,
    snapshot,
)
from tests.helpers.waiting import pilot_wait_until, wait_until  # noqa: E402

#: Kept importable from here until every test imports tests.helpers itself.
__all__ = [
    "DEMO",
    "DOCUMENTS",
    "FILES",
    "changed",
    "files",
    "make_package",
    "pilot_wait_until",
    "snapshot",
    "wait_until",
]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The root of a writable copy of the demo package (orbit-handbook)."""
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    return tmp_path / "demo_kb" / "orbit-handbook"


@pytest.fixture
def demo(root: Path):
    """The demo package, loaded from a writable copy (see :func:`root`)."""
    from kas_tui.core.package import Package

    return Package.open(root)


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    """Files of each kind to import (see :func:`tests.helpers.office.make_inbox`)."""
    from tests.helpers.office import make_inbox

    return make_inbox(tmp_path)


@pytest.fixture
def package_root(tmp_path: Path) -> Path:
    """The sample package, freshly written (see :func:`make_package`)."""
    return make_package(tmp_path)


@pytest.fixture
def package_factory(tmp_path: Path):
    """``package_factory(name="acme-kb")`` writes the sample package and returns its root.

    For tests that cannot ``from conftest import make_package`` (importlib import mode).
    """

    def factory(name: str = "acme-kb") -> Path:
        return make_package(tmp_path, name)

    return factory


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """No test reads or writes the user's metadata cache or data folder (the demo's copy)."""
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(tmp_path_factory.mktemp("kas-cache")))
    monkeypatch.setenv("KAS_TUI_DATA_DIR", str(tmp_path_factory.mktemp("kas-data")))
    monkeypatch.setenv("KAS_TUI_CONFIG_DIR", str(tmp_path_factory.mktemp("kas-config")))


@pytest.fixture(autouse=True)
def _steady_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text cursor that stays shown instead of blinking.

    An input's cursor blinks every half second, so a snapshot taken more than half a
    second after the last key (a loaded machine: the snapshot's idle waits take longer)
    showed it gone, and the snapshot failed (issue 30, item 14: the bundle picker). No
    test is about blinking; every snapshot shows the cursor where the last key left it.
    """
    from textual.widgets import Input, TextArea

    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", lambda self: None)


def _share_parsed_css() -> None:
    """Every app of the session parses a piece of CSS once, not once per app and again
    after every widget class it mounts for the first time.

    Textual keeps a stylesheet's parsed pieces in a cache of 64 (``Stylesheet._parse_cache``),
    but a KasApp has more pieces than that (app.tcss, each screen's, every widget class's
    DEFAULT_CSS), and ``Stylesheet.parse`` walks all of them whenever a new one comes: the
    cache is emptied by its own walk, and each app parsed its whole CSS a dozen times
    (0.07 s of the 1.1 s an app takes to start; 5 % of a Pilot test). Parsing is a pure
    function of the text, where it came from and the theme's variables, which are all in
    the key here; the rules are not changed once parsed. A piece with an error still
    raises (``parse`` checks the rules it gets), so broken CSS still fails its tests.
    """
    from textual.css.stylesheet import Stylesheet

    parse = getattr(Stylesheet, "_parse_rules", None)
    if parse is None:  # another Textual: every app parses its own CSS, as before
        return
    parsed: dict[tuple, list] = {}
    themes: dict[tuple, int] = {}  # a theme's variables, numbered: keys stay cheap to hash

    def shared(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        variables = self._variables
        theme = self.__dict__.get("_tests_theme")
        if theme is None or theme[0] is not variables:  # set_variables gives a new dict
            number = themes.setdefault(tuple(sorted(variables.items())), len(themes))
            theme = self.__dict__["_tests_theme"] = (variables, number)
        key = (theme[1], css, read_from, is_default_rules, tie_breaker, scope)
        try:
            return parsed[key]
        except KeyError:
            rules = parsed[key] = parse(self, css, read_from, is_default_rules, tie_breaker, scope)
            return rules

    Stylesheet._parse_rules = shared


_share_parsed_css()


@pytest.fixture(autouse=True)
def _indexes_on_first_use(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The finder's and the full-text index are built when a test first asks for them,
    not in the background half a second after every app starts.

    Nearly every Pilot test lives long enough for both background starts (0.1 to 0.3 s
    of CPU each, on a worker already busy with the next test), and few search. The app
    builds both on first use when asked sooner (``FindIndex.finder``,
    ``FullTextController.index``), which is what a search in these tests does. A test of
    the background start itself is marked ``background_indexes``.
    """
    marked = request.node.get_closest_marker("background_indexes") is not None
    if marked or os.environ.get("KAS_TUI_TESTS_BACKGROUND_INDEXES") == "1":
        return
    from kas_tui.tui import app
    from kas_tui.tui.controllers import text_search

    monkeypatch.setattr(app, "FINDER_DELAY", 3600.0)
    monkeypatch.setattr(text_search, "START_DELAY", 3600.0)


@pytest.fixture(autouse=True)
def _quick_pilot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot's idle check, sampled every 5 ms instead of 20.

    Textual's pilot waits for the app to go idle after every key it presses by sleeping
    in steps of ``SLEEP_GRANULARITY`` until a step passes with next to no CPU time spent.
    Steps of 20 ms put 40 ms under each typed character; steps of 5 ms still see the same
    idleness (the CPU share asked for is the same fraction of the step). No test relies on
    that wait for correctness: they wait for conditions (:func:`pilot_wait_until`).
    """
    import textual._wait as wait

    monkeypatch.setattr(wait, "SLEEP_GRANULARITY", 1 / 200)
    monkeypatch.setattr(wait, "SLEEP_IDLE", 1 / 200 / 20)
