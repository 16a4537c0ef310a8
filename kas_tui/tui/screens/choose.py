"""Small decisions: pick one of a few choices, or read a diff before saving."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

_DIFF_STYLES = (("+++", "bold"), ("---", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))


def diff_text(diff: str) -> Text:
    """A unified diff, coloured line by line, every character (indentation too) kept."""
    out = Text(no_wrap=False, overflow="fold")
    for line in diff.splitlines(keepends=True):
        style = next((s for prefix, s in _DIFF_STYLES if line.startswith(prefix)), "")
        out.append(line, style)
    return out


class ChoiceScreen(ModalScreen[str | None]):
    """A question with a few answers; dismisses with the chosen key (escape: ``None``).

    ``choices`` are ``(key, label)``; the first is the default (focused) answer. Each
    answer's first letter, or its position (1, 2, ...), picks it from the keyboard.
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, title: str, message: str, choices: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.message = message
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = "enter picks · escape cancels"
            yield Static(Text(self.message), id="choice-message")
            with Horizontal(id="choice-buttons"):
                for number, (key, label) in enumerate(self.choices, start=1):
                    yield Button(
                        f"{number} {label}",
                        id=f"choice-{key}",
                        variant="primary" if number == 1 else "default",
                    )

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "").removeprefix("choice-"))

    def on_key(self, event) -> None:
        if event.character and event.character.isdigit():
            number = int(event.character)
            if 1 <= number <= len(self.choices):
                event.stop()
                self.dismiss(self.choices[number - 1][0])


class DiffScreen(ModalScreen[bool]):
    """A unified diff to read before writing; ``y``/enter saves (True), ``n``/escape not."""

    BINDINGS = [
        Binding("y", "dismiss(True)", "Save"),
        Binding("n,escape", "dismiss(False)", "Cancel"),
    ]

    def __init__(self, title: str, diff: str, *, confirm: str = "Save") -> None:
        super().__init__()
        self.title_text = title
        self.diff = diff
        self.confirm = confirm

    def compose(self) -> ComposeResult:
        with Vertical(id="diff-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = f"y {self.confirm.lower()} · n cancel"
            with VerticalScroll(id="diff-scroll"):
                yield Static(diff_text(self.diff or "(no change)\n"))
            with Horizontal(id="choice-buttons"):
                yield Button(f"y {self.confirm}", id="diff-yes", variant="primary")
                yield Button("n Cancel", id="diff-no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "diff-yes")


def ask_before_leaving(screen: ModalScreen, what: str, save: Callable[[], None]) -> None:
    """Close an editor ``screen``, first asking about its unsaved changes (if ``dirty``).

    ``what`` names the changed thing in the question ("This entry", "SKILL.md").
    """
    if not getattr(screen, "dirty", False):
        screen.dismiss(False)
        return

    def decided(choice: str | None) -> None:
        if choice == "save":
            save()
        elif choice == "discard":
            screen.dismiss(False)

    screen.app.push_screen(
        ChoiceScreen(
            "Unsaved changes",
            f"{what} has changes that are not saved.",
            [("keep", "Keep editing"), ("save", "Save"), ("discard", "Discard them")],
        ),
        decided,
    )
