"""``R``: pick what to replay: a session an agent had with ``kas-tui serve``, or any
trajectory file (JSON Lines, one tool call per line)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import App

from kas_tui.features.agent import read_trajectory, replay
from kas_tui.features.agent.skill_catalog import catalog_entry
from kas_tui.features.agent.trajectory import Trajectory
from kas_tui.features.serve.session_logs import recent_sessions
from kas_tui.text.wording import counted
from kas_tui.tui.screens.agent_view import AgentView, closed, session
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.pick import Item, PickScreen
from kas_tui.tui.screens.replay import ReplayScreen

if TYPE_CHECKING:
    from kas_tui.core.package import Package

ANOTHER_FILE = "\0another file"


def open_replay(app: App, package: Package, *, sessions_folder: Path | None = None) -> None:
    """Offer the package's recent served sessions (when it has any), else ask for a file."""
    if any(isinstance(screen, AgentView) for screen in app.screen_stack):
        return
    name = catalog_entry(package).name
    logged = [p for p in recent_sessions(name, sessions_folder) if _served_from(p, package)]
    if not logged:
        _ask_for_file(app, package)
        return
    items: list[Item] = [_session_item(path) for path in logged]
    items.append(
        (ANOTHER_FILE, Text("Another trajectory file…", style="italic"), "another trajectory file")
    )

    def picked(value: str | None) -> None:
        if value == ANOTHER_FILE:
            _ask_for_file(app, package)
        elif value is not None:
            _replay(app, package, read_trajectory(Path(value)))

    app.push_screen(
        PickScreen(
            "Replay a trajectory",
            f"Sessions agents had with kas-tui serve {name}, newest first:",
            items,
            placeholder="type to filter (client, date)",
        ),
        picked,
    )


def _header(path: Path) -> dict:
    try:
        with open(path, encoding="utf-8") as handle:
            first = json.loads(handle.readline() or "{}")
    except (OSError, ValueError):
        return {}
    return first if isinstance(first, dict) and first.get("kind") == "header" else {}


def _served_from(path: Path, package: Package) -> bool:
    """Whether a logged session was served from this package's folder."""
    root = _header(path).get("root")
    return root is None or Path(root) == package.root


def _session_item(path: Path) -> Item:
    header = _header(path)
    try:
        with open(path, encoding="utf-8") as handle:
            calls = max(0, sum(1 for line in handle if line.strip()) - 1)
    except OSError:
        calls = 0
    when = str(header.get("date", "")).replace("T", " ").replace("Z", " UTC")
    client = header.get("client") or "an unnamed client"
    shown = Text.assemble(
        (when or path.name, "bold"),
        ("  ", ""),
        (client, ""),
        ("  ", ""),
        (f"{counted(calls, 'call')} · {header.get('transport', '')}", "dim"),
    )
    return (str(path), shown, f"{when} {client} {path.name}")


def _replay(app: App, package: Package, trajectory: Trajectory) -> None:
    kept = session(app)
    if not trajectory.calls:
        app.notify(f"{trajectory.source}: no tool calls to replay", severity="warning")
        return
    replayed = replay(package, trajectory, budget=kept.budget)
    lines = [call.line for call in trajectory.calls]
    app.push_screen(
        ReplayScreen(package, replayed, budget=kept.budget, lines=lines),
        lambda result: closed(app, result, walked=False),
    )
    if replayed.problems:
        n = len(replayed.problems)
        app.notify(
            f"{n} line{'s' * (n != 1)} of the file could not be read: listed on the left",
            severity="warning",
        )


def _ask_for_file(app: App, package: Package) -> None:
    kept = session(app)
    read: list[Trajectory] = []

    def check(value: str) -> str | None:
        text = value.strip()
        if not text:
            return "Give the path of a .jsonl trajectory file"
        path = Path(os.path.expanduser(text))
        if not path.exists():
            return f"{path}: no such file"
        if path.is_dir():
            return f"{path} is a folder, not a trajectory file"
        trajectory = read_trajectory(path)
        if not trajectory.calls:
            problems = [str(p) for p in trajectory.problems[:6]]
            more = len(trajectory.problems) - len(problems)
            if more > 0:
                problems.append(f"… and {more} more")
            return "Nothing to replay: " + ("\n".join(problems) or "the file holds no tool calls")
        read[:] = [trajectory]
        return None

    def chosen(value: str | None) -> None:
        if value is not None and read:
            _replay(app, package, read[0])

    app.push_screen(
        AskScreen(
            "Replay a trajectory",
            "A JSON Lines file, one tool call per line (as exported by x in a walk, logged"
            " by kas-tui serve or by a harness):",
            kept.last_export or "",  # empty: what is typed is the path, "./" is no prefix
            check=check,
            placeholder="path/to/trajectory.jsonl",
        ),
        chosen,
    )
