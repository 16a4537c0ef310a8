"""Each screen's CSS is beside it: a ``.tcss`` named by its ``CSS_PATH`` (resolved, as
Textual does, from the folder of the module that defines the screen), each widget's in
its ``DEFAULT_CSS``; ``app.tcss`` keeps the few app-wide rules. The app reads every
screen's file at start (a file first read when its screen is pushed would make Textual
restyle the whole app then)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

from textual.screen import Screen

import kas_tui.tui
from kas_tui.tui.app import KasApp

TUI = Path(kas_tui.tui.__file__).resolve().parent


def screens() -> list[type[Screen]]:
    for info in pkgutil.walk_packages(kas_tui.tui.__path__, "kas_tui.tui."):
        importlib.import_module(info.name)
    found, todo = [], [Screen]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("kas_tui.tui."):
                found.append(sub)
    return found


def css_files(cls: type) -> list[Path]:
    paths = cls.CSS_PATH or []
    paths = [paths] if isinstance(paths, (str, Path)) else paths
    folder = Path(inspect.getfile(cls)).parent
    return [(folder / path).resolve() for path in paths]


def test_every_css_path_names_a_file_beside_its_screen() -> None:
    missing = [
        f"{cls.__name__}: {path}"
        for cls in screens()
        for path in css_files(cls)
        if not path.is_file()
    ]
    assert missing == []


def test_every_tcss_file_is_a_screens_and_the_app_reads_them_all_at_start() -> None:
    named = {path for cls in screens() for path in css_files(cls)}
    files = set(TUI.rglob("*.tcss")) - {TUI / "app.tcss"}
    assert sorted(str(p.relative_to(TUI)) for p in files - named) == []
    assert set(css_files(KasApp)) == files | {TUI / "app.tcss"}


def test_the_app_wide_file_is_small() -> None:
    lines = (TUI / "app.tcss").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 40
