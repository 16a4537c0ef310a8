"""Create a document, a bundle or a SKILL.md (``c``): a small choice, then a form.

The form is the frontmatter editor's rows (``widgets/fields.py``); what they mean is the
core's to say (:mod:`kas_tui.features.create`): the types offered (the package's own first), the
file name drafted from the title, where the index entry goes, the skill's name rule.
Saving plans the files there and writes them as one undoable action of the app's edit
session (``ctrl+z`` removes what was created and puts back the index and the log).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Static

from kas_tui.core import form_fields as F
from kas_tui.core.okf import index_layout
from kas_tui.features import create as creating
from kas_tui.features.check.computations import RUNTIMES, is_computation_type
from kas_tui.features.check.skill_rules import MAX_DESCRIPTION_CHARS
from kas_tui.tui.edit_outcome import EditDecided, EditOutcome
from kas_tui.tui.screens.choose import ChoiceScreen, ask_before_leaving
from kas_tui.tui.screens.form import FormScreen
from kas_tui.tui.widgets.fields import DescriptionRow, FieldRow, TagsRow, TextRow, TypeRow
from kas_tui.tui.widgets.footer import KasFooter

if TYPE_CHECKING:
    from kas_tui.core.package import Package

DOCUMENT, BUNDLE, SKILL = "document", "bundle", "skill"
#: The rows whose text the form drafts (from the title, or the folder's name).
_DRAFTED = {DOCUMENT: "file-name", BUNDLE: "folder", SKILL: "name"}


def bundle_of(app: Any) -> str:
    """The bundle a new document or bundle goes into: the one selected in the tree (or
    the selected document's), else the one of the page shown."""
    from kas_tui.tui.widgets.nav_tree import NavTree

    tree = app.query_one(NavTree)
    ref = tree.cursor_node.data if tree.has_focus and tree.cursor_node is not None else None
    if ref is not None:
        if ref.kind == "root":
            return ""
        if ref.kind == "bundle":
            return ref.path
        if ref.listing is not None:
            return posixpath.dirname(ref.listing.index)
        return posixpath.dirname(ref.path)
    place = app.location or ""
    if place in ("", "SKILL.md"):
        return ""
    return posixpath.dirname(place)


def open_create(app: Any, kind: str | None = None) -> None:
    """``c``: ask what to create in the selected bundle, then open its form."""
    package: Package = app.package
    bundle = bundle_of(app)
    if bundle not in package.folders:
        bundle = ""

    def chosen(answer: str | None) -> None:
        if answer is None:
            return
        app.push_screen(CreateScreen(answer, bundle), lambda place: _show(app, place))

    if kind is not None:
        chosen(kind)
        return
    where = f"{bundle}/" if bundle else "the package root"
    choices = [
        (DOCUMENT, f"A document in {where}", "d"),
        (BUNDLE, f"A bundle (folder and index.md) in {where}", "b"),
    ]
    message = f"Create in {where}:"
    if not creating.has_skill(package):
        choices.insert(0, (SKILL, "SKILL.md: this package has none", "s"))
        message = "This package has no SKILL.md: agents cannot discover it.\n" + message
    app.push_screen(ChoiceScreen("Create", message, choices), chosen)


def _show(app: Any, place: str | None) -> None:
    if place:
        app.go(place, reveal=True)


def _parser(check: Callable[[str], Any]) -> Callable[[str], tuple[Any, str | None]]:
    """A row's parse function from a core check that raises :class:`CreateError`."""

    def parse(text: str) -> tuple[Any, str | None]:
        try:
            return check(text), None
        except creating.CreateError as exc:
            return None, exc.message

    return parse


class SkillDescriptionRow(DescriptionRow):
    """SKILL.md's description: what the package covers and when to use it (1,024 at most)."""

    PLACEHOLDER = "What the package covers. Use when ..."

    def __init__(self, value: Any, check: Callable[[str], str | None]) -> None:
        super().__init__(value)
        self._check = check

    def parse(self) -> tuple[Any, str | None]:
        value, error = F.parse_description(self.text())
        return value, error or self._check(self.text())

    def notes(self) -> list[tuple[str, str]]:
        count = len(" ".join(self.text().split()))
        notes = [("info", f"{count:,} / {MAX_DESCRIPTION_CHARS:,} characters")]
        if "when" not in self.text().lower():
            notes.append(("hint", 'say when to use it too ("Use when ..."): agents pick by it'))
        return notes


class CreateScreen(FormScreen[str | None]):
    """The form of a new document, bundle or SKILL.md; dismisses with the place to show
    once saved (``None`` when closed)."""

    CSS_PATH = ["form.tcss", "create.tcss"]
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "close", "Close"),
    ]

    def __init__(self, kind: str, bundle: str = "") -> None:
        super().__init__()
        self.kind = kind
        self.bundle = bundle
        self.saved = False
        self._drafted = ""  # the name the form drafted last (the user has not typed over it)
        self._place: str | None = None

    @property
    def package(self) -> Package:
        return self.kas.package

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="me-box"):
            with Horizontal(id="me-bar"):
                yield Static(Text(self._heading()), id="me-path")
            with VerticalScroll(id="me-form"), Vertical(id="me-fields"):
                yield Static(id="create-where")
                yield from self._rows()
            with Horizontal(id="me-actions"):
                yield Static(id="me-status")
                yield Button("Save ^s", variant="primary", id="me-save", compact=True)
                yield Button("Cancel", id="me-cancel", compact=True)
        yield KasFooter()

    def _heading(self) -> str:
        where = f"{self.bundle}/" if self.bundle else "the package root"
        if self.kind == SKILL:
            return f"New SKILL.md for {self.package.root.name}"
        return f"New {self.kind} in {where}"

    def _rows(self) -> list[FieldRow]:
        pkg = self.package
        if self.kind == SKILL:
            name = creating.skill_name(pkg)
            self._drafted = name
            return [
                TextRow(
                    "name",
                    name,
                    parse=self._skill_name,
                    hint="lowercase letters, digits and single hyphens; the folder's name",
                ),
                SkillDescriptionRow("", self._skill_description_problem),
            ]
        title = TextRow(
            "title",
            "",
            parse=F.parse_title,
            hint="the index entry and the tree show it",
        )
        description = DescriptionRow("", self._title_now)
        if self.kind == BUNDLE:
            return [
                title,
                description,
                TextRow(
                    "folder",
                    "",
                    label="folder name",
                    parse=_parser(self._folder),
                    hint="drafted from the title",
                ),
            ]
        types = creating.types_for(pkg, self.bundle)
        return [
            TypeRow(
                creating.default_type(pkg, self.bundle),
                types,
                hint="↑/↓ or a click picks one; any word will do",
            ),
            TextRow(  # shown for an Attested Computation only (OKF §10.2)
                "runtime",
                "",
                parse=self._runtime,
                hint="how the computation runs; its parameters mean what this runtime says",
                suggestions=RUNTIMES,
                placeholder="postgres",
            ),
            title,
            description,
            TextRow(
                "file-name",
                "",
                label="file name",
                parse=_parser(lambda text: creating.check_file_name(pkg, self.bundle, text)),
                hint=".md is added; drafted from the title",
            ),
            TagsRow(None, F.by_use([t for d in pkg.documents.values() for t in d.tags])),
        ]

    def on_mount(self) -> None:
        self.query_one("#me-box").border_title = Text("Create")
        self.query_one("#me-box").border_subtitle = "ctrl+s save · esc close"
        self._show_runtime()
        self.refresh_state()
        first = self.rows()[1 if self.kind == SKILL else 0]
        self.call_after_refresh(first.editor.focus)

    # -- the core's checks, for the rows ---------------------------------------------

    def _folder(self, text: str) -> str:
        name = text.strip().strip("/")
        return creating.check_new_folder(self.package, posixpath.join(self.bundle, name))

    def _skill_name(self, text: str) -> tuple[Any, str | None]:
        problems = creating.name_problems(self.package, text)
        return text.strip(), " · ".join(problems) or None

    def _skill_description_problem(self, text: str) -> str | None:
        found = creating.skill_problems(self.package, creating.skill_name(self.package), text)
        return "; ".join(found.get("description", [])) or None

    def _title_now(self) -> str:
        row = self.row("title")
        return row.text() if row is not None else ""

    # -- state ----------------------------------------------------------------------

    def value(self, key: str) -> str:
        row = self.row(key)
        return row.text() if row is not None else ""

    @property
    def dirty(self) -> bool:
        """Whether closing would lose what the user typed."""
        if self.saved:
            return False
        drafted = _DRAFTED[self.kind]
        return any(
            r.changed for r in self.rows() if not (r.key == drafted and r.text() == self._drafted)
        )

    def refresh_state(self) -> None:
        """Where the new files and the entry go, and the bottom line."""
        self.query_one("#create-where", Static).update(self._where())
        invalid = [r.key for r in self.rows() if r.parse()[1]]
        if invalid:
            self.set_status(f"To fill in or fix: {', '.join(invalid)}")
        else:
            self.set_status("Ready: ctrl+s creates it")

    def _where(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="dim", no_wrap=True)
        table.add_column()
        for label, value in self.where():
            table.add_row(label, Text(value))
        return table

    def where(self) -> list[tuple[str, str]]:
        """``(what, where)`` lines: the new file or folder, its index entry, the log."""
        pkg = self.package
        rows: list[tuple[str, str]] = []
        if self.kind == SKILL:
            rows.append(("file", "SKILL.md at the package root; its body drafted from the package"))
            rows.append(
                (
                    "body",
                    "Scope, Exclusions, Navigation, Entry points, Freshness, When to stop",
                )
            )
        elif self.kind == BUNDLE:
            folder = posixpath.join(self.bundle, self.value("folder").strip() or "…")
            entry = index_layout.NewEntry(
                folder, self.value("title") or "…", "", index_layout.BUNDLE
            )
            rows.append(("folder", f"{folder}/ with its index.md"))
            rows.append(("entry", creating.place_entry(pkg, self.bundle, entry).describe()))
        else:
            stem = self.value("file-name").strip().removesuffix(".md") or "…"
            path = posixpath.join(self.bundle, f"{stem}.md")
            kind = self.value("type").strip() or "Document"
            entry = index_layout.NewEntry(path, self.value("title") or "…", "", kind)
            rows.append(("file", f"{path} (status: draft)"))
            rows.append(("entry", creating.place_entry(pkg, self.bundle, entry).describe()))
        if self.kind != SKILL or pkg.log is not None:
            rows.append(("log", "one Creation entry in log.md"))
        return rows

    def _runtime(self, text: str) -> tuple[Any, str | None]:
        if text.strip() or not is_computation_type(self.value("type")):
            return " ".join(text.split()), None
        return "", "an Attested Computation needs one (bigquery, postgres, dbt, python...)"

    def _show_runtime(self) -> None:
        """The runtime row is there while the type is an Attested Computation."""
        row = self.row("runtime")
        if row is not None:
            row.display = is_computation_type(self.value("type"))

    @on(FieldRow.Edited)
    def _edited(self, event: FieldRow.Edited) -> None:
        event.stop()
        if event.row.key == "type":
            self._show_runtime()
        if event.row.key == _DRAFTED[self.kind]:  # a name's rule is enforced as it is typed
            event.row.check(show=True)
        if event.row.key == "title":
            self._draft_name()
            description = self.row("description")
            if description is not None:
                description.refresh_info()
        self.refresh_soon()

    def _draft_name(self) -> None:
        """Keep the file (or folder) name drafted from the title until the user types one."""
        row = self.row(_DRAFTED[self.kind])
        if row is None or row.text() != self._drafted:
            return
        title = self.value("title")
        fallback = "bundle" if self.kind == BUNDLE else "document"
        name = (
            creating.draft_file_name(self.package, self.bundle, title, fallback=fallback)
            if title.strip()
            else ""
        )
        self._drafted = name
        row.query_one(Input).value = name

    # -- saving ---------------------------------------------------------------------

    @on(Button.Pressed, "#me-save")
    def action_save(self) -> None:
        invalid = [(r, e) for r in self.rows() if (e := r.parse()[1])]
        if invalid:
            for row, _ in invalid:
                row.check(show=True)
            row, error = invalid[0]
            row.focus_editor()
            self.set_status(f"Not saved: {row.label}: {error}", error=True)
            return
        try:
            label, edit, place = self._plan()
        except creating.CreateError as exc:
            row = self.row(exc.field)
            if row is not None:
                row.show_error(exc.message)
                row.focus_editor()
            self.set_status(f"Not saved: {exc.message}", error=True)
            return
        self._place = place
        self._after_save(self.kas.run_edit(label, edit))

    def _plan(self) -> tuple[str, Callable[[Package], Any], str]:
        """The label, the edit and the place to show of what the form says."""
        pkg, kas = self.package, self.kas
        log, today = kas.session.log_edits, kas.today
        if self.kind == SKILL:
            skill = creating.plan_skill(
                pkg, description=self.value("description"), name=self.value("name")
            )
            return (
                "create SKILL.md",
                lambda p: creating.write_skill(p, skill, log=log, today=today),
                "SKILL.md",
            )
        if self.kind == BUNDLE:
            folder = posixpath.join(self.bundle, self.value("folder").strip().strip("/"))
            bundle = creating.plan_bundle(
                pkg, folder, title=self.value("title"), description=self.value("description")
            )
            return (
                f"create the bundle {bundle.folder}/",
                lambda p: creating.write_bundle(p, bundle, log=log, today=today),
                bundle.index,
            )
        document = creating.plan_document(
            pkg,
            self.bundle,
            title=self.value("title"),
            description=self.value("description"),
            type=self.value("type"),
            tags=F.split_tags(self.value("tags")),
            file_name=self.value("file-name"),
            runtime=self.value("runtime"),
        )
        return (
            f"create {document.path}",
            lambda p: creating.write_document(p, document, log=log, today=today),
            document.path,
        )

    def on_edit_decided(self, message: EditDecided) -> None:
        self._after_save(message.outcome)

    def _after_save(self, outcome: EditOutcome) -> None:
        if outcome is EditOutcome.SAVED:
            self.saved = True
            place = self._place
            if self.is_current:
                self.dismiss(place)
            else:  # a dialog (the conflict's diff) is still closing
                self.call_after_refresh(lambda: self.is_current and self.dismiss(place))
        elif outcome is EditOutcome.DROPPED:
            self.dismiss(None)
        elif outcome is not EditOutcome.CONFLICT_PENDING:
            self.set_status(
                "Not saved (see the message); what you typed is still here.", error=True
            )

    @on(Button.Pressed, "#me-cancel")
    def action_close(self) -> None:
        what = "SKILL.md" if self.kind == SKILL else f"The new {self.kind}"
        ask_before_leaving(self, what, self.action_save, closed=None)
