"""The rows of the frontmatter form: one field each, its name left, its editor right.

Every row keeps the text it started from, so it knows whether it changed; parses its
text with the headless checks of :mod:`kas_tui.core.form_fields`; and shows a dim hint and a red
error under its editor. Its inputs are :mod:`.inputs`' (pasted terminal escapes and
control characters stripped, said at the field); the sources and the generated/verified
history are in :mod:`.provenance`, the status and ``stale_after`` rows in
:mod:`.lifecycle_fields`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Static, TextArea

from kas_tui.core import form_fields as F
from kas_tui.tui.widgets.inputs import CleanInput, CleanTextArea, TagSuggester

# --- rows -----------------------------------------------------------------------------------


class FieldRow(Horizontal):
    """One frontmatter field: name, editor, hint and error. Subclasses give the editor."""

    DEFAULT_CSS = """
    FieldRow {
        height: auto;
        padding: 0 1;
        margin-top: 1;
    }

    .me-key {
        width: 16;
        padding-right: 1;
        color: $text-muted;
    }

    FieldRow.-changed > .me-key {
        color: $warning;
        text-style: bold;
    }

    FieldRow.-invalid > .me-key {
        color: $error;
        text-style: bold;
    }

    .me-value {
        width: 1fr;
        height: auto;
    }

    .me-value Input {
        width: 1fr;
    }

    .me-value Select {
        width: 1fr;
    }

    .me-value TextArea {
        width: 1fr;
    }

    .me-value Input {
        background: $boost;
    }

    .me-value Input:focus {
        background: $accent 15%;
    }

    .me-value Input.-invalid {
        background: $error 15%;
    }

    FieldRow.-invalid .me-editor {
        background: $error 15%;
    }

    #field-description {
        padding: 0;
        height: auto;
        min-height: 1;
        max-height: 8;
        background: $boost;
    }

    #field-description:focus {
        background: $accent 15%;
    }

    .me-info {
        height: auto;
        color: $text-muted;
    }

    .me-line {
        height: auto;
    }

    .me-remove {
        min-width: 3;
        margin-left: 1;
    }

    .me-remove:hover {
        color: $text-error;
    }

    FieldRow.-removed .me-editor {
        text-style: strike;
        color: $text-muted;
    }
    """

    class Edited(Message):
        """The row's text changed (the screen recounts what changed and what is invalid)."""

        def __init__(self, row: FieldRow) -> None:
            super().__init__()
            self.row = row

    DEFAULT_CLASSES = "me-row"

    def __init__(self, key: str, *, label: str | None = None, hint: str = "") -> None:
        super().__init__()
        self.key = key
        self.label = key if label is None else label
        self.hint = hint
        self.initial = ""  # the text the row started from; set by subclasses
        self.error: str | None = None  # the error shown at the field
        self.note = ""  # a message of the moment (text removed from a paste)
        self.from_disk_changed = False  # the value differs from the file (a raw edit)

    # subclasses ---------------------------------------------------------------------------

    def compose_editor(self) -> ComposeResult:
        raise NotImplementedError

    def text(self) -> str:
        raise NotImplementedError

    def parse(self) -> tuple[Any, str | None]:
        raise NotImplementedError

    def normalized(self, text: str) -> Any:
        """What counts when comparing the text with the initial one."""
        return text.strip()

    def notes(self) -> list[tuple[str, str]]:
        """``(level, message)`` notes under the editor (``info``, ``hint``, ``warning``)."""
        return [("hint", self.hint)] if self.hint else []

    def extra_info(self) -> Content | None:
        """A line shown above the notes (the tags' chips)."""
        return None

    @property
    def editor(self) -> Widget:
        return self.query_one(".me-editor")

    # shared -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Label(Text(self.label), classes="me-key")
        with Vertical(classes="me-value"):
            yield from self.compose_editor()
            yield RowInfo(classes="me-info")

    def on_mount(self) -> None:
        self.refresh_info()
        self.refresh_changed()

    @property
    def changed(self) -> bool:
        return self.normalized(self.text()) != self.normalized(self.initial)

    def refresh_changed(self) -> None:
        self.set_class(self.changed or self.from_disk_changed, "-changed")

    def refresh_info(self) -> None:
        """Redraw the line(s) under the editor: error, chips, notes."""
        notes = [("warning", self.note)] if self.note else []
        notes.extend(self.notes())
        self.query_one(RowInfo).show(self.error, self.extra_info(), notes)

    def check(self, *, show: bool) -> str | None:
        """Parse the text; show the error when ``show`` (or one is shown already)."""
        _, error = self.parse()
        if error is None or show or self.error:
            self.show_error(error)
        return error

    def show_error(self, error: str | None) -> None:
        if error != self.error:
            self.error = error
            self.set_class(bool(error), "-invalid")
            self.refresh_info()

    def focus_editor(self) -> None:
        self.editor.focus()
        self.screen.scroll_to_widget(self, animate=False)

    def edited(self) -> None:
        """Call after the text changed: notes, marks and the screen's counts follow."""
        _, error = self.parse()
        if self.error and error != self.error:
            self.error = error  # a fixed (or different) problem shows at once
            self.set_class(bool(error), "-invalid")
        self.refresh_info()
        self.refresh_changed()
        self.post_message(self.Edited(self))

    @on(CleanInput.Cleaned)
    def cleaned(self, event: CleanInput.Cleaned) -> None:
        event.stop()
        self.note = event.message
        self.refresh_info()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget is self.editor:
            self.check(show=True)


