"""Edit SKILL.md: the description every agent's system prompt carries, and the body.

The description is weighed as it is typed: its length against the Agent Skills limit,
and the token cost of the ``<available_skills>`` entry built with it
(:func:`kas_tui.features.agent.catalog_entry`). It is validated the way the checker validates
SKILL.md (:func:`kas_tui.features.check.skill_rules.validate_skill`, run on a copy of the file
with the new description), and an invalid one is refused with the reason at the field.
The body is a Markdown text area; saving keeps the frontmatter bytes as they are.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Collapsible, Label, Static, TextArea

from kas_tui.core.editing import set_body, set_skill_description
from kas_tui.core.okf import yaml_patch
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.text import split_lines
from kas_tui.features.agent import catalog_entry
from kas_tui.features.agent.skill_catalog import skill_body_tokens
from kas_tui.features.check.skill_rules import (
    MAX_BODY_LINES,
    MAX_BODY_TOKENS,
    MAX_DESCRIPTION_CHARS,
    SkillProblem,
    validate_skill,
)
from kas_tui.tui.edit_outcome import EditDecided, EditOutcome, close_after_save
from kas_tui.tui.screens.choose import ask_before_leaving
from kas_tui.tui.screens.entry_editor import OneLineArea, text_problem
from kas_tui.tui.screens.kas_screen import KasModalScreen

if TYPE_CHECKING:
    from textual.app import App

    from kas_tui.core.fileio import Fingerprint
    from kas_tui.core.package import Package

#: Problems of the description itself: these refuse a save even when the file had them.
_DESCRIPTION_KINDS = ("description-too-long", "missing-field", "field-type")
_GAUGE = 16
#: Rows below which the form is drawn short (no explanation, no spacing): 24-row terminals.
SHORT_BELOW = 32


def gauge(count: int, limit: int, width: int = _GAUGE) -> Text:
    """``▰▰▰▱▱▱`` filled in proportion to ``count`` of ``limit`` (red when over)."""
    filled = min(width, round(width * count / limit)) if limit else width
    style = "red" if count > limit else ("yellow" if count > 0.8 * limit else "green")
    return Text.assemble(("▰" * filled, style), ("▱" * (width - filled), "dim"))


class SkillEditor(KasModalScreen[bool]):
    """The SKILL.md form; dismisses ``True`` when saved, ``False`` when closed."""

    CSS_PATH = ["entry_editor.tcss", "skill_editor.tcss"]
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "close", "Close"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._description = ""  # as saved
        self._body = ""
        self._text: str | None = None  # SKILL.md as saved, for validating on a copy
        self._tokens = 0  # the catalog entry's cost as saved
        self._known: set[tuple[str, str]] = set()  # problems the saved file already has
        self._refused: tuple[str, str] | None = None  # the values a save refused
        self._base: dict[str, Fingerprint] | None = None  # SKILL.md as the editor opened it

    @property
    def package(self) -> Package:
        return self.kas.package

    @property
    def _where(self) -> str | None:
        """Where the catalog entry says SKILL.md is: the app's one choice."""
        return getattr(self.kas, "catalog_location", None)

    def _load_baseline(self) -> None:
        pkg = self.package
        skill = pkg.skill
        self._description = skill.description if skill else ""
        self._body = skill.body if skill else ""
        try:
            self._text, base = pkg.read_for_edit("SKILL.md")
        except (OSError, ValueError):
            self._text, base = None, None
        if self._base is None and base is not None:
            self._base = {"SKILL.md": base}  # what the editor opened on: saves are based on it
        self._tokens = catalog_entry(pkg, self._where).tokens
        self._known = {(p.kind, p.message) for p in validate_skill(pkg.root, self._text)}

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        self._load_baseline()
        name = catalog_entry(self.package, self._where).name
        with Vertical(id="skill-box") as box:
            box.border_title = Text(f"SKILL.md · {name}")
            box.border_subtitle = Text(
                "ctrl+s save · esc close · E outside this editor opens $EDITOR"
            )
            yield Static(
                Text(
                    "Name and description: in every agent's system prompt. "
                    "Body: read when the skill is used."
                ),
                id="skill-where",
            )
            with Horizontal(classes="entry-row"):
                yield Label("Name", classes="entry-label")
                with Vertical(classes="entry-field"):
                    yield Static(
                        Text.assemble(
                            (name, "bold"), ("  the folder's name; not edited here", "dim")
                        ),
                        id="skill-name",
                        classes="entry-note",
                    )
            with Horizontal(classes="entry-row"):
                yield Label("Description", id="skill-desc-label", classes="entry-label")
                with Vertical(classes="entry-field"):
                    yield OneLineArea(self._description, id="skill-desc")
                    yield Static(id="skill-desc-note", classes="entry-note")
            with Horizontal(classes="entry-row"):
                yield Label("", classes="entry-label")
                with (
                    Vertical(classes="entry-field"),
                    Collapsible(
                        title="The catalog entry, as an agent's system prompt holds it",
                        id="skill-catalog-box",
                    ),
                ):
                    yield Static(id="skill-catalog")
            with Horizontal(classes="entry-row", id="skill-body-row"):
                yield Label("Body", id="skill-body-label", classes="entry-label")
                with Vertical(classes="entry-field", id="skill-body-field"):
                    yield TextArea(
                        self._body,
                        soft_wrap=True,
                        show_line_numbers=True,
                        tab_behavior="focus",
                        id="skill-body",
                    )
                    yield Static(id="skill-body-note")
            yield Static(id="skill-error")
            with Horizontal(id="skill-buttons"):
                yield Static(id="modal-notice")
                yield Button("Save ^s", id="skill-save", variant="primary", compact=True)
                yield Button("Cancel esc", id="skill-cancel", compact=True)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < SHORT_BELOW, "-short")

    def on_mount(self) -> None:
        self.set_class(self.app.size.height < SHORT_BELOW, "-short")
        body = self.query_one("#skill-body", TextArea)
        if "markdown" in body.available_languages:
            body.language = "markdown"
        self.query_one("#skill-error").display = False
        self._refresh_description()
        self._refresh_body()
        desc = self.query_one("#skill-desc", OneLineArea)
        desc.focus()
        self.call_after_refresh(desc.move_cursor, desc.document.end)

    # -- state ----------------------------------------------------------------------

    def values(self) -> tuple[str, str]:
        """What the fields say now: description, body."""
        return (
            self.query_one("#skill-desc", OneLineArea).text,
            self.query_one("#skill-body", TextArea).text,
        )

    def _changed(self) -> tuple[bool, bool]:
        desc, body = self.values()
        return desc.strip() != self._description.strip(), body != self._body

    @property
    def dirty(self) -> bool:
        """Whether the form holds changes that are not saved."""
        return self.is_mounted and any(self._changed())

    def catalog_tokens(self) -> int:
        """Tokens the catalog entry would cost with the description as typed."""
        desc = self.values()[0].strip()
        return dataclasses.replace(
            catalog_entry(self.package, self._where), description=desc
        ).tokens

    def description_problems(self) -> list[str]:
        """Why the description as typed cannot be saved (empty when it can).

        The checker's own validation, run on a copy of SKILL.md holding the new
        description: problems of the description, and any problem the copy has that the
        saved file did not.
        """
        desc = self.values()[0]
        problem = text_problem(desc, one_line=False)
        if problem:
            return [problem]
        if not self._changed()[0]:
            candidate = self._text
        else:
            if self._text is None:
                return ["SKILL.md cannot be read; nothing can be saved into it"]
            try:
                candidate = yaml_patch.set_field(self._text, "description", desc.strip())
            except (EditError, FormatError) as exc:
                return [exc.message]
        return [p.message for p in validate_skill(self.package.root, candidate) if self._refuses(p)]

    def _refuses(self, problem: SkillProblem) -> bool:
        """Whether ``problem`` of the edited copy stops the save."""
        if problem.kind in ("body-lines", "body-tokens"):
            return False  # the specification recommends; the checker only warns
        if problem.kind == "description-too-long":
            return True
        if problem.kind in _DESCRIPTION_KINDS and "description" in problem.message:
            return True
        return (problem.kind, problem.message) not in self._known

    def _refresh_description(self) -> None:
        desc = self.values()[0]
        count = len(desc.strip())
        tokens = self.catalog_tokens()
        delta = tokens - self._tokens
        note = Text.assemble(
            (f"{count:,}", "bold red" if count > MAX_DESCRIPTION_CHARS else "bold"),
            (f" / {MAX_DESCRIPTION_CHARS:,} characters ", "dim"),
            gauge(count, MAX_DESCRIPTION_CHARS),
            (" · catalog entry ", "dim"),
            (f"~{tokens:,} tokens", "bold"),
        )
        if delta:
            note.append(
                f" ({'+' if delta > 0 else '−'}{abs(delta):,} from ~{self._tokens:,})",
                "yellow" if delta > 0 else "green",
            )
        for problem in self.description_problems():
            note.append("\n✗ " + problem, "bold red")
        if desc.strip() and "when" not in desc.lower():
            note.append(
                '\nTip: say when to use it too ("Use when ..."); agents pick skills by it', "dim"
            )
        self.query_one("#skill-desc-note", Static).update(note)
        entry = dataclasses.replace(
            catalog_entry(self.package, self._where), description=desc.strip()
        )
        self.query_one("#skill-catalog", Static).update(Text(entry.text))
        self._mark_changes()

    def _refresh_body(self) -> None:
        body = self.values()[1]
        content = body.strip()
        lines = len(split_lines(content)) if content else 0
        tokens = skill_body_tokens(content)
        over = lines > MAX_BODY_LINES or tokens > MAX_BODY_TOKENS
        note = Text.assemble(
            (f"{lines:,} lines · ~{tokens:,} tokens", "bold yellow" if over else ""),
            (
                f" (recommended: under {MAX_BODY_LINES:,} lines, ~{MAX_BODY_TOKENS:,} tokens)",
                "dim",
            ),
        )
        self.query_one("#skill-body-note", Static).update(note)
        self._mark_changes()

    def _mark_changes(self) -> None:
        desc_changed, body_changed = self._changed()
        self.query_one("#skill-desc-label").set_class(desc_changed, "-modified")
        self.query_one("#skill-body-label").set_class(body_changed, "-modified")
        name = catalog_entry(self.package, self._where).name
        self.query_one("#skill-box").border_title = Text.assemble(
            f"SKILL.md · {name}",
            ("  ● unsaved", "bold yellow") if desc_changed or body_changed else "",
        )

    @on(TextArea.Changed, "#skill-desc")
    def _description_edited(self, event: TextArea.Changed) -> None:
        event.stop()
        self._hide_error()
        self._refresh_description()

    @on(TextArea.Changed, "#skill-body")
    def _body_edited(self, event: TextArea.Changed) -> None:
        event.stop()
        self._hide_error()
        self._refresh_body()

    # -- actions --------------------------------------------------------------------

    @on(Button.Pressed, "#skill-save")
    def action_save(self) -> None:
        problems = self.description_problems()
        if problems:
            self._refresh_description()
            self.query_one("#skill-desc").focus()
            self.app.bell()
            return
        desc_changed, body_changed = self._changed()
        if not (desc_changed or body_changed):
            self.dismiss(False)
            return
        desc, body = self.values()
        failure: list[str] = []

        def edit(pkg: Package) -> list[Any]:
            changes = []
            try:
                if desc_changed:
                    changes.append(set_skill_description(pkg, desc))
                if body_changed:
                    changes.append(set_body(pkg, "SKILL.md", body))
            except Exception as exc:
                failure.append(str(exc))
                raise
            return changes

        parts = (["description"] if desc_changed else []) + (["body"] if body_changed else [])
        what = " and ".join(parts)
        outcome = self.kas.run_edit(
            f"edit the SKILL.md {what}",
            edit,
            log=f"Edited the SKILL.md {what}.",
            based_on=self._base,
        )
        if not outcome.saved and failure:
            self._refused = self.values()
            shown = self.query_one("#skill-error", Static)
            shown.update(Text(f"✗ Not saved: {failure[0]}", "bold red"))
            shown.display = True
        self._after_save(outcome)

    def on_edit_decided(self, message: EditDecided) -> None:
        self._after_save(message.outcome)

    def _after_save(self, outcome: EditOutcome) -> None:
        close_after_save(self, outcome)
        # not saved: the fields keep the user's text, compared with what the editor opened
        # on, so a field the user did not touch is never written over another's change

    def _hide_error(self) -> None:
        if self.values() != self._refused:  # the refusal was about other text
            self.query_one("#skill-error").display = False

    @on(Button.Pressed, "#skill-cancel")
    def action_close(self) -> None:
        ask_before_leaving(self, "SKILL.md", self.action_save)


def open_skill_editor(app: App) -> None:
    """Open the SKILL.md editor (description with its catalog cost, and the body)."""
    app.push_screen(SkillEditor())
