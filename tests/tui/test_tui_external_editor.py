"""`E` hands the file shown to $VISUAL/$EDITOR: a bad editor is a message, never a frozen app.

The terminal hand-over is Textual's own ``App.suspend``, run for real: the headless driver
is told it can suspend, and the test counts the suspends and resumes it sees.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from textual.drivers.headless_driver import HeadlessDriver

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.controllers import external_editor

TODAY = dt.date(2026, 11, 30)
DOC = "oncall/escalation-policy.md"


@pytest.fixture
def terminal(monkeypatch) -> dict[str, int]:
    """The headless driver suspends like a real terminal; counts of suspends and resumes."""
    counts = {"suspended": 0, "resumed": 0}

    def suspend(self) -> None:
        counts["suspended"] += 1

    def resume(self) -> None:
        counts["resumed"] += 1

    monkeypatch.setattr(HeadlessDriver, "can_suspend", property(lambda self: True))
    monkeypatch.setattr(HeadlessDriver, "suspend_application_mode", suspend)
    monkeypatch.setattr(HeadlessDriver, "resume_application_mode", resume)
    return counts


def _messages(app: KasApp) -> list[str]:
    return [m for _, m in app.messages]


async def _press_e_then_check_alive(app: KasApp, pilot) -> None:
    app.go(DOC, reveal=True)
    await pilot.pause()
    await pilot.press("E")
    await pilot.pause()
    # the app still answers keys: D marks the document deprecated (o: only the status,
    # not the note in the index entries that list it)
    await pilot.press("D")
    await pilot.pause()
    await pilot.press("o")
    await pilot.pause()
    assert app.package.documents[DOC].status == "deprecated"


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        (
            lambda tmp: {"EDITOR": "nonexistent-editor"},
            "editor 'nonexistent-editor' (from $EDITOR) not found on PATH",
        ),
        (lambda tmp: {"EDITOR": 'vim "-c set nu'}, "$EDITOR has unbalanced quotes"),
        (
            lambda tmp: {"VISUAL": str(_plain_file(tmp)), "EDITOR": "vi"},
            "(from $VISUAL) is not an executable file",
        ),
        (
            lambda tmp: {"EDITOR": str(tmp / "no-such" / "editor")},
            "(from $EDITOR) does not exist",
        ),
        (lambda tmp: {"VISUAL": "   "}, "$VISUAL is blank"),
    ],
    ids=["missing", "unbalanced-quotes", "not-executable", "no-such-path", "blank"],
)
async def test_a_bad_editor_is_a_message_and_the_app_stays_usable(
    root: Path, tmp_path: Path, monkeypatch, terminal, setup, expected
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    for var, value in setup(tmp_path).items():
        monkeypatch.setenv(var, value)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await _press_e_then_check_alive(app, pilot)
        assert terminal == {"suspended": 0, "resumed": 0}, "checked before the hand-over"
        assert any(expected in m for m in _messages(app)), _messages(app)


def _plain_file(tmp: Path) -> Path:
    path = tmp / "not-an-editor.txt"
    path.write_text("text\n")
    path.chmod(0o644)
    return path


async def test_an_editor_failing_after_the_hand_over_gives_the_app_back(
    root: Path, monkeypatch, terminal
) -> None:
    monkeypatch.setenv("VISUAL", "sh")

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(external_editor.subprocess, "run", refused)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await _press_e_then_check_alive(app, pilot)
        assert terminal == {"suspended": 1, "resumed": 1}, "the app resumed its screen"
        assert any("could not run: permission denied" in m for m in _messages(app))


def test_editor_command_resolves_the_program_and_keeps_its_arguments() -> None:
    from kas_tui.tui.controllers.external_editor import editor_command

    argv = editor_command({"EDITOR": "sh -c 'true'", "PATH": "/usr/bin:/bin"})
    assert isinstance(argv, list) and argv[0].endswith("/sh") and argv[1:] == ["-c", "true"]
    assert editor_command({"VISUAL": "sh", "EDITOR": "nope", "PATH": "/bin"}) == ["/bin/sh"]
    message = editor_command({"PATH": "/nonexistent"})
    assert message == (
        "editor 'vi' (neither $VISUAL nor $EDITOR is set) not found on PATH; "
        "set $VISUAL or $EDITOR to an installed editor"
    )