class RowInfo(Static):
    """Under a field's editor: its error (red), chips, and dim notes, in one widget."""

    def show(self, error: str | None, extra: Content | None, notes: list[tuple[str, str]]) -> None:
        lines = []
        if error:
            lines.append(Content.from_markup("[$text-error bold]✗ $error[/]", error=error))
        if extra is not None:
            lines.append(extra)
        if notes:
            lines.append(notes_content(notes))
        self.update(Content("\n").join(lines) if lines else "")
        self.display = bool(lines)

    def action_remove_tag(self, index: int) -> None:
        row = next((a for a in self.ancestors if isinstance(a, TagsRow)), None)
        if row is not None:
            row.remove_tag(index)

    def action_pick_type(self, index: int) -> None:
        row = next((a for a in self.ancestors if isinstance(a, TypeRow)), None)
        if row is not None:
            row.pick(index)


def notes_content(lines: list[tuple[str, str]]) -> Content:
    """Notes as one dim line; warnings stand out in the theme's warning colour."""
    parts = []
    for level, message in lines:
        if level == "warning":
            parts.append(Content.from_markup("[$text-warning]$message[/]", message=message))
        else:
            parts.append(Content.from_markup("[$foreground-muted]$message[/]", message=message))
    return Content(" · ").join(parts)


def tag_chips(tags: list[str]) -> Content | None:
    """The tags as chips; clicking one's ✕ runs ``remove_tag(i)`` on the widget showing it."""
    if not tags:
        return None
    return Content(" ").join(
        Content.from_markup(
            f"[@click=remove_tag({i})][$text-accent on $accent 20%]\u00a0$tag\u00a0✕\u00a0[/][/]",
            tag=tag.replace(" ", "\u00a0"),
        )
        for i, tag in enumerate(tags)
    )


class TextRow(FieldRow):
    """A one-line text field (type, title, resource) with optional suggestions."""

    def __init__(
        self,
        key: str,
        value: Any,
        *,
        parse: Callable[[str], tuple[Any, str | None]],
        hint: str = "",
        suggestions: Iterable[str] = (),
        placeholder: str = "",
        label: str | None = None,
    ) -> None:
        super().__init__(key, label=label, hint=hint)
        self.initial = "" if value is None else str(value)
        self._parse = parse
        self.suggestions = list(suggestions)
        self.placeholder = placeholder

    def compose_editor(self) -> ComposeResult:
        suggester = (
            SuggestFromList(self.suggestions, case_sensitive=False) if self.suggestions else None
        )
        yield CleanInput(
            self.initial,
            placeholder=self.placeholder,
            suggester=suggester,
            compact=True,
            classes="me-editor",
            id=f"field-{self.key}",
        )

    def text(self) -> str:
        return self.query_one(CleanInput).value

    def parse(self) -> tuple[Any, str | None]:
        return self._parse(self.text())

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.edited()


def type_chips(types: list[str], current: str) -> Content | None:
    """``types`` as chips (the one typed now stands out); clicking one runs
    ``pick_type(i)`` on the widget showing them."""
    if not types:
        return None
    chosen = current.strip().casefold()
    chips = []
    for i, name in enumerate(types):
        style = "$text-accent on $accent 50% bold" if name.casefold() == chosen else "$text-muted"
        chips.append(
            Content.from_markup(
                f"[@click=pick_type({i})][{style}]\u00a0$type\u00a0[/][/]",
                type=name.replace(" ", "\u00a0"),
            )
        )
    return Content(" ").join(chips)


