"""Small decisions: pick one of a few choices, say yes or no, or read a diff before saving.

Every dialog answers the same way: each button shows its key, one letter of its label
in brackets ("[S]ave", "[K]eep editing"), no two alike; enter presses the highlighted
button (the default one when the dialog opens), escape cancels.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

ResultType = TypeVar("ResultType")

_DIFF_STYLES = (("+++", "bold"), ("---", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))


def diff_text(diff: str, context: str = "") -> Text:
    """A unified diff, coloured line by line, every character (indentation too) kept;
    the unchanged lines in the ``context`` style."""
    out = Text(no_wrap=False, overflow="fold")
    for line in diff.splitlines(keepends=True):
        style = next((s for prefix, s in _DIFF_STYLES if line.startswith(prefix)), context)
        out.append(line, style)
    return out


#: How every dialog answers, shown under its buttons.
DIALOG_HINT = "letter in [ ] or enter picks · esc cancels"


def button_keys(labels: Sequence[str], given: Sequence[str | None] = ()) -> list[str]:
    """Each button's key, one letter (or digit) of its label, lower case: the one
    ``given`` for it, else its first word's first letter, else the first free letter
    starting a later word, else any free letter of it. No two buttons share a key."""
    given = [*given, *[None] * (len(labels) - len(given))]
    taken: list[str] = []
    for label, key in zip(labels, given, strict=True):
        if key is None:
            starts = [m.group().lower() for m in re.finditer(r"\b[^\W_]", label)]
            others = [c.lower() for c in label if c.isalnum()]
            key = next((c for c in (*starts, *others) if c not in taken), None)
            if key is None:
                raise ValueError(f"no free key in {label!r} (taken: {taken})")
        key = key.lower()
        if key in taken or key not in label.lower():
            raise ValueError(f"key {key!r} of {label!r}: taken or not in the label")
        taken.append(key)
    return taken


def keyed_label(label: str, key: str) -> Text:
    """``label`` with its ``key`` shown: the letter in brackets, bold and underlined
    ("[S]ave", "A [d]ocument in ops/"); a word's first letter rather than one inside."""
    at = next(
        (m.start() for m in re.finditer(r"\b[^\W_]", label) if m.group().lower() == key),
        label.lower().find(key),
    )
    return Text.assemble(label[:at], "[", (label[at], "bold underline"), "]", label[at + 1 :])


class ButtonDialog(ModalScreen[ResultType]):
    """A question answered by a row of buttons, each with its key shown on it (one
    letter of its label, :func:`button_keys`); enter presses the highlighted button (the
    default when the dialog opens), escape cancels (dismisses with ``cancel``)."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "pick_default", "Pick", show=False),
    ]

    def __init__(
        self,
        answers: Sequence[tuple[str, ResultType, str, str | None]],
        *,
        default: str,
        cancel: ResultType,
    ) -> None:
        """``answers``: (button id, value, label, key or ``None`` to pick one);
        ``default``: the id of the button highlighted first."""
        super().__init__()
        keys = button_keys([a[2] for a in answers], [a[3] for a in answers])
        self.answers = [
            (id_, value, label, key)
            for (id_, value, label, _), key in zip(answers, keys, strict=True)
        ]
        self.keys = {id_: key for id_, _, _, key in self.answers}  # each button's key
        self.answered = False  # an answer given: it is closing
        self.default = default
        self.cancel = cancel

    def buttons(self) -> ComposeResult:
        with Horizontal(id="choice-buttons"):
            for id_, _, label, key in self.answers:
                yield Button(
                    keyed_label(label, key),
                    id=id_,
                    variant="primary" if id_ == self.default else "default",
                )

    def on_mount(self) -> None:
        self.focus_first()

    def focus_first(self) -> None:
        """Give the focus to what takes it first: the default button."""
        self.query_one(f"#{self.default}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.answered = True
        self.dismiss(next(v for id_, v, _, _ in self.answers if id_ == event.button.id))

    def on_key(self, event: events.Key) -> None:
        """A button's key presses it (a disabled button stays as it is). A key typed
        once it is answered is for what comes after it (``S q o``: the ``o`` answers the
        question the ``q`` opens), and goes there."""
        if self.answered:
            late = getattr(self.app, "late_keys", None)
            if late is not None:
                late.after(event, self)
            return
        key = (event.character or "").lower()
        found = next((id_ for id_, _, _, k in self.answers if k == key), None)
        if found is not None:
            event.stop()
            self.answered = True
            self.query_one(f"#{found}", Button).press()

    def action_cancel(self) -> None:
        self.answered = True
        self.dismiss(self.cancel)

    def action_pick_default(self) -> None:
        self.answered = True
        self.query_one(f"#{self.default}", Button).press()


class ChoiceScreen(ButtonDialog[str | None]):
    """A question with a few answers; dismisses with the chosen answer (escape: ``None``).

    ``choices`` are ``(answer, label)`` or ``(answer, label, key)``: each is picked by
    its key, one letter of its label shown in brackets on its button (the first letter
    of the label unless another answer has it, :func:`button_keys`). ``default`` is the
    highlighted answer (the first if not given).
    """

    CSS_PATH = "choose.tcss"

    def __init__(
        self,
        title: str,
        message: str,
        choices: Sequence[tuple[str, str] | tuple[str, str, str]],
        *,
        default: str | None = None,
    ) -> None:
        answers = [(f"choice-{c[0]}", c[0], c[1], c[2] if len(c) == 3 else None) for c in choices]
        chosen = default if default is not None else choices[0][0]
        super().__init__(answers, default=f"choice-{chosen}", cancel=None)
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = DIALOG_HINT
            yield Static(Text(self.message), id="choice-message")
            yield from self.buttons()


class ConfirmScreen(ButtonDialog[bool]):
    """A yes-or-no question: the ``yes`` button (the default) answers ``True``, ``no``
    or escape ``False``."""

    CSS_PATH = "choose.tcss"

    def __init__(self, title: str, question: str, *, yes: str = "Yes", no: str = "No") -> None:
        answers = [("confirm-yes", True, yes, None), ("confirm-no", False, no, None)]
        super().__init__(answers, default="confirm-yes", cancel=False)
        self.title_text = title
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = DIALOG_HINT
            yield Static(Text(self.question), id="choice-message")
            yield from self.buttons()


class DiffScreen(ButtonDialog[bool]):
    """A unified diff to read before writing: its ``confirm`` button (the default) saves
    (True), Cancel or escape not."""

    CSS_PATH = "choose.tcss"

    def __init__(self, title: str, diff: str, *, confirm: str = "Save") -> None:
        answers = [("diff-yes", True, confirm, None), ("diff-no", False, "Cancel", None)]
        super().__init__(answers, default="diff-yes", cancel=False)
        self.title_text = title
        self.diff = diff
        self.confirm = confirm

    def compose(self) -> ComposeResult:
        with Vertical(id="diff-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = DIALOG_HINT
            with VerticalScroll(id="diff-scroll"):
                yield Static(diff_text(self.diff or "(no change)\n"))
            yield from self.buttons()

    def focus_first(self) -> None:
        """The diff has the focus, to scroll it; enter still presses the default."""
        self.query_one("#diff-scroll").focus()


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
