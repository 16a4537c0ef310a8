"""The app composes its controllers: no mixins, every key still reaches its action.

``KasApp`` derives from Textual's ``App`` alone; what it does is held by the objects of
``kas_tui/tui/controllers/``, which name the app by the :class:`Host` protocol (the app
imports them, so they cannot import it back).
"""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

from textual.app import App

import kas_tui
from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.commands import COMMANDS
from kas_tui.tui.controllers.host import Host

TUI = Path(kas_tui.__file__).resolve().parent / "tui"


def test_the_app_derives_from_textuals_app_alone() -> None:
    assert KasApp.__bases__ == (App,)


def test_no_class_of_the_tui_is_a_mixin() -> None:
    mixins = [
        f"{path.relative_to(TUI)}:{node.lineno}: {node.name}"
        for path in sorted(TUI.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name.endswith("Mixin")
    ]
    assert not mixins


def test_no_module_stands_in_for_the_app() -> None:
    found = [
        f"{path.relative_to(TUI)}:{number}"
        for path in sorted(TUI.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "app: Any = self" in line
    ]
    assert not found


def test_every_command_has_its_action_on_the_app() -> None:
    missing = [
        c.action for c in COMMANDS if not callable(getattr(KasApp, f"action_{c.action}", None))
    ]
    assert not missing


def test_the_app_has_what_its_controllers_use(demo: Package) -> None:
    app = KasApp(demo, today=dt.date(2026, 11, 30), watch=False)
    members = set(Host.__annotations__) | {
        name for name, value in vars(Host).items() if not name.startswith("_") and callable(value)
    }
    members |= {name for name, value in vars(Host).items() if isinstance(value, property)}
    assert {"package", "today", "notify", "push_screen", "replace_package"} <= members
    missing = [
        name for name in sorted(members) if not hasattr(KasApp, name) and name not in vars(app)
    ]
    assert missing == []