class TypeRow(TextRow):
    """``type`` picked from ``choices`` (↑/↓, or a click on one) or typed: the vocabulary
    is open. ``choices`` come most useful first (the package's own types, then others)."""

    BINDINGS = [
        Binding("up", "step(-1)", "Previous type", show=False),
        Binding("down", "step(1)", "Next type", show=False),
    ]
    #: How many choices are shown as chips under the field.
    SHOWN = 10

    def __init__(self, value: Any, choices: Iterable[str], *, hint: str = "") -> None:
        self.choices = list(dict.fromkeys(choices))
        super().__init__(
            "type",
            value,
            parse=F.parse_type,
            hint=hint,
            suggestions=self.choices,
            placeholder="Runbook",
        )

    def extra_info(self) -> Content | None:
        return type_chips(self.choices[: self.SHOWN], self.text())

    def pick(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self.query_one(CleanInput).value = self.choices[index]

    def action_step(self, offset: int) -> None:
        """The previous or next choice (from the one typed now, else the first or last)."""
        if not self.choices:
            return
        names = [c.casefold() for c in self.choices]
        typed = self.text().strip().casefold()
        if typed in names:
            self.pick((names.index(typed) + offset) % len(names))
        else:
            self.pick(0 if offset > 0 else len(names) - 1)


class DescriptionRow(FieldRow):
    """The description: wraps as it grows, counts its characters, flags a second sentence."""

    PLACEHOLDER = "One sentence: what this answers and when to read it."

    def __init__(self, value: Any, title: Callable[[], str] = str) -> None:
        super().__init__("description")
        self.initial = "" if value is None else str(value)
        self.title = title  # the title as typed now (a description repeating it says nothing)

    def compose_editor(self) -> ComposeResult:
        yield CleanTextArea(
            self.initial,
            soft_wrap=True,
            compact=True,
            show_line_numbers=False,
            highlight_cursor_line=False,
            placeholder=self.PLACEHOLDER,
            classes="me-editor",
            id="field-description",
        )

    def text(self) -> str:
        return self.query_one(CleanTextArea).text

    def parse(self) -> tuple[Any, str | None]:
        return F.parse_description(self.text())

    def normalized(self, text: str) -> Any:
        return " ".join(text.split("\n")).strip()

    def notes(self) -> list[tuple[str, str]]:
        return F.description_notes(self.text(), self.title())

    @on(TextArea.Changed)
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self.edited()


class TagsRow(FieldRow):
    """Tags as comma-separated text with suggestions for the last one, shown as chips."""

    def __init__(self, value: Any, tags: Iterable[str]) -> None:
        super().__init__("tags")
        if isinstance(value, list):
            self.initial = F.format_tags(value)
        else:
            self.initial = "" if value is None else str(value)
        self.package_tags = list(tags)

    def compose_editor(self) -> ComposeResult:
        yield CleanInput(
            self.initial,
            placeholder="tag, another tag",
            suggester=TagSuggester(self.package_tags),
            compact=True,
            classes="me-editor",
            id="field-tags",
        )

    def text(self) -> str:
        return self.query_one(CleanInput).value

    def parse(self) -> tuple[Any, str | None]:
        return F.parse_tags(self.text())

    def normalized(self, text: str) -> Any:
        return tuple(F.split_tags(text))

    def notes(self) -> list[tuple[str, str]]:
        return [("hint", "comma-separated · → accepts a suggestion · click a chip's ✕ to remove")]

    def extra_info(self) -> Content | None:
        return tag_chips(F.split_tags(self.text()))

    def remove_tag(self, index: int) -> None:
        tags = F.split_tags(self.text())
        if 0 <= index < len(tags):
            del tags[index]
            self.query_one(CleanInput).value = F.format_tags(tags)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.edited()


class YamlRow(FieldRow):
    """Any other field: its value as one line of YAML; ✕ marks it for removal."""

    def __init__(
        self, key: str, value: Any, *, new: bool = False, note: str = "", offered: bool = False
    ) -> None:
        super().__init__(key, hint=note or "one line of YAML: text, [a, b], {key: value}")
        self.initial = "" if new or offered else F.format_yaml_value(value)
        self.new = new
        #: a field the package's rules ask for, not in the file: saved only once filled in
        self.offered = offered
        self.removed = False

    def compose_editor(self) -> ComposeResult:
        with Horizontal(classes="me-line"):
            yield CleanInput(
                self.initial,
                compact=True,
                classes="me-editor",
                id=f"field-{self.key}" if self.key.isidentifier() else None,
            )
            yield Button("✕", compact=True, classes="me-remove", tooltip=f"remove {self.key}")

    def text(self) -> str:
        return self.query_one(CleanInput).value

    def parse(self) -> tuple[Any, str | None]:
        if self.removed:
            return F.REMOVE, None
        return F.parse_yaml_value(self.text())

    @property
    def changed(self) -> bool:
        if self.offered:
            return not self.removed and bool(self.text().strip())
        if self.new:
            return not self.removed
        return self.removed or super().changed

    def notes(self) -> list[tuple[str, str]]:
        if self.removed:
            return [("warning", "removed when you save (✕ again keeps it)")]
        return super().notes()

    def toggle_removed(self) -> None:
        if self.new:
            self.remove()
            self.post_message(self.Edited(self))
            return
        self.removed = not self.removed
        self.query_one(CleanInput).disabled = self.removed
        self.set_class(self.removed, "-removed")
        self.edited()

    @on(Button.Pressed, ".me-remove")
    def _remove(self, event: Button.Pressed) -> None:
        event.stop()
        self.toggle_removed()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.edited()
