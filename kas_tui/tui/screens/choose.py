"""Small decisions: pick one of a few choices, or read a diff before saving."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

_DIFF_STYLES = (("+++", "bold"), ("---", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))


def diff_text(diff: str, context: str = "") -> Text:
    """A unified diff, coloured line by line, every character (indentation too) kept;
    the unchanged lines in the ``context`` style."""
    out = Text(no_wrap=False, overflow="fold")
    for line in diff.splitlines(keepends=True):
        style = next((s for prefix, s in _DIFF_STYLES if line.startswith(prefix)), context)
        out.append(line, style)
    return out


class ChoiceScreen(ModalScreen[str | None]):
    """A question with a few answers; dismisses with the chosen answer (escape: ``None``).

    ``choices`` are ``(answer, label)``, picked by position (1, 2, ...), or
    ``(answer, label, key)``, each picked by its own key (a letter), which stays the same
    whatever the other answers are. ``default`` is the focused answer (the first if not
    given).
    """

    CSS_PATH = "choose.tcss"
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(
        self,
        title: str,
        message: str,
        choices: Sequence[tuple[str, str] | tuple[str, str, str]],
        *,
        default: str | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.message = message
        self.keys = {
            (c[2] if len(c) == 3 else str(n)): c[0] for n, c in enumerate(choices, start=1)
        }
        self.choices = [(key, c[0], c[1]) for key, c in zip(self.keys, choices, strict=True)]
        self.default = default if default is not None else self.choices[0][1]

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = "enter picks · escape cancels"
            yield Static(Text(self.message), id="choice-message")
            with Horizontal(id="choice-buttons"):
                for key, answer, label in self.choices:
                    yield Button(
                        f"{key} {label}",
                        id=f"choice-{answer}",
                        variant="primary" if answer == self.default else "default",
                    )

    def on_mount(self) -> None:
        self.query_one(f"#choice-{self.default}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "").removeprefix("choice-"))

    def on_key(self, event) -> None:
        answer = self.keys.get(event.character or "")
        if answer is not None:
            event.stop()
            self.dismiss(answer)


class DiffScreen(ModalScreen[bool]):
    """A unified diff to read before writing; ``y``/enter saves (True), ``n``/escape not."""

    CSS_PATH = "choose.tcss"
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


#: The answers to every question about unsaved changes, in this order, each with its
#: key; a question where saving is not possible offers the same minus Save.
SAVE, DISCARD, KEEP = "save", "discard", "keep"
UNSAVED_CHOICES = ((SAVE, "Save", "s"), (DISCARD, "Discard", "d"), (KEEP, "Keep editing", "k"))


def ask_unsaved(
    app: App,
    message: str,
    *,
    discard: Callable[[], None],
    save: Callable[[], None] | None = None,
    others: Sequence[tuple[str, str, str, Callable[[], None]]] = (),
) -> None:
    """Ask what to do with unsaved changes: Save (when ``save`` is given), Discard, Keep.

    Keep editing (also escape) is the default and does nothing. ``others`` are answers
    of one question, ``(answer, label, key, run)``, offered after the three.
    """
    runs: dict[str | None, Callable[[], None]] = {DISCARD: discard}
    if save is not None:
        runs[SAVE] = save
    runs.update((answer, run) for answer, _, _, run in others)

    def decided(choice: str | None) -> None:
        run = runs.get(choice)
        if run is not None:
            run()

    choices = [c for c in UNSAVED_CHOICES if c[0] in runs or c[0] == KEEP]
    choices += [(answer, label, key) for answer, label, key, _ in others]
    app.push_screen(ChoiceScreen("Unsaved changes", message, choices, default=KEEP), decided)


def ask_before_leaving(
    screen: ModalScreen, what: str, save: Callable[[], None], *, closed: object = False
) -> None:
    """Close an editor ``screen``, first asking about its unsaved changes (if ``dirty``).

    ``what`` names the changed thing in the question ("This entry", "SKILL.md"); a clean
    screen dismisses with ``closed``, a discarded one with ``False``.
    """
    if not getattr(screen, "dirty", False):
        screen.dismiss(closed)
        return
    ask_unsaved(
        screen.app,
        f"{what} has changes that are not saved.",
        save=save,
        discard=lambda: screen.dismiss(False),
    )
